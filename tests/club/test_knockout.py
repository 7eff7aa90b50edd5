"""The knockout rules of rules/tournament.md stated by example: bracket order, byes to the top seeds, a
group's pairs kept apart in round 1, tables, and the classification (shared ranks in seed order)."""
from tourneydata import match

from companion.club.knockout import bracket_order, build, first_round, keep_groups_apart


def test_bracket_order():
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_byes_go_to_the_top_seeds():
    assert first_round(5) == [(1, 8), (4, 5), (2, 7), (3, 6)]        # seeds 6, 7, 8 absent: byes for 1, 2, 3
    br = build([f"S{i}" for i in range(1, 6)], {"games_to_win": 1}, [])
    assert [(t.a, t.b, t.bye, t.winner) for t in br.rounds[0]] == [
        ("S1", None, True, "S1"), ("S4", "S5", False, None), ("S2", None, True, "S2"), ("S3", None, True, "S3")]
    # round 2: S1 waits for 4-5 (at its table); S2-S3, two byes, takes the next table
    assert [(t.a, t.b, t.at) for t in br.rounds[1]] == [("S1", None, 1), ("S2", "S3", 2)]
    assert br.starting_tables() == 2


def test_a_groups_pairs_are_kept_apart_in_round_one():
    # places 1-2 of groups A and B seeded A1, B1, B2, A2: tie 1-4 is group A's: A2 and B2 change places
    origin = {"A1": (1, "A"), "B1": (1, "B"), "B2": (2, "B"), "A2": (2, "A")}
    assert keep_groups_apart(["A1", "B1", "B2", "A2"], origin) == ["A1", "B1", "A2", "B2"]
    seeds = keep_groups_apart(["A1", "B1", "B2", "A2"], origin)
    assert [(seeds[x - 1], seeds[y - 1]) for x, y in first_round(4)] == [("A1", "B2"), ("B1", "A2")]


def test_the_nearest_of_the_same_place_moves_and_a_tie_stays_when_nothing_can():
    # 3 groups, places 1-2 seeded X1 Y1 Z1 X2 Y2 Z2 (S = 8: byes for X1, Y1): tie 3-6 is Z's; Z2 changes
    # with the nearest runner-up whose tie holds no Z pair: Y2 (seed 5, distance 1) before X2 (distance 2)
    origin = {"X1": (1, "X"), "Y1": (1, "Y"), "Z1": (1, "Z"), "X2": (2, "X"), "Y2": (2, "Y"), "Z2": (2, "Z")}
    seeds = keep_groups_apart(["X1", "Y1", "Z1", "X2", "Y2", "Z2"], origin)
    assert seeds == ["X1", "Y1", "Z1", "X2", "Z2", "Y2"]
    ties = [(seeds[x - 1], seeds[y - 1]) for x, y in first_round(6) if y <= 6]
    assert ties == [("X2", "Z2"), ("Z1", "Y2")]
    # one group only: nobody to change with
    one = {"P1": (1, "G"), "P2": (2, "G")}
    assert keep_groups_apart(["P1", "P2"], one) == ["P1", "P2"]


def test_classification_shares_the_rounds_before_the_semifinals():
    seeds = [(f"S{i}", f"T{i}") for i in range(1, 9)]
    ms = []
    for r in range(1, 4):                       # the upper seed (team A) wins every tie
        br = build(seeds, {"games_to_win": 1}, ms)
        ms += [match(len(ms), 0, r, str(t.at), t.a, t.b, [(40, 10)], to_win=1) for t in br.rounds[r - 1]]
    br = build(seeds, {"games_to_win": 1}, ms)
    assert br.done and not br.problems
    assert [t.at for t in br.rounds[1]] == [1, 3] and br.final.at == 1
    got = [(p[0], rank) for p, rank in br.classification()]
    assert got == [("S1", 1), ("S2", 2), ("S3", 3), ("S4", 3), ("S5", 5), ("S6", 5), ("S7", 5), ("S8", 5)]
