"""Every tap of a Mus hand, typed. The web turns a form into one of these; events store ``to_json()``."""
from __future__ import annotations

from dataclasses import dataclass

from companion.kinds.base import Action


@dataclass(frozen=True)
class StartHand(Action):
    """Open a new hand: the mano by rotation (or named), with the four hands' cards or without."""
    TYPE = "start_hand"
    mano: str | None = None
    cards: dict | None = None


@dataclass(frozen=True)
class Pass(Action):
    """Everyone passed the lance being bid (opens a hand first when none is being recorded)."""
    TYPE = "pass"


@dataclass(frozen=True)
class Bet(Action):
    """The first envite of a lance; ``amount`` None is the minimum bet. ``answer`` "call" or "fold"
    records the other team's quiero / no quiero with it (one tap, one undo: the table answers at once)."""
    TYPE = "bet"
    team: str
    amount: int | None = None
    answer: str | None = None


@dataclass(frozen=True)
class Raise(Action):
    """Raise to the new total ``to``, or by ``more`` ("5 más")."""
    TYPE = "raise"
    to: int | None = None
    more: int | None = None
    team: str | None = None


@dataclass(frozen=True)
class Ordago(Action):
    TYPE = "ordago"
    team: str | None = None


@dataclass(frozen=True)
class Call(Action):
    """Quiero."""
    TYPE = "call"
    team: str | None = None


@dataclass(frozen=True)
class Fold(Action):
    """No quiero: the points are scored at once."""
    TYPE = "fold"
    team: str | None = None


@dataclass(frozen=True)
class Declare(Action):
    """Who has pares / juego ({player: what}; {} = nobody), without cards."""
    TYPE = "declare"
    pares: dict | None = None
    juego: dict | None = None


@dataclass(frozen=True)
class Showdown(Action):
    """The team with the better hand in each lance that needs it, or the four hands' cards."""
    TYPE = "showdown"
    grande: str | None = None
    chica: str | None = None
    pares: str | None = None
    juego: str | None = None
    pares_held: dict | None = None
    juego_held: dict | None = None
    cards: dict | None = None


@dataclass(frozen=True)
class PassRest(Showdown):
    """Everyone passes every lance still to bid in this hand, and the count goes with it (one form): it
    carries what a count carries (the better team of each lance that needs one, what each player held, or
    the four hands' cards). With the cards already known it needs nothing more."""
    TYPE = "pass_rest"


@dataclass(frozen=True)
class SetScoring(Action):
    """How this match is scored from now on: "bids" (lance by lance) or "tally" (points per hand)."""
    TYPE = "set_scoring"
    scoring: str


@dataclass(frozen=True)
class ReplaceHand(Action):
    """Correct a recorded hand (0-based ``index``); every later point is recomputed."""
    TYPE = "replace_hand"
    index: int
    hand: dict


@dataclass(frozen=True)
class AddHand(Action):
    """A whole hand typed from paper notes."""
    TYPE = "add_hand"
    hand: dict


@dataclass(frozen=True)
class Tally(Action):
    """A hand scored as with stones: [{"team", "points", "lance"?, "why"?}] in the order counted."""
    TYPE = "tally"
    awards: list
    mano: str | None = None


@dataclass(frozen=True)
class Adjust(Action):
    """A correction agreed at the table, between hands (points may be negative)."""
    TYPE = "adjust"
    team: str
    points: int
    why: str | None = None


@dataclass(frozen=True)
class EndByTime(Action):
    """The round's clock ended an undecided match (a club night): no hand follows."""
    TYPE = "end_by_time"


ACTIONS = {cls.TYPE: cls for cls in (StartHand, Pass, Bet, Raise, Ordago, Call, Fold, Declare, Showdown,
                                     ReplaceHand, AddHand, Tally, Adjust, PassRest, SetScoring, EndByTime)}
