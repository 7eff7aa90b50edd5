"""Sessions: start one, open it, share it, undo, and the session file (export, import, state JSON)."""
from __future__ import annotations

import json
import secrets
from datetime import datetime

from flask import Blueprint, Response, abort, current_app, request, session, url_for

from .. import kinds, security, store
from ..db import get_db
from ..rules.errors import RuleError
from ..sessionfile import FORMAT, MAX_PLAYERS, clean_name, clean_session_name, normalize_session, same_player
from ..share import qr_svg
from .common import game_title, links, open_session, perform, require_edit, render, see_other, unchanged_poll, web_module

bp = Blueprint("sessions", __name__)


def _is_admin() -> bool:
    token = current_app.config.get("ADMIN_TOKEN")
    return bool(token) and secrets.compare_digest(session.get("admin", ""), token)


def _my_sessions(limit: int = 50) -> list[dict]:
    db = get_db()
    if _is_admin():
        rows = db.execute(
            "SELECT id, name, started, edit_token, summary, 'edit' FROM sessions ORDER BY started DESC, id DESC LIMIT ?",
            [limit]).fetchall()
    else:
        rows = db.execute(
            "SELECT s.id, s.name, s.started, CASE b.role WHEN 'edit' THEN s.edit_token ELSE s.view_token END,"
            " s.summary, b.role FROM browsers b JOIN sessions s ON s.id = b.session_id"
            " WHERE b.browser = ? ORDER BY s.started DESC, s.id DESC LIMIT ?",
            [security.browser_id(), limit]).fetchall()
    return [{"id": r[0], "name": r[1], "started": r[2], "token": r[3], "summary": json.loads(r[4]), "role": r[5]}
            for r in rows]


def _home(status: int = 200, **ctx):
    ctx.setdefault("errors", {})
    ctx.setdefault("form", {})
    return render("home.html", None, status=status, sessions=_my_sessions(), is_admin=_is_admin(),
                  max_players=MAX_PLAYERS, **ctx)


@bp.get("/")
def home():
    return _home()


def _read_new_session_form(form) -> tuple[dict, dict]:
    errors: dict[str, str] = {}
    try:
        name = clean_session_name(form.get("name", ""))
    except RuleError as err:
        errors["name"] = err.message
        name = ""
    players: list[str] = []
    for i in range(MAX_PLAYERS):
        raw = form.get(f"p{i}", "")
        if not raw.strip():
            continue
        try:
            player = clean_name(raw, f"p{i}")
        except RuleError as err:
            errors[f"p{i}"] = err.message
            continue
        same = same_player(player, players)
        if same is not None:
            errors[f"p{i}"] = f"{player} is already listed" + ("" if same == player else f" (as {same})")
            continue
        players.append(player)
    if len(players) < 2 and not any(k.startswith("p") for k in errors):
        errors["players"] = "Type at least two players."
    doc = {"format": FORMAT, "name": name, "started": datetime.now().astimezone().isoformat(timespec="seconds"),
           "players": players, "games": []}
    currency = form.get("currency", "").strip().upper()
    if currency:
        doc["currency"] = currency
    return doc, errors


@bp.post("/new")
def create():
    doc, errors = _read_new_session_form(request.form)
    if not errors:
        try:
            normalize_session(doc)
        except RuleError as err:
            errors[err.path if err.path in ("name", "currency") else "players"] = err.message
    if errors:
        return _home(status=422, errors=errors, form=request.form)
    written = store.create(get_db(), doc, key=request.form.get("k") or None,
                           location=lambda edit: url_for("sessions.show", token=edit))
    return see_other(written.location)


@bp.post("/import")
def import_file():
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        return _home(status=422, errors={"file": "Choose a session file (.json) to import."})
    raw = upload.read()
    try:
        doc = json.loads(raw.decode("utf-8"))
        doc = normalize_session(doc)
    except UnicodeDecodeError:
        return _home(status=422, errors={"file": "This file is not text (UTF-8 JSON expected)."})
    except json.JSONDecodeError as err:
        return _home(status=422, errors={"file": f"Not JSON: line {err.lineno}, column {err.colno}: {err.msg}."})
    except RuleError as err:
        return _home(status=422, errors={"file": f"Refused, nothing imported. {err}"})
    written = store.create(get_db(), doc, key=request.form.get("k") or None,
                           location=lambda edit: url_for("sessions.show", token=edit))
    return see_other(written.location)


