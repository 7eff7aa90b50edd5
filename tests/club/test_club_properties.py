"""Properties of the round proposals and the standings (rules/club.md), with brute-force optima."""
from __future__ import annotations

import random
from itertools import combinations

from clubdata import match
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.club.proposals import propose
from companion.club.standings import standings
from companion.club.proposals import (history, rotating, rotating_cost, round_robin, swiss, swiss_cost,
                                      swiss_first)
from test_club_example import perfect_matchings

NAMES = [f"P{i:02d}" for i in range(40)]


def pairs_of(n):
    return [[NAMES[2 * i], NAMES[2 * i + 1]] for i in range(n)]


@given(st.integers(2, 16))
def test_round_robin_meets_everyone_once(n):
    pairs = pairs_of(n)
    m = n + n % 2
    met, byes = {}, {}
    for r in range(1, m):
        p = round_robin(pairs, r)
        seated = [tuple(x) for t in p.tables for x in (t["a"], t["b"])] + [tuple(x) for x in p.free]
        assert sorted(seated) == sorted(tuple(x) for x in pairs)         # everyone placed once a round
        for t in p.tables:
            k = frozenset((tuple(t["a"]), tuple(t["b"])))
            met[k] = met.get(k, 0) + 1
        for x in p.free:
            byes[tuple(x)] = byes.get(tuple(x), 0) + 1
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}
    assert all(v == 1 for v in byes.values()) and len(byes) == n % 2 * n


def random_round(rng, items):
    items = list(items)
    rng.shuffle(items)
    return [(items[i], items[i + 1]) for i in range(0, len(items) - 1, 2)]


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 8), st.integers(0, 4), st.randoms(use_true_random=False))
def test_swiss_cost_is_the_brute_force_optimum(n, earlier, rng):
    pairs = pairs_of(n)
    matches = []
    for r in range(1, earlier + 1):
        for a, b in random_round(rng, pairs):
            matches.append(match(r, a, b, [(40, rng.randrange(40))] if rng.random() < .5 else [(rng.randrange(40), 40)],
                                 to_win=1))
    met, _p, _o = history(matches)
    order = [tuple(p) for p in pairs]
    rng.shuffle(order)
    byes = {}
    p = swiss(pairs, earlier + 1, order, met, byes)
    ranked = [list(x) for x in order]
    seated = [x for x in ranked if not p.free or x != p.free[0]]
    pos = {tuple(x): i + 1 for i, x in enumerate(ranked)}

    def met_count(a, b):
        return met.get(frozenset((frozenset(a), frozenset(b))), 0)

    best = min(swiss_cost([(pos[tuple(seated[i])], pos[tuple(seated[j])]) for i, j in pm],
                          lambda x, y: met_count(ranked[x - 1], ranked[y - 1]))
               for pm in perfect_matchings(list(range(len(seated)))))
    assert p.cost == best
    used = [tuple(x) for t in p.tables for x in (t["a"], t["b"])]
    assert sorted(used) == sorted(tuple(x) for x in seated)
    if best[0] == 0:
        assert all(met_count(t["a"], t["b"]) == 0 for t in p.tables)       # no rematch while avoidable


def brute_rotating(seated, partners, opponents):
    """The least (partner repeats, opponent repeats) over every plan, by enumeration. The partner repeats
    depend on the teams alone, so each set of teams is seated at its best tables: the opponents of every two
    of its teams counted once, then every way to pair the teams (12 players: 10,395 sets of teams, 15 ways
    each)."""
    best = None
    for teams in perfect_matchings(list(seated)):
        rep_p = sum(partners.get(frozenset(team), 0) for team in teams)
        if best is not None and rep_p > best[0]:
            continue
        vs = {(i, j): sum(opponents.get(frozenset((x, y)), 0) for x in teams[i] for y in teams[j])
              for i in range(len(teams)) for j in range(i + 1, len(teams))}
        rep_o = min(sum(vs[i, j] for i, j in tables) for tables in perfect_matchings(list(range(len(teams)))))
        best = (rep_p, rep_o) if best is None or (rep_p, rep_o) < best else best
    return best


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([4, 8, 8, 12]), st.integers(0, 3), st.randoms(use_true_random=False))
def test_rotating_cost_is_the_brute_force_optimum(n, earlier, rng):
    players = NAMES[:n]
    matches = []
    for r in range(1, earlier + 1):
        teams = random_round(rng, players)
        for a, b in random_round(rng, teams):
            matches.append(match(r, a, b, [(40, 10)], to_win=1))
    _m, partners, opponents = history(matches)
    p = rotating(players, earlier + 1, players, partners, opponents, {}, players)
    assert sorted(x for t in p.tables for x in t["a"] + t["b"]) == sorted(players)
    assert p.cost == rotating_cost([(tuple(t["a"]), tuple(t["b"])) for t in p.tables], partners, opponents)
    assert p.cost == brute_rotating(players, partners, opponents)


