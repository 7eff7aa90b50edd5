"""A player's name: how it is cleaned, and when two names are one player (the session file, the club's
pairs and the history all ask here)."""
from __future__ import annotations

import unicodedata

from companion.domain import text as text_policy
from companion.domain.errors import RuleError
from companion.domain.messages import N_, define

MIN_PLAYERS, MAX_PLAYERS = 2, 40
MAX_NAME = 40

define("session", {
    "name_text": N_("a name must be text"),
    "name_empty": N_("a name cannot be empty"),
    "name_long": N_("a name has at most %(max)s characters (%(count)s given)"),
})


def player_key(name: str) -> str:
    """Players are matched by name across sessions: case and accents do not matter (Iñaki = inaki)."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).strip()


def clean_name(raw, path: str = "name") -> str:
    """A player's name: trimmed, non-empty, at most 40 characters, any script, nothing hidden."""
    if not isinstance(raw, str):
        raise RuleError("session.name_text", path)
    name = text_policy.clean(raw, path)      # one Unicode policy for every typed text
    if not name:
        raise RuleError("session.name_empty", path)
    if len(name) > MAX_NAME:
        raise RuleError("session.name_long", path, max=MAX_NAME, count=len(name))
    return name


def same_player(name: str, players: list[str]) -> str | None:
    """The listed player that ``name`` would be taken for (history matches names without case or accents)."""
    key = player_key(name)
    return next((p for p in players if player_key(p) == key), None)
