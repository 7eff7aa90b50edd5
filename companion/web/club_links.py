"""A club night's table links: one scoring token per table (a row tied to the session and the table's
label), checked before anything else of the request, scoped to that table's games."""
from __future__ import annotations

import base64
import re
import secrets

from companion.storage.connection import Connection as Database

from companion import kinds
from companion.domain import numbers
from companion.storage import club_tables, store
from companion.domain.text import safe_segment


def new_token() -> str:
    return secrets.token_urlsafe(24)      # 192 bits, as the session's links


def find_table(db: Database, token: str):
    """(session row with ``table``, "table") for a table's token, or (None, None)."""
    found = club_tables.by_token(db, token)
    if found is None or not secrets.compare_digest(found[1].encode(), token.encode()):
        return None, None
    return found[0], "table"


def tables(db: Database, session_id: int) -> dict[str, str]:
    """{label: token} of the session's tables, in label order (numbers first, by value)."""
    rows = club_tables.tables(db, session_id)
    return dict(sorted(rows, key=lambda r: label_order(r[0])))


def segment(label: str) -> str:
    """How a URL names a table: its label when the label is one path segment as it is (every label the
    checks accept now, ``text.safe_segment``), else ``~`` and the label's UTF-8 in base64url (a label
    stored before the checks: ``A/B``, ``..``, ``²``; new labels never start with ``~``)."""
    if safe_segment(label):
        return label
    return "~" + base64.urlsafe_b64encode(label.encode("utf-8", "surrogatepass")).decode().rstrip("=")


def label_of(segment_: str) -> str:
    """The label a URL's segment names (``segment`` undone; a segment that decodes to nothing is itself)."""
    if segment_.startswith("~"):
        try:
            raw = segment_[1:]
            return base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)).decode("utf-8", "surrogatepass")
        except ValueError:
            return segment_
    return segment_


def label_order(label: str):
    return (0, int(label), "") if numbers.is_ascii_int(label) and len(label) < 19 else (1, 0, label)


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
