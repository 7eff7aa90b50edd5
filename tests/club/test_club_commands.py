"""The organizer's club commands, pure: each typed command gives the events it writes (all or none), or
a refusal naming the form field, and leaves the night it read as it was."""
import copy

import pytest
from clubdata import P1, P2, P3, P4, PLAYERS, example_doc

from companion.club.commands import (AddTable, Arrive, EndRound, Leave, Night, Setup, StartRound, Swap, handle,
                                     running)
from companion.domain.errors import RuleError
from companion.permit import SESSION_COMMANDS
from companion.record.session import load

NOW = "2026-11-20T21:05:00+00:00"


def night_of(rounds=2, **club):
    doc = example_doc(rounds)
    doc["club"].update(club)
    sess = load(doc)
    return Night(sess.header, sess.games)


def refused(cmd, night):
    header = copy.deepcopy(night.header)
    with pytest.raises(RuleError) as err:
        handle(cmd, night)
    assert night.header == header        # nothing it read changed
    return err.value


def test_every_command_names_a_permit_command():
    for cls in (Setup, StartRound, EndRound, Arrive, Leave, AddTable, Swap):
        assert cls.command in SESSION_COMMANDS


def test_start_round_writes_the_clock_the_byes_and_a_match_at_each_table():
    night = night_of(2)
    plan = {"tables": [[*P1[:1], *P4[:1], P1[1], P4[1]]], "free": [P2, P3]}
    got = handle(StartRound(plan=plan, now=NOW), night)
    assert got.labels == ["1"]
    (etype, payload), (etype2, game) = got.steps
    assert etype == "club" and payload["club"]["clock"]["3"] == NOW and payload["club"]["byes"]["3"] == [P2, P3]
    assert etype2 == "add_game" and game["game"]["round"] == 3 and game["game"]["table"] == "1"
    assert game["game"]["seats"] == ["Ane", "Gorka", "Bea", "Hodei"] and game["game"]["kind"] == "mus"


@pytest.mark.parametrize("plan,code", [
    ({"tables": [["Ane", "Carlos", "Bea", "Dani"]], "free": [P3]}, "clubweb.missing"),
    ({"tables": [["Ane", "Carlos", "Bea", "Dani"], ["Eneko", "Gorka", "Hodei", "Fermín"]], "free": []},
     "clubweb.not_pairs"),
    ({"tables": [["Ane", "Carlos", "Bea"]], "free": []}, "clubweb.plan"),
    ({"tables": [["Ane", "Carlos", "Bea", "Zoe"]], "free": [P3, P4]}, "clubweb.not_pairs"),
    ({"tables": [["Ane", "Carlos", "Bea", "Dani"], ["Eneko", "Gorka", "Fermín", "Hodei"]], "free": [P1]},
     "clubweb.seat_twice"),
])
def test_a_plan_that_does_not_fit_is_refused(plan, code):
    err = refused(StartRound(plan=plan, now=NOW), night_of(2))
    assert err.code == code and err.field == "plan"


def test_end_round_ends_only_the_running_matches_by_the_clock():
    doc = example_doc(1)
    doc["games"][1]["hands"] = doc["games"][1]["hands"][:2]      # table 2 still in play
    sess = load(doc)
    night = Night(sess.header, sess.games)
    assert running(night) == [("2", 1)]
    got = handle(EndRound(), night)
    assert [(e, p["game"], type(p["action"]).__name__) for e, p in got.steps] == [("game", 1, "EndByTime")]
    assert refused(EndRound(), night_of(2)).code == "clubweb.no_round"     # every match has a result


def test_setup_errors_name_their_field():
    night = night_of(2)
    assert refused(Setup(format="pairs_swiss", pairs=(("Ane", "Zoe"),)), night).field == "pairs"
    assert refused(Setup(format="rotating", minutes="lots"), night).field == "minutes"
    assert refused(Setup(format="rotating", games_to_win=0), night).field == "games_to_win"
    assert refused(Setup(format="chess"), night).field == "format"
    got = handle(Setup(format="pairs_round_robin", pairs=(tuple(P1), tuple(P2), ()), rounds=3, tally=True), night)
    club = got.steps[0][1]["club"]
    assert club["pairs"] == [P1, P2] and club["rounds"] == 3 and club["mus"]["scoring"] == "tally"


def test_arrive_adds_the_pair_and_leave_toggles():
    night = night_of(2)
    got = handle(Arrive(name="Iker", partner="Jon"), night)
    assert [e for e, _ in got.steps] == ["add_player", "add_player", "club"]
    assert got.steps[2][1]["club"]["pairs"][-1] == ["Iker", "Jon"]
    assert refused(Arrive(name="Ane", partner="Jon"), night).code == "session.already_playing"
    left = handle(Leave(name="Gorka"), night).steps[0][1]["club"]["left"]
    assert left == ["Gorka"]


def test_add_table_and_swap():
    night = night_of(2)
    got = handle(AddTable(label=" Terraza ", seats=tuple(PLAYERS[:4])), night)
    assert got.labels == ["Terraza"] and got.steps[0][1]["game"]["table"] == "Terraza"
    assert refused(AddTable(label="", seats=tuple(PLAYERS[:4])), night).field == "label"
    plan = {"tables": [["Ane", "Carlos", "Bea", "Dani"]], "free": [P3, P4]}
    handle(Swap(plan=plan, x="0:A", y="f:1"), night)
    assert plan == {"tables": [["Gorka", "Carlos", "Hodei", "Dani"]], "free": [P3, P1]}
    assert refused(Swap(plan=plan, x="0:A", y="0:A"), night).code == "clubweb.swap_same"
    assert refused(Swap(plan=plan, x="7:A", y="0:B"), night).code == "clubweb.plan"
