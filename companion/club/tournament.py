"""What the state says of a club in stages (``rules/tournament.md``, "State"): each stage's name, format,
round, done, pairs and its groups, standings or bracket; the night's classification once every stage is
done. Pure."""
from __future__ import annotations

from companion.club.classification import night
from companion.club.stages import StageView, evaluate


def _names(pair) -> list:
    return list(pair)


def stage_state(view: StageView) -> dict:
    out = {"name": view.plan["name"], "format": view.format, "round": view.round, "done": view.done,
           "pairs": [_names(p) for p in view.pairs] if view.pairs is not None else None}
    if view.pairs is None:
        return out
    if view.format == "groups":
        out["groups"] = [{"pairs": [_names(p) for p in grp], "standings": rows}
                         for grp, rows in zip(view.groups, view.standings)]
    elif view.format == "knockout":
        out["bracket"] = [[t.as_state() for t in rnd] for rnd in view.bracket.rounds]
        if view.done:
            out["classification"] = [{"pair": _names(p), "rank": rank}
                                     for p, rank in view.bracket.classification()]
    else:
        out["standings"] = view.standings[0]
    return out


def tournament_state(club: dict, matches: list[dict]) -> dict:
    t = evaluate(club, matches)
    out = {"format": "stages", "stages": [stage_state(v) for v in t.stages]}
    if t.done:
        out["classification"] = night(t)
    return out
