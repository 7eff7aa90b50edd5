"""Desmoche / Conquián rule engine: worked example, options, normalize, actions, properties."""
import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import desmoche as dm
from companion.rules.errors import RuleError

P3 = ["Ane", "Bea", "Carlos"]
PLAYERS = P3 + ["Dani", "Eneko"]


def game(rules=None, seats=P3, hands=(), ended=False, **extra):
    r = {"stake": 10, "bonuses": True}
    r.update(rules or {})
    g = {"kind": "desmoche", "rules": r, "seats": list(seats), "hands": list(hands), "ended": ended, **extra}
    return dm.normalize(g, PLAYERS)


def hand(g, **h):
    return dm.apply(g, {"type": "hand", "hand": h})


def zero_sum(s):
    return sum(s["net"].values()) + s["pot"] + sum(s["side_pots"].values())


def err(fn, *args):
    with pytest.raises(RuleError) as e:
        fn(*args)
    return str(e.value)


def test_worked_example_step_by_step():
    g = dm.new_game(P3, {"seats": "Ane,Bea,Carlos", "stake": "10", "bonuses": "on"})
    s = dm.compute(g)
    assert s["pot"] == 0 and s["multiple"] == 0 and s["next_multiple_words"] == "1×"
    g = dm.apply(g, {"type": "hand", "hand": {"winner": None}, "at": s["at"]})
    s = dm.compute(g)
    assert s["pot"] == 30 and s["multiple"] == 1 and s["next_multiple_words"] == "doble"
    assert s["net"] == {"Ane": -10, "Bea": -10, "Carlos": -10} and zero_sum(s) == 0
    assert s["log"][-1]["why"] == "No winner: the pot of 30 rolls over (doble)"
    g = dm.apply(g, {"type": "hand", "hand": {"winner": "Bea", "mico": 1, "arriba": ["Carlos"]}, "at": s["at"]})
    s = dm.compute(g)
    assert s["hands"][1]["pot"] == 60 and s["hands"][1]["multiple_words"] == "doble"
    assert s["net"] == {"Ane": -30, "Bea": 70, "Carlos": -40}
    assert s["pot"] == 0 and s["multiple"] == 0 and zero_sum(s) == 0
    whys = [e["why"] for e in s["log"]]
    assert "Ane paid Bea 10 (mico)" in whys and "Carlos paid Bea 10 (mico)" in whys
    assert "Carlos paid Bea 10 (arriba del palo)" in whys and "Bea won: took the pot of 60" in whys
    assert s["hands"][1]["bonuses"] == {"Ane": 10, "Carlos": 20}
    assert dm.settlement(g, s) == {"net": {"Ane": -30, "Bea": 70, "Carlos": -40}, "on_table": 0}


def test_session_file_example():
    g = game({"variant": "desmoche", "stake": 10, "bonuses": True, "color_wins": False,
              "side_games": {"oro": 5, "par_rojo": 5}, "side_unclaimed": "carry"},
             hands=[{"winner": None},
                    {"winner": "Bea", "mico": 1, "arriba": ["Carlos"],
                     "side": {"oro": {"joined": ["Ane", "Bea"], "winner": "Ane"}}},
                    {"stake": 20, "winner": "Ane", "auto_win": "peladilla", "disqualified": ["Carlos"]}],
             unit_value=10)
    s = dm.compute(g)
    # hand 3: pot 60 to Ane; Bea arriba (auto win) pays 20; Carlos disqualified pays nothing
    assert s["net"] == {"Ane": -30 + 5 + 40 + 20, "Bea": 70 - 5 - 20 - 20, "Carlos": -40 - 20}
    assert zero_sum(s) == 0 and s["stake"] == 20
    assert dm.settlement(g, s)["net"]["Ane"] == 350


@pytest.mark.parametrize("rollovers, words", [(0, "1×"), (1, "doble"), (2, "triple"), (3, "cuádruple"),
                                              (4, "quíntuple"), (11, "12×")])
