"""One way through a write, from the route to the rows:

    route (blueprint: form -> typed action)  ->  ``write``: the session row the route already read, the
    game's row, its last item when the kind asks  ->  ``events.step``: ``Kind.apply`` on (head, running
    state, last item) -> ``Change``  ->  ``apply_change`` (the one way a change is applied; the rows
    written are the change's items)  ->  the summary rebuilt from the games the change touched
    (``summary.updated``: no other game read, no settlement run again)  ->  ``store.commit`` (one
    transaction: the event, the rows, the version, the key)  ->  303 (``web.games.record``).

The session is read once per request (``store.find``, by the route) and a game at most once; a past item
never. The write is worked out without the lock and committed only if the session is still at the version
read; when somebody wrote first it is worked out again under the lock (so it lands or is refused).

Reading whole sessions (export, the state JSON, history) is here too: rows -> ``Session``, cached per
version for every phone that asks.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from companion.storage.connection import Connection as Database

from companion import formkeys
from companion.record import summary
from companion.record import events
from companion.storage import club_tables, store
from companion.domain.errors import RuleError
from companion.kinds.base import GameRec, Item
from companion.record.session import Session, player_key, state_of, to_doc
from companion.storage.store import Written


# ---------------------------------------------------------------------------------------------------
# rows <-> records

def rec_of(db: Database, session_id: int, row: tuple) -> GameRec:
    """A game's record over its rows: head and state now, items read when the kind asks."""
    gi, kind, head, state, seed, count = row
    return GameRec(kind, head, store.LazyItems(db, session_id, gi, count, Item), state, seed)


def game(db: Database, session_id: int, gi: int) -> GameRec | None:
    row = store.game(db, session_id, gi)
    return rec_of(db, session_id, row) if row else None


def games(db: Database, session_id: int) -> list[GameRec]:
    return [rec_of(db, session_id, row) for row in store.games(db, session_id)]


def recent(db: Database, session_id: int, gi: int, count: int, rec: GameRec | None = None) -> list[Item]:
    """The last ``count`` items of game ``gi``; ``rec``'s lazy items learn them (read once per request)."""
    items = [Item(*r) for r in store.recent(db, session_id, gi, count)]
    if rec is not None and isinstance(rec.items, store.LazyItems):
        rec.items.known(items)
    return items


def _game_row(rec: GameRec) -> tuple:
    return (rec.kind, rec.head, rec.state, rec.seed, len(rec.items))


def _item(it: Item) -> tuple:
    return (it.body, it.result, it.before)


def rows_of_session(sess: Session) -> tuple[list, list]:
    """(game rows, item rows) of a whole session."""
    return ([_game_row(rec) for rec in sess.games],
            [(gi, idx, _item(it)) for gi, rec in enumerate(sess.games) for idx, it in enumerate(rec.items)])


def _nets(head: dict, info: dict) -> list:
    return [(p, player_key(p), info["nets"].get(p, 0)) for p in head["players"]]


def new_session(sess: Session) -> store.NewSession:
    info = summary.summarize(sess.header, sess.games)
    game_rows, item_rows = rows_of_session(sess)
    return store.NewSession(sess.header["name"], sess.header.get("started"), sess.header, info, game_rows,
                            item_rows, _nets(sess.header, info), [r.kind for r in sess.games], to_doc(sess))


def create(db: Database, sess: Session, *, browser: str, key: str | None = None, location=None) -> Written:
    return store.create(db, new_session(sess), browser=browser, key=key, location=location,
                        fingerprint=formkeys.current())


def create_many(db: Database, sessions: Iterable[Session], *, browser: str, key: str | None = None) -> int:
    return store.create_many(db, (new_session(s) for s in sessions), browser=browser, key=key,
                             fingerprint=formkeys.current())


def load(db: Database, session_id: int) -> Session:
    """The whole session (every item read): for export, the state JSON and the history pages."""
    with store.snapshot(db):
        head = store.session(db, session_id)["header"]
        rows = store.games(db, session_id)
        items = store.items(db, session_id)
    return Session(head, [GameRec(kind, hd, [Item(*it) for it in items.get(gi, [])], state, seed)
                          for gi, kind, hd, state, seed, _count in rows])


