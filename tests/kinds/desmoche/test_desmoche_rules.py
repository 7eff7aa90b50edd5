"""Desmoche / Conquián rules through the kind: the spec's worked example, options, the file's shape, every
action. Ported from the old engine's tests (tests/rules/test_desmoche.py), each keeping its meaning."""
import copy
import json

import pytest

from companion.domain.errors import RuleError
from companion.kinds.base import action_from_json
from companion.kinds.desmoche import KIND, Spec
from companion.kinds.desmoche import actions as A
from companion.kinds.desmoche.hand import multiple_word
from companion.domain.messages import render
from dm_helpers import P3, PLAYERS, act, doc, err, game, hand, state, view, whys, zero_sum


def test_worked_example_step_by_step():
    g = KIND.new_game(P3, Spec(seats=["Ane", "Bea", "Carlos"], stake=10, bonuses=True))
    rec = KIND.build(g, P3)
    v = view(rec)
    assert v["pot"] == 0 and v["multiple"] == 0 and render(v["next_multiple_words"]) == "1×"
    rec = act(rec, A.Hand(hand={"winner": None}, at=KIND.position(rec)))
    v = view(rec)
    assert v["pot"] == 30 and v["multiple"] == 1 and render(v["next_multiple_words"]) == "doble"
    assert state(rec)["net"] == {"Ane": -10, "Bea": -10, "Carlos": -10} and zero_sum(rec) == 0
    assert state(rec)["log"][-1]["why"] == "No winner: the pot of 30 rolls over (doble)"
    rec = act(rec, A.Hand(hand={"winner": "Bea", "mico": 1, "arriba": ["Carlos"]}, at=KIND.position(rec)))
    s = state(rec)
    second = rec.items[1].result
    assert second["pot"] == 60 and render(multiple_word(second["multiple"])) == "doble"
    assert s["net"] == {"Ane": -30, "Bea": 70, "Carlos": -40}
    assert s["pot"] == 0 and s["multiple"] == 0 and zero_sum(rec) == 0
    w = whys(rec)
    assert "Ane paid Bea 10 (mico)" in w and "Carlos paid Bea 10 (mico)" in w
    assert "Carlos paid Bea 10 (arriba del palo)" in w and "Bea won: took the pot of 60" in w
    assert second["bonuses"] == {"Ane": 10, "Carlos": 20}
    assert KIND.settlement(rec) == {"net": {"Ane": -30, "Bea": 70, "Carlos": -40}, "on_table": 0}


def test_session_file_example():
    rec = game({"variant": "desmoche", "stake": 10, "bonuses": True, "color_wins": False,
                "side_games": {"oro": 5, "par_rojo": 5}, "side_unclaimed": "carry"},
               hands=[{"winner": None},
                      {"winner": "Bea", "mico": 1, "arriba": ["Carlos"],
                       "side": {"oro": {"joined": ["Ane", "Bea"], "winner": "Ane"}}},
                      {"stake": 20, "winner": "Ane", "auto_win": "peladilla", "disqualified": ["Carlos"]}],
               unit_value=10)
    s = state(rec)
    # hand 3: pot 60 to Ane; Bea arriba (auto win) pays 20; Carlos disqualified pays nothing
    assert s["net"] == {"Ane": -30 + 5 + 40 + 20, "Bea": 70 - 5 - 20 - 20, "Carlos": -40 - 20}
    assert zero_sum(rec) == 0 and view(rec)["stake"] == 20
    assert KIND.settlement(rec)["net"]["Ane"] == 350
    assert set(s) == {"kind", "pot", "multiple", "side_pots", "net", "log"}
    assert s["side_pots"] == {"oro": 0, "par_rojo": 0}


@pytest.mark.parametrize("rollovers, words", [(0, "1×"), (1, "doble"), (2, "triple"), (3, "cuádruple"),
                                              (4, "quíntuple"), (9, "décuple"), (11, "12×")])
def test_rollovers_multiple_words(rollovers, words):
    rec = game()
    for _ in range(rollovers):
        rec = hand(rec, winner=None)
    v = view(rec)
    assert v["pot"] == 30 * rollovers and v["multiple"] == rollovers and render(v["next_multiple_words"]) == words
    rec = hand(rec, winner="Ane")
    assert render(multiple_word(rec.items[-1].result["multiple"])) == words
    assert state(rec)["net"]["Ane"] == 20 * (rollovers + 1)


