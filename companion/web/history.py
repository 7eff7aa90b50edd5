"""History: the list of past sessions (search, filters, pages), a past session hand by hand with its
charts, a player's page over time, and the exports (a session as CSV, the archive as a zip of session
files, which imports back).

Which sessions a browser may see: the ones it created or opened (table ``browsers``), or all of them
with the admin flag (``sessions.is_admin``). Every list query is driven by an index: ``browsers``' primary
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

from .. import charts, csvexport, kinds, security, service
from ..db import get_db
from ..errors import RuleError
from ..messages import N_, NP_, define, msg
from .i18n import fmt_money
from ..session import Session, player_key, read_file, to_doc
from .common import open_session, render, request_key, see_other, unchanged_poll
from .i18n import renderer, t
from .sessions import is_admin, scope_sql

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

def _filters(args) -> tuple[dict, dict]:
    """The list's filters from the query string: {q, key, kind, from, to}, and errors by field."""
    errors: dict[str, str] = {}
    q = " ".join((args.get("q") or "").split())[:60]
    kind = args.get("kind") or ""
    if kind and kind not in kinds.KINDS:
        errors["kind"] = t(msg("hist.filter.kind"))
        kind = ""
    out = {"q": q, "key": player_key(q) if q else "", "kind": kind, "from": "", "to": ""}
    for field in ("from", "to"):
        raw = (args.get(field) or "").strip()
        if not raw:
            continue
        try:
            out[field] = date.fromisoformat(raw).isoformat()
        except ValueError:
            errors[field] = t(msg("hist.filter.date", example="2026-11-20"))
    if out["from"] and out["to"] and out["from"] > out["to"]:
        errors["to"] = t(msg("hist.filter.order"))
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
    scope, params, link = scope_sql()
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
        return fmt_money(minor, code or DEFAULT_CURRENCY, plus=plus)
    except ValueError:
        return str(minor)


def _row(r) -> dict:
    summary = json.loads(r[3] or "{}")
    games = summary.get("games") or [{"title": kinds.KINDS[k].title if k in kinds.KINDS else k, "result": ""}
                                     for k in summary.get("kinds", [])]
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
    resp = render("history.html", None, status=status, rows=rows[:PER_PAGE], total=total, page=page,
                  pages=pages, filters=filters, errors=errors, is_admin=is_admin(),
                  prev_url=url_for("history.index", page=page - 1, **args) if page > 1 else None,
                  next_url=url_for("history.index", page=page + 1, **args) if len(rows) > PER_PAGE else None,
                  kinds=[(k, kind.title) for k, kind in kinds.KINDS.items()],
                  imported=request.args.get("imported", type=int), **ctx)
    resp.headers["Cache-Control"] = "no-store"   # lists edit links
    return resp


@bp.get("/history")
def index():
    return _index()


# ----------------------------------------------------------------------------------------------------
# A past session, hand by hand
# ----------------------------------------------------------------------------------------------------

def _chart(cid: str, chart: dict | None) -> str:
    """A kind's chart (messages) drawn as an SVG figure in the reader's words."""
    if not chart or len(chart["x_labels"]) < 2:
        return ""
    series = [{"name": s["name"], "values": s["values"], "color": charts.TEAM_COLORS.get(s.get("team"))}
              for s in chart["series"]]
    ref = chart.get("reference")
    return charts.line_chart(cid, t(chart["title"]), [t(x) for x in chart["x_labels"]], series,
                             reference={"value": ref["value"], "label": t(ref["label"])} if ref else None,
                             unit=t(chart.get("unit")), say=t)


def _moves(moves: list[dict]) -> list[dict]:
    """A round's moves in words. A team's points read "A +3"; chip movements into piles that come in a
    run of 3 or more (antes, stakes) become one line that opens on the individual reasons."""
    out: list[dict] = []
    run: list[dict] = []

    def flush():
        if len(run) >= 3:
            per: dict[str, int] = {}
            for m in run:
                per[m["from"]] = per.get(m["from"], 0) + m["amount"]
            piles = {m["to"] for m in run}
            where = csvexport.place_name(next(iter(piles)), renderer()) if len(piles) == 1 else t(msg("hist.the_piles"))
            out.append({"bundle": True, "amount": str(sum(per.values())),
                        "why": t(msg("hist.into", where=where, items=[f"{p} {n}" for p, n in per.items()])),
                        "moves": [{"amount": str(m["amount"]), "why": t(m["why"])} for m in run]})
        else:
            out.extend({"who": "", "cls": "", "amount": str(m["amount"]) if m["amount"] else "", "why": t(m["why"])}
                       for m in run)
        run.clear()

    for m in moves:
        if "team" in m:
            flush()
            out.append({"who": m["team"], "cls": f"team-{m['team'].lower()}", "why": t(m["why"]),
                        "amount": f"+{m['amount']}" if m["amount"] > 0 else str(m["amount"])})
        elif m.get("from") and not m["from"].startswith("@") and (m.get("to") or "").startswith("@"):
            run.append(m)
        else:
            flush()
            run.append(m)
            flush()
    flush()
    return out


