"""The session file (companion-session/1) and the state it computes (companion-state/1).

Pure: no Flask, no SQLite. ``normalize_session`` validates a whole document and names the JSON path of the
first problem; ``compute_state`` derives every number from it through the game kinds' rule modules.
"""
from __future__ import annotations

import copy
import re
from datetime import datetime

from . import kinds
from .rules.errors import RuleError
from .summary import player_key

FORMAT = "companion-session/1"
STATE_FORMAT = "companion-state/1"
MAX_NAME = 40
MIN_PLAYERS, MAX_PLAYERS = 2, 8
SESSION_KEYS = {"format", "name", "started", "currency", "players", "games", "settle"}


def clean_name(raw, path: str) -> str:
    """A player's name: trimmed, non-empty, at most 40 characters, any script."""
    if not isinstance(raw, str):
        raise RuleError("a name must be text", path)
    name = " ".join(raw.split())
    if not name:
        raise RuleError("a name cannot be empty", path)
    if len(name) > MAX_NAME:
        raise RuleError(f"a name has at most {MAX_NAME} characters ({len(name)} given)", path)
    return name


def clean_players(raw, path: str = "players") -> list[str]:
    if not isinstance(raw, list):
        raise RuleError("players must be a list of names", path)
    if not MIN_PLAYERS <= len(raw) <= MAX_PLAYERS:
        raise RuleError(f"a session has {MIN_PLAYERS} to {MAX_PLAYERS} players ({len(raw)} given)", path)
    players: list[str] = []
    for i, item in enumerate(raw):
        name = clean_name(item, f"{path}[{i}]")
        same = same_player(name, players)
        if same is not None:
            raise RuleError(f"{name} is listed twice" if same == name else f"{name} is listed twice (as {same})",
                            f"{path}[{i}]")
        players.append(name)
    return players


def same_player(name: str, players: list[str]) -> str | None:
    """The listed player that ``name`` would be taken for: history matches players by name without case
    or accents (Iñaki = inaki), so one session cannot hold both."""
    key = player_key(name)
    return next((p for p in players if player_key(p) == key), None)


def clean_session_name(raw, path: str = "name") -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise RuleError("a session needs a name", path)
    name = " ".join(raw.split())
    if len(name) > 80:
        raise RuleError("a session name has at most 80 characters", path)
    return name


def clean_started(raw, path: str = "started") -> str:
    if not isinstance(raw, str):
        raise RuleError("started must be a date-time text like 2026-11-20T21:05:00+01:00", path)
    try:
        datetime.fromisoformat(raw)
    except ValueError:
        raise RuleError(f"{raw!r} is not a date-time like 2026-11-20T21:05:00+01:00", path) from None
    return raw


def clean_currency(raw, path: str = "currency") -> str:
    if not isinstance(raw, str) or not re.fullmatch(r"[A-Z]{3}", raw):
        raise RuleError("currency must be an ISO 4217 code of three capital letters, like EUR", path)
    return raw


def _clean_settle(raw, players: list[str], path: str = "settle") -> dict:
    if not isinstance(raw, dict):
        raise RuleError("settle must be an object", path)
    out: dict = {}
    for key in raw:
        if key not in ("banker", "paid"):
            raise RuleError(f"unknown key {key!r}", f"{path}.{key}")
    if raw.get("banker") is not None:
        if raw["banker"] not in players:
            raise RuleError(f"{raw['banker']!r} is not a player of this session", f"{path}.banker")
        out["banker"] = raw["banker"]
    if "paid" in raw:
        paid = raw["paid"]
        if not isinstance(paid, list):
            raise RuleError("paid must be a list of payments", f"{path}.paid")
        out["paid"] = []
        for i, p in enumerate(paid):
            ppath = f"{path}.paid[{i}]"
            if not isinstance(p, dict) or set(p) != {"from", "to", "amount"}:
                raise RuleError("a paid payment is {from, to, amount}", ppath)
            for who in ("from", "to"):
                if p[who] not in players:
                    raise RuleError(f"{p[who]!r} is not a player of this session", f"{ppath}.{who}")
            if not isinstance(p["amount"], int) or isinstance(p["amount"], bool) or p["amount"] <= 0:
                raise RuleError("amount must be a whole number of minor units above 0", f"{ppath}.amount")
            out["paid"].append({"from": p["from"], "to": p["to"], "amount": p["amount"]})
    return out


def normalize_game(game, players: list[str], path: str) -> dict:
    if not isinstance(game, dict):
        raise RuleError("a game must be an object", path)
    kind = game.get("kind")
    if kind not in kinds.KINDS:
        known = ", ".join(sorted(kinds.KINDS))
        raise RuleError(f"unknown game kind {kind!r} (known: {known})", f"{path}.kind")
    try:
        return kinds.get(kind).normalize(game, players)
    except RuleError as err:
        raise err.prefixed(path) from None


def normalize_session(doc) -> dict:
    """Validate a whole companion-session/1 document; return its canonical copy (idempotent)."""
    if not isinstance(doc, dict):
        raise RuleError("a session file is a JSON object", "$")
    if doc.get("format") != FORMAT:
        raise RuleError(f"format must be {FORMAT!r}", "format")
    for key in doc:
        if key not in SESSION_KEYS:
            raise RuleError(f"unknown key {key!r}", key)
    out: dict = {"format": FORMAT, "name": clean_session_name(doc.get("name"))}
    if doc.get("started") is not None:
        out["started"] = clean_started(doc["started"])
    if doc.get("currency") is not None:
        out["currency"] = clean_currency(doc["currency"])
    players = clean_players(doc.get("players"))
    out["players"] = players
    games = doc.get("games", [])
    if not isinstance(games, list):
        raise RuleError("games must be a list", "games")
    out["games"] = [normalize_game(g, players, f"games[{i}]") for i, g in enumerate(games)]
    if doc.get("settle") is not None:
        settle = _clean_settle(doc["settle"], players)
        if settle:
            out["settle"] = settle
    return out


def compute_games(doc: dict) -> list[dict]:
    return [kinds.get(g["kind"]).compute(g) for g in doc["games"]]


def compute_settle(doc: dict, game_states: list[dict]) -> dict:
    from .rules import settle as settle_rules

    results = [kinds.get(g["kind"]).settlement(g, s) for g, s in zip(doc["games"], game_states)]
    banker = doc.get("settle", {}).get("banker")
    return settle_rules.settle(doc["players"], results, banker=banker)


def compute_state(doc: dict) -> dict:
    """companion-state/1 for a normalized session document."""
    games = compute_games(doc)
    return {"format": STATE_FORMAT, "games": games, "settle": compute_settle(doc, games)}


def copy_doc(doc: dict) -> dict:
    return copy.deepcopy(doc)