@pytest.mark.parametrize("kind", ["peladilla", "cuatro_cuerpos", "color"])
def test_auto_wins_everyone_arriba(kind):
    rec = game({"color_wins": True})
    rec = hand(rec, winner="Carlos", auto_win=kind, arriba=["Ane"])
    assert "arriba" not in rec.items[0].body
    assert state(rec)["net"] == {"Ane": -20, "Bea": -20, "Carlos": 40}
    how = {"peladilla": "peladilla", "cuatro_cuerpos": "cuatro cuerpos", "color": "color"}[kind]
    assert f"Carlos won ({how}): took the pot of 30" in whys(rec)


def test_color_needs_color_wins_and_auto_win_has_no_melds():
    rec = game()
    assert err(KIND.apply, rec, A.Hand(hand={"winner": "Ane", "auto_win": "color"})) == \
        "hand.auto_win: color is not an automatic win at this table (color_wins is off)"
    assert err(KIND.apply, rec, A.Hand(hand={"winner": "Ane", "auto_win": "peladilla", "mico": 1})) == \
        "hand.mico: an automatic win (peladilla) has no melds: no mico"
    assert err(KIND.apply, rec, A.Hand(hand={"winner": None, "auto_win": "peladilla"})) == \
        "hand.auto_win: an automatic win needs a winner"


def test_auto_win_without_bonuses_pays_only_pot():
    rec = hand(game({"bonuses": False}), winner="Ane", auto_win="peladilla")
    assert state(rec)["net"] == {"Ane": 20, "Bea": -10, "Carlos": -10}


def test_disqualified():
    rec = hand(game(), winner="Bea", mico=1, disqualified=["Carlos"])
    assert state(rec)["net"] == {"Ane": -20, "Bea": 30, "Carlos": -10}
    assert err(KIND.apply, game(), A.Hand(hand={"winner": "Carlos", "disqualified": ["Carlos"]})) == \
        "hand.winner: Carlos was disqualified: he cannot win the hand"
    assert err(KIND.apply, game(), A.Hand(hand={"winner": "Bea", "arriba": ["Carlos"],
                                                "disqualified": ["Carlos"]})) == \
        "hand.arriba[0]: Carlos was disqualified: he pays no bonus"
    # a disqualified player's stake stays in an unwon pot
    rec = hand(game(), winner=None, disqualified=["Ane"])
    assert state(rec)["pot"] == 30


@pytest.mark.parametrize("mico, same, arriba, ane, carlos", [
    (0, False, [], -10, -10), (1, False, [], -20, -20), (2, False, [], -30, -30), (3, True, ["Ane"], -60, -50),
    (0, True, [], -20, -20), (0, False, ["Ane", "Carlos"], -20, -20)])
def test_bonuses_stack(mico, same, arriba, ane, carlos):
    rec = hand(game(), winner="Bea", mico=mico, same_suit=same, arriba=arriba)
    s = state(rec)
    assert s["net"]["Ane"] == ane and s["net"]["Carlos"] == carlos and zero_sum(rec) == 0
    if mico == 2:
        assert "Ane paid Bea 20 (2 micos)" in whys(rec)
    if same:
        assert "Ane paid Bea 10 (same suit)" in whys(rec)


def test_bonuses_off_refused():
    rec = game({"bonuses": False})
    for key, val in (("mico", 1), ("same_suit", True), ("arriba", ["Ane"])):
        assert err(KIND.apply, rec, A.Hand(hand={"winner": "Bea", key: val})) == \
            f"hand.{key}: bonuses are off at this table (bonuses: false)"
    assert err(KIND.apply, game(), A.Hand(hand={"winner": "Bea", "arriba": ["Bea"]})) == \
        "hand.arriba[0]: Bea won the hand: only losers can be arriba del palo"
    assert err(KIND.apply, game(), A.Hand(hand={"winner": None, "mico": 1})) == "hand.mico: no bonus without a winner"


