"""A club night's table links as rows (``club_tables``): one scoring token per table of a session; what
a token opens; the rows a table's live poll reads. (Which taps a table link may make: web/club_links.)"""
from __future__ import annotations

import json

from companion.storage.store import new_token, now


def by_token(db, token: str) -> tuple | None:
    """(session row as ``store.find`` gives it plus ``table``, the stored token) for a table's token."""
    row = db.execute(
        "SELECT s.id, s.version, s.edit_token, s.view_token, s.edit_gen, s.header, s.summary, t.label, t.token"
        " FROM club_tables t JOIN sessions s ON s.id = t.session_id WHERE t.token = ?", [token]).fetchone()
    if row is None:
        return None
    return ({"id": row[0], "version": row[1], "edit_token": row[2], "view_token": row[3], "edit_gen": row[4],
             "header": json.loads(row[5]), "summary": json.loads(row[6]), "table": row[7]}, row[8])


def tables(db, session_id: int) -> list[tuple[str, str]]:
    """(label, token) of the session's tables, in no order."""
    return db.execute("SELECT label, token FROM club_tables WHERE session_id = ?", [session_id]).fetchall()


def add(db, session_id: int, labels: list[str]) -> None:
    """A token for every label that has none, inside the caller's transaction."""
    have = {r[0] for r in db.execute("SELECT label FROM club_tables WHERE session_id = ?", [session_id])}
    for label in labels:
        if label not in have:
            db.execute("INSERT INTO club_tables(session_id, label, token, created) VALUES (?, ?, ?, ?)",
                       [session_id, label, new_token(), now()])


def replace(db, session_id: int, label: str, token: str) -> bool:
    """The table's new token, inside the caller's transaction; False when there is no such table."""
    return db.execute("UPDATE club_tables SET token = ? WHERE session_id = ? AND label = ?",
                      [token, session_id, label]).rowcount > 0


def poll_row(conn, token: str) -> tuple | None:
    """(session id, label, session version) of a table's token (its live poll, before Flask)."""
    return conn.execute("SELECT t.session_id, t.label, s.version FROM club_tables t JOIN sessions s"
                        " ON s.id = t.session_id WHERE t.token = ?", (token,)).fetchone()


def table_touched_since(conn, session_id: int, label: str, since: int) -> bool:
    """Whether an event after version ``since`` touched the table's games or the whole session."""
    return conn.execute(
        "SELECT 1 FROM events WHERE session_id = ? AND seq > ? AND (game IS NULL OR game IN"
        " (SELECT gi FROM games WHERE session_id = ? AND json_extract(head, '$.table') = ?)) LIMIT 1",
        (session_id, since, session_id, label)).fetchone() is not None
