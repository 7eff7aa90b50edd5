"""Sessions: start one, open it, share it, undo, and the session file (export, import, state JSON)."""
from __future__ import annotations

import hashlib
import hmac
import json
from datetime import datetime

from flask import Blueprint, Response, abort, current_app, flash, request, session, url_for

from companion import kinds, service
from companion.web import security
from companion.domain import numbers
from companion.domain import text as text_policy
from companion.storage import reads, store
from companion.archive import read_session
from companion.storage.db import get_db
from companion.domain.errors import KeyReused, RuleError
from companion.record.session import FORMAT, MAX_PLAYERS, Session, clean_name, clean_session_name, normalize_header, same_player, to_doc
from companion.web.share import qr_svg
from companion.session_commands import AddPlayer, RenameSession, ReplaceLink, Undo
from companion.web.common import (SessionView, check, execute, links, open_session, refusal, render, request_key, require_edit,
                     see_other, unchanged_poll)
from companion.web.i18n import t

bp = Blueprint("sessions", __name__)
FIRST_ROWS, MORE_ROWS = 8, 8


def _admin_digest(token: str) -> str:
    """An HMAC of the admin token keyed with the app's secret: a stolen cookie cannot be tried offline
    against guessed tokens (a bare hash could)."""
    key = str(current_app.secret_key).encode("utf-8", "surrogatepass")
    return hmac.new(key, b"companion-admin\0" + token.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()


def is_admin() -> bool:
    """The admin flag: the cookie keeps an HMAC of the admin token, never the token itself."""
    token = current_app.config.get("ADMIN_TOKEN")
    mark = session.get("admin")
    return bool(token) and isinstance(mark, str) and security.same_secret(mark, _admin_digest(token))


def browser_scope() -> str | None:
    """Whose sessions this reader may list: this browser's, or every one (None) for the organizer."""
    return None if is_admin() else security.browser_id()


def _my_sessions(limit: int = 50) -> list[dict]:
    return reads.my_sessions(get_db(), browser_scope(), limit)


def _home(status: int = 200, **ctx):
    ctx.setdefault("errors", {})
    ctx.setdefault("form", {})
    rows = ctx.pop("rows", None) or FIRST_ROWS
    resp = render("home.html", None, status=status, sessions=_my_sessions(), is_admin=is_admin(),
                  max_players=MAX_PLAYERS, rows=rows, **ctx)
    resp.headers["Cache-Control"] = "no-store"   # lists edit links
    return resp


@bp.get("/")
def home():
    return _home()


def _read_new_session_form(form, rows: int) -> tuple[dict, dict]:
    errors: dict[str, str] = {}
    try:
        name = clean_session_name(form.get("name", ""))
    except RuleError as err:
        errors["name"] = t(err.msg)
        name = ""
    players: list[str] = []
    for i in range(rows):
        raw = form.get(f"p{i}", "")
        if not raw.strip():
            continue
        try:
            player = clean_name(raw, f"p{i}")
        except RuleError as err:
            errors[f"p{i}"] = t(err.msg)
            continue
        same = same_player(player, players)
        if same is not None:
            code = "web.already_listed" if same == player else "web.already_listed_as"
            errors[f"p{i}"] = t({"code": code, "name": player, "same": same})
            continue
        players.append(player)
    if len(players) < 2 and not any(k.startswith("p") for k in errors):
        errors["players"] = t({"code": "web.two_players"})
    doc = {"format": FORMAT, "name": name, "started": datetime.now().astimezone().isoformat(timespec="seconds"),
           "players": players, "games": []}
    currency = form.get("currency", "").strip().upper()
    if currency:
        doc["currency"] = currency
    return doc, errors


def _rows(form) -> int:
    try:
        rows = numbers.parse_int(form.get("rows") or str(FIRST_ROWS), 0)
    except numbers.NumberRefused:
        rows = FIRST_ROWS
    return max(FIRST_ROWS, min(MAX_PLAYERS, rows))


@bp.post("/new")
def create():
    form = request.form
    rows = _rows(form)
    if form.get("more"):   # "More players": the same form with more rows (works without JavaScript)
        return _home(form=form, rows=min(MAX_PLAYERS, rows + MORE_ROWS))
    doc, errors = _read_new_session_form(form, rows)
    header = None
    if not errors:
        try:
            header = normalize_header(doc)
        except RuleError as err:
            errors[err.path if err.path in ("name", "currency") else "players"] = t(err.msg)
    if not errors and not form.get("confirm_names"):    # two names that look the same: ask once
        pair = text_policy.look_alikes(header["players"])
        if pair is not None:
            errors["players"] = t(text_policy.look_alike_message(*pair))
            return _home(status=422, errors=errors, form=form, rows=rows, confirm_names=True)
    if errors:
        return _home(status=422, errors=errors, form=form, rows=rows)
    written = service.create(get_db(), Session(header), browser=security.browser_id(), key=request_key(),
                           location=lambda edit: url_for("sessions.show", token=edit))
    return see_other(written.location)


@bp.post("/import")
def import_file():
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        return _home(status=422, errors={"file": t({"code": "web.choose_file"})})
    try:
        sess = read_session(upload.read())     # limited work, not just bytes
    except RuleError as err:
        return _home(status=422, errors={"file": t({"code": "web.refused_file", "path": err.path or "$",
                                                    "why": err.msg})})
    written = service.create(get_db(), sess, browser=security.browser_id(), key=request_key(),
                           location=lambda edit: url_for("sessions.show", token=edit))
    return see_other(written.location)


@bp.get("/admin")
def admin():
    token = current_app.config.get("ADMIN_TOKEN")
    given = request.args.get("token", "")
    if not token or not security.same_secret(given, token):
        abort(404)
    # a new browser id and CSRF token: a cookie planted before (session fixation) shares nothing with
    # the admin's from now on
    security.rotate()
    session["admin"] = _admin_digest(token)
    session.permanent = True
    return see_other(url_for("sessions.home"))


def _game_cards(view: SessionView) -> list[dict]:
    cards = []
    for gi, rec in enumerate(view.games):
        kind = kinds.KINDS[rec.kind]
        cards.append({"index": gi, "title": kind.title, "headline": kind.headline(rec),
                      "url": url_for(f"{rec.kind}.game", token=view.token, gi=gi)})
    return cards


def _new_game_links(view: SessionView) -> list[dict]:
    return [{"title": kind.title, "url": url_for(f"{name}.new", token=view.token)}
            for name, kind in kinds.KINDS.items()]


def _session_page(view: SessionView, status: int = 200, **ctx):
    share = links(view)
    ctx.setdefault("errors", {})
    return render("session.html", view, status=status, games=_game_cards(view), new_games=_new_game_links(view),
                  share=share, watch_qr=qr_svg(share["watch"], t({"code": "web.qr_watch"})),
                  edit_qr=qr_svg(share["edit"], t({"code": "web.qr_edit"})) if share["edit"] else None,
                  **ctx)


@bp.get("/s/<token>")
def show(token):
    view = open_session(token)
    if view.table is not None:      # a club table's link: its own table's page
        return see_other(url_for("club.table_home", token=token))
    return unchanged_poll(view) or _session_page(view, replaced=request.args.get("replaced") == "1")


@bp.post("/s/<token>/opened")
def opened(token):
    """This phone opened the session: list it on its home page (a POST the page sends; never a GET)."""
    view = open_session(token)
    store.remember(get_db(), security.browser_id(), view.id, view.role, view.edit_gen)
    return Response(status=204)


@bp.post("/s/<token>/rename")
def rename(token):
    view = require_edit(token)
    try:
        execute(view, RenameSession(request.form.get("name", "")), url_for("sessions.show", token=token))
    except RuleError as err:
        return _session_page(view, status=refusal(err), errors={"rename": t(err.msg)})
    return see_other(url_for("sessions.show", token=token))


@bp.post("/s/<token>/players")
def add_player(token):
    view = require_edit(token)
    typed, hidden = text_policy.check(request.form.get("name", ""))
    if not request.form.get("confirm_names") and hidden is None and typed and same_player(typed, view.players) is None:
        other = text_policy.look_alike(typed, view.players)      # looks like a player already listed: ask once
        if other is not None:
            return _session_page(view, status=422, errors={"player": t(text_policy.look_alike_message(other, typed))},
                                 confirm_player=typed)
    try:
        execute(view, AddPlayer(request.form.get("name", "")), url_for("sessions.show", token=token))
    except RuleError as err:
        return _session_page(view, status=refusal(err), errors={"player": t(err.msg)})
    return see_other(url_for("sessions.show", token=token))


@bp.post("/s/<token>/undo/<int:gi>")
def undo(token, gi):
    view = require_edit(token)
    rec = view.game(gi)
    game_url = url_for(f"{rec.kind}.game", token=token, gi=gi)
    target = request.form.get("target", type=numbers.int_or_none)
    said = undone_toast(rec)
    try:
        written = execute(view, Undo(gi, target), game_url)
    except RuleError as err:
        return _session_page(view, status=422 if isinstance(err, KeyReused) else 409, errors={"undo": t(err.msg)})
    still_there = service.game(get_db(), view.id, gi) is not None
    if still_there and not written.replayed:
        flash(said, "undone")                 # the game page's toast says what was taken back
    return see_other(written.location if still_there else url_for("sessions.show", token=token))


def undone_toast(rec) -> dict:
    """What undo is about to take back, as the game page's toast will say it: in the kind's own words when
    it has them (``Kind.undone``), else "Undone: the last step"."""
    return kinds.KINDS[rec.kind].undone(rec) or {"code": "web.undone"}


@bp.route("/s/<token>/replace", methods=["GET", "POST"])
def replace(token):
    """Replace the scoring link: asked first, then done, and said."""
    view = require_edit(token)
    if request.method == "GET":
        check(view, "replace_link")     # the session's link only (a table's: 403)
        return render("replace.html", view)
    written = execute(view, ReplaceLink(), lambda new: url_for("sessions.show", token=new, replaced=1))
    return see_other(written.location)


def _json(obj, filename: str | None = None) -> Response:
    resp = Response(json.dumps(obj, ensure_ascii=False, indent=2) + "\n", mimetype="application/json")
    if filename:
        resp.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get("/s/<token>/session.json")
def export(token):
    view = open_session(token)
    return _json(to_doc(view.session), filename=f"companion-session-{view.id}.json")


@bp.get("/s/<token>/state.json")
def state(token):
    """companion-state/1 for anyone holding the view (or edit) link."""
    view = open_session(token)
    return _json(view.state)


from companion.domain.messages import N_, define  # noqa: E402

define("web", {
    "two_players": N_("Type at least two players."),
    "already_listed": N_("%(name)s is already listed"),
    "already_listed_as": N_("%(name)s is already listed (as %(same)s)"),
    "choose_file": N_("Choose a session file (.json) to import."),
    "refused_file": N_("Refused, nothing imported. %(path)s: %(why)s"),
    "qr_watch": N_("QR code of the watch link"),
    "qr_edit": N_("QR code of the scoring link"),
    "undone": N_("Undone: the last step"),
})