@pytest.mark.parametrize("mode", ["carry", "return"])
def test_side_games_carry_or_return(mode):
    rec = game({"side_games": {"oro": 5, "flor": 2}, "side_unclaimed": mode})
    rec = hand(rec, winner="Ane", side={"oro": {"joined": ["Ane", "Bea"], "winner": None},
                                        "flor": {"joined": P3, "winner": "Carlos"}})
    s = state(rec)
    assert zero_sum(rec) == 0 and s["side_pots"]["flor"] == 0
    assert s["net"]["Carlos"] == -10 - 2 + 6
    first = rec.items[0].result
    if mode == "carry":
        assert s["side_pots"]["oro"] == 10 and first["side"]["oro"]["result"] == "carried"
        assert "Nobody qualified for oro: its pot of 10 carries over" in whys(rec)
        rec = hand(rec, winner="Bea", side={"oro": {"joined": ["Bea", "Carlos"], "winner": "Carlos"}})
        assert state(rec)["side_pots"]["oro"] == 0 and rec.items[1].result["side"]["oro"]["pot"] == 20
        assert "Carlos won oro: took 20" in whys(rec)
    else:
        assert s["side_pots"]["oro"] == 0 and first["side"]["oro"]["result"] == "returned"
        assert s["net"]["Bea"] == -10 - 2      # her oro stake came back
        assert "Nobody qualified for oro: Bea got 5 back" in whys(rec)
    assert err(KIND.apply, rec, A.Hand(hand={"winner": "Ane", "side": {"oro": {"joined": ["Ane"],
                                                                               "winner": "Bea"}}})) == \
        "hand.side.oro.winner: Bea did not join oro"
    assert err(KIND.apply, rec, A.Hand(hand={"winner": "Ane", "side": {"escalera": {"joined": ["Ane"],
                                                                                    "winner": None}}})) == \
        "hand.side.escalera: escalera is not a side game of this table"
    assert err(KIND.apply, rec, A.Hand(hand={"winner": "Ane", "side": {"oro": {"joined": ["Ane"]}}})) == \
        "hand.side.oro.winner: missing (null when no player who joined qualifies)"


@pytest.mark.parametrize("rules, message", [
    ({"side_games": {"par_rojo": 5}}, "rules.side_games.par_rojo: Conquián plays only the oro side game, not par_rojo"),
    ({"bonuses": True}, "rules.bonuses: Conquián has no bonuses"),
    ({"bonuses": False, "color_wins": True}, "rules.color_wins: Conquián has no automatic wins"),
])
def test_conquian_refusals(rules, message):
    r = {"variant": "conquian", "stake": 5, "bonuses": False}
    r.update(rules)
    assert err(KIND.build, {"kind": "desmoche", "rules": r, "seats": P3}, PLAYERS) == message


def test_conquian_plays():
    rec = game({"variant": "conquian", "bonuses": False, "side_games": {"oro": 5}})
    assert err(KIND.apply, rec, A.Hand(hand={"winner": "Ane", "auto_win": "peladilla"})) == \
        "hand.auto_win: Conquián has no automatic wins"
    assert err(KIND.apply, rec, A.Hand(hand={"winner": "Ane", "mico": 1})) == "hand.mico: Conquián has no bonuses"
    rec = hand(rec, winner="Ane", side={"oro": {"joined": P3, "winner": "Bea"}})
    assert state(rec)["net"] == {"Ane": 15, "Bea": 0, "Carlos": -15}
    assert err(KIND.new_game, PLAYERS, Spec(seats=["Ane", "Bea"], variant="conquian",
                                            side_games={"oro": 5, "flor": 2})) == \
        "side_games.flor: Conquián plays only the oro side game, not flor"
    assert render(KIND.headline(rec)).startswith("Conquián · hand 2 · pot empty")


def test_stake_change():
    rec = hand(game(), winner=None)
    rec = act(rec, A.SetStake(stake=20))
    assert rec.head["next_stake"] == 20 and view(rec)["stake"] == 20
    rec = hand(rec, winner="Ane", mico=1)
    assert "next_stake" not in rec.head and rec.items[1].body["stake"] == 20
    s = state(rec)
    assert s["net"] == {"Ane": -10 + 90 - 20 + 40, "Bea": -30 - 20, "Carlos": -30 - 20} and view(rec)["stake"] == 20
    assert "Stake changed from 10 to 20" in [e["why"] for e in s["log"]]
    rec = hand(rec, winner=None)
    assert state(rec)["pot"] == 60
    assert err(KIND.apply, rec, A.SetStake(stake=0)) == "stake: must be at least 1 (0 given)"
    assert err(KIND.apply, rec, A.SetStake(stake="20")) == "stake: must be a whole number, not “20”"
    # a stake written on the hand itself wins over the agreed one, which is then spent
    rec = act(rec, A.SetStake(stake=30))
    rec = hand(rec, winner=None, stake=5)
    assert rec.items[-1].body["stake"] == 5 and "next_stake" not in rec.head


