"""Small helpers shared by the chip-counting rule modules (newmarket, desmoche).

Pure standard library. Paths follow ``errors.RuleError``: ``join("deals[1]", "card")`` ->
``deals[1].card``; ``join("", "card")`` -> ``card``; ``join("hands", 3)`` -> ``hands[3]``.
"""
from __future__ import annotations

import hashlib
import json
import re

from .errors import RuleError

STALE = "Already recorded from another phone: reload to see the latest state"

TRUE_WORDS = {"1", "true", "on", "yes", "y", "si", "sí"}
FALSE_WORDS = {"", "0", "false", "off", "no", "n"}


def join(path: str, key) -> str:
    """Extend a JSON path by a key (str) or an index (int)."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else str(key)


def is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def need_int(value, path: str, minimum: int | None = 0, what: str = "a whole number") -> int:
    """A JSON integer (not bool), >= minimum."""
    if not is_int(value):
        raise RuleError(f"must be {what}, not {value!r}", path)
    if minimum is not None and value < minimum:
        if minimum == 0:
            raise RuleError(f"cannot be negative ({value})", path)
        raise RuleError(f"must be at least {minimum} ({value})", path)
    return value


def to_int(value, path: str, minimum: int | None = 0) -> int:
    """Lenient integer for UI actions and forms: an int, or a string of digits (posted)."""
    if isinstance(value, str):
        text = value.strip()
        if not re.fullmatch(r"[+-]?\d+", text):
            raise RuleError(f"must be a whole number, not {value!r}", path)
        value = int(text)
    return need_int(value, path, minimum)


def need_bool(value, path: str) -> bool:
    if not isinstance(value, bool):
        raise RuleError(f"must be true or false, not {value!r}", path)
    return value


def to_bool(value, path: str) -> bool:
    """Lenient boolean for forms: on/true/1/yes or off/false/0/no/blank."""
    if isinstance(value, bool):
        return value
    if value is None:
        return False
    text = str(value).strip().lower()
    if text in TRUE_WORDS:
        return True
    if text in FALSE_WORDS:
        return False
    raise RuleError(f"must be yes or no, not {value!r}", path)


def need_dict(value, path: str) -> dict:
    if not isinstance(value, dict):
        raise RuleError("must be an object", path)
    return value


def need_list(value, path: str) -> list:
    if not isinstance(value, list):
        raise RuleError("must be a list", path)
    return value


def check_keys(obj: dict, allowed, path: str) -> None:
    """Refuse unknown keys (a typo in paper notes must not vanish silently)."""
    for key in obj:
        if key not in allowed:
            raise RuleError(f"unknown key {key!r}", join(path, key) if isinstance(key, str) else path)


def need_choice(value, choices, path: str) -> str:
    if value not in choices:
        raise RuleError(f"must be one of {', '.join(choices)}, not {value!r}", path)
    return value


def need_seated(name, seats, path: str) -> str:
    if not isinstance(name, str) or name not in seats:
        raise RuleError(f"{name!r} is not seated at this game", path)
    return name


def need_seats(value, players, low: int, high: int, path: str = "seats") -> list[str]:
    """A list of distinct session players, low..high of them."""
    need_list(value, path)
    out: list[str] = []
    for i, name in enumerate(value):
        p = join(path, i)
        if not isinstance(name, str) or not name.strip():
            raise RuleError("must be a player's name", p)
        name = name.strip()
        if name not in players:
            raise RuleError(f"{name!r} is not a player of this session", p)
        if name in out:
            raise RuleError(f"{name!r} is seated twice", p)
        out.append(name)
    if not low <= len(out) <= high:
        raise RuleError(f"needs {low} to {high} players, not {len(out)}", path)
    return out


def name_list(value, seats, path: str) -> list[str]:
    """A list of distinct seated players (order kept)."""
    need_list(value, path)
    out: list[str] = []
    for i, name in enumerate(value):
        need_seated(name, seats, join(path, i))
        if name in out:
            raise RuleError(f"{name!r} is listed twice", join(path, i))
        out.append(name)
    return out


def form_seats(players, form: dict, high: int) -> list:
    """Seats from a form: ``seats`` (comma-separated names, in order) or ``seat0``..``seat{high-1}``
    (blank ones skipped)."""
    raw = form.get("seats")
    if isinstance(raw, list):
        names = [str(x).strip() for x in raw]
    elif isinstance(raw, str) and raw.strip():
        names = [x.strip() for x in raw.split(",") if x.strip()]
    else:
        names = [str(form.get(f"seat{i}", "")).strip() for i in range(high)]
        names = [x for x in names if x]
    return names


def form_value(form: dict, field: str):
    """A posted value, None when absent or blank."""
    value = form.get(field)
    if value is None:
        return None
    if isinstance(value, str) and not value.strip():
        return None
    return value


def form_int(form: dict, field: str, default, minimum: int = 0):
    value = form_value(form, field)
    if value is None:
        return default
    return to_int(value, field, minimum)


def position_token(game: dict) -> str:
    """A short token that changes whenever the (normalized) game object changes."""
    text = json.dumps(game, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


def check_at(action: dict, token: str) -> None:
    if "at" in action and action["at"] is not None and action["at"] != token:
        raise RuleError(STALE, "at")


def reprefix(err: RuleError, old: str, new: str) -> RuleError:
    """Re-root an error's path: ``deals[2].card`` with old ``deals[2]``, new ``deal`` -> ``deal.card``."""
    path = err.path
    if path == old:
        return RuleError(err.message, new)
    if path.startswith(old + ".") or path.startswith(old + "["):
        rest = path[len(old):]
        if rest.startswith(".") and not new:
            rest = rest[1:]
        return RuleError(err.message, new + rest)
    return err


def plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"
