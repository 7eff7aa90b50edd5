"""The flows every game kind's pages share: add a game, show it (or answer a live poll), record one tap
with Post/Redirect/Get, and correct a past hand or deal. A kind's blueprint supplies only what differs:
how its forms become typed actions and what its pages show."""
from __future__ import annotations

from typing import Callable

from flask import url_for

from ..errors import RuleError
from .common import FormError, SessionView, game_action, perform, refusal, see_other
from .i18n import t


def add(view: SessionView, kind: str, game: dict, on_error: Callable[[dict, int], object]):
    """Record a new game and go to it; a refusal brings the form back with the message."""
    location = url_for(f"{kind}.game", token=view.token, gi=len(view.games))
    try:
        perform(view, "add_game", {"game": game}, location)
    except RuleError as err:
        return on_error({"form": t(err.msg)}, refusal(err))
    return see_other(location)


def record(view: SessionView, gi: int, build: Callable[[], object], on_error: Callable[[dict, int], object],
           field_of: Callable[[str], str] = lambda path: path or "form", location: str | None = None):
    """Read a form into a typed action (``build`` raises FormError), record it, and go back to the game
    page; a refusal re-renders through ``on_error(errors, status)`` with the message beside its field."""
    rec = view.game(gi)
    location = location or url_for(f"{rec.kind}.game", token=view.token, gi=gi)
    try:
        action = build()
    except FormError as err:
        return on_error(err.errors, 422)
    try:
        game_action(view, gi, action, location)
    except RuleError as err:
        status = refusal(err)
        field = "at" if status == 409 else (field_of(err.path) or "form")
        return on_error({field: t(err.msg)}, status)
    return see_other(location)
