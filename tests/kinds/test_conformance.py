"""The Kind contract, tested over every kind the app knows: a tap changes only what it names and undo is
its exact inverse; the record built tap by tap equals the record built again from its own document
(replay = cache); the position moves with every tap; the state has the format's keys; a game's money
balances; every action type can be refused, with a path; refusing changes nothing; and a tap costs the
same at hand 600 as at hand 2 (it reads as many items)."""
import dataclasses
import importlib
import importlib.util
import inspect
import json
import sys
import typing
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import kinds
from companion.domain.errors import RuleError
from companion.kinds.base import (PAIR_WORDS, ClubMatch, GameRec, Kind, RatedPairs, action_from_json,
                                  apply_change)
from kind_strategies import TAPS, new_games

PLAYERS = ["Ane", "Bea", "Carlos", "Dani", "Eneko"]
ROOT = Path(__file__).resolve().parent.parent.parent
LONG = 600


def _test_kinds() -> dict:
    """Kinds that live in the tests only, each one folder here (a package: its KIND in ``kind.py``, its new
    game and random taps in ``strategies.py``): the contract holds for a kind the app was never told about."""
    found = {}
    for path in sorted(Path(__file__).parent.glob("*/kind.py")):
        folder = path.parent
        spec = importlib.util.spec_from_file_location(f"test_kind_{folder.name}", folder / "__init__.py",
                                                      submodule_search_locations=[str(folder)])
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module         # dataclasses look their module up
        spec.loader.exec_module(module)
        found[module.KIND.name] = importlib.import_module(f"{spec.name}.strategies")
    return found


TEST_KINDS = _test_kinds()
KINDS = {**kinds.KINDS, **{name: m.KIND for name, m in TEST_KINDS.items()}}
GAMES = {**{g["kind"]: g for g in new_games(PLAYERS)}, **{n: m.new_game(PLAYERS) for n, m in TEST_KINDS.items()}}
TAPS = {**TAPS, **{n: m.tap for n, m in TEST_KINDS.items()}}
NAMES = sorted(KINDS)


def tap(draw, rec):
    return TAPS[rec.kind](draw, rec)


def test_every_kind_is_tested():
    assert set(KINDS) == set(GAMES) == set(TAPS) and TEST_KINDS
    assert not set(TEST_KINDS) & set(kinds.KINDS)       # the app does not know the test kinds


def _listed(protocol) -> list[str]:
    return sorted(set(typing.get_type_hints(protocol)) | {n for n, v in vars(protocol).items()
                                                          if callable(v) and n[0] != "_"})


def _where(obj) -> str:
    """The file that defines ``obj``'s class, from the repository's root."""
    path = Path(inspect.getsourcefile(type(obj))).resolve()
    return path.relative_to(ROOT).as_posix() if ROOT in path.parents else str(path)


def missing_hooks(kind) -> list[str]:
    """What a kind lacks of the protocol, each naming the file and the hook to add (CONTRACT.md): a new
    hook of ``Kind`` fails every kind that does not answer it yet, saying where."""
    out = [f"{_where(kind)}: add `{n}` (companion/kinds/base.py, Kind; CONTRACT.md)"
           for n in _listed(Kind) if not hasattr(kind, n)]
    match = getattr(kind, "club_match", None)
    if match is not None:
        out += [f"{_where(match)}: add `{n}` to the kind's club_match (companion/kinds/base.py, ClubMatch)"
                for n in _listed(ClubMatch) if not callable(getattr(match, n, None))]
    rated = getattr(kind, "rated_pairs", None)
    if rated is not None:
        out += [f"{_where(rated)}: add `{n}` to the kind's rated_pairs (companion/kinds/base.py, RatedPairs)"
                for n in _listed(RatedPairs) if not hasattr(rated, n)]
        out += [f"{_where(rated)}: add the words' role `{n}` (companion/kinds/base.py, PAIR_WORDS)"
                for n in PAIR_WORDS if n not in (getattr(rated, "words", None) or {})]
    return out


@pytest.mark.parametrize("name", NAMES)
def test_every_kind_provides_what_the_protocol_lists(name):
    assert missing_hooks(KINDS[name]) == []


def test_a_missing_hook_is_named_with_its_file():
    """The check itself: a kind without ``at_tables``, and a club match without ``end_by_time``."""
    class Bare:
        club_match = type("Half", (), {n: (lambda self: None) for n in _listed(ClubMatch) if n != "end_by_time"})()

    found = missing_hooks(Bare())
    assert "tests/kinds/test_conformance.py: add `at_tables` (companion/kinds/base.py, Kind; CONTRACT.md)" in found
    assert found[-1] == ("tests/kinds/test_conformance.py: add `end_by_time` to the kind's club_match "
                         "(companion/kinds/base.py, ClubMatch)")


@pytest.mark.parametrize("name", NAMES)
def test_a_kind_at_tables_makes_a_table_game(name):
    """``at_tables`` is what the club page lists (no probe on every render): a kind that says so makes a game
    for seats that fit it, and one that does not makes none."""
    kind = KINDS[name]
    seats = PLAYERS[:max(kind.min_players, 3)][:kind.max_players]
    game = kind.table_game(PLAYERS, seats)
    if kind.at_tables:
        assert game["kind"] == name and kind.build(game, PLAYERS).kind == name
    else:
        assert game is None


class Reads(Sequence):
    """A game's items, counting the reads; ``pad`` copies of the first item stand before them: the same
    game, ``pad`` items longer (an action that walks every item reads those too)."""

    def __init__(self, items, pad: int = 0):
        self.items, self.pad, self.count = list(items), pad if items else 0, 0

    def __len__(self) -> int:
        return len(self.items) + self.pad

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        self.count += 1
        return self.items[max(0, i - self.pad)]