def test_rollovers_multiple_words(rollovers, words):
    g = game()
    for _ in range(rollovers):
        g = hand(g, winner=None)
    s = dm.compute(g)
    assert s["pot"] == 30 * rollovers and s["multiple"] == rollovers and s["next_multiple_words"] == words
    g = hand(g, winner="Ane")
    s = dm.compute(g)
    assert s["hands"][-1]["multiple_words"] == words and s["net"]["Ane"] == 20 * (rollovers + 1)


@pytest.mark.parametrize("kind", ["peladilla", "cuatro_cuerpos", "color"])
def test_auto_wins_everyone_arriba(kind):
    g = game({"color_wins": True})
    g = hand(g, winner="Carlos", auto_win=kind, arriba=["Ane"])
    assert "arriba" not in g["hands"][0]
    s = dm.compute(g)
    assert s["net"] == {"Ane": -20, "Bea": -20, "Carlos": 40}


def test_color_needs_color_wins_and_auto_win_has_no_melds():
    g = game()
    assert err(dm.apply, g, {"type": "hand", "hand": {"winner": "Ane", "auto_win": "color"}}) == \
        "hand.auto_win: color is not an automatic win at this table (color_wins is off)"
    assert err(dm.apply, g, {"type": "hand", "hand": {"winner": "Ane", "auto_win": "peladilla", "mico": 1}}) == \
        "hand.mico: an automatic win (peladilla) has no melds: no mico"
    assert err(dm.apply, g, {"type": "hand", "hand": {"winner": None, "auto_win": "peladilla"}}) == \
        "hand.auto_win: an automatic win needs a winner"


def test_auto_win_without_bonuses_pays_only_pot():
    g = hand(game({"bonuses": False}), winner="Ane", auto_win="peladilla")
    assert dm.compute(g)["net"] == {"Ane": 20, "Bea": -10, "Carlos": -10}


def test_disqualified():
    g = hand(game(), winner="Bea", mico=1, disqualified=["Carlos"])
    s = dm.compute(g)
    assert s["net"] == {"Ane": -20, "Bea": 30, "Carlos": -10}
    assert err(dm.apply, game(), {"type": "hand", "hand": {"winner": "Carlos", "disqualified": ["Carlos"]}}) == \
        "hand.winner: Carlos was disqualified: he cannot win the hand"
    assert err(dm.apply, game(), {"type": "hand", "hand": {"winner": "Bea", "arriba": ["Carlos"],
                                                            "disqualified": ["Carlos"]}}) == \
        "hand.arriba[0]: Carlos was disqualified: he pays no bonus"
    # a disqualified player's stake stays in an unwon pot
    g = hand(game(), winner=None, disqualified=["Ane"])
    assert dm.compute(g)["pot"] == 30


@pytest.mark.parametrize("mico, same, arriba, ane, carlos", [
    (0, False, [], -10, -10), (1, False, [], -20, -20), (2, False, [], -30, -30), (3, True, ["Ane"], -60, -50),
    (0, True, [], -20, -20), (0, False, ["Ane", "Carlos"], -20, -20)])
def test_bonuses_stack(mico, same, arriba, ane, carlos):
    g = hand(game(), winner="Bea", mico=mico, same_suit=same, arriba=arriba)
    s = dm.compute(g)
    assert s["net"]["Ane"] == ane and s["net"]["Carlos"] == carlos and zero_sum(s) == 0
    if mico == 2:
        assert "Ane paid Bea 20 (2 micos)" in [e["why"] for e in s["log"]]
    if same:
        assert "Ane paid Bea 10 (same suit)" in [e["why"] for e in s["log"]]


