"""Newmarket rule engine: worked example, options, normalize, actions, properties."""
import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import newmarket as nm
from companion.rules.errors import RuleError

P4 = ["Ane", "Bea", "Carlos", "Dani"]
PLAYERS = P4 + ["Eneko", "Fermín", "Gorka", "Haizea"]


def game(rules=None, seats=P4, deals=(), ended=False, start=20, **extra):
    g = {"kind": "newmarket", "rules": dict(rules or {}), "seats": list(seats), "start_chips": start,
         "deals": list(deals), "ended": ended, **extra}
    return nm.normalize(g, PLAYERS)


def run(g, *actions):
    for a in actions:
        g = nm.apply(g, a)
    return g


def total(state):
    return sum(state["chips"].values()) + sum(state["pots"].values()) + state["kitty"] + state["pool"]


def err(fn, *args):
    with pytest.raises(RuleError) as e:
        fn(*args)
    return str(e.value)


# ---------------------------------------------------------------------------------------------------
# the worked example of rules/newmarket.md, step by step
# ---------------------------------------------------------------------------------------------------

def test_worked_example_step_by_step():
    g = nm.new_game(P4, {"seats": "Ane, Bea, Carlos, Dani", "start_chips": "20"})
    s = nm.compute(g)
    assert s["dealer"] == "Ane" and s["deal_number"] == 1
    g = nm.apply(g, {"type": "start_deal", "at": s["at"]})
    s = nm.compute(g)
    assert s["chips"] == {p: 16 for p in P4}
    assert s["pots"] == {"AH": 4, "KC": 4, "QD": 4, "JS": 4}
    assert s["deal_open"] and s["dealer"] == "Ane"
    g = nm.apply(g, {"type": "boodle", "card": "KC", "by": "Carlos", "at": s["at"]})
    s = nm.compute(g)
    assert s["chips"]["Carlos"] == 20 and s["pots"]["KC"] == 0
    assert s["log"][-1]["why"] == "Carlos played K♣: took 4"
    g = nm.apply(g, {"type": "end_deal", "out": "Bea", "cards_left": {"Ane": 3, "Carlos": 5, "Dani": 1}})
    s = nm.compute(g)
    assert s["chips"] == {"Ane": 13, "Bea": 25, "Carlos": 15, "Dani": 15}
    assert s["pots"] == {"AH": 4, "KC": 0, "QD": 4, "JS": 4}
    assert total(s) == 80 and s["brought_in"] == 80
    assert "Bea went out: Ane paid 3 (3 cards)" in [e["why"] for e in s["log"]]
    assert s["deals"][0]["paid"] == {"Ane": 3, "Carlos": 5, "Dani": 1}
    assert s["dealer"] == "Bea" and s["deal_number"] == 2
    assert nm.settlement(g, s)["on_table"] == 12
    g = nm.apply(g, {"type": "end_game"})
    s = nm.compute(g)
    assert s["chips"] == {"Ane": 16, "Bea": 28, "Carlos": 18, "Dani": 18}
    assert s["net"] == {"Ane": -4, "Bea": 8, "Carlos": -2, "Dani": -2}
    assert s["leftovers"] == {"total": 12, "each": 3, "odd": 0, "odd_to": [], "carried": False}
    assert s["pots"] == {c: 0 for c in ["AH", "KC", "QD", "JS"]} and s["ended"]
    assert [r["player"] for r in s["final"]] == ["Bea", "Carlos", "Dani", "Ane"]
    assert nm.settlement(g, s) == {"net": {"Ane": -4, "Bea": 8, "Carlos": -2, "Dani": -2}, "on_table": 0}


def test_session_file_example_imports():
    g = game({"variant": "classic", "ante": 1, "dealer_ante": 2, "kitty_ante": 0, "payout": "cards",
              "boodles": ["AH", "KC", "QD", "JS"], "leftover": "share"},
             deals=[{"dummy": {"sold_to": "Bea", "price": 2}, "boodles_won": [{"card": "KC", "by": "Carlos"}],
                     "out": "Bea", "cards_left": {"Ane": 3, "Carlos": 5, "Dani": 1}},
                    {"boodles_won": [{"card": "AH", "by": "Dani"}, {"card": "JS", "by": "Dani"}],
                     "out": "Ane", "cards_left": {"Bea": 2, "Carlos": 0, "Dani": 4}}],
             ended=True, chip_value=10)
    s = nm.compute(g)
    assert total(s) == 80 and sum(s["net"].values()) == 0
    # deal 1: Ane deals (2 on each card), Bea buys the dummy for 2
    d1 = s["deals"][0]
    assert d1["dealer"] == "Ane" and d1["antes"] == 8 + 4 * 3
    assert s["deals"][1]["dealer"] == "Bea"
    st_ = nm.settlement(g, s)
    assert st_["net"] == {p: v * 10 for p, v in s["net"].items()}


