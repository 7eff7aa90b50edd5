"""The embedded SQLite database: one connection per request, migrations, pragmas.

Writes go through ``service.py`` and ``store.py`` inside ``BEGIN IMMEDIATE`` (a deferred BEGIN that reads
then writes fails at once under contention instead of waiting).
"""
from __future__ import annotations

import queue
import secrets
import sqlite3

from flask import current_app, g

from companion import registry
from companion.storage import engine
from companion.storage.connection import Connection, SQLiteConnection
from companion.storage.migrations import migrations

BUSY_TIMEOUT = 10     # seconds a write waits for another writer before "database is locked"


def connect(path: str) -> Connection:
    """A connection in autocommit mode: transactions are opened explicitly (BEGIN IMMEDIATE). Its
    pragmas are set once, here, not before every write. ``path`` may be a PostgreSQL URL
    (``companion.storage.postgres``: the same calls, another engine)."""
    if engine.is_url(path):
        return engine.postgres().connect(path)
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False)
    for pragma in PRAGMAS:
        conn.execute(pragma)
    return SQLiteConnection(conn, path)


PRAGMAS = (
    "PRAGMA foreign_keys = ON",
    "PRAGMA synchronous = FULL",  # WAL + NORMAL may lose the last commits on power loss
)


def init_db(path: str) -> str:
    """Create or migrate the database; returns the app's persistent secret key."""
    if engine.is_url(path):
        engine.postgres()           # a clear message when psycopg is not installed
        from companion.storage.postgres_schema import init_db as init_postgres

        return init_postgres(path)
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
        db.close()


def get_db() -> Connection:
    """This request's connection. Each request holds one connection of its own; connections are
    reused across requests because opening one (schema parse, wrapper) costs ~100x a poll's query."""
    if "db" not in g:
        if engine.is_url(current_app.config["DATABASE"]):
            engine.postgres()      # a clear message when psycopg is not installed
            g.db = registry.of(current_app).borrow(current_app.config["DATABASE"])
            return g.db
        pool = registry.of(current_app).sqlite_pool(current_app.config["DATABASE"])
        try:
            g.db = pool.get_nowait()
        except queue.Empty:
            g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(_exc=None) -> None:
    """Teardown: the connection back to its pool, never an error (the answer is already made: a fault
    here would turn a 503 that says what happened into a bare 500)."""
    db = g.pop("db", None)
    if db is None:
        return
    if getattr(db, "dialect", "") == "postgresql":
        db.close()                 # rolled back if needed, back to psycopg's pool (a lost one is dropped)
        return
    try:
        if db.in_transaction:      # never hand on a connection in the middle of a transaction
            db.execute("ROLLBACK")
    except sqlite3.Error as err:
        current_app.logger.warning("database connection dropped at teardown: %s", err)
        db.close()                 # not reused: a connection whose rollback failed is not trusted
        return
    registry.of(current_app).sqlite_pool(current_app.config["DATABASE"]).put(db)


def probe_write(path: str) -> None:
    """One real write (the time of this check, in ``meta``): a read-only mount or a full disk is found
    now, when the server starts or a command begins, not at the first hand of the night. Raises
    sqlite3.Error."""
    from datetime import datetime, timezone

    db = connect(path)
    try:
        db.begin_write()
        db.execute("INSERT INTO meta(key, value) VALUES ('write_checked', ?)"
                   " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                   [datetime.now(timezone.utc).isoformat(timespec="seconds")])
        db.execute("COMMIT")
    finally:
        if db.in_transaction:
            db.execute("ROLLBACK")
        db.close()