@bp.get("/admin")
def admin():
    token = current_app.config.get("ADMIN_TOKEN")
    given = request.args.get("token", "")
    if not token or not secrets.compare_digest(given, token):
        abort(404)
    session["admin"] = given
    return see_other(url_for("sessions.home"))


def _game_cards(view) -> list[dict]:
    cards = []
    for gi, (game, state) in enumerate(zip(view.doc["games"], view.state["games"])):
        web = web_module(game["kind"])
        cards.append({
            "index": gi,
            "title": game_title(game),
            "headline": web.headline(game, state) if web and hasattr(web, "headline") else "",
            "url": url_for(f"{game['kind']}.game", token=view.token, gi=gi) if web else None,
        })
    return cards


def _new_game_links(view) -> list[dict]:
    out = []
    for kind, module in kinds.KINDS.items():
        if web_module(kind) is not None:
            out.append({"title": module.TITLE, "url": url_for(f"{kind}.new", token=view.token)})
    return out


def _session_page(view, status: int = 200, **ctx):
    share = links(view)
    ctx.setdefault("errors", {})
    return render("session.html", view, status=status, games=_game_cards(view), new_games=_new_game_links(view),
                  share=share, watch_qr=qr_svg(share["watch"], "QR code of the watch link"),
                  edit_qr=qr_svg(share["edit"], "QR code of the scoring link") if share["edit"] else None,
                  has_settle="settle" in current_app.blueprints, **ctx)


@bp.get("/s/<token>")
def show(token):
    view = open_session(token)
    return unchanged_poll(view) or _session_page(view)


@bp.post("/s/<token>/rename")
def rename(token):
    view = open_session(token)
    try:
        perform(view, "rename", {"name": request.form.get("name", "")}, url_for("sessions.show", token=token))
    except RuleError as err:
        return _session_page(view, status=422, errors={"rename": err.message})
    return see_other(url_for("sessions.show", token=token))


@bp.post("/s/<token>/players")
def add_player(token):
    view = open_session(token)
    try:
        perform(view, "add_player", {"name": request.form.get("name", "")}, url_for("sessions.show", token=token))
    except RuleError as err:
        return _session_page(view, status=422, errors={"player": err.message})
    return see_other(url_for("sessions.show", token=token))


@bp.post("/s/<token>/undo/<int:gi>")
def undo(token, gi):
    view = require_edit(token)
    if not 0 <= gi < len(view.doc["games"]):
        abort(404)
    kind = view.doc["games"][gi]["kind"]
    game_url = url_for(f"{kind}.game", token=token, gi=gi) if web_module(kind) else url_for("sessions.show", token=token)
    target = request.form.get("target", type=int)
    try:
        written = perform(view, "undo", {"game": gi, "target": target}, game_url)
    except RuleError as err:
        return _session_page(view, status=409, errors={"undo": err.message})
    still_there = gi < len(store.load(get_db(), view.id)["doc"]["games"])
    return see_other(written.location if still_there else url_for("sessions.show", token=token))


@bp.post("/s/<token>/revoke")
def revoke(token):
    view = require_edit(token)
    new = store.revoke_edit(get_db(), view.id)
    return see_other(url_for("sessions.show", token=new))


def _json(obj, filename: str | None = None) -> Response:
    resp = Response(json.dumps(obj, ensure_ascii=False, indent=2) + "\n", mimetype="application/json")
    if filename:
        resp.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get("/s/<token>/session.json")
def export(token):
    view = open_session(token)
    return _json(view.doc, filename=f"companion-session-{view.id}.json")


@bp.get("/s/<token>/state.json")
def state(token):
    """companion-state/1 for anyone holding the view (or edit) link."""
    view = open_session(token)
    return _json(view.state)