def test_bonuses_off_refused():
    g = game({"bonuses": False})
    for key, val in (("mico", 1), ("same_suit", True), ("arriba", ["Ane"])):
        assert err(dm.apply, g, {"type": "hand", "hand": {"winner": "Bea", key: val}}) == \
            f"hand.{key}: bonuses are off at this table (bonuses: false)"
    assert err(dm.apply, game(), {"type": "hand", "hand": {"winner": "Bea", "arriba": ["Bea"]}}) == \
        "hand.arriba[0]: Bea won the hand: only losers can be arriba del palo"
    assert err(dm.apply, game(), {"type": "hand", "hand": {"winner": None, "mico": 1}}) == \
        "hand.mico: no bonus without a winner"


@pytest.mark.parametrize("mode", ["carry", "return"])
def test_side_games_carry_or_return(mode):
    g = game({"side_games": {"oro": 5, "flor": 2}, "side_unclaimed": mode})
    g = hand(g, winner="Ane", side={"oro": {"joined": ["Ane", "Bea"], "winner": None},
                                    "flor": {"joined": P3, "winner": "Carlos"}})
    s = dm.compute(g)
    assert zero_sum(s) == 0 and s["side_pots"]["flor"] == 0
    assert s["net"]["Carlos"] == -10 - 2 + 6
    if mode == "carry":
        assert s["side_pots"]["oro"] == 10 and s["hands"][0]["side"]["oro"]["result"] == "carried"
        g = hand(g, winner="Bea", side={"oro": {"joined": ["Bea", "Carlos"], "winner": "Carlos"}})
        s2 = dm.compute(g)
        assert s2["side_pots"]["oro"] == 0 and s2["hands"][1]["side"]["oro"]["pot"] == 20
    else:
        assert s["side_pots"]["oro"] == 0 and s["hands"][0]["side"]["oro"]["result"] == "returned"
        assert s["net"]["Bea"] == -10 - 2      # her oro stake came back
    assert err(dm.apply, g, {"type": "hand", "hand": {"winner": "Ane", "side": {"oro": {"joined": ["Ane"],
                                                                                         "winner": "Bea"}}}}) == \
        "hand.side.oro.winner: Bea did not join oro"
    assert err(dm.apply, g, {"type": "hand", "hand": {"winner": "Ane", "side": {"escalera": {"joined": ["Ane"],
                                                                                              "winner": None}}}}) == \
        "hand.side.escalera: 'escalera' is not a side game of this table"


@pytest.mark.parametrize("rules, message", [
    ({"side_games": {"par_rojo": 5}}, "rules.side_games.par_rojo: Conquián plays only the oro side game, not par_rojo"),
    ({"bonuses": True}, "rules.bonuses: Conquián has no bonuses"),
    ({"bonuses": False, "color_wins": True}, "rules.color_wins: Conquián has no automatic wins"),
])
def test_conquian_refusals(rules, message):
    r = {"variant": "conquian", "stake": 5, "bonuses": False}
    r.update(rules)
    assert err(dm.normalize, {"kind": "desmoche", "rules": r, "seats": P3}, PLAYERS) == message


def test_conquian_plays():
    g = game({"variant": "conquian", "bonuses": False, "side_games": {"oro": 5}})
    assert err(dm.apply, g, {"type": "hand", "hand": {"winner": "Ane", "auto_win": "peladilla"}}) == \
        "hand.auto_win: Conquián has no automatic wins"
    assert err(dm.apply, g, {"type": "hand", "hand": {"winner": "Ane", "mico": 1}}) == "hand.mico: Conquián has no bonuses"
    g = hand(g, winner="Ane", side={"oro": {"joined": P3, "winner": "Bea"}})
    assert dm.compute(g)["net"] == {"Ane": 15, "Bea": 0, "Carlos": -15}
    assert err(dm.new_game, PLAYERS, {"seats": "Ane,Bea", "variant": "conquian", "side_games": "oro:5, flor:2"}) == \
        "side_games: Conquián plays only the oro side game, not flor"


