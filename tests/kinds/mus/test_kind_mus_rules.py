"""The Mus rules through the Mus kind (port of tests/rules/test_mus_rules.py): the worked examples of
shared/rules/mus.md, the state document, the match, and what a session file may not say."""
import copy
import json

import pytest

from companion.kinds.mus import KIND
from companion.kinds.mus.kind import NewMus, keepers_of, stones_of
from companion.domain.messages import render
from mus_helpers import (NOBODY, PLAYERS, SEATS, RuleError, alerts, bet, call, entries, fold, game, hand,
                         ordago, page, raw_game, results, rz, state)


# ---------------------------------------------------------------- worked examples of mus.md

@pytest.mark.parametrize("preset,expect", [("spanish", [("grande", "B", 1)]), ("pagat", [])])
def test_example1_grande_passed(preset, expect):
    h = hand(showdown={"grande": "B", "chica": "A", "juego": "A", **NOBODY})
    st = state([h], preset)
    assert [e for e in entries(st) if e[0] == "grande"] == expect


def test_example2_folds():
    st = state([hand(grande=[bet("A", 2), rz("B", 7), fold("A")])], "pagat", paso_point=0)
    assert st["log"][0]["points"] == 2 and st["log"][0]["team"] == "B"
    assert st["log"][0]["why"] == "Grande: A folded to B's raise to 7: +2"
    st = state([hand(grande=[bet("A", 2), rz("B", 7), rz("A", 17), fold("B")])], "pagat")
    assert st["log"][0]["points"] == 7 and st["log"][0]["team"] == "A"
    st = state([hand(grande=[bet("A", 2), fold("B")])], "pagat")
    assert (st["log"][0]["team"], st["log"][0]["points"]) == ("A", 1)
    assert st["log"][0]["why"] == "Grande: B folded to A's envite of 2: +1"


def test_example3_pares_fold_bonuses():
    cards = {"Ane": "RR45", "Bea": "SS77", "Carlos": "CCC4", "Dani": "A456"}
    st = state([hand(cards=cards, pares=[bet("A", 2), fold("B")])])
    pares = [e for e in st["log"] if e["lance"] == "pares"]
    assert [(e["team"], e["points"]) for e in pares] == [("A", 1), ("A", 3)]
    # the fold point comes before the count's grande award
    assert st["log"][0]["lance"] == "pares"


@pytest.mark.parametrize("preset,pts", [("spanish", 7), ("pagat", 5)])
def test_example4_juego_called(preset, pts):
    h = hand(juego=[bet("A", 2), call("B")],
             showdown={"grande": "A", "chica": "A", "pares_held": {},
                       "juego_held": {"Ane": 31, "Carlos": 33, "Bea": 32}})
    st = state([h], preset)
    assert [e for e in entries(st) if e[0] == "juego"] == [("juego", "A", pts)]


def _to_38_36():
    return hand(grande=[bet("A", 37), call("B")], chica=[bet("A", 2), fold("B")], juego=[bet("B", 35), call("A")],
                showdown={"grande": "A", "juego": "B", **NOBODY})


def test_example5_count_stops_at_target():
    h1 = _to_38_36()
    assert state([h1])["score"] == {"A": 38, "B": 36}
    h2 = hand(chica=[bet("A", 2), call("B")],
              showdown={"grande": "B", "chica": "A", "pares": "A", "juego": "A",
                        "pares_held": {"Ane": "duples", "Bea": "pareja"}, "juego_held": {"Ane": 31, "Bea": 33}})
    rec = game([h1, h2])
    st = KIND.state(rec)
    assert entries(st, 2) == [("grande", "B", 1), ("chica", "A", 2)]
    assert st["games"] == [{"winner": "A", "score": {"A": 40, "B": 37}, "by": "points"}]
    assert st["score"] == {"A": 0, "B": 0} and rec.state["game_ends"] == [2]
    assert results(rec)[1]["ended_game"] == {"game": 1, "winner": "A", "by": "points"}


def test_example6_fold_wins_at_once():
    h1 = hand(grande=[bet("A", 18), call("B")], chica=[bet("B", 39), call("A")], juego=[bet("A", 2), fold("B")],
              showdown={"grande": "A", "chica": "B", **NOBODY})
    assert state([h1])["score"] == {"A": 20, "B": 39}
    h2 = hand(grande=[bet("A", 2), rz("B", 7), fold("A")])
    st = state([h1, h2])
    assert st["games"] == [{"winner": "B", "score": {"A": 20, "B": 41}, "by": "points"}]
    bad = hand(grande=[bet("A", 2), rz("B", 7), fold("A")], chica=[bet("A", 2), call("B")])
    with pytest.raises(RuleError) as e:
        game([h1, bad])
    assert e.value.path == "hands[1].chica"


