"""The organizer's log (session-v1.md, ``log``): changes made to a closed result of a club night, in the
order made. It changes no score. Pure: checked here with the JSON path of the first problem."""
from __future__ import annotations

import re
from datetime import datetime

from companion.domain.errors import RuleError, join_path
from companion.kinds.validate import check_keys
from companion.domain.messages import N_, define
from companion.domain.text import clean

WHATS = ("removed", "reopened", "corrected", "clock_undone", "result_changed")
ENTRY_KEYS = ("at", "by", "what", "game", "note")
MAX_NOTE = 200
MAX_ENTRIES = 10_000
_AT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z")
_BY = re.compile(r"organizer|table .{1,20}", re.S)

define("log", {
    "list": N_("log must be a list of entries"),
    "entry": N_("a log entry is an object with at, by, what and game"),
    "at": N_("when, in UTC: 2026-11-20T22:41:07Z"),
    "by": N_("by is \"organizer\" or \"table\" and its label"),
    "what": N_("what must be one of %(known)s"),
    "game": N_("the index of a game of this session"),
    "note": N_("a note is text of 0 to %(max)s characters"),
})


def clean_at(raw, path: str) -> str:
    if not isinstance(raw, str) or not _AT.fullmatch(raw):
        raise RuleError("log.at", path)
    try:
        datetime.fromisoformat(raw[:19])
    except ValueError:
        raise RuleError("log.at", path) from None
    return raw


def clean_note(raw, path: str = "note") -> str:
    if not isinstance(raw, str):
        raise RuleError("log.note", path, max=MAX_NOTE)
    note = clean(raw, path).strip() if raw.strip() else ""
    if len(note) > MAX_NOTE:
        raise RuleError("log.note", path, max=MAX_NOTE)
    return note


def clean_entry(raw, path: str, games: int | None = None) -> dict:
    """One entry, canonical (keys in order, an empty note left out). ``games``: how many games the
    session had when it was made, when known (a file's own entries: any index that is a number)."""
    if not isinstance(raw, dict):
        raise RuleError("log.entry", path)
    check_keys(raw, ENTRY_KEYS, path)
    for key in ("at", "by", "what", "game"):
        if key not in raw:
            raise RuleError("log.entry", join_path(path, key))
    out = {"at": clean_at(raw["at"], join_path(path, "at"))}
    by = raw["by"]
    if not isinstance(by, str) or not _BY.fullmatch(by) or (by != "organizer" and by[6:] != by[6:].strip()):
        raise RuleError("log.by", join_path(path, "by"))
    out["by"] = by
    if raw["what"] not in WHATS:
        raise RuleError("log.what", join_path(path, "what"), known=", ".join(WHATS))
    out["what"] = raw["what"]
    game = raw["game"]
    if (not isinstance(game, int) or isinstance(game, bool) or game < 0 or game > 100_000
            or (games is not None and game >= games)):
        raise RuleError("log.game", join_path(path, "game"))
    out["game"] = game
    if raw.get("note") is not None:
        note = clean_note(raw["note"], join_path(path, "note"))
        if note:
            out["note"] = note
    return out


def clean_log(raw, path: str = "log") -> list[dict]:
    if not isinstance(raw, list) or len(raw) > MAX_ENTRIES:
        raise RuleError("log.list", path)
    return [clean_entry(e, f"{path}[{i}]") for i, e in enumerate(raw)]
