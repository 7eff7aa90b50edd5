"""PostgreSQL as the archive's engine (``--db postgresql://…``): several app servers on one database.

The store's SQL is written once, in the subset both engines read the same way (``ON CONFLICT``,
``RETURNING``, ``COALESCE``); this module adapts the few spellings that differ, once per statement and
cached: ``?`` placeholders become psycopg's ``%s``, SQLite's ``json_extract(col, '$.key')`` and
``json_each(?)`` become PostgreSQL's JSON functions, and ``LIKE`` keeps SQLite's case-insensitive match.

Transactions keep SQLite's meaning per session. ``BEGIN IMMEDIATE`` (one writer at a time, who sees
every commit before it) is ``BEGIN`` plus transaction-scoped advisory locks (``PostgresConnection.begin_write``): a
session's writer takes that session's lock, so writes to one session queue behind each other as they do
on SQLite while two tables' taps go on side by side; an archive-wide write takes the archive's lock and
waits for them all. Each statement after the lock reads every earlier commit (READ COMMITTED). A plain ``BEGIN`` (a read that must see one committed state) is REPEATABLE READ.

Connections come from psycopg's pool, one per app, process and database, kept in the app's registry
(``companion.registry``: a forked worker opens its own; two apps in one process never share one).
Text columns use the "C" collation, so ``ORDER BY`` sorts as SQLite does (by code point) whatever the
cluster's locale.
"""
from __future__ import annotations

import functools
import hashlib
import re
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

import psycopg
from psycopg import pq
from psycopg_pool import ConnectionPool


WRITE_LOCK = 0x436F6D70           # the archive's advisory lock ("Comp"): shared by a session's writer,
_BEGIN_WRITE = f"BEGIN; SELECT pg_advisory_xact_lock({WRITE_LOCK})".encode()    # whole for an archive-wide one
POOL_TIMEOUT = 10.0               # seconds a request waits for a connection (the server down: then 503)
MIGRATE_LOCK = WRITE_LOCK + 1     # servers starting at once migrate one after the other
LOCK_TIMEOUT = "10s"              # as SQLite's busy timeout: a writer waits this long, then fails
POOL_MAX = 32                     # connections per process: a gthread worker's threads plus its polls


def describe(url: str) -> str:
    """The URL without its password (for logs and messages)."""
    password = urlsplit(url).password
    return url if password is None else url.replace(f":{password}@", ":***@", 1)


def with_schema(url: str, schema: str) -> str:
    """``url`` with its tables looked up in ``schema`` first (tests: one schema per test). (Not through
    ``urlunsplit``: it drops the empty host of ``postgresql:///db?host=/socket``.)"""
    base, _, query = url.partition("?")
    params = [(k, v) for k, v in parse_qsl(query) if k != "options"]
    params.append(("options", f"-c search_path={schema}"))
    return f"{base}?{urlencode(params, quote_via=quote)}"


# ---------------------------------------------------------------------------------------------------
# SQL spelled once: what differs, adapted

_JSON_FIELD = re.compile(r"json_extract\(([\w.]+), '\$\.(\w+)'\)")
_JSON_EACH = re.compile(r"json_each\(\?\)")
_LIKE = re.compile(r"\bLIKE\b")
_QUOTED_OR_MARK = re.compile(r"'(?:[^']|'')*'|\?")


@functools.lru_cache(maxsize=4096)     # pure: the same statement, the same text (the code's SQL: a few hundred)
def translate(sql: str, with_params: bool) -> str:
    out = _JSON_FIELD.sub(r"json_extract_path_text(\1::json, '\2')", sql)
    out = _JSON_EACH.sub("json_array_elements_text(CAST(? AS json))", out)
    out = _LIKE.sub("ILIKE", out)      # SQLite's LIKE ignores case
    if with_params:
        out = out.replace("%", "%%")
        out = _QUOTED_OR_MARK.sub(lambda m: "%s" if m.group() == "?" else m.group(), out)
    return out


def _params(values) -> list:
    """PostgreSQL's text cannot hold NUL, which SQLite's can. Nothing stored holds one (user text is
    refused with control characters, JSON escapes them), so only a lookup can carry one (a search, a
    guessed token): as U+FFFD it finds nothing, as on SQLite, instead of failing."""
    return [v.replace("\x00", "\ufffd") if isinstance(v, str) and "\x00" in v else v for v in values]


