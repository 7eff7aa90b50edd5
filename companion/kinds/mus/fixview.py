"""Fixing a past hand in place: the page model. The draft is the hand as the session file writes it; every
control is a link to the same page with one thing of the draft changed (nothing is written until Save),
so flipping one lance's winner is one tap. Pure: no Flask."""
from __future__ import annotations

import copy
from typing import Callable

from companion.domain.messages import msg
from companion.kinds.mus.hand import lance
from companion.kinds.mus.options import LANCES, TEAMS, other
from companion.kinds.mus.view import step_text


def bid_options(min_bet: int) -> list[tuple[dict, list]]:
    """The bids a table most often corrects to: everyone passed, or an envite answered at once."""
    out: list[tuple[dict, list]] = [(msg("mus.fix.passed"), [])]
    for t in TEAMS:
        for verb in ("call", "fold"):
            out.append((msg(f"mus.fix.bet_{verb}", team=t, n=min_bet),
                        [{"team": t, "bet": min_bet}, {"team": other(t), verb: True}]))
    return out


def _with(draft: dict, path: tuple, value) -> dict:
    """A copy of the draft with one value set (None: removed)."""
    new = copy.deepcopy(draft)
    node = new
    for key in path[:-1]:
        node = node.setdefault(key, {})
    if value is None:
        node.pop(path[-1], None)
    else:
        node[path[-1]] = value
    return new


def fix_view(draft: dict, result: dict | None, rules: dict, href: Callable[[dict], str], needs=()) -> dict:
    """The lances of the draft, each with what it came to, its winner (flip: one link) and the bids it
    could be changed to; the tally's awards (remove one: one link). ``needs``: lances the draft cannot be
    counted without a winner for (both teams hold pares, say): their winner is offered too."""
    if "tally" in draft:
        awards = draft["tally"]
        rows = [{"team": a["team"], "points": a["points"], "lance": lance(a["lance"]) if a.get("lance") else None,
                 "why": a.get("why"),
                 "drop": href(_with(draft, ("tally",), awards[:k] + awards[k + 1:])),
                 "flip": href(_with(draft, ("tally",), awards[:k] + [dict(a, team=other(a["team"]))] + awards[k + 1:]))}
                for k, a in enumerate(awards)]
        return {"kind": "tally", "awards": rows}
    cards = "cards" in draft
    sd = draft.get("showdown") or {}
    what = {x["lance"]: x["what"] for x in (result or {}).get("lances", [])}
    lances = []
    for L in LANCES:
        steps = draft.get(L) or []
        winner = sd.get(L)
        needs_count = bool(steps) and ("call" in steps[-1]) or \
            (not steps and L in ("grande", "chica") and rules["paso_point"] > 0)
        row = {"lance": L, "name": lance("punto" if L == "juego" and "punto" in what and "juego" not in what else L),
               "what": what.get(L) or what.get("punto" if L == "juego" else L),
               "steps": [step_text(s) for s in steps], "winner": winner, "set": [], "bids": []}
        if not cards and (winner in TEAMS or needs_count or L in needs):
            row["set"] = [{"team": t, "on": winner == t, "href": href(_with(draft, ("showdown", L), t))}
                          for t in TEAMS]
            if winner in TEAMS:
                row["flip"] = href(_with(draft, ("showdown", L), other(winner)))
        for label, new_steps in bid_options(rules["min_bet"]):
            row["bids"].append({"label": label, "on": new_steps == steps,
                                "href": href(_with(draft, (L,), new_steps))})
        lances.append(row)
    return {"kind": "dealt", "lances": lances, "cards": draft.get("cards"),
            "held": {"pares": sd.get("pares_held", {}), "juego": sd.get("juego_held", {})},
            "winners": {"pares": sd.get("pares"), "juego": sd.get("juego")}}


def with_held(draft: dict, pares: dict, juego: dict, winners: dict | None = None) -> dict:
    """The draft with what each player held replaced (the count without cards), and the better pares or
    juego when the form named it (both teams held the same kind)."""
    new = copy.deepcopy(draft)
    sd = new.setdefault("showdown", {})
    for key, value in (("pares_held", pares), ("juego_held", juego)):
        if value:
            sd[key] = value
        else:
            sd.pop(key, None)
    for lance_key, team in (winners or {}).items():
        sd[lance_key] = team
    if not sd:
        new.pop("showdown")
    return new


def with_cards(draft: dict, cards: dict) -> dict:
    """The draft with the four hands' cards: they decide the count (declarations and winners go)."""
    new = {k: v for k, v in copy.deepcopy(draft).items() if k != "showdown"}
    new["cards"] = cards
    return new


def with_tally_award(draft: dict, team: str, points: int, lance_name: str | None) -> dict:
    new = copy.deepcopy(draft)
    row = {"team": team, "points": points}
    if lance_name:
        row["lance"] = lance_name
    new["tally"] = list(new.get("tally", [])) + [row]
    return new