@settings(max_examples=5, deadline=None)
@given(st.integers(17, 40), st.randoms(use_true_random=False))
def test_rotating_beyond_exact_never_repeats_a_partner_while_avoidable(n, rng):
    players = NAMES[:n]
    seated = players[:n - n % 4]
    matches = []
    for r in (1, 2):
        for a, b in random_round(rng, random_round(rng, seated)):
            matches.append(match(r, a, b, [(40, 10)], to_win=1))
    _m, partners, opponents = history(matches)
    p = rotating(players, 3, players, partners, opponents, {}, players)
    assert p.cost[0] == 0          # two earlier rounds leave plenty of new partnerships
    assert len(p.free) == n % 4


def play_night(club, players, rounds, rng):
    matches = []
    for r in range(1, rounds + 1):
        p = propose(club, players, matches, r)
        club.setdefault("byes", {})[str(r)] = p.free
        for t in p.tables:
            x = rng.randrange(3)
            if x == 0:
                matches.append(match(r, t["a"], t["b"], [(40, rng.randrange(40)), (40, rng.randrange(40))]))
            elif x == 1:
                matches.append(match(r, t["a"], t["b"], [(rng.randrange(40), 40)], current=(rng.randrange(40), rng.randrange(40)), ended="time"))
            else:
                matches.append(match(r, t["a"], t["b"], [(rng.randrange(40), 40), (rng.randrange(40), 40)]))
        yield r, p, matches


@settings(max_examples=30, deadline=None)
@given(st.integers(3, 11), st.randoms(use_true_random=False))
def test_swiss_byes_spread(n, rng):
    pairs = pairs_of(n)
    club = {"format": "pairs_swiss", "kind": "mus", "pairs": pairs}
    players = [x for p in pairs for x in p]
    for r, p, matches in play_night(club, players, n + 1, rng):
        counts = [sum(1 for who in club["byes"].values() for x in who if x == pr) for pr in pairs]
        assert max(counts) - min(counts) <= 1          # nobody twice before everyone once
        rows = standings(club, players, matches)
        assert sum(x["games_diff"] for x in rows) == 0 and sum(x["points_diff"] for x in rows) == 0
        assert sum(x["match_points"] for x in rows) == len(matches) + sum(len(v) for v in club["byes"].values())


@settings(max_examples=20, deadline=None)
@given(st.integers(5, 15), st.randoms(use_true_random=False))
def test_rotating_sit_outs_spread_and_zero_sum(n, rng):
    players = NAMES[:n]
    club = {"format": "rotating", "kind": "mus"}
    for r, p, matches in play_night(club, players, 6, rng):
        counts = [sum(1 for who in club["byes"].values() for x in who if x == pl) for pl in players]
        assert max(counts) - min(counts) <= 1
        rows = standings(club, players, matches)
        assert sum(x["games_diff"] for x in rows) == 0 and sum(x["points_diff"] for x in rows) == 0


def test_swiss_first_round_odd_last_seed_has_the_bye():
    p = swiss_first(pairs_of(5))
    assert p.free == [pairs_of(5)[4]]
    assert [(t["a"], t["b"]) for t in p.tables] == [(pairs_of(5)[0], pairs_of(5)[2]), (pairs_of(5)[1], pairs_of(5)[3])]


def test_swiss_80_pairs_is_fast_and_rematch_free():
    import time

    rng = random.Random(4)
    pairs = pairs_of(20) + [[f"Q{i}", f"R{i}"] for i in range(60)]
    club = {"format": "pairs_swiss", "kind": "mus", "pairs": pairs}
    players = [x for p in pairs for x in p]
    t0 = time.perf_counter()
    for r, p, matches in play_night(club, players, 8, rng):
        assert p.cost[0] == 0
    assert time.perf_counter() - t0 < 30
