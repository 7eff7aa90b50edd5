"""The session file's ``club`` object and a game's ``table`` and ``round`` (session-v1.md, "Tables,
rounds and a club night"): checked with the JSON path of the first problem."""
from __future__ import annotations

import re

from ..errors import RuleError, join_path
from ..kinds.validate import check_keys, need_int
from ..messages import N_, define
from ..text import check_segment, clean
from .standings import FORMATS, PAIR_FORMATS

CLUB_KEYS = ("format", "kind", "pairs", "rounds", "minutes", "left", "byes", "clock", "mus")
MAX_LABEL = 20
MAX_ROUNDS = 99
MAX_MINUTES = 600

define("club", {
    "object": N_("club must be an object"),
    "format": N_("format must be one of %(known)s"),
    "kind": N_("a club night plays mus in this version"),
    "pairs_list": N_("pairs must be a list of pairs of players"),
    "pair": N_("a pair is two different players of this session"),
    "pairs_needed": N_("a pair format needs at least two pairs"),
    "in_two_pairs": N_("%(name)s is in two pairs"),
    "names": N_("a list of players of this session"),
    "byes_object": N_("byes must be an object keyed by round number"),
    "round_key": N_("a round is a number from 1"),
    "not_a_pair": N_("not one of the club's pairs"),
    "label": N_("a table label is 1 to %(max)s characters"),
    "seats_pairs": N_("the teams of a round game must be two of the club's pairs"),
    "round_kind": N_("a round game of this format is a mus match"),
    "clock": N_("clock holds when each round started: {\"1\": \"2026-11-20T21:05:00+00:00\"}"),
})

