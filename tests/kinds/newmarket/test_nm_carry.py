"""``leftover: carry`` (issue 9): an ended carry game seeds the next Newmarket game of the same session
with its piles, kitty and pool, derived from the session itself (seed_out -> build(seed))."""
import copy

import pytest

from companion import kinds
from companion.record import events
from companion.record import session
from companion.kinds.newmarket import KIND
from companion.kinds.newmarket.options import NewmarketSpec
from companion.domain.messages import render

from nm_helpers import P4, PARLETT, PLAYERS, A, err, game, refusal, run, same, state, total


def carried_game(**rules):
    """A classic carry game: Bea took AH, blocked, ended: KC QD JS 4 each and a kitty of 4 wait."""
    return game({"leftover": "carry", "kitty_ante": 1, **rules},
                deals=[{"boodles_won": [{"card": "AH", "by": "Bea"}], "blocked": True}], ended=True)


SEED = {"piles": {"KC": 4, "QD": 4, "JS": 4}, "kitty": 4, "pool": 0, "chips": 16, "chip_value": 1}


def test_seed_out_of_an_ended_carry_game():
    g = carried_game()
    assert KIND.seed_out(g) == SEED
    s = state(g)
    assert s["pots"] == {"AH": 0, "KC": 4, "QD": 4, "JS": 4} and s["kitty"] == 4
    assert sum(s["net"].values()) == -16
    assert g.state["leftovers"] == {"total": 16, "each": 0, "odd": 0, "odd_to": [], "carried": True}
    money = KIND.settlement(g)
    assert money["on_table"] == 16 and sum(money["net"].values()) + money["on_table"] == 0
    assert render(money["note"]) == "16 chips stay on the table for the next Newmarket game of this session"
    # nothing is handed on before the end, nor by a sharing game, nor when nothing is left
    assert KIND.seed_out(game({"leftover": "carry"}, deals=[{"blocked": True}])) is None
    assert "note" not in KIND.settlement(game({"leftover": "carry"}, deals=[{"blocked": True}]))
    assert KIND.seed_out(game({"kitty_ante": 1}, deals=[{"blocked": True}], ended=True)) is None
    assert KIND.seed_out(run(game({"leftover": "carry"}), A.EndGame())) is None


def test_the_next_game_starts_with_the_carried_chips():
    seed = KIND.seed_out(carried_game())
    nxt = KIND.build(KIND.new_game(P4, NewmarketSpec(seats=P4, kitty_ante=1)), P4, seed)
    s2 = state(nxt)
    assert s2["pots"] == {"AH": 0, "KC": 4, "QD": 4, "JS": 4} and s2["kitty"] == 4
    assert KIND.brought_in(nxt) == 96 and total(s2) == 96
    assert KIND.settlement(nxt)["on_table"] == 0
    s3 = state(run(nxt, A.EndGame()))
    assert s3["chips"] == {p: 24 for p in P4} and sum(s3["net"].values()) == 16
    money = KIND.settlement(run(nxt, A.EndGame()))
    assert money["on_table"] == -16      # the chips came from the previous game: the night sums to zero
    assert sum(money["net"].values()) + money["on_table"] == 0
    # the carried piles are taken like any other
    taken = run(nxt, A.StartDeal(), A.Boodle(card="KC", by="Dani"), A.EndDeal(blocked=True))
    assert state(taken)["chips"]["Dani"] == 20 - 5 + 8


def test_a_file_without_carry_in_gives_what_the_app_computes():
    seed = KIND.seed_out(carried_game())
    raw = KIND.to_doc(KIND.build(KIND.new_game(P4, NewmarketSpec(seats=P4, kitty_ante=1)), P4, seed))
    assert "carry_in" not in raw
    rec = KIND.build(raw, P4, seed)
    assert state(rec)["pots"]["KC"] == 4 and rec.seed == seed


def test_the_old_apps_carry_in_key_is_read_when_it_agrees():
    seed = KIND.seed_out(carried_game())
    raw = dict(KIND.new_game(P4, NewmarketSpec(seats=P4, kitty_ante=1)),
               carry_in={"kitty": 4, "JS": 4, "qd": 4, "KC": 4, "AH": 0})
    rec = KIND.build(raw, P4, seed)
    assert same(rec, KIND.build(KIND.new_game(P4, NewmarketSpec(seats=P4, kitty_ante=1)), P4, seed))
    assert "carry_in" not in KIND.to_doc(rec)         # never written
    # an empty carry_in agrees with a session that carries nothing
    assert KIND.build(dict(raw, carry_in={}), P4).seed is None


