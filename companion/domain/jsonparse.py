"""The one place where a session file's bytes become a JSON value (web import, archive import, command line).

``parse_document`` either returns what ``json.loads`` would return, or raises ``RuleError`` (codes ``file.*``)
with the JSON path of the first problem. Nothing else escapes: not ``UnicodeDecodeError``, not
``JSONDecodeError``, not ``RecursionError``, not the ``ValueError`` Python raises for a >4300-digit integer.

Refused: bytes that are not UTF-8 (one leading BOM is fine), an empty file, more than ``max_bytes``, more than
``max_values`` values (counted before anything is built: a value costs far more in memory than its text, an
empty list 64 bytes for its 3 characters ``[],``), invalid or
truncated JSON, nesting deeper than ``max_depth``, integers of more than 20 digits or outside SQLite's 64-bit
range, NaN and the infinities (also a float that overflows), lone surrogates in strings and keys, NUL in keys,
duplicate keys.

The decoder's hooks cannot know where they are, so they leave sentinel objects in the result (``_Bad`` for a
number: the first one with its message, every later one the same shared ``_LATER``, since the hooks are
called in document order and only the first is ever named; ``_Pairs`` for an object with a duplicate key); one iterative walk in document order then finds the
first problem (sentinel, too deep, bad string or key) and names its path. Syntax errors and the decoder's
``RecursionError`` are placed by a small tokenizer over the text (``_locate``), also without recursion.

Paths: ``$`` is the whole document; otherwise ``games[0].hands[3].grande[2]``, ``players[1]``,
``settle.paid[0].amount``; a key that is not identifier-like is written ``games[0]["odd key"]`` (JSON-quoted,
unprintable characters escaped, cut to 60 characters with "…").
"""
from __future__ import annotations

import json
import re
import sys
from math import isfinite
from typing import Any

from companion.domain.errors import RuleError
from companion.domain.messages import N_, define

MAX_BYTES = 8 * 1024 * 1024
# values, object members and array elements (``count_values``): a session file is limited to 45,000 objects
# (companion.archive), a few values each; the heaviest 8 MB file under this limit costs about 5 times its size
MAX_VALUES = 300_000
MAX_DEPTH = 64
MAX_INT_DIGITS = 20
INT_MIN, INT_MAX = -2**63, 2**63 - 1  # SQLite's INTEGER
_KEY_SHOWN = 60  # longer keys are cut in paths and messages
_VALUE_SHOWN = 30

define("file", {
    "empty": N_("the file is empty: choose a session file (.json)"),
    "too_large": N_("the file is too large (%(size)s bytes, at most %(max)s): import fewer sessions at a time"),
    "too_many_values": N_("the file holds too many values (about %(count)s, at most %(max)s): this is not a "
                          "session file"),
    "not_utf8": N_("not UTF-8 text at byte %(offset)s (line %(line)s): save the file as UTF-8"),
    "syntax": N_("not valid JSON at line %(line)s, column %(column)s (%(reason)s): correct it there"),
    "truncated": N_("the file ends too early (line %(line)s, column %(column)s): it was cut off, export it "
                    "again"),
    "deep": N_("nested more than %(max)s levels deep: this is not a session file"),
    "int_digits": N_("a number of %(digits)s digits is too long (at most 20): write a smaller number"),
    "int_range": N_("%(value)s is out of range: whole numbers go from %(min)s to %(max)s"),
    "float_range": N_("%(value)s is too large for a number: write a smaller number"),
    "not_a_number": N_("%(value)s is not a number JSON allows: write a number or null"),
    "surrogate": N_("this text holds a lone surrogate (a broken \\u escape): remove it"),
    "key_surrogate": N_("key %(key)s holds a lone surrogate (a broken \\u escape): rename it"),
    "key_nul": N_("key %(key)s holds a NUL character: rename it"),
    "duplicate_key": N_("key %(key)s appears twice in this object: keep only one"),
})

_BOM = "\ufeff"
_JSON_SPACE = " \t\n\r"
_SURROGATE = re.compile("[\ud800-\udfff]")
_PLAIN_KEY = re.compile(r"[^\W\d]\w*\Z")  # identifier-like: letters, digits, _; not a digit first


class _Bad:
    """Left in the decoded value where a number or constant is refused."""
    __slots__ = ("code", "params")

    def __init__(self, code: str, **params):
        self.code = code
        self.params = params


class _Pairs:
    """Left in the decoded value for an object with a duplicate key (a dict would lose the duplicate)."""
    __slots__ = ("pairs",)

    def __init__(self, pairs):
        self.pairs = pairs


