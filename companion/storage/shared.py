"""What the server's worker processes share that is not the archive: the rate limits' counters and the
rendered live regions, in a small SQLite file beside the database (``<database>-shared``).

Nothing in it is needed to keep a hand: it may be deleted while the server is stopped, and it is written
without waiting for the disk (``synchronous=OFF``). It is a file, not process memory, so that every
worker sees at once what any worker counted or rendered. On another database engine (several servers on
several machines) the file is per machine: each machine renders a version once and counts its own
wrong guesses; nothing in it depends on SQLite being the archive's engine.
"""
from __future__ import annotations

import hashlib
import os
import sqlite3
import tempfile
import threading

SCHEMA = (
    # rate-limit counters (fixed windows): key -> hits until ``expires`` (unix seconds)
    "CREATE TABLE IF NOT EXISTS limits (key TEXT PRIMARY KEY, hits INTEGER NOT NULL, expires REAL NOT NULL)",
    # rendered live regions: ``base`` names one region for one reader (path, query, language), ``key`` adds
    # the version; ``gz``/``br`` are NULL while a worker renders it (``claimed``: since when)
    "CREATE TABLE IF NOT EXISTS renders (key TEXT PRIMARY KEY, base TEXT NOT NULL, claimed REAL NOT NULL,"
    " status TEXT, headers TEXT, gz BLOB, br BLOB)",
    "CREATE INDEX IF NOT EXISTS renders_by_base ON renders(base)",
)


def path_for(database: str) -> str:
    """The shared file of a database: beside it; for a database that is not a file (":memory:", a URL),
    one in the temporary directory named after it."""
    if database == ":memory:" or "://" in database or database.startswith("file:"):
        digest = hashlib.sha256(f"{os.getpid()}:{database}".encode() if database == ":memory:"
                                else database.encode()).hexdigest()[:16]
        return os.path.join(tempfile.gettempdir(), f"companion-shared-{digest}.sqlite")
    return database + "-shared"


class SharedFile:
    """One connection per thread and process (a forked worker never uses its parent's). The app's
    registry (``companion.registry``) keeps one per database: its rate limits and its poll's renders."""

    def __init__(self, path: str):
        self.path = path
        self.local = threading.local()
        conn = self._open()
        try:
            for statement in SCHEMA:
                conn.execute(statement)
        finally:
            conn.close()

    def _open(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = OFF")
        return conn

    def conn(self) -> sqlite3.Connection:
        local = self.local
        if getattr(local, "pid", None) != os.getpid():
            local.conn, local.pid = self._open(), os.getpid()
        return local.conn
