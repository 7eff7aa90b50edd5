"""History: the list of past sessions (search, filters, pages), a past session hand by hand with its
charts, a player's page over time, and the exports (a session as CSV, the archive as a zip of session
files, which imports back).

Which sessions a browser may see: the ones it created or opened (table ``browsers``), or all of them
with the admin flag (``sessions._is_admin``). Every list query is driven by an index: ``browsers``' primary
key (browser, session_id) or ``sessions_by_started``, ``session_players_by_key``, ``session_kinds_by_kind``
(see ``explain`` below and tests/web/test_history.py).
"""
from __future__ import annotations

import io
import json
import re
import unicodedata
import zipfile
import zlib
from datetime import date, timedelta

from flask import Blueprint, Response, abort, current_app, redirect, request, url_for

from .. import charts, csvexport, kinds, security, store
from ..db import get_db
from ..money import format_amount
from ..rules.errors import RuleError
from ..sessionfile import compute_state, normalize_session
from ..summary import player_key
from .common import game_title, open_session, render, see_other, unchanged_poll
from .sessions import _is_admin

bp = Blueprint("history", __name__)

PER_PAGE = 20
DEFAULT_CURRENCY = "EUR"
MAX_ARCHIVE_FILES = 10_000
MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_ARCHIVE_BYTES = 256 * 1024 * 1024
# The archive of a few thousand nights is larger than the app's 8 MB request limit (5,000 sessions of the
# benchmark: 6 MB): the import alone may upload this much, or the export would not import back.
MAX_UPLOAD_BYTES = 96 * 1024 * 1024
KEY_END = "\U0010ffff"  # key >= q AND key < q + KEY_END: a prefix match that uses the index


# ----------------------------------------------------------------------------------------------------
# Which sessions, found through indexes
# ----------------------------------------------------------------------------------------------------

def _scope() -> tuple[str, list, str]:
    """(FROM ... WHERE clause, its parameters, the SQL giving the token and role to link with)."""
    if _is_admin():
        return "FROM sessions s WHERE 1", [], "s.edit_token AS token, 'edit' AS role"
    return ("FROM browsers b JOIN sessions s ON s.id = b.session_id WHERE b.browser = ?",
            [security.browser_id()],
            "CASE b.role WHEN 'edit' THEN s.edit_token ELSE s.view_token END AS token, b.role AS role")


def _filters(args) -> tuple[dict, dict]:
    """The list's filters from the query string: {q, key, kind, from, to}, and errors by field."""
    errors: dict[str, str] = {}
    q = " ".join((args.get("q") or "").split())[:60]
    kind = args.get("kind") or ""
    if kind and kind not in kinds.KINDS:
        errors["kind"] = "Unknown game."
        kind = ""
    out = {"q": q, "key": player_key(q) if q else "", "kind": kind, "from": "", "to": ""}
    for field in ("from", "to"):
        raw = (args.get(field) or "").strip()
        if not raw:
            continue
        try:
            out[field] = date.fromisoformat(raw).isoformat()
        except ValueError:
            errors[field] = "A date like 2026-11-20, please."
    if out["from"] and out["to"] and out["from"] > out["to"]:
        errors["to"] = "The end date is before the start date."
    return out, errors


def _where(filters: dict) -> tuple[str, list]:
    sql, params = "", []
    if filters.get("key"):
        sql += (" AND s.id IN (SELECT sp.session_id FROM session_players sp"
                " WHERE sp.key >= ? AND sp.key < ?)")
        params += [filters["key"], filters["key"] + KEY_END]
    if filters.get("kind"):
        sql += " AND s.id IN (SELECT sk.session_id FROM session_kinds sk WHERE sk.kind = ?)"
        params.append(filters["kind"])
    if filters.get("from"):
        sql += " AND s.started >= ?"
        params.append(filters["from"])
    if filters.get("to"):
        sql += " AND s.started < ?"
        params.append((date.fromisoformat(filters["to"]) + timedelta(days=1)).isoformat())
    return sql, params


