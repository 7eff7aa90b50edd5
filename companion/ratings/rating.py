"""Ratings: the Weng-Lin Plackett-Luce model of the ``openskill`` library, fed with contests in date order
(pure). A match of a kind that rates pairs (``Kind.rated_pairs``) rates its four players as two teams, and
each pair (as one entity) against the other pair; any other kind's game rates its players by their rank. The number shown is the
conservative rating (the library's ordinal, mu - 3 sigma): it rises as the rating gets surer.

Ratings are floats stored as they are (SQLite REAL keeps every bit), so replaying from a stored point
gives exactly what a replay from the start gives.
"""
from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

from companion import kinds
from companion.ratings.contests import pair_key, pairs_of, pairs_rated

MODEL = PlackettLuce()
PROVISIONAL = 5      # fewer contests than this: the rating is shown as provisional
PAIR_MIN = 3         # a pair is ranked once it played this many matches together
# the pairs' ratings are kept as their own "kind", named after the kind that rates pairs
PAIRS = pairs_of(kinds.pairs_kind().name if kinds.pairs_kind() else "")


@dataclass
class Rated:
    mu: float
    sigma: float
    n: int = 0          # contests rated

    @property
    def ordinal(self) -> float:
        return MODEL.rating(mu=self.mu, sigma=self.sigma).ordinal()


def fresh() -> Rated:
    r = MODEL.rating()
    return Rated(r.mu, r.sigma, 0)


def rate(contest: dict, get) -> dict[tuple[str, str], Rated]:
    """The new ratings after one contest: {(kind, key): Rated}. ``get(kind, key)`` gives the rating
    before it (``fresh()`` for someone new)."""
    kind = contest["kind"]
    teams, ranks = contest["teams"], contest["ranks"]
    out: dict[tuple[str, str], Rated] = {}
    _rate_teams(kind, teams, ranks, get, out)
    if pairs_rated(kind) and all(len(t) == 2 for t in teams):
        _rate_teams(pairs_of(kind), [[pair_key(*t)] for t in teams], ranks, get, out)
    return out


def _rate_teams(kind: str, teams: list[list[str]], ranks: list[int], get, out: dict) -> None:
    before = [[get(kind, k) for k in team] for team in teams]
    model_teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in before]
    after = MODEL.rate(model_teams, ranks=list(ranks))
    for team, olds, news in zip(teams, before, after):
        for key, old, new in zip(team, olds, news):
            out[(kind, key)] = Rated(new.mu, new.sigma, old.n + 1)


def replay(contests: list[dict], start: dict | None = None) -> tuple[dict, list[tuple]]:
    """Rate ``contests`` (already in date order) from ``start`` ({(kind, key): Rated}, default: nobody
    rated). Returns (the ratings after them, [(contest index, kind, key, Rated)] one row per rating
    change)."""
    now: dict[tuple[str, str], Rated] = dict(start or {})
    rows = []

    def get(kind, key):
        return now.get((kind, key)) or fresh()

    for i, contest in enumerate(contests):
        for k, r in rate(contest, get).items():
            now[k] = r
            rows.append((i, k[0], k[1], r))
    return now, rows