def test_end_series_returns_unwon_pot_and_side_pots():
    rec = game({"side_games": {"oro": 5}}, seats=["Ane", "Bea", "Carlos", "Dani"])
    rec = hand(rec, winner="Ane", side={"oro": {"joined": ["Ane", "Bea"], "winner": None}})
    rec = act(rec, A.SetStake(stake=20))
    rec = hand(rec, winner=None, side={"oro": {"joined": ["Bea", "Carlos"], "winner": None}})
    s = state(rec)
    assert s["pot"] == 80 and s["side_pots"]["oro"] == 20
    assert KIND.settlement(rec)["on_table"] == 100
    rec = act(rec, A.EndSeries())
    s, v = state(rec), view(rec)
    assert s["pot"] == 0 and s["side_pots"] == {"oro": 0} and v["ended"] and rec.head["ended"]
    assert v["returned"] == {"Ane": 25, "Bea": 30, "Carlos": 25, "Dani": 20}
    assert s["net"] == {"Ane": 30, "Bea": -10, "Carlos": -10, "Dani": -10}
    assert sum(s["net"].values()) == 0 and KIND.settlement(rec)["on_table"] == 0
    assert "Series ended: Bea got back 20 from the unwon pot" in whys(rec)
    assert "Series ended: Bea got back 10 from the oro pot" in whys(rec)
    assert [e["hand"] for e in s["log"][-7:]] == [None] * 7
    assert err(KIND.apply, rec, A.Hand(hand={"winner": None})) == "type: The series is over"
    assert err(KIND.apply, rec, A.SetStake(stake=5)) == "type: The series is over"
    assert err(KIND.apply, rec, A.EndSeries()) == "type: The series is over"
    assert view(rec)["legal"] == ["replace_hand"]


def test_end_series_drops_an_agreed_stake():
    rec = act(game(), A.SetStake(stake=20))
    rec = act(rec, A.EndSeries())
    assert "next_stake" not in rec.head and KIND.to_doc(rec)["ended"] is True


def test_replace_hand_and_at():
    rec = hand(hand(game(), winner=None), winner="Bea", mico=1, arriba=["Carlos"])
    at = KIND.position(rec)
    rec2 = act(rec, A.ReplaceHand(index=0, hand={"winner": "Ane"}, at=at))
    assert state(rec2)["net"] == {"Ane": 20 - 20, "Bea": -20 + 30 + 30, "Carlos": -20 - 20}
    assert err(KIND.apply, rec2, A.Hand(hand={"winner": None}, at=at)).startswith(
        "at: That tap was already recorded")
    assert err(KIND.apply, rec, A.ReplaceHand(index=0, hand={"winner": "Zoe"})) == \
        "hand.winner: “Zoe” is not seated at this game"
    assert err(KIND.apply, rec, A.ReplaceHand(index=7, hand={"winner": None})) == \
        "index: there is no hand 7 (0 = first, 2 recorded)"
    assert err(KIND.apply, rec, A.ReplaceHand(index=-1, hand={"winner": None})) == \
        "index: must be the number of a recorded hand (0 = first)"
    assert err(KIND.apply, rec, A.ReplaceHand(index=None, hand={"winner": None})).startswith("index:")
    assert err(KIND.apply, rec, A.ReplaceHand(index=0, hand=None)) == "hand: must be an object"
    assert err(action_from_json, KIND.actions, {"type": "bet"}) == "type: unknown action bet"


def test_replace_hand_after_the_end_gives_back_what_was_then_on_the_table():
    rec = hand(hand(game(), winner="Ane"), winner=None)
    rec = act(rec, A.EndSeries())
    assert state(rec)["net"] == {"Ane": 20, "Bea": -10, "Carlos": -10}
    rec = act(rec, A.ReplaceHand(index=0, hand={"winner": None}))
    assert view(rec)["returned"] == {"Ane": 20, "Bea": 20, "Carlos": 20}
    assert state(rec)["net"] == {"Ane": 0, "Bea": 0, "Carlos": 0} and state(rec)["pot"] == 0


def test_replace_hand_replays_the_stake_of_later_hands():
    rec = hand(hand(hand(game(), winner=None), winner=None), winner="Ane")
    rec = act(rec, A.ReplaceHand(index=1, hand={"winner": None, "stake": 20}))
    assert rec.items[2].result["stake"] == 20 and rec.items[2].result["pot"] == 30 + 60 + 60
    assert state(rec)["net"] == {"Ane": 100, "Bea": -50, "Carlos": -50}
    assert "Stake changed from 10 to 20" in whys(rec)