_HIDDEN = re.compile("[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


def clean_label(raw, path: str = "table") -> str:
    """A table's label: 1-20 characters of text, trimmed ("3", "Terraza")."""
    if not isinstance(raw, str) or _HIDDEN.search(raw):
        raise RuleError("club.label", path, max=MAX_LABEL)
    label = clean(raw, path)            # the one text policy: nothing invisible or blank-looking
    if not 1 <= len(label) <= MAX_LABEL:
        raise RuleError("club.label", path, max=MAX_LABEL)
    check_segment(label, path)          # one path segment of a URL as it is (companion/text.py)
    return label


def clean_round(raw, path: str = "round") -> int:
    return need_int(raw, path, 1, MAX_ROUNDS)


def _names(raw, players: list[str], path: str) -> list[str]:
    if not isinstance(raw, list):
        raise RuleError("club.names", path)
    out = []
    for i, name in enumerate(raw):
        if not isinstance(name, str) or name not in players or name in out:
            raise RuleError("v.not_player", f"{path}[{i}]", name=str(name)[:40])
        out.append(name)
    return out


def _pair(raw, players: list[str], path: str) -> list[str]:
    if (not isinstance(raw, list) or len(raw) != 2 or not all(isinstance(n, str) and n in players for n in raw)
            or raw[0] == raw[1]):
        raise RuleError("club.pair", path)
    return list(raw)


def clean_club(raw, players: list[str], path: str = "club") -> dict:
    """The ``club`` object, canonical (keys in the order of ``CLUB_KEYS``, empty lists left out)."""
    if not isinstance(raw, dict):
        raise RuleError("club.object", path)
    check_keys(raw, CLUB_KEYS, path)
    fmt = raw.get("format")
    if fmt not in FORMATS:
        raise RuleError("club.format", join_path(path, "format"), known=", ".join(FORMATS))
    out: dict = {"format": fmt}
    if fmt != "free" or "kind" in raw:
        if raw.get("kind", "mus") != "mus":
            raise RuleError("club.kind", join_path(path, "kind"))
        out["kind"] = "mus"
    pairs_fmt = fmt in PAIR_FORMATS
    if pairs_fmt or raw.get("pairs"):
        pairs = raw.get("pairs")
        if not isinstance(pairs, list):
            raise RuleError("club.pairs_list", join_path(path, "pairs"))
        seen: set = set()
        out["pairs"] = []
        for i, p in enumerate(pairs):
            pair = _pair(p, players, f"{path}.pairs[{i}]")
            for j, name in enumerate(pair):
                if name in seen:
                    raise RuleError("club.in_two_pairs", f"{path}.pairs[{i}][{j}]", name=name)
                seen.add(name)
            out["pairs"].append(pair)
        if pairs_fmt and len(out["pairs"]) < 2:
            raise RuleError("club.pairs_needed", join_path(path, "pairs"))
    for key, top in (("rounds", MAX_ROUNDS), ("minutes", MAX_MINUTES)):
        if raw.get(key) is not None:
            out[key] = need_int(raw[key], join_path(path, key), 1, top)
    if raw.get("left"):
        out["left"] = _names(raw["left"], players, join_path(path, "left"))
    if raw.get("byes"):
        byes = raw["byes"]
        bpath = join_path(path, "byes")
        if not isinstance(byes, dict):
            raise RuleError("club.byes_object", bpath)
        pair_keys = [frozenset(p) for p in out.get("pairs", [])]
        clean: dict = {}
        for key in sorted(byes, key=lambda k: (len(str(k)), str(k))):
            kpath = f"{bpath}.{key}"
            if not re.fullmatch(r"[1-9][0-9]{0,1}", str(key)):
                raise RuleError("club.round_key", kpath)
            who = byes[key]
            if not isinstance(who, list):
                raise RuleError("club.names", kpath)
            if pairs_fmt:
                got = []
                for i, p in enumerate(who):
                    pair = _pair(p, players, f"{kpath}[{i}]")
                    if frozenset(pair) not in pair_keys:
                        raise RuleError("club.not_a_pair", f"{kpath}[{i}]")
                    got.append(pair)
            else:
                got = _names(who, players, kpath)
            if got:
                clean[str(key)] = got
        if clean:
            out["byes"] = clean
    if raw.get("mus"):
        # the app's own key: the rules, scoring and stake of the round's Mus matches
        out["mus"] = _clean_mus(raw["mus"], join_path(path, "mus"))
    if raw.get("clock"):
        # the app's own key: when each round's clock started (the sala counts down from it)
        clock = raw["clock"]
        cpath = join_path(path, "clock")
        if not isinstance(clock, dict):
            raise RuleError("club.clock", cpath)
        out["clock"] = {}
        for key in sorted(clock, key=lambda k: (len(str(k)), str(k))):
            stamp = clock[key]
            if not re.fullmatch(r"[1-9][0-9]?", str(key)) or not _is_time(stamp):
                raise RuleError("club.clock", f"{cpath}.{key}")
            out["clock"][str(key)] = stamp
    return out


def check_round_games(club: dict | None, games: list[dict]) -> None:
    """Every round game fits the club: pair formats seat two of its pairs in a Mus match."""
    if not club or club["format"] == "free":
        return
    pairs = {frozenset(p) for p in club.get("pairs", [])}
    for i, g in enumerate(games):
        if g.get("round") is None:
            continue
        if g["kind"] != "mus":
            raise RuleError("club.round_kind", f"games[{i}].kind")
        if club["format"] in PAIR_FORMATS:
            seats = g["seats"]
            if frozenset(seats[0::2]) not in pairs or frozenset(seats[1::2]) not in pairs:
                raise RuleError("club.seats_pairs", f"games[{i}].seats")


def _clean_mus(raw, path: str) -> dict:
    from ..kinds.mus.shape import norm_head

    if not isinstance(raw, dict):
        raise RuleError("v.object", path)
    check_keys(raw, ("rules", "scoring", "stake"), path)
    try:
        head = norm_head({"kind": "mus", "seats": ["1", "2", "3", "4"], **raw}, None)
    except RuleError as err:
        raise err.prefixed(path) from None
    return {k: head[k] for k in ("rules", "scoring", "stake") if k in head}


def _is_time(value) -> bool:
    from datetime import datetime

    if not isinstance(value, str) or len(value) > 40:
        return False
    try:
        return datetime.fromisoformat(value).tzinfo is not None
    except ValueError:
        return False


def split_place(game):
    """A game object without ``table`` and ``round``, and those two checked ({} when absent)."""
    if not isinstance(game, dict) or ("table" not in game and "round" not in game):
        return game, {}
    place = {}
    if "table" in game:
        place["table"] = clean_label(game["table"], "table")
    if "round" in game:
        place["round"] = clean_round(game["round"], "round")
    return {k: v for k, v in game.items() if k not in ("table", "round")}, place
