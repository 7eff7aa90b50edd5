"""Newmarket's rules through the kind's API (build / apply / state): the worked example of
shared/rules/newmarket.md, every option, parlett. Ported from the old tests/rules/test_newmarket.py."""
import pytest

from companion.kinds.newmarket import KIND
from companion.kinds.newmarket.options import CLASSIC_BOODLES, KINGS, NewmarketSpec
from companion.domain.messages import render

from nm_helpers import (P4, PARLETT, PLAYERS, A, apply_err, err, game, now, raw_game, results, run, state, total,
                        whys)


# ---------------------------------------------------------------------------------------------------
# the worked example of rules/newmarket.md, step by step
# ---------------------------------------------------------------------------------------------------

def test_worked_example_step_by_step():
    g = KIND.build(KIND.new_game(P4, NewmarketSpec(seats=P4, start_chips=20)), P4)
    assert KIND.next_deal(g) == {"number": 1, "dealer": "Ane", "bury": False}
    g = run(g, A.StartDeal(at=KIND.position(g)))
    s = state(g)
    assert s["chips"] == {p: 16 for p in P4}
    assert s["pots"] == {"AH": 4, "KC": 4, "QD": 4, "JS": 4}
    _, info = KIND.current(g)
    assert info["open"] and info["dealer"] == "Ane" and info["number"] == 1
    assert KIND.next_deal(g) is None
    g = run(g, A.Boodle(card="KC", by="Carlos", at=KIND.position(g)))
    s = state(g)
    assert s["chips"]["Carlos"] == 20 and s["pots"]["KC"] == 0
    assert s["log"][-1]["why"] == "Carlos played K♣: took 4"
    g = run(g, A.EndDeal(out="Bea", cards_left={"Ane": 3, "Carlos": 5, "Dani": 1}))
    s = state(g)
    assert s["chips"] == {"Ane": 13, "Bea": 25, "Carlos": 15, "Dani": 15}
    assert s["pots"] == {"AH": 4, "KC": 0, "QD": 4, "JS": 4}
    assert total(s) == 80 and KIND.brought_in(g) == 80
    assert "Bea went out: Ane paid 3 (3 cards)" in whys(g)
    assert "Bea went out: Dani paid 1 (1 card)" in whys(g)
    assert g.items[0].result["paid"] == {"Ane": 3, "Carlos": 5, "Dani": 1}
    assert KIND.next_deal(g) == {"number": 2, "dealer": "Bea", "bury": False}
    assert KIND.settlement(g)["on_table"] == 12
    g = run(g, A.EndGame())
    s = state(g)
    assert s["chips"] == {"Ane": 16, "Bea": 28, "Carlos": 18, "Dani": 18}
    assert s["net"] == {"Ane": -4, "Bea": 8, "Carlos": -2, "Dani": -2}
    assert g.state["leftovers"] == {"total": 12, "each": 3, "odd": 0, "odd_to": [], "carried": False}
    assert s["pots"] == {c: 0 for c in CLASSIC_BOODLES} and s["ended"]
    assert render(KIND.headline(g)) == "Classic · ended · Bea +8 · Carlos −2 · Dani −2 · Ane −4"
    assert render(KIND.summary(g)) == "Bea +8 chips"
    assert KIND.settlement(g) == {"net": {"Ane": -4, "Bea": 8, "Carlos": -2, "Dani": -2}, "on_table": 0}
    assert set(s) == {"kind", "chips", "pots", "kitty", "pool", "ended", "net", "log"}


def test_session_file_example_imports():
    g = game({"variant": "classic", "ante": 1, "dealer_ante": 2, "kitty_ante": 0, "payout": "cards",
              "boodles": ["AH", "KC", "QD", "JS"], "leftover": "share"},
             deals=[{"dummy": {"sold_to": "Bea", "price": 2}, "boodles_won": [{"card": "KC", "by": "Carlos"}],
                     "out": "Bea", "cards_left": {"Ane": 3, "Carlos": 5, "Dani": 1}},
                    {"boodles_won": [{"card": "AH", "by": "Dani"}, {"card": "JS", "by": "Dani"}],
                     "out": "Ane", "cards_left": {"Bea": 2, "Carlos": 0, "Dani": 4}}],
             ended=True, chip_value=10)
    s = state(g)
    assert total(s) == 80 and sum(s["net"].values()) == 0
    # deal 1: Ane deals (2 on each card), Bea buys the dummy for 2
    d1 = g.items[0].result
    assert d1["dealer"] == "Ane" and d1["antes"] == 8 + 4 * 3
    assert g.items[1].result["dealer"] == "Bea"
    assert KIND.settlement(g)["net"] == {p: v * 10 for p, v in s["net"].items()}


