"""Proposing a round of a tournament's stage (``rules/tournament.md``, "Proposing"). Groups and knockouts
are determined: exactly these seatings, no optimisation (the organizer may still swap before starting; in a
knockout only tables and which pair is team A). A Swiss stage is ``club.md``'s over the stage's pairs.
Stages side by side number their tables on from the stages listed before them that draw from the same
stage."""
from __future__ import annotations

from companion.club import groups as G
from companion.club.proposals import Proposal, history, swiss, swiss_first
from companion.club.standings import pair_key
from companion.club.stages import evaluate, swiss_standings, table_offset


def propose_stage(club: dict, matches: list[dict], k: int) -> Proposal:
    """Stage k's proposal: groups and knockouts are determined (no optimisation); a Swiss stage is
    ``club.md``'s over the stage's pairs. Tables are numbered on from the stages beside it."""
    view = evaluate(club, matches).stages[k]
    out = Proposal(view.round + 1, stage=k)
    if view.pairs is None or view.done:
        return out
    offset = table_offset(club["stages"], k, len(club["pairs"]))
    plan = view.plan
    if plan["format"] == "knockout":
        ties = [t for rnd in view.bracket.rounds for t in rnd
                if t.a is not None and t.b is not None and t.game is None]
        out.round = min((t.round for t in ties), default=out.round)
        out.tables = [{"table": str(offset + t.at), "a": list(t.a), "b": list(t.b), "round": t.round,
                       "games_to_win": t.to_win} for t in sorted(ties, key=lambda t: (t.at, t.round, t.index))]
        return out
    rnd = out.round
    if plan["format"] == "pairs_swiss":
        if rnd > plan["rounds"]:
            return out
        pairs = [list(p) for p in view.pairs]
        if rnd == 1:
            got = swiss_first(pairs, rnd)
        else:
            order = [tuple(r["pair"]) for r in swiss_standings(view)]
            met, _p, _o = history(view.matches)
            byes: dict = {}
            for who in (plan.get("byes") or {}).values():
                for x in who:
                    byes[pair_key(x)] = byes.get(pair_key(x), 0) + 1
            got = swiss(pairs, rnd, order, met, byes)
        out.tables = [{**t, "table": str(offset + int(t["table"]))} for t in got.tables]
        out.free, out.cost = got.free, got.cost
        return out
    tables, byes = G.group_round(view.groups, rnd)
    out.tables = [{"table": str(offset + i), "a": list(a), "b": list(b)} for i, (a, b) in enumerate(tables, 1)]
    out.free = [list(x) for x in byes]
    return out
