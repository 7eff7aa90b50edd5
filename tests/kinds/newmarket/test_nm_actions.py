"""Newmarket taps: refusals (each with the action's field as path), the deal in progress, stale taps,
replace_deal, undo, and what a write may read (no walk over past deals)."""
import json

import pytest

from companion.domain.errors import RuleError, Stale
from companion.kinds.base import action_from_json, apply_change
from companion.kinds.newmarket import KIND

from nm_helpers import (P4, PARLETT, A, apply_err, game, refusal, results, run, same, spied, state, total)


def test_action_refusals():
    g0 = game()
    g = run(g0, A.StartDeal())
    cases = [
        (g0, A.Boodle(card="AH", by="Ane"), "type: No deal in progress: start a deal first"),
        (g0, A.Dummy(swap=True), "type: No deal in progress: start a deal first"),
        (g0, A.CancelDeal(), "type: No deal in progress: start a deal first"),
        (g0, A.EndDeal(blocked=True), "type: No deal in progress: start a deal first"),
        (g0, A.ReplaceDeal(index=0, deal={"blocked": True}), "index: there is no deal 0 (0 = first, 0 recorded)"),
        (g, A.StartDeal(), "type: Deal 1 is still in progress"),
        (g, A.Boodle(card="9H", by="Ane"), "card: 9H is not a boodle card"),
        (g, A.Boodle(card="ZZ", by="Ane"), "card: ZZ is not a card (rank A K Q J 2-10, then suit S H D C)"),
        (g, A.Boodle(card=None, by="Ane"), "card: must be a card like AH or 10C, not None"),
        (g, A.Boodle(card="AH", by="Zoe"), "by: “Zoe” is not seated at this game"),
        (g, A.EndDeal(out="Bea", cards_left={"Ane": 3, "Carlos": -5, "Dani": 1}),
         "cards_left.Carlos: cannot be negative (-5)"),
        (g, A.EndDeal(out="Bea", cards_left={"Ane": 3, "Bea": 0, "Carlos": 5, "Dani": 1}),
         "cards_left.Bea: Bea went out: he has no cards left"),
        (g, A.EndDeal(out="Bea", cards_left={"Ane": 3, "Carlos": 5}),
         "cards_left.Dani: missing: how many cards Dani still holds"),
        (g, A.EndDeal(out="Bea", cards_left={"Ane": 3, "Carlos": 5, "Dani": 61}),
         "cards_left.Dani: must be at most 60 (61 given)"),
        (g, A.EndDeal(out="Bea"), "cards_left: missing: how many cards each other player still holds"),
        (g, A.EndDeal(out="Bea", blocked=True), "blocked: a blocked deal has nobody out"),
        (g, A.EndDeal(), "out: who went out? (or blocked: nobody could)"),
        (g, A.EndDeal(out=""), "out: who went out? (or blocked: nobody could)"),
        (g, A.EndGame(), "type: Deal 1 is still in progress: end it (or cancel it) first"),
        (g, A.StartDeal(dealer="Zoe"), "type: Deal 1 is still in progress"),
        (g0, A.StartDeal(dealer="Zoe"), "dealer: “Zoe” is not seated at this game"),
        (g, A.Dummy(sold_to="Bea", price=10 ** 20), "price: must be at most 10000 (a number of 67 bits given)"),
    ]
    for gg, action, message in cases:
        assert apply_err(gg, action) == message, action
    done = run(g, A.EndDeal(out="Bea", cards_left={"Ane": 3, "Carlos": 5, "Dani": 1}))
    assert apply_err(done, A.EndDeal(out="Ane", cards_left={"Bea": 1, "Carlos": 1, "Dani": 1})) == \
        "out: Bea already went out in deal 1"
    over = run(done, A.EndGame())
    assert apply_err(over, A.EndGame()) == "type: The game is already over"
    assert apply_err(over, A.Boodle(card="AH", by="Ane")) == "type: The game is over"
    assert apply_err(over, A.EndDeal(blocked=True)) == "type: The game is over"
    assert KIND.legal(over) == ["replace_deal"]
    e = refusal(action_from_json, KIND.actions, {"type": "fly"})
    assert (e.path, e.code) == ("type", "v.action_type")


