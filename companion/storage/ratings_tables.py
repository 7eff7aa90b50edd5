"""The ratings' derived tables (``companion.storage.ratings_store`` keeps them up to date): their schema in
both engines' words, whether they are ready, and building them again. They are not migrated
(``storage.migrations``): derived from the sessions, they are dropped and built again whenever ``SCHEMA``
changes or a trigger is missing."""
from __future__ import annotations

import json

from companion.storage.connection import Connection as Database
from companion.storage.store import dump

SCHEMA = "4"      # 3: contests ordered by the UTC instant a session started (issue 26); 4: rt_pairs
TRIGGERS = ("rt_on_insert", "rt_on_update", "rt_on_delete")

_TABLES = [
    "CREATE TABLE rt_dirty (session_id INTEGER PRIMARY KEY)",
    # what each session gave last time it was read: taken back when it changes
    "CREATE TABLE rt_sessions (session_id INTEGER PRIMARY KEY, data TEXT NOT NULL)",
    "CREATE TABLE rt_contests (ord TEXT PRIMARY KEY, session_id INTEGER NOT NULL, kind TEXT NOT NULL,"
    " club INTEGER NOT NULL, data TEXT NOT NULL)",
    "CREATE INDEX rt_contests_by_kind ON rt_contests(kind, ord)",
    # every rating after every contest (the chart; the point a replay starts from)
    "CREATE TABLE rt_history (kind TEXT NOT NULL, key TEXT NOT NULL, ord TEXT NOT NULL, mu REAL NOT NULL,"
    " sigma REAL NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (kind, key, ord)) WITHOUT ROWID",
    "CREATE INDEX rt_history_by_ord ON rt_history(ord)",
    # the rating after each player's last contest of each month (the chart reads months, not contests)
    "CREATE TABLE rt_monthly (kind TEXT NOT NULL, key TEXT NOT NULL, month TEXT NOT NULL, mu REAL NOT NULL,"
    " sigma REAL NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (kind, key, month)) WITHOUT ROWID",
    "CREATE TABLE rt_current (kind TEXT NOT NULL, key TEXT NOT NULL, name TEXT NOT NULL, mu REAL NOT NULL,"
    " sigma REAL NOT NULL, ordinal REAL NOT NULL, n INTEGER NOT NULL, last_ord TEXT NOT NULL,"
    " PRIMARY KEY (kind, key))",
    "CREATE INDEX rt_current_board ON rt_current(kind, ordinal DESC)",
    "CREATE INDEX rt_current_by_ord ON rt_current(last_ord)",
    "CREATE TABLE rt_stats (subject TEXT NOT NULL, what TEXT NOT NULL, other TEXT NOT NULL, played INTEGER"
    " NOT NULL, won INTEGER NOT NULL, lost INTEGER NOT NULL, drawn INTEGER NOT NULL,"
    " PRIMARY KEY (subject, what, other)) WITHOUT ROWID",
    # the figures of the kind rated as pairs (``Kind.rated_pairs``), per subject
    "CREATE TABLE rt_pairs (subject TEXT PRIMARY KEY, data TEXT NOT NULL)",
    "CREATE TABLE rt_names (key TEXT PRIMARY KEY, name TEXT NOT NULL)",
]
_TRIGGERS = [
    "CREATE TRIGGER rt_on_insert AFTER INSERT ON sessions BEGIN"
    " INSERT OR IGNORE INTO rt_dirty(session_id) VALUES (new.id); END",
    "CREATE TRIGGER rt_on_update AFTER UPDATE OF version, started ON sessions BEGIN"
    " INSERT OR IGNORE INTO rt_dirty(session_id) VALUES (new.id); END",
    "CREATE TRIGGER rt_on_delete AFTER DELETE ON sessions BEGIN"
    " INSERT OR IGNORE INTO rt_dirty(session_id) VALUES (old.id); END",
]
# the same three triggers in PostgreSQL's words (a trigger runs a function there)
_PG_TRIGGERS = [
    "CREATE OR REPLACE FUNCTION rt_mark() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
    " IF TG_OP = 'DELETE' THEN INSERT INTO rt_dirty(session_id) VALUES (OLD.id) ON CONFLICT DO NOTHING;"
    " ELSE INSERT INTO rt_dirty(session_id) VALUES (NEW.id) ON CONFLICT DO NOTHING; END IF;"
    " RETURN NULL; END $$",
    "CREATE TRIGGER rt_on_insert AFTER INSERT ON sessions FOR EACH ROW EXECUTE FUNCTION rt_mark()",
    "CREATE TRIGGER rt_on_update AFTER UPDATE OF version, started ON sessions FOR EACH ROW"
    " EXECUTE FUNCTION rt_mark()",
    "CREATE TRIGGER rt_on_delete AFTER DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION rt_mark()",
]
_NAMES = [s.split()[2] for s in _TABLES if s.startswith("CREATE TABLE")]


