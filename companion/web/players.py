"""A player over time: nets per currency (a chart), partners in team games, recent sessions, found through
``session_players_by_key``. The route of the history blueprint ``history.player`` (registered in
``history.py``)."""
from __future__ import annotations

import json

from flask import abort, redirect, url_for

from companion.domain import charts
from companion.storage import reads
from companion.storage.db import get_db
from companion.domain.messages import N_, define, msg
from companion.record.session import player_key
from companion.web.common import render
from companion.web.i18n import fmt_money, t
from companion.web.sessions import browser_scope

PER_PAGE = 20
DEFAULT_CURRENCY = "EUR"


def money_text(minor: int, code: str | None, plus: bool = False) -> str:
    """An amount in the reader's words; an unknown currency code shows the number."""
    try:
        return fmt_money(minor, code or DEFAULT_CURRENCY, plus=plus)
    except ValueError:
        return str(minor)



def player_sql(key: str) -> tuple[str, list]:
    """The player's visible sessions' query (exposed for the EXPLAIN tests)."""
    return reads.player_sql(browser_scope(), key)


def _partners(key: str, team_games: list[dict]) -> dict:
    """Partnerships of one player in team games: per partner, games and matches played and won together.
    ``team_games``: the summaries' ``teams`` entries of the player's sessions."""
    keys: dict[str, str] = {}

    def k(name) -> str:
        if name not in keys:
            keys[name] = player_key(str(name))
        return keys[name]

    table: dict[str, dict] = {}
    totals = {"games": 0, "won": 0, "matches": 0, "matches_won": 0}
    for m in team_games:
        if not isinstance(m, dict):
            continue
        teams = m.get("teams") or {}
        team = next((t for t, members in teams.items() if any(k(p) == key for p in members or [])), None)
        if team is None:
            continue
        won = m.get("games_won") or {}
        played = sum(v for v in won.values() if isinstance(v, int))
        mine = won.get(team, 0) if isinstance(won.get(team), int) else 0
        decided = m.get("match_winner") in teams
        match_won = m.get("match_winner") == team
        totals["games"] += played
        totals["won"] += mine
        totals["matches"] += decided
        totals["matches_won"] += match_won
        for partner in teams.get(team) or []:
            if k(partner) == key:
                continue
            row = table.setdefault(k(partner), {"name": partner, "key": k(partner), "games": 0, "won": 0,
                                                "matches": 0, "matches_won": 0})
            row["games"] += played
            row["won"] += mine
            row["matches"] += decided
            row["matches_won"] += match_won
    rows = sorted(table.values(), key=lambda r: (-r["games"], -r["won"], r["key"]))
    most_played = rows[0] if rows and rows[0]["games"] else None
    by_won = sorted(rows, key=lambda r: (-r["won"], -r["games"], r["key"]))
    most_won = by_won[0] if by_won and by_won[0]["won"] else None
    return {"rows": rows, "totals": totals, "most_played": most_played, "most_won": most_won}


def _net_chart(points: list[dict], code: str, cid: str) -> str:
    """Cumulative net over time for one currency: one point per session, or per month when many."""
    if not points:
        return ""
    if len(points) > 40:
        months: dict[str, int] = {}
        for p in points:
            month = p["date"][:7] or "?"
            months[month] = months.get(month, 0) + p["net"]
        labels, values, running = [], [], 0
        for month, net in months.items():
            running += net
            labels.append(month)
            values.append(running)
        title = t(msg("hist.net_months", currency=code))
    else:
        labels, values, running = [t(msg("chart.start"))], [0], 0
        for p in points:
            running += p["net"]
            labels.append(p["date"] or "?")
            values.append(running)
        title = t(msg("hist.net_sessions", currency=code))
    return charts.line_chart(cid, title, labels, [{"name": t(msg("hist.net", currency=code)), "values": values}],
                             fmt=lambda v: money_text(int(round(v)), code), say=t)


def player(key):
    clean = player_key(key)
    if not clean:
        abort(404)
    if clean != key:
        return redirect(url_for("history.player", key=clean), code=301)
    rows = reads.player_sessions(get_db(), browser_scope(), clean)
    if not rows:
        abort(404)
    team_parts: list[str] = []
    money: dict[str, list[dict]] = {}
    sessions = []
    for sid, sname, started, teams_json, token, _role, _name, net, code in rows:
        if teams_json and teams_json.startswith("[") and teams_json != "[]":
            team_parts.append(teams_json[1:-1])
        code = code or DEFAULT_CURRENCY
        day = (started or "")[:10]
        if net:
            money.setdefault(code, []).append({"date": day, "net": net})
        sessions.append((sname, day, token, net, code))
    recent = [{"name": n, "date": d, "token": tk, "net": v, "net_text": money_text(v, c, True),
               "cls": "pos" if v > 0 else "neg" if v < 0 else ""} for n, d, tk, v, c in reversed(sessions[-PER_PAGE:])]
    team_games = json.loads("[" + ",".join(team_parts) + "]")  # one parse for thousands of sessions
    name = rows[-1][5]
    nets = []
    for i, (code, pts) in enumerate(sorted(money.items())):
        total = sum(p["net"] for p in pts)
        nets.append({"code": code, "total": money_text(total, code, True), "cls": "pos" if total > 0 else "neg" if total < 0 else "",
                     "chart": _net_chart(pts, code, f"net-{i}")})
    resp = render("player.html", None, name=name, key=clean, count=len(rows), nets=nets,
                  partners=_partners(clean, team_games), recent=recent, first=sessions[0][1], last=sessions[-1][1])
    resp.headers["Cache-Control"] = "no-store"   # lists edit links
    return resp


define("hist", {
    "net_months": N_("Net won or lost over time, month by month (%(currency)s)"),
    "net_sessions": N_("Net won or lost over time, session by session (%(currency)s)"),
    "net": N_("Net (%(currency)s)"),
})