@pytest.mark.parametrize("make, action", [
    (lambda: game(), A.StartDeal(dealer="Zoe")),
    (lambda: run(game(), A.StartDeal()), A.Dummy(sold_to="Zoe", price=1)),
    (lambda: run(game(PARLETT), A.StartDeal()), A.Exchange(by="Zoe")),
    (lambda: run(game(), A.StartDeal()), A.Boodle(card="AH", by="Zoe")),
    (lambda: run(game(), A.StartDeal()), A.EndDeal(out="Zoe")),
    (lambda: game(), A.CancelDeal()),
    (lambda: run(game(), A.EndGame()), A.EndGame()),
    (lambda: game(), A.ReplaceDeal(index=-1, deal={})),
])
def test_every_action_type_can_be_refused_with_a_path(make, action):
    e = refusal(KIND.apply, make(), action)
    assert e.path and e.code
    assert str(e).startswith(e.path + ": ")


def test_every_action_type_is_covered():
    assert set(KIND.actions) == {"start_deal", "dummy", "exchange", "boodle", "end_deal", "cancel_deal",
                                 "end_game", "replace_deal"}
    for t, cls in KIND.actions.items():
        assert cls.TYPE == t


def test_cancel_deal():
    g = run(game(), A.StartDeal(), A.Dummy(sold_to="Bea", price=2), A.CancelDeal())
    assert same(g, game()) and state(g)["chips"] == {p: 20 for p in P4}


def test_stale_at_refused():
    g = game()
    at = KIND.position(g)
    g1 = run(g, A.StartDeal(at=at))
    assert KIND.position(g1) != at
    with pytest.raises(Stale) as e:
        KIND.apply(g1, A.EndDeal(blocked=True, at=at))
    assert str(e.value).startswith("at: That tap was already recorded")
    run(g1, A.EndDeal(blocked=True, at=KIND.position(g1)))          # the current position is accepted


def test_at_changes_with_every_action():
    g = game()
    seen = {KIND.position(g)}
    for a in [A.StartDeal(), A.Dummy(swap=True), A.Boodle(card="AH", by="Bea"), A.Boodle(card="JS", by="Bea"),
              A.EndDeal(blocked=True), A.StartDeal(), A.EndDeal(blocked=True), A.EndGame()]:
        g = run(g, a)
        seen.add(KIND.position(g))
    assert len(seen) == 9
    # a correction of an earlier deal moves the position too (the running state changed)
    fixed = run(g, A.ReplaceDeal(index=0, deal={"out": "Bea", "cards_left": {"Ane": 1, "Carlos": 1, "Dani": 1}}))
    assert KIND.position(fixed) != KIND.position(g)


def test_replace_deal():
    g = run(game(), A.StartDeal(), A.Boodle(card="KC", by="Carlos"),
            A.EndDeal(out="Bea", cards_left={"Ane": 3, "Carlos": 5, "Dani": 1}),
            A.StartDeal(), A.EndDeal(out="Carlos", cards_left={"Ane": 1, "Bea": 1, "Dani": 1}))
    fixed = run(g, A.ReplaceDeal(index=0, deal={"boodles_won": [{"card": "KC", "by": "Dani"}], "out": "Bea",
                                                "cards_left": {"Ane": 3, "Carlos": 5, "Dani": 1}}))
    s = state(fixed)
    assert s["chips"]["Dani"] == state(g)["chips"]["Dani"] + 4 and total(s) == 80
    # naming a dealer in deal 0 shifts the rotation of deal 1
    moved = run(g, A.ReplaceDeal(index=0, deal=dict(KIND.to_doc(g)["deals"][0], dealer="Carlos")))
    assert [r["dealer"] for r in results(moved)] == ["Carlos", "Dani"]
    assert apply_err(g, A.ReplaceDeal(index=0, deal={"boodles_won": [{"card": "9H", "by": "Dani"}],
                                                     "blocked": True})) == \
        "deal.boodles_won[0].card: 9H is not a boodle card"
    assert apply_err(g, A.ReplaceDeal(index=0, deal={})) == \
        "deal: a finished deal needs out (who went out) or blocked: true"
    assert apply_err(g, A.ReplaceDeal(index=5, deal={})).startswith("index: there is no deal 5")
    assert apply_err(g, A.ReplaceDeal(index="0", deal={})) == "index: must be the number of a recorded deal (0 = first)"
    assert apply_err(g, A.ReplaceDeal(index=0, deal=[])) == "deal: must be an object"
    assert apply_err(g, A.ReplaceDeal(index=0, deal={"open": True})) == \
        "deal.open: only the last deal can be in progress"
    # in parlett, making the last King fall earlier makes the later deal impossible
    p = run(game(PARLETT), A.StartDeal(), A.Boodle(card="QS", by="Ane"), A.Boodle(card="QH", by="Ane"),
            A.Boodle(card="QD", by="Bea"), A.EndDeal(blocked=True), A.StartDeal(), A.EndDeal(blocked=True))
    e = apply_err(p, A.ReplaceDeal(index=0, deal={"boodles_won": [{"card": c, "by": "Ane"}
                                                                  for c in ["QS", "QH", "QD", "QC"]]}))
    assert e == "deal: the game ended in this deal (last King taken): no deals after it"
    q = run(game(PARLETT), A.StartDeal(), A.EndDeal(blocked=True),
            A.StartDeal(), A.Boodle(card="QC", by="Ane"), A.EndDeal(blocked=True))
    e = apply_err(q, A.ReplaceDeal(index=0, deal={"boodles_won": [{"card": c, "by": "Ane"}
                                                                  for c in ["QS", "QH", "QD"]], "blocked": True}))
    assert e.startswith("deal: that would make a later deal impossible") and "deals[1]" in e