def game_sections(view) -> list[dict]:
    sections = []
    for gi, rec in enumerate(view.session.games):
        kind = kinds.KINDS[rec.kind]
        groups = []
        for k, grp in enumerate(kind.history(rec)):
            groups.append({"title": t(grp["title"]) if grp.get("title") else None,
                           "chart": _chart(f"chart-{gi}-{k}", grp.get("chart")),
                           "rounds": [{"label": t(r["label"]), "meta": " · ".join(t(x) for x in r.get("meta", [])),
                                       "moves": _moves(r["moves"])} for r in grp["rounds"]]})
        sections.append({"index": gi, "title": t(msg("settle.game", n=gi + 1, title=msg(kind.title))),
                         "subtitle": ", ".join(kind.seats(rec.head)), "result": t(kind.summary(rec)),
                         "every": t(msg(f"hist.every.{kind.ledger_round}")), "groups": groups,
                         "empty": not len(rec.items)})
    return sections


@bp.get("/s/<token>/history")
def session(token):
    view = open_session(token)
    unchanged = unchanged_poll(view)
    if unchanged:
        return unchanged
    players = [{"name": p, "key": player_key(p)} for p in view.players if player_key(p)]
    return render("history_session.html", view, sections=game_sections(view), players=players)


@bp.get("/s/<token>/session.csv")
def csv_export(token):
    view = open_session(token)
    body = "\ufeff" + csvexport.to_csv(view.session)  # the BOM lets spreadsheets read accents
    resp = Response(body, mimetype="text/csv")
    resp.headers["Content-Disposition"] = f'attachment; filename="companion-session-{view.id}.csv"'
    resp.headers["Cache-Control"] = "no-store"
    return resp


# ----------------------------------------------------------------------------------------------------
# A player over time
# ----------------------------------------------------------------------------------------------------

def player_sql(key: str) -> tuple[str, list]:
    """The player's visible sessions, oldest first, driven by ``session_players_by_key``. Only the
    summary's team games and currency are taken out of it (by SQLite's JSON functions: thousands of rows)."""
    cols = ("s.id, s.name, s.started, json_extract(s.summary, '$.teams'), {link}, sp.name, sp.net,"
            " json_extract(s.summary, '$.currency')")
    if is_admin():
        admin_cols = cols.format(link="s.edit_token, 'edit'")
        return (f"SELECT {admin_cols} FROM session_players sp"
                " JOIN sessions s ON s.id = sp.session_id WHERE sp.key = ? ORDER BY s.started, s.id", [key])
    edit = "b.role = 'edit' AND b.gen = s.edit_gen"
    link = f"CASE WHEN {edit} THEN s.edit_token ELSE s.view_token END, b.role"
    return (f"SELECT {cols.format(link=link)} FROM session_players sp"
            " JOIN browsers b ON b.session_id = sp.session_id AND b.browser = ?"
            " JOIN sessions s ON s.id = sp.session_id WHERE sp.key = ? ORDER BY s.started, s.id",
            [security.browser_id(), key])


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
        title = t(msg("hist.net_months", currency=code))
    else:
        labels, values, running = [t(msg("chart.start"))], [0], 0
        for p in points:
            running += p["net"]
            labels.append(p["date"] or "?")
            values.append(running)
        title = t(msg("hist.net_sessions", currency=code))
    return charts.line_chart(cid, title, labels, [{"name": t(msg("hist.net", currency=code)), "values": values}],
                             fmt=lambda v: _money(int(round(v)), code), say=t)


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
    recent = [{"name": n, "date": d, "token": tk, "net": v, "net_text": _money(v, c, True),
               "cls": "pos" if v > 0 else "neg" if v < 0 else ""} for n, d, tk, v, c in reversed(sessions[-PER_PAGE:])]
    team_games = json.loads("[" + ",".join(team_parts) + "]")  # one parse for thousands of sessions
    name = rows[-1][5]
    nets = []
    for i, (code, pts) in enumerate(sorted(money.items())):
        total = sum(p["net"] for p in pts)
        nets.append({"code": code, "total": _money(total, code, True), "cls": "pos" if total > 0 else "neg" if total < 0 else "",
                     "chart": _net_chart(pts, code, f"net-{i}")})
    resp = render("player.html", None, name=name, key=clean, count=len(rows), nets=nets,
                  partners=_partners(clean, team_games), recent=recent, first=sessions[0][1], last=sessions[-1][1])
    resp.headers["Cache-Control"] = "no-store"   # lists edit links
    return resp


