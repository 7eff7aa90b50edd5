"""The ratings' tables: derived from the sessions, kept up to date lazily, never written by a tap; and
their reads. The SQL is ``ratings_tables``'; what a session gives and how ratings replay is worked out
by ``companion.ratings`` (pure: it reads no table).

How it stays fresh without the store knowing about it: triggers on ``sessions`` (a session created,
written to (its ``version`` moves), re-dated or deleted) put its id in ``rt_dirty``. Whoever reads the
ratings first calls ``refresh``: each dirty session's rows are read again, its share of the sums
(partners, rivals, per-kind numbers) is taken back and added anew, its contests replace the old ones, and
the ratings are replayed from the earliest contest that changed (a live night: its own matches only; a
correction of an old hand: everything after that hand's night).

Everything here can be dropped and rebuilt from the sessions: when the tables or the triggers are
missing (a new database, a migration that rebuilt ``sessions``) or ``ratings_tables.SCHEMA`` changes,
they are built again from every session.
"""
from __future__ import annotations

import json
import time

from companion.ratings import derived, rating as R
from companion.storage import ratings_tables as T, store
from companion.storage.connection import Connection as Database

SESSIONS_PER_LOCK = 20     # sessions whose share is replaced under one write lock
CONTESTS_PER_LOCK = 300    # contests replayed under one write lock


def refresh(db: Database, budget: float | None = None) -> int:
    """Bring the tables up to date with the sessions; returns how many sessions were read again.
    Cheap when nothing changed (one indexed row read). With a ``budget`` (seconds), it stops after the
    step that passes it (``behind`` then says how much is left for the next call).

    Taps never wait long for it: sessions are read outside any lock and their shares replaced a few at a
    time, then the ratings replayed a few hundred contests at a time, each step under its own short write
    lock. Where the replay stands is kept in ``meta`` (``ratings_pending``: the first contest not yet
    rated), so a step interrupted anywhere is taken up again by the next reader."""
    if T.ready(db) and not T.any_dirty(db) and T.pending(db) is None:
        return 0
    if not T.ready(db):
        with store.immediate(db):
            if not T.ready(db):
                T.build(db)
    done = steps = 0
    until = None if budget is None else time.monotonic() + budget

    def more() -> bool:   # at least one step per call, however small the budget
        return until is None or steps == 0 or time.monotonic() < until

    while more():
        ids = T.dirty_ids(db, SESSIONS_PER_LOCK)
        if not ids:
            break
        with store.snapshot(db):
            read = {sid: _read(db, sid) for sid in ids}
        with store.immediate(db):
            for sid, (version, new) in read.items():
                changed = _replace(db, sid, new)
                if changed is not None:
                    _lower_pending(db, changed)
                T.clean(db, sid, version)   # still dirty if it was written to since it was read
        done += len(ids)
        steps += 1
    while T.pending(db) is not None and more():
        with store.immediate(db):
            start = T.pending(db)
            if start is not None:
                _rerate(db, start, CONTESTS_PER_LOCK)
        steps += 1
    return done


def behind(db: Database) -> int | None:
    """None when the tables are up to date; else how many sessions are still to be read (0: only the
    replay of the ratings is left)."""
    if not T.ready(db):
        return T.count_sessions(db)
    dirty = T.count_dirty(db)
    return dirty if dirty or T.pending(db) is not None else None


def _lower_pending(db: Database, ord_: str) -> None:
    current = T.pending(db)
    if current is None or ord_ < current:
        T.put_meta(db, "ratings_pending", ord_)


def _read(db: Database, sid: int) -> tuple[int | None, dict | None]:
    """(the session's version, its share now) or (None, None) when it is gone (inside a snapshot: its
    rows as one commit left them)."""
    row = T.session_when(db, sid)
    if row is None:
        return None, None
    head = store.session(db, sid)["header"]
    return row[1], derived.share_of_rows(sid, row[0] or "", head, store.games(db, sid), store.items(db, sid))


