"""What every page of a session shares: finding it by its link, the capability check, rendering a page
or just its live region, and writing one event (Post/Redirect/Get)."""
from __future__ import annotations

from functools import cached_property

from flask import Response, abort, current_app, g, redirect, render_template, request
from jinja2 import Template

from companion import formkeys, registry, service
from companion.web import security
from companion.domain import numbers
from companion.storage import reads, store
from companion.storage.db import get_db
from companion.domain.errors import FormError, RuleError  # noqa: F401  (FormError: the blueprints' import)
from companion.kinds.base import GameRec
from companion.domain.messages import N_, define
from companion.permit import Decision, GameState, command_name, permit, phase_of
from companion.web.share import base_url
from companion.web.i18n import t

MAX_TOKEN = 64

define("page", {
    "bad_key": N_("This form's key is not valid: reload the page and try again."),
})


class SessionView:
    """One session as seen through one link (role 'edit' or 'view'). Reads what a page needs, when it
    needs it: the header and one game's rows for a scoring page; every row (cached per version, shared
    by every phone) only for the state JSON, settle and history."""

    def __init__(self, token: str, row: dict, role: str):
        self.token = token
        self.id = row["id"]
        self.version = row["version"]
        self.edit_token = row["edit_token"]
        self.view_token = row["view_token"]
        self.edit_gen = row["edit_gen"]
        self.row = row              # the one read of the session: header and summary came with it
        self.header: dict = row["header"]
        self.role = role
        self.table = row.get("table")      # a table's scoring link: that table's games only (club night)

    @property
    def can_edit(self) -> bool:
        return self.role in ("edit", "table")

    @property
    def name(self) -> str:
        return self.header["name"]

    @property
    def players(self) -> list[str]:
        return self.header["players"]

    @property
    def currency(self) -> str:
        return self.header.get("currency") or "EUR"

    @cached_property
    def games(self) -> list[GameRec]:
        """Every game's head and running state (items read lazily)."""
        return service.games(get_db(), self.id)

    def game(self, gi: int, kind: str | None = None) -> GameRec:
        if not 0 <= gi < len(self.games) or (kind and self.games[gi].kind != kind):
            abort(404)
        if self.table is not None and self.games[gi].head.get("table") != self.table:
            abort(403)
        return self.games[gi]

    @cached_property
    def _full(self):
        return service.cached(get_db(), self.id, self.version, registry.of(current_app).sessions)

    @property
    def session(self):
        """The whole session (every hand), cached per version."""
        return self._full[0]

    @property
    def state(self) -> dict:
        """companion-state/1, cached per version."""
        return self._full[1]

    def recent(self, gi: int, count: int):
        """The last ``count`` items of game ``gi`` (what a live region shows)."""
        games = self.__dict__.get("games")      # read already: that game's lazy items learn these rows
        rec = games[gi] if games is not None and 0 <= gi < len(games) else None
        return service.recent(get_db(), self.id, gi, count, rec)

    def undo_label(self, gi: int) -> str | None:
        """What undo would take back in game ``gi``: "game" (its last action), "add_game" (nothing is
        recorded yet: undo removes the game itself) or None."""
        if not self.can_edit:
            return None
        found = store.last_undoable(get_db(), self.id, gi)
        if not found:
            return None
        if self.table is not None:      # a table's link offers only the undo it may do
            name = "remove" if found[1] == "add_game" else \
                "undo_clock" if self.games[gi].head.get("ended") == "time" else "undo"
            if not permit(capability(self), name, game_state(self, gi)).allowed:
                return None
        return found[1]


def open_session(token: str) -> SessionView:
    """The session behind a link, or 404. Marks the response as a capability page (noindex, no-store)."""
    if not token or len(token) > MAX_TOKEN:
        abort(404)
    row, role = store.find(get_db(), token)
    if row is None:
        from companion.web.club_links import find_table

        row, role = find_table(get_db(), token)
    if row is None:
        abort(404)
    g.capability_page = True
    return SessionView(token, row, role)


def is_poll() -> bool:
    return request.args.get("since") is not None and request.headers.get("HX-Request") == "true"