def list_sql(filters: dict, page: int) -> tuple[str, list, str, list]:
    """(page query, params, count query, params): what ``index`` runs; exposed for EXPLAIN tests."""
    scope, params, link = _scope()
    where, wparams = _where(filters)
    # the page is chosen on narrow rows (id, date, link), then only its 20 sessions' summaries are read
    rows = (f"SELECT s.id, s.name, s.started, s.summary, p.token, p.role FROM"
            f" (SELECT s.id AS id, s.started AS started, {link} {scope}{where}"
            "  ORDER BY s.started DESC, s.id DESC LIMIT ? OFFSET ?) p"
            " JOIN sessions s ON s.id = p.id ORDER BY p.started DESC, p.id DESC")
    count = f"SELECT COUNT(*) {scope}{where}"
    return rows, params + wparams + [PER_PAGE + 1, (page - 1) * PER_PAGE], count, params + wparams


def explain(sql: str, params: list) -> list[str]:
    """SQLite's query plan, one line per step (for tests and the benchmark)."""
    return [row[3] for row in get_db().execute("EXPLAIN QUERY PLAN " + sql, params).fetchall()]


def _money(minor: int, code: str | None, plus: bool = False) -> str:
    try:
        return format_amount(minor, code or DEFAULT_CURRENCY, plus=plus)
    except ValueError:
        return str(minor)


def _row(r) -> dict:
    summary = json.loads(r[3] or "{}")
    games = summary.get("games") or [{"title": k.title(), "result": ""} for k in summary.get("kinds", [])]
    winner = None
    if summary.get("biggest_winner"):
        winner = {"name": summary["biggest_winner"],
                  "amount": _money(summary.get("biggest_win", 0), summary.get("currency"), True)}
    return {"id": r[0], "name": r[1], "date": (r[2] or "")[:10], "token": r[4], "role": r[5],
            "players": [{"name": p, "key": player_key(p)} for p in summary.get("players", [])],
            "games": games, "winner": winner, "settled": summary.get("settled", False)}


def _page_number() -> int:
    page = request.args.get("page", type=int) or 1
    return max(1, min(page, 100_000))


