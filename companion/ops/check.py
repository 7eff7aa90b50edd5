"""``companion check``: is the database whole, and does every game's stored running state equal the replay
of its hands? (The store keeps each game's state beside its items so that a tap never replays the night;
this is the proof that the two still agree.)"""
from __future__ import annotations

import json

from companion.storage.connection import Connection as Database

from companion import service
from companion.record import session as S
from companion.storage import store
from companion.domain.errors import RuleError


def _same(a, b) -> bool:
    """Equal as the store writes them (JSON: tuples are lists)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def check_session(db: Database, session_id: int) -> tuple[list[str], int, int]:
    """(what is wrong with the session, games, items): every game replayed from its items."""
    stored = service.load(db, session_id)
    name = stored.header.get("name", "")
    label = f"session {session_id} ({name})"
    items = sum(len(g.items) for g in stored.games)
    try:
        replayed = S.load(S.to_doc(stored))
    except RuleError as err:
        return [f"{label}: its hands no longer replay: {err}"], len(stored.games), items
    problems = []
    for gi, (have, want) in enumerate(zip(stored.games, replayed.games)):
        what = f"{label}: game {gi + 1} ({have.kind})"
        if not _same(have.state, want.state):
            problems.append(f"{what}: the stored running state differs from the replay of its {len(have.items)} "
                            "hands or deals")
        elif len(have.items) != len(want.items) or any(
                not _same(x.result, y.result) for x, y in zip(have.items, want.items)):
            first = next((i for i, (x, y) in enumerate(zip(have.items, want.items)) if not _same(x.result, y.result)),
                         min(len(have.items), len(want.items)))
            problems.append(f"{what}: hand or deal {first + 1} stored differs from its replay")
    return problems, len(stored.games), items


def check_database(db: Database) -> tuple[list[str], dict]:
    """(one line per problem, what was counted). SQLite's own check first: a damaged file is not replayed."""
    # SQLite checks its file; PostgreSQL checks its pages itself (and its replicas are a DBA's tools)
    rows = store.integrity(db)
    if rows != ["ok"]:
        return [f"SQLite integrity check: {r}" for r in rows[:20]], {"sessions": 0, "games": 0, "items": 0}
    counted = {"sessions": 0, "games": 0, "items": 0}
    problems: list[str] = []
    for session_id in store.session_ids(db):
        found, games, items = check_session(db, session_id)
        problems += found
        counted["sessions"] += 1
        counted["games"] += games
        counted["items"] += items
    return problems, counted
