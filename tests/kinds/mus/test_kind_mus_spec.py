"""Spec points of issue 9, from the wording of shared/rules/mus.md and shared/formats/session-v1.md:
(a) [] = absent = null for a lance, (b) hands without cards nor showdown that ended the game in the
bidding, (c) 3s and 2s with 8 kings, (d) next_mano after the match, (e) tally hands and adjustments,
(f) both stakes together."""
import copy
import json

import pytest

from companion.domain.errors import Stale
from companion.kinds.base import apply_change
from companion.kinds.mus import KIND
from companion.kinds.mus import actions as A
from companion.kinds.mus import cards as C
from companion.domain.messages import render
from mus_helpers import (NOBODY, PLAYERS, RuleError, bet, call, doc, entries, fold, game, hand, ordago, page,
                         raw_game, results, run, rz, state, tap)


def tally(*awards, **extra):
    return {"tally": list(awards), **extra}


def aw(team, points, **extra):
    return {"team": team, "points": points, **extra}


def adjust(team, points, why=None):
    return {"adjust": {"team": team, "points": points, **({"why": why} if why else {})}}


def at_score(a=0, b=0):
    """A tally hand that brings the score to a-b (hand 1, mano Ane)."""
    return tally(*([aw("A", a)] if a else []), *([aw("B", b)] if b else []))


# ---------------------------------------------------------------- (a) [] = absent = null

def _three_ways(h: dict, lances):
    """The hand with each of ``lances`` given as [], as null, and absent."""
    out = []
    for how in ("empty", "null", "absent"):
        x = copy.deepcopy(h)
        for L in lances:
            if how == "empty":
                x[L] = []
            elif how == "null":
                x[L] = None
            else:
                x.pop(L, None)
        out.append(x)
    return out


CASES_A = {
    # everyone passed (the lance is bid)
    "passed": ([], {"grande": [bet("A", 2), fold("B")], "showdown": {"chica": "A", "juego": "B", **NOBODY}},
               ("chica", "pares", "juego")),
    # nobody has pares (void), one team only has juego (uncontested)
    "void_and_uncontested": ([], {"showdown": {"grande": "A", "chica": "B", "pares_held": {},
                                               "juego_held": {"Bea": 31, "Dani": 33}}},
                             ("grande", "chica", "pares", "juego")),
    # one team only has pares (uncontested), nobody has juego: punto
    "uncontested_pares": ([], {"showdown": {"grande": "A", "chica": "B", "juego": "A",
                                            "pares_held": {"Ane": "pareja", "Carlos": "medias"},
                                            "juego_held": {}}},
                          ("pares",)),
    # the game ended earlier in the hand (a fold at Grande reaches the target)
    "after_end": ([at_score(39)], {"grande": [bet("A", 2), fold("B")]}, ("chica", "pares", "juego")),
    # the game ended at Chica, by a called órdago
    "after_ordago": ([], {"chica": [ordago("B"), call("A")], "showdown": {"chica": "A"}},
                     ("grande", "pares", "juego")),
}


@pytest.mark.parametrize("case", sorted(CASES_A))
@pytest.mark.parametrize("preset", ["spanish", "pagat"])
def test_lance_empty_null_absent_are_the_same(case, preset):
    before, h, lances = CASES_A[case]
    recs = [game(before + [x], preset) for x in _three_ways(h, lances)]
    docs = [doc(r) for r in recs]
    assert docs[0] == docs[1] == docs[2]
    assert [KIND.state(r) for r in recs[1:]] == [KIND.state(recs[0])] * 2
    assert recs[1] == recs[0] and recs[2] == recs[0]
    for L in lances:
        assert docs[0]["hands"][-1][L] == []      # the canonical form writes []


def test_lance_empty_null_absent_in_a_hand_in_progress():
    h = {"grande": [bet("A", 2), fold("B")], "open": "chica"}
    recs = [game([x], "pagat") for x in _three_ways(h, ("chica", "pares", "juego"))]
    assert recs[0] == recs[1] == recs[2]
    assert page(recs[2])["ui"]["lance"] == "chica"


