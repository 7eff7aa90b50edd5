"""What the history list and the players' pages show of a session, from its header and its games'
running states (never their hands: a summary is rewritten on every write). Pure. Stored as JSON in
``sessions.summary`` (``store._side_tables``).

Keys: ``started``, ``players``, ``kinds``, ``currency``, ``nets`` ({player: minor units}),
``biggest_winner``, ``biggest_win``, ``games`` ([{"kind", "title": code, "result": message}]: one line per
game), ``teams`` (one entry per team game: {"teams": {"A": [..], "B": [..]}, "games_won": {..},
"match_winner"}), ``on_table`` (minor units), ``payments`` (how many), ``settled`` (every payment marked paid).
"""
from __future__ import annotations

from . import kinds
from .kinds.base import GameRec
from .session import settle_of


def summarize(head: dict, recs: list[GameRec]) -> dict:
    settle = settle_of(head, recs)
    nets = settle["net"]
    best = max(nets.items(), key=lambda kv: kv[1], default=(None, 0))
    games, teams = [], []
    for rec in recs:
        kind = kinds.KINDS[rec.kind]
        games.append({"kind": rec.kind, "title": kind.title, "result": kind.summary(rec)})
        team = kind.partnership(rec)
        if team:
            teams.append(team)
    payments = settle["payments"]
    paid = (head.get("settle") or {}).get("paid") or []
    return {
        "started": head.get("started"),
        "players": head["players"],
        "kinds": [r.kind for r in recs],
        "currency": head.get("currency"),
        "nets": nets,
        "biggest_winner": best[0] if best[1] > 0 else None,
        "biggest_win": best[1] if best[1] > 0 else 0,
        "games": games,
        "teams": teams,
        "on_table": settle["on_table"],
        "payments": len(payments),
        "settled": bool(payments) and all(p in paid for p in payments),
    }