class _KeyProblem:
    """Yielded by ``_members`` in place of a member whose key is refused."""
    __slots__ = ("code",)

    def __init__(self, code: str):
        self.code = code


def _shown(text: str, limit: int = _VALUE_SHOWN) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


_LATER = _Bad("file.later")  # every refused number after the first: the walk stops at the first


class _Numbers:
    """The decoder's number hooks for one document: the first refused number gets its own ``_Bad`` (with
    its message), every later one the shared ``_LATER`` (hooks run in document order, so a later one is
    never the first problem): a file of a million ``1e999`` costs a million pointers, not a million
    messages."""
    __slots__ = ("refused",)

    def __init__(self):
        self.refused = False

    def bad(self, code: str, **params):
        if self.refused:
            return _LATER
        self.refused = True
        return _Bad(code, **params)

    def parse_int(self, text: str):
        digits = len(text) - (text[0] == "-")
        if digits > MAX_INT_DIGITS:  # never int() it: > 4300 digits raises ValueError, and it is refused anyway
            return self.bad("file.int_digits", digits=digits)
        n = int(text)
        if n < INT_MIN or n > INT_MAX:
            return self.bad("file.int_range", value=text, min=str(INT_MIN), max=str(INT_MAX))
        return n

    def parse_float(self, text: str):
        f = float(text)
        if isfinite(f):
            return f
        return self.bad("file.float_range", value=_shown(text))

    def parse_constant(self, text: str):  # NaN, Infinity, -Infinity
        return self.bad("file.not_a_number", value=text)


def _object(pairs):
    d = dict(pairs)
    return d if len(d) == len(pairs) else _Pairs(pairs)


def quote_key(key: str) -> str:
    """A key as written in a path or a message: JSON-quoted, unprintable characters escaped, cut if long."""
    out = []
    for c in json.dumps(_shown(key, _KEY_SHOWN), ensure_ascii=False):
        if c.isprintable():
            out.append(c)
        else:
            o = ord(c)
            if o > 0xFFFF:
                o -= 0x10000
                out.append(f"\\u{0xD800 | (o >> 10):04x}\\u{0xDC00 | (o & 0x3FF):04x}")
            else:
                out.append(f"\\u{o:04x}")
    return "".join(out)


def format_path(parts) -> str:
    """``["games", 0, "hands"]`` -> ``games[0].hands``; ``[]`` -> ``$``."""
    out = []
    for p in parts:
        if p.__class__ is int:
            out.append(f"[{p}]")
        elif len(p) <= _KEY_SHOWN and _PLAIN_KEY.match(p):
            out.append(f".{p}" if out else p)
        else:
            out.append(f"[{quote_key(p)}]")
    return "".join(out) or "$"


def _members(obj):
    """(key, value) of an object in document order; a refused key gives (key, _KeyProblem)."""
    if obj.__class__ is dict:
        seen = None
        pairs = obj.items()
    else:
        seen = set()
        pairs = obj.pairs
    for k, v in pairs:
        if "\x00" in k:
            yield k, _KeyProblem("file.key_nul")
            return
        elif not k.isascii() and _SURROGATE.search(k):
            yield k, _KeyProblem("file.key_surrogate")
            return
        elif seen is not None:
            if k in seen:
                yield k, _KeyProblem("file.duplicate_key")
                return
            seen.add(k)
        yield k, v


def _first_problem(root, max_depth: int):
    """The first problem in document order, as (path parts, code, params), or None. Iterative."""
    parts: list = []  # path of `value`: one entry per open container (its current key or index)
    iters: list = []
    value = root
    while True:
        cls = value.__class__
        if cls is str:
            if not value.isascii() and _SURROGATE.search(value):
                return parts, "file.surrogate", {}
        elif cls is list or cls is dict or cls is _Pairs:
            if len(iters) >= max_depth:
                return parts, "file.deep", {"max": max_depth}
            iters.append(enumerate(value) if cls is list else _members(value))
            parts.append(None)
        elif cls is _Bad:
            return parts, value.code, value.params
        elif cls is _KeyProblem:  # the object's path; the key is named in the message
            return parts[:-1], value.code, {"key": quote_key(parts[-1])}
        while iters:  # the next value in document order
            for parts[-1], value in iters[-1]:
                break
            else:
                iters.pop()
                parts.pop()
                continue
            break
        else:
            return None