# ---------------------------------------------------------------------------------------------------
# options
# ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("dealer_ante, expect", [(1, 16), (2, 12), (0, 20)])
def test_dealer_ante(dealer_ante, expect):
    g = run(game({"dealer_ante": dealer_ante}), {"type": "start_deal"})
    s = nm.compute(g)
    assert s["chips"]["Ane"] == expect and s["chips"]["Bea"] == 16
    assert s["pots"]["AH"] == 3 + dealer_ante


def test_dealer_rotation_and_named_dealer():
    g = game({"dealer_ante": 2})
    g = run(g, {"type": "start_deal", "dealer": "Carlos"}, {"type": "end_deal", "blocked": True},
            {"type": "start_deal"})
    s = nm.compute(g)
    assert [d["dealer"] for d in s["deals"]] == ["Carlos", "Dani"]
    g = run(g, {"type": "end_deal", "blocked": True}, {"type": "start_deal"})
    assert nm.compute(g)["dealer"] == "Ane"
    assert "dealer" not in g["deals"][1]


def test_free_ante():
    antes = {"Ane": {"AH": 2, "JS": 2}, "Bea": {"KC": 4}, "Carlos": {"QD": 1, "AH": 3}, "Dani": {"JS": 4}}
    g = game({"free_ante": 4})
    g = run(g, {"type": "start_deal", "antes": antes})
    s = nm.compute(g)
    assert s["pots"] == {"AH": 5, "KC": 4, "QD": 1, "JS": 6}
    assert s["chips"] == {p: 16 for p in P4}
    bad = dict(antes, Dani={"JS": 3})
    assert err(nm.apply, game({"free_ante": 4}), {"type": "start_deal", "antes": bad}) == \
        "antes.Dani: Dani must place exactly 4 chips (placed 3)"
    bad = dict(antes, Dani={"9H": 4})
    assert err(nm.apply, game({"free_ante": 4}), {"type": "start_deal", "antes": bad}) == \
        "antes.Dani.9H: 9H is not a boodle card"
    missing = {k: v for k, v in antes.items() if k != "Dani"}
    assert "antes.Dani" in err(nm.apply, game({"free_ante": 4}), {"type": "start_deal", "antes": missing})
    assert err(nm.apply, game(), {"type": "start_deal", "antes": antes}).startswith("antes:")


@pytest.mark.parametrize("out, kitty_after, bea", [("Bea", 0, 16 - 1 + 9 + 4), (None, 4, 15)])
def test_kitty_taken_or_carried(out, kitty_after, bea):
    g = run(game({"kitty_ante": 1}), {"type": "start_deal"})
    end = {"type": "end_deal", "out": out, "cards_left": {"Ane": 3, "Carlos": 5, "Dani": 1}} if out \
        else {"type": "end_deal", "blocked": True}
    s = nm.compute(run(g, end))
    assert s["kitty"] == kitty_after and s["chips"]["Bea"] == bea
    assert total(s) == 80
    if out:
        assert "Bea went out: took the kitty of 4" in [e["why"] for e in s["log"]]
    else:   # carries into the next deal, then taken
        g2 = run(g, end, {"type": "start_deal"}, {"type": "end_deal", "out": "Dani",
                                                  "cards_left": {"Ane": 0, "Bea": 0, "Carlos": 0}})
        s2 = nm.compute(g2)
        assert s2["kitty"] == 0 and s2["deals"][1]["kitty_taken"] == 8


def test_flat_payout():
    g = run(game({"payout": "flat"}), {"type": "start_deal"}, {"type": "end_deal", "out": "Dani"})
    s = nm.compute(g)
    assert s["chips"] == {"Ane": 15, "Bea": 15, "Carlos": 15, "Dani": 19}
    assert err(nm.apply, run(game({"payout": "flat"}), {"type": "start_deal"}),
               {"type": "end_deal", "out": "Dani", "cards_left": {"Ane": 1}}) == \
        "cards_left: flat payout: cards left are not counted"


def test_custom_boodles():
    g = game({"boodles": ["as", "KH", "QC", "JD"]})
    assert g["rules"]["boodles"] == ["AS", "KH", "QC", "JD"]
    g = run(g, {"type": "start_deal"}, {"type": "boodle", "card": "QC", "by": "Ane"})
    assert nm.compute(g)["chips"]["Ane"] == 20
    assert err(nm.apply, g, {"type": "boodle", "card": "AH", "by": "Ane"}) == "card: AH is not a boodle card"
    assert err(game, {"boodles": ["AS", "KH", "QC"]}) == "rules.boodles: needs 4 boodle cards, not 3"
    assert err(game, {"boodles": ["AS", "KH", "QC", "AS"]}) == "rules.boodles[3]: AS is listed twice"


@pytest.mark.parametrize("dealer, odd_to", [
    ("Ane", ["Bea", "Carlos", "Dani"]), ("Carlos", ["Dani", "Ane", "Bea"]), ("Dani", ["Ane", "Bea", "Carlos"])])
