"""The ratings' tables: derived from the sessions, kept up to date lazily, never written by a tap.

How it stays fresh without the store knowing about it: SQLite triggers on ``sessions`` (a session
created, written to (its ``version`` moves), re-dated or deleted) put its id in ``rt_dirty``. Whoever
reads the ratings first calls ``refresh``: each dirty session is read again (``service.load``, the one call
into the store), its share of the sums (partners, rivals, a pair kind's figures) is taken back and added anew,
its contests replace the old ones, and the ratings are replayed from the earliest contest that changed
(a live night: its own matches only; a correction of an old hand: everything after that hand's night).

Everything here can be dropped and rebuilt from the sessions: when the tables or the triggers are
missing (a new database, a migration that rebuilt ``sessions``) or ``SCHEMA`` changes, they are built
again from every session.

Contests are ordered by ``ord``: the session's start, a digest of its contests (two sessions that start
at the same moment are taken in the order of their content, so an archive imported in any order rates
the same), the session id (only for identical sessions, whose order changes nothing) and the game index.
"""
from __future__ import annotations

import json
import time
from datetime import datetime, timezone

from companion.storage.connection import Connection as Database

from companion import kinds, service
from companion.storage import store
# the tables' schema in both engines' words lives with the rest of the SQL (no dialect branch here)
from companion.storage import ratings_tables as T
from companion.storage.ratings_tables import SCHEMA, TRIGGERS, build as _build, put_meta as _put_meta, ready as _ready  # noqa: F401
from companion.domain.session import player_key
from companion.ratings import contests as C, rating as R, tally


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
    if _ready(db) and not T.any_dirty(db) and _pending(db) is None:
        return 0
    if not _ready(db):
        with store.immediate(db):
            if not _ready(db):
                _build(db)
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
    while _pending(db) is not None and more():
        with store.immediate(db):
            start = _pending(db)
            if start is not None:
                _rerate(db, start, CONTESTS_PER_LOCK)
        steps += 1
    return done


def behind(db: Database) -> int | None:
    """None when the tables are up to date; else how many sessions are still to be read (0: only the
    replay of the ratings is left)."""
    if not _ready(db):
        return T.count_sessions(db)
    dirty = T.count_dirty(db)
    return dirty if dirty or _pending(db) is not None else None


def _pending(db: Database) -> str | None:
    return T.pending(db)


def _lower_pending(db: Database, ord_: str) -> None:
    current = _pending(db)
    if current is None or ord_ < current:
        _put_meta(db, "ratings_pending", ord_)


def _read(db: Database, sid: int) -> tuple[int | None, dict | None]:
    """(the session's version, its share now) or (None, None) when it is gone."""
    row = T.session_when(db, sid)
    if row is None:
        return None, None
    sess = service.load(db, sid)
    return row[1], session_share(sid, row[0] or "", sess.header, sess.games)


def instant(started: str) -> str:
    """When a session started, as a UTC instant that sorts as time does ("2026-11-20T20:05:00Z"): nights
    started in other UTC offsets are rated in the order they happened, not in the order of their clocks (a
    time without an offset is taken as UTC)."""
    try:
        when = datetime.fromisoformat(started)
    except (TypeError, ValueError):
        return started
    if when.tzinfo is not None:
        when = when.astimezone(timezone.utc).replace(tzinfo=None)
    return when.isoformat(timespec="seconds") + "Z"


def session_share(session_id: int, started: str, head: dict, recs) -> dict:
    """What one session gives (pure): its contests with their ``ord``, its sums, and the figures of its games
    of a kind that counts them (``Kind.rated_pairs``), under that kind's name."""
    found = C.contests_of(recs)
    digest = C.digest(found)
    names: dict[str, str] = {}
    when = instant(started)
    for c in found:
        c["ord"] = f"{when}|{digest}|{session_id:010d}|{c['gi']:04d}"
        names.update(c["names"])
    stats = [[*k, *v] for k, v in sorted(tally.sum_rows(found).items())]
    by_kind: dict[str, dict[str, dict]] = {k.name: {} for k in kinds.KINDS.values() if k.rated_pairs is not None}
    for rec in recs:
        per_team = C.figures_of(rec)
        if per_team is None:
            continue
        seats = rec.head["seats"]
        teams = [[player_key(p) for p in seats[0::2]], [player_key(p) for p in seats[1::2]]]
        names.update({player_key(p): p for p in seats})
        numbers = by_kind.setdefault(rec.kind, {})
        for subject, figures in tally.pair_subjects(teams, per_team).items():
            acc = numbers.setdefault(subject, dict.fromkeys(figures, 0))
            for k, v in figures.items():
                acc[k] += v
    # a kind's figures under its name (the stored shares keep that key)
    return {"contests": found, "stats": stats, **by_kind, "names": names, "club": "club" in head}