@pytest.mark.parametrize("case,lance,path_end", [
    ("void_and_uncontested", "pares", "pares"),
    ("void_and_uncontested", "juego", "juego"),
    ("uncontested_pares", "pares", "pares"),
    ("after_end", "chica", "chica"),
    ("after_ordago", "juego", "juego"),
])
def test_a_lance_not_bid_has_no_steps(case, lance, path_end):
    before, h, _ = CASES_A[case]
    h = {**copy.deepcopy(h), lance: [bet("A", 2), fold("B")]}
    with pytest.raises(RuleError) as e:
        game(before + [h])
    assert e.value.path == f"hands[{len(before)}].{path_end}"
    assert "no steps" in e.value.message or "nothing more" in e.value.message


# ---------------------------------------------------------------- (b) no cards, no showdown, game over in bidding

ENDS_IN_BIDDING = {
    # a fold at Pares reaches the target (A at 39, +1)
    "pares_fold": ([at_score(39)], hand(pares=[bet("A", 2), fold("B")]), {"A": 40, "B": 0}, "points"),
    # a fold after a raise at Pares (B at 38, +2), with a called Grande never counted
    "pares_raise_fold": ([at_score(0, 38)], hand(grande=[bet("A", 5), call("B")],
                                                 pares=[bet("A", 2), rz("B", 4), fold("A")]),
                         {"A": 0, "B": 40}, "points"),
    # a fold at Juego reaches the target; the called Pares is never counted
    "juego_fold": ([at_score(39, 10)], hand(pares=[bet("A", 2), call("B")], juego=[bet("A", 2), fold("B")]),
                   {"A": 40, "B": 10}, "points"),
    # a called órdago at Pares, the showdown names only that lance's winner
    "pares_ordago": ([], hand(chica=[bet("A", 2), fold("B")], pares=[ordago("A"), call("B")],
                              showdown={"pares": "B"}), {"A": 1, "B": 0}, "ordago"),
    # a called órdago at Juego, the showdown names only that lance's winner
    "juego_ordago": ([], hand(pares=[bet("A", 2), call("B")], juego=[bet("B", 2), ordago("A"), call("B")],
                              showdown={"juego": "A"}), {"A": 0, "B": 0}, "ordago"),
}


@pytest.mark.parametrize("case", sorted(ENDS_IN_BIDDING))
@pytest.mark.parametrize("preset", ["spanish", "pagat"])
def test_no_showdown_hand_ending_the_game_in_the_bidding_is_accepted(case, preset):
    before, h, score, by = ENDS_IN_BIDDING[case]
    rec = game(before + [h], preset)
    st = KIND.state(rec)
    assert len(st["games"]) == 1
    last = results(rec)[-1]
    assert last["ended_game"] is not None and last["ended_game"]["game"] == 1
    assert st["games"][0] == {"winner": last["ended_game"]["winner"], "score": score, "by": by}
    # the file keeps the hand as written: no showdown is invented
    assert doc(rec)["hands"][-1] == {**hand(), **h}
    assert KIND.build(json.loads(json.dumps(doc(rec))), PLAYERS) == rec


def test_juego_fold_ending_the_game_scores_only_the_fold():
    # the called Pares would be counted at the count, which never comes
    before, h, _, _ = ENDS_IN_BIDDING["juego_fold"]
    st = state(before + [h], "pagat")
    assert entries(st, 2) == [("juego", "A", 1)]
    assert st["games"] == [{"winner": "A", "score": {"A": 40, "B": 10}, "by": "points"}]


def test_no_showdown_pares_fold_game_over_log():
    st = state([at_score(39), hand(grande=[bet("B", 2), call("A")], pares=[bet("A", 2), fold("B")])], "pagat")
    assert entries(st, 2) == [("pares", "A", 1)]
    assert st["games"] == [{"winner": "A", "score": {"A": 40, "B": 0}, "by": "points"}]
    assert st["score"] == {"A": 0, "B": 0}


def test_no_showdown_game_over_at_grande_is_accepted():
    st = state([at_score(39), hand(grande=[bet("A", 2), fold("B")])])
    assert st["games"] == [{"winner": "A", "score": {"A": 40, "B": 0}, "by": "points"}]


