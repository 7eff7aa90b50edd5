"""Taps on the Mus kind (port of the examples of tests/rules/test_mus_apply.py): ``KIND.apply`` gives a
Change, ``apply_change`` plays it; the scoring screen comes from ``view.page``. The random-play
properties are in test_kind_mus_properties.py."""
import json

import pytest

from companion.domain.errors import Stale
from companion.kinds.base import action_from_json
from companion.kinds.mus import KIND
from companion.kinds.mus import actions as A
from mus_helpers import PLAYERS, RuleError, bet, call, doc, fold, game, hand, page, run, rz, tap


def test_all_passed_without_cards_few_actions():
    rec = game([], "spanish")
    acts = [{"type": "pass"}, {"type": "pass"}, {"type": "declare", "pares": {}, "juego": {}}, {"type": "pass"},
            {"type": "showdown", "grande": "A", "chica": "B", "juego": "A"}]
    rec = run(rec, *acts)
    st = KIND.state(rec)
    assert page(rec)["st"]["status"] == "ready" and st["score"] == {"A": 2, "B": 1}
    h0 = doc(rec)["hands"][0]
    assert "open" not in h0 and h0["showdown"]["pares_held"] == {}
    assert KIND.build(json.loads(json.dumps(doc(rec))), PLAYERS) == rec


def test_chica_envite_uncontested_pares_juego():
    rec = game([], "pagat")
    rec = run(rec, {"type": "pass"}, {"type": "bet", "team": "A"}, {"type": "call"},
              {"type": "declare", "pares": {"Ane": "medias"}, "juego": {"Bea": 31, "Dani": "other"}})
    p = page(rec)
    assert p["st"]["status"] == "showdown" and [n["lance"] for n in p["ui"]["needs"]] == ["chica"]
    so_far = {x["lance"]["code"]: x["text"] for x in p["ui"]["so_far"]}
    assert so_far["mus.lance.pares"] == {"code": "mus.out.uncontested", "team": "A"}
    assert so_far["mus.lance.juego"] == {"code": "mus.out.uncontested", "team": "B"}
    rec = run(rec, {"type": "showdown", "chica": "A"})
    st = KIND.state(rec)
    assert [(e["lance"], e["team"], e["points"]) for e in st["log"]] == [
        ("chica", "A", 2), ("pares", "A", 2), ("juego", "B", 3)]
    assert st["log"][0]["why"] == "Chica: envite of 2 called, A had the better chica: +2"


def representative(rec, kind: str, ui: dict):
    """One acceptable action of each type the screen offers."""
    team = (ui.get("open_teams") or ["A"])[0]
    if kind == "start_hand":
        return A.StartHand()
    if kind == "pass":
        return A.Pass()
    if kind == "bet":
        return A.Bet(team=team, amount=ui["bets"][0])
    if kind == "ordago":
        return A.Ordago(team=team if ui.get("to_answer") is None else None)
    if kind == "raise":
        return A.Raise(to=ui["raises"][0]["to"])
    if kind == "call":
        return A.Call()
    if kind == "fold":
        return A.Fold()
    if kind == "declare":
        return A.Declare(**{k: {} for k in ui["declare"]})
    if kind == "showdown":
        return A.Showdown(**{n["lance"]: "A" for n in ui["needs"]})
    raise AssertionError(kind)


def test_steps_and_legal_moves():
    rec = game([], "pagat")
    assert page(rec)["st"]["status"] == "ready"
    rec = run(rec, A.StartHand(mano="Bea"), A.Bet(team="B", amount=2))
    ui = page(rec)["ui"]
    assert ui["total"] == 2 and ui["to_answer"] == "A" and ui["raises"][0]["to"] == 4
    assert ui["types"] == {"call", "fold", "raise", "ordago"}
    with pytest.raises(RuleError) as e:
        KIND.apply(rec, A.Raise(to=3))
    assert e.value.path == "to" and "at least 2" in e.value.message
    with pytest.raises(RuleError) as e:
        KIND.apply(rec, A.Call(team="B"))
    assert e.value.path == "team"
    rec = run(rec, A.Raise(more=5))
    assert doc(rec)["hands"][0]["grande"][-1] == {"team": "A", "raise": 7}
    rec = run(rec, A.Fold())
    st = KIND.state(rec)
    ui = page(rec)["ui"]
    assert st["log"][0]["points"] == 2 and st["log"][0]["team"] == "A" and ui["lance"] == "chica"
    assert st["next_mano"] == "Carlos"
    assert ui["types"]
    for kind in ui["types"]:
        tap(rec, representative(rec, kind, ui))   # every listed move is accepted


def test_at_token():
    rec = game([], "pagat")
    at = page(rec)["st"]["at"]
    assert at == KIND.position(rec)
    rec2, _ = tap(rec, A.Pass(at=at))
    assert KIND.position(rec2) != at
    with pytest.raises(RuleError) as e:
        KIND.apply(rec2, A.Pass(at=at))
    assert isinstance(e.value, Stale)
    assert e.value.path == "at" and "already recorded" in e.value.message


def test_ordago_without_cards_goes_to_showdown():
    rec = run(game([], "pagat"), A.Ordago(team="A"), A.Call())
    p = page(rec)
    assert p["st"]["status"] == "showdown" and [n["lance"] for n in p["ui"]["needs"]] == ["grande"]
    rec = run(rec, A.Showdown(grande="B"))
    st = KIND.state(rec)
    assert st["games"] == [{"winner": "B", "score": {"A": 0, "B": 0}, "by": "ordago"}]
    assert page(rec)["st"]["game_over"]["winner"] == "B"
    assert doc(rec)["hands"][0] == {
        "grande": [{"team": "A", "ordago": True}, {"team": "B", "call": True}], "chica": [], "pares": [],
        "juego": [], "showdown": {"grande": "B"}}


