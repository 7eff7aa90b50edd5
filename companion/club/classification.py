"""The night's classification (``rules/tournament.md``, "The night's classification"). Pure.

The order of a stage j: the orders of the stages drawing from j, in the order listed (bracket A above
bracket B), then the pairs of j that went to none of them, as j places them. The night is stage 0's order.
A pair's rank is 1 + the pairs above it, except that pairs eliminated in one stage at one rank there (a
knockout's 5=, the 5th placed of every group) share the first one's rank.
"""
from __future__ import annotations

from companion.club.stages import Tournament, ordered, source


def _order(t: Tournament, j: int) -> list[tuple]:
    """[(pair, share key, stage)] of stage j and the stages drawing from it."""
    out: list[tuple] = []
    went: set = set()
    for view in t.stages:
        if view.index and source(view.plan) == j:
            out += _order(t, view.index)
            went |= set(view.pairs or ())
    view = t.stages[j]
    rest = ordered(view, {r[1] for r in view.places})
    out += [(r[0], r[2], j) for r in rest if r[0] not in went]
    return out


def night(t: Tournament) -> list[dict]:
    """Every pair with its ``rank`` and ``stage`` (the last stage it played), once every stage is done."""
    rows: list[dict] = []
    last_share = None
    for i, (pair, share, stage) in enumerate(_order(t, 0)):
        rank = rows[-1]["rank"] if rows and share == last_share else i + 1
        rows.append({"pair": list(pair), "rank": rank, "stage": stage})
        last_share = share
    return rows