GOES_TO_COUNT = [
    # a fold at Pares that does not reach the target: the count needs the pares held
    (hand(pares=[bet("A", 2), fold("B")], showdown={"grande": "A", "chica": "A"}), "pares_held"),
    (hand(pares=[bet("A", 2), call("B")], showdown={"grande": "A", "chica": "A", "pares": "A"}), "pares_held"),
    (hand(pares=[bet("A", 2), rz("B", 4), fold("A")], showdown={"grande": "A", "chica": "A", "pares": "A"}),
     "pares_held"),
    # a fold / a call at Juego: the count needs the juego held
    (hand(juego=[bet("A", 2), fold("B")], showdown={"grande": "A", "chica": "A"}), "juego_held"),
    (hand(juego=[bet("A", 2), call("B")], showdown={"grande": "A", "chica": "A", "juego": "B"}), "juego_held"),
    # an órdago at Pares folded: the hand goes on to the count
    (hand(pares=[ordago("A"), fold("B")], showdown={"grande": "A", "chica": "A"}), "pares_held"),
]


@pytest.mark.parametrize("h,key", GOES_TO_COUNT)
@pytest.mark.parametrize("preset", ["pagat", "spanish"])
def test_no_held_hand_going_to_the_count_is_refused(h, key, preset):
    if preset == "spanish":     # a passed Punto gives a point: the showdown names its winner too
        h = {**h, "showdown": {"juego": "A", **h["showdown"]}}
    with pytest.raises(RuleError) as e:
        game([at_score(10, 10), h], preset)
    assert e.value.path == f"hands[1].showdown.{key}"
    assert "the showdown must say" in e.value.message


def test_a_no_showdown_hand_ending_the_game_is_no_longer_valid_when_the_score_before_changes():
    # corrected hand 1 leaves A at 30: the fold at Pares no longer ends the game, hand 2 goes to the count
    rec = game([at_score(39), hand(pares=[bet("A", 2), fold("B")])], "pagat")
    with pytest.raises(RuleError) as e:
        KIND.apply(rec, A.ReplaceHand(index=0, hand=at_score(30)))
    assert e.value.path == "hands[1].showdown.pares_held"
    assert e.value.message.startswith("Hand 2 would no longer be possible")


def test_no_showdown_ordago_needs_its_winner():
    with pytest.raises(RuleError) as e:
        game([hand(pares=[ordago("A"), call("B")])])
    assert e.value.path == "hands[0].showdown.pares"


def test_no_showdown_hand_added_by_a_tap_and_undone():
    rec = game([at_score(39)], "pagat")
    h = hand(pares=[bet("A", 2), fold("B")])
    new, inverse = tap(rec, A.AddHand(hand=h))
    assert KIND.state(new)["games"][0]["score"] == {"A": 40, "B": 0}
    assert doc(new)["hands"][1] == h
    assert KIND.build(doc(new), PLAYERS) == new
    back, _ = apply_change(new, inverse)
    assert back == rec


# ---------------------------------------------------------------- (c) 3s and 2s with 8 kings

def test_eight_kings_3_is_a_rey_and_2_an_as():
    assert C.pares_kind("R3C7", 8) == "pareja" and C.pares_kind("R3C7", 4) is None
    assert C.pares_kind("A2C7", 8) == "pareja" and C.pares_kind("A2C7", 4) is None
    assert C.total("3SA2", 8) == 22 and C.total("3SA2", 4) == 16
    order = ["p", "q", "r", "s"]
    grande = {"p": "3C7A", "q": "RC7A", "r": "A456", "s": "A457"}
    assert C.lance_winner("grande", order, grande, 8) == "p"      # 3C7A = RC7A: tie, the mano
    assert C.lance_winner("grande", order, grande, 4) == "q"
    chica = {"p": "RRC2", "q": "RRCA", "r": "7777", "s": "6666"}
    assert C.lance_winner("chica", order, chica, 8) == "p"        # RRC2 = RRCA: tie, the mano
    assert C.lance_winner("chica", order, chica, 4) == "q"