def test_example7_ordago_tie_goes_to_mano():
    cards = {"Ane": "RR7A", "Bea": "RR7A", "Carlos": "C456", "Dani": "S456"}
    st = state([hand(cards=cards, grande=[ordago("B"), call("A")])])
    assert st["games"] == [{"winner": "A", "score": {"A": 0, "B": 0}, "by": "ordago"}]
    # next hand Bea is mano: the same cards now favour B
    st = state([hand(cards=cards, grande=[ordago("B"), call("A")]),
                hand(cards=cards, grande=[ordago("A"), call("B")])])
    assert [g["winner"] for g in st["games"]] == ["A", "B"]


def test_spanish_award_made_whole():
    h1 = hand(grande=[bet("A", 36), call("B")], juego=[bet("B", 2), call("A")],
              showdown={"grande": "A", "chica": "A", "juego": "B", **NOBODY})
    assert state([h1])["score"] == {"A": 37, "B": 3}
    h2 = hand(juego=[bet("A", 2), call("B")],
              showdown={"grande": "B", "chica": "B", "pares_held": {},
                        "juego_held": {"Ane": 33, "Carlos": 31, "Bea": 32}})
    st = state([h1, h2])
    assert st["games"][0]["score"] == {"A": 44, "B": 5}
    assert st["log"][-1]["points"] == 7 and st["log"][-1]["lance"] == "juego"


# ---------------------------------------------------------------- state semantics

def test_stones_of_state_example():
    s = stones_of({"A": 12, "B": 36}, 40)
    assert s == {"A": {"amarracos": 2, "ones": 2}, "B": {"amarracos": 0, "ones": 1, "dentro": True}, "dish": 17}


def test_state_keys_and_dentro():
    h = hand(grande=[bet("A", 12), call("B")], chica=[bet("B", 36), call("A")],
             showdown={"grande": "A", "chica": "B", **NOBODY})
    rec = game([h], "pagat")
    st = KIND.state(rec)
    for k in ("kind", "teams", "games", "games_won", "match_winner", "score", "dentro", "stones", "next_mano", "log"):
        assert k in st
    assert st["kind"] == "mus"
    assert st["score"] == {"A": 12, "B": 36} and st["dentro"] == {"A": False, "B": True}
    assert st["stones"]["dish"] == 17 and st["next_mano"] == "Bea"
    assert st["teams"] == {"A": ["Ane", "Carlos"], "B": ["Bea", "Dani"]}
    assert any("DENTRO" in render(a) for a in alerts(rec))
    # the state is JSON as it stands
    assert json.loads(json.dumps(st)) == st


def test_called_ordago_drops_earlier_called_stakes_keeps_folds():
    h = hand(grande=[bet("A", 5), call("B")], chica=[bet("B", 2), fold("A")], pares=[ordago("A"), call("B")],
             showdown={"pares": "B", "pares_held": {"Ane": "pareja", "Bea": "medias"}})
    st = state([h])
    assert st["games"] == [{"winner": "B", "score": {"A": 0, "B": 1}, "by": "ordago"}]


def test_ordago_folded_scores_like_a_fold():
    st = state([hand(grande=[bet("A", 2), rz("B", 5), ordago("A"), fold("B")],
                     showdown={"grande": "A", "chica": "A", "juego": "B", **NOBODY})])
    assert st["log"][0]["points"] == 5
    st = state([hand(grande=[ordago("A"), fold("B")], showdown={"chica": "A", "juego": "B", **NOBODY})])
    assert st["log"][0]["points"] == 1


def test_punto_called_and_folded():
    h = hand(juego=[bet("A", 4), call("B")], showdown={"grande": "A", "chica": "A", "juego": "B", **NOBODY})
    st = state([h])
    assert [e for e in entries(st) if e[0] == "punto"] == [("punto", "B", 5)]
    h = hand(juego=[bet("A", 4), fold("B")], showdown={"grande": "A", "chica": "A", **NOBODY})
    st = state([h])
    assert [e for e in entries(st) if e[0] == "punto"] == [("punto", "A", 1), ("punto", "A", 1)]