def _postgres(db: Database) -> bool:
    return getattr(db, "dialect", "sqlite") == "postgresql"


def ready(db: Database) -> bool:
    if _postgres(db):
        triggers = ("SELECT COUNT(*) FROM information_schema.triggers WHERE event_object_schema = current_schema()"
                    " AND event_manipulation IN ('INSERT', 'UPDATE', 'DELETE') AND trigger_name IN (?, ?, ?)")
    else:
        triggers = "SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger' AND name IN (?, ?, ?)"
    row = db.execute(f"SELECT (SELECT value FROM meta WHERE key = 'ratings_schema'), ({triggers})",
                     list(TRIGGERS)).fetchone()
    return row[0] == SCHEMA and row[1] == len(TRIGGERS)


def build(db: Database) -> None:
    """(Re)create the tables and triggers; every session is dirty then."""
    for name in TRIGGERS:
        db.execute(f"DROP TRIGGER IF EXISTS {name}" + (" ON sessions" if _postgres(db) else ""))
    for name in sorted(set(_NAMES) | set(_derived_tables(db))):     # an earlier schema's tables too
        db.execute(f"DROP TABLE IF EXISTS {name}")
    if _postgres(db):
        from companion.storage.postgres import ddl       # (psycopg: only when PostgreSQL is the engine)

        for sql in _TABLES:
            db.execute(ddl(sql))
        for sql in _PG_TRIGGERS:
            db.raw.execute(sql)
    else:
        for sql in _TABLES + _TRIGGERS:
            db.execute(sql)
    db.execute("INSERT INTO rt_dirty(session_id) SELECT id FROM sessions")
    db.execute("DELETE FROM meta WHERE key = 'ratings_pending'")
    put_meta(db, "ratings_schema", SCHEMA)


def _derived_tables(db: Database) -> list[str]:
    """Every table named ``rt_*``: the derived tables of this schema or of any earlier one."""
    if _postgres(db):
        sql = ("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
               " AND table_type = 'BASE TABLE' AND substr(table_name, 1, 3) = 'rt_'")
    else:
        sql = "SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, 3) = 'rt_'"
    return [row[0] for row in db.execute(sql).fetchall()]


def put_meta(db: Database, key: str, value: str) -> None:
    db.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
               [key, value])


# ---------------------------------------------------------------------------------------------------
# the pages' reads (``ratings_store`` turns the rows into figures)

def board_rows(db: Database, kind: str, limit: int, min_n: int) -> list[tuple]:
    """(key, name, mu, sigma, ordinal, n), best first (the index ``rt_current_board``)."""
    return db.execute("SELECT key, name, mu, sigma, ordinal, n FROM rt_current WHERE kind = ? AND n >= ?"
                      " ORDER BY ordinal DESC, key LIMIT ?", [kind, min_n, limit]).fetchall()


def contests_between(db: Database, kind: str, start: str | None, end: str | None, club: bool,
                     name_like: str | None) -> list[dict]:
    """The contests of a kind in a range of ``ord`` (and/or a club's nights, a name), in order."""
    sql = "SELECT data FROM rt_contests c WHERE kind = ?"
    params: list = [kind]
    if start:
        sql += " AND ord >= ?"
        params.append(start)
    if end:
        sql += " AND ord < ?"
        params.append(end)
    if club:
        sql += " AND club = 1"
    if name_like:
        sql += " AND session_id IN (SELECT id FROM sessions WHERE name LIKE ? ESCAPE '\\')"
        params.append(name_like)
    return [json.loads(r[0]) for r in db.execute(sql + " ORDER BY ord", params).fetchall()]


def current_rows(db: Database, key: str, pairs: str) -> list[tuple]:
    return db.execute("SELECT kind, mu, sigma, ordinal, n FROM rt_current WHERE key = ? AND kind != ?",
                      [key, pairs]).fetchall()


def count_above(db: Database, kind: str, ordinal: float) -> int:
    return db.execute("SELECT COUNT(*) FROM rt_current WHERE kind = ? AND ordinal > ?", [kind, ordinal]).fetchone()[0]


def monthly_rows(db: Database, kind: str, key: str) -> list[tuple]:
    return db.execute("SELECT month, mu, sigma, n FROM rt_monthly WHERE kind = ? AND key = ? ORDER BY month",
                      [kind, key]).fetchall()