def cached(db: Database, session_id: int, version: int, cache=None) -> tuple[Session, dict]:
    """(session, companion-state) for one version, shared by every phone that asks (``cache``: the app's
    ``registry.LRU``; without one, read each time)."""
    key = (getattr(db, "path", id(db)), session_id, version)
    hit = cache.get(key) if cache is not None else None
    if hit is not None:
        return hit
    sess = load(db, session_id)
    value = (sess, state_of(sess))
    if cache is not None:
        cache.put(key, value)
    return value


def rebuild_summary(db: Database, session_id: int) -> None:
    """A session's summary and side tables from all its games (a migration)."""
    sess = load(db, session_id)
    info = summary.summarize(sess.header, sess.games)
    store.rewrite_summary(db, session_id, info, _nets(sess.header, info), [r.kind for r in sess.games])


# ---------------------------------------------------------------------------------------------------
# one write

class _RowNight:
    """The session as an event sees it, over its rows: games read one at a time, when asked for."""

    def __init__(self, db: Database, row: dict, games: list[GameRec] | None = None):
        self.db, self.id = db, row["id"]
        self.header, self.summary = row["header"], row["summary"]
        self._count = len(self.summary.get("games") or [])
        self._games: dict[int, GameRec] = dict(enumerate(games)) if games is not None else {}

    def count(self) -> int:
        return self._count

    def game(self, gi: int) -> GameRec:
        if gi not in self._games:
            rec = game(self.db, self.id, gi)
            if rec is None:
                raise RuleError("v.no_game", "game")
            self._games[gi] = rec
        return self._games[gi]

    def payments(self) -> list[dict]:
        return self.summary["plan"]

    def undoable(self, gi, target):
        found = store.last_undoable(self.db, self.id, gi)
        return (found[0], gi, found[2]) if found else None


def rows_of(night: _RowNight, etype: str, out: events.Outcome) -> tuple[dict, store.Rows]:
    """(header, rows) an outcome writes, with the summary rebuilt from the games it touched."""
    head = out.header if out.header is not None else night.header
    touched = {gi: rec for gi, (rec, _change) in out.changed.items()} | out.rebuilt
    info = summary.updated(night.summary, head, touched, out.removed)
    rows = store.Rows(etype, out.payload, info, game=out.game, undo=out.undo, undone=out.undone,
                      header=out.header, removed_game=out.removed)
    for gi, (rec, change) in out.changed.items():
        rows.games[gi] = _game_row(rec)
        rows.items += [(gi, i, None if it is None else _item(it)) for i, it in sorted(change.items.items())]
    for gi, rec in out.rebuilt.items():
        rows.games[gi] = _game_row(rec)
        rows.items.append((gi, 0, None))
        rows.items += [(gi, i, _item(it)) for i, it in enumerate(rec.items)]
    if info["nets"] != night.summary.get("nets") or head["players"] != night.header["players"]:
        rows.nets = _nets(head, info)
    if info["kinds"] != night.summary.get("kinds"):
        rows.kinds = info["kinds"]
    return head, rows


def write(db: Database, row: dict, etype: str, payload: dict, *, browser: str, key: str | None,
          seen_version: int | None, location: str, games: list[GameRec] | None = None) -> Written:
    """Record one event on the session ``row`` (as ``store.find`` read it; ``games``: its games, when the
    route read them already). Raises RuleError (nothing written) when it is not legal now."""
    key = store.check_key(key)
    sid, scope = row["id"], str(row["id"])
    fingerprint = formkeys.current()    # the form the key came with: the same key with other fields is refused
    done = store.stored(db, browser, scope, key, fingerprint)
    if done:
        return done
    try:
        head, rows = _worked_out(db, row, etype, payload, seen_version, games)
    except RuleError:
        if store.version(db, sid) == row["version"]:
            raise
        head = None     # refused on a session that moved meanwhile: look again under the lock
    if head is not None:
        with store.immediate(db, sid):
            if store.commit(db, sid, row["version"], rows, header=head, browser=browser, key=key,
                            location=location, fingerprint=fingerprint):
                return Written(row["version"] + 1, location)
    with store.immediate(db, sid):  # somebody wrote first: again, under the lock
        done = store.stored(db, browser, scope, key, fingerprint)
        if done:
            return done
        row = store.session(db, sid)
        head, rows = _worked_out(db, row, etype, payload, seen_version)
        assert store.commit(db, sid, row["version"], rows, header=head, browser=browser, key=key,
                            location=location, fingerprint=fingerprint)
        return Written(row["version"] + 1, location)