def test_leftover_share_odd_chips(dealer, odd_to):
    # dealer antes 2 on each card: piles 5 each; KC taken by the dealer -> 15 left: 3 each, 3 odd chips
    g = game({"dealer_ante": 2}, deals=[{"dealer": dealer, "blocked": True}])
    g = run(g, {"type": "start_deal", "dealer": "Bea"}, {"type": "cancel_deal"},
            {"type": "replace_deal", "index": 0,
             "deal": {"dealer": dealer, "boodles_won": [{"card": "KC", "by": dealer}], "blocked": True}})
    assert nm.compute(g)["on_table"] == 15
    g = nm.apply(g, {"type": "end_game"})
    s = nm.compute(g)
    assert s["leftovers"] == {"total": 15, "each": 3, "odd": 3, "odd_to": odd_to, "carried": False}
    for p in P4:
        expect = 20 - (8 if p == dealer else 4) + (5 if p == dealer else 0) + 3 + (1 if p in odd_to else 0)
        assert s["chips"][p] == expect
    assert sum(s["net"].values()) == 0 and total(s) == 80
    assert any(e["why"].endswith("(3 each + 1 odd chip)") for e in s["log"])


def test_leftover_carry_and_carry_in():
    g = game({"leftover": "carry", "kitty_ante": 1}, deals=[{"boodles_won": [{"card": "AH", "by": "Bea"}],
                                                             "blocked": True}], ended=True)
    s = nm.compute(g)
    assert s["carry_out"] == {"KC": 4, "QD": 4, "JS": 4, "kitty": 4}
    assert sum(s["net"].values()) == -16
    st_ = nm.settlement(g, s)
    assert st_["on_table"] == 16 and sum(st_["net"].values()) + st_["on_table"] == 0
    nxt = nm.new_game(P4, {"seats": "Ane,Bea,Carlos,Dani", "leftover": "share", "kitty_ante": "1",
                           "carry_in": json.dumps(s["carry_out"])})
    assert nxt["carry_in"] == {"KC": 4, "QD": 4, "JS": 4, "kitty": 4}
    s2 = nm.compute(nxt)
    assert s2["pots"] == {"AH": 0, "KC": 4, "QD": 4, "JS": 4} and s2["kitty"] == 4
    assert s2["brought_in"] == 96 and total(s2) == 96
    assert nm.settlement(nxt, s2)["on_table"] == 0
    s3 = nm.compute(nm.apply(nxt, {"type": "end_game"}))
    assert s3["chips"] == {p: 24 for p in P4} and sum(s3["net"].values()) == 16
    st3 = nm.settlement(nxt, s3)
    assert st3["on_table"] == -16      # the chips came from the previous game: the night sums to zero
    assert err(lambda: game({}, carry_in={"9H": 1})) == "carry_in.9H: 9H is not a pile of this game (AH, KC, QD, JS, kitty)"


def test_dummy_sold_and_swapped():
    g = run(game(), {"type": "start_deal"}, {"type": "dummy", "sold_to": "Carlos", "price": 3})
    s = nm.compute(g)
    assert s["chips"]["Ane"] == 19 and s["chips"]["Carlos"] == 13
    assert s["log"][-1]["why"] == "Carlos bought the dummy: paid Ane 3"
    assert err(nm.apply, g, {"type": "dummy", "swap": True}) == "type: The dummy was already recorded for this deal"
    g2 = run(game(), {"type": "start_deal"})
    assert err(nm.apply, g2, {"type": "dummy", "sold_to": "Carlos", "price": -1}) == "price: cannot be negative (-1)"
    assert err(nm.apply, g2, {"type": "dummy", "sold_to": "Ane", "price": 1}).startswith("sold_to: Ane is the dealer")
    assert err(nm.apply, g2, {"type": "dummy", "sold_to": "Zoe", "price": 1}) == "sold_to: 'Zoe' is not seated at this game"
    g3 = run(g2, {"type": "dummy", "swap": True})
    assert g3["deals"][0]["dummy"] == {"swap": True}
    assert nm.compute(g3)["chips"] == nm.compute(g2)["chips"]


# ---------------------------------------------------------------------------------------------------
# parlett
# ---------------------------------------------------------------------------------------------------

PARLETT = {"variant": "parlett"}


