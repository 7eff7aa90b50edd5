"""History: the list of past sessions (search, filters, pages) and the archive (every visible session as a
zip of session files, which imports back). A past session hand by hand is ``night_history.py``, a player
over time ``players.py``: their routes are this blueprint's.

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

from flask import Blueprint, Response, current_app, request, url_for

from companion import archive as archive_import, kinds, service
from companion.web import security
from companion.domain import numbers
from companion.storage import reads
from companion.storage.db import get_db
from companion.domain.messages import N_, define, msg
from companion.record.session import player_key, to_doc
from companion.web import night_history, players
from companion.web.common import render, request_key, see_other
from companion.web.forms import read_dates
from companion.web.i18n import t
from companion.web.players import PER_PAGE, money_text
from companion.web.sessions import browser_scope, is_admin

bp = Blueprint("history", __name__)
# the history's other pages, one module each (their endpoints stay history.*)
bp.add_url_rule("/s/<token>/history", endpoint="session", view_func=night_history.session)
bp.add_url_rule("/s/<token>/session.csv", endpoint="csv_export", view_func=night_history.csv_export)
bp.add_url_rule("/players/<path:key>", endpoint="player", view_func=players.player)

# The archive of a few thousand nights is larger than the app's 8 MB request limit (5,000 sessions of the
# benchmark: 6 MB): the import alone may upload this much, or the export would not import back.
MAX_UPLOAD_BYTES = 96 * 1024 * 1024


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
    out = {"q": q, "key": player_key(q) if q else "", "kind": kind,
           **read_dates(args, errors, "hist.filter.date", "hist.filter.order")}
    return out, errors


def list_sql(filters: dict, page: int) -> tuple[str, list, str, list]:
    """(page query, params, count query, params): what ``index`` runs; exposed for EXPLAIN tests."""
    return reads.history_sql(browser_scope(), filters, page, PER_PAGE)


def explain(sql: str, params: list) -> list[str]:
    """SQLite's query plan, one line per step (for tests and the benchmark)."""
    return reads.explain(get_db(), sql, params)


def _row(r) -> dict:
    summary = json.loads(r[3] or "{}")
    games = summary.get("games") or [{"title": kinds.KINDS[k].title if k in kinds.KINDS else k, "result": ""}
                                     for k in summary.get("kinds", [])]
    winner = None
    if summary.get("biggest_winner"):
        winner = {"name": summary["biggest_winner"],
                  "amount": money_text(summary.get("biggest_win", 0), summary.get("currency"), True)}
    return {"id": r[0], "name": r[1], "date": (r[2] or "")[:10], "token": r[4], "role": r[5],
            "players": [{"name": p, "key": player_key(p)} for p in summary.get("players", [])],
            "games": games, "winner": winner, "settled": summary.get("settled", False)}


def _page_number() -> int:
    page = request.args.get("page", type=numbers.int_or_none) or 1
    return max(1, min(page, 100_000))


def _index(status: int = 200, **ctx):
    filters, errors = _filters(request.args)
    if errors and status == 200:
        status = 422  # like every refused input: the message beside the field, the list without that filter
    errors.update(ctx.pop("errors", {}))
    page = _page_number()
    found, total = reads.history_page(get_db(), browser_scope(), filters, page, PER_PAGE)
    rows = [_row(r) for r in found]
    pages = max(1, -(-total // PER_PAGE))
    args = {k: v for k, v in (("q", filters["q"]), ("kind", filters["kind"]), ("from", filters["from"]),
                               ("to", filters["to"])) if v}
    resp = render("history.html", None, status=status, rows=rows[:PER_PAGE], total=total, page=page,
                  pages=pages, filters=filters, errors=errors, is_admin=is_admin(),
                  prev_url=url_for("history.index", page=page - 1, **args) if page > 1 else None,
                  next_url=url_for("history.index", page=page + 1, **args) if len(rows) > PER_PAGE else None,
                  kinds=[(k, kind.title) for k, kind in kinds.KINDS.items()],
                  imported=request.args.get("imported", type=numbers.int_or_none), **ctx)
    resp.headers["Cache-Control"] = "no-store"   # lists edit links
    return resp


@bp.get("/history")
def index():
    return _index()


# ----------------------------------------------------------------------------------------------------
# Archive: export every visible session as a zip of session files; import such a zip
# ----------------------------------------------------------------------------------------------------

def _slug(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:40] or "session"


@bp.get("/history/archive.zip")
def archive():
    db = get_db()
    rows = reads.archive_sessions(db, browser_scope())
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


@bp.post("/history/import")
def import_archive():
    upload = request.files.get("archive")
    if upload is None or not upload.filename:
        return _index(status=422, errors={"archive": t(msg("archive.choose"))})
    key = request_key()
    try:
        # streamed, one file at a time, in one transaction: a failure half-way leaves nothing imported
        count = archive_import.import_zip(get_db(), upload.stream, browser=security.browser_id(), key=key)
    except archive_import.ArchiveError as err:
        return _index(status=422, errors={"archive": t(msg("archive.refused", why=err.msg))})
    return see_other(url_for("history.index", imported=count))


# the archive's own refusals are companion.archive's messages; these two are the page's
define("archive", {
    "choose": N_("Choose an archive (.zip) to import."),
    "refused": N_("Refused, nothing imported. %(why)s"),
})
define("hist", {
    "filter.kind": N_("Unknown game."),
    "filter.date": N_("A date like %(example)s, please."),
    "filter.order": N_("The end date is before the start date."),
})