def test_eight_kings_cards_in_a_match():
    # 8 kings: Ane R3A2 = RRAA duples, 22; Bea 333C = RRRC medias, 40; Carlos RRSA pareja, 31;
    # Dani 2274 = AA74 pareja, 13
    cards = {"Ane": "R3A2", "Bea": "333C", "Carlos": "RRSA", "Dani": "2274"}
    st = state([hand(cards=cards, pares=[bet("A", 2), call("B")], juego=[bet("B", 2), call("A")])], "pagat")
    assert entries(st) == [("pares", "A", 2 + 3 + 1),     # Ane's duples best: stake + Ane 3 + Carlos 1
                           ("juego", "A", 2 + 2)]         # Carlos 31 beats Bea 40: stake + juego_31
    st = state([hand(cards=cards)], "pagat")
    assert entries(st) == [("pares", "A", 4), ("juego", "A", 2)]
    # 4 kings: Ane 16, no pares; Bea 333C medias of 3s, 19; Carlos 31; Dani 2274 pareja of 2s:
    # Bea's medias win pares (B: 2 + 1), only Carlos has juego (uncontested: 2)
    st = state([hand(cards=cards)], "pagat", kings=4)
    assert entries(st) == [("pares", "B", 3), ("juego", "A", 2)]
    with pytest.raises(RuleError) as e:      # with 4 kings juego is uncontested: it is not bid
        game([hand(cards=cards, juego=[bet("B", 2), call("A")])], "pagat", kings=4)
    assert e.value.path == "hands[0].juego"


@pytest.mark.parametrize("cards,kings", [
    # 8 reyes (R and 3 together) and 8 ases (A and 2 together)
    ({"Ane": "RRRR", "Bea": "3333", "Carlos": "AAAA", "Dani": "2222"}, 8),
    # a table writes a 3 as R: more than four R
    ({"Ane": "RRRR", "Bea": "RRR3", "Carlos": "AAAA", "Dani": "AA2C"}, 8),
    ({"Ane": "RRRR", "Bea": "RRRR", "Carlos": "AAAA", "Dani": "AAAA"}, 8),
    # with 4 kings every rank at most 4
    ({"Ane": "RRRR", "Bea": "3333", "Carlos": "AAAA", "Dani": "2222"}, 4),
])
def test_deck_check_accepts(cards, kings):
    rec = game([hand(cards=cards, grande=[bet("A", 2), fold("B")])], "pagat", kings=kings)
    assert doc(rec)["hands"][0]["cards"] == cards


@pytest.mark.parametrize("cards,kings,words", [
    # more than four 3s, even with 8 kings
    ({"Ane": "3333", "Bea": "3RRR", "Carlos": "AAAA", "Dani": "C456"}, 8, "only 4 3 (5"),
    # more than four 2s
    ({"Ane": "2222", "Bea": "2AAA", "Carlos": "RRRR", "Dani": "C456"}, 8, "only 4 2 (5"),
    # nine reyes: R and 3 together
    ({"Ane": "RRRR", "Bea": "R333", "Carlos": "3C45", "Dani": "A456"}, 8, "only 8 reyes (R and 3) (9"),
    # nine ases: A and 2 together
    ({"Ane": "AAAA", "Bea": "A222", "Carlos": "2C45", "Dani": "R456"}, 8, "only 8 ases (A and 2) (9"),
    ({"Ane": "RRRR", "Bea": "RRRR", "Carlos": "RAAA", "Dani": "C456"}, 8, "only 8 R (9"),
    # with 4 kings every rank is at most 4
    ({"Ane": "RRRR", "Bea": "R456", "Carlos": "AAAA", "Dani": "C456"}, 4, "only 4 R (5"),
    ({"Ane": "AAAA", "Bea": "A456", "Carlos": "RRRR", "Dani": "C457"}, 4, "only 4 A (5"),
    ({"Ane": "3333", "Bea": "3RRR", "Carlos": "AAAA", "Dani": "C456"}, 4, "only 4 3 (5"),
    ({"Ane": "CCCC", "Bea": "C456", "Carlos": "AAAA", "Dani": "R457"}, 8, "only 4 C (5"),
])
def test_deck_check_refuses(cards, kings, words):
    with pytest.raises(RuleError) as e:
        game([hand(cards=cards, grande=[bet("A", 2), fold("B")])], "pagat", kings=kings)
    # the message goes beside the last hand that holds one card too many
    assert e.value.path.startswith("hands[0].cards.") and e.value.path.split(".")[-1] in cards
    assert words in e.value.message


