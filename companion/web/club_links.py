"""A club night's table links: one scoring token per table (a row tied to the session and the table's
label), checked before anything else of the request, scoped to that table's games."""
from __future__ import annotations

import json
import re
import secrets

from sqlite_utils import Database

from .. import kinds
from ..storage import store


def new_token() -> str:
    return secrets.token_urlsafe(24)      # 192 bits, as the session's links


def find_table(db: Database, token: str):
    """(session row with ``table``, "table") for a table's token, or (None, None)."""
    row = db.execute(
        "SELECT s.id, s.version, s.edit_token, s.view_token, s.edit_gen, s.header, s.summary, t.label, t.token"
        " FROM club_tables t JOIN sessions s ON s.id = t.session_id WHERE t.token = ?", [token]).fetchone()
    if row is None or not secrets.compare_digest(row[8].encode(), token.encode()):
        return None, None
    return {"id": row[0], "version": row[1], "edit_token": row[2], "view_token": row[3], "edit_gen": row[4],
            "header": json.loads(row[5]), "summary": json.loads(row[6]), "table": row[7]}, "table"


def table_may(view, etype: str, payload: dict) -> bool:
    """A table link records taps and undoes in its own table's games, and nothing else."""
    if etype not in ("game", "undo"):
        return False
    gi = payload.get("game")
    games = view.games
    return isinstance(gi, int) and 0 <= gi < len(games) and games[gi].head.get("table") == view.table


def tables(db: Database, session_id: int) -> dict[str, str]:
    """{label: token} of the session's tables, in label order (numbers first, by value)."""
    rows = db.execute("SELECT label, token FROM club_tables WHERE session_id = ?", [session_id]).fetchall()
    return dict(sorted(rows, key=lambda r: label_order(r[0])))


def label_order(label: str):
    return (0, int(label), "") if label.isdigit() else (1, 0, label)


def ensure(db: Database, session_id: int, labels: list[str]) -> dict[str, str]:
    """Every label has a token (new ones are written); {label: token} of all the session's tables."""
    with store.immediate(db, session_id):
        add(db, session_id, labels)
    return tables(db, session_id)


def add(db: Database, session_id: int, labels: list[str]) -> None:
    """A token for every label that has none, inside the caller's transaction (a round's tables are
    written with the round: ``service.write_many``)."""
    have = {r[0] for r in db.execute("SELECT label FROM club_tables WHERE session_id = ?", [session_id])}
    for label in labels:
        if label not in have:
            db.execute("INSERT INTO club_tables(session_id, label, token, created) VALUES (?, ?, ?, ?)",
                       [session_id, label, new_token(), store.now()])


def replace(db: Database, session_id: int, label: str) -> str | None:
    """A new token for the table: browsers holding the old one are locked out (it opens nothing)."""
    token = new_token()
    with store.immediate(db, session_id):
        cur = db.execute("UPDATE club_tables SET token = ? WHERE session_id = ? AND label = ?",
                         [token, session_id, label])
    return token if cur.rowcount else None


_GAME_PAGE = re.compile(rf"/({'|'.join(map(re.escape, kinds.KINDS))})/\d+")     # a game page of any kind


def poll_unchanged(conn, token: str, since: int, rest: str) -> bool | None:
    """A table link's live poll, answered before Flask (``web/poll.py``): None when ``token`` is no
    table's; True when nothing its page shows changed since version ``since``. A game page through a
    table link shows that table's games and the session's header: taps at the other tables (most of a
    club night's writes) leave it unchanged, so its phones are not sent a page for every tap in the room."""
    row = conn.execute("SELECT t.session_id, t.label, s.version FROM club_tables t JOIN sessions s"
                       " ON s.id = t.session_id WHERE t.token = ?", (token,)).fetchone()
    if row is None:
        return None
    session_id, label, version = row
    if version == since:
        return True
    if since > version or not _GAME_PAGE.fullmatch(rest):
        return False
    hit = conn.execute(
        "SELECT 1 FROM events WHERE session_id = ? AND seq > ? AND (game IS NULL OR game IN"
        " (SELECT gi FROM games WHERE session_id = ? AND json_extract(head, '$.table') = ?)) LIMIT 1",
        (session_id, since, session_id, label)).fetchone()
    return hit is None
