"""The session file's club night: tables, rounds, ``ended: "time"``, ``club``; the state's ``club`` and
Mus ``result``."""
import copy
import json

import pytest
from clubdata import P1, P2, P3, P4, PLAYERS, example_doc

from companion.domain.errors import RuleError
from companion.record.session import load, state_of, to_doc


def test_worked_example_from_a_file_gives_the_standings():
    state = state_of(load(example_doc()))
    club = state["club"]
    assert club["format"] == "pairs_swiss" and club["round"] == 3
    assert [(r["pair"], r["match_points"], r["games_diff"], r["points_diff"], r["rank"])
            for r in club["standings"]] == [(P1, 2.5, 3, 49, 1), (P3, 2, 1, 16, 2), (P2, 1, -2, -75, 3),
                                            (P4, 0.5, -2, 10, 4)]


def test_mus_result_and_ended_by():
    games = state_of(load(example_doc()))["games"]
    assert [(g.get("result"), g.get("ended_by")) for g in games] == [
        ("A", "points"), ("A", "points"), ("A", "points"), ("B", "time"), ("draw", "time"), ("B", "points")]
    assert games[4]["next_mano"] is None


def test_round_trip_is_identical():
    once = to_doc(load(example_doc()))
    assert once["games"][3]["table"] == "2" and once["games"][3]["round"] == 2
    assert once["games"][3]["ended"] == "time" and once["club"]["pairs"][0] == P1
    text = json.dumps(once, ensure_ascii=False, sort_keys=False)
    assert json.dumps(to_doc(load(json.loads(text))), ensure_ascii=False) == text


def test_a_file_without_them_reads_as_before():
    doc = example_doc()
    del doc["club"]
    for g in doc["games"]:
        g.pop("table"), g.pop("round")
        g.pop("ended", None)
    doc["games"] = [g for g in doc["games"] if "ended" not in g]
    state = state_of(load(doc))
    assert "club" not in state
    assert "table" not in to_doc(load(doc))["games"][0]


def refused(doc) -> str:
    with pytest.raises(RuleError) as err:
        load(doc)
    return err.value.path


@pytest.mark.parametrize("change, path", [
    (lambda d: d["club"].update(format="knockout"), "club.format"),
    (lambda d: d["club"].update(kind="newmarket"), "club.kind"),
    (lambda d: d["club"]["pairs"].__setitem__(1, ["Ane", "Dani"]), "club.pairs[1][0]"),
    (lambda d: d["club"]["pairs"].__setitem__(1, ["Zoe", "Dani"]), "club.pairs[1]"),
    (lambda d: d["club"].update(rounds=0), "club.rounds"),
    (lambda d: d["club"].update(left=["Nobody"]), "club.left[0]"),
    (lambda d: d["club"].update(byes={"0": [P1]}), "club.byes.0"),
    (lambda d: d["club"].update(byes={"1": [["Ane", "Carlos"]]}), "club.byes.1[0]"),
    (lambda d: d["club"].update(clock={"1": "yesterday"}), "club.clock.1"),
    (lambda d: d["games"][0].update(round=0), "games[0].round"),
    (lambda d: d["games"][0].update(table=""), "games[0].table"),
    (lambda d: d["games"][0].update(table="x" * 21), "games[0].table"),
    (lambda d: d["games"][3].update(ended="clock"), "games[3].ended"),
    (lambda d: d["games"][0].update(ended="time"), "games[0].ended"),
    (lambda d: d["games"][1].update(seats=["Carlos", "Gorka", "Ane", "Hodei"]), "games[1].seats"),
])
def test_bad_values_are_refused_with_their_path(change, path):
    doc = copy.deepcopy(example_doc())
    change(doc)
    assert refused(doc) == path


def test_no_hand_after_the_clock():
    from companion.kinds.mus.actions import EndByTime, Tally
    from companion.record.session import load as ld

    doc = example_doc(1)
    doc["games"].append({"kind": "mus", "rules": {"preset": "spanish", "games_to_win": 2},
                         "seats": [P1[0], P2[0], P1[1], P2[1]], "scoring": "tally",
                         "hands": [{"tally": [{"team": "A", "points": 5}]}], "table": "1", "round": 2})
    sess = ld(doc)
    from companion import kinds
    from companion.kinds.base import apply_change

    mus = kinds.KINDS["mus"]
    rec, undo = apply_change(sess.games[2], mus.apply(sess.games[2], EndByTime()))
    assert rec.head["ended"] == "time" and mus.state(rec)["result"] == "A"
    with pytest.raises(RuleError):
        mus.apply(rec, Tally(awards=[{"team": "B", "points": 3}]))
    with pytest.raises(RuleError):
        mus.apply(rec, EndByTime())
    back, _ = apply_change(rec, undo)
    assert "ended" not in back.head and "result" not in mus.state(back)
    with pytest.raises(RuleError):
        mus.apply(sess.games[0], EndByTime())          # decided: the clock cannot end it


def test_players_formats_and_free():
    doc = example_doc(1)
    doc["club"] = {"format": "free"}
    assert state_of(load(doc))["club"] == {"format": "free", "round": 1}
    doc["club"] = {"format": "rotating", "kind": "mus", "byes": {"1": ["Ane"]}}
    rows = state_of(load(doc))["club"]["standings"]
    assert {r["player"] for r in rows} == set(PLAYERS)
    assert next(r for r in rows if r["player"] == "Ane")["sat_out"] == 1