def test_deck_check_on_a_tap():
    rec = game([], "pagat")
    ok = {"Ane": "RRRR", "Bea": "RR33", "Carlos": "AAAA", "Dani": "AA22"}
    tap(rec, A.StartHand(cards=ok))
    with pytest.raises(RuleError) as e:
        KIND.apply(rec, A.StartHand(cards={**ok, "Dani": "A3CC"}))
    assert e.value.path == "cards.Dani" and "reyes" in e.value.message     # beside the hand typed last
    rec4 = game([], "pagat", kings=4)
    with pytest.raises(RuleError) as e:
        KIND.apply(rec4, A.StartHand(cards=ok))
    assert e.value.path == "cards.Bea"                                       # Bea holds the fifth R


# ---------------------------------------------------------------- (d) next_mano after the match

def _ordago_win(t):
    return hand(grande=[ordago(t), call("B" if t == "A" else "A")], showdown={"grande": t})


def test_next_mano_null_once_the_match_is_decided():
    rec = game([_ordago_win("A")])
    assert KIND.state(rec)["next_mano"] == "Bea"
    rec = game([_ordago_win("A"), _ordago_win("A")])
    st = KIND.state(rec)
    assert st["match_winner"] == "A" and st["next_mano"] is None
    assert page(rec)["st"]["next_mano"] is None
    # a match decided by a tally hand, and by an adjustment
    st = state([tally(aw("A", 40)), tally(aw("A", 40))])
    assert st["match_winner"] == "A" and st["next_mano"] is None
    st = state([tally(aw("A", 40)), adjust("A", 40)])
    assert st["match_winner"] == "A" and st["next_mano"] is None
    # and by a tap
    rec = run(game([_ordago_win("B")]), A.Ordago(team="A"), A.Call(), A.Showdown(grande="B"))
    assert KIND.state(rec)["match_winner"] == "B" and KIND.state(rec)["next_mano"] is None


def test_nothing_after_the_match():
    rec = game([_ordago_win("A"), _ordago_win("A")])
    for a in (A.StartHand(), A.Pass(), A.Bet(team="A"), A.Tally(awards=[aw("A", 1)]), A.Adjust(team="B", points=1)):
        with pytest.raises(RuleError) as e:
            KIND.apply(rec, a)
        assert e.value.path == "type" and "match" in e.value.message
    for extra in (tally(aw("A", 1)), adjust("B", 1)):
        with pytest.raises(RuleError) as e:
            game([_ordago_win("A"), _ordago_win("A"), extra])
        assert e.value.path == "hands[2]"


# ---------------------------------------------------------------- (e) tally hands and adjustments

def test_tally_example_of_the_format():
    rec = game([tally(aw("A", 3, lance="pares", why="duples"), aw("B", 1))], "pagat")
    st = KIND.state(rec)
    assert st["score"] == {"A": 3, "B": 1}
    assert [(e["hand"], e["game"], e["lance"], e["team"], e["points"]) for e in st["log"]] == [
        (1, 1, "pares", "A", 3), (1, 1, "tally", "B", 1)]
    assert st["log"][0]["why"] == "duples"
    assert results(rec)[0]["mano"] == "Ane" and st["next_mano"] == "Bea"


def test_tally_awards_log_lance():
    st = state([tally(aw("A", 1), aw("B", 2, lance="punto"), aw("A", 3, lance="grande", why="RRRC"))], "pagat")
    assert entries(st) == [("tally", "A", 1), ("punto", "B", 2), ("grande", "A", 3)]
    assert st["log"][0]["why"] == "Tally" and st["log"][1]["why"] == "Punto (tally)"
    assert st["log"][2]["why"] == "RRRC"