def test_parlett_antes_pool_and_queen_turns_king():
    g = run(game(PARLETT), {"type": "start_deal"})
    s = nm.compute(g)
    assert s["pots"] == {"KS": 4, "KH": 4, "KD": 4, "KC": 4} and s["pool"] == 4
    assert s["chips"] == {p: 15 for p in P4}
    g = run(g, {"type": "boodle", "card": "QH", "by": "Bea"})
    s = nm.compute(g)
    assert s["chips"]["Bea"] == 19 and s["face_down"] == ["KH"] and "KH" not in s["face_up"]
    assert "K♥ is now face down" in s["log"][-1]["why"]
    g = run(g, {"type": "end_deal", "out": "Carlos"}, {"type": "start_deal"})
    s = nm.compute(g)
    assert s["chips"]["Carlos"] == 15 + 4 - 4 and s["pots"]["KH"] == 0   # 3 face-up Kings + pool
    assert s["pool"] == 4
    g = run(g, {"type": "boodle", "card": "QH", "by": "Dani"})
    s = nm.compute(g)
    assert s["deals"][1]["boodles"][0]["chips"] == 0 and "took nothing" in s["log"][-1]["why"]
    assert err(nm.apply, g, {"type": "boodle", "card": "KS", "by": "Ane"}).startswith("card: KS is not a Queen")
    assert err(nm.apply, g, {"type": "boodle", "card": "QH", "by": "Ane"}) == "card: QH was already played in this deal"
    assert err(nm.apply, g, {"type": "end_deal", "out": "Ane", "cards_left": {"Bea": 1}}) == \
        "cards_left: parlett: cards left are not counted"


def test_parlett_exchange():
    g = run(game(PARLETT), {"type": "start_deal"}, {"type": "exchange", "by": "Carlos"})
    s = nm.compute(g)
    assert s["pool"] == 5 and s["chips"]["Carlos"] == 14
    g2 = run(game(PARLETT), {"type": "start_deal"}, {"type": "exchange", "by": "Ane"})
    assert nm.compute(g2)["pool"] == 4
    assert err(nm.apply, g, {"type": "exchange", "by": "Dani"}) == "type: Carlos already took the dead hand"
    assert err(nm.apply, run(game(), {"type": "start_deal"}), {"type": "exchange", "by": "Dani"}).startswith("type:")
    assert err(game, PARLETT, P4, [{"dummy": {"swap": True}, "blocked": True}]) == \
        "deals[0].dummy: parlett has an exchange, not a dummy"


def test_parlett_blocked_pool_carries_and_out_takes_it():
    g = run(game(PARLETT), {"type": "start_deal"}, {"type": "end_deal", "blocked": True}, {"type": "start_deal"})
    assert nm.compute(g)["pool"] == 8
    g = run(g, {"type": "end_deal", "out": "Dani"})
    s = nm.compute(g)
    assert s["pool"] == 0 and s["chips"]["Dani"] == 20 - 10 + 8 and total(s) == 80


def test_parlett_last_king_ends_game():
    g = run(game(PARLETT), {"type": "start_deal"}, {"type": "boodle", "card": "QS", "by": "Ane"},
            {"type": "boodle", "card": "QH", "by": "Ane"}, {"type": "boodle", "card": "QD", "by": "Bea"},
            {"type": "end_deal", "blocked": True}, {"type": "start_deal"})
    s = nm.compute(g)
    assert s["face_up"] == ["KC"] and s["pots"]["KC"] == 8 and s["pool"] == 8
    g = run(g, {"type": "boodle", "card": "QC", "by": "Dani"})
    s = nm.compute(g)
    assert s["ended"] and not s["deal_open"] and s["face_up"] == []
    assert s["chips"]["Dani"] == 20 - 5 - 2 + 8 + 8     # deal 2: one King face up + pool
    assert s["pool"] == 0 and total(s) == 80 and sum(s["net"].values()) == 0
    assert "open" not in g["deals"][-1] and g["ended"] is True
    assert err(nm.apply, g, {"type": "start_deal"}) == "type: The game is over"
    # a file with a deal after the last King is refused
    bad = copy.deepcopy(g)
    bad["deals"].append({"blocked": True})
    assert err(nm.normalize, bad, P4) == "deals[1]: the game ended in this deal (last King taken): no deals after it"
    bad = copy.deepcopy(g)
    bad["deals"][-1]["out"] = "Ane"
    assert err(nm.normalize, bad, P4).startswith("deals[1].out: the deal ended with the game")


# ---------------------------------------------------------------------------------------------------
# actions: refusals, at, replace_deal
# ---------------------------------------------------------------------------------------------------