def stats_rows(db: Database, subject: str, what: str) -> list[tuple]:
    return db.execute("SELECT other, played, won, lost, drawn FROM rt_stats WHERE subject = ? AND what = ?",
                      [subject, what]).fetchall()


def head_to_head_rows(db: Database, a: str, b: str) -> list[tuple]:
    return db.execute("SELECT what, played, won, lost, drawn FROM rt_stats"
                      " WHERE subject = ? AND other = ? AND (what LIKE 'h2h:%' OR what = 'partner')", [a, b]).fetchall()


def pair_numbers(db: Database, subject: str) -> dict | None:
    row = db.execute("SELECT data FROM rt_pairs WHERE subject = ?", [subject]).fetchone()
    return json.loads(row[0]) if row else None


def names(db: Database, keys: list[str]) -> dict[str, str]:
    if not keys:
        return {}
    return dict(db.execute("SELECT key, name FROM rt_names WHERE key IN (SELECT value FROM json_each(?))",
                           [json.dumps(keys)]).fetchall())


# ---------------------------------------------------------------------------------------------------
# keeping them up to date (``ratings_store.refresh`` decides; these are its statements)

def any_dirty(db: Database) -> bool:
    return db.execute("SELECT 1 FROM rt_dirty LIMIT 1").fetchone() is not None


def dirty_ids(db: Database, limit: int) -> list[int]:
    return [r[0] for r in db.execute("SELECT session_id FROM rt_dirty ORDER BY session_id LIMIT ?", [limit]).fetchall()]


def count_sessions(db: Database) -> int:
    return db.execute("SELECT COUNT(*) FROM sessions").fetchone()[0]


def count_dirty(db: Database) -> int:
    return db.execute("SELECT COUNT(*) FROM rt_dirty").fetchone()[0]


def clean(db: Database, sid: int, version: int | None) -> None:
    """The session is read: no longer dirty, unless it was written to since (the trigger keeps its row)."""
    db.execute("DELETE FROM rt_dirty WHERE session_id = ? AND COALESCE((SELECT version FROM sessions WHERE id = ?), -1) = ?",
               [sid, sid, -1 if version is None else version])


def pending(db: Database) -> str | None:
    row = db.execute("SELECT value FROM meta WHERE key = 'ratings_pending'").fetchone()
    return row[0] if row else None


def clear_pending(db: Database) -> None:
    db.execute("DELETE FROM meta WHERE key = 'ratings_pending'")


def session_when(db: Database, sid: int) -> tuple[str, int] | None:
    """(when it started, else was made; its version), or None when it is gone."""
    return db.execute("SELECT COALESCE(started, created), version FROM sessions WHERE id = ?", [sid]).fetchone()


def share_of(db: Database, sid: int) -> dict | None:
    row = db.execute("SELECT data FROM rt_sessions WHERE session_id = ?", [sid]).fetchone()
    return json.loads(row[0]) if row else None


def drop_share(db: Database, sid: int) -> None:
    db.execute("DELETE FROM rt_contests WHERE session_id = ?", [sid])
    db.execute("DELETE FROM rt_sessions WHERE session_id = ?", [sid])


def put_share(db: Database, sid: int, contests: list[list], names: list[tuple], data: str) -> None:
    """The session's contests (rows: ord, session id, kind, club, data), its players' names and its share."""
    db.executemany("INSERT INTO rt_contests(ord, session_id, kind, club, data) VALUES (?, ?, ?, ?, ?)", contests)
    db.executemany("INSERT INTO rt_names(key, name) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET name = excluded.name",
                   names)
    db.execute("INSERT INTO rt_sessions(session_id, data) VALUES (?, ?)"
               " ON CONFLICT (session_id) DO UPDATE SET data = excluded.data", [sid, data])


def add_stats(db: Database, row: list) -> None:
    """(subject, what, other, played, won, lost, drawn) added to the sums (negative: taken back)."""
    db.execute("INSERT INTO rt_stats(subject, what, other, played, won, lost, drawn) VALUES (?, ?, ?, ?, ?, ?, ?)"
               " ON CONFLICT(subject, what, other) DO UPDATE SET played = rt_stats.played + excluded.played,"
               " won = rt_stats.won + excluded.won, lost = rt_stats.lost + excluded.lost,"
               " drawn = rt_stats.drawn + excluded.drawn", row)


