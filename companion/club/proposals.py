"""Proposing a round (``rules/club.md``, "Proposing a round"). The organizer may swap anyone afterwards.

- ``pairs_round_robin``: the circle method.
- ``pairs_swiss``: round 1 by seed; later rounds an exact minimum-cost perfect matching (Edmonds' blossom
  algorithm, networkx) of cost (rematches, sum of squared rank differences), lexicographic: exact for any
  number of pairs, O(n³). A table counts one rematch for each time its pairs met before. A pair's rank is
  its place in the standings order among the pairs still present (1, 2, 3 ...: pairs sharing a printed
  rank "3=" are still ordered by seed), so every pairing's cost is well defined.
- ``rotating`` (a repeated partnership or opponent pair counts once for each earlier round it happened in):
  exact dynamic programming over the set of seated players up to ``EXACT_ROTATING``
  players; beyond it, partnerships with the fewest repeats (exact, blossom), tables of two partnerships
  with the fewest repeated opponents for those partnerships (exact, blossom), then swaps of two players
  while that lowers the cost. The partner count is always optimal there; the opponent count is a good
  heuristic, not a proven optimum.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

import networkx as nx

from companion.club.standings import PAIR_FORMATS, has_left, pair_key, standings

EXACT_ROTATING = 12


@dataclass
class Proposal:
    round: int
    stage: int | None = None                           # a staged club: the stage (0-based)
    tables: list[dict] = field(default_factory=list)   # [{"table": "1", "a": [..], "b": [..]}]
    free: list = field(default_factory=list)           # byes (pairs) or sit-outs (players)
    cost: tuple = ()                                   # swiss: (rematches, Σ rank diff²); rotating: (partners, opponents)

    def seats(self, t: dict) -> list[str]:
        a, b = t["a"], t["b"]
        return [a[0], b[0], a[1], b[1]]


# -- history ---------------------------------------------------------------------------------------

def history(matches: list[dict]) -> tuple[dict, dict, dict]:
    """(met, partners, opponents): how many times two teams met, two players partnered, two players
    faced each other, over the round matches so far (played or in play)."""
    met: dict = {}
    partners: dict = {}
    opponents: dict = {}
    for m in matches:
        a, b = m["teams"]["A"], m["teams"]["B"]
        k = frozenset((pair_key(a), pair_key(b)))
        met[k] = met.get(k, 0) + 1
        for team in (a, b):
            pk = pair_key(team)
            partners[pk] = partners.get(pk, 0) + 1
        for x in a:
            for y in b:
                ok = pair_key((x, y))
                opponents[ok] = opponents.get(ok, 0) + 1
    return met, partners, opponents


def _free_counts(club: dict) -> dict:
    counts: dict = {}
    pairs = club["format"] in PAIR_FORMATS
    for who in (club.get("byes") or {}).values():
        for x in who:
            k = pair_key(x) if pairs else x
            counts[k] = counts.get(k, 0) + 1
    return counts


def propose(club: dict, players: list[str], matches: list[dict], rnd: int) -> Proposal:
    """The proposal for round ``rnd`` from the club, the players and the round matches so far."""
    fmt = club["format"]
    left = club.get("left") or []
    if fmt in PAIR_FORMATS:
        pairs = [list(p) for p in club.get("pairs") or [] if not has_left(club, p)]
        if fmt == "pairs_round_robin":
            return round_robin(pairs, rnd)
        if rnd == 1 or not matches:
            return swiss_first(pairs, rnd)
        order = [tuple(r["pair"]) for r in standings(club, players, matches)]
        met, _p, _o = history(matches)
        return swiss(pairs, rnd, order, met, _free_counts(club))
    if fmt == "rotating":
        present = [p for p in players if p not in set(left)]
        order = [r["player"] for r in standings(club, players, matches)]
        _m, partners, opponents = history(matches)
        return rotating(present, rnd, order, partners, opponents, _free_counts(club), players)
    return Proposal(rnd)


# -- round robin -----------------------------------------------------------------------------------

def round_robin(pairs: list[list[str]], rnd: int) -> Proposal:
    """Round ``rnd`` (1-based) of the circle method over ``pairs`` in seed order."""
    places = [list(p) for p in pairs] + ([None] if len(pairs) % 2 else [])
    m = len(places)
    out = Proposal(rnd)
    if m < 2:
        out.free = [p for p in places if p is not None]
        return out
    rest = places[1:]
    k = (rnd - 1) % (m - 1)
    arranged = [places[0]] + (rest[-k:] + rest[:-k] if k else rest)
    for t in range(1, m // 2 + 1):
        a, b = arranged[t - 1], arranged[m - t]
        if a is None or b is None:
            out.free.append(a if b is None else b)
        else:
            out.tables.append({"table": str(len(out.tables) + 1), "a": a, "b": b})
    return out


# -- swiss -----------------------------------------------------------------------------------------

def swiss_first(pairs: list[list[str]], rnd: int = 1) -> Proposal:
    """Round 1: pair i against pair i + n/2 in seed order; odd: the last seed has the bye."""
    out = Proposal(rnd)
    seated = [list(p) for p in pairs]
    if len(seated) % 2:
        out.free.append(seated.pop())
    half = len(seated) // 2
    for i in range(half):
        out.tables.append({"table": str(i + 1), "a": seated[i], "b": seated[i + half]})
    out.cost = (0, sum(half ** 2 for _ in range(half)))
    return out


def swiss_cost(tables: list[tuple[int, int]], met_count) -> tuple[int, int]:
    """(rematches, Σ (rank difference)²) of tables given as rank positions."""
    return (sum(met_count(a, b) for a, b in tables), sum((a - b) ** 2 for a, b in tables))


def min_cost_pairing(n: int, cost) -> list[tuple[int, int]]:
    """An exact minimum-total-cost perfect matching of 0..n-1 (n even; ``cost(i, j)`` integer >= 0):
    Edmonds' blossom algorithm on weights big - cost, maximum cardinality (integer arithmetic)."""
    if n == 0:
        return []
    costs = {(i, j): cost(i, j) for i, j in combinations(range(n), 2)}
    big = max(costs.values()) + 1
    g = nx.Graph()
    for (i, j), c in costs.items():
        g.add_edge(i, j, weight=big - c)
    mate = nx.max_weight_matching(g, maxcardinality=True)
    return sorted(tuple(sorted(e)) for e in mate)


