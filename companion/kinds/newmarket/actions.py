"""Every tap of a Newmarket game, typed. The web turns a form into one of these; events store ``to_json()``.
Each names the form field a refused part of it was typed in (``form_field``), for the page to show the
message beside it."""
from __future__ import annotations

from dataclasses import dataclass

from companion.kinds.base import Action, seat_field


@dataclass(frozen=True)
class StartDeal(Action):
    """The next deal: the antes go in. ``dealer`` names the dealer (the rotation continues from him);
    ``antes`` {player: {card: n}} says where each player put his chips (free ante only)."""
    TYPE = "start_deal"
    FIELD = "start"
    dealer: str | None = None
    antes: dict | None = None

    def form_field(self, path: str, seats: list[str]) -> str:
        if path.startswith("antes"):
            return seat_field("ante", path, "antes.", seats) or "antes"
        return "dealer" if path == "dealer" else self.FIELD


@dataclass(frozen=True)
class Dummy(Action):
    """Classic: the dealer swapped with the dummy, or it was auctioned (the price goes to the dealer)."""
    TYPE = "dummy"
    FIELD = "dummy"
    swap: bool = False
    sold_to: str | None = None
    price: int | None = None

    def form_field(self, path: str, seats: list[str]) -> str:
        return path if path in ("sold_to", "price") else self.FIELD


@dataclass(frozen=True)
class Exchange(Action):
    """Parlett: ``by`` took the dead hand (a player other than the dealer pays pool_ante into the pool)."""
    TYPE = "exchange"
    FIELD = "exchange"
    by: str


@dataclass(frozen=True)
class Boodle(Action):
    """Classic: ``by`` played a boodle card and takes its pile. Parlett: a Queen takes her King's pile
    (if face up; the King turns face down; the last face-up King ends the game and takes the pool)."""
    TYPE = "boodle"
    FIELD = "boodle"
    card: str
    by: str


@dataclass(frozen=True)
class EndDeal(Action):
    """``out`` went out (classic cards payout: ``cards_left`` {player: n} of every other player), or
    ``blocked``: nobody could."""
    TYPE = "end_deal"
    FIELD = "end"
    out: str | None = None
    cards_left: dict | None = None
    blocked: bool = False

    def form_field(self, path: str, seats: list[str]) -> str:
        if path.startswith("cards_left"):
            return seat_field("left", path, "cards_left.", seats) or "out"
        return "out" if path in ("out", "blocked") else self.FIELD


@dataclass(frozen=True)
class CancelDeal(Action):
    """Drop the deal in progress (its antes go back)."""
    TYPE = "cancel_deal"
    FIELD = "end"


@dataclass(frozen=True)
class EndGame(Action):
    """The table stops: the leftovers are shared (or, ``leftover: carry``, kept for the next game)."""
    TYPE = "end_game"
    FIELD = "end_game"


@dataclass(frozen=True)
class ReplaceDeal(Action):
    """Correct a deal (0-based ``index``; a session-file deal object); later deals are played again."""
    TYPE = "replace_deal"
    FIELD = "form"
    index: int
    deal: dict

    def form_field(self, path: str, seats: list[str]) -> str:
        """The correction form's field: the deal's parts have their own (``won_<card>`` for a boodle)."""
        p = path[len("deal"):].lstrip(".") if path.startswith("deal") else path
        if p.startswith("antes"):
            return seat_field("ante", p, "antes.", seats) or "antes"
        if p.startswith("cards_left"):
            return seat_field("left", p, "cards_left.", seats) or "end"
        if p.startswith("boodles_won["):
            try:
                return f"won_{self.deal['boodles_won'][int(p[len('boodles_won['):].split(']', 1)[0])]['card']}"
            except (ValueError, IndexError, KeyError, TypeError):
                return "boodles"
        if p.startswith("dummy"):
            rest = p[len("dummy"):].lstrip(".")
            return rest if rest in ("sold_to", "price") else "dummy"
        head = p.replace("[", ".").split(".", 1)[0]
        if head in ("dealer", "exchange"):
            return head
        return "end" if head in ("out", "blocked", "open") or not p else self.FIELD


ACTIONS = {cls.TYPE: cls for cls in (StartDeal, Dummy, Exchange, Boodle, EndDeal, CancelDeal, EndGame,
                                     ReplaceDeal)}
