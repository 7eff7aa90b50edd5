"""A write costs the same at hand 600 as at hand 2: ``apply`` never walks past hands (it reads at most
the last one, or the hands it corrects and those after). How fast: bench/kind_speed.py."""
import dataclasses
from collections.abc import Sequence

from companion.kinds.base import GameRec
from companion.kinds.desmoche import KIND
from companion.kinds.desmoche import actions as A
from dm_helpers import PLAYERS, doc

SEATS4 = ["Ane", "Bea", "Carlos", "Dani"]


class Watched(Sequence):
    """The store's lazy sequence of items, recording which ones were read."""

    def __init__(self, items):
        self._items = list(items)
        self.read = set()

    def __len__(self):
        return len(self._items)

    def __getitem__(self, i):
        if isinstance(i, slice):
            raise AssertionError("a slice of the items: a walk")
        i = i + len(self._items) if i < 0 else i
        self.read.add(i)
        return self._items[i]

    def __iter__(self):
        raise AssertionError("iterated over every item: a walk")


def long_series(n=600):
    hands = []
    for i in range(n):
        h = {"winner": [None, "Ane", None, "Bea", "Carlos", None, "Dani"][i % 7]}
        if h["winner"] and i % 3 == 0:
            h.update(mico=1, arriba=[p for p in SEATS4 if p != h["winner"]][:1])
        if i % 2:
            h["side"] = {"oro": {"joined": SEATS4[:3], "winner": None if i % 4 == 1 else "Bea"}}
        if i % 50 == 0:
            h["stake"] = 10 + i // 50
        hands.append(h)
    return doc({"stake": 10, "bonuses": True, "side_games": {"oro": 5, "flor": 2}}, seats=SEATS4, hands=hands)


def watched(rec):
    items = Watched(rec.items)
    return GameRec(rec.kind, rec.head, items, rec.state, rec.seed), items


def test_a_write_reads_at_most_the_last_hand():
    rec = KIND.build(long_series(), PLAYERS)
    n = len(rec.items)
    for action in (A.Hand(hand={"winner": "Ane", "mico": 2, "side": {"oro": {"joined": SEATS4, "winner": "Ane"}}}),
                   A.SetStake(stake=40), A.EndSeries()):
        w, items = watched(rec)
        KIND.apply(w, action)
        assert items.read <= {n - 1}
        w, items = watched(rec)
        KIND.apply(w, dataclasses.replace(action, at=KIND.position(w)))
        assert items.read <= {n - 1}
    for part in (KIND.position, KIND.settlement, KIND.summary, KIND.headline, KIND.overview):
        w, items = watched(rec)
        part(w)
        assert items.read <= {n - 1}, part


def test_a_correction_reads_from_the_hand_it_corrects():
    rec = KIND.build(long_series(), PLAYERS)
    n = len(rec.items)
    w, items = watched(rec)
    change = KIND.apply(w, A.ReplaceHand(index=n - 3, hand={"winner": "Dani"}))
    assert items.read == {n - 3, n - 2, n - 1} and sorted(change.items) == [n - 3, n - 2, n - 1]


def test_600_hands_build_back_to_the_same_series():
    """(How fast, and that a hand at hand 600 costs what it costs at hand 2: bench/kind_speed.py; how many
    hands each reads: the conformance test.)"""
    g = long_series()
    assert KIND.to_doc(KIND.build(g, PLAYERS)) == KIND.to_doc(KIND.build(KIND.to_doc(KIND.build(g, PLAYERS)), PLAYERS))
    assert len(KIND.build(g, PLAYERS).items) == 600