def swiss(pairs: list[list[str]], rnd: int, order: list[tuple], met: dict, byes: dict) -> Proposal:
    """A later Swiss round. ``order``: the standings order (pairs as tuples); ``met``: how often two
    pairs met; ``byes``: how many byes each pair had."""
    active = {pair_key(p): list(p) for p in pairs}
    ranked = [active[pair_key(e)] for e in order if pair_key(e) in active]
    ranked += [p for k, p in active.items() if all(pair_key(q) != k for q in ranked)]
    out = Proposal(rnd)
    if len(ranked) % 2:
        fewest = min(byes.get(pair_key(p), 0) for p in ranked)
        bye = [p for p in ranked if byes.get(pair_key(p), 0) == fewest][-1]
        out.free.append(bye)
    pos = {pair_key(p): i + 1 for i, p in enumerate(ranked)}
    seated = [p for p in ranked if not out.free or p is not out.free[0]]

    def met_count(i: int, j: int) -> int:
        return met.get(frozenset((pair_key(seated[i]), pair_key(seated[j]))), 0)

    n = len(seated)
    spread = n * (n - 1) ** 2 + 1        # any rematch costs more than every rank difference together
    mate = min_cost_pairing(n, lambda i, j: met_count(i, j) * spread
                            + (pos[pair_key(seated[i])] - pos[pair_key(seated[j])]) ** 2)
    tables = sorted(mate)
    for t, (i, j) in enumerate(tables, 1):
        out.tables.append({"table": str(t), "a": seated[i], "b": seated[j]})
    out.cost = (sum(met_count(i, j) for i, j in tables),
                sum((pos[pair_key(seated[i])] - pos[pair_key(seated[j])]) ** 2 for i, j in tables))
    return out


# -- rotating partners -----------------------------------------------------------------------------

def rotating_cost(tables: list[tuple[tuple, tuple]], partners: dict, opponents: dict) -> tuple[int, int]:
    """(repeated partnerships, repeated opponent pairs) of tables given as ((a1, a2), (b1, b2)): each
    counts once for every earlier round in which those two were partners / opponents (club.md)."""
    rep_p = sum(partners.get(pair_key(team), 0) for a, b in tables for team in (a, b))
    rep_o = sum(opponents.get(pair_key((x, y)), 0) for a, b in tables for x in a for y in b)
    return rep_p, rep_o


