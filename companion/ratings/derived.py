"""What the ratings' derived tables hold, worked out (pure): what one session gives (its contests, each
with its ``ord``; its sums; a pair kind's figures), what changed between two readings of it, and the ratings
replayed over a run of contests. ``companion.storage.ratings_store`` keeps the tables up to date with
these and reads them; ``companion.storage.ratings_tables`` holds their SQL.

Contests are ordered by ``ord``: the session's start, a digest of its contests (two sessions that start
at the same moment are taken in the order of their content, so an archive imported in any order rates
the same), the session id (only for identical sessions, whose order changes nothing) and the game index.
"""
from __future__ import annotations

from datetime import datetime, timezone

from companion.record.session import player_key
from companion import kinds
from companion.kinds.base import GameRec, Item
from companion.ratings import contests as C, rating as R, tally


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


def share_of_rows(session_id: int, started: str, head: dict, rows: list, items: dict) -> dict:
    """``session_share`` of a session as the store gives it: its games' rows (gi, kind, head, state, seed,
    count) and their items ({gi: [(body, result, before)]})."""
    recs = [GameRec(kind, hd, [Item(*it) for it in items.get(gi, [])], state, seed)
            for gi, kind, hd, state, seed, _count in rows]
    return session_share(session_id, started, head, recs)


def first_change(old: dict | None, new: dict | None) -> str | None:
    """The earliest ``ord`` whose contests differ between two shares of a session (None: none do)."""
    if old and new and old["contests"] == new["contests"]:
        return None
    old_ords = [c["ord"] for c in (old or {}).get("contests", [])]
    new_ords = [c["ord"] for c in (new or {}).get("contests", [])]
    return min(old_ords + new_ords, default=None)


def contest_names(contest: dict) -> dict[tuple[str, str], str]:
    """{(kind, key): name} of a contest's players (and of its pairs, as "Ane & Bea")."""
    names = {(contest["kind"], key): name for key, name in contest["names"].items()}
    if C.pairs_rated(contest["kind"]):
        for team in contest["teams"]:
            names[(C.pairs_of(contest["kind"]), C.pair_key(*team))] = " & ".join(contest["names"][k] for k in sorted(team))
    return names


def rerate(contests: list[tuple[str, dict]], stored) -> tuple[list, list, list]:
    """Replay ``contests`` ([(ord, contest)], in order) from the ratings ``stored(kind, key)`` gives
    ((mu, sigma, n) or None: a new player): (every rating after every contest, the last of each month,
    the players' ratings now), as rows for ``ratings_tables.put_rated``."""
    cache: dict[tuple[str, str], R.Rated] = {}
    names: dict[tuple[str, str], str] = {}

    def get(kind, key):
        if (kind, key) not in cache:
            row = stored(kind, key)
            cache[(kind, key)] = R.Rated(*row) if row else R.fresh()
        return cache[(kind, key)]

    history, last_ord = [], {}
    for ord_, contest in contests:
        for (kind, key), r in R.rate(contest, get).items():
            cache[(kind, key)] = r
            last_ord[(kind, key)] = ord_
            history.append([kind, key, ord_, r.mu, r.sigma, r.n])
        names.update(contest_names(contest))
    monthly = {(kind, key, ord_[:7]): (mu, sigma, n) for kind, key, ord_, mu, sigma, n in history}   # last wins
    current = [[kind, key, names.get((kind, key), key), r.mu, r.sigma, r.ordinal, r.n, last_ord[(kind, key)]]
               for (kind, key), r in cache.items() if (kind, key) in last_ord]
    return history, [[*k, *v] for k, v in monthly.items()], current


def ranked(contests: list[dict]) -> dict[str, list[dict]]:
    """Ratings from these contests alone, replayed now: {kind: rows, its pairs' kind: rows}, best first."""
    now, _rows = R.replay(contests)
    names: dict[tuple[str, str], str] = {}
    for c in contests:
        names.update(contest_names(c))
    out: dict[str, list[dict]] = {}
    for (k, key), r in now.items():
        out.setdefault(k, []).append({"key": key, "name": names.get((k, key), key), "mu": r.mu, "sigma": r.sigma,
                                      "ordinal": r.ordinal, "n": r.n})
    for rows in out.values():
        rows.sort(key=lambda r: (-r["ordinal"], r["key"]))
    return out


def pair_figures(share: dict) -> dict:
    """{subject: figures} of a share's pair kind (``kinds.pairs_kind``), or {}."""
    kind = kinds.pairs_kind()
    return (share.get(kind.name) or {}) if kind else {}
