"""Bounds (issue 13: a stake of 999999999 × a unit value of 9999999.99 after three rolled-over hands could
not be stored): every stake, side stake, unit value and mico is bounded where it comes in (new_game,
build, apply), and what a series adds up to is bounded too, so that no amount of a night can pass
SQLite's 64-bit integers. Tested with the largest allowed values over many rolled-over hands."""
import sqlite3

import pytest

from companion.domain.errors import RuleError
from companion.kinds.base import apply_change
from companion.kinds.desmoche import KIND, Spec
from companion.kinds.desmoche import actions as A
from companion.kinds.desmoche.hand import MAX_GAME_MINOR
from companion.kinds.desmoche.shape import MAX_MICO, MAX_STAKE, MAX_UNIT_VALUE, SIDE_GAMES
from companion.kinds.validate import MAX_COUNT, MAX_MONEY
from dm_helpers import P3, PLAYERS, act, doc, err, game, hand

SEATS4 = ["Ane", "Bea", "Carlos", "Dani"]
INT64 = 2 ** 63 - 1


def test_bounds_are_the_shared_ones():
    assert MAX_STAKE == MAX_COUNT and MAX_UNIT_VALUE == MAX_MONEY and MAX_MICO == 20
    # a night of hundreds of series each at the limit still fits in SQLite's integers
    assert MAX_GAME_MINOR * 900 < INT64


@pytest.mark.parametrize("spec, message", [
    (Spec(seats=P3, stake=MAX_STAKE + 1), "stake: must be at most 1000000 (1000001 given)"),
    (Spec(seats=P3, stake=999_999_999), "stake: must be at most 1000000 (999999999 given)"),
    (Spec(seats=P3, side_games={"oro": MAX_STAKE + 1}), "side_games.oro: must be at most 1000000 (1000001 given)"),
    (Spec(seats=P3, unit_value=MAX_UNIT_VALUE + 1), "unit_value: must be at most 10000000 (10000001 given)"),
    (Spec(seats=P3, unit_value=999_999_999), "unit_value: must be at most 10000000 (999999999 given)"),
    (Spec(seats=P3, stake=2 ** 70), "stake: must be at most 1000000 (a number of 71 bits given)"),
])
def test_new_game_bounds(spec, message):
    assert err(KIND.new_game, PLAYERS, spec) == message


def test_new_game_at_the_bounds():
    g = KIND.new_game(PLAYERS, Spec(seats=SEATS4, stake=MAX_STAKE, unit_value=MAX_UNIT_VALUE, bonuses=True,
                                    side_games={name: MAX_STAKE for name in SIDE_GAMES}))
    assert g["rules"]["stake"] == MAX_STAKE and g["unit_value"] == MAX_UNIT_VALUE


@pytest.mark.parametrize("patch, message", [
    ({"rules": {"stake": MAX_STAKE + 1}}, "rules.stake: must be at most 1000000 (1000001 given)"),
    ({"rules": {"stake": 10 ** 19}}, "rules.stake: must be at most 1000000 (10000000000000000000 given)"),
    ({"rules": {"stake": 1, "side_games": {"flor": 10 ** 9}}}, "rules.side_games.flor: must be at most 1000000 "
     "(1000000000 given)"),
    ({"unit_value": MAX_UNIT_VALUE + 1}, "unit_value: must be at most 10000000 (10000001 given)"),
    ({"next_stake": MAX_STAKE + 1}, "next_stake: must be at most 1000000 (1000001 given)"),
    ({"hands": [{"winner": None, "stake": MAX_STAKE + 1}]}, "hands[0].stake: must be at most 1000000 (1000001 given)"),
    ({"hands": [{"winner": "Ane", "mico": MAX_MICO + 1}]}, "hands[0].mico: must be at most 20 (21 given)"),
])
def test_build_bounds(patch, message):
    g = doc()
    g.update(patch)
    assert err(KIND.build, g, PLAYERS) == message


def test_apply_bounds():
    rec = game()
    assert err(KIND.apply, rec, A.SetStake(stake=MAX_STAKE + 1)) == "stake: must be at most 1000000 (1000001 given)"
    assert err(KIND.apply, rec, A.Hand(hand={"winner": None, "stake": 10 ** 12})) == \
        "hand.stake: must be at most 1000000 (1000000000000 given)"
    assert err(KIND.apply, rec, A.Hand(hand={"winner": "Ane", "mico": 21})) == "hand.mico: must be at most 20 (21 given)"
    rec = hand(rec, winner=None)
    assert err(KIND.apply, rec, A.ReplaceHand(index=0, hand={"winner": "Ane", "mico": 10 ** 20})).startswith(
        "hand.mico: must be at most 20")


