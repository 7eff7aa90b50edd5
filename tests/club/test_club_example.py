"""The worked example of rules/club.md (pairs_swiss, three rounds): standings after each round and the
proposals of rounds 2 and 3."""
from itertools import combinations

from clubdata import CLUB, P1, P2, P3, P4, PLAYERS, ROUND1, ROUND2, ROUND3, match

from companion.club.proposals import propose
from companion.domain.match import match_result
from companion.club.standings import standings
from companion.club.proposals import history, swiss_cost
from companion.club.standings import rank_label


def brief(rows):
    return [(r["pair"], r["match_points"], r["games_diff"], r["points_diff"], r["rank"]) for r in rows]


def test_round1_proposal_is_seed_i_against_i_plus_half():
    p = propose(CLUB, PLAYERS, [], 1)
    assert [(t["a"], t["b"]) for t in p.tables] == [(P1, P3), (P2, P4)]
    assert p.free == []


def test_standings_after_round1():
    assert brief(standings(CLUB, PLAYERS, ROUND1)) == [
        (P1, 1, 2, 27, 1), (P2, 1, 1, -21, 2), (P4, 0, -1, 21, 3), (P3, 0, -2, -27, 4)]


def test_round2_proposal_has_the_optimal_cost():
    p = propose(CLUB, PLAYERS, ROUND1, 2)
    assert [(t["a"], t["b"]) for t in p.tables] == [(P1, P2), (P4, P3)]
    assert p.cost == (0, 2)
    assert p.cost == optimum(ROUND1)


def test_clock_result_on_games_then_score():
    assert match_result(ROUND2[1]) == ("B", "time")       # P3 up 1-0 in games
    assert match_result(ROUND3[0]) == ("draw", "time")    # 1-1, 20-20
    assert match_result(ROUND1[0]) == ("A", "points")
    assert match_result(match(1, P1, P2, [(40, 10)], current=(30, 12))) == (None, None)
    assert match_result(match(1, P1, P2, [], current=(12, 30), ended="time")) == ("B", "time")


def test_standings_after_round2():
    assert brief(standings(CLUB, PLAYERS, ROUND1 + ROUND2)) == [
        (P1, 2, 3, 41, 1), (P2, 1, 0, -35, 2), (P3, 1, -1, -24, 3), (P4, 0, -2, 18, 4)]


def test_round3_proposal_is_the_only_pairing_without_rematch():
    p = propose(CLUB, PLAYERS, ROUND1 + ROUND2, 3)
    assert [(t["a"], t["b"]) for t in p.tables] == [(P1, P4), (P2, P3)]
    assert p.cost == (0, 9 + 1)
    assert p.cost == optimum(ROUND1 + ROUND2)


def test_standings_after_round3_as_the_table():
    rows = standings(CLUB, PLAYERS, ROUND1 + ROUND2 + ROUND3)
    assert brief(rows) == [(P1, 2.5, 3, 49, 1), (P3, 2, 1, 16, 2), (P2, 1, -2, -75, 3), (P4, 0.5, -2, 10, 4)]
    assert [(r["played"], r["won"], r["drawn"], r["lost"]) for r in rows] == [
        (3, 2, 1, 0), (3, 2, 0, 1), (3, 1, 0, 2), (3, 0, 1, 2)]
    assert sum(r["games_diff"] for r in rows) == 0 and sum(r["points_diff"] for r in rows) == 0
    assert [rank_label(rows, r) for r in rows] == ["1", "2", "3", "4"]


def test_in_play_counts_nothing_yet():
    playing = match(3, P1, P4, [(40, 28)], current=(10, 5))
    rows = standings(CLUB, PLAYERS, ROUND1 + ROUND2 + [playing])
    p1 = next(r for r in rows if r["pair"] == P1)
    assert (p1["played"], p1["match_points"], p1["in_play"]) == (2, 2, 1)


def optimum(matches):
    """Every pairing of the four pairs, by brute force: the least (rematches, Σ rank diff²)."""
    order = [tuple(r["pair"]) for r in standings(CLUB, PLAYERS, matches)]
    met, _p, _o = history(matches)
    pos = {frozenset(p): i + 1 for i, p in enumerate(order)}
    best = None
    for pairing in perfect_matchings(list(range(4))):
        tables = [(i + 1, j + 1) for i, j in pairing]
        cost = swiss_cost(tables, lambda a, b: met.get(frozenset((frozenset(order[a - 1]),
                                                                    frozenset(order[b - 1]))), 0))
        best = cost if best is None or cost < best else best
    assert pos
    return best


def perfect_matchings(items):
    if not items:
        yield []
        return
    first = items[0]
    for k in range(1, len(items)):
        rest = items[1:k] + items[k + 1:]
        for m in perfect_matchings(rest):
            yield [(first, items[k])] + m


def test_shared_rank_when_equal_on_all_but_seed():
    club = dict(CLUB)
    two = [match(1, P1, P3, [(40, 30), (30, 40)], current=(20, 20), ended="time"),
           match(1, P2, P4, [(40, 30), (30, 40)], current=(20, 20), ended="time")]
    rows = standings(club, PLAYERS, two)
    assert [r["rank"] for r in rows] == [1, 1, 1, 1]
    assert rank_label(rows, rows[2]) == "1="


def test_head_to_head_breaks_a_tie_when_the_tied_met():
    # P2 beat P1; P1 beat P4; P3 beat P2: P1 and P2 tie on 1, 0, 0 and met: P2 goes ahead of its seed
    ms = [match(1, P2, P1, [(40, 30)], to_win=1), match(2, P1, P4, [(40, 30)], to_win=1),
          match(3, P3, P2, [(40, 30)], to_win=1)]
    rows = standings(CLUB, PLAYERS, ms)
    assert [(r["pair"], r["rank"]) for r in rows] == [(P3, 1), (P2, 2), (P1, 3), (P4, 4)]


def test_tied_who_did_not_all_meet_share_the_rank():
    # P1 beat P3, P2 beat P4, the same scores: P1 and P2 equal and never met
    ms = [match(1, P1, P3, [(40, 30)], to_win=1), match(1, P2, P4, [(40, 30)], to_win=1)]
    rows = standings(CLUB, PLAYERS, ms)
    assert [(r["pair"], r["rank"]) for r in rows] == [(P1, 1), (P2, 1), (P3, 3), (P4, 3)]
    assert [rank_label(rows, r) for r in rows] == ["1=", "1=", "3=", "3="]


def test_byes_and_sit_outs_give_their_points():
    club = dict(CLUB, pairs=[P1, P2, P3], byes={"1": [P3]})
    rows = standings(club, PLAYERS, [match(1, P1, P2, [(40, 30)], to_win=1)])
    p3 = next(r for r in rows if r["pair"] == P3)
    assert (p3["match_points"], p3["byes"], p3["played"], p3["games_diff"]) == (1, 1, 0, 0)
    rot = {"format": "rotating", "kind": "mus", "byes": {"1": ["Eneko"]}}
    rows = standings(rot, PLAYERS[:5], [match(1, ["Ane", "Bea"], ["Carlos", "Dani"], [(40, 30)], to_win=1)])
    assert next(r for r in rows if r["player"] == "Eneko")["match_points"] == 0.5
    assert [r["player"] for r in rows][:2] == ["Ane", "Bea"]