def _reads(rec, pad: int, work) -> int:
    """How many items ``work(rec)`` reads on the game made ``pad`` items longer."""
    items = Reads(rec.items, pad)
    long = GameRec(rec.kind, rec.head, items, rec.state, rec.seed)
    try:
        work(long)
    except RuleError:
        pass
    return items.count


def _tap_and_store(kind, action):
    def work(rec):
        apply_change(rec, kind.apply(rec, action))     # what the store does with a tap: apply, then the rows
    return work


def _snapshot(kind, rec):
    return (json.dumps(kind.to_doc(rec), sort_keys=True), json.dumps(rec.state, sort_keys=True),
            [json.dumps(i.result, sort_keys=True) for i in rec.items])


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_contract(name, data):
    kind = KINDS[name]
    rec = kind.build(GAMES[name], PLAYERS)
    for _ in range(data.draw(st.integers(1, 40), label="taps")):
        action = tap(data.draw, rec)
        if action is None:
            break
        before = _snapshot(kind, rec)
        position = kind.position(rec)
        try:
            change = kind.apply(rec, action)
        except RuleError as err:
            assert err.path, (action, err)
            assert _snapshot(kind, rec) == before            # refused: nothing changed
            continue
        new, inverse = apply_change(rec, change)
        back, _ = apply_change(new, inverse)
        assert _snapshot(kind, back) == before               # undo is the exact inverse
        assert kind.position(new) != position                 # every tap moves the position
        rebuilt = kind.build(json.loads(json.dumps(kind.to_doc(new))), PLAYERS)
        assert _snapshot(kind, rebuilt) == _snapshot(kind, new)    # replay = cache
        # the stored action replays to the same tap
        assert action_from_json(kind.actions, json.loads(json.dumps(action.to_json()))) == \
            dataclasses.replace(action, at=None)
        rec = new
    state = kind.state(rec)
    assert kind.state_keys <= set(state) and state["kind"] == name
    money = kind.settlement(rec)
    assert sum(money["net"].values()) + money["on_table"] == 0          # nothing created or lost
    _check_rated_and_charted(kind, rec)


def _check_rated_and_charted(kind, rec):
    """What the ratings and the history pages take from a kind, typed as base.Kind says."""
    said = kind.contest(rec)
    if said is not None:
        seats = set(kind.seats(rec.head))
        assert len(said["teams"]) == len(said["ranks"]) >= 2
        assert all(isinstance(p, str) and p in seats for team in said["teams"] for p in team)
        assert all(isinstance(r, int) and r >= 1 for r in said["ranks"]) and min(said["ranks"]) == 1
    undone = kind.undone(rec)
    assert undone is None or isinstance(undone, dict) and "code" in undone
    for part in kind.history(rec):
        chart = part.get("chart")
        if chart is None:
            continue
        assert all(isinstance(x, str) or isinstance(x, dict) and "code" in x for x in chart["x_labels"]), \
            f"{kind.name}: a chart's x_labels are text or messages (base.Kind.history)"
        for line in chart["series"]:
            assert isinstance(line["name"], str)
            assert all(v is None or isinstance(v, (int, float)) and not isinstance(v, bool) for v in line["values"])
            assert len(line["values"]) == len(chart["x_labels"])


def _garbage(field_type) -> object:
    text = str(field_type)
    if "dict" in text:
        return {"Zoe": "x"}
    if "list" in text:
        return ["x"]
    if "int" in text:
        return -7
    if "bool" in text:
        return True
    return "Zoe"


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_action_type_can_be_refused_with_a_path(name, data):
    kind = KINDS[name]
    recs = [kind.build(GAMES[name], PLAYERS)]
    for _ in range(data.draw(st.integers(0, 25), label="taps")):
        action = tap(data.draw, recs[-1])
        if action is None:
            break
        try:
            recs.append(apply_change(recs[-1], kind.apply(recs[-1], action))[0])
        except RuleError:
            pass
    for cls in kind.actions.values():
        hints = typing.get_type_hints(cls)
        fields = {f.name: _garbage(hints[f.name]) for f in dataclasses.fields(cls) if f.name != "at"}
        refused = []
        for rec in recs:
            try:
                kind.apply(rec, cls(**fields))
            except RuleError as err:
                refused.append(err)
        stale = cls(**fields, at="not-the-position")
        with pytest.raises(RuleError) as err:
            kind.apply(recs[-1], stale)
        assert err.value.path == "at"
        if fields:
            assert refused and all(e.path for e in refused), (cls, refused)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_tap_costs_the_same_at_hand_600_as_at_hand_2(name, data):
    """Every tap the page offers (and what a poll or a summary asks) reads as many items of a game
    600 items longer: the head, the running state and the last item, never a walk over the night."""
    kind = KINDS[name]
    rec = kind.build(GAMES[name], PLAYERS)
    asks = {"position": kind.position, "settlement": kind.settlement, "summary": kind.summary,
            "partnership": kind.partnership, "headline": kind.headline}
    for _ in range(data.draw(st.integers(1, 30), label="taps")):
        action = tap(data.draw, rec)
        if action is None:
            break
        # without the position the phone saw (it counts the items: the longer game is another position)
        blind = dataclasses.replace(action, at=None)
        short, long = (_reads(rec, pad, _tap_and_store(kind, blind)) for pad in (0, LONG))
        assert short == long, (action.TYPE, len(rec.items), short, long)
        for what, ask in asks.items():
            assert _reads(rec, 0, ask) == _reads(rec, LONG, ask), (what, len(rec.items))
        try:
            rec = apply_change(rec, kind.apply(rec, action))[0]
        except RuleError:
            pass
