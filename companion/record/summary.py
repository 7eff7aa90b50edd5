"""What the history list and the players' pages show of a session, from its header and one small entry
per game (pure). Stored as JSON in ``sessions.summary``; a write rebuilds only the entries of the games
it changed (``updated``), then the session's lines from the entries: no game is read again, no kind's
settlement is run for a game the write did not touch.

Keys: ``started``, ``players``, ``kinds``, ``currency``, ``nets`` ({player: minor units}),
``biggest_winner``, ``biggest_win``, ``games`` ([{"kind", "title": code, "result": message, "net",
"on_table", "team"?}]: one per game; ``team`` for team games), ``teams`` (one entry per team game:
{"teams": {"A": [..], "B": [..]}, "games_won": {..}, "match_winner"}), ``on_table`` (minor units),
``payments`` (how many), ``settled`` (every payment marked paid).
"""
from __future__ import annotations

from companion import kinds
from companion.kinds.base import GameRec
from companion.domain.settle import settle


def entry(rec: GameRec) -> dict:
    """One game's entry (reads its head and running state, never its hands)."""
    kind = kinds.KINDS[rec.kind]
    money = kind.settlement(rec)
    out = {"kind": rec.kind, "title": kind.title, "result": kind.summary(rec), "net": money["net"],
           "on_table": money["on_table"]}
    team = kind.partnership(rec)
    if team:
        out["team"] = team
    return out


def plan(head: dict, entries: list[dict]) -> dict:
    """The settle plan of the night from the games' entries."""
    banker = (head.get("settle") or {}).get("banker")
    return settle(head["players"], [{"net": e["net"], "on_table": e["on_table"]} for e in entries], banker=banker)


def summarize(head: dict, recs: list[GameRec]) -> dict:
    return of_entries(head, [entry(r) for r in recs])


def updated(old: dict, head: dict, games: dict[int, GameRec], removed: int | None = None) -> dict:
    """The summary after a write: ``games`` {index: record} are the games it changed or added."""
    entries = list(old.get("games") or [])
    for gi in sorted(games):
        if gi == len(entries):
            entries.append(entry(games[gi]))
        else:
            entries[gi] = entry(games[gi])
    if removed is not None:
        entries.pop(removed)
    return of_entries(head, entries)


def of_entries(head: dict, entries: list[dict]) -> dict:
    night = plan(head, entries)
    nets = night["net"]
    best = max(nets.items(), key=lambda kv: kv[1], default=(None, 0))
    payments = night["payments"]
    paid = (head.get("settle") or {}).get("paid") or []
    return {
        "started": head.get("started"),
        "players": head["players"],
        "kinds": [e["kind"] for e in entries],
        "currency": head.get("currency"),
        "nets": nets,
        "biggest_winner": best[0] if best[1] > 0 else None,
        "biggest_win": best[1] if best[1] > 0 else 0,
        "games": entries,
        "teams": [e["team"] for e in entries if "team" in e],
        "on_table": night["on_table"],
        "payments": len(payments),
        "settled": bool(payments) and all(p in paid for p in payments),
        "plan": payments,
    }
