"""Every tap of a Newmarket game, typed. The web turns a form into one of these; events store ``to_json()``."""
from __future__ import annotations

from dataclasses import dataclass

from ..base import Action


@dataclass(frozen=True)
class StartDeal(Action):
    """The next deal: the antes go in. ``dealer`` names the dealer (the rotation continues from him);
    ``antes`` {player: {card: n}} says where each player put his chips (free ante only)."""
    TYPE = "start_deal"
    dealer: str | None = None
    antes: dict | None = None


@dataclass(frozen=True)
class Dummy(Action):
    """Classic: the dealer swapped with the dummy, or it was auctioned (the price goes to the dealer)."""
    TYPE = "dummy"
    swap: bool = False
    sold_to: str | None = None
    price: int | None = None


@dataclass(frozen=True)
class Exchange(Action):
    """Parlett: ``by`` took the dead hand (a player other than the dealer pays pool_ante into the pool)."""
    TYPE = "exchange"
    by: str


@dataclass(frozen=True)
class Boodle(Action):
    """Classic: ``by`` played a boodle card and takes its pile. Parlett: a Queen takes her King's pile
    (if face up; the King turns face down; the last face-up King ends the game and takes the pool)."""
    TYPE = "boodle"
    card: str
    by: str


@dataclass(frozen=True)
class EndDeal(Action):
    """``out`` went out (classic cards payout: ``cards_left`` {player: n} of every other player), or
    ``blocked``: nobody could."""
    TYPE = "end_deal"
    out: str | None = None
    cards_left: dict | None = None
    blocked: bool = False


@dataclass(frozen=True)
class CancelDeal(Action):
    """Drop the deal in progress (its antes go back)."""
    TYPE = "cancel_deal"


@dataclass(frozen=True)
class EndGame(Action):
    """The table stops: the leftovers are shared (or, ``leftover: carry``, kept for the next game)."""
    TYPE = "end_game"


@dataclass(frozen=True)
class ReplaceDeal(Action):
    """Correct a deal (0-based ``index``; a session-file deal object); later deals are played again."""
    TYPE = "replace_deal"
    index: int
    deal: dict


ACTIONS = {cls.TYPE: cls for cls in (StartDeal, Dummy, Exchange, Boodle, EndDeal, CancelDeal, EndGame,
                                     ReplaceDeal)}