def test_stake_change():
    g = hand(game(), winner=None)
    g = dm.apply(g, {"type": "set_stake", "stake": "20"})
    assert g["next_stake"] == 20 and dm.compute(g)["stake"] == 20
    g = hand(g, winner="Ane", mico=1)
    assert "next_stake" not in g and g["hands"][1]["stake"] == 20
    s = dm.compute(g)
    assert s["net"] == {"Ane": -10 + 90 - 20 + 40, "Bea": -30 - 20, "Carlos": -30 - 20} and s["stake"] == 20
    g = hand(g, winner=None)
    assert dm.compute(g)["pot"] == 60
    assert "Stake changed from 10 to 20" in [e["why"] for e in s["log"]]
    assert err(dm.apply, g, {"type": "set_stake", "stake": 0}) == "stake: must be at least 1 (0)"


def test_end_series_returns_unwon_pot_and_side_pots():
    g = game({"side_games": {"oro": 5}}, seats=["Ane", "Bea", "Carlos", "Dani"])
    g = hand(g, winner="Ane", side={"oro": {"joined": ["Ane", "Bea"], "winner": None}})
    g = dm.apply(g, {"type": "set_stake", "stake": 20})
    g = hand(g, winner=None, side={"oro": {"joined": ["Bea", "Carlos"], "winner": None}})
    s = dm.compute(g)
    assert s["pot"] == 80 and s["side_pots"]["oro"] == 20
    assert dm.settlement(g, s)["on_table"] == 100
    g = dm.apply(g, {"type": "end_series"})
    s = dm.compute(g)
    assert s["pot"] == 0 and s["side_pots"] == {"oro": 0} and s["ended"]
    assert s["returned"] == {"Ane": 25, "Bea": 30, "Carlos": 25, "Dani": 20}
    assert s["net"] == {"Ane": 30, "Bea": -10, "Carlos": -10, "Dani": -10}
    assert sum(s["net"].values()) == 0 and dm.settlement(g, s)["on_table"] == 0
    assert err(dm.apply, g, {"type": "hand", "hand": {"winner": None}}) == "type: The series is over"


def test_replace_hand_and_at():
    g = hand(hand(game(), winner=None), winner="Bea", mico=1, arriba=["Carlos"])
    at = dm.compute(g)["at"]
    g2 = dm.apply(g, {"type": "replace_hand", "index": 0, "hand": {"winner": "Ane"}, "at": at})
    assert dm.compute(g2)["net"] == {"Ane": 20 - 20, "Bea": -20 + 30 + 30, "Carlos": -20 - 20}
    assert err(dm.apply, g2, {"type": "hand", "hand": {"winner": None}, "at": at}).startswith(
        "at: Already recorded from another phone")
    assert err(dm.apply, g, {"type": "replace_hand", "index": 0, "hand": {"winner": "Zoe"}}) == \
        "hand.winner: 'Zoe' is not seated at this game"
    assert err(dm.apply, g, {"type": "replace_hand", "index": 7, "hand": {"winner": None}}).startswith("index:")
    assert err(dm.apply, g, {"type": "bet"}) == "type: unknown action type 'bet'"