def test_uncontested_pares_juego_and_void():
    h = hand(showdown={"grande": "A", "chica": "A",
                       "pares_held": {"Ane": "pareja", "Carlos": "duples"}, "juego_held": {"Dani": 31}})
    st = state([h], "pagat")
    assert entries(st) == [("pares", "A", 4), ("juego", "B", 2)]
    with pytest.raises(RuleError) as e:
        game([hand(pares=[bet("A", 2), call("B")], showdown={"grande": "A", "pares_held": {"Ane": "pareja"}})],
             "pagat")
    assert e.value.path == "hands[0].pares" and "only team A" in e.value.message


def test_pares_winner_implied_by_kinds():
    h = hand(pares=[bet("A", 2), call("B")],
             showdown={"pares_held": {"Ane": "pareja", "Bea": "medias"}, "juego_held": {}})
    st = state([h], "pagat")
    assert entries(st) == [("pares", "B", 4)]
    with pytest.raises(RuleError) as e:
        game([hand(pares=[bet("A", 2), call("B")], showdown={"pares_held": {"Ane": "pareja", "Bea": "pareja"}})],
             "pagat")
    assert e.value.path == "hands[0].showdown.pares"


@pytest.mark.parametrize("known", [32, 40])
def test_juego_32_or_40_beats_an_other_juego(known):
    # "other" is 33..37: a known 32 or 40 wins without asking, and naming the other team is refused
    h = hand(juego=[bet("A", 2), call("B")], showdown={"juego_held": {"Ane": "other", "Bea": known}})
    assert entries(state([h], "pagat")) == [("juego", "B", 3)]
    with pytest.raises(RuleError) as e:
        game([hand(juego=[bet("A", 2), call("B")],
                   showdown={"juego": "A", "juego_held": {"Ane": "other", "Bea": known}})], "pagat")
    assert e.value.path == "hands[0].showdown.juego" and "team B" in e.value.message


# ---------------------------------------------------------------- match, rotation, settlement

def _ordago_win(t, mano=None):
    h = hand(grande=[ordago(t), call("B" if t == "A" else "A")], showdown={"grande": t})
    if mano:
        h["mano"] = mano
    return h


def test_match_and_no_hand_after():
    rec = game([_ordago_win("A"), _ordago_win("B"), _ordago_win("A")])
    st = KIND.state(rec)
    assert st["games_won"] == {"A": 2, "B": 1} and st["match_winner"] == "A"
    p = page(rec)
    assert p["st"]["status"] == "match_over" and p["ui"]["types"] == set()
    assert st["next_mano"] is None
    with pytest.raises(RuleError) as e:
        game([_ordago_win("A"), _ordago_win("A"), _ordago_win("B")])
    assert e.value.path == "hands[2]"
    assert state([_ordago_win("A")] * 2, "pagat")["match_winner"] is None


def test_mano_rotation_and_override():
    hs = [_ordago_win("B"), _ordago_win("B", mano="Dani"), _ordago_win("A")]
    rec = game(hs, "pagat")
    assert [r["mano"] for r in results(rec)] == ["Ane", "Dani", "Ane"]
    assert KIND.state(rec)["next_mano"] == "Bea"


def test_settlement():
    g = raw_game([_ordago_win("A"), _ordago_win("B"), _ordago_win("A")])
    g["stake"] = {"per_game": 100}
    s = KIND.settlement(KIND.build(g, PLAYERS))
    assert s == {"net": {"Ane": 100, "Bea": -100, "Carlos": 100, "Dani": -100}, "on_table": 0}
    g["stake"] = {"per_match": 500}
    assert KIND.settlement(KIND.build(g, PLAYERS))["net"]["Dani"] == -500
    g["hands"] = g["hands"][:2]
    assert KIND.settlement(KIND.build(g, PLAYERS))["net"]["Dani"] == 0


# ---------------------------------------------------------------- build (was normalize)

