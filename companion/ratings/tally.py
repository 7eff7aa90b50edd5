"""Partners, opponent pairs and head-to-head records summed over contests (pure). Sums do not depend on
the order of the contests: a session's share is added when it appears and taken back when it changes.

A row: (subject, what, other) -> [played, won, lost, drawn]
- ("ane", "partner", "bea"): matches of a pair kind (``Kind.rated_pairs``) Ane played with Bea as her partner;
- ("ane", "opp_pair", "carlos|dani"): such matches Ane played against that pair;
- ("ane", "h2h:<kind>", "carlos"): contests of that kind in which both played against each other
  (a pair kind: on opposite teams; the other kinds: Ane ranked above = won, below = lost, level = drawn);
- ("ane|bea", "pair_opp", "carlos|dani"): the pair Ane & Bea against that pair.
"""
from __future__ import annotations

from companion.ratings.contests import pair_key, pairs_rated


def _outcome(mine: int, theirs: int) -> tuple[int, int, int]:
    return (1, 0, 0) if mine < theirs else (0, 1, 0) if mine > theirs else (0, 0, 1)


def rows_of(contest: dict) -> dict[tuple[str, str, str], list[int]]:
    out: dict[tuple[str, str, str], list[int]] = {}

    def add(key, res):
        row = out.setdefault(key, [0, 0, 0, 0])
        row[0] += 1
        for j in range(3):
            row[j + 1] += res[j]

    teams, ranks, kind = contest["teams"], contest["ranks"], contest["kind"]
    pairs = pairs_rated(kind)
    for i, team in enumerate(teams):
        for j, other in enumerate(teams):
            if i == j:
                continue
            res = _outcome(ranks[i], ranks[j])
            for me in team:
                for them in other:
                    add((me, f"h2h:{kind}", them), res)
            if pairs and len(other) == 2 and len(team) == 2:
                them = pair_key(*other)
                for me in team:
                    add((me, "opp_pair", them), res)
                add((pair_key(*team), "pair_opp", them), res)
        if pairs and len(team) == 2:
            res = _outcome(ranks[i], min(r for j, r in enumerate(ranks) if j != i))
            a, b = team
            add((a, "partner", b), res)
            add((b, "partner", a), res)
    return out


def sum_rows(contests: list[dict]) -> dict[tuple[str, str, str], list[int]]:
    total: dict[tuple[str, str, str], list[int]] = {}
    for c in contests:
        for k, v in rows_of(c).items():
            row = total.setdefault(k, [0, 0, 0, 0])
            for j in range(4):
                row[j] += v[j]
    return total


def pair_subjects(teams: list[list[str]], numbers: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """A match's figures per team (``RatedPairs.numbers``) per player and per pair: {subject: figures}
    (subject: a key or a pair key)."""
    out: dict[str, dict[str, int]] = {}
    for team, side in zip(teams, ("A", "B")):
        figures = numbers[side]
        for subject in [*team, pair_key(*team)]:
            acc = out.setdefault(subject, dict.fromkeys(figures, 0))
            for k, v in figures.items():
                acc[k] += v
    return out