def test_tally_rotates_the_mano_and_may_name_it():
    hs = [tally(aw("A", 1)), tally(aw("A", 1)), tally(aw("B", 1), mano="Ane"), hand(grande=[bet("A", 2), fold("B")]),
          tally(aw("B", 1))]
    rec = game(hs, "pagat")
    assert [r["mano"] for r in results(rec)] == ["Ane", "Bea", "Ane", "Bea", "Carlos"]
    assert [r["hand"] for r in results(rec)] == [1, 2, 3, 4, 5]
    assert KIND.state(rec)["next_mano"] == "Dani"


def test_tally_game_ends_at_the_target_later_awards_not_counted():
    rec = game([tally(aw("A", 38)), tally(aw("B", 5), aw("A", 3), aw("B", 4), aw("A", 1)), tally(aw("B", 1))],
               "pagat")
    st = KIND.state(rec)
    assert st["games"] == [{"winner": "A", "score": {"A": 41, "B": 5}, "by": "points"}]
    assert entries(st, 2) == [("tally", "B", 5), ("tally", "A", 3)]
    assert results(rec)[1]["points"] == {"A": 3, "B": 5}
    assert results(rec)[1]["ended_game"] == {"game": 1, "winner": "A", "by": "points"}
    assert rec.state["game_ends"] == [2]
    # the next hand starts game 2 from 0-0
    assert st["score"] == {"A": 0, "B": 1} and st["log"][-1]["game"] == 2
    # the tally hand is kept whole in the file
    assert doc(rec)["hands"][1]["tally"][3] == aw("A", 1)


def test_tally_dentro_alert():
    rec = game([tally(aw("A", 30), aw("A", 6))], "pagat")
    assert any("DENTRO" in render(a) for a in results(rec)[0]["alerts"])
    assert KIND.state(rec)["dentro"] == {"A": True, "B": False}


def test_adjustment_does_not_rotate_the_mano_and_skips_the_hand_number():
    hs = [tally(aw("A", 3)), tally(aw("B", 2)), adjust("B", -2, "hand 3 miscounted"), tally(aw("A", 1))]
    rec = game(hs, "pagat")
    st = KIND.state(rec)
    assert [r["hand"] for r in results(rec)] == [1, 2, 2, 3]
    assert results(rec)[3]["mano"] == "Carlos" and st["next_mano"] == "Dani"
    assert st["score"] == {"A": 4, "B": 0}
    adj = st["log"][2]
    assert adj == {"hand": 2, "game": 1, "lance": "adjust", "team": "B", "points": -2,
                   "why": "Score adjusted: hand 3 miscounted"}
    # a dealt hand after it
    rec = game(hs + [hand(grande=[bet("B", 2), fold("A")])], "pagat")
    assert results(rec)[-1]["mano"] == "Dani" and results(rec)[-1]["hand"] == 4


def test_adjustment_positive_and_log():
    st = state([tally(aw("A", 2)), adjust("A", 5)], "pagat")
    assert st["score"] == {"A": 7, "B": 0}
    assert st["log"][-1] == {"hand": 1, "game": 1, "lance": "adjust", "team": "A", "points": 5,
                             "why": "Score adjusted"}


@pytest.mark.parametrize("hs,path", [
    ([adjust("A", -1)], "hands[0].adjust.points"),
    ([tally(aw("A", 3)), adjust("A", -4)], "hands[1].adjust.points"),
    ([tally(aw("A", 3)), adjust("B", -1)], "hands[1].adjust.points"),
    # the game ended: the adjustment is in the next game, from 0
    ([tally(aw("A", 40)), adjust("A", -1)], "hands[1].adjust.points"),
])
def test_adjustment_never_below_zero(hs, path):
    with pytest.raises(RuleError) as e:
        game(hs, "pagat")
    assert e.value.path == path and "below 0" in e.value.message


def test_adjustment_down_to_zero_is_fine():
    st = state([tally(aw("A", 3)), adjust("A", -3)], "pagat")
    assert st["score"] == {"A": 0, "B": 0}
    assert entries(st) == [("tally", "A", 3), ("adjust", "A", -3)]


