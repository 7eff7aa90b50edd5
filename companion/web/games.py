"""The flows every game kind's pages share: add a game, show it (or answer a live poll), record one tap
with Post/Redirect/Get, and correct a past hand or deal. A kind's blueprint supplies only what differs:
how its forms become typed actions and what its pages show."""
from __future__ import annotations

from typing import Callable

from flask import Response, abort, request, url_for

from companion.domain import numbers
from companion.domain.errors import RuleError
from companion.web.common import FormError, SessionView, check, game_action, is_poll, open_session, perform, refusal, \
    require_edit, see_other, unchanged_poll
from companion.web.forms import fmt_money
from companion.web.i18n import t


def show(token: str, gi: int, kind: str, page: Callable):
    """A game's page, or its live poll's answer (unchanged: nothing; changed: the live region)."""
    view = open_session(token)
    view.game(gi, kind)
    unchanged = unchanged_poll(view)
    if unchanged is not None:
        return unchanged
    if view.table is not None and is_poll():
        # a table's phone follows the night: the next round's match at its table opens by itself
        mine = [i for i, g in enumerate(view.games) if g.head.get("table") == view.table]
        if mine and gi < mine[-1]:
            resp = Response(b"", status=200)
            resp.headers["HX-Redirect"] = url_for(f"{view.games[mine[-1]].kind}.game", token=token, gi=mine[-1])
            return resp
    return page(view, gi)


def priced(model: dict, value: int, currency: str, link: Callable[[int], str]) -> None:
    """A scoring page's model, for the table: each player's net in money (``value``: minor units of one
    unit or chip), and each recent round's correction link (``link(index)``)."""
    for p in model["players"]:
        p["money"] = fmt_money(p["net"] * value, currency, plus=True)
    for r in model["history"]:
        r["url"] = link(r["index"])


def done_toast(view: SessionView, status: int, toast: Callable, steps) -> object | None:
    """The line under the score after the phone's own tap (``done=1``; ``step``: which of ``steps`` its form
    was; ``n``: which item): ``toast(step, n)``. A watcher, a reload or a refusal sees none."""
    args = request.args if view.can_edit else {}
    if not args.get("done") or status != 200:
        return None
    step = args.get("step")
    return toast(step if step in steps else None, args.get("n", type=numbers.int_or_none))


def past(token: str, kind: str, gi: int, index: int):
    """(view, game) for correcting the game's item ``index`` through a scoring link; 404 when it is not
    a recorded item."""
    view = require_edit(token)
    rec = view.game(gi, kind)
    if not 0 <= index < len(rec.items):
        abort(404)
    return view, rec


def at_of(form) -> str | None:
    """The position the phone saw, as its form carried it."""
    at = form.get("at")
    return at if at and len(at) <= 40 else None


def new_game(token: str, kind: str, new_page: Callable, defaults: Callable, read: Callable,
             field_of: Callable[[str], str] = lambda path: path or "form", make: Callable | None = None):
    """The "add a game" page and its form: ``read(view, form) -> (spec, errors)`` (errors by field); the
    kind makes the game from the spec (its refusal goes beside the form field it names, ``field``, else
    beside ``field_of(path)``; ``make(view, spec, errors)`` replaces that when a kind has more to check);
    then the game is recorded and the phone goes to it."""
    from companion import kinds

    view = require_edit(token)
    check(view, "add_game")         # a table's link adds no game (asked before reading the form)
    if request.method == "GET":
        return new_page(view, defaults(view))
    form = request.form
    spec, errors = read(view, form)
    game = None
    if spec is not None:
        if make is not None:
            game = make(view, spec, errors)
        else:
            try:
                game = kinds.KINDS[kind].new_game(view.players, spec)
            except RuleError as err:
                errors[err.field or field_of(err.path)] = t(err.msg)
    if errors:
        return new_page(view, form, errors, 422)
    return add(view, kind, game, lambda errs, status: new_page(open_session(token), form, errs, status))


def add(view: SessionView, kind: str, game: dict, on_error: Callable[[dict, int], object]):
    """Record a new game and go to it; a refusal brings the form back with the message."""
    location = url_for(f"{kind}.game", token=view.token, gi=len(view.games))
    try:
        perform(view, "add_game", {"game": game}, location)
    except RuleError as err:
        return on_error({"form": t(err.msg)}, refusal(err))
    return see_other(location)


def correction(token: str, kind: str, gi: int, index: int, read: Callable, page: Callable,
               correct_page: Callable):
    """A past item's correction: its page (GET, ``correct_page(view, gi, index)``), or its form read into
    the replacing action (``read(rec, form)``, FormError for a bad field) and recorded."""
    view, rec = past(token, kind, gi, index)
    if request.method == "GET":
        return correct_page(view, gi, index)
    form = request.form
    return record_correction(view, gi, index, lambda: read(rec, form), page, correct_page)


def record_correction(view: SessionView, gi: int, index: int, build: Callable[[], object],
                      page: Callable, correct_page: Callable):
    """Record the correction of item ``index`` (``build`` reads its form into the action) and go to the
    game, saying which one was fixed; a refusal shows the correction page again with the form as sent,
    or the game's page when that item is gone meanwhile."""
    rec = view.game(gi)
    form = request.form

    def on_error(errors, status):
        fresh = open_session(view.token)
        if index >= len(fresh.game(gi, rec.kind).items):
            return page(fresh, gi, errors, status)
        return correct_page(fresh, gi, index, form if status == 422 else None, errors, status)

    return record(view, gi, build, on_error,
                  location=url_for(f"{rec.kind}.game", token=view.token, gi=gi, done=1, step="fixed", n=index + 1))


def record(view: SessionView, gi: int, build: Callable[[], object], on_error: Callable[[dict, int], object],
           field_of: Callable[[str], str] = lambda path: path or "form", location: str | None = None):
    """Read a form into a typed action (``build`` raises FormError), record it, and go back to the game
    page; a refusal re-renders through ``on_error(errors, status)`` with the message beside the form field
    the action named (``RuleError.field``), else beside ``field_of(path)`` (a codec that knows the form)."""
    rec = view.game(gi)
    # done=1: the page says in one line what was just recorded (the toast under the score)
    location = location or url_for(f"{rec.kind}.game", token=view.token, gi=gi, done=1)
    page_url = url_for(f"{rec.kind}.game", token=view.token, gi=gi)

    def refused(errors: dict, status: int):
        # the page shown is the game's: the address bar says so (a reload must not land on the POST address);
        # a kind whose refused form shows another screen of the game says which itself
        resp = on_error(errors, status)
        resp.headers.setdefault("HX-Replace-Url", page_url)
        return resp

    try:
        action = build()
    except FormError as err:
        return refused({k: t(v) for k, v in err.errors.items()}, 422)
    try:
        game_action(view, gi, action, location)
    except RuleError as err:
        status = refusal(err)
        field = "at" if status == 409 else (err.field or field_of(err.path) or "form")
        return refused({field: t(err.msg)}, status)
    return see_other(location)