def _opponent_bound(n: int, opponents: dict) -> int:
    """More than the opponent repeats of any plan of n players: a weight that puts partners first."""
    return 4 * (n // 4) * max(opponents.values(), default=0) + 1


def sit_outs(present: list[str], order: list[str], sat: dict, players: list[str]) -> list[str]:
    """The number present modulo 4: who sat out least, then the lowest ranked, then the last listed."""
    k = len(present) % 4
    rank = {p: i for i, p in enumerate(order)}
    seed = {p: i for i, p in enumerate(players)}
    by = sorted(present, key=lambda p: (sat.get(p, 0), -rank.get(p, len(order)), -seed.get(p, 0)))
    return by[:k]


def rotating(present: list[str], rnd: int, order: list[str], partners: dict, opponents: dict,
             sat: dict, players: list[str]) -> Proposal:
    out = Proposal(rnd)
    out.free = sit_outs(present, order, sat, players)
    rank = {p: i for i, p in enumerate(order)}
    seated = sorted((p for p in present if p not in out.free), key=lambda p: rank.get(p, len(order)))
    if len(seated) <= EXACT_ROTATING:
        tables = _rotating_exact(tuple(seated), partners, opponents)
    else:
        tables = _rotating_large(seated, partners, opponents)
    for t, (a, b) in enumerate(tables, 1):
        out.tables.append({"table": str(t), "a": list(a), "b": list(b)})
    out.cost = rotating_cost(tables, partners, opponents)
    return out


def _table_cost(a, b, partners, opponents, big) -> int:
    p, o = rotating_cost([(a, b)], partners, opponents)
    return p * big + o


def _rotating_exact(seated: tuple, partners: dict, opponents: dict) -> list[tuple[tuple, tuple]]:
    """Minimum (partner repeats, opponent repeats) over every way to seat ``seated`` at tables of four:
    dynamic programming over the set still to seat (the first of them picks three others)."""
    n = len(seated)
    big = _opponent_bound(n, opponents)

    @lru_cache(maxsize=None)
    def best(mask: int) -> tuple[int, tuple]:
        if mask == 0:
            return 0, ()
        p = (mask & -mask).bit_length() - 1
        rest = [i for i in range(n) if mask >> i & 1 and i != p]
        top = None
        for q, r, s in combinations(rest, 3):
            sub = mask & ~(1 << p | 1 << q | 1 << r | 1 << s)
            sub_cost, sub_plan = best(sub)
            for mate, x, y in ((q, r, s), (r, q, s), (s, q, r)):
                a, b = (seated[p], seated[mate]), (seated[x], seated[y])
                c = sub_cost + _table_cost(a, b, partners, opponents, big)
                if top is None or c < top[0]:
                    top = (c, ((a, b),) + sub_plan)
        return top

    _c, plan = best((1 << n) - 1)
    best.cache_clear()
    return list(plan)


def _rotating_large(seated: list[str], partners: dict, opponents: dict) -> list[tuple[tuple, tuple]]:
    n = len(seated)
    teams = min_cost_pairing(n, lambda i, j: partners.get(pair_key((seated[i], seated[j])), 0))
    duos = [(seated[i], seated[j]) for i, j in teams]
    match = min_cost_pairing(len(duos), lambda i, j: rotating_cost([(duos[i], duos[j])], {}, opponents)[1])
    tables = [(duos[i], duos[j]) for i, j in match]
    big = _opponent_bound(n, opponents)

    def total(ts):
        p, o = rotating_cost(ts, partners, opponents)
        return p * big + o

    current = total(tables)
    improved = True
    while improved:                     # swap two players while that lowers the cost
        improved = False
        flat = [list(a) + list(b) for a, b in tables]
        for (ti, i), (tj, j) in combinations([(t, k) for t in range(len(flat)) for k in range(4)], 2):
            trial = [list(x) for x in flat]
            trial[ti][i], trial[tj][j] = trial[tj][j], trial[ti][i]
            ts = [((x[0], x[1]), (x[2], x[3])) for x in trial]
            c = total(ts)
            if c < current:
                tables, current, improved = ts, c, True
                break
    return tables
