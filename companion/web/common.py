"""What every page of a session shares: finding it by token, the capability check, live polling,
rendering a page or just its live region, and writing one event (Post/Redirect/Get)."""
from __future__ import annotations

from functools import cached_property

from flask import Response, abort, current_app, g, redirect, render_template, request
from jinja2 import Template

from .. import kinds, security, store
from ..db import get_db
from ..rules.errors import RuleError
from ..sessionfile import compute_state
from ..share import base_url


class SessionView:
    """One session as seen through one link (role 'edit' or 'view')."""

    def __init__(self, token: str, row: dict, role: str):
        self.token = token
        self.id = row["id"]
        self.version = row["version"]
        self.edit_token = row["edit_token"]
        self.view_token = row["view_token"]
        self.role = role

    @property
    def can_edit(self) -> bool:
        return self.role == "edit"

    @cached_property
    def row(self) -> dict:
        return store.load(get_db(), self.id)

    @property
    def doc(self) -> dict:
        return self.row["doc"]

    @property
    def name(self) -> str:
        return self.doc["name"]

    @cached_property
    def state(self) -> dict:
        return compute_state(self.doc)

    def undo_kind(self, gi: int) -> str | None:
        """What undo would take back in game ``gi``: 'game' (its last action), 'add_game' (nothing is
        recorded yet: undo removes the game itself) or None (nothing)."""
        last = store.last_effective(get_db(), self.id, gi)
        return last[1] if last else None

    def game(self, gi: int, kind: str | None = None) -> dict:
        games = self.doc["games"]
        if not 0 <= gi < len(games) or (kind and games[gi]["kind"] != kind):
            abort(404)
        return games[gi]


def open_session(token: str) -> SessionView:
    """The session behind a link, or 404. Marks the response as a capability page (noindex, no-store)."""
    if len(token) > 64:
        abort(404)
    row, role = store.find(get_db(), token)
    if row is None:
        abort(404)
    g.capability_page = True
    view = SessionView(token, row, role)
    if request.method == "GET" and not is_poll():
        store.remember(get_db(), security.browser_id(), view.id, role)
    return view


def is_poll() -> bool:
    return request.args.get("since") is not None and request.headers.get("HX-Request") == "true"


def unchanged_poll(view: SessionView) -> Response | None:
    """An unchanged live poll costs one indexed lookup and answers 204 (htmx keeps what it has)."""
    if is_poll() and request.args.get("since") == str(view.version):
        resp = Response(status=204)
        resp.headers["Vary"] = "HX-Request"
        return resp
    return None


def render(template: str, view: SessionView | None = None, *, region: str = "live", status: int = 200, **ctx):
    """The whole page, or (for a live poll) only its block ``region``."""
    ctx.setdefault("view", view)
    if view is not None:
        ctx.setdefault("can_edit", view.can_edit)
        ctx.setdefault("poll_seconds", current_app.config["POLL_SECONDS"])
    if view is not None and is_poll():
        tmpl: Template = current_app.jinja_env.get_or_select_template(template)
        current_app.update_template_context(ctx)
        body = "".join(tmpl.blocks[region](tmpl.new_context(ctx)))
    else:
        body = render_template(template, **ctx)
    resp = Response(body, status=status, mimetype="text/html")
    resp.headers["Vary"] = "HX-Request"
    return resp


def require_edit(token: str) -> SessionView:
    """The session behind a link that may write; 403 through a view link (before reading any field)."""
    view = open_session(token)
    if not view.can_edit:
        abort(403)
    return view


def perform(view: SessionView, etype: str, payload: dict, location: str) -> store.Written:
    """Record one event through an edit link. Raises RuleError (nothing stored) when refused."""
    if not view.can_edit:
        abort(403)
    seen = request.form.get("v", type=int)
    key = request.form.get("k") or None
    if key is not None and len(key) > 64:
        raise RuleError("bad form key")
    return store.write(get_db(), view.id, etype, payload, key=key, seen_version=seen, location=location)


def game_action(view: SessionView, gi: int, action: dict, location: str) -> store.Written:
    """A rule action on game ``gi``; the position token the phone saw goes with it."""
    at = request.form.get("at")
    if at and "at" not in action:
        action = {**action, "at": at}
    return perform(view, "game", {"game": gi, "action": action}, location)


def see_other(location: str):
    return redirect(location, code=303)


def links(view: SessionView) -> dict:
    """Absolute links other phones can reach, and whether they are loopback only."""
    root, loopback = base_url(current_app.config.get("BASE_URL"), request.host_url, request.host,
                              request.environ.get("SERVER_PORT") and int(request.environ["SERVER_PORT"]))
    return {
        "watch": f"{root}/s/{view.view_token}",
        "edit": f"{root}/s/{view.edit_token}" if view.can_edit else None,
        "loopback": loopback,
    }


def web_module(kind: str):
    """The kind's blueprint module, if it has one (companion.web.<kind>)."""
    from importlib import import_module

    try:
        return import_module(f"companion.web.{kind}")
    except ModuleNotFoundError:
        return None


def game_title(game: dict) -> str:
    return getattr(kinds.KINDS.get(game["kind"]), "TITLE", game["kind"].title())
