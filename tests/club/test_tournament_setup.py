"""Setting up a tournament: pairs pasted one a line (every bad line named), the check-in, the stage plans
the organizer picks from, each accepted by the session file's checks."""
import pytest
from tourneydata import P, STAGES

from companion.club.setup import check_in, parse_pairs, stage_plan
from companion.club.shape import clean_club
from companion.domain.errors import RuleError
from companion.domain.messages import render


def test_pasted_pairs_in_seed_order_with_new_players():
    text = "Ane, Bea\n\n  carlos / Dani \nEneko & Fermín\nGorka - Hodei\nIker;Jone\n"
    pairs, new, errors = parse_pairs(text, ["Ane", "Bea", "Carlos"])
    assert errors == []
    assert pairs == [["Ane", "Bea"], ["Carlos", "Dani"], ["Eneko", "Fermín"], ["Gorka", "Hodei"], ["Iker", "Jone"]]
    assert new == ["Dani", "Eneko", "Fermín", "Gorka", "Hodei", "Iker", "Jone"]


def test_every_bad_line_is_named():
    text = "Ane, Bea\nCarlos\nDani, dani\nAne, Eneko\nKoldo, " + "x" * 41 + "\nLur, Mikel, Nerea\nOier, Paula"
    pairs, _new, errors = parse_pairs(text, [])
    assert pairs == [["Ane", "Bea"], ["Oier", "Paula"]]
    assert [(e["code"], e["n"]) for e in errors] == [
        ("tsetup.two_names", 2), ("tsetup.same_name", 3), ("tsetup.paired_twice", 4), ("tsetup.bad_name", 5),
        ("tsetup.two_names", 6)]
    assert render(errors[2]) == "Line 4: Ane is already in the pair of line 1"
    assert render(errors[3]).startswith("Line 5: a name has at most 40 characters")


def test_a_registered_player_cannot_be_paired_again():
    pairs, new, errors = parse_pairs("ane, Koldo\nLur, Mikel", ["Ane", "Bea"], [["Ane", "Bea"]])
    assert pairs == [["Lur", "Mikel"]] and new == ["Lur", "Mikel"]
    assert render(errors[0]) == "Line 1: Ane is already registered in a pair"


def test_check_in_keeps_the_seed_order():
    pairs = [P[i] for i in range(1, 6)]
    assert check_in(pairs, [list(reversed(P[4])), P[1], P[5]]) == [P[1], P[4], P[5]]


def test_the_groups_and_brackets_plan_is_the_example():
    plan = stage_plan("groups_brackets", 10, groups=2, places=2, group_games_to_win=1, final_games_to_win=3)
    assert plan[0] == STAGES[0] and plan[1] == STAGES[1]
    assert plan[2]["from"] == STAGES[2]["from"] and plan[2]["games_to_win"] == 2


@pytest.mark.parametrize("template, n, kw, names", [
    ("groups_brackets", 10, {"groups": 2}, ["Groups", "Bracket A", "Bracket B"]),
    ("groups_brackets", 6, {"groups": 3}, ["Groups", "Bracket A"]),            # groups of 2: no 3rd place
    ("groups_brackets", 200, {"groups": 25, "places": 4}, ["Groups", "Bracket A", "Bracket B"]),
    ("swiss_knockout", 80, {"rounds": 8, "top": 16}, ["Swiss", "Knockout"]),
    ("swiss_knockout", 5, {"top": 8}, ["Swiss", "Knockout"]),
    ("knockout", 13, {}, ["Knockout"]),
])
def test_every_plan_is_a_valid_club(template, n, kw, names):
    pairs = [[f"A{i}", f"B{i}"] for i in range(n)]
    stages = stage_plan(template, n, **kw)
    club = clean_club({"format": "stages", "kind": "mus", "pairs": pairs, "stages": stages},
                      [x for p in pairs for x in p])
    assert [s["name"] for s in club["stages"]] == names


def test_an_unknown_plan_is_refused():
    with pytest.raises(RuleError) as err:
        stage_plan("ladder", 8)
    assert err.value.path == "template"