# ---------------------------------------------------------------------------------------------------
# options
# ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("dealer_ante, expect", [(1, 16), (2, 12), (0, 20)])
def test_dealer_ante(dealer_ante, expect):
    s = state(run(game({"dealer_ante": dealer_ante}), A.StartDeal()))
    assert s["chips"]["Ane"] == expect and s["chips"]["Bea"] == 16
    assert s["pots"]["AH"] == 3 + dealer_ante


def test_dealer_rotation_and_named_dealer():
    g = run(game({"dealer_ante": 2}), A.StartDeal(dealer="Carlos"), A.EndDeal(blocked=True), A.StartDeal())
    assert [r["dealer"] for r in results(g)] == ["Carlos", "Dani"]
    g = run(g, A.EndDeal(blocked=True), A.StartDeal())
    assert KIND.current(g)[1]["dealer"] == "Ane"
    assert "dealer" not in g.items[1].body


def test_free_ante():
    antes = {"Ane": {"AH": 2, "JS": 2}, "Bea": {"KC": 4}, "Carlos": {"QD": 1, "AH": 3}, "Dani": {"JS": 4}}
    g = run(game({"free_ante": 4}), A.StartDeal(antes=antes))
    s = state(g)
    assert s["pots"] == {"AH": 5, "KC": 4, "QD": 1, "JS": 6}
    assert s["chips"] == {p: 16 for p in P4}
    assert g.items[0].body["antes"]["Carlos"] == {"AH": 3, "QD": 1}       # boodle order
    assert "Carlos anted 3 on A♥ (deal 1)" in whys(g)
    free = game({"free_ante": 4})
    assert apply_err(free, A.StartDeal(antes=dict(antes, Dani={"JS": 3}))) == \
        "antes.Dani: Dani must place exactly 4 chips (placed 3)"
    assert apply_err(free, A.StartDeal(antes=dict(antes, Dani={"9H": 4}))) == \
        "antes.Dani.9H: 9H is not a boodle card"
    missing = {k: v for k, v in antes.items() if k != "Dani"}
    assert apply_err(free, A.StartDeal(antes=missing)) == "antes.Dani: Dani must place exactly 4 chips (missing)"
    assert apply_err(free, A.StartDeal()) == "antes: free ante: where each player put his 4 chips"
    assert apply_err(game(), A.StartDeal(antes=antes)).startswith("antes:")
    assert apply_err(free, A.StartDeal(antes=dict(antes, Dani={"JS": "4"}))).startswith(
        "antes.Dani.JS: must be a whole")


@pytest.mark.parametrize("out, kitty_after, bea", [("Bea", 0, 16 - 1 + 9 + 4), (None, 4, 15)])
def test_kitty_taken_or_carried(out, kitty_after, bea):
    g = run(game({"kitty_ante": 1}), A.StartDeal())
    end = A.EndDeal(out=out, cards_left={"Ane": 3, "Carlos": 5, "Dani": 1}) if out else A.EndDeal(blocked=True)
    s = state(run(g, end))
    assert s["kitty"] == kitty_after and s["chips"]["Bea"] == bea
    assert total(s) == 80
    if out:
        assert "Bea went out: took the kitty of 4" in whys(run(g, end))
    else:   # carries into the next deal, then taken
        g2 = run(g, end, A.StartDeal(), A.EndDeal(out="Dani", cards_left={"Ane": 0, "Bea": 0, "Carlos": 0}))
        assert state(g2)["kitty"] == 0 and g2.items[1].result["kitty_taken"] == 8


def test_flat_payout():
    g = run(game({"payout": "flat"}), A.StartDeal(), A.EndDeal(out="Dani"))
    assert state(g)["chips"] == {"Ane": 15, "Bea": 15, "Carlos": 15, "Dani": 19}
    assert "Dani went out: Ane paid 1 (flat)" in whys(g)
    assert apply_err(run(game({"payout": "flat"}), A.StartDeal()),
                     A.EndDeal(out="Dani", cards_left={"Ane": 1})) == \
        "cards_left: flat payout: cards left are not counted"