_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'
_WS = r'[ \t\n\r]*'
_TOKEN = re.compile(rf'{_WS}(?:"[^"\\]*(?:\\.[^"\\]*)*(")?|[\[\]{{}},:]|[^"\[\]{{}},: \t\n\r]+)', re.S)
_STRINGS = re.compile(_STRING, re.S)
# What cannot hold the path is skipped in one C-speed match (possessive: linear, no backtracking). A flat
# container (no container inside) counts as one element; in a deepest container, there is none to skip.
_FLAT = rf'\[[^"\[\]{{}}]*+(?:{_STRING}[^"\[\]{{}}]*+)*+\]|\{{[^"\[\]{{}}]*+(?:{_STRING}[^"\[\]{{}}]*+)*+\}}'
_SCALAR = r'[^"\[\]{},: \t\n\r]++'
_ELEMENTS = re.compile(rf'[^"\[\]{{}}:]*+(?:{_STRING}[^"\[\]{{}}:]*+)*+', re.S)  # in an array: no containers
_ELEMENTS_FLAT = re.compile(rf'[^"\[\]{{}}:]*+(?:(?:{_STRING}|{_FLAT})[^"\[\]{{}}:]*+)*+', re.S)
_VALUE_SIMPLE = rf'(?:{_STRING}|{_SCALAR}|{_FLAT})'
# Complete members of an object, each with its comma; then the last one, if any (its key is the path).
_MEMBERS = re.compile(rf'(?:{_WS}{_STRING}{_WS}:{_WS}{_VALUE_SIMPLE}{_WS},)*+'
                      rf'(?:{_WS}({_STRING}){_WS}:{_WS}{_VALUE_SIMPLE}{_WS}(?=[}},]))?', re.S)
_BARE_FLAT = re.compile(r'\[[^\[\]{}]*\]|\{[^\[\]{}]*\}')
_KEY, _COLON, _VALUE, _AFTER = range(4)
_LOCATE_STEPS = 400_000  # then give up naming a path (about half a second): line and column still say where


def _locate(text: str, end: int, max_depth: int):
    """Follow the structure of ``text[:end]`` (valid JSON so far, or anything: never fails), iteratively.

    Returns ``("deep", parts, depth)`` at the first container deeper than ``max_depth`` (its path), else
    ``("at", parts, deepest)``: the path of the value being read at ``end`` and the greatest depth seen; or
    ``("unknown", [], deepest)`` when the structure is too intricate to follow in reasonable time.
    """
    in_object: list[bool] = []
    parts: list = []  # object: its current key (None while expecting one); array: current index
    states: list[int] = []
    deepest = 0
    pos = 0
    for _ in range(_LOCATE_STEPS):
        if states and (states[-1] == _VALUE if not in_object[-1] else states[-1] == _KEY):
            flat_ok = len(states) < max_depth
            if in_object[-1]:
                run = _MEMBERS.match(text, pos, end) if flat_ok else None
            else:
                run = (_ELEMENTS_FLAT if flat_ok else _ELEMENTS).match(text, pos, end)
            if run and run.end() > pos:
                pos = run.end()
                bare = _STRINGS.sub('""', run.group())
                if flat_ok and ("[" in bare or "{" in bare):
                    deepest = max(deepest, len(states) + 1)
                    bare = _BARE_FLAT.sub("0", bare)
                if in_object[-1]:
                    if run.group(1) is not None:  # the last member, without its comma yet
                        parts[-1] = _key(run.group(1))
                        states[-1] = _AFTER
                else:
                    parts[-1] += bare.count(",")
                    tail = bare.rstrip(_JSON_SPACE)
                    if tail and tail[-1] != ",":
                        states[-1] = _AFTER
        m = _TOKEN.match(text, pos, end)
        if m is None:
            break
        pos = m.end()
        tok = m.group().lstrip(_JSON_SPACE)
        c = tok[0]
        if c in "[{":
            if len(states) >= max_depth:
                return "deep", _path_parts(in_object, parts, states), len(states) + 1
            if states:
                states[-1] = _AFTER  # the parent's value: done once this container closes
            in_object.append(c == "{")
            parts.append(None if c == "{" else 0)
            states.append(_KEY if c == "{" else _VALUE)
            deepest = max(deepest, len(states))
        elif c in "]}":
            if states:
                in_object.pop()
                parts.pop()
                states.pop()
        elif c == ",":
            if states:
                if in_object[-1]:
                    parts[-1] = None
                    states[-1] = _KEY
                else:
                    parts[-1] += 1
                    states[-1] = _VALUE
        elif c == ":":
            if states and in_object[-1]:
                states[-1] = _VALUE
        elif c == '"' and m.group(1) is None:  # a string cut at `end`
            break
        elif states and in_object[-1] and states[-1] == _KEY and c == '"':
            parts[-1] = _key(tok)
            states[-1] = _COLON
        elif states:
            states[-1] = _AFTER
    else:
        return "unknown", [], deepest
    return "at", _path_parts(in_object, parts, states), deepest