class PostgresConnection:
    """``connection.Connection`` over one psycopg connection in autocommit mode (transactions are opened
    explicitly, as on SQLite). ``on_commit([(session id, version or None)])`` is told what a committed
    write moved (the registry's live cache of this process: the engine knows nothing of what listens)."""

    dialect = "postgresql"

    def __init__(self, raw: psycopg.Connection, url: str, pool: ConnectionPool | None = None, on_commit=None):
        self.raw, self.path, self.pool, self.on_commit = raw, url, pool, on_commit
        self.conn = self         # (for tests written when connections were sqlite-utils': ``db.conn.close()``)
        self.written: list[tuple[int, int | None]] = []   # this transaction's (session, new version)
        self.used = False

    def wrote(self, session_id: int, version: int | None) -> None:
        """The store moved a session to ``version`` (None: replaced its scoring link). Once committed,
        this process's live cache knows at once (``on_commit``); other servers hear it by NOTIFY."""
        self.written.append((session_id, version))

    def execute(self, sql: str, params=None):
        return self._first(lambda: self._execute(sql, params))

    def _first(self, run):
        if not self.used and self.pool is not None:
            # a request's first statement: a connection the server closed meanwhile (a restart, a
            # failover, an idle timeout) is replaced and the statement sent again, instead of failing the
            # request (cheaper than checking every borrowed connection with a round trip of its own)
            self.used = True
            try:
                return run()
            except psycopg.OperationalError:
                if not self.raw.broken and not self.raw.closed:
                    raise
                self.pool.putconn(self.raw)          # closed: the pool drops it
                self.raw = self.pool.getconn(timeout=POOL_TIMEOUT)
        return run()

    def begin_write(self, scope=None) -> None:
        """SQLite's ``BEGIN IMMEDIATE``, as narrow as the write: a write within one session (``scope``:
        the session's id, or another name for what it touches) takes the archive's lock shared and its
        scope's lock whole, so taps at two tables never wait for each other; an archive-wide write
        (``scope`` None: an import, the ratings' tables, a copy) takes the archive's lock whole and waits
        for every writer. Always the archive's lock first: no two writers can wait for each other."""
        self.written = []
        if scope is None:
            sql = _BEGIN_WRITE
        else:
            sql = (f"BEGIN; SELECT pg_advisory_xact_lock_shared({WRITE_LOCK});"
                   f" SELECT pg_advisory_xact_lock({WRITE_LOCK}, {scope_key(scope)})").encode()
        self._first(lambda: self.raw.execute(sql))

    def _execute(self, sql: str, params=None):
        if sql in ("COMMIT", "ROLLBACK"):
            written, self.written = self.written, []
            out = self.raw.execute(sql)
            if sql == "COMMIT" and written and self.on_commit is not None:
                self.on_commit(written)
            return out
        if sql == "BEGIN IMMEDIATE":           # one round trip: the two statements in one simple query
            return self.raw.execute(_BEGIN_WRITE)
        if sql == "BEGIN":
            return self.raw.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        params = _params(params) if params is not None else None
        return self.raw.execute(translate(sql, bool(params)), params or None)

    def executemany(self, sql: str, rows) -> None:
        rows = [_params(r) for r in rows]
        if rows:
            with self.raw.cursor() as cur:
                cur.executemany(translate(sql, True), rows)

    @property
    def in_transaction(self) -> bool:
        return self.raw.info.transaction_status != pq.TransactionStatus.IDLE

    def rollback(self) -> None:
        if self.in_transaction:
            self.raw.execute("ROLLBACK")

    def close(self) -> None:
        """Back to the pool (or closed, when it came from none), rolled back first; never raises: a
        connection lost meanwhile (a restart, a killed backend) is dropped by the pool, and the answer
        already made (a 503 saying so) is not turned into a 500 at teardown."""
        self.written = []          # not committed: nobody is told
        try:
            if not self.raw.closed and not self.raw.broken and self.in_transaction:
                self.raw.execute("ROLLBACK")
        except psycopg.Error:
            pass
        try:
            if self.pool is not None:
                self.pool.putconn(self.raw)
            else:
                self.raw.close()
        except Exception:      # noqa: BLE001 - a pool closing at exit, a connection already gone
            self.raw.close()


Database = PostgresConnection     # the name 0.4 used


