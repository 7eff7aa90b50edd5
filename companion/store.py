"""The event store: a session as rows (its header, each game's head and running state, each hand or deal
with what it gave), and every write as one event appended inside ``BEGIN IMMEDIATE`` together with the
rows it changes, the session's version, the history side tables and the idempotency key.

A write is computed before the write lock is taken (reading a consistent snapshot: the header, the game's
row and the one or two items the tap touches), then committed under the lock only if the version is still
the one read; otherwise it is computed again. So the lock is held for the append and a few row updates,
never for rule work, and a tap costs the same at hand 200 as at hand 2.

Undo applies the inverse change recorded in the event it takes back (``kinds.base.apply_change``).
A retried request (double tap, lost reply) carries the same key and gets the stored result back.
"""
from __future__ import annotations

import json
import secrets
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone

from sqlite_utils import Database

from . import formkeys, kinds, session as S, summary
from .db import WRITE_PRAGMAS
from .errors import RuleError, Stale
from .kinds.base import Action, Change, GameRec, Item

MAX_KEY = 64


class Conflict(Stale):
    """The write no longer makes sense: somebody else changed the session first."""

    def __init__(self, code: str, path: str = "", **params):
        super().__init__(code, path, **params)


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


@contextmanager
def immediate(db: Database):
    for pragma in WRITE_PRAGMAS:
        db.execute(pragma)
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if db.conn.in_transaction:      # SQLite has already rolled back after a full disk or an I/O error
            db.execute("ROLLBACK")
        raise
    else:
        db.execute("COMMIT")


@contextmanager
def snapshot(db: Database):
    """Reads that see one committed state of the database (WAL: a read transaction)."""
    if db.conn.in_transaction:
        yield
        return
    db.execute("BEGIN")
    try:
        yield
    finally:
        db.execute("COMMIT")


# ---------------------------------------------------------------------------------------------------
# reading

def find(db: Database, token: str):
    """(session row, role) for an edit or view token, or (None, None). The token is looked up through a
    unique index; guessing one is 2**-192."""
    row = db.execute(
        "SELECT id, version, edit_token, view_token, edit_gen FROM sessions WHERE edit_token = ? OR view_token = ?",
        [token, token],
    ).fetchone()
    if row is None:
        return None, None
    role = "edit" if secrets.compare_digest(row[2].encode(), token.encode()) else "view"
    return {"id": row[0], "version": row[1], "edit_token": row[2], "view_token": row[3], "edit_gen": row[4]}, role


def header(db: Database, session_id: int) -> tuple[dict, int]:
    row = db.execute("SELECT header, version FROM sessions WHERE id = ?", [session_id]).fetchone()
    if row is None:
        raise KeyError(session_id)
    return json.loads(row[0]), row[1]


def _item(row) -> Item:
    return Item(json.loads(row[0]), json.loads(row[1]) if row[1] is not None else None, json.loads(row[2]))


class _Items(Sequence):
    """A game's items read one at a time (``_get``), with Python's indexes (negative ones, slices)."""

    count: int

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self.count))]
        if i < 0:
            i += self.count
        if not 0 <= i < self.count:
            raise IndexError(i)
        return self._get(i)

    def _get(self, i: int) -> Item:
        raise IndexError(i)


class LazyItems(_Items):
    """A game's items as rows, read when asked for (a tap reads the last one or two)."""

    def __init__(self, db: Database, session_id: int, gi: int, count: int):
        self.db, self.session_id, self.gi, self.count = db, session_id, gi, count
        self.cache: dict[int, Item] = {}

    def _get(self, i: int) -> Item:
        if i not in self.cache:
            rows = self.db.execute(
                "SELECT idx, body, result, before FROM items WHERE session_id = ? AND gi = ? AND idx >= ?"
                " ORDER BY idx LIMIT 64", [self.session_id, self.gi, i]).fetchall()
            for r in rows:
                self.cache.setdefault(r[0], _item(r[1:]))
        return self.cache[i]


def game(db: Database, session_id: int, gi: int) -> GameRec | None:
    row = db.execute("SELECT kind, head, state, seed, items FROM games WHERE session_id = ? AND gi = ?",
                     [session_id, gi]).fetchone()
    if row is None:
        return None
    return GameRec(row[0], json.loads(row[1]), LazyItems(db, session_id, gi, row[4]), json.loads(row[2]),
                   json.loads(row[3]) if row[3] else None)