def test_adjustment_reaching_the_target_ends_the_game_by_points():
    rec = game([tally(aw("A", 35)), adjust("A", 6)], "pagat")
    st = KIND.state(rec)
    assert st["games"] == [{"winner": "A", "score": {"A": 41, "B": 0}, "by": "points"}]
    assert st["score"] == {"A": 0, "B": 0}
    assert results(rec)[1]["ended_game"] == {"game": 1, "winner": "A", "by": "points"}


@pytest.mark.parametrize("bad,path", [
    ({"adjust": {"team": "A", "points": 0}}, "hands[1].adjust.points"),
    ({"adjust": {"team": "C", "points": 1}}, "hands[1].adjust.team"),
    ({"adjust": {"team": "A", "points": 1}, "mano": "Ane"}, "hands[1].mano"),
    ({"adjust": {"team": "A", "points": 1, "note": "x"}}, "hands[1].adjust.note"),
    ({"tally": [aw("A", 0)]}, "hands[1].tally[0].points"),
    ({"tally": [aw("A", 1, lance="tally")]}, "hands[1].tally[0].lance"),
    ({"tally": [{"team": "Z", "points": 1}]}, "hands[1].tally[0].team"),
    ({"tally": [aw("A", 1)], "grande": []}, "hands[1].grande"),
    ({"tally": [aw("A", 1)], "mano": "Eneko"}, "hands[1].mano"),
    ({"tally": {"team": "A", "points": 1}}, "hands[1].tally"),
])
def test_tally_and_adjustment_shape(bad, path):
    with pytest.raises(RuleError) as e:
        game([tally(aw("A", 3)), bad], "pagat")
    assert e.value.path == path


def test_tally_and_adjust_taps():
    rec = game([], "pagat")
    p0 = KIND.position(rec)
    rec, _ = tap(rec, A.Tally(awards=[aw("A", 3, lance="pares", why="duples"), aw("B", 1)]))
    assert KIND.position(rec) != p0
    assert doc(rec)["hands"] == [tally(aw("A", 3, lance="pares", why="duples"), aw("B", 1))]
    p1 = KIND.position(rec)
    rec, _ = tap(rec, A.Adjust(team="B", points=-1, why="  hand 1   miscounted "))
    assert KIND.position(rec) != p1
    assert doc(rec)["hands"][1] == adjust("B", -1, "hand 1 miscounted")
    rec, _ = tap(rec, A.Tally(awards=[aw("A", 1)], mano="Dani"))
    st = KIND.state(rec)
    assert st["score"] == {"A": 4, "B": 0} and st["next_mano"] == "Ane"
    assert [(e["hand"], e["lance"], e["points"]) for e in st["log"]] == [
        (1, "pares", 3), (1, "tally", 1), (1, "adjust", -1), (2, "tally", 1)]
    assert KIND.build(doc(rec), PLAYERS) == rec


def test_tally_and_adjust_undo():
    rec0 = game([tally(aw("A", 5))], "pagat")
    rec1, inv1 = tap(rec0, A.Tally(awards=[aw("B", 2)]))
    rec2, inv2 = tap(rec1, A.Adjust(team="A", points=-5))
    assert KIND.state(rec2)["score"] == {"A": 0, "B": 2}
    back1, redo2 = apply_change(rec2, inv2)
    assert back1 == rec1 and KIND.state(back1)["score"] == {"A": 5, "B": 2}
    back0, _ = apply_change(back1, inv1)
    assert back0 == rec0 and KIND.position(back0) == KIND.position(rec0)
    assert apply_change(back1, redo2)[0] == rec2     # the inverse of the inverse redoes it


@pytest.mark.parametrize("act,path,words", [
    (A.Adjust(team="B", points=-2), "points", "below 0"),
    (A.Adjust(team="B", points=0), "points", "changes nothing"),
    (A.Adjust(team="C", points=1), "team", "A"),
    (A.Adjust(team="A", points="x"), "points", "whole number"),
    (A.Tally(awards=[{"team": "C", "points": 1}]), "awards[0].team", "A"),
    (A.Tally(awards=[aw("A", 0)]), "awards[0].points", "at least 1"),
    (A.Tally(awards=[aw("A", 1, lance="x")]), "awards[0].lance", "one of"),
    (A.Tally(awards=[aw("A", 1)], mano="Zoe"), "mano", "seated"),
])
def test_tally_and_adjust_taps_refused(act, path, words):
    rec = game([tally(aw("A", 3), aw("B", 1))], "pagat")
    with pytest.raises(RuleError) as e:
        KIND.apply(rec, act)
    assert e.value.path == path and words in e.value.message


