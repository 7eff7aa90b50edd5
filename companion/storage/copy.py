"""``companion copy``: move a night's archive from the embedded SQLite file to PostgreSQL (or back) with
nothing lost and nothing to tell the players: every row is copied as it is, so the links and printed QR
codes open the same sessions, phones stay signed in (the secret key comes along), a retried tap is still
recognised by its key, and a browser's history lists what it listed.

The derived tables (ratings) are not copied: they rebuild themselves from the sessions on first read.
The copy is one transaction on the target; a target that already holds a session is refused.
"""
from __future__ import annotations

from companion.domain.errors import RuleError
from companion.domain.messages import N_, define
from companion.storage.db import connect, init_db
from companion.storage.store import immediate

# parents before children (the foreign keys); ``meta`` last: its secret key replaces the target's
TABLES = ("sessions", "events", "games", "items", "session_players", "session_kinds", "browsers", "requests",
          "club_tables", "legacy", "meta")
DERIVED_META = ("ratings_schema", "ratings_pending")     # the ratings' bookkeeping: rebuilt, not copied
CHUNK = 2000

define("copy", {"not_empty": N_("The target database already holds sessions: copy into an empty one.")})


def _columns(db, table: str) -> list[str]:
    if getattr(db, "dialect", "sqlite") == "postgresql":
        return [r[0] for r in db.execute("SELECT column_name FROM information_schema.columns WHERE table_schema ="
                                         " current_schema() AND table_name = ? ORDER BY ordinal_position",
                                         [table]).fetchall()]
    return [r[1] for r in db.execute(f"PRAGMA table_info({table})").fetchall()]


def copy(source: str, target: str) -> dict[str, int]:
    """Copy every row of ``source`` into the empty ``target`` (each a file path or a URL); returns the
    rows copied per table. Both are migrated to the current schema first."""
    init_db(source)
    init_db(target)
    src, dst = connect(source), connect(target)
    counts: dict[str, int] = {}
    try:
        with immediate(dst):
            if dst.execute("SELECT 1 FROM sessions LIMIT 1").fetchone() is not None:
                raise RuleError("copy.not_empty", "to")
            dst.execute("DELETE FROM meta")
            for table in TABLES:
                cols = [c for c in _columns(src, table) if c in set(_columns(dst, table))]
                rows = [r for r in src.execute(f"SELECT {', '.join(cols)} FROM {table}").fetchall()
                        if table != "meta" or r[cols.index("key")] not in DERIVED_META]
                insert = f"INSERT INTO {table}({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})"
                for start in range(0, len(rows), CHUNK):
                    dst.executemany(insert, rows[start:start + CHUNK])
                counts[table] = len(rows)
            if getattr(dst, "dialect", "sqlite") == "postgresql":
                # the ids were copied as they were: the next new session or event is numbered after them
                for table in ("sessions", "events"):
                    dst.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                                f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)")
    finally:
        src.close()
        dst.close()
    return counts
