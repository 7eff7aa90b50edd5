"""The embedded SQLite database: one connection per request, migrations, pragmas.

Writes go through ``service.py`` and ``store.py`` inside ``BEGIN IMMEDIATE`` (a deferred BEGIN that reads
then writes fails at once under contention instead of waiting).
"""
from __future__ import annotations

import json
import queue
import secrets
import sqlite3

from flask import current_app, g
from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from .. import engine, registry
from ..errors import RuleError

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
    """Summaries are recomputed by m004 (after m003 moved games into rows)."""


@migrations()
def m003_games_and_items(db: Database):
    """Games as rows: each game's head and running state, each hand or deal with what it gave and the
    state before it (a write touches a few rows, not the whole night). Undo keeps the inverse change in
    its event. Idempotency keys are scoped to a browser and a session; a browser's edit role is tied to
    the scoring link it opened (``edit_gen``)."""
    db.execute("""
        CREATE TABLE games (
            session_id INTEGER NOT NULL REFERENCES sessions(id),
            gi INTEGER NOT NULL,
            kind TEXT NOT NULL,
            head TEXT NOT NULL,
            state TEXT NOT NULL,
            seed TEXT,
            items INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (session_id, gi)
        )""")
    db.execute("""
        CREATE TABLE items (
            session_id INTEGER NOT NULL,
            gi INTEGER NOT NULL,
            idx INTEGER NOT NULL,
            body TEXT NOT NULL,
            result TEXT,
            before TEXT NOT NULL,
            PRIMARY KEY (session_id, gi, idx)
        )""")
    db.execute("ALTER TABLE sessions ADD COLUMN header TEXT NOT NULL DEFAULT '{}'")
    db.execute("ALTER TABLE sessions ADD COLUMN edit_gen INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE events ADD COLUMN undo TEXT")
    db.execute("ALTER TABLE events ADD COLUMN undone_by INTEGER")
    db.execute("CREATE INDEX events_by_game ON events(session_id, game, seq)")
    db.execute("ALTER TABLE browsers ADD COLUMN gen INTEGER NOT NULL DEFAULT 0")
    db.execute("DROP TABLE requests")
    db.execute("""
        CREATE TABLE requests (
            browser TEXT NOT NULL,
            scope TEXT NOT NULL,
            key TEXT NOT NULL,
            seq INTEGER NOT NULL,
            location TEXT NOT NULL,
            PRIMARY KEY (browser, scope, key)
        )""")
    db.execute("""
        CREATE TABLE legacy (
            session_id INTEGER PRIMARY KEY,
            doc TEXT NOT NULL,
            problem TEXT NOT NULL
        )""")
    from ..service import rows_of_session
    from ..session import load

    for session_id, doc in db.execute("SELECT id, doc FROM sessions").fetchall():
        parsed = json.loads(doc)
        try:
            session = load(parsed)
        except RuleError as err:
            # kept whole, never lost: the session opens with its players and the games that still read
            db.execute("INSERT INTO legacy(session_id, doc, problem) VALUES (?, ?, ?)", [session_id, doc, str(err)])
            session = _salvage(parsed)
        games, items = rows_of_session(session)
        db.execute("UPDATE sessions SET header = ? WHERE id = ?", [_dump(session.header), session_id])
        for gi, (kind, head, state, seed, count) in enumerate(games):
            db.execute("INSERT INTO games(session_id, gi, kind, head, state, seed, items) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       [session_id, gi, kind, _dump(head), _dump(state), None if seed is None else _dump(seed),
                        count])
        db.conn.executemany("INSERT INTO items(session_id, gi, idx, body, result, before) VALUES (?, ?, ?, ?, ?, ?)",
                            [[session_id, gi, idx, _dump(body), None if result is None else _dump(result),
                              _dump(before)] for gi, idx, (body, result, before) in items])
    db["sessions"].transform(drop={"doc"})
    db["events"].transform(drop={"before"})


@migrations()
def m004_summaries(db: Database):
    """Summaries and nets from the games' rows (the history pages read messages, not sentences)."""
    _rebuild_summaries(db)


def _rebuild_summaries(db: Database) -> None:
    from ..service import rebuild_summary

    for (session_id,) in db.execute("SELECT id FROM sessions").fetchall():
        rebuild_summary(db, session_id)


def _dump(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


@migrations()
def m005_club_tables(db: Database):
    """A club night's tables: each table of a session has its own scoring link (a capability over that
    table's games only). Replacing it writes a new token: the old one opens nothing."""
    db.execute("""
        CREATE TABLE club_tables (
            session_id INTEGER NOT NULL REFERENCES sessions(id),
            label TEXT NOT NULL,
            token TEXT NOT NULL UNIQUE,
            created TEXT NOT NULL,
            PRIMARY KEY (session_id, label)
        )""")


@migrations()
def m006_form_fingerprints(db: Database):
    """An idempotency key remembers the request it came with (companion.formkeys): reused with other
    fields or on another route, it is refused. Looked up by browser and key, whatever the scope."""
    db.execute("ALTER TABLE requests ADD COLUMN print TEXT")
    db.execute("CREATE INDEX requests_by_key ON requests(browser, key)")


@migrations()
def m007_game_entries(db: Database):
    """Summaries keep one entry per game (its nets, what is left on the table) and the settle plan: a
    write rebuilds only the entries of the games it touched."""
    _rebuild_summaries(db)


def _salvage(doc: dict):
    from ..session import Session, build_game, normalize_header

    header = normalize_header({k: v for k, v in doc.items() if k != "games"})
    session = Session(header)
    for game in doc.get("games") or []:
        try:
            session.games.append(build_game(game, header["players"], None))
        except RuleError:
            continue
    return session


BUSY_TIMEOUT = 10     # seconds a write waits for another writer before "database is locked"


def connect(path: str) -> Database:
    """A connection in autocommit mode: transactions are opened explicitly (BEGIN IMMEDIATE). Its
    pragmas are set once, here, not before every write. ``path`` may be a PostgreSQL URL
    (``companion.postgres``: the same calls, another engine)."""
    if engine.is_url(path):
        return engine.postgres().connect(path)
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False)
    for pragma in PRAGMAS:
        conn.execute(pragma)
    db = Database(conn)
    db.dialect = "sqlite"
    db.path = path      # the store's caches are per database file
    return db


PRAGMAS = (
    "PRAGMA foreign_keys = ON",
    "PRAGMA synchronous = FULL",  # WAL + NORMAL may lose the last commits on power loss
)


def init_db(path: str) -> str:
    """Create or migrate the database; returns the app's persistent secret key."""
    if engine.is_url(path):
        engine.postgres()           # a clear message when psycopg is not installed
        from .postgres_schema import init_db as init_postgres

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
        db.conn.close()


def get_db() -> Database:
    """This request's connection. Each request holds one connection of its own; connections are
    reused across requests because opening one (schema parse, wrapper) costs ~100x a poll's query."""
    if "db" not in g:
        if engine.is_url(current_app.config["DATABASE"]):
            g.db = engine.postgres().borrow(current_app.config["DATABASE"])
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
        if db.conn.in_transaction:  # never hand on a connection in the middle of a transaction
            db.execute("ROLLBACK")
    except sqlite3.Error as err:
        current_app.logger.warning("database connection dropped at teardown: %s", err)
        db.conn.close()            # not reused: a connection whose rollback failed is not trusted
        return
    registry.of(current_app).sqlite_pool(current_app.config["DATABASE"]).put(db)