def test_action_refusals():
    g0 = game()
    g = run(g0, {"type": "start_deal"})
    cases = [
        (g0, {"type": "boodle", "card": "AH", "by": "Ane"}, "type: No deal in progress: start a deal first"),
        (g, {"type": "start_deal"}, "type: Deal 1 is still in progress"),
        (g, {"type": "boodle", "card": "9H", "by": "Ane"}, "card: 9H is not a boodle card"),
        (g, {"type": "boodle", "card": "ZZ", "by": "Ane"}, "card: 'ZZ' is not a card (rank A K Q J 2-10, then suit S H D C)"),
        (g, {"type": "boodle", "card": "AH", "by": "Zoe"}, "by: 'Zoe' is not seated at this game"),
        (g, {"type": "end_deal", "out": "Bea", "cards_left": {"Ane": 3, "Carlos": -5, "Dani": 1}},
         "cards_left.Carlos: cannot be negative (-5)"),
        (g, {"type": "end_deal", "out": "Bea", "cards_left": {"Ane": 3, "Bea": 0, "Carlos": 5, "Dani": 1}},
         "cards_left.Bea: Bea went out: he has no cards left"),
        (g, {"type": "end_deal", "out": "Bea", "cards_left": {"Ane": 3, "Carlos": 5}},
         "cards_left.Dani: missing: how many cards Dani still holds"),
        (g, {"type": "end_deal", "out": "Bea", "blocked": True}, "blocked: a blocked deal has nobody out"),
        (g, {"type": "end_deal"}, "out: who went out? (or blocked: nobody could)"),
        (g, {"type": "end_game"}, "type: Deal 1 is still in progress: end it (or cancel it) first"),
        (g, {"type": "fly"}, "type: unknown action type 'fly'"),
    ]
    for gg, action, message in cases:
        assert err(nm.apply, gg, action) == message, action
    done = run(g, {"type": "end_deal", "out": "Bea", "cards_left": {"Ane": 3, "Carlos": 5, "Dani": 1}})
    assert err(nm.apply, done, {"type": "end_deal", "out": "Ane", "cards_left": {"Bea": 1, "Carlos": 1, "Dani": 1}}) \
        == "out: Bea already went out in deal 1"
    over = run(done, {"type": "end_game"})
    assert err(nm.apply, over, {"type": "end_game"}) == "type: The game is already over"
    assert nm.compute(over)["legal"] == ["replace_deal"]


def test_cancel_deal():
    g = run(game(), {"type": "start_deal"}, {"type": "cancel_deal"})
    assert g == game() and nm.compute(g)["chips"] == {p: 20 for p in P4}


def test_stale_at_refused():
    g = game()
    at = nm.compute(g)["at"]
    g1 = nm.apply(g, {"type": "start_deal", "at": at})
    assert nm.compute(g1)["at"] != at
    assert err(nm.apply, g1, {"type": "end_deal", "blocked": True, "at": at}).startswith(
        "at: Already recorded from another phone")


def test_at_changes_with_every_action():
    g = game()
    seen = {nm.compute(g)["at"]}
    for a in [{"type": "start_deal"}, {"type": "dummy", "swap": True}, {"type": "boodle", "card": "AH", "by": "Bea"},
              {"type": "boodle", "card": "JS", "by": "Bea"}, {"type": "end_deal", "blocked": True},
              {"type": "start_deal"}, {"type": "end_deal", "blocked": True}, {"type": "end_game"}]:
        g = nm.apply(g, a)
        seen.add(nm.compute(g)["at"])
    assert len(seen) == 9


def test_replace_deal():
    g = run(game(), {"type": "start_deal"}, {"type": "boodle", "card": "KC", "by": "Carlos"},
            {"type": "end_deal", "out": "Bea", "cards_left": {"Ane": 3, "Carlos": 5, "Dani": 1}},
            {"type": "start_deal"}, {"type": "end_deal", "out": "Carlos", "cards_left": {"Ane": 1, "Bea": 1, "Dani": 1}})
    fixed = nm.apply(g, {"type": "replace_deal", "index": 0,
                         "deal": {"boodles_won": [{"card": "KC", "by": "Dani"}], "out": "Bea",
                                  "cards_left": {"Ane": 3, "Carlos": 5, "Dani": 1}}})
    s = nm.compute(fixed)
    assert s["chips"]["Dani"] == nm.compute(g)["chips"]["Dani"] + 4 and total(s) == 80
    # naming a dealer in deal 0 shifts the rotation of deal 1
    moved = nm.apply(g, {"type": "replace_deal", "index": 0, "deal": dict(g["deals"][0], dealer="Carlos")})
    assert [d["dealer"] for d in nm.compute(moved)["deals"]] == ["Carlos", "Dani"]
    assert err(nm.apply, g, {"type": "replace_deal", "index": 0,
                             "deal": {"boodles_won": [{"card": "9H", "by": "Dani"}], "blocked": True}}) == \
        "deal.boodles_won[0].card: 9H is not a boodle card"
    assert err(nm.apply, g, {"type": "replace_deal", "index": 5, "deal": {}}).startswith("index: there is no deal 5")
    # in parlett, making the last King fall earlier makes the later deal impossible
    p = run(game(PARLETT), {"type": "start_deal"}, {"type": "boodle", "card": "QS", "by": "Ane"},
            {"type": "boodle", "card": "QH", "by": "Ane"}, {"type": "boodle", "card": "QD", "by": "Bea"},
            {"type": "end_deal", "blocked": True}, {"type": "start_deal"}, {"type": "end_deal", "blocked": True})
    e = err(nm.apply, p, {"type": "replace_deal", "index": 0,
                          "deal": {"boodles_won": [{"card": c, "by": "Ane"} for c in ["QS", "QH", "QD", "QC"]]}})
    assert e == "deal: the game ended in this deal (last King taken): no deals after it"
    q = run(game(PARLETT), {"type": "start_deal"}, {"type": "end_deal", "blocked": True},
            {"type": "start_deal"}, {"type": "boodle", "card": "QC", "by": "Ane"}, {"type": "end_deal", "blocked": True})
    e = err(nm.apply, q, {"type": "replace_deal", "index": 0,
                          "deal": {"boodles_won": [{"card": c, "by": "Ane"} for c in ["QS", "QH", "QD"]],
                                   "blocked": True}})
    assert e.startswith("deal: that would make a later deal impossible") and "deals[1]" in e