BAD = [
    (lambda g: g["hands"].append(hand(grande=[bet("A", 4), rz("B", 5), fold("A")])),
     "hands[0].grande[1].raise", "a raise must add at least 2 (total 5 after 4)"),
    (lambda g: g["hands"].append(hand(grande=[bet("A", 1), fold("B")])), "hands[0].grande[0].bet", "at least 2"),
    (lambda g: g["hands"].append(hand(grande=[call("A")])), "hands[0].grande[0]", "first step"),
    (lambda g: g["hands"].append(hand(grande=[bet("A", 2), rz("A", 4), fold("B")])), "hands[0].grande[1].team",
     "alternate"),
    (lambda g: g["hands"].append(hand(grande=[bet("A", 2)])), "hands[0].grande[1]", "call or a fold"),
    (lambda g: g["hands"].append(hand(grande=[bet("A", 2), call("B"), fold("A")])), "hands[0].grande[2]",
     "already ended"),
    (lambda g: g["hands"].append(hand(grande=[ordago("A"), rz("B", 5)])), "hands[0].grande[1]", "órdago"),
    (lambda g: g["hands"].append(hand(grande=[bet("A", 2), bet("B", 4)])), "hands[0].grande[1]", "only the first"),
    (lambda g: g["hands"].append(hand(grande=[{"team": "C", "bet": 2}])), "hands[0].grande[0].team", "team"),
    (lambda g: g["hands"].append(hand(grande=[{"team": "A", "bett": 2}])), "hands[0].grande[0].bett", "unknown"),
    (lambda g: g["hands"].append(hand(cards={"Ane": "RR4", "Bea": "RRRR", "Carlos": "A456", "Dani": "A457"})),
     "hands[0].cards.Ane", "not a hand"),
    (lambda g: g["hands"].append(hand(cards={"Ane": "RR45", "Bea": "RRRR", "Carlos": "A456"})), "hands[0].cards",
     "Dani"),
    # five R cannot come from one deck with 4 kings (with 8 kings a table may write a 3 as R: see
    # test_kind_mus_spec.py)
    (lambda g: (g["rules"].update(kings=4),
                g["hands"].append(hand(cards={"Ane": "RR45", "Bea": "RRRS", "Carlos": "A456", "Dani": "A457"}))),
     "hands[0].cards", "only 4 R"),
    (lambda g: g["hands"].append(hand()), "hands[0].showdown.grande", "better grande"),
    (lambda g: g["hands"].append(hand(showdown={"grande": "A", "chica": "A", "pares": "A", **NOBODY})),
     "hands[0].showdown.pares", "nobody had pares"),
    (lambda g: g["hands"].append(hand(showdown={"grande": "A", "chica": "A", "pares_held": {"Ane": "trio"}})),
     "hands[0].showdown.pares_held.Ane", "pareja"),
    (lambda g: g["hands"].append(hand(showdown={"grande": "A", "chica": "A", "juego_held": {"Ane": 38}})),
     "hands[0].showdown.juego_held.Ane", "juego total"),
    (lambda g: g["hands"].append(hand(mano="Eneko")), "hands[0].mano", "seated"),
    (lambda g: g["hands"].append({**hand(), "note": 1}), "hands[0].note", "unknown key"),
    (lambda g: g.update(seats=["Ane", "Bea", "Ane", "Dani"]), "seats[2]", "twice"),
    (lambda g: g.update(seats=["Ane", "Bea", "Zoe", "Dani"]), "seats[2]", "session"),
    (lambda g: g.update(seats=["Ane", "Bea"]), "seats", "4 seats"),
    (lambda g: g["rules"].update(kings=6), "rules.kings", "8"),
    (lambda g: g["rules"].update(target=3), "rules.target", "between"),
    (lambda g: g["rules"].update(prest="x"), "rules.prest", "unknown"),
    (lambda g: g["rules"].update(preset="french"), "rules.preset", "preset"),
    (lambda g: g.update(stones={"A": {"fives": "Bea", "ones": "Ane"}, "B": {"fives": "Bea", "ones": "Dani"}}),
     "stones.A.fives", "team A"),
    (lambda g: g.update(stake={"per_game": -1}), "stake.per_game", "negative"),
    (lambda g: g.update(colour="red"), "colour", "unknown key"),
    (lambda g: g["hands"].extend([{**hand(), "open": "chica"}, hand()]), "hands[0].open", "only the last"),
]


@pytest.mark.parametrize("mutate,path,msg", BAD)
def test_build_refuses(mutate, path, msg):
    g = raw_game([])
    mutate(g)
    with pytest.raises(RuleError) as e:
        KIND.build(g, PLAYERS)
    assert e.value.path == path or (path == "hands[0].cards" and e.value.path.startswith(path + ".")
                                     and msg.startswith("only"))      # a deck error sits beside one hand
    assert msg in e.value.message


def test_stake_may_hold_both():
    # changed on purpose: per_game and per_match together are accepted (both pay)
    g = raw_game([])
    g["stake"] = {"per_game": 1, "per_match": 2}
    rec = KIND.build(g, PLAYERS)
    assert KIND.to_doc(rec)["stake"] == {"per_game": 1, "per_match": 2}