@pytest.mark.parametrize("carry_in, seed, given", [
    ({"KC": 5, "QD": 4, "JS": 4, "kitty": 4}, SEED, "K♣ 5, Q♦ 4, J♠ 4, kitty 4"),
    ({"KC": 4}, None, "K♣ 4"),
    ({}, SEED, "nothing"),
])
def test_a_carry_in_that_disagrees_is_refused(carry_in, seed, given):
    raw = dict(KIND.new_game(P4, NewmarketSpec(seats=P4)), carry_in=carry_in)
    e = refusal(KIND.build, raw, P4, seed)
    assert e.path == "carry_in" and e.code == "newmarket.carry_in"
    carried = "K♣ 4, Q♦ 4, J♠ 4, kitty 4" if seed else "nothing"
    assert str(e) == (f"carry_in: must be what the previous Newmarket game of this session leaves on the table "
                      f"({carried}), not {given}: leave carry_in out, the app works it out")


def test_carry_in_shape_errors():
    raw = KIND.new_game(P4, NewmarketSpec(seats=P4))
    assert err(KIND.build, dict(raw, carry_in={"9H": 1}), P4) == \
        "carry_in.9H: 9H is not a pile of this game (AH, KC, QD, JS, kitty)"
    assert err(KIND.build, dict(raw, carry_in={"pool": 1}), P4) == \
        "carry_in.pool: pool is not a pile of this game (AH, KC, QD, JS, kitty)"
    assert err(KIND.build, dict(raw, carry_in={"KC": -1}), P4) == "carry_in.KC: cannot be negative (-1)"
    assert err(KIND.build, dict(raw, carry_in=[]), P4) == "carry_in: must be an object"


def test_seeded_piles_this_game_has_no_place_for():
    seed = KIND.seed_out(carried_game())
    other = KIND.new_game(P4, NewmarketSpec(seats=P4, boodles=["AS", "KH", "QC", "JD"]))
    e = refusal(KIND.build, other, P4, seed)
    assert e.path == "rules.boodles" and e.code == "newmarket.seed_card"
    assert str(e) == ("rules.boodles: the previous Newmarket game of this session left 4 chips on K♣, which is not "
                      "a boodle card of this game (A♠, K♥, Q♣, J♦): choose the same boodle cards")
    # a pool into classic
    pool_seed = KIND.seed_out(run(game(dict(PARLETT, leftover="carry")), A.StartDeal(), A.EndDeal(blocked=True),
                                  A.EndGame()))
    assert pool_seed == {"piles": {"KS": 4, "KH": 4, "KD": 4, "KC": 4}, "kitty": 0, "pool": 4, "chips": 20,
                         "chip_value": 1}
    classic_kc = KIND.new_game(P4, NewmarketSpec(seats=P4, boodles=["KS", "KH", "KD", "KC"]))
    e = refusal(KIND.build, classic_kc, P4, pool_seed)
    assert (e.path, e.code) == ("rules.variant", "newmarket.seed_pool")
    assert str(e) == ("rules.variant: the previous Newmarket game of this session left a pool of 4 chips: only "
                      "parlett has a pool")
    assert KIND.build(KIND.new_game(P4, NewmarketSpec(seats=P4, variant="parlett")), P4, pool_seed).state["pool"] == 4
    # chips of another value
    e = refusal(KIND.build, KIND.new_game(P4, NewmarketSpec(seats=P4, chip_value=10)), P4, seed)
    assert (e.path, e.code) == ("chip_value", "newmarket.seed_value")
    assert str(e) == ("chip_value: the previous Newmarket game of this session left 16 chips worth 1 each on the "
                      "table: this game's chips must be worth the same (not 10)")


def test_classic_piles_carry_into_parlett_kings():
    # a classic game whose boodles include KC hands its KC pile to parlett's King of clubs
    g = game({"leftover": "carry", "boodles": ["AH", "KC", "QD", "JS"]}, deals=[{"blocked": True}], ended=True)
    seed = KIND.seed_out(g)
    e = refusal(KIND.build, KIND.new_game(P4, NewmarketSpec(seats=P4, variant="parlett")), P4, seed)
    assert (e.path, e.params["card"]) == ("rules.boodles", "A♥")
    g = game({"leftover": "carry", "boodles": ["AH", "KC", "QD", "JS"]},
             deals=[{"boodles_won": [{"card": c, "by": "Ane"} for c in ("AH", "QD", "JS")], "blocked": True}],
             ended=True)
    p = KIND.build(KIND.new_game(P4, NewmarketSpec(seats=P4, variant="parlett")), P4, KIND.seed_out(g))
    assert state(p)["pots"]["KC"] == 4


