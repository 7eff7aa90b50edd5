"""A night at the table, pure (no Flask, no SQLite): the session file (companion-session/1) read into
games, and the state it computes (companion-state/1).

What the events do to a session is ``companion.record.events`` (one table, for the stored rows and for replay).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from companion import kinds
from companion.domain import text as text_policy
from companion.domain.errors import RuleError, join_path
from companion.kinds.base import GameRec
from companion.domain.messages import N_, define
from companion.domain.players import (MAX_NAME, MAX_PLAYERS, MIN_PLAYERS, clean_name,  # noqa: F401 (the file's names)
                                       player_key, same_player)
from companion.domain.settle import settle as settle_plan

FORMAT = "companion-session/1"
STATE_FORMAT = "companion-state/1"
MAX_CLUB_PLAYERS = 400          # a club night (rules/tournament.md, "Scale"): 200 pairs, 100 tables
MAX_SESSION_NAME = 80
SESSION_KEYS = ("format", "name", "started", "currency", "players", "club", "games", "settle", "log")
HEADER_KEYS = ("format", "name", "started", "currency", "players", "club", "settle", "log")

define("session", {
    "object": N_("a session file is a JSON object"),
    "format": N_("format must be %(format)s"),
    "unknown_key": N_("unknown key %(key)s"),
    "name_control": N_("a name cannot hold control or text-direction characters"),
    "players_list": N_("players must be a list of names"),
    "players_count": N_("a session has %(low)s to %(high)s players (%(count)s given)"),
    "listed_twice": N_("%(name)s is listed twice"),
    "listed_twice_as": N_("%(name)s is listed twice (as %(same)s)"),
    "already_playing": N_("%(name)s is already playing"),
    "too_many": N_("a session has at most %(max)s players"),
    "session_name": N_("a session needs a name"),
    "session_name_long": N_("a session name has at most %(max)s characters"),
    "started": N_("started must be a date-time like 2026-11-20T21:05:00+01:00"),
    "currency": N_("currency must be an ISO 4217 code of three capital letters, like EUR"),
    "settle_object": N_("settle must be an object"),
    "paid_list": N_("paid must be a list of payments"),
    "paid_shape": N_("a paid payment is {from, to, amount}"),
    "games_list": N_("games must be a list"),
    "game_object": N_("a game must be an object"),
    "unknown_kind": N_("unknown game kind %(kind)s (known: %(known)s)"),
    "game_players": N_("%(kind)s is played by %(low)s to %(high)s players"),
    "banker": N_("the banker must be a player of this session"),
    "not_in_plan": N_("That payment is no longer in the plan (the numbers changed): check the list again."),
    "not_marked": N_("That payment was not marked paid."),
    "undo_nothing": N_("There is nothing left to undo in this game."),
    "undo_moved": N_("Someone else recorded something since: nothing was undone. Check the screen and undo "
                     "again if needed."),
    "undo_last_game": N_("Only the last game of the session can be removed by undo."),
    "carry_broken": N_("game %(game)s cannot take what the game before it carries: %(why)s"),
})


def max_players(header: dict) -> int:
    """40 players, or 400 in a session with ``club``."""
    return MAX_CLUB_PLAYERS if header.get("club") is not None else MAX_PLAYERS


def clean_players(raw, path: str = "players", high: int = MAX_PLAYERS) -> list[str]:
    if not isinstance(raw, list):
        raise RuleError("session.players_list", path)
    if not MIN_PLAYERS <= len(raw) <= high:
        raise RuleError("session.players_count", path, low=MIN_PLAYERS, high=high, count=len(raw))
    players: list[str] = []
    for i, item in enumerate(raw):
        name = clean_name(item, f"{path}[{i}]")
        same = same_player(name, players)
        if same is not None:
            if same == name:
                raise RuleError("session.listed_twice", f"{path}[{i}]", name=name)
            raise RuleError("session.listed_twice_as", f"{path}[{i}]", name=name, same=same)
        players.append(name)
    return players


def clean_session_name(raw, path: str = "name") -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise RuleError("session.session_name", path)
    name = text_policy.clean(raw, path)
    if len(name) > MAX_SESSION_NAME:
        raise RuleError("session.session_name_long", path, max=MAX_SESSION_NAME)
    return name


def clean_started(raw, path: str = "started") -> str:
    if not isinstance(raw, str) or len(raw) > 40:
        raise RuleError("session.started", path)
    try:
        datetime.fromisoformat(raw)
    except ValueError:
        raise RuleError("session.started", path) from None
    return raw


def clean_currency(raw, path: str = "currency") -> str:
    if not isinstance(raw, str) or not re.fullmatch(r"[A-Z]{3}", raw):
        raise RuleError("session.currency", path)
    return raw


def _clean_settle(raw, players: list[str], path: str = "settle") -> dict:
    if not isinstance(raw, dict):
        raise RuleError("session.settle_object", path)
    for key in raw:
        if key not in ("banker", "paid"):
            raise RuleError("session.unknown_key", join_path(path, str(key)), key=str(key)[:40])
    out: dict = {}
    if raw.get("banker") is not None:
        if raw["banker"] not in players:
            raise RuleError("v.not_player", f"{path}.banker", name=str(raw["banker"])[:40])
        out["banker"] = raw["banker"]
    if "paid" in raw:
        paid = raw["paid"]
        if not isinstance(paid, list):
            raise RuleError("session.paid_list", f"{path}.paid")
        marks = []
        for i, p in enumerate(paid):
            ppath = f"{path}.paid[{i}]"
            if not isinstance(p, dict) or set(p) != {"from", "to", "amount"}:
                raise RuleError("session.paid_shape", ppath)
            for who in ("from", "to"):
                if p[who] not in players:
                    raise RuleError("v.not_player", f"{ppath}.{who}", name=str(p[who])[:40])
            from companion.kinds.validate import need_int

            amount = need_int(p["amount"], f"{ppath}.amount", 1, 10 ** 15)
            marks.append({"from": p["from"], "to": p["to"], "amount": amount})
        if marks:
            out["paid"] = marks
    return out


def normalize_header(doc) -> dict:
    if not isinstance(doc, dict):
        raise RuleError("session.object", "$")
    if doc.get("format") != FORMAT:
        raise RuleError("session.format", "format", format=FORMAT)
    for key in doc:
        if key not in SESSION_KEYS:
            raise RuleError("session.unknown_key", str(key), key=str(key)[:40])
    out: dict = {"format": FORMAT, "name": clean_session_name(doc.get("name"))}
    if doc.get("started") is not None:
        out["started"] = clean_started(doc["started"])
    if doc.get("currency") is not None:
        out["currency"] = clean_currency(doc["currency"])
    out["players"] = clean_players(doc.get("players"), high=max_players(doc))
    if doc.get("club") is not None:     # a club night (rules/club.md)
        from companion.club.shape import clean_club

        out["club"] = clean_club(doc["club"], out["players"])
    if doc.get("settle") is not None:
        settle = _clean_settle(doc["settle"], out["players"])
        if settle:
            out["settle"] = settle
    if doc.get("log") is not None:      # the organizer's log of a club night (changes no score)
        from companion.club.log import clean_log

        log = clean_log(doc["log"])
        if log:
            out["log"] = log
    return out


@dataclass
class Session:
    header: dict
    games: list[GameRec] = field(default_factory=list)

    @property
    def players(self) -> list[str]:
        return self.header["players"]


def build_game(game, players: list[str], seed: dict | None, path: str = "") -> GameRec:
    """A session-file game object, checked and played (errors carry ``path`` as their prefix)."""
    if not isinstance(game, dict):
        raise RuleError("session.game_object", path)
    kind = game.get("kind")
    if kind not in kinds.KINDS:
        raise RuleError("session.unknown_kind", join_path(path, "kind"), kind=str(kind)[:20],
                        known=", ".join(kinds.KINDS))
    from companion.club.shape import split_place

    k = kinds.KINDS[kind]
    try:
        game, place = split_place(game)
        rec = k.build(game, players, seed)
    except RuleError as err:
        raise err.prefixed(path) from None
    seated = len(k.seats(rec.head))
    if not k.min_players <= seated <= k.max_players:
        raise RuleError("session.game_players", join_path(path, "seats"), kind=kind, low=k.min_players,
                        high=k.max_players)
    if place:                           # a club night's table and round ride on the game's head
        rec.head = {**rec.head, **place}
    return rec


def game_doc(rec: GameRec) -> dict:
    """The session-file game object: the kind's, with its table and round (a club night)."""
    doc = kinds.KINDS[rec.kind].to_doc(rec)
    for key in ("table", "round", "stage"):
        if key in rec.head:
            doc[key] = rec.head[key]
    return doc


