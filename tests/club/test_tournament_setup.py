"""Setting up a tournament: pairs pasted one a line (every bad line named), the check-in, the stage plans
the organizer picks from (each the plan rules/tournament.md describes, each setting editable), each accepted
by the session file's checks."""
import json
import re
from pathlib import Path

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


SPEC = (Path(__file__).resolve().parents[2] / "docs" / "tournament.md").read_text()   # ../shared's copy


def spec_plan() -> list:
    """The ``club.stages`` of the spec's JSON example (its "Stages" section), as the spec writes it."""
    at = SPEC.index('"stages": [', SPEC.index("## Stages")) + len('"stages": ')
    stages, _end = json.JSONDecoder().raw_decode(SPEC[at:])
    for s in stages:
        s.pop("byes", None)                 # written when a round starts, not by the plan
    return stages


def test_the_groups_and_brackets_template_is_the_spec_example():
    """The spec's plan, to the key: bracket A best of three with a final best of five and a third place,
    bracket B best of three with neither ("Bracket B" (places 3-4: best of three, no third place))."""
    assert stage_plan("groups_brackets", 10) == spec_plan() == STAGES
    assert "Bracket B\" (places\n3\u20134: best of three, no third place)" in SPEC
    b = stage_plan("groups_brackets", 10)[2]
    assert "third_place" not in b and "final_games_to_win" not in b


def test_the_swiss_template_is_ourense_then_a_knockout_as_bracket_a():
    rounds = int(re.search(r"Ourense: 80 pairs, (\d+) rounds of 50\s+minutes", SPEC).group(1))
    swiss, knock = stage_plan("swiss_knockout", 80)
    assert swiss == {"name": "Swiss", "format": "pairs_swiss", "rounds": rounds, "games_to_win": 2}
    bracket_a = {k: v for k, v in spec_plan()[1].items() if k not in ("name", "from")}
    assert knock == {"name": "Knockout", "format": "knockout", "from": {"stage": 0, "ranks": list(range(1, 9))},
                     **bracket_a}
    assert stage_plan("swiss_knockout", 6)[1]["from"]["ranks"] == [1, 2, 3, 4, 5, 6]     # fewer than its top


def test_the_knockout_template_is_bracket_a_of_every_pair():
    bracket_a = {k: v for k, v in spec_plan()[1].items() if k not in ("name", "from")}
    assert stage_plan("knockout", 13) == [{"name": "Knockout", "format": "knockout", **bracket_a}]


@pytest.mark.parametrize("template, kw, stage, want", [
    ("groups_brackets", {"groups": 3, "places": 1}, 1, {"from": {"stage": 0, "ranks": [1]}}),
    ("groups_brackets", {"group_games_to_win": 2}, 0, {"games_to_win": 2}),
    ("groups_brackets", {"group_games_to_win": 0}, 0, {"games_to_win": None}),
    ("groups_brackets", {"final_games_to_win": 0, "third_place": False}, 1,
     {"final_games_to_win": None, "third_place": None}),
    ("groups_brackets", {"b_games_to_win": 3, "b_final_games_to_win": 4, "b_third_place": True}, 2,
     {"games_to_win": 3, "final_games_to_win": 4, "third_place": True}),
    ("groups_brackets", {"games_to_win": 3, "final_games_to_win": 3}, 1, {"games_to_win": 3, "final_games_to_win": None}),
    ("swiss_knockout", {"rounds": 5, "swiss_games_to_win": 0, "top": 4}, 0, {"rounds": 5, "games_to_win": None}),
    ("swiss_knockout", {"top": 4, "games_to_win": 1, "third_place": False}, 1,
     {"from": {"stage": 0, "ranks": [1, 2, 3, 4]}, "games_to_win": 1, "third_place": None}),
    ("knockout", {"games_to_win": 1, "final_games_to_win": 2}, 0, {"games_to_win": 1, "final_games_to_win": 2}),
])
def test_every_setting_is_editable(template, kw, stage, want):
    got = stage_plan(template, 10, **kw)[stage]
    assert {k: got.get(k) for k in want} == want


def test_a_setting_of_another_template_is_a_mistake():
    with pytest.raises(TypeError):
        stage_plan("knockout", 8, groups=2)


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
