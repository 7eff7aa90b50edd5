"""The one reader of whole numbers typed by a person or sent by a client: form fields, query strings
(``since``, ``page``, ``points``...), a table label's order, a key of a file. Pure: no Flask.

Accepted: ASCII digits ``0-9``, with one leading ``+`` or ``-`` only where the field allows a sign,
surrounded by nothing (the caller strips a form field's spaces first if it wants to). Refused: every
other digit Unicode knows (``²``, ``٣``, ``３``, ``①``: ``str.isdigit()`` accepts them and ``int()``
accepts some of them), underscores (``int("1_000")``), inner or (by default) outer spaces, and any
number outside the field's bounds. Never ``int()`` of a long text: more than ``MAX_DIGITS``
significant digits is "too large" without converting (Python refuses ``int()`` of 4,300 digits).

``parse_int(text, minimum, maximum, signed=False) -> int`` raises ``NumberRefused`` whose ``reason`` is
one of ``"blank"``, ``"not_int"``, ``"small"``, ``"large"``; ``int_or_none`` is the same without bounds
for ``request.args.get(name, type=...)`` (a refused value gives the default); ``is_ascii_int(text)``.
"""
from __future__ import annotations

import re

__all__ = ["NumberRefused", "parse_int", "int_or_none", "is_ascii_int", "MAX_DIGITS"]

MAX_DIGITS = 18                      # every bound of the app is far below 10**18 (SQLite's 64-bit integers)
_UNSIGNED = re.compile(r"[0-9]+", re.ASCII)
_SIGNED = re.compile(r"[+-]?[0-9]+", re.ASCII)


class NumberRefused(ValueError):
    """A text that is not a whole number within bounds (``reason``: blank, not_int, small, large)."""

    def __init__(self, reason: str, text: str):
        super().__init__(f"{reason}: {text[:20]!r}")
        self.reason = reason
        self.text = text


def is_ascii_int(text, signed: bool = False) -> bool:
    """Whether ``text`` is written in ASCII digits (with one optional sign when ``signed``)."""
    return isinstance(text, str) and (_SIGNED if signed else _UNSIGNED).fullmatch(text) is not None


def parse_int(text, minimum: int | None = None, maximum: int | None = None, *, signed: bool = False) -> int:
    """``text`` as an int within ``[minimum, maximum]`` (None: unbounded on that side, still at most
    ``MAX_DIGITS`` digits), or ``NumberRefused``."""
    if not isinstance(text, str) or text == "":
        raise NumberRefused("blank", "" if not isinstance(text, str) else text)
    if not is_ascii_int(text, signed):
        raise NumberRefused("not_int", text)
    negative = text[0] == "-"
    digits = text.lstrip("+-").lstrip("0")
    if len(digits) > MAX_DIGITS:
        raise NumberRefused("small" if negative else "large", text)
    value = -int(digits or "0") if negative else int(digits or "0")
    if minimum is not None and value < minimum:
        raise NumberRefused("small", text)
    if maximum is not None and value > maximum:
        raise NumberRefused("large", text)
    return value


def int_or_none(text) -> int:
    """For ``args.get(name, type=int_or_none)``: an unsigned ASCII whole number; anything else raises
    ValueError (Werkzeug then gives the default)."""
    return parse_int(text, 0)


def signed_int(text) -> int:
    """As ``int_or_none`` with an optional sign."""
    return parse_int(text, signed=True)
