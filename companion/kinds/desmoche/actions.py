"""Every tap of a Desmoche series, typed. The web turns a form into one of these; events store
``to_json()``. Fields default to None so that a stored action with a field missing is refused with a
RuleError naming the field, never a TypeError. Each names the form field a refused part of it was typed in
(``form_field``), for the page to show the message beside it."""
from __future__ import annotations

from dataclasses import dataclass

from companion.kinds.base import Action


# the hand's parts typed in a form field of the same name (a side game's are under side_<name>)
HAND_FIELDS = ("winner", "auto_win", "mico", "same_suit", "arriba", "disqualified", "stake")


def _hand_form_field(path: str) -> str:
    """The hand form's field of a part of a hand (``hand.side.oro.winner`` -> ``side_oro``)."""
    p = path[len("hand"):].lstrip(".") if path.startswith("hand") else path
    if p.startswith("side."):
        return "side_" + p[len("side."):].replace("[", ".").split(".", 1)[0]
    head = p.replace("[", ".").split(".", 1)[0]
    return head if head in HAND_FIELDS else "form"


@dataclass(frozen=True)
class Hand(Action):
    """A whole hand as the session file writes it (``{"winner": null}``: nobody won, the pot rolls over).
    Every player's stake goes in by itself; a stake agreed with ``set_stake`` becomes this hand's."""
    TYPE = "hand"
    hand: dict | None = None

    def form_field(self, path: str, seats: list[str]) -> str:
        return _hand_form_field(path)


@dataclass(frozen=True)
class SetStake(Action):
    """The stake from the next hand on."""
    TYPE = "set_stake"
    FIELD = "new_stake"
    stake: int | None = None


@dataclass(frozen=True)
class EndSeries(Action):
    """The series is over: a pot nobody won and unclaimed side pots go back to whoever put them in."""
    TYPE = "end_series"
    FIELD = "end"


@dataclass(frozen=True)
class ReplaceHand(Action):
    """Correct a recorded hand (0-based ``index``); every later hand is played again."""
    TYPE = "replace_hand"
    index: int | None = None
    hand: dict | None = None

    def form_field(self, path: str, seats: list[str]) -> str:
        return _hand_form_field(path)


ACTIONS = {cls.TYPE: cls for cls in (Hand, SetStake, EndSeries, ReplaceHand)}
