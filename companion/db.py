"""The embedded SQLite database: one connection per request, migrations, pragmas.

Writes go through ``store.py`` inside ``BEGIN IMMEDIATE`` (see shared/design.md: a deferred BEGIN that
reads then writes fails at once under contention instead of waiting).
"""
from __future__ import annotations

import queue
import secrets
import sqlite3

from flask import current_app, g
from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

migrations = Migrations("companion")


@migrations()
def m001_initial(db: Database):
    db.execute("""
        CREATE TABLE sessions (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            created TEXT NOT NULL,
            updated TEXT NOT NULL,
            started TEXT,
            edit_token TEXT NOT NULL UNIQUE,
            view_token TEXT NOT NULL UNIQUE,
            version INTEGER NOT NULL DEFAULT 0,
            doc TEXT NOT NULL,
            summary TEXT NOT NULL DEFAULT '{}'
        )""")
    db.execute("CREATE INDEX sessions_by_started ON sessions(started DESC, id DESC)")
    db.execute("""
        CREATE TABLE events (
            id INTEGER PRIMARY KEY,
            session_id INTEGER NOT NULL REFERENCES sessions(id),
            seq INTEGER NOT NULL,
            type TEXT NOT NULL,
            game INTEGER,
            payload TEXT NOT NULL,
            before BLOB,
            created TEXT NOT NULL,
            UNIQUE (session_id, seq)
        )""")
    db.execute("""
        CREATE TABLE requests (
            key TEXT PRIMARY KEY,
            session_id INTEGER NOT NULL REFERENCES sessions(id),
            seq INTEGER NOT NULL,
            location TEXT NOT NULL
        )""")
    db.execute("""
        CREATE TABLE session_players (
            session_id INTEGER NOT NULL REFERENCES sessions(id),
            name TEXT NOT NULL,
            key TEXT NOT NULL,
            net INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (session_id, key)
        )""")
    db.execute("CREATE INDEX session_players_by_key ON session_players(key, session_id)")
    db.execute("""
        CREATE TABLE session_kinds (
            session_id INTEGER NOT NULL REFERENCES sessions(id),
            kind TEXT NOT NULL,
            PRIMARY KEY (session_id, kind)
        )""")
    db.execute("CREATE INDEX session_kinds_by_kind ON session_kinds(kind, session_id)")
    db.execute("""
        CREATE TABLE browsers (
            browser TEXT NOT NULL,
            session_id INTEGER NOT NULL REFERENCES sessions(id),
            role TEXT NOT NULL,
            opened TEXT NOT NULL,
            PRIMARY KEY (browser, session_id)
        )""")
    db.execute("CREATE INDEX browsers_recent ON browsers(browser, opened DESC)")
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")


@migrations()
def m002_history_summaries(db: Database):
    """The history pages read more of ``sessions.summary`` (games, mus, on_table, payments, settled;
    see summary.py): recompute the summaries written before. A session its rules can no longer read
    keeps its old summary (the pages read every new key with a default)."""
    import json

    from .sessionfile import compute_state
    from .summary import summarize

    for session_id, doc in db.execute("SELECT id, doc FROM sessions").fetchall():
        try:
            doc = json.loads(doc)
            info = summarize(doc, compute_state(doc))
        except Exception:  # noqa: BLE001 - never block start-up on one odd session
            continue
        db.execute("UPDATE sessions SET summary = ? WHERE id = ?",
                   [json.dumps(info, ensure_ascii=False, separators=(",", ":")), session_id])


def connect(path: str) -> Database:
    """A connection in autocommit mode: transactions are opened explicitly (BEGIN IMMEDIATE), which
    also sets WRITE_PRAGMAS; a read (most requests: every live poll) pays for nothing it does not use."""
    conn = sqlite3.connect(path, timeout=10, isolation_level=None, check_same_thread=False)
    return Database(conn)


WRITE_PRAGMAS = (
    "PRAGMA foreign_keys = ON",
    "PRAGMA synchronous = FULL",  # WAL + NORMAL may lose the last commits on power loss
)


def init_db(path: str) -> str:
    """Create or migrate the database; returns the app's persistent secret key."""
    db = connect(path)
    try:
        if path != ":memory:":
            db.enable_wal()
        migrations.apply(db)
        row = db.execute("SELECT value FROM meta WHERE key = 'secret_key'").fetchone()
        if row is None:
            key = secrets.token_hex(32)
            db.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('secret_key', ?)", [key])
            row = db.execute("SELECT value FROM meta WHERE key = 'secret_key'").fetchone()
        return row[0]
    finally:
        db.conn.close()


_pools: dict[str, queue.SimpleQueue] = {}


def get_db() -> Database:
    """This request's connection. Each request holds one connection of its own; connections are
    reused across requests because opening one (schema parse, wrapper) costs ~100x a poll's query."""
    if "db" not in g:
        pool = _pools.setdefault(current_app.config["DATABASE"], queue.SimpleQueue())
        try:
            g.db = pool.get_nowait()
        except queue.Empty:
            g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(_exc=None) -> None:
    db = g.pop("db", None)
    if db is None:
        return
    if db.conn.in_transaction:  # never hand on a connection in the middle of a transaction
        db.execute("ROLLBACK")
    _pools.setdefault(current_app.config["DATABASE"], queue.SimpleQueue()).put(db)
