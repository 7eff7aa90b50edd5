"""A club night's table links: one scoring token per table (a row tied to the session and the table's
label), checked before anything else of the request, scoped to that table's games."""
from __future__ import annotations

import re
import secrets

from ..storage.connection import Connection as Database

from .. import kinds
from ..storage import club_tables, store


def new_token() -> str:
    return secrets.token_urlsafe(24)      # 192 bits, as the session's links


def find_table(db: Database, token: str):
    """(session row with ``table``, "table") for a table's token, or (None, None)."""
    found = club_tables.by_token(db, token)
    if found is None or not secrets.compare_digest(found[1].encode(), token.encode()):
        return None, None
    return found[0], "table"


def table_may(view, etype: str, payload: dict) -> bool:
    """A table link records taps and undoes in its own table's games, and nothing else."""
    if etype not in ("game", "undo"):
        return False
    gi = payload.get("game")
    games = view.games
    return isinstance(gi, int) and 0 <= gi < len(games) and games[gi].head.get("table") == view.table


def tables(db: Database, session_id: int) -> dict[str, str]:
    """{label: token} of the session's tables, in label order (numbers first, by value)."""
    rows = club_tables.tables(db, session_id)
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
    club_tables.add(db, session_id, labels)


def replace(db: Database, session_id: int, label: str) -> str | None:
    """A new token for the table: browsers holding the old one are locked out (it opens nothing)."""
    token = new_token()
    with store.immediate(db, session_id):
        replaced = club_tables.replace(db, session_id, label, token)
    return token if replaced else None


_GAME_PAGE = re.compile(rf"/({'|'.join(map(re.escape, kinds.KINDS))})/\d+")     # a game page of any kind


def poll_unchanged(conn, token: str, since: int, rest: str) -> bool | None:
    """A table link's live poll, answered before Flask (``web/poll.py``): None when ``token`` is no
    table's; True when nothing its page shows changed since version ``since``. A game page through a
    table link shows that table's games and the session's header: taps at the other tables (most of a
    club night's writes) leave it unchanged, so its phones are not sent a page for every tap in the room."""
    row = club_tables.poll_row(conn, token)
    if row is None:
        return None
    session_id, label, version = row
    if version == since:
        return True
    if since > version or not _GAME_PAGE.fullmatch(rest):
        return False
    return not club_tables.table_touched_since(conn, session_id, label, since)