def test_build_canonical_and_replays():
    raw = {"kind": "mus", "seats": SEATS, "rules": {"kings": 4},
           "hands": [{"cards": {"Ane": "kk41", "Bea": "qqj7", "Carlos": "a456", "Dani": "RS7A"},
                      "chica": [bet("A", 2), call("B")]}]}
    before = copy.deepcopy(raw)
    rec = KIND.build(raw, PLAYERS)
    assert raw == before
    doc = KIND.to_doc(rec)
    assert doc["rules"] == {"preset": "pagat", "kings": 4}
    assert doc["hands"][0]["cards"]["Ane"] == "RR4A" and doc["hands"][0]["grande"] == []
    again = KIND.build(doc, PLAYERS)
    assert again == rec and KIND.to_doc(again) == doc
    assert KIND.build(json.loads(json.dumps(doc)), PLAYERS) == rec


def test_canonical_rules_keep_only_what_differs():
    # changed on purpose: an option equal to the preset's value is dropped
    g = raw_game([], "spanish", kings=8, target=40, games_to_win=2, paso_point=0)
    assert KIND.to_doc(KIND.build(g, PLAYERS))["rules"] == {"preset": "spanish", "paso_point": 0}
    g = raw_game([], "pagat", paso_point=0, juego_31=3)
    assert KIND.to_doc(KIND.build(g, PLAYERS))["rules"] == {"preset": "pagat", "juego_31": 3}
    g = raw_game([])
    del g["rules"]
    assert KIND.to_doc(KIND.build(g, PLAYERS))["rules"] == {"preset": "pagat"}


# ---------------------------------------------------------------- new_game

NEW = {"seats": ("Ane", "Bea", "Carlos", "Dani"), "preset": "spanish"}


def test_new_game_defaults_and_overrides():
    g = KIND.new_game(PLAYERS, NewMus(**NEW, options=(("kings", 4), ("target", 40)), per_game=200))
    assert g["rules"] == {"preset": "spanish", "kings": 4}
    rec = KIND.build(g, PLAYERS)
    assert keepers_of(rec.head) == {"A": {"fives": "Ane", "ones": "Carlos"}, "B": {"fives": "Bea", "ones": "Dani"}}
    assert g["stake"] == {"per_game": 200}
    assert KIND.to_doc(rec) == g
    g = KIND.new_game(PLAYERS, NewMus(**NEW, fives=(("B", "Dani"),)))
    assert g["stones"]["B"] == {"fives": "Dani", "ones": "Bea"}
    assert g["stones"]["A"] == {"fives": "Ane", "ones": "Carlos"}


def test_new_game_both_stakes():
    g = KIND.new_game(PLAYERS, NewMus(**NEW, per_game=200, per_match=1000))
    assert g["stake"] == {"per_game": 200, "per_match": 1000}


@pytest.mark.parametrize("change,field", [
    ({"seats": ("Ane", "Bea", "Ane", "Dani")}, "seat2"),
    ({"seats": ("Ane", "Zoe", "Carlos", "Dani")}, "seat1"),
    ({"seats": ("Ane", "Bea", "Carlos", "")}, "seat3"),
    ({"preset": "x"}, "preset"),
    ({"options": (("kings", 5),)}, "kings"),
    ({"options": (("target", 2),)}, "target"),
    ({"fives": (("A", "Bea"),)}, "fives_A"),
    ({"fives": (("B", "Carlos"),)}, "fives_B"),
    ({"per_game": -1}, "stake_game"),
    ({"per_match": -5}, "stake_match"),
])
def test_new_game_field_errors(change, field):
    with pytest.raises(RuleError) as e:
        KIND.new_game(PLAYERS, NewMus(**{**NEW, **change}))
    assert e.value.path == field


def test_state_between_games_and_after_the_match():
    # score 0-0, no stones, the dish full: between games and after the match
    st = state([_ordago_win("A")])
    assert st["score"] == {"A": 0, "B": 0} and st["dentro"] == {"A": False, "B": False}
    assert st["stones"] == {"A": {"amarracos": 0, "ones": 0}, "B": {"amarracos": 0, "ones": 0}, "dish": 22}
    st = state([_ordago_win("A"), _ordago_win("A")])
    assert st["score"] == {"A": 0, "B": 0} and st["stones"]["dish"] == 22 and st["next_mano"] is None
    assert st["games"] == [{"winner": "A", "score": {"A": 0, "B": 0}, "by": "ordago"}] * 2