def test_custom_boodles():
    g = game({"boodles": ["as", "KH", "QC", "JD"]})
    assert g.head["rules"]["boodles"] == ["AS", "KH", "QC", "JD"]
    g = run(g, A.StartDeal(), A.Boodle(card="QC", by="Ane"))
    assert state(g)["chips"]["Ane"] == 20
    assert apply_err(g, A.Boodle(card="AH", by="Ane")) == "card: AH is not a boodle card"
    assert err(game, {"boodles": ["AS", "KH", "QC"]}) == "rules.boodles: needs 4 boodle cards, not 3"
    assert err(game, {"boodles": ["AS", "KH", "QC", "AS"]}) == "rules.boodles[3]: AS is listed twice"


@pytest.mark.parametrize("dealer, odd_to", [
    ("Ane", ["Bea", "Carlos", "Dani"]), ("Carlos", ["Dani", "Ane", "Bea"]), ("Dani", ["Ane", "Bea", "Carlos"])])
def test_leftover_share_odd_chips(dealer, odd_to):
    # dealer antes 2 on each card: piles 5 each; KC taken by the dealer -> 15 left: 3 each, 3 odd chips
    g = game({"dealer_ante": 2}, deals=[{"dealer": dealer, "blocked": True}])
    g = run(g, A.StartDeal(dealer="Bea"), A.CancelDeal(),
            A.ReplaceDeal(index=0, deal={"dealer": dealer, "boodles_won": [{"card": "KC", "by": dealer}],
                                         "blocked": True}))
    assert KIND.settlement(g)["on_table"] == 15
    g = run(g, A.EndGame())
    s = state(g)
    assert g.state["leftovers"] == {"total": 15, "each": 3, "odd": 3, "odd_to": odd_to, "carried": False}
    for p in P4:
        expect = 20 - (8 if p == dealer else 4) + (5 if p == dealer else 0) + 3 + (1 if p in odd_to else 0)
        assert s["chips"][p] == expect
    assert sum(s["net"].values()) == 0 and total(s) == 80
    assert any(w.endswith("(3 each + 1 odd chip)") for w in whys(g))
    assert [e["deal"] for e in s["log"][-4:]] == [None] * 4 and s["log"][-1]["from"] == "@table"


def test_dummy_sold_and_swapped():
    g = run(game(), A.StartDeal(), A.Dummy(sold_to="Carlos", price=3))
    s = state(g)
    assert s["chips"]["Ane"] == 19 and s["chips"]["Carlos"] == 13
    assert s["log"][-1]["why"] == "Carlos bought the dummy: paid Ane 3"
    assert apply_err(g, A.Dummy(swap=True)) == "type: The dummy was already recorded for this deal"
    g2 = run(game(), A.StartDeal())
    assert apply_err(g2, A.Dummy(sold_to="Carlos", price=-1)) == "price: cannot be negative (-1)"
    assert apply_err(g2, A.Dummy(sold_to="Ane", price=1)).startswith("sold_to: Ane is the dealer")
    assert apply_err(g2, A.Dummy(sold_to="Zoe", price=1)) == "sold_to: “Zoe” is not seated at this game"
    assert apply_err(g2, A.Dummy(sold_to="Bea")) == "price: missing"
    assert apply_err(g2, A.Dummy()) == "sold_to: who bought the dummy?"
    assert apply_err(g2, A.Dummy(swap=True, sold_to="Bea")) == \
        "sold_to: either the dealer swapped or the dummy was sold, not both"
    g3 = run(g2, A.Dummy(swap=True))
    assert g3.items[0].body["dummy"] == {"swap": True}
    assert state(g3)["chips"] == state(g2)["chips"]
    # a dummy sold for nothing is still written down
    g4 = run(g2, A.Dummy(sold_to="Bea", price=0))
    assert "Bea bought the dummy: paid Ane 0" in whys(g4)


@pytest.mark.parametrize("ante, kitty, each_pile, ane", [(1, 0, 4, 16), (2, 0, 8, 12), (3, 1, 12, 7), (0, 2, 0, 18)])
def test_ante_and_kitty_ante(ante, kitty, each_pile, ane):
    s = state(run(game({"ante": ante, "kitty_ante": kitty}), A.StartDeal()))
    assert s["pots"] == {c: each_pile for c in CLASSIC_BOODLES} and s["kitty"] == 4 * kitty
    assert s["chips"]["Ane"] == ane and total(s) == 80


