"""A session's awards and chip movements as CSV rows: every game kind's ledger (``Kind.ledger``), one row
per award or movement, reasons in English (the CSV is data; its headers stay English). Pure.

``rows(session) -> list[list]`` (``COLUMNS``-shaped), ``to_csv(session) -> str`` (RFC 4180, CRLF line ends),
``place_name("@AH") -> "A♥ pile"`` (in English; ``place_name(value, renderer)`` in a page's words).
A club night in stages also has its classification as CSV: ``classification_csv(session)`` (one row per
pair, ``CLASSIFICATION_COLUMNS``; empty until every stage is done).
"""
from __future__ import annotations

import csv
import io

from companion import kinds
from companion.domain.messages import ENGLISH, N_, Renderer, define, render

__all__ = ["COLUMNS", "rows", "to_csv", "place_name", "cell", "write", "CLASSIFICATION_COLUMNS",
           "classification_rows", "classification_csv"]

HEAD = ["session", "game", "kind", "round_type", "round"]
TAIL = ["from", "to", "amount", "unit", "why"]
# between them, the columns the kinds declare (``csv_columns``), each once, in the kinds' order
COLUMNS = HEAD + list(dict.fromkeys(c for k in kinds.KINDS.values() for c in getattr(k, "csv_columns", ()))) + TAIL
OWN = COLUMNS[len(HEAD):-len(TAIL)]

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
PILES = {"kitty": "place.kitty", "pool": "place.pool", "table": "place.table", "pot": "place.pot"}

define("place", {
    "kitty": N_("kitty"),
    "pool": N_("pool"),
    "table": N_("table (leftovers)"),
    "pot": N_("pot"),
    "side": N_("%(name)s side pot"),
    "pile": N_("%(card)s pile"),
})


def place_name(value, renderer: Renderer = ENGLISH) -> str:
    """A player's name as is; a pile in words ('@AH' -> 'A♥ pile', '@side:oro' -> 'oro side pot'): in
    English for the CSV (data), in the reader's words with the page's ``renderer``."""
    if value is None:
        return ""
    text = str(value)
    if not text.startswith("@"):
        return text
    pile = text[1:]
    if pile in PILES:
        return renderer({"code": PILES[pile]})
    if pile.startswith("side:"):
        return renderer({"code": "place.side", "name": pile[5:]})
    if len(pile) >= 2 and pile[-1] in SUITS and (pile[:-1] in ("A", "K", "Q", "J") or pile[:-1].isascii() and pile[:-1].isdigit()):
        return renderer({"code": "place.pile", "card": f"{pile[:-1]}{SUITS[pile[-1]]}"})
    return pile


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def cell(value):
    """The one CSV cell escaper (every CSV the app writes: session.csv, the ratings, the club standings):
    numbers as numbers; text protected against spreadsheet formulas (a text starting with =, +, -, @, a
    tab, a line break or their full-width forms gets a leading apostrophe; so does one that starts with
    spaces before such a character)."""
    if value is None:
        return ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    text = str(value)
    if text.lstrip(" ")[:1] in FORMULA_STARTS and text.lstrip(" "):
        return "'" + text
    return text


def write(rows) -> str:
    """Rows (the first one the headers) as CSV text (RFC 4180, CRLF line ends), every cell through
    ``cell``."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerows([cell(v) for v in row] for row in rows)
    return buf.getvalue()


def rows(session) -> list[list]:
    name = session.header.get("name", "")
    out = []
    for gi, rec in enumerate(session.games):
        kind = kinds.KINDS[rec.kind]
        for e in kind.ledger(rec):
            out.append([cell(v) for v in (
                name, gi + 1, rec.kind, kind.ledger_round, e["round"], *(e.get(c) for c in OWN),
                place_name(e["from"]) if e["from"] else None,
                place_name(e["to"]) if e["to"] else None, e["amount"], kind.ledger_unit, render(e["why"]))])
    return out


def to_csv(session) -> str:
    return write([COLUMNS, *rows(session)])


CLASSIFICATION_COLUMNS = ["session", "rank", "player_1", "player_2", "stage", "stage_name"]


def classification_rows(session) -> list[list]:
    """The night's classification (``rules/tournament.md``): rank, the pair, the last stage it played
    (0-based, and its name). Nothing for a session without stages or before every stage is done."""
    from companion.record.session import state_of

    club = session.header.get("club") or {}
    if club.get("format") != "stages":
        return []
    night = state_of(session)["club"].get("classification") or []
    name = session.header.get("name", "")
    return [[cell(v) for v in (name, r["rank"], r["pair"][0], r["pair"][1], r["stage"],
                               club["stages"][r["stage"]]["name"])] for r in night]


def classification_csv(session) -> str:
    return write([CLASSIFICATION_COLUMNS, *classification_rows(session)])
