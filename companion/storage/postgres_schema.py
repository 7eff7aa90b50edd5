"""A PostgreSQL database made or brought up to date (its migrations: ``storage.migrations``, one list
with each engine's text), and the app's secret key kept in it."""
from __future__ import annotations

import secrets

from companion.storage.migrations import migrations
from companion.storage.postgres import PostgresConnection as Database, connect


def migrate(db: Database) -> list[str]:
    """Apply what is missing (``migrations.MIGRATIONS``, PostgreSQL's text), under a lock: two servers
    starting at once, the second waits and finds nothing left to do. Returns the names applied."""
    return migrations.apply(db)


def secret_key(db: Database) -> str:
    db.execute("INSERT INTO meta(key, value) VALUES ('secret_key', ?) ON CONFLICT (key) DO NOTHING",
               [secrets.token_hex(32)])
    return db.execute("SELECT value FROM meta WHERE key = 'secret_key'").fetchone()[0]


def init_db(url: str) -> str:
    """Create or migrate the tables (one server at a time); returns the app's persistent secret key."""
    db = connect(url)
    try:
        migrate(db)
        return secret_key(db)
    finally:
        db.raw.close()