def _seed_before(games: list[GameRec], gi: int, kind: str | None) -> dict | None:
    for j in range(gi - 1, -1, -1):
        if games[j].kind == kind:
            return kinds.KINDS[kind].seed_out(games[j])
    return None


def load(doc) -> Session:
    """Check a whole session file and play every game: the one way a document becomes a session."""
    header = normalize_header(doc)
    raw_games = doc.get("games", [])
    if not isinstance(raw_games, list):
        raise RuleError("session.games_list", "games")
    games: list[GameRec] = []
    for i, game in enumerate(raw_games):
        kind = game.get("kind") if isinstance(game, dict) else None
        seed = _seed_before(games, i, kind) if kind in kinds.KINDS else None
        games.append(build_game(game, header["players"], seed, f"games[{i}]"))
    if header.get("club"):
        from companion.club.shape import check_round_games

        check_round_games(header["club"], [{"kind": g.kind, "seats": kinds.KINDS[g.kind].seats(g.head),
                                            "round": g.head.get("round"), "stage": g.head.get("stage"),
                                            "head": g.head, "state": _state_later(g)} for g in games])
    return Session(header, games)


def _state_later(rec: GameRec):
    """A game's state, computed only when asked (a club in stages reads its round matches' results)."""
    return lambda: kinds.KINDS[rec.kind].state(rec)


def read_file(data: bytes | str) -> Session:
    """A session file's bytes, parsed and checked in one place (web import, archive, command line)."""
    from companion.domain.jsonparse import parse_document

    return load(parse_document(data))


def to_doc(session: Session) -> dict:
    doc = {k: session.header[k] for k in HEADER_KEYS if k in session.header and k not in ("settle", "log")}
    doc["games"] = [game_doc(g) for g in session.games]
    for key in ("settle", "log"):
        if session.header.get(key):
            doc[key] = session.header[key]
    return doc


def settle_of(header: dict, games: list[GameRec]) -> dict:
    results = [kinds.KINDS[g.kind].settlement(g) for g in games]
    banker = (header.get("settle") or {}).get("banker")
    return settle_plan(header["players"], [{"net": r["net"], "on_table": r["on_table"]} for r in results],
                       banker=banker)


def state_of(session: Session) -> dict:
    """companion-state/1."""
    states = [kinds.KINDS[g.kind].state(g) for g in session.games]
    out = {"format": STATE_FORMAT, "games": states, "settle": settle_of(session.header, session.games)}
    if session.header.get("club"):
        from companion.club.night import club_state

        out["club"] = club_state(session.header, session.games, states)
    return out