def _configure(conn: psycopg.Connection) -> None:
    conn.execute(f"SET lock_timeout = '{LOCK_TIMEOUT}'")


def connect(url: str) -> PostgresConnection:
    """A connection of its own (migrations, the command line, tests)."""
    raw = psycopg.connect(url, autocommit=True)
    _configure(raw)
    return PostgresConnection(raw, url)


def make_pool(url: str) -> ConnectionPool:
    """A pool for ``url`` (the registry keeps one per app and process)."""
    return ConnectionPool(url, min_size=1, max_size=POOL_MAX, open=True, kwargs={"autocommit": True},
                          configure=_configure, name="companion")


def borrow(pool: ConnectionPool, url: str, on_commit=None) -> PostgresConnection:
    """A request's connection from ``pool`` (one the server closed meanwhile is replaced at its first
    statement)."""
    return PostgresConnection(pool.getconn(timeout=POOL_TIMEOUT), url, pool, on_commit)


def scope_key(scope) -> int:
    """A write scope's lock: 32 bits of a digest (the two-key form of the advisory locks, apart from the
    archive's and the migrations' one-key locks). Two scopes that share a key only wait for each other."""
    return int.from_bytes(hashlib.blake2b(str(scope).encode(), digest_size=4).digest(), "big", signed=True)


_VERSION_OF_LINK = b"SELECT version, view_token, id FROM sessions WHERE edit_token = $1 OR view_token = $1"
_NAME = b"companion_version_of_link2"
_NOT_PREPARED = b"26000"     # invalid_sql_statement_name: not prepared on this connection (yet, or any more)


def version_of_link(pool: ConnectionPool, token: str) -> tuple[int, str, int] | None:
    """(version, view token, session id) of the session a link opens, or None: the live poll's read, a statement
    prepared on each pooled connection and run through libpq directly (psycopg's cursor layer costs more
    than the read itself, and every phone asks every 2 s)."""
    try:
        return _version_of_link(pool, token)
    except psycopg.OperationalError:
        # a connection the server had closed (a restart, a failover): once more, on another one (the
        # poll checks no connection beforehand: that would be a second round trip on every poll)
        return _version_of_link(pool, token)


def _version_of_link(p: ConnectionPool, token: str) -> tuple[int, str, int] | None:
    conn = p.getconn()
    try:
        pg = conn.pgconn
        params = [_params([token])[0].encode()]
        res = pg.exec_prepared(_NAME, params)
        if res.status == pq.ExecStatus.FATAL_ERROR and \
                res.error_field(pq.DiagnosticField.SQLSTATE) == _NOT_PREPARED:
            # first use of this connection, or psycopg deallocated every statement (it does after a
            # ROLLBACK or a DROP): prepared again here
            _ok(pg, pg.prepare(_NAME, _VERSION_OF_LINK), pq.ExecStatus.COMMAND_OK)
            res = pg.exec_prepared(_NAME, params)
        _ok(pg, res, pq.ExecStatus.TUPLES_OK)
        if res.ntuples == 0:
            return None
        return int(res.get_value(0, 0)), res.get_value(0, 1).decode(), int(res.get_value(0, 2))
    finally:
        if conn.pgconn.status != pq.ConnStatus.OK:
            conn.close()     # lost mid-read: the pool drops it
        p.putconn(conn)


def _ok(pg, res, status):
    if res.status != status:
        raise psycopg.OperationalError((pg.error_message or b"").decode(errors="replace") or "query failed")
    return res


# ---------------------------------------------------------------------------------------------------
# the schema (its migrations: companion.storage.postgres_schema)

_TYPES = ((re.compile(r"\bTEXT\b"), 'TEXT COLLATE "C"'), (re.compile(r"\bREAL\b"), "DOUBLE PRECISION"),
          (re.compile(r"\bINTEGER\b"), "BIGINT"), (re.compile(r"\bBLOB\b"), "BYTEA"),
          (re.compile(r"\s*WITHOUT ROWID"), ""))


def ddl(sql: str) -> str:
    """A table written in SQLite's types, in PostgreSQL's: text sorts by code point ("C"), REAL is a
    double (SQLite's REAL is 8 bytes), integers are 64-bit."""
    for pattern, spelled in _TYPES:
        sql = pattern.sub(spelled, sql)
    return sql
