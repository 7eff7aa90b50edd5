"""What the app asks of a game kind, and the shapes a kind and the store exchange.

A game is stored as its **head** (the session file's game object without its list of hands or deals),
its **items** (each hand or deal as the file writes it, with what it gave and the running state before
it) and its **running state** after every closed item. A tap is one typed action; ``Kind.apply`` turns
it into a ``Change`` of a few of these parts, so that a write costs the same at hand 200 as at hand 2.
Undo applies the inverse ``Change`` (``apply_change`` returns it): one mechanism, used by the store on
rows and by ``companion.record.session`` on documents.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field, fields
from collections.abc import Sequence
from typing import Any, ClassVar, Protocol

from companion.domain.errors import RuleError
from companion.domain.indexed import Indexed
from companion.domain.messages import Msg


@dataclass
class Item:
    body: dict                  # the hand or deal as the session file writes it ("open": in progress)
    result: dict | None         # what it gave (None while it is open)
    before: dict                # the running state before it


@dataclass
class GameRec:
    kind: str
    head: dict                  # the game object without its items
    items: Sequence[Item]       # a list, or the store's lazy view of the rows
    state: dict                 # the running state after every closed item
    seed: dict | None = None    # what the previous game of the same kind hands on (chips carried over)


@dataclass
class Change:
    head: dict | None = None                            # the new head (None: unchanged)
    state: dict | None = None                           # the new running state (None: unchanged)
    items: dict[int, Item | None] = field(default_factory=dict)   # index -> new item; None: removed


class Overlay(Indexed):
    """A game's items after some changes, over the items they were made to, without reading (or
    copying) the unchanged ones: a tap on a stored game reads only what it touches."""

    def __init__(self, base: Sequence, count: int, cut: int, changed: dict):
        # base[i] is still the item i for i < cut; changed overrides; count is the length now
        self.base, self.count, self.cut, self.changed = base, count, cut, changed

    def _get(self, i: int) -> Item:
        return self.changed[i] if i in self.changed else self.base[i]

    def __eq__(self, other) -> bool:
        return isinstance(other, Sequence) and len(other) == len(self) and list(self) == list(other)


def apply_change(rec: GameRec, change: Change) -> tuple[GameRec, Change]:
    """The game after ``change``, and the change that takes it back (undo): the one way a change is
    applied, to a document's list of items and to the store's lazy rows alike. Reads only the items the
    change replaces (for the inverse)."""
    items = rec.items
    count = len(items)
    if isinstance(items, Overlay):
        base, cut, changed = items.base, items.cut, dict(items.changed)
    else:
        base, cut, changed = items, count, {}
    inverse = Change(head=rec.head if change.head is not None else None,
                     state=rec.state if change.state is not None else None,
                     items={i: (items[i] if i < count else None) for i in change.items})
    for i in sorted(change.items):
        new = change.items[i]
        if new is None:
            count = min(count, i)
            cut = min(cut, i)
            changed = {k: v for k, v in changed.items() if k < i}
        else:
            assert i <= count, "items are appended one at a time"
            changed[i] = new
            count = max(count, i + 1)
    new_rec = GameRec(rec.kind, change.head if change.head is not None else rec.head,
                      Overlay(base, count, cut, changed),
                      change.state if change.state is not None else rec.state, rec.seed)
    return new_rec, inverse


@dataclass(frozen=True)
class Action:
    """A tap, typed. ``at`` is the position the phone saw (``Kind.position``): a step already recorded
    from another phone is refused instead of recorded twice."""
    TYPE: ClassVar[str] = ""
    FIELD: ClassVar[str] = ""      # the form field a refusal of this tap goes beside, unless it names a part
    at: str | None = field(default=None, kw_only=True)

    def form_field(self, path: str, seats: list[str]) -> str:
        """The form field that carries the part ``path`` of this tap (the path of a refusal), where the page
        shows the message; "" when the action does not say (the route's codec places it)."""
        return self.FIELD

    def to_json(self) -> dict:
        out = {"type": self.TYPE}
        out.update({k: v for k, v in asdict(self).items() if k != "at" and v is not None})
        return out


def action_from_json(types: dict[str, type], data: dict) -> Action:
    """An event's stored action back as its dataclass."""
    if not isinstance(data, dict) or data.get("type") not in types:
        raise RuleError("v.action_type", "type", type=str(data.get("type") if isinstance(data, dict) else data))
    cls = types[data["type"]]
    names = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in data.items() if k in names and k != "at"})


