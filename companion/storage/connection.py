"""What the store asks of a database connection, whichever the engine: ``Connection``. Two classes
keep it: ``SQLiteConnection`` (here, over the standard library's sqlite3) and
``postgres.PostgresConnection`` (over psycopg). Neither poses as the other or as sqlite-utils'
``Database``: SQL goes through ``execute``/``executemany``, transactions through ``begin_write``
(SQLite's ``BEGIN IMMEDIATE``; on PostgreSQL a lock per session), ``BEGIN``/``COMMIT``/``ROLLBACK``."""
from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Connection(Protocol):
    dialect: str           # "sqlite" or "postgresql"
    path: str              # the database it opened (a file, a URL): caches are keyed by it

    def execute(self, sql: str, params=None) -> Any: ...          # a cursor: fetchone, fetchall, rowcount

    def executemany(self, sql: str, rows) -> None: ...

    @property
    def in_transaction(self) -> bool: ...

    def begin_write(self, scope=None) -> None: ...

    def close(self) -> None: ...


class SQLiteConnection:
    """One sqlite3 connection in autocommit mode (transactions opened explicitly). ``conn`` is the
    sqlite3 connection itself (its trace callback, backups)."""

    dialect = "sqlite"

    def __init__(self, conn: sqlite3.Connection, path: str):
        self.conn, self.path = conn, path

    def execute(self, sql: str, params=None):
        return self.conn.execute(sql, params if params is not None else ())

    def executemany(self, sql: str, rows) -> None:
        self.conn.executemany(sql, rows)

    @property
    def in_transaction(self) -> bool:
        return self.conn.in_transaction

    def begin_write(self, scope=None) -> None:
        """One writer at a time whatever the scope (SQLite locks the file); IMMEDIATE: a transaction that
        reads then writes waits on the busy handler instead of failing at once."""
        self.conn.execute("BEGIN IMMEDIATE")

    def rollback(self) -> None:
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")

    def close(self) -> None:
        self.conn.close()

    def enable_wal(self) -> None:
        if self.conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            self.conn.execute("PRAGMA journal_mode = wal")

    @contextmanager
    def atomic(self):
        """A transaction, or a savepoint inside one (a migration step and its record together)."""
        if self.conn.in_transaction:
            self.conn.execute("SAVEPOINT step")
            try:
                yield
            except BaseException:
                self.conn.execute("ROLLBACK TO step")
                self.conn.execute("RELEASE step")
                raise
            self.conn.execute("RELEASE step")
            return
        self.conn.execute("BEGIN")
        try:
            yield
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def utils(self):
        """sqlite-utils over this connection, for what plain SQL cannot say in SQLite (m003 rebuilds two
        tables without a column: ``Table.transform``)."""
        from sqlite_utils import Database

        return Database(self.conn)