def test_replace_deal_that_took_the_last_king_reopens_the_game():
    # The correction says the last Queen was never played: the game is no longer over.
    g = run(game(PARLETT), A.StartDeal(), A.Boodle(card="QS", by="Ane"), A.Boodle(card="QH", by="Ane"),
            A.Boodle(card="QD", by="Bea"), A.Boodle(card="QC", by="Dani"))
    assert state(g)["ended"]
    fixed = run(g, A.ReplaceDeal(index=0, deal={"boodles_won": [{"card": c, "by": "Ane"} for c in ["QS", "QH", "QD"]],
                                                "blocked": True}))
    s = state(fixed)
    assert not s["ended"] and KIND.current(fixed)[0]["face_up"] == ["KC"] and "start_deal" in KIND.legal(fixed)
    assert fixed.state["leftovers"] is None and total(s) == 80
    # and a correction can make the last King fall in the last deal: the game ends
    again = run(fixed, A.ReplaceDeal(index=0, deal={"boodles_won": [{"card": c, "by": "Bea"}
                                                                    for c in ["QS", "QH", "QD", "QC"]]}))
    assert state(again)["ended"] and again.state["leftovers"]["total"] == 0


def test_replace_deal_keeps_a_game_the_table_ended():
    # ended by end_game (not by a King): correcting a deal must not reopen it
    g = run(game(PARLETT), A.StartDeal(), A.EndDeal(blocked=True), A.EndGame())
    fixed = run(g, A.ReplaceDeal(index=0, deal={"out": "Bea"}))
    # Bea takes the pool, then the Kings' piles are shared
    assert state(fixed)["ended"] and state(fixed)["chips"]["Bea"] == 20 - 5 + 4 + 16 // 4


def test_replace_the_last_deal_with_one_in_progress_reopens_an_ended_game():
    g = run(game(), A.StartDeal(), A.EndDeal(blocked=True), A.EndGame())
    fixed = run(g, A.ReplaceDeal(index=0, deal={"open": True, "boodles_won": [{"card": "AH", "by": "Ane"}]}))
    assert not fixed.head["ended"] and KIND.current(fixed)[1]["open"] and total(state(fixed)) == 80
    assert fixed.state["leftovers"] is None


def test_replace_the_deal_in_progress():
    g = run(game(), A.StartDeal(), A.Boodle(card="AH", by="Ane"))
    fixed = run(g, A.ReplaceDeal(index=0, deal={"boodles_won": [{"card": "KC", "by": "Bea"}], "out": "Bea",
                                                "cards_left": {"Ane": 1, "Carlos": 1, "Dani": 1}}))
    assert KIND.current(fixed)[1] is None and fixed.items[0].result["out"] == "Bea"
    assert state(fixed)["chips"]["Bea"] == 16 + 4 + 3


