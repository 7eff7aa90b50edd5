"""Properties of the Desmoche kind over random series (hypothesis): units are never created or destroyed,
undo is the exact inverse of a tap, the record built tap by tap is the one built from its file, the log
accounts for every unit, nets sum to zero once nothing is on the table, and every action can be refused
with a path (never another exception)."""
import copy
import dataclasses
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.domain.errors import RuleError, Stale
from companion.kinds.base import apply_change
from companion.kinds.desmoche import KIND
from companion.kinds.desmoche import actions as A
from companion.kinds.desmoche.hand import movements
from dm_helpers import PLAYERS, game, on_table, same_rec

SIDE = ["oro", "flor", "escalera", "par_rojo"]


@st.composite
def hand_strategy(draw, seats, rules):
    winner = draw(st.one_of(st.none(), st.sampled_from(seats)))
    h = {"winner": winner}
    others = [p for p in seats if p != winner]
    disq = draw(st.lists(st.sampled_from(others), unique=True, max_size=len(others))) if others else []
    if disq:
        h["disqualified"] = disq
    if winner is not None and rules["variant"] == "desmoche" and draw(st.integers(0, 3)) == 0:
        autos = ["peladilla", "cuatro_cuerpos"] + (["color"] if rules["color_wins"] else [])
        h["auto_win"] = draw(st.sampled_from(autos))
    elif winner is not None and rules["bonuses"]:
        h["mico"] = draw(st.integers(0, 3))
        h["same_suit"] = draw(st.booleans())
        h["arriba"] = draw(st.lists(st.sampled_from([p for p in others if p not in disq] or [None]), unique=True)
                           .filter(lambda a: None not in a))
    if draw(st.integers(0, 4)) == 0:
        h["stake"] = draw(st.integers(1, 20))
    side = {}
    for name in rules["side_games"]:
        joined = draw(st.lists(st.sampled_from(seats), unique=True))
        if joined or draw(st.booleans()):
            side[name] = {"joined": joined, "winner": draw(st.one_of(st.none(), st.sampled_from(joined)))
                          if joined else None}
    if side:
        h["side"] = side
    return h


@st.composite
def rules_strategy(draw):
    variant = draw(st.sampled_from(["desmoche", "desmoche", "conquian"]))
    r = {"variant": variant, "stake": draw(st.integers(1, 10)),
         "side_unclaimed": draw(st.sampled_from(["carry", "return"]))}
    if variant == "desmoche":
        r["bonuses"] = draw(st.booleans())
        r["color_wins"] = draw(st.booleans())
        r["side_games"] = draw(st.dictionaries(st.sampled_from(SIDE), st.integers(1, 5), max_size=3))
    else:
        r["side_games"] = draw(st.dictionaries(st.just("oro"), st.integers(1, 5)))
    return r


def replay_log(rec) -> dict:
    """Every player's and every pile's units, from the state's log alone."""
    held: dict = {}
    for e in KIND.state(rec)["log"]:
        if e["from"] is None:
            assert e["to"] is None and e["units"] == 0
            continue
        held[e["from"]] = held.get(e["from"], 0) - e["units"]
        held[e["to"]] = held.get(e["to"], 0) + e["units"]
    return held


def check(rec) -> None:
    s = rec.state
    seats = rec.head["seats"]
    # units are never created or destroyed (nobody brings any in: everything starts at 0)
    assert sum(s["balances"].values()) + on_table(rec) == 0
    # the log accounts for every unit, in every pile
    held = replay_log(rec)
    for p in seats:
        assert held.get(p, 0) == s["balances"][p]
    assert held.get("@pot", 0) == s["pot"]
    for name, n in s["side_pots"].items():
        assert held.get("@side:" + name, 0) == n
    # each hand's movements add up to its delta, and its before is the running state it was played from
    for i, item in enumerate(rec.items):
        d = {p: 0 for p in seats}
        for m in movements(rec.head, item):
            if m["from"] in d:
                d[m["from"]] -= m["units"]
            if m["to"] in d:
                d[m["to"]] += m["units"]
        assert d == item.result["delta"]
        if i + 1 < len(rec.items):
            nxt = rec.items[i + 1].before["balances"]
            assert all(item.before["balances"][p] + d[p] == nxt[p] for p in seats)
    # the main pot is every seat's equal share; side pots are what their players put in
    assert s["pot"] % len(seats) == 0
    for name, n in s["side_pots"].items():
        assert sum(s["put"][name].values()) == n
    # everything is JSON
    for part in (s, KIND.state(rec), KIND.overview(rec), KIND.to_doc(rec)):
        assert json.loads(json.dumps(part)) == part
    for item in rec.items:
        assert json.loads(json.dumps([item.body, item.result, item.before])) == [item.body, item.result, item.before]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), rules=rules_strategy(), n=st.integers(2, 4), unit_value=st.sampled_from([0, 1, 10, 250]))