# ---------------------------------------------------------------------------------------------------
# normalize
# ---------------------------------------------------------------------------------------------------

BASE = {"kind": "newmarket", "rules": {}, "seats": P4, "start_chips": 20, "deals": []}


@pytest.mark.parametrize("patch, message", [
    ({"deals": [{"blocked": True}, {"boodles_won": [{"card": "9H", "by": "Ane"}], "blocked": True}]},
     "deals[1].boodles_won[0].card: 9H is not a boodle card"),
    ({"deals": [{"boodles_won": [{"card": "AH", "by": "Zoe"}], "blocked": True}]},
     "deals[0].boodles_won[0].by: 'Zoe' is not seated at this game"),
    ({"deals": [{"out": "Bea", "cards_left": {"Ane": 1, "Carlos": 2, "Dani": -1}}]},
     "deals[0].cards_left.Dani: cannot be negative (-1)"),
    ({"deals": [{"out": "Bea", "cards_left": {"Ane": 1, "Bea": 2, "Carlos": 2, "Dani": 1}}]},
     "deals[0].cards_left.Bea: Bea went out: he has no cards left"),
    ({"deals": [{"out": ["Bea", "Ane"], "cards_left": {}}]}, "deals[0].out: only one player goes out in a deal"),
    ({"deals": [{"out": "Bea"}]}, "deals[0].cards_left: missing: how many cards each other player still holds"),
    ({"deals": [{}]}, "deals[0]: a finished deal needs out (who went out) or blocked: true"),
    ({"deals": [{"dummy": {"sold_to": "Bea", "price": -2}, "blocked": True}]},
     "deals[0].dummy.price: cannot be negative (-2)"),
    ({"deals": [{"open": True}, {"blocked": True}]}, "deals[0].open: only the last deal can be in progress"),
    ({"deals": [{"open": True}], "ended": True}, "deals[0].open: a deal in progress in an ended game: finish it first"),
    ({"deals": [{"blocked": True, "exchange": "Ane"}]}, "deals[0].exchange: exchange is a parlett rule (classic has the dummy)"),
    ({"deals": [{"blocked": True, "oops": 1}]}, "deals[0].oops: unknown key 'oops'"),
    ({"seats": ["Ane", "Bea"]}, "seats: needs 3 to 8 players, not 2"),
    ({"seats": ["Ane", "Bea", "Ane"]}, "seats[2]: 'Ane' is seated twice"),
    ({"seats": ["Ane", "Bea", "Zoe"]}, "seats[2]: 'Zoe' is not a player of this session"),
    ({"start_chips": -1}, "start_chips: cannot be negative (-1)"),
    ({"rules": {"variant": "london"}}, "rules.variant: must be one of classic, parlett, not 'london'"),
    ({"rules": {"payout": "all"}}, "rules.payout: must be one of cards, flat, not 'all'"),
    ({"rules": {"pool_ante": 1}}, "rules.pool_ante: pool_ante is a parlett option"),
    ({"rules": {"variant": "parlett", "payout": "flat"}}, "rules.payout: parlett has no payout option: going out takes the pool"),
    ({"rules": {"variant": "parlett", "boodles": ["AH", "KC", "QD", "JS"]}}, "rules.boodles: in parlett the boodles are the four Kings"),
    ({"rules": {"ante": True}}, "rules.ante: must be a whole number, not True"),
    ({"kind": "mus"}, "kind: must be 'newmarket'"),
    ({"extra": 1}, "extra: unknown key 'extra'"),
    ({"deals": [{"boodles_won": [{"card": "AH", "by": "Ane"}, {"card": "AH", "by": "Bea"}], "blocked": True}]},
     "deals[0].boodles_won[1].card: AH was already played in this deal"),
])
def test_normalize_refuses_with_path(patch, message):
    g = dict(BASE, **patch)
    assert err(nm.normalize, g, PLAYERS) == message


def test_normalize_canonical_and_idempotent():
    g = dict(BASE, rules={"boodles": ["ah", "kc", "qd", "js"], "dealer_ante": 2},
             deals=[{"dummy": {"swap": True}, "boodles_won": [{"card": "ah", "by": "Ane"}], "out": "Bea",
                     "cards_left": {"Dani": 1, "Ane": 3, "Carlos": 5}}, {"open": True}])
    before = copy.deepcopy(g)
    n1 = nm.normalize(g, PLAYERS)
    assert g == before
    assert n1 == nm.normalize(n1, PLAYERS)
    assert n1["rules"]["boodles"] == ["AH", "KC", "QD", "JS"] and n1["deals"][0]["boodles_won"][0]["card"] == "AH"
    assert list(n1["deals"][0]["cards_left"]) == ["Ane", "Carlos", "Dani"]
    assert n1["deals"][1] == {"open": True} and n1["ended"] is False
    assert json.loads(json.dumps(n1)) == n1


