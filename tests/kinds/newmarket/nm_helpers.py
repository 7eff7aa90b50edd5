"""Shared builders for the Newmarket kind's tests (companion.kinds.newmarket)."""
from __future__ import annotations

import copy
import json
from collections.abc import Sequence

import pytest

from companion.domain.errors import RuleError
from companion.kinds.base import GameRec, apply_change
from companion.kinds.newmarket import KIND
from companion.kinds.newmarket import actions as A  # noqa: F401  (re-exported for the tests)

P4 = ["Ane", "Bea", "Carlos", "Dani"]
PLAYERS = P4 + ["Eneko", "Fermín", "Gorka", "Haizea"]
PARLETT = {"variant": "parlett"}


def raw_game(rules=None, seats=P4, deals=(), ended=False, start=20, **extra) -> dict:
    """A session-file Newmarket game object."""
    return {"kind": "newmarket", "rules": dict(rules or {}), "seats": list(seats), "start_chips": start,
            "deals": copy.deepcopy(list(deals)), "ended": ended, **extra}


def game(rules=None, seats=P4, deals=(), ended=False, start=20, seed=None, **extra) -> GameRec:
    return KIND.build(raw_game(rules, seats, deals, ended, start, **extra), PLAYERS, seed)


def run(rec: GameRec, *actions) -> GameRec:
    for a in actions:
        rec, _inverse = apply_change(rec, KIND.apply(rec, a))
    return rec


def state(rec: GameRec) -> dict:
    return KIND.state(rec)


def now(rec: GameRec) -> dict:
    """The running state including the deal in progress."""
    return KIND.current(rec)[0]


def total(s: dict) -> int:
    """Chips in players' hands + every pile (a state() or a current() running state)."""
    piles = s["pots"] if "pots" in s else s["piles"]
    return sum(s["chips"].values()) + sum(piles.values()) + s["kitty"] + s["pool"]


def err(fn, *args) -> str:
    """The refusal as "path: English message"."""
    with pytest.raises(RuleError) as e:
        fn(*args)
    return str(e.value)


def refusal(fn, *args) -> RuleError:
    with pytest.raises(RuleError) as e:
        fn(*args)
    return e.value


def apply_err(rec: GameRec, action) -> str:
    return err(KIND.apply, rec, action)


def whys(rec: GameRec) -> list[str]:
    return [e["why"] for e in state(rec)["log"]]


def results(rec: GameRec) -> list[dict]:
    """Each deal's result (the deal in progress: as played so far)."""
    out = [item.result for item in rec.items if item.result is not None]
    info = KIND.current(rec)[1]
    if info is not None:
        out.append(info)
    return out


def same(a: GameRec, b: GameRec) -> bool:
    """Two records hold the same game: head, running state, and every item (body, result, before)."""
    if a.head != b.head or a.state != b.state or a.seed != b.seed or len(a.items) != len(b.items):
        return False
    return all(x.body == y.body and x.result == y.result and x.before == y.before
               for x, y in zip(a.items, b.items))


def rebuilt(rec: GameRec, players=PLAYERS) -> GameRec:
    """The record read back from its exported file (through JSON)."""
    return KIND.build(json.loads(json.dumps(KIND.to_doc(rec))), players, rec.seed)


class Spy(Sequence):
    """A record's items that remember which indexes were read (a write must not walk past deals)."""

    def __init__(self, items):
        self._items = list(items)
        self.read: set[int] = set()

    def __len__(self):
        return len(self._items)

    def __getitem__(self, i):
        if isinstance(i, slice):
            raise AssertionError("a kind reads items one index at a time")
        n = len(self._items)
        self.read.add(i % n if i < 0 else i)
        return self._items[i]


def spied(rec: GameRec) -> tuple[GameRec, Spy]:
    spy = Spy(rec.items)
    return GameRec(rec.kind, rec.head, spy, rec.state, rec.seed), spy