def unchanged_poll(view: SessionView) -> Response | None:
    """An unchanged live poll that reached Flask (the middleware answers most of them): empty, and htmx
    told to keep what it shows (see web/poll.py)."""
    if is_poll() and request.args.get("since") == str(view.version):
        resp = Response(b"", status=200)
        resp.headers["HX-Reswap"] = "none"
        resp.headers["Vary"] = "HX-Request"
        return resp
    return None


def render(template: str, view: SessionView | None = None, *, region: str = "live", status: int = 200, **ctx):
    """The whole page, or (for a live poll) only its block ``region``."""
    ctx.setdefault("view", view)
    if view is not None:
        ctx.setdefault("can_edit", view.can_edit)
        ctx.setdefault("poll_seconds", current_app.config["POLL_SECONDS"])
    tmpl: Template = current_app.jinja_env.get_or_select_template(template)
    if view is not None and is_poll() and region in tmpl.blocks:    # a page without a live region: whole
        current_app.update_template_context(ctx)
        body = "".join(tmpl.blocks[region](tmpl.new_context(ctx)))
    else:
        if view is not None:
            ctx.setdefault("beacon", needs_beacon(view))
        body = render_template(template, **ctx)
    resp = Response(body, status=status, mimetype="text/html")
    resp.headers["Vary"] = "HX-Request"
    return resp


def needs_beacon(view: SessionView) -> bool:
    """Whether the page should ask to be listed on this phone's home page (it is not yet, in this role).
    The page asks with a POST when it loads: a GET never writes."""
    row = reads.browser_role(get_db(), security.browser_id(), view.id)
    if row is None:
        return True
    return view.can_edit and (row[0] != "edit" or row[1] != view.edit_gen)


def require_edit(token: str) -> SessionView:
    """The session behind a link that may write; 403 through a view link (before reading any field)."""
    view = open_session(token)
    if not view.can_edit:
        abort(403)
    return view


def capability(view: SessionView) -> str:
    """The link's capability as ``permit`` names it."""
    if view.table is not None:
        return f"table {view.table}"
    if not view.can_edit:
        return "watch"
    return "organizer" if view.header.get("club") else "scorer"


def game_state(view: SessionView, gi) -> GameState | None:
    """What ``permit`` reads of game ``gi`` (None: there is no such game; the event refuses it)."""
    from companion.club.night import round_in_play

    games = view.games
    if not isinstance(gi, int) or isinstance(gi, bool) or not 0 <= gi < len(games):
        return None
    rec = games[gi]
    st = rec.state if isinstance(rec.state, dict) else {}
    finished = bool(st.get("match_winner")) or rec.head.get("ended") is True or st.get("ended") is True
    # a tournament's stages count their rounds each on its own (rules/tournament.md): a knockout's round 1
    # is in play while the groups had five
    same = [g.head for g in games if g.head.get("stage") == rec.head.get("stage")]
    phase = phase_of(rec.head, finished, len(rec.items) > 0, round_in_play(same, view.header.get("club") or {}))
    return GameState(phase, rec.head.get("table"))


SESSION_COMMAND = {"add_game": "add_game", "add_player": "add_player", "rename": "rename", "banker": "settle",
                   "paid": "settle", "club": "club_setup"}


def command_of(view: SessionView, etype: str, payload: dict, command: str | None = None):
    """(command name, game index or None) of an event a route is about to write."""
    if etype == "game":
        return command or command_name(payload.get("action")), payload.get("game")
    if etype == "undo":
        gi = payload.get("game")
        state = game_state(view, gi)
        if state is None:
            return "undo", gi
        found = store.last_undoable(get_db(), view.id, gi)
        if found and found[1] == "add_game":
            return "remove", gi
        return ("undo_clock" if view.games[gi].head.get("ended") == "time" else "undo"), gi
    return command or SESSION_COMMAND[etype], None