def _key(token: str) -> str:
    try:
        return json.loads(token)
    except ValueError:  # not JSON after all (the part of a file before a byte that is not UTF-8)
        return token[1:-1]


def _path_parts(in_object, parts, states):
    return [p for obj, p, s in zip(in_object, parts, states) if not (obj and (s == _KEY or p is None))]


def count_values(data: bytes | str) -> int:
    """An upper bound of the values, members and elements in a JSON text (a ``,`` ``[`` or ``{`` inside a
    string counts too): each but the first follows a comma or opens a container. C speed, nothing built."""
    if isinstance(data, bytes):
        return data.count(b",") + data.count(b"[") + data.count(b"{") + 1
    return data.count(",") + data.count("[") + data.count("{") + 1


def parse_document(data: bytes | str, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH,
                   max_values: int = MAX_VALUES) -> Any:
    """A session file's bytes (or text) as a JSON value, or ``RuleError`` naming the path of the first problem."""
    if isinstance(data, (bytearray, memoryview)):
        data = bytes(data)
    if isinstance(data, bytes):
        if len(data) > max_bytes:
            raise RuleError("file.too_large", "$", size=len(data), max=max_bytes)
        if (count := count_values(data)) > max_values:
            raise RuleError("file.too_many_values", "$", count=count, max=max_values)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise _not_utf8(data, err.start, max_depth) from None
    elif isinstance(data, str):
        text = data
        size = len(text) if len(text) > max_bytes else len(text.encode("utf-8", "surrogatepass"))
        if size > max_bytes:
            raise RuleError("file.too_large", "$", size=size, max=max_bytes)
        if (count := count_values(text)) > max_values:
            raise RuleError("file.too_many_values", "$", count=count, max=max_values)
    else:
        raise TypeError(f"parse_document takes bytes or str, not {type(data).__name__}")
    if text.startswith(_BOM):
        text = text[1:]
    if not text.strip(_JSON_SPACE):
        raise RuleError("file.empty", "$")

    numbers = _Numbers()
    decoder = json.JSONDecoder(object_pairs_hook=_object, parse_int=numbers.parse_int,
                               parse_float=numbers.parse_float, parse_constant=numbers.parse_constant)
    try:
        value = decoder.decode(text)
    except json.JSONDecodeError as err:
        raise _syntax(text, err, max_depth) from None
    except RecursionError:
        raise _too_deep(text, max_depth) from None
    problem = _first_problem(value, max_depth)
    if problem is not None:
        parts, code, params = problem
        raise RuleError(code, format_path(parts), **params)
    return value


def _not_utf8(data: bytes, offset: int, max_depth: int) -> RuleError:
    line = data.count(b"\n", 0, offset) + 1
    path = "$"
    prefix = data[:offset].decode("utf-8").lstrip(_BOM + _JSON_SPACE)
    if prefix[:1] in ("{", "["):  # it looks like JSON up to there: say where (a Latin-1 name, say)
        found, parts, _ = _locate(prefix, len(prefix), max_depth)
        if found == "at":
            path = format_path(parts)
    return RuleError("file.not_utf8", path, offset=offset, line=line)


def _syntax(text: str, err: json.JSONDecodeError, max_depth: int) -> RuleError:
    found, parts, _ = _locate(text, err.pos, max_depth)
    if found == "deep":  # nesting too deep comes first in the document
        return RuleError("file.deep", format_path(parts), max=max_depth)
    rest = text[err.pos:].rstrip(_JSON_SPACE)
    # these are the json module's own messages (its word for a \\u escape cut short included)
    truncated = (not rest and err.msg.startswith("Expecting") or err.msg.startswith("Unterminated string")
                 or err.msg.startswith("Invalid \\uXXXX escape") and len(rest) < 6 and '"' not in rest)
    if truncated:
        return RuleError("file.truncated", format_path(parts), line=err.lineno, column=err.colno)
    return RuleError("file.syntax", format_path(parts), line=err.lineno, column=err.colno, reason=err.msg)


def _too_deep(text: str, max_depth: int) -> RuleError:
    """The decoder ran out of recursion: name the first container deeper than max_depth (or, if max_depth is
    beyond what the decoder can reach, the first at the greatest depth, saying how deep can be read)."""
    limit = min(max_depth, sys.getrecursionlimit())
    found, parts, deepest = _locate(text, len(text), limit)
    if found == "at":
        limit = max(deepest - 1, 0)
        found, parts, _ = _locate(text, len(text), limit)
    return RuleError("file.deep", format_path(parts) if found == "deep" else "$", max=limit)