@pytest.mark.parametrize("patch, message", [
    ({"hands": [{"winner": None}, {"winner": "Zoe"}]}, "hands[1].winner: 'Zoe' is not seated at this game"),
    ({"hands": [{}]}, "hands[0].winner: missing (null when nobody won the hand)"),
    ({"hands": [{"winner": "Ane", "mico": -1}]}, "hands[0].mico: cannot be negative (-1)"),
    ({"hands": [{"winner": "Ane", "auto_win": "lucky"}]},
     "hands[0].auto_win: must be one of peladilla, cuatro_cuerpos, color, not 'lucky'"),
    ({"hands": [{"winner": "Ane", "stake": 0}]}, "hands[0].stake: must be at least 1 (0)"),
    ({"hands": [{"winner": "Ane", "arriba": ["Bea", "Bea"]}]}, "hands[0].arriba[1]: 'Bea' is listed twice"),
    ({"hands": [{"winner": "Ane", "winer": "Bea"}]}, "hands[0].winer: unknown key 'winer'"),
    ({"rules": {"stake": 10, "side_games": {"oro": 0}}}, "rules.side_games.oro: must be at least 1 (0)"),
    ({"rules": {"stake": 10, "side_games": {"gold": 5}}}, "rules.side_games.gold: 'gold' is not a side game "
     "(oro, corazon, flor, corazon_negro, par_rojo, par_negro, dos_par_rojo, dos_par_negro, tres_cuerpos, escalera)"),
    ({"rules": {}}, "rules.stake: missing: the stake each player puts in every hand"),
    ({"rules": {"stake": 10, "side_unclaimed": "keep"}}, "rules.side_unclaimed: must be one of carry, return, not 'keep'"),
    ({"seats": ["Ane"]}, "seats: needs 2 to 4 players, not 1"),
    ({"seats": ["Ane", "Bea", "Carlos", "Dani", "Eneko"]}, "seats: needs 2 to 4 players, not 5"),
    ({"unit_value": "10"}, "unit_value: must be a whole number, not '10'"),
    ({"next_stake": 5, "ended": True}, "next_stake: the series is over: no next hand"),
])
def test_normalize_refuses_with_path(patch, message):
    g = {"kind": "desmoche", "rules": {"stake": 10, "bonuses": True}, "seats": P3, "hands": []}
    g.update(patch)
    assert err(dm.normalize, g, PLAYERS) == message


def test_normalize_idempotent_and_pure():
    g = {"kind": "desmoche", "rules": {"stake": 10, "bonuses": True, "side_games": {"flor": 2, "oro": 5}},
         "seats": P3, "hands": [{"winner": "Ane", "mico": 0, "arriba": [], "side": {"oro": {"joined": [], "winner": None}}},
                                 {"winner": "Bea", "auto_win": "peladilla", "arriba": ["Ane", "Carlos"]}]}
    before = copy.deepcopy(g)
    n1 = dm.normalize(g, PLAYERS)
    assert g == before and dm.normalize(n1, PLAYERS) == n1
    assert n1["hands"] == [{"winner": "Ane"}, {"winner": "Bea", "auto_win": "peladilla"}]
    assert list(n1["rules"]["side_games"]) == ["oro", "flor"]


def test_new_game_form():
    g = dm.new_game(PLAYERS, {"seat0": "Bea", "seat1": "Ane", "seat2": "", "seat3": "Dani", "stake": "5",
                              "bonuses": "on", "color_wins": "on", "side_games": "oro:5", "side_par_rojo": "3",
                              "side_unclaimed": "return", "unit_value": "50"})
    assert g["seats"] == ["Bea", "Ane", "Dani"] and g["rules"]["side_games"] == {"oro": 5, "par_rojo": 3}
    assert g["rules"]["color_wins"] and g["unit_value"] == 50 and g["rules"]["side_unclaimed"] == "return"
    assert err(dm.new_game, PLAYERS, {"seats": "Ane"}) == "seats: needs 2 to 4 players, not 1"
    assert err(dm.new_game, PLAYERS, {"seats": "Ane,Bea", "stake": "0"}) == "stake: must be at least 1 (0)"
    assert err(dm.new_game, PLAYERS, {"seats": "Ane,Bea", "bonuses": "maybe"}).startswith("bonuses:")
    assert err(dm.new_game, PLAYERS, {"seats": "Ane,Bea", "side_games": "gold:5"}).startswith("side_games:")


# ---------------------------------------------------------------------------------------------------
# properties
# ---------------------------------------------------------------------------------------------------