def test_new_game_form_fields():
    g = nm.new_game(PLAYERS, {"seat0": "Bea", "seat1": "Ane", "seat2": "", "seat3": "Dani", "variant": "classic",
                              "ante": "2", "dealer_ante": "", "kitty_ante": "1", "payout": "flat",
                              "boodles": "AS, KH QC JD", "leftover": "carry", "start_chips": "30",
                              "chip_value": "5"})
    assert g["seats"] == ["Bea", "Ane", "Dani"] and g["rules"]["dealer_ante"] == 2
    assert g["rules"]["boodles"] == ["AS", "KH", "QC", "JD"] and g["chip_value"] == 5 and g["start_chips"] == 30
    p = nm.new_game(PLAYERS, {"seats": "Ane,Bea,Carlos", "variant": "parlett", "pool_ante": "2"})
    assert p["rules"]["boodles"] == nm.KINGS and p["rules"]["pool_ante"] == 2
    assert err(nm.new_game, PLAYERS, {"seats": "Ane,Bea"}) == "seats: needs 3 to 8 players, not 2"
    assert err(nm.new_game, PLAYERS, {"seats": "Ane,Bea,Carlos", "ante": "x"}) == "ante: must be a whole number, not 'x'"
    assert err(nm.new_game, PLAYERS, {"seats": "Ane,Bea,Carlos", "payout": "x"}).startswith("payout:")
    assert err(nm.new_game, PLAYERS, {"seats": "Ane,Bea,Carlos", "boodles": "AH KC QD 9Z"}).startswith("boodles:")
    assert err(nm.new_game, PLAYERS, {"seats": "Ane,Bea,Carlos", "carry_in": "{"}).startswith("carry_in:")


# ---------------------------------------------------------------------------------------------------
# properties
# ---------------------------------------------------------------------------------------------------

RULESETS = st.fixed_dictionaries({
    "variant": st.sampled_from(["classic", "parlett"]),
    "ante": st.integers(0, 2), "dealer_ante": st.integers(0, 3), "kitty_ante": st.integers(0, 2),
    "free_ante": st.sampled_from([0, 0, 3]),
    "leftover": st.sampled_from(["share", "carry"]),
    "payout": st.sampled_from(["cards", "flat"]),
})


def draw_action(data, g):
    s = nm.compute(g)
    legal = [t for t in s["legal"] if t != "replace_deal"]
    if not legal:
        return None
    seats = g["seats"]
    t = data.draw(st.sampled_from(legal))
    a = {"type": t, "at": s["at"]}
    pick = lambda: data.draw(st.sampled_from(seats))  # noqa: E731
    if t == "start_deal":
        if data.draw(st.booleans()):
            a["dealer"] = pick()
        if g["rules"]["free_ante"]:
            antes = {}
            for p in seats:
                cards = s["face_up"]
                split = [data.draw(st.sampled_from(cards)) for _ in range(g["rules"]["free_ante"])]
                antes[p] = {}
                for c in split:
                    antes[p][c] = antes[p].get(c, 0) + 1
            a["antes"] = antes
    elif t == "dummy":
        if data.draw(st.booleans()):
            a["swap"] = True
        else:
            dealer = s["dealer"]
            a["sold_to"] = data.draw(st.sampled_from([p for p in seats if p != dealer]))
            a["price"] = data.draw(st.integers(0, 4))
    elif t == "exchange":
        a["by"] = pick()
    elif t == "boodle":
        played = [b["card"] for b in s["deals"][-1]["boodles"]]
        cards = g["rules"]["boodles"] if g["rules"]["variant"] == "classic" else ["QS", "QH", "QD", "QC"]
        cards = [c for c in cards if c not in played]
        if not cards:
            a = {"type": "end_deal", "blocked": True, "at": s["at"]}
        else:
            a["card"], a["by"] = data.draw(st.sampled_from(cards)), pick()
    elif t == "end_deal":
        if data.draw(st.integers(0, 3)) == 0:
            a["blocked"] = True
        else:
            out = pick()
            a["out"] = out
            if g["rules"]["variant"] == "classic" and g["rules"]["payout"] == "cards":
                a["cards_left"] = {p: data.draw(st.integers(0, 8)) for p in seats if p != out}
    return a


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), rules=RULESETS, n=st.integers(3, 8), start=st.integers(0, 30),
       carry=st.dictionaries(st.sampled_from(["kitty", "KC"]), st.integers(0, 5)))