@pytest.mark.parametrize("patch, message", [
    ({"hands": [{"winner": None}, {"winner": "Zoe"}]}, "hands[1].winner: “Zoe” is not seated at this game"),
    ({"hands": [{}]}, "hands[0].winner: missing (null when nobody won the hand)"),
    ({"hands": [{"winner": "Ane", "mico": -1}]}, "hands[0].mico: cannot be negative (-1)"),
    ({"hands": [{"winner": "Ane", "auto_win": "lucky"}]},
     "hands[0].auto_win: must be one of peladilla, cuatro_cuerpos, color, not “lucky”"),
    ({"hands": [{"winner": "Ane", "stake": 0}]}, "hands[0].stake: must be at least 1 (0 given)"),
    ({"hands": [{"winner": "Ane", "arriba": ["Bea", "Bea"]}]}, "hands[0].arriba[1]: Bea is listed twice"),
    ({"hands": [{"winner": "Ane", "winer": "Bea"}]}, "hands[0].winer: unknown key “winer”"),
    ({"hands": [{"winner": "Ane", "same_suit": "yes"}]}, "hands[0].same_suit: must be true or false, not “yes”"),
    ({"rules": {"stake": 10, "side_games": {"oro": 1}},
      "hands": [{"winner": "Ane", "side": {"oro": {"joined": ["Ane"], "winner": None, "x": 1}}}]},
     "hands[0].side.oro.x: unknown key “x”"),
    ({"hands": "all of them"}, "hands: must be a list"),
    ({"rules": {"stake": 10, "side_games": {"oro": 0}}}, "rules.side_games.oro: must be at least 1 (0 given)"),
    ({"rules": {"stake": 10, "side_games": {"gold": 5}}}, "rules.side_games.gold: gold is not a side game "
     "(oro, corazon, flor, corazon_negro, par_rojo, par_negro, dos_par_rojo, dos_par_negro, tres_cuerpos, escalera)"),
    ({"rules": {}}, "rules.stake: missing: the stake each player puts in every hand"),
    ({"rules": {"stake": 10, "side_unclaimed": "keep"}}, "rules.side_unclaimed: must be one of carry, return, not “keep”"),
    ({"rules": {"stake": 10, "house": True}}, "rules.house: unknown key “house”"),
    ({"seats": ["Ane"]}, "seats: needs 2 to 4 players, not 1"),
    ({"seats": ["Ane", "Bea", "Carlos", "Dani", "Eneko"]}, "seats: needs 2 to 4 players, not 5"),
    ({"seats": ["Ane", "Zoe"]}, "seats[1]: Zoe is not a player of this session"),
    ({"unit_value": "10"}, "unit_value: must be a whole number, not “10”"),
    ({"next_stake": 5, "ended": True}, "next_stake: the series is over: no next hand"),
    ({"kind": "mus"}, "kind: must be “desmoche”"),
    ({"deals": []}, "deals: unknown key “deals”"),
])
def test_build_refuses_with_path(patch, message):
    g = {"kind": "desmoche", "rules": {"stake": 10, "bonuses": True}, "seats": P3, "hands": []}
    g.update(patch)
    assert err(KIND.build, g, PLAYERS) == message


def test_first_problem_of_a_file_is_reported_first():
    # as the old engine: the hands are checked before ``ended`` / ``next_stake``
    g = doc(hands=[{"winner": "Zoe"}], ended=True, next_stake=5)
    assert err(KIND.build, g, PLAYERS).startswith("hands[0].winner:")


def test_canonical_and_pure():
    g = {"kind": "desmoche", "rules": {"stake": 10, "bonuses": True, "side_games": {"flor": 2, "oro": 5}},
         "seats": P3, "hands": [{"winner": "Ane", "mico": 0, "arriba": [], "side": {"oro": {"joined": [], "winner": None}}},
                                {"winner": "Bea", "auto_win": "peladilla", "arriba": ["Ane", "Carlos"]},
                                {"winner": None, "stake": None, "side": None}]}
    before = copy.deepcopy(g)
    rec = KIND.build(g, PLAYERS)
    out = KIND.to_doc(rec)
    assert g == before
    assert out["hands"] == [{"winner": "Ane"}, {"winner": "Bea", "auto_win": "peladilla"}, {"winner": None}]
    assert list(out["rules"]["side_games"]) == ["oro", "flor"]
    assert out == {"kind": "desmoche", "rules": {"variant": "desmoche", "stake": 10, "bonuses": True,
                                                 "color_wins": False, "side_games": {"oro": 5, "flor": 2},
                                                 "side_unclaimed": "carry"},
                   "seats": P3, "unit_value": 1, "hands": out["hands"], "ended": False}
    again = KIND.build(json.loads(json.dumps(out)), PLAYERS)
    assert KIND.to_doc(again) == out and again.state == rec.state
    assert [i.result for i in again.items] == [i.result for i in rec.items]
    # the body never aliases the file's lists
    rec2 = KIND.build(doc(hands=[{"winner": "Bea", "arriba": ["Ane"]}]), PLAYERS)
    assert rec2.items[0].body["arriba"] == ["Ane"]