@pytest.mark.parametrize("chip_value", [1, 10, 25])
def test_chip_value_scales_the_money(chip_value):
    g = run(game(chip_value=chip_value), A.StartDeal(),
            A.EndDeal(out="Bea", cards_left={"Ane": 3, "Carlos": 5, "Dani": 1}), A.EndGame())
    s = state(g)
    assert KIND.settlement(g)["net"] == {p: s["net"][p] * chip_value for p in P4}


# ---------------------------------------------------------------------------------------------------
# parlett
# ---------------------------------------------------------------------------------------------------

def face_down(g):
    return [c for c in KINGS if c not in now(g)["face_up"]]


def test_parlett_antes_pool_and_queen_turns_king():
    g = run(game(PARLETT), A.StartDeal())
    s = state(g)
    assert s["pots"] == {"KS": 4, "KH": 4, "KD": 4, "KC": 4} and s["pool"] == 4
    assert s["chips"] == {p: 15 for p in P4}
    g = run(g, A.Boodle(card="QH", by="Bea"))
    s = state(g)
    assert s["chips"]["Bea"] == 19 and face_down(g) == ["KH"] and "KH" not in now(g)["face_up"]
    assert "K♥ is now face down" in s["log"][-1]["why"]
    g = run(g, A.EndDeal(out="Carlos"), A.StartDeal())
    s = state(g)
    assert s["chips"]["Carlos"] == 15 + 4 - 4 and s["pots"]["KH"] == 0   # 3 face-up Kings + pool
    assert s["pool"] == 4
    g = run(g, A.Boodle(card="QH", by="Dani"))
    s = state(g)
    assert results(g)[1]["boodles"][0]["chips"] == 0 and "took nothing" in s["log"][-1]["why"]
    assert apply_err(g, A.Boodle(card="KS", by="Ane")).startswith("card: KS is not a Queen")
    assert apply_err(g, A.Boodle(card="QH", by="Ane")) == "card: QH was already played in this deal"
    assert apply_err(g, A.EndDeal(out="Ane", cards_left={"Bea": 1})) == \
        "cards_left: parlett: cards left are not counted"


def test_parlett_exchange():
    g = run(game(PARLETT), A.StartDeal(), A.Exchange(by="Carlos"))
    s = state(g)
    assert s["pool"] == 5 and s["chips"]["Carlos"] == 14
    assert "Carlos took the dead hand: paid 1 into the pool" in whys(g)
    g2 = run(game(PARLETT), A.StartDeal(), A.Exchange(by="Ane"))
    assert state(g2)["pool"] == 4
    assert apply_err(g, A.Exchange(by="Dani")) == "type: Carlos already took the dead hand"
    assert apply_err(run(game(), A.StartDeal()), A.Exchange(by="Dani")) == \
        "type: exchange is a parlett rule (classic has the dummy)"
    assert apply_err(run(game(PARLETT), A.StartDeal()), A.Dummy(swap=True)) == \
        "type: parlett has an exchange, not a dummy"
    assert err(game, PARLETT, P4, [{"dummy": {"swap": True}, "blocked": True}]) == \
        "deals[0].dummy: parlett has an exchange, not a dummy"


def test_parlett_blocked_pool_carries_and_out_takes_it():
    g = run(game(PARLETT), A.StartDeal(), A.EndDeal(blocked=True), A.StartDeal())
    assert state(g)["pool"] == 8
    g = run(g, A.EndDeal(out="Dani"))
    s = state(g)
    assert s["pool"] == 0 and s["chips"]["Dani"] == 20 - 10 + 8 and total(s) == 80
    assert "Dani went out: took the pool of 8" in whys(g)


def three_kings_down(rules=PARLETT):
    return run(game(rules), A.StartDeal(), A.Boodle(card="QS", by="Ane"), A.Boodle(card="QH", by="Ane"),
               A.Boodle(card="QD", by="Bea"), A.EndDeal(blocked=True))