def test_tally_and_adjust_wait_for_the_hand_in_progress():
    rec = run(game([], "pagat"), A.Bet(team="A"))
    for act in (A.Tally(awards=[aw("A", 1)]), A.Adjust(team="A", points=1)):
        with pytest.raises(RuleError) as e:
            KIND.apply(rec, act)
        assert e.value.path == "type" and "finish it first" in e.value.message


def test_tally_tap_ending_game_and_match():
    rec = game([tally(aw("A", 40))], "spanish")
    rec, inverse = tap(rec, A.Tally(awards=[aw("B", 2), aw("A", 40), aw("B", 5)]))
    st = KIND.state(rec)
    assert st["match_winner"] == "A" and st["next_mano"] is None
    assert st["games"][1] == {"winner": "A", "score": {"A": 40, "B": 2}, "by": "points"}
    assert page(rec)["st"]["status"] == "match_over"
    back, _ = apply_change(rec, inverse)
    assert KIND.state(back)["match_winner"] is None and KIND.state(back)["next_mano"] == "Bea"


def test_adjust_tap_stale_at():
    rec = game([tally(aw("A", 3))], "pagat")
    at = KIND.position(rec)
    rec2, _ = tap(rec, A.Adjust(team="A", points=1, at=at))
    with pytest.raises(Stale):
        KIND.apply(rec2, A.Adjust(team="A", points=1, at=at))


# ---------------------------------------------------------------- (f) both stakes

def _match(stake, hands):
    g = raw_game(hands)
    g["stake"] = stake
    return KIND.build(g, PLAYERS)


def test_settlement_per_game_and_per_match_together():
    wins = [_ordago_win("A"), _ordago_win("B"), _ordago_win("A")]
    rec = _match({"per_game": 100, "per_match": 500}, wins)
    # games: A, B, A (+100 -100 +100), match: A (+500)
    assert KIND.settlement(rec) == {"net": {"Ane": 600, "Bea": -600, "Carlos": 600, "Dani": -600}, "on_table": 0}
    # the match not decided yet: only the finished games pay
    rec = _match({"per_game": 100, "per_match": 500}, wins[:2])
    assert KIND.settlement(rec)["net"] == {"Ane": 0, "Bea": 0, "Carlos": 0, "Dani": 0}
    rec = _match({"per_game": 100, "per_match": 500}, wins[:1])
    assert KIND.settlement(rec)["net"] == {"Ane": 100, "Bea": -100, "Carlos": 100, "Dani": -100}
    # a per_game of 0 with a per_match
    rec = _match({"per_game": 0, "per_match": 500}, [_ordago_win("B"), _ordago_win("B")])
    assert KIND.settlement(rec)["net"] == {"Ane": -500, "Bea": 500, "Carlos": -500, "Dani": 500}


def test_settlement_sums_to_zero_and_follows_taps():
    rec = _match({"per_game": 250, "per_match": 1000}, [_ordago_win("B")])
    rec = run(rec, A.Tally(awards=[aw("A", 40)]), A.Tally(awards=[aw("B", 40)]))
    s = KIND.settlement(rec)
    assert KIND.state(rec)["match_winner"] == "B"
    assert s["net"] == {"Ane": -1250, "Bea": 1250, "Carlos": -1250, "Dani": 1250}
    assert sum(s["net"].values()) == 0


def test_an_empty_tally_is_a_hand_without_points():
    """Tapping "no points" in tally mode records a dealt hand: the mano rotates, nobody scores."""
    rec = KIND.build({"kind": "mus", "seats": ["Ane", "Bea", "Carlos", "Dani"], "hands": []}, None)
    rec, _ = apply_change(rec, KIND.apply(rec, A.Tally(awards=[])))
    assert rec.state["dealt"] == 1 and rec.state["score"] == {"A": 0, "B": 0}
    assert KIND.state(rec)["next_mano"] == "Bea"