def _index(status: int = 200, **ctx):
    filters, errors = _filters(request.args)
    if errors and status == 200:
        status = 422  # like every refused input: the message beside the field, the list without that filter
    errors.update(ctx.pop("errors", {}))
    page = _page_number()
    sql, params, count_sql, count_params = list_sql(filters, page)
    db = get_db()
    rows = [_row(r) for r in db.execute(sql, params).fetchall()]
    total = db.execute(count_sql, count_params).fetchone()[0]
    pages = max(1, -(-total // PER_PAGE))
    args = {k: v for k, v in (("q", filters["q"]), ("kind", filters["kind"]), ("from", filters["from"]),
                               ("to", filters["to"])) if v}
    return render("history.html", None, status=status, rows=rows[:PER_PAGE], total=total, page=page,
                  pages=pages, filters=filters, errors=errors, is_admin=_is_admin(),
                  prev_url=url_for("history.index", page=page - 1, **args) if page > 1 else None,
                  next_url=url_for("history.index", page=page + 1, **args) if len(rows) > PER_PAGE else None,
                  kinds=[(k, m.TITLE) for k, m in kinds.KINDS.items()],
                  imported=request.args.get("imported", type=int), **ctx)


@bp.get("/history")
def index():
    return _index()


# ----------------------------------------------------------------------------------------------------
# A past session, hand by hand
# ----------------------------------------------------------------------------------------------------

def _signed(n) -> str:
    return f"+{n}" if isinstance(n, int) and n > 0 else str(n if n is not None else "")


def _mus_groups(gi: int, game: dict, gstate: dict, entries: list[dict]) -> list[dict]:
    hands_info = {h.get("hand"): h for h in gstate.get("hands") or [] if isinstance(h, dict)}
    chart_list = charts.score_charts(game, gstate)
    by_game: dict[int, dict[int, list]] = {}
    for e in entries:
        by_game.setdefault(e["mus_game"] or 0, {}).setdefault(e["round"] or 0, []).append(e)
    for number, h in hands_info.items():
        if isinstance(h.get("game"), int) and isinstance(number, int):
            by_game.setdefault(h["game"], {}).setdefault(number, [])
    groups = []
    charts_by_title = {i + 1: c for i, c in enumerate(chart_list)}
    for g in sorted(by_game):
        score = {"A": 0, "B": 0}
        rounds = []
        for hand in sorted(by_game[g]):
            items = []
            for e in by_game[g][hand]:
                if e["team"] in score and isinstance(e["amount"], int):
                    score[e["team"]] += e["amount"]
                items.append({"who": e["team"] or "", "cls": f"team-{e['team'].lower()}" if e["team"] in score else "",
                              "amount": _signed(e["amount"]), "why": e["why"], "lance": e["lance"] or ""})
            info = hands_info.get(hand) or {}
            meta = []
            if info.get("mano"):
                meta.append(f"mano {info['mano']}")
            meta.append(f"A {score['A']} – {score['B']} B")
            rounds.append({"label": f"Hand {hand}" if hand else "Hand ?", "meta": " · ".join(meta),
                           "moves": items, "empty": "No points." if not items else ""})
        chart = charts_by_title.get(g)
        groups.append({"title": None if chart else f"Game {g}",
                       "chart": charts.line_chart(f"chart-{gi}-{g}", **chart) if chart else "",
                       "rounds": rounds})
    return groups


def _bundle(moves: list[dict]) -> list[dict]:
    """Runs of 3+ movements from players into piles (antes, stakes) become one line that opens on the
    individual reasons: '32 chips in: Ane 8, Bea 4, ...'."""
    out: list[dict] = []
    run: list[dict] = []

    def flush():
        if len(run) >= 3:
            per: dict[str, int] = {}
            for m in run:
                per[m["from"]] = per.get(m["from"], 0) + (m["n"] or 0)
            piles = {m["to"] for m in run}
            where = csvexport.place_name(next(iter(piles))) if len(piles) == 1 else "the piles"
            out.append({"bundle": True, "amount": str(sum(per.values())), "cls": "", "who": "",
                        "why": f"Into {where}: " + ", ".join(f"{p} {n}" for p, n in per.items()),
                        "moves": list(run)})
        else:
            out.extend(run)
        run.clear()

    for m in moves:
        if m["from"] and not m["from"].startswith("@") and (m["to"] or "").startswith("@"):
            run.append(m)
        else:
            flush()
            out.append(m)
    flush()
    return out


def _chip_groups(gi: int, game: dict, gstate: dict, entries: list[dict]) -> list[dict]:
    round_word = "Deal" if game.get("kind") == "newmarket" else "Hand"
    rounds: dict = {}
    for e in entries:
        rounds.setdefault(e["round"], []).append(
            {"who": "", "cls": "", "amount": str(e["amount"]) if e["amount"] else "", "n": e["amount"],
             "why": e["why"], "lance": "", "from": e["from"], "to": e["to"]})
    keys = sorted(k for k in rounds if k is not None) + ([None] if None in rounds else [])
    out_rounds = [{"label": f"{round_word} {k}" if k is not None else "End of the game", "meta": "",
                   "moves": _bundle(rounds[k]), "empty": ""} for k in keys]
    chart = charts.chip_chart(game, gstate)
    return [{"title": None, "chart": charts.line_chart(f"chart-{gi}", **chart) if chart else "",
             "rounds": out_rounds}]


def _other_groups(entries: list[dict]) -> list[dict]:
    items = [{"who": e["team"] or "", "cls": "", "amount": _signed(e["amount"]), "why": e["why"], "lance": ""}
             for e in entries]
    return [{"title": None, "chart": "", "rounds": [{"label": "Log", "meta": "", "moves": items,
                                                     "empty": "Nothing recorded yet." if not items else ""}]}]


def game_sections(doc: dict, state: dict) -> list[dict]:
    entries = csvexport.entries(doc, state)
    sections = []
    for gi, (game, gstate) in enumerate(zip(doc["games"], state.get("games") or [])):
        gstate = gstate if isinstance(gstate, dict) else {}
        mine = [e for e in entries if e["game"] == gi + 1]
        kind = game.get("kind")
        try:
            if kind == "mus":
                groups = _mus_groups(gi, game, gstate, mine)
                teams = gstate.get("teams") or {}
                subtitle = " vs ".join(" & ".join(teams.get(t) or []) for t in ("A", "B") if teams.get(t))
            elif kind in ("newmarket", "desmoche"):
                groups = _chip_groups(gi, game, gstate, mine)
                subtitle = ", ".join(game.get("seats") or [])
            else:
                groups, subtitle = _other_groups(mine), ""
        except Exception:  # noqa: BLE001 - an engine's new shape must not hide the whole night
            groups, subtitle = _other_groups(mine), ""
        sections.append({"index": gi, "title": f"{gi + 1}. {game_title(game)}", "subtitle": subtitle,
                         "kind": kind, "groups": groups,
                         "empty": not mine})
    return sections


@bp.get("/s/<token>/history")
def session(token):
    view = open_session(token)
    unchanged = unchanged_poll(view)
    if unchanged:
        return unchanged
    summary = {}
    try:
        from ..summary import summarize

        summary = summarize(view.doc, view.state)
    except Exception:  # noqa: BLE001
        summary = {}
    sections = game_sections(view.doc, view.state)
    results = summary.get("games") or []
    for sec in sections:
        sec["result"] = results[sec["index"]].get("result", "") if sec["index"] < len(results) else ""
    players = [{"name": p, "key": player_key(p)} for p in view.doc["players"] if player_key(p)]
    return render("history_session.html", view, sections=sections, players=players)


@bp.get("/s/<token>/session.csv")
def csv_export(token):
    view = open_session(token)
    body = "\ufeff" + csvexport.to_csv(view.doc, view.state)  # the BOM lets spreadsheets read accents
    resp = Response(body, mimetype="text/csv")
    resp.headers["Content-Disposition"] = f'attachment; filename="companion-session-{view.id}.csv"'
    resp.headers["Cache-Control"] = "no-store"
    return resp


# ----------------------------------------------------------------------------------------------------
# A player over time
# ----------------------------------------------------------------------------------------------------

def player_sql(key: str) -> tuple[str, list]:
    """The player's visible sessions, oldest first, driven by ``session_players_by_key``. Only the
    summary's Mus part and currency are taken out of it (by SQLite's JSON functions: thousands of rows)."""
    cols = ("s.id, s.name, s.started, json_extract(s.summary, '$.mus'), {link}, sp.name, sp.net,"
            " json_extract(s.summary, '$.currency')")
    if _is_admin():
        admin_cols = cols.format(link="s.edit_token, 'edit'")
        return (f"SELECT {admin_cols} FROM session_players sp"
                " JOIN sessions s ON s.id = sp.session_id WHERE sp.key = ? ORDER BY s.started, s.id", [key])
    link = "CASE b.role WHEN 'edit' THEN s.edit_token ELSE s.view_token END, b.role"
    return (f"SELECT {cols.format(link=link)} FROM session_players sp"
            " JOIN browsers b ON b.session_id = sp.session_id AND b.browser = ?"
            " JOIN sessions s ON s.id = sp.session_id WHERE sp.key = ? ORDER BY s.started, s.id",
            [security.browser_id(), key])


def _partners(key: str, mus_games: list[dict]) -> dict:
    """Mus partnerships of one player: per partner, games and matches played and won together.
    ``mus_games``: the summaries' ``mus`` entries of the player's sessions."""
    keys: dict[str, str] = {}

    def k(name) -> str:
        if name not in keys:
            keys[name] = player_key(str(name))
        return keys[name]

    table: dict[str, dict] = {}
    totals = {"games": 0, "won": 0, "matches": 0, "matches_won": 0}
    for m in mus_games:
        if not isinstance(m, dict):
            continue
        teams = m.get("teams") or {}
        team = next((t for t in ("A", "B") if any(k(p) == key for p in teams.get(t) or [])), None)
        if team is None:
            continue
        won = m.get("games_won") or {}
        played = sum(v for v in won.values() if isinstance(v, int))
        mine = won.get(team, 0) if isinstance(won.get(team), int) else 0
        decided = m.get("match_winner") in ("A", "B")
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
        title = f"Net won or lost over time, month by month ({code})"
    else:
        labels, values, running = ["start"], [0], 0
        for p in points:
            running += p["net"]
            labels.append(p["date"] or "?")
            values.append(running)
        title = f"Net won or lost over time, session by session ({code})"
    return charts.line_chart(cid, title, labels, [{"name": f"Net ({code})", "values": values}],
                             fmt=lambda v: _money(int(round(v)), code))


@bp.get("/players/<path:key>")
def player(key):
    clean = player_key(key)
    if not clean:
        abort(404)
    if clean != key:
        return redirect(url_for("history.player", key=clean), code=301)
    sql, params = player_sql(clean)
    rows = get_db().execute(sql, params).fetchall()
    if not rows:
        abort(404)
    mus_parts: list[str] = []
    money: dict[str, list[dict]] = {}
    sessions = []
    for sid, sname, started, mus_json, token, _role, _name, net, code in rows:
        if mus_json and mus_json.startswith("[") and mus_json != "[]":
            mus_parts.append(mus_json[1:-1])
        code = code or DEFAULT_CURRENCY
        day = (started or "")[:10]
        if net:
            money.setdefault(code, []).append({"date": day, "net": net})
        sessions.append((sname, day, token, net, code))
    recent = [{"name": n, "date": d, "token": t, "net": v, "net_text": _money(v, c, True),
               "cls": "pos" if v > 0 else "neg" if v < 0 else ""} for n, d, t, v, c in reversed(sessions[-PER_PAGE:])]
    mus_games = json.loads("[" + ",".join(mus_parts) + "]")  # one parse for thousands of sessions
    name = rows[-1][6]
    nets = [{"code": code, "total": _money(sum(p["net"] for p in pts), code, True),
             "cls": "pos" if sum(p["net"] for p in pts) > 0 else "neg" if sum(p["net"] for p in pts) < 0 else "",
             "chart": _net_chart(pts, code, f"net-{i}")}
            for i, (code, pts) in enumerate(sorted(money.items()))]
    return render("player.html", None, name=name, key=clean, count=len(rows), nets=nets,
                  partners=_partners(clean, mus_games), recent=recent, first=sessions[0][1],
                  last=sessions[-1][1])


# ----------------------------------------------------------------------------------------------------
# Archive: export every visible session as a zip of session files; import such a zip
# ----------------------------------------------------------------------------------------------------

def _slug(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:40] or "session"


@bp.get("/history/archive.zip")
def archive():
    scope, params, _link = _scope()
    rows = get_db().execute(f"SELECT s.id, s.started, s.name, s.doc {scope} ORDER BY s.started, s.id",
                            params).fetchall()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for sid, started, name, doc in rows:
            text = json.dumps(json.loads(doc), ensure_ascii=False, indent=2) + "\n"
            zf.writestr(f"{(started or '')[:10]}-{_slug(name)}-{sid}.json", text)
    resp = Response(buf.getvalue(), mimetype="application/zip")
    resp.headers["Content-Disposition"] = 'attachment; filename="companion-archive.zip"'
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.url_value_preprocessor
def _archive_upload_limit(endpoint, _values):
    # url value preprocessors run before every before_request hook, so before the CSRF check parses
    # the form under the app-wide limit
    if endpoint == "history.import_archive":
        try:  # settable per request since Flask 3.1; before that the app-wide limit stays
            request.max_content_length = max(MAX_UPLOAD_BYTES, current_app.config.get("MAX_CONTENT_LENGTH") or 0)
        except AttributeError:
            pass


class ArchiveError(ValueError):
    pass


def read_archive(raw: bytes) -> list[tuple[str, dict]]:
    """Every session file of a zip, validated: [(file name, normalized doc)]. Raises ArchiveError naming
    the first bad file (``file.json: path: message``); nothing is imported then."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(raw))
    except zipfile.BadZipFile:
        raise ArchiveError("This is not a zip file.") from None
    docs = []
    total = 0
    with zf:
        infos = [i for i in zf.infolist()
                 if not i.is_dir() and not i.filename.startswith("__MACOSX/")
                 and not i.filename.rsplit("/", 1)[-1].startswith(".")]
        if not infos:
            raise ArchiveError("The zip holds no session file.")
        if len(infos) > MAX_ARCHIVE_FILES:
            raise ArchiveError(f"The zip holds {len(infos)} files: at most {MAX_ARCHIVE_FILES} at once.")
        for info in infos:
            name = info.filename
            if not name.lower().endswith(".json"):
                raise ArchiveError(f"{name}: not a session file (.json expected).")
            if info.file_size > MAX_FILE_BYTES:
                raise ArchiveError(f"{name}: too large ({info.file_size} bytes).")
            try:
                with zf.open(info) as fh:
                    data = fh.read(MAX_FILE_BYTES + 1)
            # a damaged zip fails inside the decompressor (zlib.error, EOFError), not only as BadZipFile
            except (zipfile.BadZipFile, RuntimeError, NotImplementedError, zlib.error, EOFError, OSError,
                    ValueError) as err:
                raise ArchiveError(f"{name}: cannot be read, the zip is damaged ({err}).") from None
            total += len(data)
            if len(data) > MAX_FILE_BYTES or total > MAX_ARCHIVE_BYTES:
                raise ArchiveError(f"{name}: too large.")
            try:
                doc = json.loads(data.decode("utf-8"))
            except UnicodeDecodeError:
                raise ArchiveError(f"{name}: not text (UTF-8 JSON expected).") from None
            except json.JSONDecodeError as err:
                raise ArchiveError(f"{name}: not JSON: line {err.lineno}, column {err.colno}: {err.msg}.") from None
            except RecursionError:
                raise ArchiveError(f"{name}: not a session file (nested too deeply).") from None
            try:
                doc = normalize_session(doc)
                compute_state(doc)
            except RuleError as err:
                raise ArchiveError(f"{name}: {err.path or '$'}: {err.message}") from None
            except Exception:  # noqa: BLE001 - an engine tripping on odd input: refuse the file, not 500
                raise ArchiveError(f"{name}: not a valid session file (its games cannot be replayed).") from None
            docs.append((name, doc))
    return docs


@bp.post("/history/import")
def import_archive():
    upload = request.files.get("archive")
    if upload is None or not upload.filename:
        return _index(status=422, errors={"archive": "Choose an archive (.zip) to import."})
    try:
        docs = read_archive(upload.read())
    except ArchiveError as err:
        return _index(status=422, errors={"archive": f"Refused, nothing imported. {err}"})
    db = get_db()
    key = request.form.get("k") or None
    if key is not None and len(key) > 64:
        abort(400)
    # one transaction: a failure half-way (disk full, a lock timeout) leaves nothing imported
    store.create_many(db, [doc for _name, doc in docs], key=key, browser=security.browser_id())
    return see_other(url_for("history.index", imported=len(docs)))