def every_int(value):
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from every_int(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from every_int(v)


def assert_storable(rec) -> None:
    """Every number the series gives (state, results, settlement in minor units) fits SQLite's INTEGER."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE n (v INTEGER)")
    parts = [rec.state, KIND.state(rec), KIND.settlement(rec), KIND.overview(rec)]
    parts += [[i.result, i.before] for i in rec.items]
    numbers = [v for part in parts for v in every_int(part)]
    db.executemany("INSERT INTO n VALUES (?)", [(v,) for v in numbers])     # OverflowError past 64 bits
    assert max(abs(v) for v in numbers) <= MAX_GAME_MINOR
    net = KIND.settlement(rec)["net"]
    assert sum(abs(v) for v in net.values()) + KIND.settlement(rec)["on_table"] <= MAX_GAME_MINOR * 2


def largest(seats=SEATS4, side=True):
    return KIND.build(KIND.new_game(PLAYERS, Spec(seats=seats, stake=MAX_STAKE, unit_value=MAX_UNIT_VALUE,
                                                   bonuses=True,
                                                   side_games={n: MAX_STAKE for n in SIDE_GAMES} if side else {})),
                      PLAYERS)


def test_largest_values_over_many_rolled_over_hands():
    """Stake and unit value at their bounds, four players: 125 rolled-over hands fit (a pot of 500 million
    units, 5 × 10**15 minor units), the 126th is refused with a clear message, never overflowed."""
    rec = largest()
    for _ in range(100):
        rec = hand(rec, winner=None)
    assert rec.state["pot"] == 100 * 4 * MAX_STAKE
    assert_storable(rec)
    # the biggest win there is: 20 micos, same suit, and one loser arriba, on a pot of 101 rounds
    won = hand(rec, winner="Ane", mico=MAX_MICO, same_suit=True, arriba=["Bea"])
    assert won.state["balances"]["Ane"] == 101 * 3 * MAX_STAKE + 3 * 21 * MAX_STAKE + MAX_STAKE
    assert sum(won.state["balances"].values()) == 0
    assert_storable(won)
    for _ in range(25):
        rec = hand(rec, winner=None)
    assert len(rec.items) == 125 and rec.state["pot"] * MAX_UNIT_VALUE == 5 * 10 ** 15
    assert_storable(rec)
    with pytest.raises(RuleError) as e:
        KIND.apply(rec, A.Hand(hand={"winner": None}))
    assert e.value.path == "hand" and e.value.code == "desmoche.too_large"
    assert "cannot be recorded" in e.value.message and "10000000000000000 minor units" in e.value.message
    # the file of such a series: refused at the hand that passes the bound
    g = KIND.to_doc(rec)
    g["hands"].append({"winner": None})
    assert err(KIND.build, g, PLAYERS).startswith("hands[125]: amounts this large cannot be recorded")
    # a correction that would make a later hand pass it is refused too (side pots carried from hand 1)
    carried = {n: {"joined": SEATS4, "winner": None} for n in SIDE_GAMES}
    with pytest.raises(RuleError) as e:
        KIND.apply(rec, A.ReplaceHand(index=0, hand={"winner": None, "side": carried}))
    assert e.value.path == "hand" and e.value.code == "desmoche.later_impossible"
    assert e.value.message.startswith("that would make a later hand impossible (hand 116: amounts this large")
    # the end of the series gives everything back and still fits
    ended = act(rec, A.EndSeries())
    assert ended.state["pot"] == 0 and set(ended.state["balances"].values()) == {0}
    assert_storable(ended)


def test_largest_values_with_every_side_game_carried():
    rec = largest()
    all_in = {n: {"joined": SEATS4, "winner": None} for n in SIDE_GAMES}
    n = 0
    while True:
        try:
            change = KIND.apply(rec, A.Hand(hand={"winner": None, "side": all_in}))
        except RuleError as e:
            assert e.path == "hand" and e.code == "desmoche.too_large"
            break
        rec, _ = apply_change(rec, change)
        n += 1
        assert_storable(rec)
    assert n == 11       # 44 million units a hand on the table, as much again owed by the players
    rec = hand(rec, winner="Dani", mico=MAX_MICO, same_suit=True, arriba=["Ane", "Bea", "Carlos"],
               side={k: {"joined": SEATS4, "winner": "Dani"} for k in SIDE_GAMES})
    assert_storable(rec)
    assert rec.state["pot"] == 0 and not any(rec.state["side_pots"].values())


def test_unit_value_zero_is_bounded_in_units():
    from companion.kinds.desmoche.hand import check_bounds

    rec = KIND.build(doc({"stake": MAX_STAKE}, seats=SEATS4, unit_value=0), PLAYERS)
    assert KIND.settlement(rec) == {"net": {p: 0 for p in SEATS4}, "on_table": 0}
    state = dict(rec.state, pot=MAX_GAME_MINOR // 2, balances={p: -MAX_GAME_MINOR // 8 for p in SEATS4})
    check_bounds(rec.head, state, "hand")
    with pytest.raises(RuleError) as e:
        check_bounds(rec.head, dict(state, pot=MAX_GAME_MINOR // 2 + 1), "hands[7]")
    assert e.value.path == "hands[7]" and e.value.code == "desmoche.too_large"