@st.composite
def hand_strategy(draw, seats, rules):
    winner = draw(st.one_of(st.none(), st.sampled_from(seats)))
    h = {"winner": winner}
    others = [p for p in seats if p != winner]
    disq = draw(st.lists(st.sampled_from(others), unique=True, max_size=len(others)))
    if disq:
        h["disqualified"] = disq
    if winner is not None and rules["variant"] == "desmoche" and draw(st.booleans()):
        h["auto_win"] = draw(st.sampled_from(["peladilla", "cuatro_cuerpos"]))
    elif winner is not None and rules["bonuses"]:
        h["mico"] = draw(st.integers(0, 2))
        h["same_suit"] = draw(st.booleans())
        h["arriba"] = draw(st.lists(st.sampled_from([p for p in others if p not in disq] or [winner]),
                                    unique=True).filter(lambda a: winner not in a))
    if draw(st.integers(0, 4)) == 0:
        h["stake"] = draw(st.integers(1, 20))
    side = {}
    for name in rules["side_games"]:
        joined = draw(st.lists(st.sampled_from(seats), unique=True))
        if joined:
            side[name] = {"joined": joined, "winner": draw(st.one_of(st.none(), st.sampled_from(joined)))}
    if side:
        h["side"] = side
    return h


RULES = st.fixed_dictionaries({
    "variant": st.sampled_from(["desmoche", "conquian"]), "stake": st.integers(1, 10), "bonuses": st.booleans(),
    "side_unclaimed": st.sampled_from(["carry", "return"]),
    "side_games": st.dictionaries(st.sampled_from(["oro", "flor", "escalera"]), st.integers(1, 5), max_size=2)})


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), rules=RULES, n=st.integers(2, 4))
def test_properties_random_series(data, rules, n):
    if rules["variant"] == "conquian":
        rules = dict(rules, bonuses=False, side_games={k: v for k, v in rules["side_games"].items() if k == "oro"})
    seats = PLAYERS[:n]
    g = dm.normalize({"kind": "desmoche", "rules": rules, "seats": seats}, PLAYERS)
    start = g
    actions = []
    history = [g]
    for _ in range(data.draw(st.integers(0, 8))):
        s = dm.compute(g)
        if data.draw(st.integers(0, 5)) == 0:
            a = {"type": "set_stake", "stake": data.draw(st.integers(1, 9)), "at": s["at"]}
        else:
            a = {"type": "hand", "hand": data.draw(hand_strategy(seats, g["rules"])), "at": s["at"]}
        frozen, a_frozen = copy.deepcopy(g), copy.deepcopy(a)
        g2 = dm.apply(g, a)
        assert g == frozen and a == a_frozen
        assert dm.normalize(g2, PLAYERS) == g2
        s2 = dm.compute(g2)
        assert zero_sum(s2) == 0
        assert s2["at"] != s["at"] or g2 == g
        g = g2
        actions.append(a)
        history.append(g)
    r = start
    for a in actions:
        r = dm.apply(r, {k: v for k, v in a.items() if k != "at"})
    assert r == g and dm.compute(r) == dm.compute(g)
    # undo (replay without the last action, as the web layer does) gives back exactly the game before it
    if actions:
        u = start
        for a in actions[:-1]:
            u = dm.apply(u, {k: v for k, v in a.items() if k != "at"})
        assert u == history[-2] and dm.compute(u) == dm.compute(history[-2])
    assert dm.normalize(json.loads(json.dumps(g)), PLAYERS) == g
    g = dm.apply(g, {"type": "end_series"})
    s = dm.compute(g)
    assert sum(s["net"].values()) == 0 and s["pot"] == 0 and not any(s["side_pots"].values())
    assert dm.settlement(g, s)["on_table"] == 0


@pytest.mark.parametrize("variant, stake, bonuses, bea", [
    ("desmoche", 10, True, -20 + 60 + 30), ("desmoche", 10, False, -20 + 60), ("desmoche", 3, True, -6 + 18 + 9),
    ("conquian", 5, False, -10 + 30)])
def test_stake_bonuses_and_variant(variant, stake, bonuses, bea):
    # the worked example's two hands, with the stake, bonuses and variant of the table
    g = game({"variant": variant, "stake": stake, "bonuses": bonuses})
    g = hand(g, winner=None)
    h = {"winner": "Bea"}
    if bonuses:
        h.update(mico=1, arriba=["Carlos"])
    s = dm.compute(hand(g, **h))
    assert s["net"]["Bea"] == bea and zero_sum(s) == 0 and s["pot"] == 0