def test_properties_random_games(data, rules, n, start, carry):
    if rules["variant"] == "parlett":
        rules = {k: v for k, v in rules.items() if k != "payout"}
    g = game(rules, seats=PLAYERS[:n], start=start, carry_in=carry)
    brought = start * n + sum(carry.values())
    history = [g]
    actions = []
    for _ in range(data.draw(st.integers(0, 14))):
        a = draw_action(data, g)
        if a is None:
            break
        frozen = copy.deepcopy(g)
        a_frozen = copy.deepcopy(a)
        g2 = nm.apply(g, a)
        assert g == frozen and a == a_frozen                   # apply never mutates its input
        assert nm.normalize(g2, PLAYERS) == g2                 # normalize accepts apply's output, idempotent
        s = nm.compute(g2)
        assert total(s) == brought                             # no chip created or destroyed
        assert nm.compute(g2) == s                             # deterministic
        g = g2
        history.append(g)
        actions.append(a)
    # replay of the actions from the first game gives the same game and state
    r = history[0]
    for a in actions:
        r = nm.apply(r, {k: v for k, v in a.items() if k != "at"})
    assert r == g and nm.compute(r) == nm.compute(g)
    # undo (replay without the last action, as the web layer does) gives back exactly the game before it
    if actions:
        u = history[0]
        for a in actions[:-1]:
            u = nm.apply(u, {k: v for k, v in a.items() if k != "at"})
        assert u == history[-2] and nm.compute(u) == nm.compute(history[-2])
    # the exported file re-imports unchanged
    assert nm.normalize(json.loads(json.dumps(g)), PLAYERS) == g
    # finish the game: nets sum to zero (share), or to the carried chips (carry)
    s = nm.compute(g)
    if s["deal_open"]:
        g = nm.apply(g, {"type": "end_deal", "blocked": True})
    if not nm.compute(g)["ended"]:
        g = nm.apply(g, {"type": "end_game"})
    s = nm.compute(g)
    money = nm.settlement(g, s)
    assert sum(money["net"].values()) + money["on_table"] == 0
    if g["rules"]["leftover"] == "share":
        assert sum(s["net"].values()) == sum(carry.values()) and s["on_table"] == 0


def test_replace_deal_that_took_the_last_king_reopens_the_game():
    # The correction says the last Queen was never played: the game is no longer over.
    g = run(game(PARLETT), {"type": "start_deal"}, {"type": "boodle", "card": "QS", "by": "Ane"},
            {"type": "boodle", "card": "QH", "by": "Ane"}, {"type": "boodle", "card": "QD", "by": "Bea"},
            {"type": "boodle", "card": "QC", "by": "Dani"})
    assert nm.compute(g)["ended"]
    fixed = nm.apply(g, {"type": "replace_deal", "index": 0,
                         "deal": {"boodles_won": [{"card": c, "by": "Ane"} for c in ["QS", "QH", "QD"]],
                                  "blocked": True}})
    s = nm.compute(fixed)
    assert not s["ended"] and s["face_up"] == ["KC"] and "start_deal" in s["legal"]
    assert s["final"] is None and s["leftovers"] is None and total(s) == 80


def test_replace_deal_keeps_a_game_the_table_ended():
    # ended by end_game (not by a King): correcting a deal must not reopen it
    g = run(game(PARLETT), {"type": "start_deal"}, {"type": "end_deal", "blocked": True}, {"type": "end_game"})
    fixed = nm.apply(g, {"type": "replace_deal", "index": 0, "deal": {"out": "Bea"}})
    assert nm.compute(fixed)["ended"]


@pytest.mark.parametrize("ante, kitty, each_pile, ane", [(1, 0, 4, 16), (2, 0, 8, 12), (3, 1, 12, 7), (0, 2, 0, 18)])
def test_ante_and_kitty_ante(ante, kitty, each_pile, ane):
    s = nm.compute(run(game({"ante": ante, "kitty_ante": kitty}), {"type": "start_deal"}))
    assert s["pots"] == {c: each_pile for c in nm.CLASSIC_BOODLES} and s["kitty"] == 4 * kitty
    assert s["chips"]["Ane"] == ane and total(s) == 80


@pytest.mark.parametrize("pool_ante", [0, 1, 3])
def test_parlett_pool_ante_and_exchange_price(pool_ante):
    g = run(game(dict(PARLETT, pool_ante=pool_ante)), {"type": "start_deal"}, {"type": "exchange", "by": "Bea"})
    s = nm.compute(g)
    assert s["pool"] == 5 * pool_ante and s["chips"]["Bea"] == 20 - 4 - 2 * pool_ante
    s = nm.compute(nm.apply(g, {"type": "end_deal", "out": "Carlos"}))
    assert s["chips"]["Carlos"] == 20 - 4 - pool_ante + 5 * pool_ante and s["pool"] == 0


@pytest.mark.parametrize("chip_value", [1, 10, 25])
def test_chip_value_scales_the_money(chip_value):
    g = run(game(chip_value=chip_value), {"type": "start_deal"},
            {"type": "end_deal", "out": "Bea", "cards_left": {"Ane": 3, "Carlos": 5, "Dani": 1}}, {"type": "end_game"})
    s = nm.compute(g)
    assert nm.settlement(g, s)["net"] == {p: s["net"][p] * chip_value for p in P4}
