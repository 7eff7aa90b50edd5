"""Checks every kind's session-file validation shares: each raises RuleError with a generic code and the
JSON path of the problem. Numbers have bounds: a night's amounts must stay far below SQLite's 64-bit
integers (a stake of 10**19 is refused here, never overflowed later)."""
from __future__ import annotations

from companion.domain.errors import RuleError, join_path

MAX_COUNT = 1_000_000          # chips, stakes, points: far above any table, far below any overflow
MAX_MONEY = 10_000_000         # minor units of one chip, one unit or one stake (100,000.00)


def is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def need_int(value, path: str, minimum: int | None = 0, maximum: int = MAX_COUNT) -> int:
    if not is_int(value):
        raise RuleError("v.int", path, value=_shown(value))
    if minimum is not None and value < minimum:
        if minimum == 0:
            raise RuleError("v.negative", path, value=value)
        raise RuleError("v.int_min", path, min=minimum, value=value)
    if value > maximum:
        raise RuleError("v.int_max", path, max=maximum, value=_shown(value))
    return value


def need_index(value, count: int, which: str, no_such: str) -> int:
    """A 0-based index of one of ``count`` recorded items (a correction's ``index``): ``which`` is the
    message code of a value that is no index at all, ``no_such`` of one past the last item."""
    if not is_int(value) or value < 0:
        raise RuleError(which, "index")
    if value >= count:
        raise RuleError(no_such, "index", index=value, count=count)
    return value


def need_bool(value, path: str) -> bool:
    if not isinstance(value, bool):
        raise RuleError("v.bool", path, value=_shown(value))
    return value


def need_dict(value, path: str) -> dict:
    if not isinstance(value, dict):
        raise RuleError("v.object", path)
    return value


def need_list(value, path: str) -> list:
    if not isinstance(value, list):
        raise RuleError("v.list", path)
    return value


def check_keys(obj: dict, allowed, path: str) -> None:
    """Refuse unknown keys: a typo in paper notes must not vanish silently."""
    for key in obj:
        if key not in allowed:
            raise RuleError("v.unknown_key", join_path(path, key), key=_shown(key))


def need_choice(value, choices, path: str) -> str:
    if value not in choices:
        raise RuleError("v.choice", path, choices=", ".join(choices), value=_shown(value))
    return value


def need_seated(name, seats, path: str) -> str:
    if not isinstance(name, str) or name not in seats:
        raise RuleError("v.not_seated", path, name=_shown(name))
    return name


def need_seats(value, players, low: int, high: int, path: str = "seats") -> list[str]:
    """A list of distinct session players, ``low`` to ``high`` of them (``players`` None: not checked)."""
    need_list(value, path)
    out: list[str] = []
    for i, name in enumerate(value):
        p = join_path(path, i)
        if not isinstance(name, str) or not name.strip():
            raise RuleError("v.player_name", p)
        if players is not None and name not in players:
            raise RuleError("v.not_player", p, name=name)
        if name in out:
            raise RuleError("v.seated_twice", p, name=name)
        out.append(name)
    if not low <= len(out) <= high:
        raise RuleError("v.seats_count", path, low=low, high=high, count=len(out))
    return out


def name_list(value, seats, path: str) -> list[str]:
    """A list of distinct seated players (order kept)."""
    need_list(value, path)
    out: list[str] = []
    for i, name in enumerate(value):
        need_seated(name, seats, join_path(path, i))
        if name in out:
            raise RuleError("v.listed_twice", join_path(path, i), name=name)
        out.append(name)
    return out


def _shown(value) -> str:
    """A bad value as a person can read it, never a huge one."""
    if is_int(value) and value.bit_length() > 64:
        return "a number of %d bits" % value.bit_length()
    text = repr(value) if not isinstance(value, str) else f"“{value}”"
    return text if len(text) <= 40 else text[:37] + "…"