def test_random_series(data, rules, n, unit_value):
    seats = PLAYERS[:n]
    rec = KIND.build({"kind": "desmoche", "rules": rules, "seats": seats, "unit_value": unit_value}, PLAYERS)
    start = rec
    taps = []
    for _ in range(data.draw(st.integers(0, 12))):
        k = data.draw(st.integers(0, 9))
        if rec.head["ended"]:
            k = 8 if len(rec.items) else 9
        if k == 0:
            now = rec.head.get("next_stake", rec.state["stake"])
            a = A.SetStake(stake=data.draw(st.integers(1, 9).filter(lambda n: n != now)))   # the same is refused
        elif k == 8 and len(rec.items):
            a = A.ReplaceHand(index=data.draw(st.integers(0, len(rec.items) - 1)),
                              hand=data.draw(hand_strategy(seats, rec.head["rules"])))
        elif k == 9:
            a = A.EndSeries()
        else:
            a = A.Hand(hand=data.draw(hand_strategy(seats, rec.head["rules"])))
        if rec.head["ended"] and a.TYPE != "replace_hand":
            with pytest.raises(RuleError) as e:
                KIND.apply(rec, a)
            assert e.value.path == "type"
            break
        frozen = copy.deepcopy(rec)
        at = KIND.position(rec)
        change = KIND.apply(rec, dataclasses.replace(a, at=at))
        assert same_rec(rec, frozen)                       # apply never touches the record it is given
        new, inverse = apply_change(rec, change)
        back, _ = apply_change(new, inverse)
        assert same_rec(back, rec)                         # undo is the exact inverse
        last = (lambda r: r.items[-1].body if len(r.items) else None)
        if (len(new.items), last(new), new.head, new.state) != (len(rec.items), last(rec), rec.head, rec.state):
            assert KIND.position(new) != at
            with pytest.raises(Stale):                     # a phone that saw the old screen is refused
                KIND.apply(new, A.SetStake(stake=3, at=at))
        rec = new
        taps.append(a)
        check(rec)
    # replay = cache: the record built tap by tap is the one built from its file (through JSON)
    rebuilt = KIND.build(json.loads(json.dumps(KIND.to_doc(rec))), PLAYERS)
    assert same_rec(rebuilt, rec)
    # the same taps again give the same record
    again = start
    for a in taps:
        again, _ = apply_change(again, KIND.apply(again, a))
    assert same_rec(again, rec)
    # once the series ends nothing is on the table and the nets sum to zero
    if not rec.head["ended"]:
        rec, _ = apply_change(rec, KIND.apply(rec, A.EndSeries()))
        check(rec)
    s = KIND.state(rec)
    assert s["pot"] == 0 and not any(s["side_pots"].values()) and sum(s["net"].values()) == 0
    st_ = KIND.settlement(rec)
    assert st_["on_table"] == 0 and sum(st_["net"].values()) == 0
    assert st_["net"] == {p: s["net"][p] * unit_value for p in seats}


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 25) | st.sampled_from(["Ane", "Bea", "Zoe", "oro", ""]),
                    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(
                        st.sampled_from(["winner", "joined", "oro", "flor", "mico", "x"]), kids, max_size=3),
                    max_leaves=8)
HAND_JUNK = st.dictionaries(st.sampled_from(["winner", "auto_win", "mico", "same_suit", "arriba", "disqualified",
                                             "stake", "side", "wiener"]),
                            JSON | st.sampled_from(["peladilla", "color", "Carlos"]), max_size=5)


@settings(max_examples=300, deadline=None)
@given(hand=st.one_of(HAND_JUNK, JSON), index=JSON, stake=JSON)
def test_junk_is_refused_with_a_path(hand, index, stake):
    """Whatever a stored action holds, the kind accepts it or refuses it with a RuleError with a path."""
    rec = game({"side_games": {"oro": 2}}, hands=[{"winner": None}])
    for a in (A.Hand(hand=hand), A.ReplaceHand(index=index, hand=hand), A.SetStake(stake=stake)):
        try:
            change = KIND.apply(rec, a)
        except RuleError as e:
            assert e.path and e.message
            continue
        new, _ = apply_change(rec, change)
        check(new)
        assert same_rec(KIND.build(KIND.to_doc(new), PLAYERS), new)


@pytest.mark.parametrize("action, path", [
    (A.Hand(hand={"winner": "Zoe"}), "hand.winner"),
    (A.Hand(hand=None), "hand"),
    (A.SetStake(stake=0), "stake"),
    (A.SetStake(stake=None), "stake"),
    (A.ReplaceHand(index=5, hand={"winner": None}), "index"),
    (A.ReplaceHand(index=0, hand={"winner": "Ane", "mico": 99}), "hand.mico"),
])
def test_every_action_can_be_refused_with_a_path(action, path):
    rec = game(hands=[{"winner": None}])
    with pytest.raises(RuleError) as e:
        KIND.apply(rec, action)
    assert e.value.path == path


def test_end_series_refused_with_a_path_once_ended():
    rec = game(ended=True)
    with pytest.raises(RuleError) as e:
        KIND.apply(rec, A.EndSeries())
    assert e.value.path == "type"
