"""The worked example of rules/tournament.md, number by number: 10 pairs in two serpentine groups, then
brackets A (places 1-2, third place, a bigger final) and B (places 3-4)."""
from tourneydata import P, P1, P2, P3, P4, P5, P6, P7, P8, P9, P10, GROUP_ROUNDS, BYES, club, matches

from companion.club.groups import serpentine
from companion.club.stage_proposals import propose_stage
from companion.club.stages import evaluate
from companion.club.tournament import tournament_state


def before(stage, rnd):
    return matches(lambda s, r: (s, r) < (stage, rnd))


def test_serpentine_deals_the_groups():
    assert serpentine(list(range(1, 11)), 2) == [[1, 4, 5, 8, 9], [2, 3, 6, 7, 10]]
    assert serpentine(list(range(1, 11)), 3) == [[1, 6, 7], [2, 5, 8], [3, 4, 9, 10]]
    view = evaluate(club(), []).stages[0]
    assert view.groups == [[tuple(P[i]) for i in (1, 4, 5, 8, 9)], [tuple(P[i]) for i in (2, 3, 6, 7, 10)]]


def test_round_one_is_proposed_with_the_byes():
    p = propose_stage(club(0), [], 0)
    assert p.round == 1 and p.stage == 0
    assert [(t["table"], t["a"], t["b"]) for t in p.tables] == [
        ("1", P4, P9), ("2", P5, P8), ("3", P3, P10), ("4", P6, P7)]
    assert p.free == [P1, P2]


def test_every_group_round_is_as_proposed():
    for rnd, games in GROUP_ROUNDS.items():
        p = propose_stage(club(rnd - 1), before(0, rnd), 0)
        assert p.round == rnd
        assert [(t["a"], t["b"]) for t in p.tables] == [(P[a], P[b]) for a, b, _s in games]
        assert p.free == [P[x] for x in BYES[rnd]]
        assert [t["table"] for t in p.tables] == ["1", "2", "3", "4"]


def standings_table(state):
    return [[(r["pair"], r["won"], r["drawn"], r["lost"], r["match_points"], r["games_diff"], r["points_diff"],
              r["rank"]) for r in g["standings"]] for g in state["stages"][0]["groups"]]


def test_standings_after_round_five():
    state = tournament_state(club(), before(1, 1))
    groups = state["stages"][0]
    assert groups["done"] and groups["round"] == 5
    assert standings_table(state) == [
        [(P8, 3, 0, 1, 4, 2, 42, 1), (P1, 3, 0, 1, 4, 2, 13, 2), (P4, 2, 1, 1, 3.5, 1, 25, 3),
         (P5, 1, 1, 2, 2.5, -1, 6, 4), (P9, 0, 0, 4, 1, -4, -86, 5)],
        [(P3, 3, 0, 1, 4, 2, 10, 1), (P2, 3, 0, 1, 4, 2, 10, 2), (P7, 2, 0, 2, 3, 0, 21, 3),
         (P6, 1, 0, 3, 2, -2, -20, 4), (P10, 1, 0, 3, 2, -2, -21, 5)]]
    for g in groups["groups"]:
        assert all(r["byes"] == 1 for r in g["standings"])
        assert sum(r["games_diff"] for r in g["standings"]) == 0
        assert sum(r["points_diff"] for r in g["standings"]) == 0


def test_seeding_of_the_brackets():
    t = evaluate(club(), before(1, 1))
    assert t.stages[1].pairs == [tuple(x) for x in (P8, P3, P1, P2)]
    assert t.stages[2].pairs == [tuple(x) for x in (P4, P7, P5, P6)]


def test_semifinals_are_proposed_a_then_b():
    ms = before(1, 1)
    a, b = propose_stage(club(), ms, 1), propose_stage(club(), ms, 2)
    assert [(t["table"], t["a"], t["b"], t["round"]) for t in a.tables] == [("1", P8, P2, 1), ("2", P3, P1, 1)]
    assert [(t["table"], t["a"], t["b"], t["round"]) for t in b.tables] == [("3", P4, P6, 1), ("4", P7, P5, 1)]


def test_final_and_third_place_are_proposed_at_the_semifinals_tables():
    ms = matches(lambda s, r: s == 0 or r == 1)
    a = propose_stage(club(), ms, 1)
    assert [(t["table"], t["a"], t["b"], t["round"]) for t in a.tables] == [("1", P8, P1, 2), ("2", P2, P3, 2)]
    b = propose_stage(club(), ms, 2)
    assert [(t["table"], t["a"], t["b"]) for t in b.tables] == [("3", P4, P5)]


def test_bracket_ties_and_the_clock_ended_tie():
    state = tournament_state(club(), matches())
    a = state["stages"][1]
    semis, last = a["bracket"]
    assert semis[0] == {"a": P8, "b": P2, "bye": False, "winner": P8, "games": [2, 1], "table": "1"}
    assert semis[1] == {"a": P3, "b": P1, "bye": False, "winner": P1, "games": [1, 1], "table": "2"}
    assert last[0] == {"a": P8, "b": P1, "bye": False, "winner": P1, "games": [2, 3], "table": "1"}
    assert last[1] == {"a": P2, "b": P3, "bye": False, "winner": P3, "games": [0, 2], "table": "2"}
    assert a["round"] == 2 and a["done"]


def test_classifications_of_a_b_and_the_night():
    state = tournament_state(club(), matches())
    assert [(c["pair"], c["rank"]) for c in state["stages"][1]["classification"]] == [
        (P1, 1), (P8, 2), (P3, 3), (P2, 4)]
    assert [(c["pair"], c["rank"]) for c in state["stages"][2]["classification"]] == [
        (P4, 1), (P5, 2), (P7, 3), (P6, 3)]
    assert [(c["pair"], c["rank"], c["stage"]) for c in state["classification"]] == [
        (P1, 1, 1), (P8, 2, 1), (P3, 3, 1), (P2, 4, 1), (P4, 5, 2), (P5, 6, 2), (P7, 7, 2), (P6, 7, 2),
        (P10, 9, 0), (P9, 9, 0)]


def test_before_the_groups_are_done_the_brackets_are_unknown():
    state = tournament_state(club(4), before(0, 5))
    assert state["stages"][1] == {"name": "Bracket A", "format": "knockout", "round": 0, "done": False,
                                  "pairs": None}
    assert "classification" not in state
    assert propose_stage(club(4), before(0, 5), 1).tables == []
