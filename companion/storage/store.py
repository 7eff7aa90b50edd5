"""The event store: SQL only. A session is rows (its header and summary, each game's head and running
state, each hand or deal with what it gave and the state before it), and every write is one event
appended inside ``BEGIN IMMEDIATE`` together with the rows it changes, the session's new version, the
history side tables and the idempotency key. It knows JSON and rows, never a game's rules: what an event
does is worked out by ``companion.record.events`` and handed here as ``Rows`` by ``companion.service``.

A write names the version it was worked out on; ``commit`` lands it only if the session is still at that
version (``UPDATE … WHERE version = ?``), so the reads before it need no lock and no second look.
"""
from __future__ import annotations

import json
import secrets
from collections.abc import Iterable
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Callable

from companion.storage.connection import Connection as Database

from companion.domain.errors import KeyReused, RuleError
from companion.domain.indexed import Indexed

MAX_KEY = 64


@dataclass
class Written:
    seq: int
    location: str
    replayed: bool = False  # True: this key had already landed; nothing new was written


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 192 bits


def dump(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _json(text):
    return json.loads(text) if text is not None else None


@contextmanager
def immediate(db: Database, scope=None):
    """A write transaction. ``scope``: the one session it writes (its id) or another narrow name, so that
    on PostgreSQL it waits only for writers of the same scope; None: archive-wide, it waits for every
    writer. (SQLite has one writer at a time whatever the scope.)"""
    db.begin_write(scope)
    try:
        yield
    except BaseException:
        if db.in_transaction:      # SQLite has already rolled back after a full disk or an I/O error
            db.execute("ROLLBACK")
        raise
    else:
        db.execute("COMMIT")


@contextmanager
def snapshot(db: Database):
    """Reads that see one committed state of the database (WAL: a read transaction)."""
    if db.in_transaction:
        yield
        return
    db.execute("BEGIN")
    try:
        yield
    finally:
        db.execute("COMMIT")


# ---------------------------------------------------------------------------------------------------
# reading

_SESSION = "SELECT id, version, edit_token, view_token, edit_gen, header, summary FROM sessions"


def _session(row) -> dict:
    return {"id": row[0], "version": row[1], "edit_token": row[2], "view_token": row[3], "edit_gen": row[4],
            "header": json.loads(row[5]), "summary": json.loads(row[6])}


def find(db: Database, token: str):
    """(session row, role) for an edit or view token, or (None, None): the one read of the session a
    request makes (its header and summary come with it). The token is looked up through a unique index;
    guessing one is 2**-192."""
    row = db.execute(f"{_SESSION} WHERE edit_token = ? OR view_token = ?", [token, token]).fetchone()
    if row is None:
        return None, None
    role = "edit" if secrets.compare_digest(row[2].encode(), token.encode()) else "view"
    return _session(row), role


def session(db: Database, session_id: int) -> dict:
    row = db.execute(f"{_SESSION} WHERE id = ?", [session_id]).fetchone()
    if row is None:
        raise KeyError(session_id)
    return _session(row)


def integrity(db: Database) -> list[str]:
    """SQLite's own check of its file (["ok"] when whole); PostgreSQL checks its pages itself (and its
    replicas are a DBA's tools)."""
    if getattr(db, "dialect", "") == "postgresql":
        return ["ok"]
    return [r[0] for r in db.execute("PRAGMA integrity_check").fetchall()]


def session_ids(db: Database) -> list[int]:
    return [r[0] for r in db.execute("SELECT id FROM sessions ORDER BY id").fetchall()]


def exists(db: Database, session_id: int) -> bool:
    return db.execute("SELECT 1 FROM sessions WHERE id = ?", [session_id]).fetchone() is not None


def version(db: Database, session_id: int) -> int:
    return db.execute("SELECT version FROM sessions WHERE id = ?", [session_id]).fetchone()[0]


class LazyItems(Indexed):
    """A game's items as rows, read when asked for (a tap reads the last one), with Python's indexes.
    ``make(body, result, before)`` turns a row into the caller's item."""

    def __init__(self, db: Database, session_id: int, gi: int, count: int, make: Callable):
        self.db, self.session_id, self.gi, self.count, self.make = db, session_id, gi, count, make
        self.cache: dict = {}

    def known(self, last: list) -> None:
        """The last items, read already (a page's recent hands): asking for them reads nothing more."""
        for k, item in enumerate(last):
            self.cache.setdefault(self.count - len(last) + k, item)

    def _get(self, i: int):
        if i not in self.cache:
            rows = self.db.execute(
                "SELECT idx, body, result, before FROM items WHERE session_id = ? AND gi = ? AND idx <= ?"
                " ORDER BY idx DESC LIMIT 1", [self.session_id, self.gi, i]).fetchall()
            for r in rows:
                self.cache.setdefault(r[0], self.make(json.loads(r[1]), _json(r[2]), json.loads(r[3])))
        return self.cache[i]


_GAME = "SELECT gi, kind, head, state, seed, items FROM games WHERE session_id = ?"


def _game(row) -> tuple:
    """(gi, kind, head, state, seed, count)"""
    return row[0], row[1], json.loads(row[2]), json.loads(row[3]), _json(row[4]), row[5]


def game(db: Database, session_id: int, gi: int) -> tuple | None:
    row = db.execute(f"{_GAME} AND gi = ?", [session_id, gi]).fetchone()
    return _game(row) if row else None


def games(db: Database, session_id: int) -> list[tuple]:
    """Every game's row (heads and running states: what a page or a summary needs), in one read."""
    return [_game(r) for r in db.execute(f"{_GAME} ORDER BY gi", [session_id])]


def recent(db: Database, session_id: int, gi: int, count: int) -> list[tuple]:
    """The last ``count`` items of a game as (body, result, before), oldest first."""
    rows = db.execute("SELECT body, result, before FROM items WHERE session_id = ? AND gi = ?"
                      " ORDER BY idx DESC LIMIT ?", [session_id, gi, count]).fetchall()
    return [(json.loads(r[0]), _json(r[1]), json.loads(r[2])) for r in reversed(rows)]


def items(db: Database, session_id: int) -> dict[int, list[tuple]]:
    """Every item of every game of the session: {gi: [(body, result, before), ...]}."""
    out: dict[int, list] = {}
    for gi, body, result, before in db.execute(
            "SELECT gi, body, result, before FROM items WHERE session_id = ? ORDER BY gi, idx", [session_id]):
        out.setdefault(gi, []).append((json.loads(body), _json(result), json.loads(before)))
    return out


# ---------------------------------------------------------------------------------------------------
# keys: a retried request gets the stored result back

def check_key(key: str | None) -> str | None:
    if key is None or key == "":
        return None
    if len(key) > MAX_KEY or not key.isascii():
        raise RuleError("store.bad_key", "k")
    return key


def stored(db: Database, browser: str, scope: str, key: str | None, fingerprint: str | None = None) -> Written | None:
    """What a key already wrote (a retry: the same answer again), or None. A key is one form's: it comes
    back only to the same scope with the same fields (``fingerprint``, companion.formkeys), else
    KeyReused (nothing is written)."""
    if not key:
        return None
    row = db.execute("SELECT seq, location, scope, print FROM requests WHERE browser = ? AND key = ?",
                     [browser, key]).fetchone()
    if row is None:
        return None
    if row[2] != scope or (row[3] is not None and fingerprint is not None and row[3] != fingerprint):
        raise KeyReused()
    return Written(row[0], row[1], replayed=True)


def _remember_key(db, browser, scope, key, seq, location, fingerprint: str | None) -> None:
    if key:
        db.execute("INSERT INTO requests(browser, scope, key, seq, location, print) VALUES (?, ?, ?, ?, ?, ?)",
                   [browser, scope, key, seq, location, fingerprint])


# ---------------------------------------------------------------------------------------------------
# what a write changes, as rows

@dataclass
class Rows:
    """One event and the rows it changes (plain JSON values: the store never reads a rule)."""
    etype: str
    payload: dict
    summary: dict
    game: int | None = None
    undo: dict | None = None
    undone: int | None = None
    header: dict | None = None                    # None: unchanged
    games: dict = field(default_factory=dict)     # gi -> (kind, head, state, seed, count)
    items: list = field(default_factory=list)     # (gi, idx, (body, result, before) | None): None deletes idx on
    removed_game: int | None = None
    nets: list | None = None                      # [(name, key, net)] when the players' nets changed
    kinds: list | None = None                     # the session's kinds when they changed


def commit(db: Database, session_id: int, seen: int, rows: Rows, *, header: dict, browser: str,
           key: str | None, location: str, fingerprint: str | None = None) -> bool:
    """Write one event at version ``seen + 1`` (inside ``immediate``). False, with nothing written, when
    the session is no longer at version ``seen`` (somebody wrote first: work it out again)."""
    stamp, seq = now(), seen + 1
    cur = db.execute(
        "UPDATE sessions SET version = ?, updated = ?, name = ?, header = ?, summary = ?,"
        " started = COALESCE(?, created) WHERE id = ? AND version = ?",
        [seq, stamp, header["name"], dump(header), dump(rows.summary), header.get("started"), session_id, seen])
    if cur.rowcount != 1:
        return False
    if hasattr(db, "wrote"):       # PostgreSQL: the live cache learns it at commit (postgres_live)
        db.wrote(session_id, seq)
    db.execute("INSERT INTO events(session_id, seq, type, game, payload, undo, created) VALUES (?, ?, ?, ?, ?, ?, ?)",
               [session_id, seq, rows.etype, rows.game, dump(rows.payload),
                dump(rows.undo) if rows.undo is not None else None, stamp])
    if rows.undone is not None:
        db.execute("UPDATE events SET undone_by = ? WHERE session_id = ? AND seq = ?", [seq, session_id, rows.undone])
    if rows.removed_game is not None:
        db.execute("DELETE FROM items WHERE session_id = ? AND gi = ?", [session_id, rows.removed_game])
        db.execute("DELETE FROM games WHERE session_id = ? AND gi = ?", [session_id, rows.removed_game])
    for gi, idx, item in rows.items:
        if item is None:
            db.execute("DELETE FROM items WHERE session_id = ? AND gi = ? AND idx >= ?", [session_id, gi, idx])
        else:
            db.execute("INSERT INTO items(session_id, gi, idx, body, result, before) VALUES (?, ?, ?, ?, ?, ?)"
                       " ON CONFLICT (session_id, gi, idx) DO UPDATE SET body = excluded.body,"
                       " result = excluded.result, before = excluded.before", [session_id, *_item_row(gi, idx, item)])
    for gi, row in rows.games.items():
        db.execute("INSERT INTO games(session_id, gi, kind, head, state, seed, items) VALUES (?, ?, ?, ?, ?, ?, ?)"
                   " ON CONFLICT (session_id, gi) DO UPDATE SET kind = excluded.kind, head = excluded.head,"
                   " state = excluded.state, seed = excluded.seed, items = excluded.items",
                   [session_id, *_game_row(gi, row)])
    _side_tables(db, session_id, rows.nets, rows.kinds)
    _remember_key(db, browser, str(session_id), key, seq, location, fingerprint)
    return True


def _game_row(gi: int, row: tuple) -> tuple:
    kind, head, state, seed, count = row
    return (gi, kind, dump(head), dump(state), dump(seed) if seed is not None else None, count)


def _item_row(gi: int, idx: int, item: tuple) -> tuple:
    body, result, before = item
    return (gi, idx, dump(body), dump(result) if result is not None else None, dump(before))


def _side_tables(db: Database, session_id: int, nets: list | None, kinds: list | None) -> None:
    """The players' nets [(name, key, net)] and the kinds played, for the history filters (each written
    only when it changed: None leaves it)."""
    if nets is not None:
        db.execute("DELETE FROM session_players WHERE session_id = ?", [session_id])
        db.executemany("INSERT INTO session_players(session_id, name, key, net) VALUES (?, ?, ?, ?)",
                            [[session_id, *row] for row in nets])
    if kinds is not None:
        db.execute("DELETE FROM session_kinds WHERE session_id = ?", [session_id])
        db.executemany("INSERT INTO session_kinds(session_id, kind) VALUES (?, ?)",
                            [[session_id, k] for k in sorted(set(kinds))])


def rewrite_summary(db: Database, session_id: int, summary: dict, nets: list, kinds: list) -> None:
    """A session's summary and side tables again (a migration)."""
    db.execute("UPDATE sessions SET summary = ? WHERE id = ?", [dump(summary), session_id])
    _side_tables(db, session_id, nets, kinds)


# ---------------------------------------------------------------------------------------------------
# a whole session's rows (a new one, an import)

@dataclass
class NewSession:
    name: str
    started: str | None
    header: dict
    summary: dict
    games: list            # (kind, head, state, seed, count) per game
    items: list            # (gi, idx, (body, result, before))
    nets: list             # (name, key, net) per player
    kinds: list
    doc: dict              # the file, stored in the "create" event


def create(db: Database, new: NewSession, *, browser: str, key: str | None = None, location=None,
           fingerprint: str | None = None) -> Written:
    """A new session (new or imported). ``location(edit_token)`` is where to send the phone afterwards."""
    key = check_key(key)
    with immediate(db, f"new {browser}"):     # a new session's rows are its own; its key is the browser's
        done = stored(db, browser, "new", key, fingerprint)
        if done:
            return done
        return _insert(db, new, browser, key, location, fingerprint)


def create_many(db: Database, sessions: Iterable[NewSession], *, browser: str, key: str | None = None,
                fingerprint: str | None = None) -> int:
    """Several sessions (an archive) in one transaction: all of them or none (``sessions`` may be a
    generator that parses each as it is needed, and raises to refuse). Each is remembered as opened with
    its edit link by ``browser``. A retried request (same ``key``) imports nothing more."""
    key = check_key(key)
    count = 0
    with immediate(db):
        if stored(db, browser, "archive", key, fingerprint):
            return 0
        for new in sessions:
            _insert(db, new, browser, None, None, None)
            count += 1
        _remember_key(db, browser, "archive", key, 0, "", fingerprint)
    return count


def _insert(db: Database, new: NewSession, browser: str, key: str | None, location,
            fingerprint: str | None) -> Written:
    stamp = now()
    edit, view = new_token(), new_token()
    cur = db.execute(
        "INSERT INTO sessions(name, created, updated, started, edit_token, view_token, version, header, summary)"
        " VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?) RETURNING id",
        [new.name, stamp, stamp, new.started or stamp, edit, view, dump(new.header), dump(new.summary)])
    session_id = cur.fetchone()[0]
    db.executemany("INSERT INTO games(session_id, gi, kind, head, state, seed, items)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?)", [[session_id, *_game_row(gi, g)] for gi, g in enumerate(new.games)])
    db.executemany("INSERT INTO items(session_id, gi, idx, body, result, before) VALUES (?, ?, ?, ?, ?, ?)",
                        [[session_id, *_item_row(gi, idx, it)] for gi, idx, it in new.items])
    db.execute("INSERT INTO events(session_id, seq, type, payload, created) VALUES (?, 1, 'create', ?, ?)",
               [session_id, dump({"doc": new.doc}), stamp])
    _side_tables(db, session_id, new.nets, new.kinds)
    _remember(db, browser, session_id, "edit", 0)
    where = location(edit) if location else edit
    _remember_key(db, browser, "new", key, 1, where, fingerprint)
    return Written(1, where)


# ---------------------------------------------------------------------------------------------------
# undo, the events, the browsers that opened a session

def last_undoable(db: Database, session_id: int, gi: int) -> tuple[int, str, dict] | None:
    """(seq, type, inverse) of the event undo would take back in game ``gi``, or None."""
    row = db.execute("SELECT seq, type, undo FROM events WHERE session_id = ? AND game = ? AND undo IS NOT NULL"
                     " AND undone_by IS NULL ORDER BY seq DESC LIMIT 1", [session_id, gi]).fetchone()
    return (row[0], row[1], json.loads(row[2])) if row else None


def event_list(db: Database, session_id: int) -> list[tuple[int, str, dict]]:
    return [(seq, etype, json.loads(payload)) for seq, etype, payload in db.execute(
        "SELECT seq, type, payload FROM events WHERE session_id = ? ORDER BY seq", [session_id])]


def remember(db: Database, browser: str, session_id: int, role: str, gen: int) -> None:
    """This browser opened this session (for its home page). An edit role is kept only for the scoring
    link of generation ``gen``: replacing the link makes every browser that held the old one a watcher."""
    with immediate(db, session_id):
        _remember(db, browser, session_id, role, gen)


def _remember(db: Database, browser: str, session_id: int, role: str, gen: int) -> None:
    db.execute(
        "INSERT INTO browsers(browser, session_id, role, opened, gen) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT(browser, session_id) DO UPDATE SET opened = excluded.opened,"
        " role = CASE WHEN excluded.role = 'edit' THEN 'edit'"
        "             WHEN browsers.role = 'edit' AND browsers.gen = excluded.gen THEN 'edit' ELSE 'view' END,"
        " gen = CASE WHEN excluded.role = 'edit' THEN excluded.gen ELSE browsers.gen END",
        [browser, session_id, role, now(), gen])


def replace_edit(db: Database, session_id: int) -> str:
    """A new scoring link; the old one opens nothing, and browsers that held it become watchers."""
    token = new_token()
    with immediate(db, session_id):
        db.execute("UPDATE sessions SET edit_token = ?, edit_gen = edit_gen + 1 WHERE id = ?", [token, session_id])
        if hasattr(db, "wrote"):
            db.wrote(session_id, None)
    return token


from companion.domain.messages import N_, define  # noqa: E402

define("store", {"bad_key": N_("This form's key is not valid: reload the page and try again.")})