def check(view: SessionView, command: str, gi=None) -> Decision:
    """Ask ``permit`` once: a refusal is a 403 page saying why (nothing is written); a change the
    organizer must confirm comes back as the question (a form that sends this one again, confirmed)."""
    state = game_state(view, gi) if gi is not None else None
    if gi is not None and state is None:
        if view.table is not None:
            abort(_refused(view, "permit.not_your_table"))
        return Decision(True)          # no such game: the event itself refuses it, with its message
    asked = g.setdefault("permit_asked", {})      # a route that checks before reading its form, then
    decision = asked.get((command, gi))             # writes through ``perform``: one ask per request
    if decision is None:
        decision = asked[(command, gi)] = permit(capability(view), command, state)
    if not decision.allowed:
        abort(_refused(view, decision.code))
    if decision.ask and request.form.get("confirm") != "1":
        abort(_ask(view, decision, gi))
    if decision.ask:
        from companion.club.log import clean_note

        try:        # a note that cannot be kept is said, and nothing is written
            clean_note(request.form.get("note", ""), "note")
        except RuleError as err:
            abort(_ask(view, decision, gi, error=t(err.msg), status=422))
    return decision


def _refused(view: SessionView, code: str) -> Response:
    return render("club/refused.html", view, status=403, message=t({"code": code}))


CONFIRM_SKIP = ("csrf", "k", "v", "confirm", "note")


def _ask(view: SessionView, decision: Decision, gi, error: str | None = None, status: int = 200) -> Response:
    fields = [(k, v) for k, v in request.form.items(multi=True) if k not in CONFIRM_SKIP]
    rec = view.games[gi] if gi is not None else None
    return render("club/confirm.html", view, status=status, what=decision.ask, gi=gi, rec=rec, fields=fields,
                  action=request.path, errors={"note": error} if error else {}, note=request.form.get("note", "")[:400],
                  back=request.referrer if _same_site(request.referrer) else None)


def _same_site(url: str | None) -> bool:
    return bool(url) and url.startswith(request.host_url)


def log_entry(view: SessionView, what: str, gi: int) -> dict:
    """The organizer's log entry of a confirmed change (the form's optional note)."""
    from companion.club.log import clean_note

    by = "organizer" if view.table is None else f"table {view.table}"
    note = clean_note(request.form.get("note", ""))     # checked by ``check`` already
    stamp = store.now()[:19] + "Z"
    return {"at": stamp, "by": by, "what": what, "game": gi, **({"note": note} if note else {})}


def command_for(view: SessionView, cmd) -> tuple[str, int | None]:
    """(permit's command name, game index or None) of a typed session command: an undo is named by
    the step it takes back (``command_of``), every other by its class."""
    from companion.session_commands import Undo

    if isinstance(cmd, Undo):
        return command_of(view, "undo", {"game": cmd.game})
    return command_name(cmd), None


def execute(view: SessionView, cmd, location) -> store.Written:
    """A typed session command (``companion.session_commands``) through an edit link: ``permit`` asked
    once (before the form's content is judged: a link that may not write learns only that), the domain
    turns it into events, ``service.apply`` writes them (with the log entry of a change the organizer
    confirmed). Raises RuleError, with nothing stored, when the command or the rules refuse it."""
    from companion.session_commands import ReplaceLink, handle

    if not view.can_edit:
        abort(403)
    name, gi = command_for(view, cmd)
    decision = check(view, name, gi)
    plan = handle(cmd)
    if isinstance(cmd, ReplaceLink):        # no event: the link is a row, not part of the session file
        new = service.replace_link(get_db(), view.id, security.browser_id())
        return store.Written(view.version, location(new))      # the new link's page (``location(token)``)
    seen = request.form.get("v", type=numbers.int_or_none)
    if decision.ask:
        before = _result(view.games[gi]) if gi is not None else None
        written = service.apply(get_db(), view.row, plan, browser=security.browser_id(), key=request_key(),
                                seen_version=seen, location=location, log=log_entry(view, decision.ask, gi))
        if gi is not None and not written.replayed:
            _result_changed(view, gi, before)
        return written
    return service.apply(get_db(), view.row, plan, browser=security.browser_id(), key=request_key(),
                         seen_version=seen, location=location, games=view.__dict__.get("games"))


