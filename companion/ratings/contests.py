"""What one session gives to the ratings and the statistics (pure: no Flask, no SQLite).

A **contest** is a finished result between players:
- a match between two pairs, once decided (or, on a club night, ended by the clock: more games won, then
  the higher score of the game in progress, else a draw); every round game of a club in stages is one (a
  group match, a Swiss round, each knockout tie: a tie is one match, never level);
- any other kind's ended game, ranking its players by net (equal nets share the rank).
Each kind says which of its games are finished and how they rank (``Kind.contest``).

``{"gi": game index, "kind", "teams": [[player key, ...], ...], "ranks": [1, 2, ...] (1 best, shared
when tied), "names": {key: name}}``: teams are pairs for a kind that rates pairs (``Kind.rated_pairs``, team
A first), one player each otherwise.
Games that are not finished give nothing yet.
"""
from __future__ import annotations

import hashlib
import json

from companion.kinds.base import GameRec
from companion.record.session import player_key



def dense_ranks(values: list[int]) -> list[int]:
    """Rank 1 for the highest value; equal values share a rank (1, 1, 3)."""
    return [1 + sum(1 for w in values if w > v) for v in values]


def contest_of(gi: int, rec: GameRec) -> dict | None:
    """The kind says whether the game is finished and who ranked where (``Kind.contest``)."""
    from companion import kinds

    kind = kinds.KINDS.get(rec.kind)
    if kind is None:
        return None
    said = kind.contest(rec)
    if said is None:
        return None
    names = {player_key(p): p for p in kind.seats(rec.head)}
    return {"gi": gi, "kind": rec.kind, "teams": [[player_key(p) for p in team] for team in said["teams"]],
            "ranks": list(said["ranks"]), "names": names}


def contests_of(recs: list[GameRec]) -> list[dict]:
    return [c for gi, rec in enumerate(recs) if (c := contest_of(gi, rec)) is not None]


def digest(contests: list[dict]) -> str:
    """A fingerprint of what a session gives: sessions that start at the same moment are put in the
    order of their content, never of their ids (an archive imported in any order rates the same)."""
    text = json.dumps(contests, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def pair_key(a: str, b: str) -> str:
    """One key for a pair, whatever the seat order."""
    return "|".join(sorted((a, b)))


def pairs_rated(kind: str) -> bool:
    """Whether a kind's contests are between pairs that are rated and counted as pairs too (partners,
    opponent pairs, the pairs' board): the kind says so (``Kind.rated_pairs``)."""
    from companion import kinds

    return getattr(kinds.KINDS.get(kind), "rated_pairs", None) is not None


def pairs_of(kind: str) -> str:
    """The ratings' own "kind" that keeps a pair kind's pairs (stored rows: "<kind>-pair", as they were)."""
    return f"{kind}-pair"


def figures_of(rec: GameRec) -> dict[str, dict[str, int]] | None:
    """{"A": {figure: count}, "B": ...} of one game of a kind that counts figures per team (its
    ``rated_pairs.numbers``), or None."""
    from companion import kinds

    rated = getattr(kinds.KINDS.get(rec.kind), "rated_pairs", None)
    return rated.numbers(rec) if rated is not None else None