def games(db: Database, session_id: int) -> list[GameRec]:
    """Every game of the session with lazy items (heads and running states: what summaries need)."""
    return [GameRec(kind, json.loads(head), LazyItems(db, session_id, gi, count), json.loads(state),
                    json.loads(seed) if seed else None)
            for gi, kind, head, state, seed, count in db.execute(
                "SELECT gi, kind, head, state, seed, items FROM games WHERE session_id = ? ORDER BY gi",
                [session_id])]


def recent(db: Database, session_id: int, gi: int, count: int) -> list[Item]:
    """The last ``count`` items of a game, oldest first."""
    rows = db.execute("SELECT body, result, before FROM items WHERE session_id = ? AND gi = ?"
                      " ORDER BY idx DESC LIMIT ?", [session_id, gi, count]).fetchall()
    return [_item(r) for r in reversed(rows)]


def load(db: Database, session_id: int) -> S.Session:
    """The whole session (every item read): for export, the state JSON and the history pages."""
    with snapshot(db):
        head, _version = header(db, session_id)
        recs = []
        for gi, kind, hd, state, seed, count in db.execute(
                "SELECT gi, kind, head, state, seed, items FROM games WHERE session_id = ? ORDER BY gi",
                [session_id]).fetchall():
            items = [_item(r) for r in db.execute(
                "SELECT body, result, before FROM items WHERE session_id = ? AND gi = ? ORDER BY idx",
                [session_id, gi])]
            recs.append(GameRec(kind, json.loads(hd), items, json.loads(state), json.loads(seed) if seed else None))
    return S.Session(head, recs)


_sessions: OrderedDict = OrderedDict()


def cached(db: Database, session_id: int, version: int) -> tuple[S.Session, dict]:
    """(session, companion-state) for one version, shared by every phone that asks (an LRU in memory)."""
    key = (getattr(db, "path", id(db)), session_id, version)
    hit = _sessions.get(key)
    if hit is not None:
        _sessions.move_to_end(key)
        return hit
    sess = load(db, session_id)
    value = (sess, S.state_of(sess))
    _sessions[key] = value
    while len(_sessions) > 64:
        _sessions.popitem(last=False)
    return value


# ---------------------------------------------------------------------------------------------------
# rows of a whole session (a new one, an import, the migration)

def _game_row(gi: int, rec: GameRec) -> tuple:
    return (gi, rec.kind, dump(rec.head), dump(rec.state), dump(rec.seed) if rec.seed is not None else None,
            len(rec.items))


def _item_row(gi: int, idx: int, item: Item) -> tuple:
    return (gi, idx, dump(item.body), dump(item.result) if item.result is not None else None, dump(item.before))


def rows_of_session(sess: S.Session) -> tuple[str, list, list]:
    games_rows = [_game_row(gi, rec) for gi, rec in enumerate(sess.games)]
    items_rows = [_item_row(gi, idx, it) for gi, rec in enumerate(sess.games) for idx, it in enumerate(rec.items)]
    return dump(sess.header), games_rows, items_rows


# ---------------------------------------------------------------------------------------------------
# keys: a retried request gets the stored result back

def check_key(key: str | None) -> str | None:
    if key is None or key == "":
        return None
    if len(key) > MAX_KEY or not key.isascii():
        raise RuleError("store.bad_key", "k")
    return key


def _stored(db: Database, browser: str, scope: str, key: str | None) -> Written | None:
    if not key:
        return None
    # any scope: a key is one form's, and comes back only with that form's fields (formkeys.check_same)
    row = db.execute("SELECT seq, location, scope, print FROM requests WHERE browser = ? AND key = ?",
                     [browser, key]).fetchone()
    if row is None:
        return None
    formkeys.check_same(row[2], row[3], scope)
    return Written(row[0], row[1], replayed=True)


def _remember_key(db, browser, scope, key, seq, location) -> None:
    if key:
        db.execute("INSERT INTO requests(browser, scope, key, seq, location, print) VALUES (?, ?, ?, ?, ?, ?)",
                   [browser, scope, key, seq, location, formkeys.current()])


# ---------------------------------------------------------------------------------------------------
# creating sessions

def create(db: Database, sess: S.Session, *, browser: str, key: str | None = None, location=None,
           events: list | None = None) -> Written:
    """A new session (new or imported). ``location(edit_token)`` is where to send the phone afterwards."""
    key = check_key(key)
    with immediate(db):
        done = _stored(db, browser, "new", key)
        if done:
            return done
        return _insert(db, sess, browser, key, location)