def test_undo_is_the_exact_inverse():
    g = run(game({"kitty_ante": 1}), A.StartDeal(), A.Boodle(card="AH", by="Bea"))
    for a in [A.Dummy(sold_to="Carlos", price=2), A.EndDeal(out="Dani", cards_left={"Ane": 1, "Bea": 2, "Carlos": 0}),
              A.CancelDeal(), A.ReplaceDeal(index=0, deal={"blocked": True})]:
        change = KIND.apply(g, a)
        after, inverse = apply_change(g, change)
        back, _ = apply_change(after, inverse)
        assert same(back, g), a
    done = run(g, A.EndDeal(blocked=True))
    after, inverse = apply_change(done, KIND.apply(done, A.EndGame()))
    assert after.head["ended"] and same(apply_change(after, inverse)[0], done)


def test_apply_never_mutates_its_input():
    g = run(game({"free_ante": 4}), A.StartDeal(antes={p: {"AH": 4} for p in P4}))
    before = json.dumps([KIND.to_doc(g), g.state, [i.before for i in g.items]], sort_keys=True)
    antes = {p: {"KC": 2, "JS": 2} for p in P4}
    frozen = json.dumps(antes, sort_keys=True)
    g2 = run(g, A.EndDeal(blocked=True), A.StartDeal(antes=antes))
    antes["Ane"]["KC"] = 99
    assert json.dumps(antes, sort_keys=True) != frozen
    assert g2.items[1].body["antes"]["Ane"] == {"KC": 2, "JS": 2}
    assert json.dumps([KIND.to_doc(g), g.state, [i.before for i in g.items]], sort_keys=True) == before


# ---------------------------------------------------------------------------------------------------
# a write costs the same at deal 300 as at deal 2
# ---------------------------------------------------------------------------------------------------

def long_game(n=300, rules=None):
    deals = [{"boodles_won": [{"card": "AH", "by": P4[i % 4]}], "out": P4[(i + 1) % 4],
              "cards_left": {p: i % 5 for p in P4 if p != P4[(i + 1) % 4]}} for i in range(n)]
    return game(rules, deals=deals)


def test_a_tap_reads_only_the_last_deal():
    g = run(long_game(40), A.StartDeal())
    taps = [A.Boodle(card="KC", by="Bea"), A.Dummy(swap=True), A.EndDeal(blocked=True), A.CancelDeal()]
    for a in taps:
        rec, spy = spied(g)
        KIND.apply(rec, a)
        assert spy.read <= {39, 40}, (a, spy.read)
    closed = run(long_game(40), A.StartDeal(), A.EndDeal(blocked=True))
    for a in [A.StartDeal(), A.EndGame()]:
        rec, spy = spied(closed)
        KIND.apply(rec, a)
        assert spy.read <= {40}, (a, spy.read)
    for read in (KIND.position, KIND.settlement, KIND.current, KIND.summary, KIND.headline, KIND.legal,
                 KIND.next_deal, KIND.seed_out):
        rec, spy = spied(g)
        read(rec)
        assert spy.read <= {40}, (read, spy.read)


def test_replace_deal_reads_from_the_corrected_deal_on():
    g = long_game(40)
    rec, spy = spied(g)
    KIND.apply(rec, A.ReplaceDeal(index=35, deal={"blocked": True}))
    assert min(spy.read) == 35


def test_300_deals_build_back_to_the_same_game():
    """(How fast: bench/kind_speed.py.)"""
    doc = KIND.to_doc(long_game(300, {"kitty_ante": 1}))
    g = KIND.build(doc, P4)
    assert KIND.to_doc(g) == doc and len(g.items) == 300



def test_rule_error_is_a_value_error():
    assert issubclass(RuleError, ValueError)


@pytest.mark.parametrize("action", [
    A.StartDeal(), A.StartDeal(dealer="Bea", antes={"Ane": {"AH": 4}}), A.Dummy(swap=True),
    A.Dummy(sold_to="Bea", price=2), A.Exchange(by="Ane"), A.Boodle(card="AH", by="Ane"),
    A.EndDeal(out="Bea", cards_left={"Ane": 1}), A.EndDeal(blocked=True), A.CancelDeal(), A.EndGame(),
    A.ReplaceDeal(index=0, deal={"blocked": True}),
])
def test_actions_round_trip_through_events(action):
    data = json.loads(json.dumps(action.to_json()))
    assert data["type"] == action.TYPE
    assert action_from_json(KIND.actions, data) == action