def write_many(db: Database, row: dict, steps: list[tuple[str, dict]], *, browser: str, key: str | None,
               seen_version: int | None, location: str, also: Callable[[], None] | None = None) -> Written:
    """Record several events as one action of the organizer (a round started: its clock and every table;
    a round ended by the clock; a late pair): all of them or none. Each is worked out in order on what the
    ones before it wrote, through the same ``events.step`` and with its own inverse (undo is unchanged),
    inside one ``BEGIN IMMEDIATE``; the version goes up by one per event and the key is stored once, with
    the last. ``also`` writes the action's other rows in the same transaction (a round's table links).
    Raises RuleError, with nothing written, when any one of them is refused."""
    if not steps:
        raise ValueError("no events to write")
    key = store.check_key(key)
    sid, scope = row["id"], str(row["id"])
    fingerprint = formkeys.current()
    with store.immediate(db, sid):
        done = store.stored(db, browser, scope, key, fingerprint)
        if done:
            return done
        row = store.session(db, sid)
        stale = seen_version is not None and seen_version != row["version"]
        for n, (etype, payload) in enumerate(steps):
            night = _RowNight(db, row)
            head, rows = rows_of(night, etype, events.step(night, etype, payload, stale))
            last = n == len(steps) - 1
            assert store.commit(db, sid, row["version"], rows, header=head, browser=browser,
                                key=key if last else None, location=location, fingerprint=fingerprint)
            row = {**row, "version": row["version"] + 1, "header": head, "summary": rows.summary}
        if also is not None:
            also()
    return Written(row["version"], location)


def run(db: Database, row: dict, plan, *, browser: str, key: str | None, seen_version: int | None,
        location: str) -> Written:
    """A domain command's events (``companion.club.commands.Plan``), written as one action: every event
    and the table links its tables need, all or none."""
    sid = row["id"]
    also = (lambda: club_tables.add(db, sid, plan.labels)) if plan.labels else None
    return write_many(db, row, plan.steps, browser=browser, key=key, seen_version=seen_version,
                      location=location, also=also)


def _worked_out(db, row, etype, payload, seen_version, games=None):
    night = _RowNight(db, row, games)
    stale = seen_version is not None and seen_version != row["version"]
    return rows_of(night, etype, events.step(night, etype, payload, stale))



def apply(db: Database, row: dict, plan, *, browser: str, key: str | None, seen_version: int | None,
          location: str, games: list[GameRec] | None = None, log: dict | None = None) -> Written:
    """A typed command's events (``Plan``: a session command's, ``companion.session_commands.handle``, or
    a club command's), written as one action, with the organizer's ``log`` entry when the change was
    asked first. One event alone takes ``write``'s path (worked out before the lock; ``games``: what the
    route read already); several, a log entry or table links take ``run``'s (all or none)."""
    steps = [*plan.steps, *([("log", {"entry": log})] if log else [])]
    if len(steps) == 1 and not plan.labels:
        etype, payload = steps[0]
        return write(db, row, etype, payload, browser=browser, key=key, seen_version=seen_version,
                     location=location, games=games)
    return run(db, row, type(plan)(steps, list(plan.labels)), browser=browser, key=key,
               seen_version=seen_version, location=location)


def replace_link(db: Database, session_id: int, browser: str) -> str:
    """A new scoring link for the session (the old one now only watches), remembered on this browser as
    its scoring link; the new token."""
    new = store.replace_edit(db, session_id)
    row, _role = store.find(db, new)
    store.remember(db, browser, session_id, "edit", row["edit_gen"])
    return new