def _replace(db: Database, sid: int, new: dict | None) -> str | None:
    """Replace one session's share; returns the earliest ``ord`` whose contests changed (or None)."""
    old = T.share_of(db, sid)
    if old == new:
        return None
    if old:
        T.add_share(db, old, -1, derived.pair_figures(old))
    T.drop_share(db, sid)
    if new:
        T.add_share(db, new, 1, derived.pair_figures(new))
        T.put_share(db, sid, [[c["ord"], sid, c["kind"], int(new["club"]), store.dump(c)] for c in new["contests"]],
                    list(new["names"].items()), store.dump(new))
    return derived.first_change(old, new)


def _rerate(db: Database, cutoff: str, limit: int) -> None:
    """Replay up to ``limit`` contests from ``cutoff`` on, from the ratings stored just before it, and
    move ``ratings_pending`` past them. Whatever was rated from ``cutoff`` on before is taken back first
    (a no-op when a previous step already did it)."""
    T.forget_from(db, cutoff)
    for kind, key in T.rated_since(db, cutoff):
        last = T.last_history(db, kind, key)
        if last is None:
            T.drop_current(db, kind, key)
        else:
            mu, sigma, n, ord_ = last
            T.set_current(db, kind, key, mu, sigma, R.Rated(mu, sigma).ordinal, n, ord_)
    batch = T.contests_from(db, cutoff, limit + 1)
    following = batch[limit][0] if len(batch) > limit else None
    history, monthly, current = derived.rerate([(o, json.loads(data)) for o, data in batch[:limit]],
                                               lambda kind, key: T.current_rating(db, kind, key))
    T.put_rated(db, history, monthly, current)
    if following is None:
        T.clear_pending(db)
    else:
        T.put_meta(db, "ratings_pending", following)


# ---------------------------------------------------------------------------------------------------
# reading (after ``refresh``)

def board(db: Database, kind: str, limit: int, min_n: int = 0) -> list[dict]:
    """The stored all-time ratings of a kind, best first (the index ``rt_current_board``)."""
    rows = T.board_rows(db, kind, limit, min_n)
    return [{"key": k, "name": name, "mu": mu, "sigma": sigma, "ordinal": o, "n": n}
            for k, name, mu, sigma, o, n in rows]


def board_between(db: Database, kind: str, start: str | None, end: str | None, club: bool = False,
                  name_like: str | None = None) -> dict[str, list[dict]]:
    """Ratings from the contests of a date range (and/or a club's nights) alone, replayed now."""
    return derived.ranked(T.contests_between(db, kind, start, end, club, name_like))


def current(db: Database, key: str) -> dict[str, dict]:
    """A player's ratings now, by kind."""
    return {kind: {"mu": mu, "sigma": sigma, "ordinal": o, "n": n}
            for kind, mu, sigma, o, n in T.current_rows(db, key, R.PAIRS)}


def rank_of(db: Database, kind: str, ordinal: float) -> int:
    return 1 + T.count_above(db, kind, ordinal)


def timeline(db: Database, kind: str, key: str) -> list[tuple[str, float, int]]:
    """The rating after the last contest of each month: [(yyyy-mm, ordinal, n)]."""
    rows = T.monthly_rows(db, kind, key)
    return [(m, R.Rated(mu, sigma).ordinal, n) for m, mu, sigma, n in rows]


def stats(db: Database, subject: str, what: str) -> list[dict]:
    return [{"other": o, "played": p, "won": w, "lost": l, "drawn": d}
            for o, p, w, l, d in T.stats_rows(db, subject, what)]


def head_to_head(db: Database, a: str, b: str) -> dict[str, dict]:
    """{what: {played, won, lost, drawn}} of player a against player b (per kind; partners too)."""
    out = {}
    for what, p, w, l, d in T.head_to_head_rows(db, a, b):
        out[what] = {"played": p, "won": w, "lost": l, "drawn": d}
    return out


def pair_numbers(db: Database, subject: str) -> dict | None:
    """A player's or a pair's summed figures (``RatedPairs.numbers``), or None."""
    return T.pair_numbers(db, subject)


def names(db: Database, keys) -> dict[str, str]:
    return T.names(db, list(keys))
