"""Web pieces the chip games (Newmarket, Desmoche) share: numbers and money read from a form with a
message beside the field (never a 500), seat pickers, money shown in the session currency, and one
rule action written with Post/Redirect/Get (422 beside the field, 409 when another phone was first).

Not a blueprint: ``companion.web.newmarket`` and ``companion.web.desmoche`` import it.
"""
from __future__ import annotations

import re

from flask import url_for

from .. import money
from ..rules.errors import RuleError
from ..store import Conflict
from .common import SessionView, game_action, open_session, perform, see_other

INT_RE = re.compile(r"[+-]?[0-9]{1,9}")
MAX_INT = 999_999_999


class FieldErrors(Exception):
    """Raised by a form reader: {field: message}, nothing is written."""

    def __init__(self, errors: dict[str, str]):
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = errors


def currency(view: SessionView) -> str:
    return view.doc.get("currency", "EUR")


def read_int(form, name: str, errors: dict, *, minimum: int | None = 0, default=None, required: bool = False,
             what: str = "a whole number"):
    """A whole number typed in a form field. Blank gives ``default`` (or an error when ``required``);
    anything else that is not a whole number >= minimum puts a message in ``errors[name]``."""
    raw = form.get(name, "")
    text = raw.strip() if isinstance(raw, str) else ""
    if not text:
        if required:
            errors.setdefault(name, f"Type {what}.")
        return default
    if not INT_RE.fullmatch(text):
        shown = text if len(text) <= 20 else text[:20] + "…"
        errors.setdefault(name, f"“{shown}” is not {what}: use digits, like 3.")
        return default
    value = int(text)
    if minimum is not None and value < minimum:
        errors.setdefault(name, "Cannot be negative." if minimum == 0 else f"Must be at least {minimum}.")
        return default
    if value > MAX_INT:
        errors.setdefault(name, "That number is too large.")
        return default
    return value


def read_money(form, name: str, code: str, errors: dict, default=None):
    """An amount typed in the session currency ("0.10") -> minor units (10), >= 0."""
    raw = form.get(name, "")
    text = raw.strip() if isinstance(raw, str) else ""
    if not text:
        return default
    try:
        value = money.parse_amount(text, code)
    except ValueError as err:
        errors.setdefault(name, str(err))
        return default
    if value < 0:
        errors.setdefault(name, "Cannot be negative.")
        return default
    if value > MAX_INT:
        errors.setdefault(name, "That amount is too large.")
        return default
    return value


def money_input(minor: int, code: str) -> str:
    """Minor units written for a form field, without the symbol: 10 EUR cents -> "0.10"."""
    places = money.decimals(code)
    if not places:
        return str(minor)
    whole, frac = divmod(abs(minor), 10 ** places)
    return ("-" if minor < 0 else "") + f"{whole}.{str(frac).zfill(places)}"


def default_unit(code: str) -> int:
    """A sensible default value of one chip: 10 cents, 10 yen."""
    return 10


def fmt_money(minor: int, code: str, plus: bool = False) -> str:
    return money.format_amount(int(minor), code, plus=plus)


def signed(n: int) -> str:
    """+3, −2, 0 (a real minus sign: readable at arm's length)."""
    if n > 0:
        return f"+{n}"
    if n < 0:
        return f"−{-n}"
    return "0"


def seat_defaults(players: list[str], high: int) -> list[str]:
    """The seat pickers' starting values: the session's players in order, up to ``high``."""
    return list(players[:high]) + [""] * max(0, high - len(players))


def posted_seats(form, high: int) -> list[str]:
    return [form.get(f"seat{i}", "") for i in range(high)]


def only_one(form, name: str, errors: dict, message: str) -> str | None:
    """The single value of a radio field; two values (a crafted form) is an error, not a guess."""
    values = [v for v in form.getlist(name) if v != ""]
    if len(values) > 1:
        errors.setdefault(name, message)
        return None
    return values[0] if values else None


def template_helpers() -> dict:
    return {"signed": signed, "fmt_money": fmt_money, "money_input": money_input}


def write_action(view: SessionView, gi: int, action: dict, location: str, on_error, field_of=None):
    """Record one rule action on game ``gi``; on refusal re-render through ``on_error(view, errors,
    status)`` with the message beside its field (``field_of(path)`` maps the engine's path to a field)."""
    try:
        game_action(view, gi, action, location)
    except RuleError as err:
        path = err.path or ""
        status = 409 if isinstance(err, Conflict) or path == "at" else 422
        if path == "at":
            field = "at"
        else:
            field = field_of(path) if field_of else (path or "form")
        fresh = open_session(view.token)
        return on_error(fresh, {field or "form": err.message}, status)
    return see_other(location)


def add_game(view: SessionView, kind: str, game: dict, new_page, form):
    """Record a new game (already normalised by the page) and go to it; a refusal (another phone changed
    the players meanwhile) brings the form back with the message."""
    location = url_for(f"{kind}.game", token=view.token, gi=len(view.doc["games"]))
    try:
        perform(view, "add_game", {"game": game}, location)
    except RuleError as err:
        return new_page(open_session(view.token), form, {"form": err.message}, 422)
    return see_other(location)


def path_head(path: str) -> str:
    """First segment of an engine path: 'cards_left.Ane' -> 'cards_left', 'arriba[0]' -> 'arriba'."""
    return re.split(r"[.\[]", path, maxsplit=1)[0] if path else ""


def form_dict(form) -> dict:
    """A posted form as a plain dict of first values (what the engines' new_game read)."""
    return {k: form.get(k) for k in form.keys()}
