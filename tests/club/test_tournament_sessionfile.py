"""A club in stages in the session file: the worked example read from a file, its round trip, the state's
``club``, and every "Refused" case of rules/tournament.md with its path."""
import copy
import json

import pytest
from tourneydata import P1, P2, P3, P4, P5, P8, P9, NAMES, example_doc, game

from companion.archive import check_work
from companion.domain.errors import RuleError
from companion.record.session import load, state_of, to_doc


def test_the_example_from_a_file():
    club = state_of(load(example_doc()))["club"]
    assert club["format"] == "stages" and [s["done"] for s in club["stages"]] == [True, True, True]
    assert [c["rank"] for c in club["classification"]] == [1, 2, 3, 4, 5, 6, 7, 7, 9, 9]
    assert club["classification"][0] == {"pair": P1, "rank": 1, "stage": 1}
    groups = club["stages"][0]
    assert groups["round"] == 5 and groups["pairs"][:2] == [P1, P2]
    assert groups["groups"][0]["standings"][0]["pair"] == P8
    assert club["stages"][1]["bracket"][0][1]["winner"] == P1


def test_round_trip_is_identical():
    once = to_doc(load(example_doc()))
    assert once["games"][21]["stage"] == 1 and once["games"][21]["round"] == 1
    assert once["club"]["stages"][1]["final_games_to_win"] == 3
    text = json.dumps(once, ensure_ascii=False)
    assert json.dumps(to_doc(load(json.loads(text))), ensure_ascii=False) == text


def refused(doc) -> str:
    with pytest.raises(RuleError) as err:
        check_work(doc)
        load(doc)
    return err.value.path


def stages(d):
    return d["club"]["stages"]


def many_players(n):
    return [f"Player {i}" for i in range(n)]


def test_scale_400_players_with_a_club_40_without():
    doc = example_doc()
    doc["players"] = NAMES + many_players(380)
    load(doc)
    doc["players"] = NAMES + many_players(381)
    assert refused(doc) == "players"
    plain = {"format": "companion-session/1", "name": "n", "players": many_players(41), "games": []}
    assert refused(plain) == "players"
    plain["players"] = many_players(40)
    load(plain)


def test_games_2000_with_a_club_200_without():
    doc = example_doc()
    doc["games"] = doc["games"] * 80           # counted before anything is played
    assert len(doc["games"]) == 2160 and refused(doc) == "games"
    doc["games"] = doc["games"][:2000]
    check_work(doc)
    del doc["club"]
    assert refused(doc) == "games"


def swiss_doc(rnd):
    club = {"format": "stages", "kind": "mus", "pairs": [P1, P2, P3, P4],
            "stages": [{"name": "Swiss", "format": "pairs_swiss", "rounds": 1},
                       {"name": "Final", "format": "knockout", "from": {"stage": 0, "ranks": [1, 2]},
                        "games_to_win": 2}]}
    return {"format": "companion-session/1", "name": "n", "players": NAMES[:8], "club": club,
            "games": [game(0, rnd, "1", P1, P3, [(40, 10), (40, 10)])]}


def at(i, **kw):
    return lambda d: d["games"][i].update(**kw)


@pytest.mark.parametrize("change, path", [
    (lambda d: d["club"].update(format="pairs_swiss"), "club.format"),
    (lambda d: d["club"].pop("stages"), "club.stages"),
    (lambda d: d["club"].update(rounds=3), "club.rounds"),
    (lambda d: d["club"].update(byes={"1": [P1]}), "club.byes"),
    (lambda d: d["club"].update(left=["Ane"]), "club.left"),
    (lambda d: d["club"].update(stages=[]), "club.stages"),
    (lambda d: stages(d)[0].update(name=""), "club.stages[0].name"),
    (lambda d: stages(d)[0].update(name="x" * 41), "club.stages[0].name"),
    (lambda d: stages(d)[0].update(format="rotating"), "club.stages[0].format"),
    (lambda d: stages(d)[0].update(groups=0), "club.stages[0].groups"),
    (lambda d: stages(d)[0].update(groups=6), "club.stages[0].groups"),
    (lambda d: stages(d)[1].update(rounds=2), "club.stages[1].rounds"),
    (lambda d: stages(d)[1].pop("games_to_win"), "club.stages[1].games_to_win"),
    (lambda d: stages(d)[1].update(third_place="yes"), "club.stages[1].third_place"),
    (lambda d: stages(d)[0].update({"from": {"stage": 0, "ranks": [1]}}), "club.stages[0].from"),
    (lambda d: stages(d)[1].pop("from"), "club.stages[1].from"),
    (lambda d: stages(d)[1].update({"from": {"stage": 1, "ranks": [1, 2]}}), "club.stages[1].from.stage"),
    (lambda d: stages(d)[1].update({"from": {"stage": 0, "ranks": [1, 1]}}), "club.stages[1].from.ranks[1]"),
    (lambda d: stages(d)[2].update({"from": {"stage": 0, "ranks": [2, 3]}}), "club.stages[2].from.ranks[0]"),
    (lambda d: stages(d)[2].update({"from": {"stage": 0, "ranks": [6]}}), "club.stages[2].from"),
    (lambda d: stages(d)[1].update(byes={"1": [P8]}), "club.stages[1].byes"),
    (lambda d: stages(d)[0]["byes"]["1"].append(P4), "club.stages[0].byes.1[2]"),
    (lambda d: d["games"][0].pop("stage"), "games[0]"),
    (at(0, stage=3), "games[0].stage"),
    (at(0, rules={"preset": "spanish"}), "games[0].rules"),
    (at(1, seats=[P1[0], P2[0], P1[1], P2[1]]), "games[1].seats"),
    (lambda d: d["games"].insert(4, game(0, 1, "5", P4, P5, [(40, 10)], to_win=1)), "games[4].seats"),
    (lambda d: d["games"].pop(19), "games[19]"),                       # groups not done: brackets unknown
    (at(20, seats=[P8[0], P9[0], P8[1], P9[1]]), "games[20].seats"),
    (at(20, seats=[P8[0], P1[0], P8[1], P1[1]]), "games[20]"),
    (lambda d: d["games"].append(copy.deepcopy(d["games"][20])), "games[27]"),
    (lambda d: d["games"][21].update(game(1, 1, "2", P3, P1, [(40, 33), (29, 40)], (24, 24), "time")),
     "games[21].ended"),
    (lambda d: d["games"].append({"kind": "desmoche", "rules": {"stake": 10}, "seats": ["Ane", "Bea"], "hands": [], "round": 6,
                                  "stage": 0}), "games[27].kind"),
    (lambda d: d["games"].append({"kind": "desmoche", "rules": {"stake": 10}, "seats": ["Ane", "Bea"], "hands": [], "stage": 0}),
     "games[27].stage"),
])
def test_refused_with_the_path_of_the_first_problem(change, path):
    doc = copy.deepcopy(example_doc())
    change(doc)
    assert refused(doc) == path


def test_a_stage_on_a_club_without_stages_is_refused():
    from clubdata import example_doc as swiss_night

    doc = swiss_night()
    doc["games"][0]["stage"] = 0
    assert refused(doc) == "games[0].stage"


def test_a_swiss_stage_refuses_a_round_past_its_rounds():
    load(swiss_doc(1))
    assert refused(swiss_doc(2)) == "games[0].round"


def test_a_stage_without_enough_pairs_is_refused():
    doc = swiss_doc(1)
    doc["club"]["stages"][1]["from"]["ranks"] = [4, 5]
    assert refused(doc) == "club.stages[1].from"
