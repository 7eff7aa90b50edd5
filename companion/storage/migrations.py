"""One ordered list of migrations, each with its SQLite text and its PostgreSQL text (issue 27): the
tables of both engines change together, in one place, in one order.

Each step names what it does on each engine: statements, or a function of the connection (SQLite's old
steps move rows, which a statement cannot), or nothing (``()``: PostgreSQL databases start at the schema
of 0.4, ``m001``'s PostgreSQL text; SQLite has no notifications). A step is recorded once applied, on
both engines alike, in the table each engine has always used: SQLite's ``_sqlite_migrations`` (set
``companion``, as sqlite-utils' runner wrote it: databases made by earlier releases upgrade as they are),
PostgreSQL's ``migrations`` (where 0.4 recorded ``p001_schema`` and ``p002_notify_versions``: ``pg_was``).
``tests/test_postgres.py`` holds the two engines to the same tables, columns and keys.

The ratings' tables are not migrated here: they are derived, dropped and built again from the sessions
whenever ``storage.ratings_tables.SCHEMA`` changes.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone

from companion.storage.connection import SQLiteConnection as Database

from companion.domain.errors import RuleError

SET = "companion"               # the migration set's name in ``_sqlite_migrations``


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


def m002_history_summaries(db: Database):
    """Summaries are recomputed by m004 (after m003 moved games into rows)."""


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
    from companion.service import rows_of_session
    from companion.record.session import load

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
        db.executemany("INSERT INTO items(session_id, gi, idx, body, result, before) VALUES (?, ?, ?, ?, ?, ?)",
                            [[session_id, gi, idx, _dump(body), None if result is None else _dump(result),
                              _dump(before)] for gi, idx, (body, result, before) in items])
    utils = db.utils()
    utils["sessions"].transform(drop={"doc"})
    utils["events"].transform(drop={"before"})


def m004_summaries(db: Database):
    """Summaries and nets from the games' rows (the history pages read messages, not sentences)."""
    _rebuild_summaries(db)


def _rebuild_summaries(db: Database) -> None:
    from companion.service import rebuild_summary

    for (session_id,) in db.execute("SELECT id FROM sessions").fetchall():
        rebuild_summary(db, session_id)


