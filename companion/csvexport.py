"""A session's awards and chip movements as rows: for the CSV export and the hand-by-hand page. Pure.

Every game's state carries a ``log`` (companion-state/1). Mus entries are awards of points:
``{"hand", "game", "lance", "team", "points", "why"}``. Chip games log movements:
Newmarket ``{"deal", "from", "to", "chips", "why"}``, Desmoche ``{"hand", "from", "to", "units", "why"}``,
where ``from`` / ``to`` are players or piles written ``@AH``, ``@kitty``, ``@pot``, ``@side:oro``...
The engines are young: every key is read tolerantly, and an entry with unexpected keys still gives a
row with its ``why``.

``entries(doc, state) -> list[dict]``   one normalized dict per log entry, in game then log order
``rows(doc, state) -> list[list]``       ``COLUMNS``-shaped rows
``to_csv(doc, state) -> str``           the CSV text (RFC 4180, CRLF line ends)
``place_name("@AH") -> "A♥ pile"``
"""
from __future__ import annotations

import csv
import io

__all__ = ["COLUMNS", "entries", "rows", "to_csv", "place_name"]

COLUMNS = ["session", "game", "kind", "round_type", "round", "mus_game", "lance", "team", "team_players",
           "from", "to", "amount", "unit", "why"]

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
PILES = {"kitty": "kitty", "pool": "pool", "table": "table (leftovers)", "pot": "pot"}
ROUND = {"mus": ("hand", "points"), "newmarket": ("deal", "chips"), "desmoche": ("hand", "units")}


def _int(value):
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def place_name(value) -> str:
    """A player's name as is; a pile in words ('@AH' -> 'A♥ pile', '@side:oro' -> 'oro side pot')."""
    if value is None:
        return ""
    text = str(value)
    if not text.startswith("@"):
        return text
    pile = text[1:]
    if pile in PILES:
        return PILES[pile]
    if pile.startswith("side:"):
        return f"{pile[5:]} side pot"
    if len(pile) >= 2 and pile[-1] in SUITS and (pile[:-1] in ("A", "K", "Q", "J") or pile[:-1].isdigit()):
        return f"{pile[:-1]}{SUITS[pile[-1]]} pile"
    return pile


def entries(doc: dict, state: dict) -> list[dict]:
    """Every log entry of every game, normalized:
    ``{game (1-based), kind, round_type, round, mus_game, lance, team, team_players, from, to, amount,
    unit, why}`` (missing parts are None)."""
    out = []
    games = doc.get("games") or []
    states = state.get("games") or []
    for gi, (game, gstate) in enumerate(zip(games, states)):
        kind = game.get("kind") or (gstate or {}).get("kind") or "?"
        round_type, unit = ROUND.get(kind, ("round", ""))
        teams = (gstate or {}).get("teams") or {}
        for e in (gstate or {}).get("log") or []:
            if not isinstance(e, dict):
                continue
            rnd = _int(e.get(round_type))
            if rnd is None:
                rnd = _int(e.get("hand")) if _int(e.get("hand")) is not None else _int(e.get("deal"))
            amount = None
            for key in ("points", "chips", "units", "amount"):
                if _int(e.get(key)) is not None:
                    amount = e[key]
                    break
            team = e.get("team") if isinstance(e.get("team"), str) else None
            members = teams.get(team) if team else None
            out.append({
                "game": gi + 1,
                "kind": kind,
                "round_type": round_type,
                "round": rnd,
                "mus_game": _int(e.get("game")) if kind == "mus" else None,
                "lance": e.get("lance") if isinstance(e.get("lance"), str) else None,
                "team": team,
                "team_players": " & ".join(members) if isinstance(members, list) else None,
                "from": e.get("from") if isinstance(e.get("from"), str) else None,
                "to": e.get("to") if isinstance(e.get("to"), str) else None,
                "amount": amount,
                "unit": unit,
                "why": e.get("why") if isinstance(e.get("why"), str) else "",
            })
    return out


def _cell(value):
    """Numbers as numbers; text protected against spreadsheet formulas (=, +, -, @ at the start)."""
    if value is None:
        return ""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = str(value)
    if text[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + text
    return text


def rows(doc: dict, state: dict) -> list[list]:
    name = doc.get("name", "")
    out = []
    for e in entries(doc, state):
        out.append([_cell(v) for v in (
            name, e["game"], e["kind"], e["round_type"], e["round"], e["mus_game"], e["lance"], e["team"],
            e["team_players"], place_name(e["from"]) if e["from"] else None,
            place_name(e["to"]) if e["to"] else None, e["amount"], e["unit"], e["why"])])
    return out


def to_csv(doc: dict, state: dict) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    writer.writerows(rows(doc, state))
    return buf.getvalue()