def test_cards_up_front_derive_everything():
    cards = {"Ane": "RR45", "Bea": "SS77", "Carlos": "CCC4", "Dani": "A456"}
    rec = run(game([], "spanish"), A.StartHand(cards=cards), A.Pass(), A.Pass())
    p = page(rec)
    assert p["ui"]["lance"] == "pares" and p["st"]["status"] == "bidding"
    _state, play = KIND.current(rec)
    assert play.progress["lances"]["pares"]["status"] == "bid"
    with pytest.raises(RuleError):
        KIND.apply(rec, A.Declare(pares={}))
    rec = run(rec, A.Bet(team="A"), A.Fold(), A.Pass())
    assert page(rec)["st"]["status"] == "ready" and "open" not in doc(rec)["hands"][0]
    assert KIND.state(rec)["score"]["A"] == 1 + 3 + 1    # fold 1, pares bonuses 3, grande paso 1 (Ane RR45)


def test_game_ending_fold_closes_hand():
    h1 = hand(grande=[bet("A", 38), call("B")], showdown={"grande": "A", "pares_held": {}, "juego_held": {}})
    rec = game([h1], "pagat")
    rec = run(rec, A.Bet(team="B"), A.Raise(to=7), A.Fold())
    st = KIND.state(rec)
    assert doc(rec)["hands"][1] == {"grande": [bet("B", 2), rz("A", 7), fold("B")], "chica": [], "pares": [],
                                    "juego": []}
    assert st["games"][0]["winner"] == "A" and rec.state["game_ends"] == [2]
    assert page(rec)["st"]["status"] == "ready"


def test_replace_hand():
    win = hand(grande=[{"team": "A", "ordago": True}, call("B")], showdown={"grande": "A"})
    small = hand(grande=[bet("A", 2), fold("B")],
                 showdown={"chica": "A", "juego": "A", "pares_held": {}, "juego_held": {}})
    rec = game([small, win, win, small], "pagat")
    assert rec.state["game_ends"] == [2, 3]
    with pytest.raises(RuleError) as e:
        KIND.apply(rec, A.ReplaceHand(index=0, hand=win))
    assert e.value.path == "hands[3]" and e.value.message.startswith("Hand 4 would no longer be possible")
    rec2, _ = tap(rec, A.ReplaceHand(index=3, hand=hand(grande=[bet("A", 2), rz("B", 4), fold("A")],
                                                        showdown=small["showdown"])))
    assert KIND.state(rec2)["score"]["B"] == 2
    rec3, _ = tap(rec, A.ReplaceHand(index=1, hand=small))
    assert rec3.state["game_ends"] == [3]
    assert KIND.build(doc(rec3), PLAYERS) == rec3


def test_actions_from_their_json():
    # an event stores Action.to_json(); the same tap comes back from it
    for a in (A.Raise(more=5), A.Adjust(team="B", points=-2), A.StartHand(mano="Bea", cards={"Ane": "RR43"}),
              A.Tally(awards=[{"team": "A", "points": 3}]), A.Showdown(grande="A", pares_held={"Ane": "medias"})):
        data = json.loads(json.dumps(a.to_json()))
        assert data["type"] == a.TYPE and "at" not in data
        assert action_from_json(KIND.actions, data) == a
    assert A.Raise(more=5).to_json() == {"type": "raise", "more": 5}
    with pytest.raises(RuleError) as e:
        action_from_json(KIND.actions, {"type": "shuffle"})
    assert e.value.path == "type"


def test_position_changes_when_an_earlier_hand_is_corrected():
    small = hand(grande=[bet("A", 2), fold("B")],
                 showdown={"chica": "A", "juego": "A", "pares_held": {}, "juego_held": {}})
    big = hand(grande=[bet("A", 5), call("B")],
               showdown={"grande": "A", "chica": "A", "juego": "A", "pares_held": {}, "juego_held": {}})
    rec = game([small, small], "pagat")
    at = KIND.position(rec)
    new, _ = tap(rec, A.ReplaceHand(index=0, hand=big, at=at))
    assert KIND.state(new)["score"] != KIND.state(rec)["score"]     # the correction changed the match
    assert KIND.position(new) != at
    with pytest.raises(Stale):      # a second phone, still showing the old screen
        KIND.apply(new, A.ReplaceHand(index=0, hand=small, at=at))


def _two_small_hands():
    small = hand(grande=[bet("A", 2), fold("B")],
                 showdown={"chica": "A", "juego": "A", "pares_held": {}, "juego_held": {}})
    return game([small, small], "pagat")


def test_corrected_hand_shape_error_is_on_the_hand_field():
    with pytest.raises(RuleError) as e:
        KIND.apply(_two_small_hands(), A.ReplaceHand(index=0, hand={"tally": [{"team": "A", "points": 0}]}))
    assert e.value.path == "hand.tally[0].points"


def test_corrected_hand_play_error_is_on_the_hand_field():
    with pytest.raises(RuleError) as e:
        KIND.apply(_two_small_hands(), A.ReplaceHand(index=0, hand=hand(grande=[bet("A", 2)])))
    assert "call or a fold" in e.value.message
    assert e.value.path == "hand.grande[1]"


def test_added_hand_refusal_does_not_speak_of_a_correction():
    with pytest.raises(RuleError) as e:
        KIND.apply(_two_small_hands(), A.AddHand(hand=hand(grande=[bet("A", 2)])))
    assert "call or a fold" in e.value.message
    assert "corrected" not in e.value.message