def perform(view: SessionView, etype: str, payload: dict, location: str, command: str | None = None) -> store.Written:
    """Record one event through an edit link, as ``permit`` allows it (asked once; a change the
    organizer confirms is written with its log entry, in one write). Raises RuleError (nothing
    stored) when the rules refuse it."""
    if not view.can_edit:
        abort(403)
    name, gi = command_of(view, etype, payload, command)
    decision = check(view, name, gi)
    seen = request.form.get("v", type=numbers.int_or_none)
    if decision.ask:
        before = _result(view.games[gi]) if gi is not None else None
        written = write_logged(view, [(etype, payload)], log_entry(view, decision.ask, gi), location, seen)
        if gi is not None and not written.replayed:
            _result_changed(view, gi, before)
        return written
    return service.write(get_db(), view.row, etype, payload, browser=security.browser_id(), key=request_key(),
                         seen_version=seen, location=location, games=view.__dict__.get("games"))


def _result(rec) -> tuple | None:
    """A round match's result (winner or draw, and how), as the standings count it; None for a game
    outside the rounds."""
    from companion import kinds
    from companion.club.results import round_result

    if rec is None or rec.head.get("round") is None:
        return None
    return round_result(rec.kind, rec.head, kinds.KINDS[rec.kind].state(rec))


def _result_changed(view: SessionView, gi: int, before) -> None:
    """A match of a round before the round in play has another result now: the standings that paired a
    later round changed; the log says so (the organizer's page shows it)."""
    from companion.club.night import round_in_play

    rec = view.games[gi] if gi < len(view.games) else None
    if rec is None or rec.head.get("round") is None:
        return
    same = [g.head for g in view.games if g.head.get("stage") == rec.head.get("stage")]
    if rec.head["round"] >= round_in_play(same, view.header.get("club") or {}):
        return
    fresh = service.game(get_db(), view.id, gi)
    if _result(fresh) == before:
        return
    row = store.session(get_db(), view.id)
    entry = {**log_entry(view, "result_changed", gi)}
    entry.pop("note", None)
    service.write_many(get_db(), row, [("log", {"entry": entry})], browser=security.browser_id(), key=None,
                       seen_version=None, location="")


def write_logged(view: SessionView, steps: list, entry: dict | None, location: str, seen: int | None):
    """Several events and the log entry that says why: all of them or none."""
    return service.write_many(get_db(), view.row, [*steps, *([("log", {"entry": entry})] if entry else [])],
                              browser=security.browser_id(), key=request_key(), seen_version=seen,
                              location=location)


def request_key() -> str | None:
    """The form's idempotency key (``k``), or a 400 when it is not one this app writes."""
    key = request.form.get("k") or None
    if key is not None and (len(key) > store.MAX_KEY or not key.isascii() or not key.isprintable()):
        abort(400, description=t({"code": "page.bad_key"}))
    formkeys.use(formkeys.fingerprint(request.path, request.form, request.files) if key else None)
    return key


def game_action(view: SessionView, gi: int, action, location: str) -> store.Written:
    """A typed rule action on game ``gi``, with the position the phone saw."""
    return perform(view, "game", {"game": gi, "action": action}, location)


def see_other(location: str):
    return redirect(location, code=303)


def links(view: SessionView) -> dict:
    """Absolute links other phones can reach (never built from the request's Host header), and why
    they cannot when they cannot."""
    port = request.environ.get("SERVER_PORT")
    root, unreachable = base_url(current_app.config.get("BASE_URL"), current_app.config.get("BIND_HOST"),
                                 numbers.parse_int(port, 1, 65535) if numbers.is_ascii_int(port) and len(port) < 6 else None)
    return {
        "watch": f"{root}/s/{view.view_token}",
        "edit": (f"{root}/s/{view.token}" if view.table is not None else f"{root}/s/{view.edit_token}")
        if view.can_edit else None,
        "unreachable": unreachable,
    }


def refusal(err: RuleError) -> int:
    """The HTTP status of a refused write: 409 when another phone was first, 422 for bad input."""
    from companion.domain.errors import Stale

    return 409 if isinstance(err, Stale) else 422