def _replace(db: Database, sid: int, new: dict | None) -> str | None:
    """Replace one session's share; returns the earliest ``ord`` whose contests changed (or None)."""
    old = T.share_of(db, sid)
    if old == new:
        return None
    if old:
        _add_sums(db, old, -1)
    T.drop_share(db, sid)
    if new:
        _add_sums(db, new, 1)
        T.put_share(db, sid, [[c["ord"], sid, c["kind"], int(new["club"]), store.dump(c)] for c in new["contests"]],
                    list(new["names"].items()), store.dump(new))
    old_ords = [c["ord"] for c in (old or {}).get("contests", [])]
    new_ords = [c["ord"] for c in (new or {}).get("contests", [])]
    if old and new and old["contests"] == new["contests"]:
        return None
    return min(old_ords + new_ords, default=None)


def _add_sums(db: Database, share: dict, sign: int) -> None:
    for subject, what, other, p, w, l, d in share["stats"]:
        T.add_stats(db, [subject, what, other, sign * p, sign * w, sign * l, sign * d])
    if sign < 0:
        T.drop_empty_stats(db, sorted({s[0] for s in share["stats"]}))
    kind = kinds.pairs_kind()
    for subject, figures in (share.get(kind.name) or {} if kind else {}).items():
        acc = T.pair_numbers(db, subject) or {}
        for k, v in figures.items():
            acc[k] = acc.get(k, 0) + sign * v
        T.put_pair_numbers(db, subject, store.dump(acc) if any(acc.values()) else None)


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
    cache: dict[tuple[str, str], R.Rated] = {}
    names: dict[tuple[str, str], str] = {}

    def get(kind, key):
        if (kind, key) not in cache:
            row = T.current_rating(db, kind, key)
            cache[(kind, key)] = R.Rated(*row) if row else R.fresh()
        return cache[(kind, key)]

    history, last_ord = [], {}
    batch = T.contests_from(db, cutoff, limit + 1)
    following = batch[limit][0] if len(batch) > limit else None
    for ord_, data in batch[:limit]:
        contest = json.loads(data)
        for (kind, key), r in R.rate(contest, get).items():
            cache[(kind, key)] = r
            last_ord[(kind, key)] = ord_
            history.append([kind, key, ord_, r.mu, r.sigma, r.n])
        for key, name in contest["names"].items():
            names[(contest["kind"], key)] = name
        if C.pairs_rated(contest["kind"]):
            for team in contest["teams"]:
                names[(C.pairs_of(contest["kind"]), C.pair_key(*team))] = " & ".join(contest["names"][k] for k in sorted(team))
    monthly = {(kind, key, ord_[:7]): (mu, sigma, n) for kind, key, ord_, mu, sigma, n in history}   # last wins
    T.put_rated(db, history, [[*k, *v] for k, v in monthly.items()],
                [[kind, key, names.get((kind, key), key), r.mu, r.sigma, r.ordinal, r.n, last_ord[(kind, key)]]
                 for (kind, key), r in cache.items() if (kind, key) in last_ord])
    if following is None:
        T.clear_pending(db)
    else:
        _put_meta(db, "ratings_pending", following)


# ---------------------------------------------------------------------------------------------------
# reading (after ``refresh``)

def board(db: Database, kind: str, limit: int, min_n: int = 0) -> list[dict]:
    """The stored all-time ratings of a kind, best first (the index ``rt_current_board``)."""
    rows = T.board_rows(db, kind, limit, min_n)
    return [{"key": k, "name": name, "mu": mu, "sigma": sigma, "ordinal": o, "n": n}
            for k, name, mu, sigma, o, n in rows]


def board_between(db: Database, kind: str, start: str | None, end: str | None, club: bool = False,
                  name_like: str | None = None) -> dict[str, list[dict]]:
    """Ratings from the contests of a date range (and/or a club's nights) alone, replayed now:
    {kind: rows, its pairs' kind (``pairs_of``): rows}, best first."""
    contests = T.contests_between(db, kind, start, end, club, name_like)
    now, _rows = R.replay(contests)
    names: dict[tuple[str, str], str] = {}
    for c in contests:
        for key, name in c["names"].items():
            names[(c["kind"], key)] = name
        if C.pairs_rated(c["kind"]):
            for team in c["teams"]:
                names[(C.pairs_of(c["kind"]), C.pair_key(*team))] = " & ".join(c["names"][k] for k in sorted(team))
    out: dict[str, list[dict]] = {}
    for (k, key), r in now.items():
        out.setdefault(k, []).append({"key": key, "name": names.get((k, key), key), "mu": r.mu, "sigma": r.sigma,
                                      "ordinal": r.ordinal, "n": r.n})
    for rows in out.values():
        rows.sort(key=lambda r: (-r["ordinal"], r["key"]))
    return out


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
    """{what: {played, won, lost, drawn}} of player a against player b (a pair kind: opponents; partners
    too)."""
    out = {}
    for what, p, w, l, d in T.head_to_head_rows(db, a, b):
        out[what] = {"played": p, "won": w, "lost": l, "drawn": d}
    return out


def pair_numbers(db: Database, subject: str) -> dict | None:
    """A player's or a pair's summed figures (``RatedPairs.numbers``), or None."""
    return T.pair_numbers(db, subject)


def names(db: Database, keys) -> dict[str, str]:
    return T.names(db, list(keys))