def test_parlett_last_king_ends_game():
    g = run(three_kings_down(), A.StartDeal())
    s = state(g)
    assert now(g)["face_up"] == ["KC"] and s["pots"]["KC"] == 8 and s["pool"] == 8
    g = run(g, A.Boodle(card="QC", by="Dani"))
    s = state(g)
    assert s["ended"] and KIND.current(g)[1] is None and now(g)["face_up"] == []
    assert s["chips"]["Dani"] == 20 - 5 - 2 + 8 + 8     # deal 2: one King face up + pool
    assert s["pool"] == 0 and total(s) == 80 and sum(s["net"].values()) == 0
    assert "Dani took the last King: the game ends, took the pool of 8" in whys(g)
    doc = KIND.to_doc(g)
    assert "open" not in doc["deals"][-1] and doc["ended"] is True
    assert g.items[-1].result["ends_game"]
    assert apply_err(g, A.StartDeal()) == "type: The game is over"
    assert KIND.legal(g) == ["replace_deal"]
    # a file with a deal after the last King is refused
    bad = KIND.to_doc(g)
    bad["deals"] = bad["deals"] + [{"blocked": True}]
    assert err(KIND.build, bad, P4) == "deals[1]: the game ended in this deal (last King taken): no deals after it"
    bad = KIND.to_doc(g)
    bad["deals"] = bad["deals"][:-1] + [dict(bad["deals"][-1], out="Ane")]
    assert err(KIND.build, bad, P4).startswith("deals[1].out: the deal ended with the game")
    bad["deals"][-1] = {"boodles_won": [{"card": "QC", "by": "Dani"}, {"card": "QH", "by": "Ane"}]}
    assert err(KIND.build, bad, P4) == "deals[1].boodles_won[1]: the game ended when the last King was taken"
    # a file that says nothing of the end: the King ends it anyway
    quiet = dict(KIND.to_doc(g), ended=False)
    assert KIND.build(quiet, P4).head["ended"] is True


def test_parlett_last_king_with_a_kitty_shares_the_kitty():
    g = run(three_kings_down(dict(PARLETT, kitty_ante=1)), A.StartDeal(), A.Boodle(card="QC", by="Dani"))
    s = state(g)
    assert s["ended"] and s["kitty"] == 0 and total(s) == 80 and sum(s["net"].values()) == 0
    assert g.state["leftovers"]["total"] == 8


@pytest.mark.parametrize("pool_ante", [0, 1, 3])
def test_parlett_pool_ante_and_exchange_price(pool_ante):
    g = run(game(dict(PARLETT, pool_ante=pool_ante)), A.StartDeal(), A.Exchange(by="Bea"))
    s = state(g)
    assert s["pool"] == 5 * pool_ante and s["chips"]["Bea"] == 20 - 4 - 2 * pool_ante
    s = state(run(g, A.EndDeal(out="Carlos")))
    assert s["chips"]["Carlos"] == 20 - 4 - pool_ante + 5 * pool_ante and s["pool"] == 0


def test_parlett_free_ante_only_on_face_up_kings():
    g = run(game(dict(PARLETT, free_ante=2)), A.StartDeal(antes={p: {"KH": 2} for p in P4}),
            A.Boodle(card="QH", by="Ane"), A.EndDeal(blocked=True))
    assert apply_err(g, A.StartDeal(antes={p: {"KH": 2} for p in P4})) == \
        "antes.Ane.KH: K♥ is face down: no more antes go to it"
    g = run(g, A.StartDeal(antes={p: {"KS": 1, "KC": 1} for p in P4}))
    assert state(g)["pots"] == {"KS": 4, "KH": 0, "KD": 0, "KC": 4}


def test_game_without_deals_ended_shares_nothing():
    g = run(game(), A.EndGame())
    assert state(g)["chips"] == {p: 20 for p in P4}
    assert g.state["leftovers"] == {"total": 0, "each": 0, "odd": 0, "odd_to": [], "carried": False}
    assert render(KIND.summary(g)) == "nobody ahead"
    assert render(KIND.summary(game())) == "nobody ahead (not ended)"


def test_eight_players_and_raw_doc_helpers():
    g = run(game(seats=PLAYERS), A.StartDeal(), A.EndDeal(out="Haizea", cards_left={p: 1 for p in PLAYERS[:7]}))
    assert state(g)["chips"]["Haizea"] == 20 - 4 + 7
    assert raw_game()["kind"] == "newmarket"
