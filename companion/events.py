"""Events: what a tap becomes. Pure: a session document and one event in, the next document out.

Event types (payloads are JSON objects):
- ``create``      {"doc": session document}        the first event of every session (new or imported)
- ``rename``      {"name": str}
- ``add_player``  {"name": str}
- ``add_game``    {"game": game object}             appended as the last game
- ``game``        {"game": index, "action": {...}}  one rule action, through the kind's ``apply``
- ``banker``      {"banker": name or null}          settle in banker mode, or not
- ``paid``        {"payment": {from, to, amount}, "paid": bool}
- ``undo``        {"target": seq}                   the last effective event of one game is taken back

Undo is scoped to one game: its target is the game's last effective event (a ``game`` action, or the
``add_game`` of the session's last game while it has no action). ``replay`` recomputes everything from
the effective events, so the store's cached document can always be checked against it.
"""
from __future__ import annotations

import copy

from . import kinds
from .rules.errors import RuleError
from .sessionfile import (MAX_PLAYERS, clean_name, clean_session_name, normalize_game, normalize_session,
                          same_player)

UNDOABLE = ("game", "add_game")


def apply_event(doc: dict | None, etype: str, payload: dict) -> dict:
    """The document after one event. Raises RuleError when the event is not legal on ``doc``."""
    if etype == "create":
        return normalize_session(payload["doc"])
    assert doc is not None, "a session starts with a create event"
    new = copy.deepcopy(doc)
    if etype == "rename":
        new["name"] = clean_session_name(payload["name"])
    elif etype == "add_player":
        name = clean_name(payload["name"], "name")
        same = same_player(name, new["players"])
        if same is not None:
            raise RuleError(f"{name} is already playing" if same == name else f"{same} is already playing", "name")
        if len(new["players"]) >= MAX_PLAYERS:
            raise RuleError(f"a session has at most {MAX_PLAYERS} players", "name")
        new["players"].append(name)
    elif etype == "add_game":
        new["games"].append(normalize_game(payload["game"], new["players"], "game"))
    elif etype == "game":
        gi = payload["game"]
        if not 0 <= gi < len(new["games"]):
            raise RuleError("there is no such game in this session")
        game = new["games"][gi]
        new["games"][gi] = kinds.get(game["kind"]).apply(game, payload["action"])
    elif etype == "banker":
        settle = dict(new.get("settle", {}))
        if payload.get("banker"):
            if payload["banker"] not in new["players"]:
                raise RuleError("the banker must be a player of this session", "banker")
            settle["banker"] = payload["banker"]
        else:
            settle.pop("banker", None)
        _set_settle(new, settle)
    elif etype == "paid":
        settle = dict(new.get("settle", {}))
        paid = [p for p in settle.get("paid", []) if p != payload["payment"]]
        if payload.get("paid"):
            paid.append(payload["payment"])
        settle["paid"] = paid
        _set_settle(new, settle)
    else:
        raise ValueError(f"unknown event type {etype!r}")
    return new


def _set_settle(doc: dict, settle: dict) -> None:
    settle = {k: v for k, v in settle.items() if v}
    if settle:
        doc["settle"] = settle
    else:
        doc.pop("settle", None)


def game_of(etype: str, payload: dict, game_count_before: int | None = None) -> int | None:
    """Which game an event belongs to (for undo), or None for session-level events."""
    if etype == "game":
        return payload["game"]
    if etype == "add_game" and game_count_before is not None:
        return game_count_before
    return None


def replay(events: list[tuple[int, str, dict]]) -> dict:
    """The document from (seq, type, payload) events, undone ones left out, every action re-applied."""
    undone = {p["target"] for _, t, p in events if t == "undo"}
    doc = None
    for seq, etype, payload in events:
        if etype == "undo" or seq in undone:
            continue
        doc = apply_event(doc, etype, payload)
    return doc