# ----------------------------------------------------------------------------------------------------
# Archive: export every visible session as a zip of session files; import such a zip
# ----------------------------------------------------------------------------------------------------

def _slug(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:40] or "session"


@bp.get("/history/archive.zip")
def archive():
    scope, params, _link = scope_sql()
    db = get_db()
    rows = db.execute(f"SELECT s.id, s.started, s.name {scope} ORDER BY s.started, s.id", params).fetchall()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for sid, started, name in rows:
            text = json.dumps(to_doc(service.load(db, sid)), ensure_ascii=False, indent=2) + "\n"
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
        request.max_content_length = max(MAX_UPLOAD_BYTES, current_app.config.get("MAX_CONTENT_LENGTH") or 0)


class ArchiveError(ValueError):
    def __init__(self, m: dict):
        super().__init__(m["code"])
        self.msg = m


def read_archive(raw: bytes) -> list[tuple[str, Session]]:
    """Every session file of a zip, checked: [(file name, session)]. Raises ArchiveError naming the first
    bad file (``file.json: path: message``); nothing is imported then."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(raw))
    except zipfile.BadZipFile:
        raise ArchiveError(msg("archive.not_zip")) from None
    out = []
    total = 0
    with zf:
        infos = [i for i in zf.infolist()
                 if not i.is_dir() and not i.filename.startswith("__MACOSX/")
                 and not i.filename.rsplit("/", 1)[-1].startswith(".")]
        if not infos:
            raise ArchiveError(msg("archive.empty"))
        if len(infos) > MAX_ARCHIVE_FILES:
            raise ArchiveError(msg("archive.too_many", n=len(infos), max=MAX_ARCHIVE_FILES))
        for info in infos:
            name = info.filename[:200]
            if not name.lower().endswith(".json"):
                raise ArchiveError(msg("archive.not_json", name=name))
            if info.file_size > MAX_FILE_BYTES:
                raise ArchiveError(msg("archive.too_large", name=name))
            try:
                with zf.open(info) as fh:
                    data = fh.read(MAX_FILE_BYTES + 1)
            # a damaged zip fails inside the decompressor (zlib.error, EOFError), not only as BadZipFile;
            # zipfile raises NotImplementedError for a compression method it does not know
            except (zipfile.BadZipFile, RuntimeError, NotImplementedError, zlib.error, EOFError, OSError,
                    ValueError):
                raise ArchiveError(msg("archive.damaged", name=name)) from None
            total += len(data)
            if len(data) > MAX_FILE_BYTES or total > MAX_ARCHIVE_BYTES:
                raise ArchiveError(msg("archive.too_large", name=name))
            try:
                sess = read_file(data)
            except RuleError as err:
                raise ArchiveError(msg("archive.bad_file", name=name, path=err.path or "$", why=err.msg)) from None
            out.append((name, sess))
    return out


@bp.post("/history/import")
def import_archive():
    upload = request.files.get("archive")
    if upload is None or not upload.filename:
        return _index(status=422, errors={"archive": t(msg("archive.choose"))})
    try:
        sessions = read_archive(upload.read())
    except ArchiveError as err:
        return _index(status=422, errors={"archive": t(msg("archive.refused", why=err.msg))})
    key = request_key()
    # one transaction: a failure half-way (disk full, a lock timeout) leaves nothing imported
    service.create_many(get_db(), [sess for _name, sess in sessions], key=key, browser=security.browser_id())
    return see_other(url_for("history.index", imported=len(sessions)))


define("archive", {
    "not_zip": N_("This is not a zip file."),
    "empty": N_("The zip holds no session file."),
    "too_many": NP_("The zip holds %(n)s file: at most %(max)s at once.",
                    "The zip holds %(n)s files: at most %(max)s at once.", "n"),
    "not_json": N_("%(name)s: not a session file (.json expected)."),
    "too_large": N_("%(name)s: too large."),
    "damaged": N_("%(name)s: cannot be read, the zip is damaged."),
    "bad_file": N_("%(name)s: %(path)s: %(why)s"),
    "choose": N_("Choose an archive (.zip) to import."),
    "refused": N_("Refused, nothing imported. %(why)s"),
})
define("hist", {
    "the_piles": N_("the piles"),
    "into": N_("Into %(where)s: %(items)s"),
    "every.hand": N_("Every hand, with the reasons"),
    "every.deal": N_("Every deal, with the reasons"),
    "net_months": N_("Net won or lost over time, month by month (%(currency)s)"),
    "net_sessions": N_("Net won or lost over time, session by session (%(currency)s)"),
    "net": N_("Net (%(currency)s)"),
    "filter.kind": N_("Unknown game."),
    "filter.date": N_("A date like %(example)s, please."),
    "filter.order": N_("The end date is before the start date."),
})