def create_many(db: Database, sessions: Iterable[S.Session], *, browser: str, key: str | None = None) -> int:
    """Import several sessions (an archive) in one transaction: all of them or none (``sessions`` may be
    a generator that parses each as it is needed, and raises to refuse). Each is remembered as opened with
    its edit link by ``browser``. A retried request (same ``key``) imports nothing more."""
    key = check_key(key)
    count = 0
    with immediate(db):
        if _stored(db, browser, "archive", key):
            return 0
        for sess in sessions:
            _insert(db, sess, browser, None, None)
            count += 1
        _remember_key(db, browser, "archive", key, 0, "")
    return count


def _insert(db: Database, sess: S.Session, browser: str, key: str | None, location) -> Written:
    stamp = now()
    edit, view = new_token(), new_token()
    head, game_rows, item_rows = rows_of_session(sess)
    cur = db.execute(
        "INSERT INTO sessions(name, created, updated, started, edit_token, view_token, version, header)"
        " VALUES (?, ?, ?, ?, ?, ?, 1, ?)",
        [sess.header["name"], stamp, stamp, sess.header.get("started") or stamp, edit, view, head])
    session_id = cur.lastrowid
    db.conn.executemany("INSERT INTO games(session_id, gi, kind, head, state, seed, items) VALUES (?, ?, ?, ?, ?, ?, ?)",
                   [[session_id, *r] for r in game_rows])
    db.conn.executemany("INSERT INTO items(session_id, gi, idx, body, result, before) VALUES (?, ?, ?, ?, ?, ?)",
                   [[session_id, *r] for r in item_rows])
    db.execute("INSERT INTO events(session_id, seq, type, payload, created) VALUES (?, 1, 'create', ?, ?)",
               [session_id, dump({"doc": S.to_doc(sess)}), stamp])
    _side_tables(db, session_id, sess.header, sess.games)
    _remember(db, browser, session_id, "edit", 0)
    where = location(edit) if location else edit
    _remember_key(db, browser, "new", key, 1, where)
    return Written(1, where)


# ---------------------------------------------------------------------------------------------------
# writing one event

@dataclass
class Plan:
    """What one event changes, computed before the write lock is taken."""
    etype: str
    payload: dict
    game: int | None = None
    undo: dict | None = None              # the inverse, stored in the event
    header: dict | None = None
    games: dict = field(default_factory=dict)     # gi -> GameRec to write (head, state, seed, count)
    items: list = field(default_factory=list)     # (gi, idx, Item | None): None deletes idx and after
    removed_game: int | None = None
    undone: int | None = None             # the event this one takes back
    recs: list = field(default_factory=list)      # every game after the event (for the side tables)


def _plan(db: Database, session_id: int, etype: str, payload: dict, seen_version: int | None,
          version: int) -> Plan:
    head, _v = header(db, session_id)
    recs = games(db, session_id)
    plan = Plan(etype, payload, recs=recs)
    if etype in S.HEADER_EVENTS:
        plan.header = S.HEADER_EVENTS[etype](head, payload)
    elif etype == "paid":
        plan.header = S.paid_marked(head, payload, S.settle_of(head, recs)["payments"])
    elif etype == "add_game":
        gi = len(recs)
        game_doc = payload["game"]
        seed = S._seed_before(recs, gi, game_doc.get("kind"))
        rec = S.build_game(game_doc, head["players"], seed)
        plan.game, plan.undo = gi, {"remove_game": gi}
        plan.games[gi] = rec
        plan.items += [(gi, i, it) for i, it in enumerate(rec.items)]
        recs.append(rec)
    elif etype == "game":
        gi = payload["game"]
        if not 0 <= gi < len(recs):
            raise RuleError("v.no_game", "game")
        rec = recs[gi]
        kind = kinds.KINDS[rec.kind]
        action: Action = payload["action"]
        change = kind.apply(rec, action)
        plan.game = gi
        plan.payload = {"game": gi, "action": action.to_json()}
        plan.undo = _apply(plan, recs, gi, change)
        _propagate(plan, recs, gi, head["players"])
    elif etype == "undo":
        gi = payload["game"]
        row = db.execute(
            "SELECT seq, undo FROM events WHERE session_id = ? AND game = ? AND undo IS NOT NULL"
            " AND undone_by IS NULL ORDER BY seq DESC LIMIT 1", [session_id, gi]).fetchone()
        if row is None:
            raise Conflict("session.undo_nothing", "undo")
        target, inverse = row[0], json.loads(row[1])
        if payload.get("target") is not None and payload["target"] != target:
            raise Conflict("session.undo_moved", "undo")
        if payload.get("target") is None and seen_version is not None and seen_version != version:
            raise Conflict("session.undo_moved", "undo")
        plan.game, plan.undone = gi, target
        plan.payload = {"game": gi, "target": target}
        if "remove_game" in inverse:
            if gi != len(recs) - 1:
                raise Conflict("session.undo_last_game", "undo")
            plan.removed_game = gi
            recs.pop()
        else:
            _apply(plan, recs, gi, _change_from_json(inverse))
            _propagate(plan, recs, gi, head["players"])
    else:
        raise ValueError(f"unknown event type {etype!r}")
    return plan


