"""Every tap of a Desmoche series, typed. The web turns a form into one of these; events store
``to_json()``. Fields default to None so that a stored action with a field missing is refused with a
RuleError naming the field, never a TypeError."""
from __future__ import annotations

from dataclasses import dataclass

from ..base import Action


@dataclass(frozen=True)
class Hand(Action):
    """A whole hand as the session file writes it (``{"winner": null}``: nobody won, the pot rolls over).
    Every player's stake goes in by itself; a stake agreed with ``set_stake`` becomes this hand's."""
    TYPE = "hand"
    hand: dict | None = None


@dataclass(frozen=True)
class SetStake(Action):
    """The stake from the next hand on."""
    TYPE = "set_stake"
    stake: int | None = None


@dataclass(frozen=True)
class EndSeries(Action):
    """The series is over: a pot nobody won and unclaimed side pots go back to whoever put them in."""
    TYPE = "end_series"


@dataclass(frozen=True)
class ReplaceHand(Action):
    """Correct a recorded hand (0-based ``index``); every later hand is played again."""
    TYPE = "replace_hand"
    index: int | None = None
    hand: dict | None = None


ACTIONS = {cls.TYPE: cls for cls in (Hand, SetStake, EndSeries, ReplaceHand)}