def fingerprint(*parts: Any) -> str:
    """A short token that changes when any part changes."""
    text = json.dumps(parts, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.blake2b(text.encode(), digest_size=6).hexdigest()


def by_type(kind, rec: GameRec, action: Action, *context) -> Change:
    """``kind.do_<type>(rec, *context, action)``, once the position the phone saw is checked: how a kind's
    ``apply`` finds the handler of a tap."""
    check_at(action, kind.position(rec))
    handler = getattr(kind, f"do_{action.TYPE}", None)
    if handler is None:
        raise RuleError("v.action_type", "type", type=action.TYPE)
    try:
        return handler(rec, *context, action)
    except RuleError as err:
        # the tap says which of its form fields the refused part came from (an action that does not say
        # leaves the error as it is: the route's codec places it)
        field = err.field or action.form_field(err.path, rec.head.get("seats") or [])
        if field == err.field:
            raise
        raise err.named(field) from None


def seat_field(stem: str, path: str, prefix: str, seats: list[str]) -> str:
    """The per-seat form field (``left_2``) of the seat whose name follows ``prefix`` in ``path``
    (``cards_left.Carlos``); "" when no seat's does. The longest name wins (``Ana`` and ``Ana Mari``)."""
    best = None
    for i, p in enumerate(seats):
        head = prefix + p
        if path == head or path.startswith((head + ".", head + "[")):
            if best is None or len(p) > len(seats[best]):
                best = i
    return "" if best is None else f"{stem}_{best}"


def players_chart(title: Msg, unit: Msg, labels: list, values: dict, seats: list[str]) -> dict | None:
    """A history chart with one line per player (None with fewer than two points)."""
    if len(labels) < 2:
        return None
    return {"title": title, "x_labels": labels, "unit": unit,
            "series": [{"name": p, "values": values[p]} for p in seats]}


def ranked_by_net(kind, rec: GameRec) -> dict | None:
    """A game that ends (its head says ``ended``) ranks its players by net, equal nets sharing a rank:
    what ``Kind.contest`` answers for most kinds."""
    if not rec.head.get("ended"):
        return None
    seats = kind.seats(rec.head)
    net = kind.settlement(rec)["net"]
    values = [net.get(p, 0) for p in seats]
    return {"teams": [[p] for p in seats], "ranks": [1 + sum(1 for w in values if w > v) for v in values]}


def check_at(action: Action, position: str) -> None:
    from companion.domain.errors import Stale

    if action.at is not None and action.at != position:
        raise Stale()


class ClubMatch(Protocol):
    """A club night's round match (``rules/club.md``), answered by the kind that plays them
    (``Kind.club_match``; ``companion.kinds.club_kind()`` finds it): the club names no kind. The club file
    names that kind in ``club.kind`` and keeps the matches' settings under the kind's name (``club.<name>``).
    A match's running state carries ``teams``, ``games`` (each with ``score`` and ``by``), ``games_won``,
    ``match_winner`` and ``score``: what ``companion.club.results`` reads. CONTRACT.md says the same."""

    def settings(self, raw: Any, path: str) -> dict:
        """The club's settings for its matches (``club.<name>``: rules, scoring, stake) checked and
        cleaned; RuleError with the path of the first problem."""

    def game(self, settings: dict, seats: list[str]) -> dict:
        """A match's game object from the club's settings ({} : the kind's defaults), the four seats
        alternating the two teams (A, B, A, B)."""

    def games_to_win(self, head: dict) -> int | None:
        """The games a match's head needs to win it, as its rules resolve them."""

    def with_games_to_win(self, game: dict, count: int) -> dict:
        """The match's game object with ``count`` games to win (a stage's or a knockout tie's)."""

    def end_by_time(self) -> Action:
        """The tap that ends a match when the round's clock runs out (refused while a hand is open)."""


# the roles of ``RatedPairs.words``: every sentence the ratings pages say about a kind rated as pairs
PAIR_WORDS = ("pairs", "pairs_caption", "as_partners", "best_partner", "no_partner", "toughest",
              "partners_caption", "numbers", "no_numbers")


class RatedPairs(Protocol):
    """The ratings of a kind played by two pairs (``Kind.rated_pairs``): each pair is rated as one side
    against the other too (its board), partners and opponent pairs are counted, and its games give figures
    per team. The ratings pages ask it, never a kind by name. CONTRACT.md says the same."""

    words: dict                 # the ratings pages' sentences about it, by role (PAIR_WORDS): N_ templates
                                # the pages translate

    def numbers(self, rec: GameRec) -> dict[str, dict[str, int]]:
        """{"A": {figure: count}, "B": ...}: one game's figures per team (the player's page sums them)."""


class Kind(Protocol):
    """Everything the app asks of a game kind. One object per kind, pure (no Flask, no SQLite). CONTRACT.md
    says the same (a test holds them together)."""

    name: str                   # the session file's "kind" (its package's name)
    title: str                  # message code of its name
    items_key: str              # "hands" or "deals"
    min_players: int
    max_players: int
    actions: dict[str, type]    # action type -> dataclass (events store ``Action.to_json()``)
    ledger_round: str           # "hand" | "deal": what a CSV row's round is
    ledger_unit: str            # "points" | "chips" | "units"
    state_keys: frozenset       # the keys of its companion-state/1 entry
    stylesheets: tuple          # its pages' stylesheets: in its static/ folder, else the app's
    csv_columns: tuple          # its own columns of the session CSV (may be empty)
    glosses: dict               # its table words -> a short gloss (N_), shown the first time on a page
    words_lang: str             # the language its table words are in ("es": marked up as Spanish)
    at_tables: bool             # the organizer may put its game at a club night's table (``table_game``)
    club_match: ClubMatch | None    # a club night's round matches, when it plays them (one kind does)
    rated_pairs: RatedPairs | None  # rated as pairs too, with figures per team (one kind does); None: players

    def new_game(self, players: list[str], spec) -> dict:
        """A new game's session-file object from the kind's typed options; RuleError naming the option."""

    def build(self, game: dict, players: list[str] | None, seed: dict | None = None) -> GameRec:
        """Validate a session-file game object and play it through; RuleError(path relative to it)."""

    def to_doc(self, rec: GameRec) -> dict:
        """The session-file game object (canonical: ``build(to_doc(r))`` gives ``r`` again)."""

    def apply(self, rec: GameRec, action: Action) -> Change:
        """One tap; RuleError (path: the action's field) when it is not legal now."""

    def position(self, rec: GameRec) -> str:
        """A token that changes with every recorded step (cheap: no walk over past items)."""

    def state(self, rec: GameRec) -> dict:
        """The game's companion-state/1 entry (``why`` in English)."""

    def settlement(self, rec: GameRec) -> dict:
        """{"net": {player: minor units}, "on_table": minor units} for settling the night."""

    def seed_out(self, rec: GameRec) -> dict | None:
        """What this game hands to the next game of the same kind in the session (or None)."""

    def seats(self, head: dict) -> list[str]:
        """Who plays, in seat order."""

    def summary(self, rec: GameRec) -> Msg:
        """One line: where the game stands (history list)."""

    def headline(self, rec: GameRec) -> Msg:
        """One line for the session page (the hand in progress counts)."""

    def partnership(self, rec: GameRec) -> dict | None:
        """Team games: {"teams": {label: [players]}, "games_won": {label: n}, "match_winner"}; else None."""

    def history(self, rec: GameRec) -> list[dict]:
        """The hand-by-hand page: [{"title": Msg|None, "chart": chart|None, "rounds": [{"label": Msg,
        "meta": [Msg], "moves": [{"who", "team", "amount", "why": Msg, "lance"}]}]}]; a chart is {"title": Msg,
        "x_labels": [Msg | str] (never a number: write it as text), "unit": Msg, "series": [{"name": str,
        "values": [int | float | None], "color"?: str}]} (the conformance test checks these types)."""

    def contest(self, rec: GameRec) -> dict | None:
        """What the ratings rate: {"teams": [[player, ...], ...] (seat names, a side per team or player),
        "ranks": [1, 2, ...] (1 best, equal when tied)} once the game is finished; None while it goes on
        (``ranked_by_net`` is the usual answer of a game that ends: every player ranked by net)."""

    def table_game(self, players: list[str], seats: list[str]) -> dict | None:
        """A new game of this kind with its default rules for these seats, put at a club night's table by
        the organizer (a free night's chips game) when ``at_tables`` offers it; None when it does not (the
        club's own matches are made by ``club_match``). RuleError naming the seats when they do not fit."""

    def undone(self, rec: GameRec) -> Msg | None:
        """What undo is about to take back, as the game page's toast says it after ("Undone: ..."); None:
        the app's own words ("Undone: the last step")."""

    def ledger(self, rec: GameRec) -> list[dict]:
        """Rows for the CSV: {"round", "from", "to", "amount", "why": Msg} and the kind's own
        ``csv_columns``; ``round_type`` and ``unit`` are the kind's ``ledger_round`` / ``ledger_unit``."""