def _apply(plan: Plan, recs: list[GameRec], gi: int, change: Change) -> dict:
    """Apply ``change`` to game ``gi`` in the plan; returns its inverse as JSON (for the event)."""
    rec = recs[gi]
    old_items = {i: (rec.items[i] if i < len(rec.items) else None) for i in change.items}
    count = len(rec.items)
    for i in sorted(change.items):
        if change.items[i] is None:
            count = min(count, i)
            plan.items.append((gi, i, None))
        else:
            count = max(count, i + 1)
            plan.items.append((gi, i, change.items[i]))
    new = GameRec(rec.kind, change.head if change.head is not None else rec.head, _Counted(rec.items, count, change),
                  change.state if change.state is not None else rec.state, rec.seed)
    recs[gi] = new
    plan.games[gi] = new
    inverse = Change(head=rec.head if change.head is not None else None,
                     state=rec.state if change.state is not None else None, items=old_items)
    return _change_json(inverse)


class _Counted(_Items):
    """A game's items after a change, without reading the unchanged ones."""

    def __init__(self, base: Sequence, count: int, change: Change):
        self.base, self.count, self.change = base, count, change

    def _get(self, i: int) -> Item:
        if self.change.items.get(i) is not None:
            return self.change.items[i]
        return self.base[i]


def _propagate(plan: Plan, recs: list[GameRec], gi: int, players: list[str]) -> None:
    """A change of what game ``gi`` hands on rebuilds the next game of its kind (Newmarket's carry)."""
    before = list(recs)
    rebuilt = S.propagate(recs, gi, players)
    for j in rebuilt:
        old, new = before[j], recs[j]
        plan.games[j] = new
        plan.items.append((j, 0, None))
        plan.items += [(j, i, it) for i, it in enumerate(new.items)]
        del old


def _change_json(change: Change) -> dict:
    return {"head": change.head, "state": change.state,
            "items": {str(i): (None if it is None else [it.body, it.result, it.before])
                      for i, it in change.items.items()}}


def _change_from_json(data: dict) -> Change:
    return Change(head=data.get("head"), state=data.get("state"),
                  items={int(i): (None if v is None else Item(*v)) for i, v in data["items"].items()})


def _commit(db: Database, session_id: int, plan: Plan, seq: int, browser: str, key: str | None,
            location: str) -> None:
    stamp = now()
    db.execute("INSERT INTO events(session_id, seq, type, game, payload, undo, created) VALUES (?, ?, ?, ?, ?, ?, ?)",
               [session_id, seq, plan.etype, plan.game, dump(plan.payload),
                dump(plan.undo) if plan.undo is not None else None, stamp])
    if plan.undone is not None:
        db.execute("UPDATE events SET undone_by = ? WHERE session_id = ? AND seq = ?", [seq, session_id, plan.undone])
    if plan.header is not None:
        db.execute("UPDATE sessions SET header = ? WHERE id = ?", [dump(plan.header), session_id])
    if plan.removed_game is not None:
        db.execute("DELETE FROM items WHERE session_id = ? AND gi = ?", [session_id, plan.removed_game])
        db.execute("DELETE FROM games WHERE session_id = ? AND gi = ?", [session_id, plan.removed_game])
    for gi, idx, item in plan.items:
        if item is None:
            db.execute("DELETE FROM items WHERE session_id = ? AND gi = ? AND idx >= ?", [session_id, gi, idx])
        else:
            db.execute("INSERT OR REPLACE INTO items(session_id, gi, idx, body, result, before)"
                       " VALUES (?, ?, ?, ?, ?, ?)", [session_id, *_item_row(gi, idx, item)])
    for gi, rec in plan.games.items():
        db.execute("INSERT OR REPLACE INTO games(session_id, gi, kind, head, state, seed, items)"
                   " VALUES (?, ?, ?, ?, ?, ?, ?)", [session_id, *_game_row(gi, rec)])
    head = plan.header if plan.header is not None else header(db, session_id)[0]
    _side_tables(db, session_id, head, plan.recs)
    db.execute("UPDATE sessions SET version = ?, updated = ?, name = ? WHERE id = ?",
               [seq, stamp, head["name"], session_id])
    _remember_key(db, browser, str(session_id), key, seq, location)