def test_a_seed_from_the_previous_game_with_other_seats():
    seed = KIND.seed_out(carried_game())
    three = KIND.build(KIND.new_game(PLAYERS, NewmarketSpec(seats=["Eneko", "Fermín", "Gorka"])), PLAYERS, seed)
    s = state(run(three, A.EndGame()))
    assert s["chips"] == {"Eneko": 26, "Fermín": 25, "Gorka": 25}      # 16 shared: 5 each, 1 odd chip


def test_carry_game_that_carries_on():
    """A carry game seeded by a carry game hands on what is left of both."""
    seed = KIND.seed_out(carried_game())
    second = run(KIND.build(KIND.new_game(P4, NewmarketSpec(seats=P4, leftover="carry", kitty_ante=1)), P4, seed),
                 A.StartDeal(), A.Boodle(card="KC", by="Ane"), A.EndDeal(blocked=True), A.EndGame())
    assert KIND.seed_out(second) == {"piles": {"AH": 4, "QD": 8, "JS": 8}, "kitty": 8, "pool": 0, "chips": 28,
                                     "chip_value": 1}
    money = KIND.settlement(second)
    assert money["on_table"] == 28 - 16 and sum(money["net"].values()) + money["on_table"] == 0


# ---------------------------------------------------------------------------------------------------
# through the session layer (companion.record.session): derived, propagated, summed
# ---------------------------------------------------------------------------------------------------

@pytest.fixture
def with_newmarket(monkeypatch):
    monkeypatch.setitem(kinds.KINDS, "newmarket", KIND)


def session_doc(first: dict, second: dict) -> dict:
    return {"format": "companion-session/1", "name": "Friday", "players": PLAYERS, "games": [first, second]}


def test_session_derives_the_seed_and_settles_to_zero(with_newmarket):
    first = KIND.to_doc(carried_game())
    second = KIND.new_game(PLAYERS, NewmarketSpec(seats=P4, kitty_ante=1))
    second["deals"] = [{"boodles_won": [{"card": "KC", "by": "Carlos"}], "blocked": True}]
    second["ended"] = True
    s = session.load(session_doc(first, second))
    assert s.games[1].seed == KIND.seed_out(s.games[0])
    st = session.state_of(s)
    assert st["games"][1]["pots"] == {c: 0 for c in ("AH", "KC", "QD", "JS")}
    assert sum(st["settle"]["net"].values()) == 0 and st["settle"]["on_table"] == 0
    # the exported session has no carry_in, and reads back the same
    out = session.to_doc(s)
    assert all("carry_in" not in g for g in out["games"])
    assert session.to_doc(session.load(out)) == out


def test_session_refuses_a_next_game_the_carry_does_not_fit(with_newmarket):
    first = KIND.to_doc(carried_game())
    second = KIND.new_game(PLAYERS, NewmarketSpec(seats=P4, boodles=["AS", "KH", "QC", "JD"]))
    e = refusal(session.load, session_doc(first, second))
    assert e.path == "games[1].rules.boodles"


def test_session_propagates_a_correction_of_the_carry_game(with_newmarket):
    first = KIND.to_doc(carried_game())
    second = KIND.new_game(PLAYERS, NewmarketSpec(seats=P4, kitty_ante=1))
    s = session.load(session_doc(first, second))
    night = events.DocNight(s)
    out = events.step(night, "game", {"game": 0, "action": A.ReplaceDeal(
        index=0, deal={"boodles_won": [{"card": "KC", "by": "Bea"}], "blocked": True})})
    assert sorted(out.rebuilt) == [1]
    night.take(2, out)
    assert state(s.games[1])["pots"] == {"AH": 4, "KC": 0, "QD": 4, "JS": 4}
    net = session.state_of(s)["settle"]
    assert sum(net["net"].values()) + net["on_table"] == 0


def test_a_rebuilt_next_game_keeps_its_club_table_and_round(with_newmarket):
    """A correction that rebuilds the next game (events._propagate) keeps the table and round a club night
    put on it (they ride on the head, not in the kind's own file)."""
    first = {**KIND.to_doc(carried_game()), "table": "11"}
    second = {**KIND.new_game(PLAYERS, NewmarketSpec(seats=P4, kitty_ante=1)), "table": "11"}
    s = session.load(session_doc(first, second))
    night = events.DocNight(s)
    out = events.step(night, "game", {"game": 0, "action": A.ReplaceDeal(
        index=0, deal={"boodles_won": [{"card": "KC", "by": "Bea"}], "blocked": True})})
    assert out.rebuilt[1].head["table"] == "11"
    night.take(2, out)
    assert [g["table"] for g in session.to_doc(s)["games"]] == ["11", "11"]


def test_old_carry_game_fixture_stays_untouched():
    g = carried_game()
    before = copy.deepcopy(KIND.to_doc(g))
    KIND.seed_out(g)
    KIND.settlement(g)
    assert KIND.to_doc(g) == before
