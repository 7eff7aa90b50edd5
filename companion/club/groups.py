"""A stage of groups (``rules/tournament.md``, "Groups"): the serpentine deal, each group's round robin and
its standings. A round robin stage is the same with one group. Pure."""
from __future__ import annotations

from companion.club.proposals import round_robin
from companion.club.standings import pair_key, standings


def serpentine(pairs: list, groups: int) -> list[list]:
    """Seeds 1..G to groups 1..G, G+1..2G to groups G..1, and so on; a group's seed order is the order
    in which it was dealt (10 pairs, G = 3: {1, 6, 7}, {2, 5, 8}, {3, 4, 9, 10})."""
    out: list[list] = [[] for _ in range(groups)]
    for i, pair in enumerate(pairs):
        lap, k = divmod(i, groups)
        out[k if lap % 2 == 0 else groups - 1 - k].append(pair)
    return out


def group_sizes(n: int, groups: int) -> list[int]:
    """How many pairs each group gets from a serpentine deal of n (the plan alone decides it)."""
    return [len(g) for g in serpentine(list(range(n)), groups)]


def rounds_of(sizes: list[int]) -> int:
    """A group of m pairs has m - 1 rounds (m when odd: one bye a round); the stage, its largest's."""
    return max((m - 1 + m % 2 for m in sizes), default=0)


def tables_of(sizes: list[int]) -> int:
    """The tables a round of these groups takes (a bye takes none)."""
    return sum(m // 2 for m in sizes)


def group_round(groups: list[list], rnd: int) -> tuple[list[tuple], list]:
    """Round ``rnd`` of every group's circle method, group 1's tables first: ([(a, b)], byes)."""
    tables, byes = [], []
    for g in groups:
        m = len(g) + len(g) % 2
        if rnd > m - 1:
            continue                  # a smaller group has finished its rounds
        p = round_robin([list(x) for x in g], rnd)
        tables += [(tuple(t["a"]), tuple(t["b"])) for t in p.tables]
        byes += [tuple(x) for x in p.free]
    return tables, byes


def group_standings(group: list[tuple], matches: list[dict], byes: dict) -> list[dict]:
    """``club.md``'s standings over one group's games and byes (``byes``: the stage's, keyed by round)."""
    keys = {pair_key(p) for p in group}
    own = {r: [b for b in who if pair_key(b) in keys] for r, who in byes.items()}
    club = {"format": "pairs_round_robin", "pairs": [list(p) for p in group],
            "byes": {r: who for r, who in own.items() if who}}
    return standings(club, [], [m for m in matches if pair_key(m["teams"]["A"]) in keys])


def all_met(group: list[tuple], matches: list[dict]) -> bool:
    """Every two pairs of the group have met in these matches."""
    keys = {pair_key(p) for p in group}
    met = {frozenset((pair_key(m["teams"]["A"]), pair_key(m["teams"]["B"]))) for m in matches
           if pair_key(m["teams"]["A"]) in keys}
    n = len(group)
    return len(met) >= n * (n - 1) // 2