def test_new_game_options():
    g = KIND.new_game(PLAYERS, Spec(seats=["Bea", "Ane", "Dani"], stake=5, bonuses=True, color_wins=True,
                                    side_games={"oro": 5, "par_rojo": 3, "flor": 0}, side_unclaimed="return",
                                    unit_value=50))
    assert g["seats"] == ["Bea", "Ane", "Dani"] and g["rules"]["side_games"] == {"oro": 5, "par_rojo": 3}
    assert g["rules"]["color_wins"] and g["unit_value"] == 50 and g["rules"]["side_unclaimed"] == "return"
    assert g["hands"] == [] and g["ended"] is False
    rec = KIND.build(g, PLAYERS)
    assert KIND.to_doc(rec) == g
    assert err(KIND.new_game, PLAYERS, Spec(seats=["Ane"])) == "seats: needs 2 to 4 players, not 1"
    assert err(KIND.new_game, PLAYERS, Spec(seats=["Ane", "Zoe"])) == "seats[1]: Zoe is not a player of this session"
    assert err(KIND.new_game, PLAYERS, Spec(seats=["Ane", "Bea"], stake=0)) == "stake: must be at least 1 (0 given)"
    assert err(KIND.new_game, PLAYERS, Spec(seats=["Ane", "Bea"], bonuses="maybe")).startswith("bonuses:")
    assert err(KIND.new_game, PLAYERS, Spec(seats=["Ane", "Bea"], variant="poker")).startswith("variant:")
    assert err(KIND.new_game, PLAYERS, Spec(seats=["Ane", "Bea"], side_unclaimed="keep")).startswith("side_unclaimed:")
    assert err(KIND.new_game, PLAYERS, Spec(seats=["Ane", "Bea"], side_games={"gold": 5})).startswith("side_games.gold:")
    assert err(KIND.new_game, PLAYERS, Spec(seats=["Ane", "Bea"], side_games={"oro": -1})).startswith("side_games.oro:")
    assert err(KIND.new_game, PLAYERS, Spec(seats=["Ane", "Bea"], side_games=["oro"])) == "side_games: must be an object"
    assert err(KIND.new_game, PLAYERS, Spec(seats=["Ane", "Bea"], unit_value=-1)).startswith("unit_value:")
    assert err(KIND.new_game, PLAYERS, Spec(seats=["Ane", "Bea"], variant="conquian", bonuses=True)) == \
        "bonuses: Conquián has no bonuses"


def test_actions_round_trip_through_json():
    for a in (A.Hand(hand={"winner": "Ane", "mico": 1}), A.SetStake(stake=5), A.EndSeries(),
              A.ReplaceHand(index=0, hand={"winner": None})):
        data = json.loads(json.dumps(a.to_json()))
        assert action_from_json(KIND.actions, data) == a
    assert set(KIND.actions) == {"hand", "set_stake", "end_series", "replace_hand"}
    # a stored action with a field missing is refused by the rules, with the field as its path
    with pytest.raises(RuleError) as e:
        KIND.apply(game(), action_from_json(KIND.actions, {"type": "set_stake"}))
    assert e.value.path == "stake"


@pytest.mark.parametrize("variant, stake, bonuses, bea", [
    ("desmoche", 10, True, -20 + 60 + 30), ("desmoche", 10, False, -20 + 60), ("desmoche", 3, True, -6 + 18 + 9),
    ("conquian", 5, False, -10 + 30)])
def test_stake_bonuses_and_variant(variant, stake, bonuses, bea):
    # the worked example's two hands, with the stake, bonuses and variant of the table
    rec = hand(game({"variant": variant, "stake": stake, "bonuses": bonuses}), winner=None)
    h = {"winner": "Bea"}
    if bonuses:
        h.update(mico=1, arriba=["Carlos"])
    rec = hand(rec, **h)
    assert state(rec)["net"]["Bea"] == bea and zero_sum(rec) == 0 and state(rec)["pot"] == 0
