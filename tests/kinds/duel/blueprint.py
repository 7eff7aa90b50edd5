"""Duel's pages: a new duel, its page (and live poll), a point, the finish. Reaches the app only through
the kinds' face (companion/kinds/face.py), as every kind does."""
from __future__ import annotations

from flask import Blueprint, request

from companion.kinds.face import web

from .kind import KIND, Finish, Point

_web = web()
bp = Blueprint("duel", __name__, template_folder="templates")


def page(view, gi: int, errors: dict | None = None, status: int = 200):
    rec = view.game(gi, "duel")
    return _web.render("duel/game.html", view, status=status, gi=gi, seats=rec.head["seats"],
                       score=rec.state["score"], over=rec.state["over"], at=KIND.position(rec), errors=errors or {})


def new_page(view, form, errors: dict | None = None, status: int = 200):
    return _web.render("duel/new.html", view, status=status, form=form, errors=errors or {}, players=view.players)


def read(view, form):
    errors: dict = {}
    a, b = form.get("a", ""), form.get("b", "")
    stake = _web.read_int(form, "stake", errors, minimum=0, maximum=10 ** 6, default=0)
    return (None if errors else ((a, b), stake)), errors


@bp.route("/s/<token>/duel/new", methods=["GET", "POST"])
def new(token):
    return _web.new_game(token, "duel", new_page, lambda view: {}, read, field_of=lambda path: "a")


@bp.get("/s/<token>/duel/<int:gi>")
def game(token, gi):
    return _web.show(token, gi, "duel", page)


@bp.post("/s/<token>/duel/<int:gi>/point")
def point(token, gi):
    view = _web.require_edit(token)
    form = request.form
    return _web.record(view, gi, lambda: Point(to=form.get("to", ""), at=_web.at_of(form)),
                       lambda errors, status: page(_web.open_session(token), gi, errors, status))


@bp.post("/s/<token>/duel/<int:gi>/finish")
def finish(token, gi):
    view = _web.require_edit(token)
    form = request.form
    return _web.record(view, gi, lambda: Finish(at=_web.at_of(form)),
                       lambda errors, status: page(_web.open_session(token), gi, errors, status))
