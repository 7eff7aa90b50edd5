"""club.md, amended: a rematch, a repeated partnership and a repeated opponent pair count once FOR EACH
EARLIER MEETING (a third meeting counts 2). The proposals against a brute force that counts every meeting
straight from the earlier matches (not through the code under test), on small random nights where pairs
meet again and again; Swiss ranks are places among the pairs still present."""
from __future__ import annotations

from clubdata import match
from hypothesis import given, settings
from hypothesis import strategies as st
from test_club_example import perfect_matchings
from test_club_properties import NAMES, pairs_of, random_round

from companion.club.proposals import history, propose, rotating
from companion.club.standings import standings


def times(matches, same_team: bool, x: str, y: str) -> int:
    """In how many earlier matches x and y were partners (``same_team``) or opponents."""
    n = 0
    for m in matches:
        a, b = m["teams"]["A"], m["teams"]["B"]
        if same_team:
            n += any(x in t and y in t for t in (a, b))
        else:
            n += (x in a and y in b) or (x in b and y in a)
    return n


def rotating_brute(players, matches):
    best = None
    for teams in perfect_matchings(list(players)):
        for tables in perfect_matchings(teams):
            p = sum(times(matches, True, *team) for t in tables for team in t)
            o = sum(times(matches, False, x, y) for a, b in tables for x in a for y in b)
            best = (p, o) if best is None or (p, o) < best else best
    return best


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([4, 8, 8]), st.integers(1, 6), st.randoms(use_true_random=False))
def test_rotating_counts_every_earlier_round(n, earlier, rng):
    players = NAMES[:n]
    matches = []
    for r in range(1, earlier + 1):
        for a, b in random_round(rng, random_round(rng, players)):
            matches.append(match(r, a, b, [(40, 10)], to_win=1))
    _m, partners, opponents = history(matches)
    p = rotating(players, earlier + 1, players, partners, opponents, {}, players)
    tables = [(tuple(t["a"]), tuple(t["b"])) for t in p.tables]
    got = (sum(times(matches, True, *team) for t in tables for team in t),
           sum(times(matches, False, x, y) for a, b in tables for x in a for y in b))
    assert got == p.cost == rotating_brute(players, matches)


def swiss_brute(club, players, matches):
    """The least (rematches counted per meeting, Σ (place difference)²) over every pairing of the pairs
    still present, places among them; the bye as club.md gives it."""
    left = set(club.get("left") or [])
    order = [tuple(r["pair"]) for r in standings(club, players, matches)]
    present = [p for p in order if not set(p) & left]
    pos = {p: i + 1 for i, p in enumerate(present)}
    seated = list(present)
    if len(seated) % 2:
        byes = {p: sum(1 for who in (club.get("byes") or {}).values() for x in who if tuple(x) == p)
                for p in seated}
        fewest = min(byes.values())
        seated.remove([p for p in seated if byes[p] == fewest][-1])

    def met(a, b):
        return sum(1 for m in matches if {tuple(m["teams"]["A"]), tuple(m["teams"]["B"])} == {a, b})

    return min((sum(met(seated[i], seated[j]) for i, j in pm),
                sum((pos[seated[i]] - pos[seated[j]]) ** 2 for i, j in pm))
               for pm in perfect_matchings(list(range(len(seated)))))


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 8), st.integers(1, 6), st.booleans(), st.randoms(use_true_random=False))
def test_swiss_counts_every_earlier_meeting(n, earlier, leave, rng):
    pairs = pairs_of(n)
    players = [x for p in pairs for x in p]
    club = {"format": "pairs_swiss", "kind": "mus", "pairs": pairs, "byes": {}}
    matches = []
    for r in range(1, earlier + 1):
        order = list(pairs)
        rng.shuffle(order)
        if len(order) % 2:
            club["byes"][str(r)] = [order.pop()]
        for a, b in random_round(rng, order):
            matches.append(match(r, a, b, [(40, rng.randrange(40))] if rng.random() < .5
                                 else [(rng.randrange(40), 40)], to_win=1))
    if leave and n > 3:
        club["left"] = list(pairs[rng.randrange(n)])
    p = propose(club, players, matches, earlier + 1)
    assert p.cost == swiss_brute(club, players, matches)


def test_a_third_meeting_counts_two():
    # four rounds: 12 34, 13 24, 14 23, 12 34 again; round 5 must not seat 1-2 and 3-4 a third time
    pairs = pairs_of(4)
    rounds = [(0, 1, 2, 3), (0, 2, 1, 3), (0, 3, 1, 2), (0, 1, 2, 3)]
    matches = [match(r, pairs[x[k]], pairs[x[k + 1]], [(40, 10)], to_win=1)
               for r, x in enumerate(rounds, 1) for k in (0, 2)]
    club = {"format": "pairs_swiss", "kind": "mus", "pairs": pairs}
    p = propose(club, [x for q in pairs for x in q], matches, 5)
    assert p.cost[0] == 2
    assert {frozenset(map(tuple, (t["a"], t["b"]))) for t in p.tables} != {
        frozenset((tuple(pairs[0]), tuple(pairs[1]))), frozenset((tuple(pairs[2]), tuple(pairs[3])))}
