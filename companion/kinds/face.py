"""What a kind's web face (its ``blueprint.py`` and the modules it imports) may use of the web layer, and nothing
else. The web layer implements :class:`Face` (``companion/web/face.py``) and installs it before it imports
any kind's blueprint, so the kinds stay below ``web/`` in the import graph: a kind names here what it
needs; ``web/`` decides how it is done (CONTRACT.md, "The web face")."""
from __future__ import annotations

from typing import Any, Callable, Protocol


class Face(Protocol):
    """Every name a kind's routes use, grouped as in ``companion/web``."""
    # a session opened by its link, rendering, answers (web/common.py)
    FormError: type
    open_session: Callable[..., Any]          # token -> SessionView (404 when no such link)
    require_edit: Callable[..., Any]          # token -> SessionView that may score (403 otherwise)
    render: Callable[..., Any]                # template, view, region=, status=, **ctx -> response
    see_other: Callable[[str], Any]           # 303 to a location
    unchanged_poll: Callable[..., Any]        # view -> the "nothing new" answer of a live poll, or None
    perform: Callable[..., Any]               # view, event type, payload, location -> store.Written
    refusal: Callable[..., int]               # RuleError -> HTTP status
    # a game's pages and writes (web/games.py)
    show: Callable[..., Any]
    new_game: Callable[..., Any]
    record: Callable[..., Any]
    correction: Callable[..., Any]
    at_of: Callable[..., Any]
    done_toast: Callable[..., Any]
    priced: Callable[..., Any]
    # form fields read in one way (web/forms.py)
    read_int: Callable[..., Any]
    read_money: Callable[..., Any]
    money_input: Callable[..., str]
    only_one: Callable[..., Any]
    signed: Callable[[int], str]
    template_helpers: Callable[[], dict]
    # the reader's language (web/i18n.py)
    t: Callable[..., str]
    fmt_money: Callable[..., str]


_installed: Face | None = None


def install(face: Face) -> None:
    global _installed
    _installed = face


def web() -> Face:
    if _installed is None:
        raise RuntimeError("the web layer installs the kinds' face before it imports a blueprint "
                           "(companion/web/__init__.py: register)")
    return _installed


def __getattr__(name: str):
    """``from companion.kinds.face import record, render``: a blueprint imports the members it uses by name,
    bound to the installed face (one import line instead of a copy of the bindings in every kind)."""
    if name in Face.__annotations__:
        return getattr(web(), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r} (a kind's new need is a new member "
                         "of Face, companion/kinds/face.py)")