def add_share(db: Database, share: dict, sign: int, figures: dict) -> None:
    """A session's share (``ratings.derived.session_share``) added to the sums (``sign`` -1: taken back);
    ``figures``: its pair kind's ({subject: figures}, ``ratings.derived.pair_figures``)."""
    for subject, what, other, p, w, l, d in share["stats"]:
        add_stats(db, [subject, what, other, sign * p, sign * w, sign * l, sign * d])
    if sign < 0:
        drop_empty_stats(db, sorted({s[0] for s in share["stats"]}))
    for subject, numbers in figures.items():
        acc = pair_numbers(db, subject) or {}
        for k, v in numbers.items():
            acc[k] = acc.get(k, 0) + sign * v
        put_pair_numbers(db, subject, dump(acc) if any(acc.values()) else None)


def drop_empty_stats(db: Database, subjects: list[str]) -> None:
    db.execute("DELETE FROM rt_stats WHERE played = 0 AND subject IN (SELECT value FROM json_each(?))",
               [json.dumps(subjects)])


def put_pair_numbers(db: Database, subject: str, data: str | None) -> None:
    """A subject's figures of the kind that rates pairs (None: it has none any more)."""
    if data is None:
        db.execute("DELETE FROM rt_pairs WHERE subject = ?", [subject])
    else:
        db.execute("INSERT INTO rt_pairs(subject, data) VALUES (?, ?) ON CONFLICT (subject) DO UPDATE SET data = excluded.data",
                   [subject, data])


def forget_from(db: Database, cutoff: str) -> None:
    """Take back what was rated from ``cutoff`` on: its history, its months (the month of ``cutoff`` kept
    as it stood before it)."""
    db.execute("DELETE FROM rt_history WHERE ord >= ?", [cutoff])
    month = cutoff[:7]
    db.execute("DELETE FROM rt_monthly WHERE month >= ?", [month])
    db.execute("INSERT INTO rt_monthly(kind, key, month, mu, sigma, n) SELECT h.kind, h.key, CAST(? AS TEXT),"
               " h.mu, h.sigma, h.n FROM rt_history h JOIN (SELECT kind, key, MAX(ord) AS ord FROM rt_history"
               "  WHERE ord >= ? AND ord < ? GROUP BY kind, key) m ON h.kind = m.kind AND h.key = m.key"
               " AND h.ord = m.ord", [month, month, cutoff])


def rated_since(db: Database, cutoff: str) -> list[tuple[str, str]]:
    return db.execute("SELECT kind, key FROM rt_current WHERE last_ord >= ?", [cutoff]).fetchall()


def last_history(db: Database, kind: str, key: str) -> tuple | None:
    """(mu, sigma, n, ord) of the player's last rated contest, or None."""
    return db.execute("SELECT mu, sigma, n, ord FROM rt_history WHERE kind = ? AND key = ? ORDER BY ord DESC LIMIT 1",
                      [kind, key]).fetchone()


def drop_current(db: Database, kind: str, key: str) -> None:
    db.execute("DELETE FROM rt_current WHERE kind = ? AND key = ?", [kind, key])


def set_current(db: Database, kind: str, key: str, mu: float, sigma: float, ordinal: float, n: int, ord_: str) -> None:
    db.execute("UPDATE rt_current SET mu = ?, sigma = ?, ordinal = ?, n = ?, last_ord = ? WHERE kind = ? AND key = ?",
               [mu, sigma, ordinal, n, ord_, kind, key])


def current_rating(db: Database, kind: str, key: str) -> tuple | None:
    return db.execute("SELECT mu, sigma, n FROM rt_current WHERE kind = ? AND key = ?", [kind, key]).fetchone()


def contests_from(db: Database, cutoff: str, limit: int) -> list[tuple]:
    return db.execute("SELECT ord, data FROM rt_contests WHERE ord >= ? ORDER BY ord LIMIT ?", [cutoff, limit]).fetchall()


def put_rated(db: Database, history: list, monthly: list, current: list) -> None:
    """A replay's rows: every rating after every contest, the last of each month, the players' ratings now."""
    db.executemany("INSERT INTO rt_history(kind, key, ord, mu, sigma, n) VALUES (?, ?, ?, ?, ?, ?)", history)
    db.executemany("INSERT INTO rt_monthly(kind, key, month, mu, sigma, n) VALUES (?, ?, ?, ?, ?, ?)"
                   " ON CONFLICT (kind, key, month) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
                   " n = excluded.n", monthly)
    db.executemany(
        "INSERT INTO rt_current(kind, key, name, mu, sigma, ordinal, n, last_ord) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT(kind, key) DO UPDATE SET name = excluded.name, mu = excluded.mu, sigma = excluded.sigma,"
        " ordinal = excluded.ordinal, n = excluded.n, last_ord = excluded.last_ord", current)