OPTIMISTIC_TRIES = 4


def write(db: Database, session_id: int, etype: str, payload: dict, *, browser: str, key: str | None,
          seen_version: int | None, location: str) -> Written:
    """Append one event. Raises RuleError (nothing written) when it is not legal now.

    The event is worked out on a snapshot, then committed under the lock if nobody wrote meanwhile;
    after a few races it is worked out under the lock itself (so every write lands or is refused)."""
    key = check_key(key)
    scope = str(session_id)
    for attempt in range(OPTIMISTIC_TRIES + 1):
        locked = attempt == OPTIMISTIC_TRIES
        if not locked:
            with snapshot(db):
                done = _stored(db, browser, scope, key)
                if done:
                    return done
                version = header(db, session_id)[1]
                plan = _plan(db, session_id, etype, payload, seen_version, version)
        with immediate(db):
            done = _stored(db, browser, scope, key)
            if done:
                return done
            current = header(db, session_id)[1]
            if locked:
                version = current
                plan = _plan(db, session_id, etype, payload, seen_version, version)
            elif current != version:
                continue
            _commit(db, session_id, plan, version + 1, browser, key, location)
            return Written(version + 1, location)
    raise AssertionError("unreachable")


# ---------------------------------------------------------------------------------------------------
# the history side tables, and the browsers that opened a session

def _side_tables(db: Database, session_id: int, head: dict, recs: list[GameRec]) -> None:
    info = summary.summarize(head, recs)
    db.execute("UPDATE sessions SET started = COALESCE(?, created), summary = ? WHERE id = ?",
               [head.get("started"), dump(info), session_id])
    nets = info["nets"]
    old = dict(db.execute("SELECT name, net FROM session_players WHERE session_id = ?", [session_id]).fetchall())
    if old != {p: nets.get(p, 0) for p in head["players"]}:
        db.execute("DELETE FROM session_players WHERE session_id = ?", [session_id])
        db.conn.executemany("INSERT INTO session_players(session_id, name, key, net) VALUES (?, ?, ?, ?)",
                       [[session_id, p, S.player_key(p), nets.get(p, 0)] for p in head["players"]])
    kinds_now = sorted({r.kind for r in recs})
    old_kinds = [r[0] for r in db.execute("SELECT kind FROM session_kinds WHERE session_id = ? ORDER BY kind",
                                          [session_id])]
    if kinds_now != old_kinds:
        db.execute("DELETE FROM session_kinds WHERE session_id = ?", [session_id])
        db.conn.executemany("INSERT INTO session_kinds(session_id, kind) VALUES (?, ?)",
                       [[session_id, k] for k in kinds_now])


def remember(db: Database, browser: str, session_id: int, role: str, gen: int) -> None:
    """This browser opened this session (for its home page). An edit role is kept only for the scoring
    link of generation ``gen``: replacing the link makes every browser that held the old one a watcher."""
    with immediate(db):
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
    with immediate(db):
        db.execute("UPDATE sessions SET edit_token = ?, edit_gen = edit_gen + 1 WHERE id = ?", [token, session_id])
    return token


def last_undoable(db: Database, session_id: int, gi: int) -> str | None:
    """The type of the event undo would take back in game ``gi`` ("game" or "add_game"), or None."""
    row = db.execute("SELECT type FROM events WHERE session_id = ? AND game = ? AND undo IS NOT NULL"
                     " AND undone_by IS NULL ORDER BY seq DESC LIMIT 1", [session_id, gi]).fetchone()
    return row[0] if row else None


def event_list(db: Database, session_id: int) -> list[tuple[int, str, dict]]:
    return [(seq, etype, json.loads(payload)) for seq, etype, payload in db.execute(
        "SELECT seq, type, payload FROM events WHERE session_id = ? ORDER BY seq", [session_id])]


from .messages import N_, define  # noqa: E402

define("store", {"bad_key": N_("This form's key is not valid: reload the page and try again.")})