def _dump(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


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


def m006_form_fingerprints(db: Database):
    """An idempotency key remembers the request it came with (companion.formkeys): reused with other
    fields or on another route, it is refused. Looked up by browser and key, whatever the scope."""
    db.execute("ALTER TABLE requests ADD COLUMN print TEXT")
    db.execute("CREATE INDEX requests_by_key ON requests(browser, key)")


def m007_game_entries(db: Database):
    """Summaries keep one entry per game (its nets, what is left on the table) and the settle plan: a
    write rebuilds only the entries of the games it touched."""
    _rebuild_summaries(db)


def _salvage(doc: dict):
    from companion.record.session import Session, build_game, normalize_header

    header = normalize_header({k: v for k, v in doc.items() if k != "games"})
    session = Session(header)
    for game in doc.get("games") or []:
        try:
            session.games.append(build_game(game, header["players"], None))
        except RuleError:
            continue
    return session


# PostgreSQL's text of m001: the schema of 0.4 at once, in SQLite's types (``postgres.ddl`` spells them)
P001 = [
    """CREATE TABLE sessions (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        name TEXT NOT NULL,
        created TEXT NOT NULL,
        updated TEXT NOT NULL,
        started TEXT,
        edit_token TEXT NOT NULL UNIQUE,
        view_token TEXT NOT NULL UNIQUE,
        version INTEGER NOT NULL DEFAULT 0,
        summary TEXT NOT NULL DEFAULT '{}',
        header TEXT NOT NULL DEFAULT '{}',
        edit_gen INTEGER NOT NULL DEFAULT 0)""",
    "CREATE INDEX sessions_by_started ON sessions(started DESC, id DESC)",
    """CREATE TABLE events (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES sessions(id),
        seq INTEGER NOT NULL,
        type TEXT NOT NULL,
        game INTEGER,
        payload TEXT NOT NULL,
        created TEXT NOT NULL,
        undo TEXT,
        undone_by INTEGER,
        UNIQUE (session_id, seq))""",
    "CREATE INDEX events_by_game ON events(session_id, game, seq)",
    """CREATE TABLE session_players (
        session_id INTEGER NOT NULL REFERENCES sessions(id),
        name TEXT NOT NULL,
        key TEXT NOT NULL,
        net INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (session_id, key))""",
    "CREATE INDEX session_players_by_key ON session_players(key, session_id)",
    """CREATE TABLE session_kinds (
        session_id INTEGER NOT NULL REFERENCES sessions(id),
        kind TEXT NOT NULL,
        PRIMARY KEY (session_id, kind))""",
    "CREATE INDEX session_kinds_by_kind ON session_kinds(kind, session_id)",
    """CREATE TABLE browsers (
        browser TEXT NOT NULL,
        session_id INTEGER NOT NULL REFERENCES sessions(id),
        role TEXT NOT NULL,
        opened TEXT NOT NULL,
        gen INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (browser, session_id))""",
    "CREATE INDEX browsers_recent ON browsers(browser, opened DESC)",
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE games (
        session_id INTEGER NOT NULL REFERENCES sessions(id),
        gi INTEGER NOT NULL,
        kind TEXT NOT NULL,
        head TEXT NOT NULL,
        state TEXT NOT NULL,
        seed TEXT,
        items INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (session_id, gi))""",
    """CREATE TABLE items (
        session_id INTEGER NOT NULL,
        gi INTEGER NOT NULL,
        idx INTEGER NOT NULL,
        body TEXT NOT NULL,
        result TEXT,
        before TEXT NOT NULL,
        PRIMARY KEY (session_id, gi, idx))""",
    """CREATE TABLE requests (
        browser TEXT NOT NULL,
        scope TEXT NOT NULL,
        key TEXT NOT NULL,
        seq INTEGER NOT NULL,
        location TEXT NOT NULL,
        print TEXT,
        PRIMARY KEY (browser, scope, key))""",
    "CREATE INDEX requests_by_key ON requests(browser, key)",
    """CREATE TABLE legacy (
        session_id INTEGER PRIMARY KEY,
        doc TEXT NOT NULL,
        problem TEXT NOT NULL)""",
    """CREATE TABLE club_tables (
        session_id INTEGER NOT NULL REFERENCES sessions(id),
        label TEXT NOT NULL,
        token TEXT NOT NULL UNIQUE,
        created TEXT NOT NULL,
        PRIMARY KEY (session_id, label))""",
]

# every server is told of a session's new version or replaced scoring link at commit (postgres_live):
# the channel is named after the schema, so two archives in one database never hear each other
P002 = [
    "CREATE OR REPLACE FUNCTION companion_notify_version() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
    " PERFORM pg_notify('companion_versions.' || TG_TABLE_SCHEMA, NEW.id || ' ' || NEW.version ||"
    " CASE WHEN NEW.edit_token IS DISTINCT FROM OLD.edit_token THEN ' link' ELSE '' END);"
    " RETURN NULL; END $$",
    "CREATE TRIGGER companion_versions AFTER UPDATE OF version, edit_token ON sessions FOR EACH ROW"
    " EXECUTE FUNCTION companion_notify_version()",
]


@dataclass(frozen=True)
class Migration:
    name: str
    sqlite: Callable | tuple | list           # statements, a function of the connection, or () nothing
    postgresql: Callable | tuple | list
    pg_was: str | None = None                 # the name an earlier release recorded it under (PostgreSQL)

    def step(self, dialect: str):
        return self.postgresql if dialect == "postgresql" else self.sqlite


MIGRATIONS: list[Migration] = [
    Migration("m001_initial", m001_initial, P001, pg_was="p001_schema"),
    # PostgreSQL databases start at the schema of 0.4 (m001's text there): these are SQLite's history
    Migration("m002_history_summaries", m002_history_summaries, ()),
    Migration("m003_games_and_items", m003_games_and_items, ()),
    Migration("m004_summaries", m004_summaries, ()),
    Migration("m005_club_tables", m005_club_tables, ()),
    Migration("m006_form_fingerprints", m006_form_fingerprints, ()),
    Migration("m007_game_entries", m007_game_entries, ()),
    Migration("m008_notify_versions", (), P002, pg_was="p002_notify_versions"),
]


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _run(db, step) -> None:
    if callable(step):
        step(db)
        return
    for sql in step:
        db.execute(sql)


class Migrations:
    """The runner of ``MIGRATIONS`` on either engine."""

    def applied(self, db) -> set[str]:
        if getattr(db, "dialect", "sqlite") == "postgresql":
            db.execute("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
            done = {r[0] for r in db.execute("SELECT name FROM migrations").fetchall()}
            return done | {m.name for m in MIGRATIONS if m.pg_was in done}
        if db.execute("SELECT 1 FROM sqlite_master WHERE name = '_sqlite_migrations'").fetchone() is None:
            return set()
        return {r[0] for r in db.execute("SELECT name FROM _sqlite_migrations WHERE migration_set = ?", [SET])}

    def pending(self, db) -> list[Migration]:
        done = self.applied(db)
        return [m for m in MIGRATIONS if m.name not in done]

    def apply(self, db, stop_before: str | None = None) -> list[str]:
        """Apply what is missing, in order, each step with its record in one transaction; returns the
        names applied. ``stop_before``: leave that step and the ones after it (tests of old databases)."""
        if getattr(db, "dialect", "sqlite") == "postgresql":
            return self._apply_postgresql(db, stop_before)
        db.execute("CREATE TABLE IF NOT EXISTS _sqlite_migrations (id INTEGER PRIMARY KEY, migration_set TEXT,"
                   " name TEXT, applied_at TEXT)")
        db.execute("CREATE UNIQUE INDEX IF NOT EXISTS idx__sqlite_migrations_migration_set_name"
                   " ON _sqlite_migrations(migration_set, name)")
        names = []
        for m in self.pending(db):
            if m.name == stop_before:
                break
            with db.atomic():      # (sqlite-utils' transform, used by m003, nests inside it)
                _run(db, m.sqlite)
                db.execute("INSERT INTO _sqlite_migrations(migration_set, name, applied_at) VALUES (?, ?, ?)",
                           [SET, m.name, _now()])
            names.append(m.name)
        return names

    def _apply_postgresql(self, db, stop_before: str | None) -> list[str]:
        """Under a lock (two servers starting at once: the second waits and finds nothing left to do)."""
        from companion.storage.postgres import MIGRATE_LOCK, ddl

        names = []
        db.raw.execute("BEGIN")      # READ COMMITTED: after the lock, every earlier server's migration is seen
        try:
            db.raw.execute("SELECT pg_advisory_xact_lock(%s)", [MIGRATE_LOCK])
            for m in self.pending(db):
                if m.name == stop_before:
                    break
                if callable(m.postgresql):
                    m.postgresql(db)
                else:
                    for sql in m.postgresql:
                        db.raw.execute(ddl(sql))
                db.execute("INSERT INTO migrations(name, applied_at) VALUES (?, ?)", [m.name, _now()])
                names.append(m.name)
            db.execute("COMMIT")
        except BaseException:
            db.rollback()
            raise
        return names


migrations = Migrations()
