"""The event store: every write is one event appended inside ``BEGIN IMMEDIATE``, with the cached
session document, its version, the history side tables and the idempotency key in the same
transaction. A retried request (double tap, lost reply) carries the same key and gets the stored
result back; nothing is ever half-written."""
from __future__ import annotations

import json
import secrets
import zlib
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone

from sqlite_utils import Database

from . import events, summary
from .db import WRITE_PRAGMAS
from .rules.errors import RuleError
from .sessionfile import compute_state


class Conflict(RuleError):
    """The write no longer makes sense: somebody else changed the session first."""


@dataclass
class Written:
    seq: int
    location: str
    replayed: bool = False  # True: this key had already landed; nothing new was written


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 192 bits


@contextmanager
def immediate(db: Database):
    for pragma in WRITE_PRAGMAS:
        db.execute(pragma)
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    else:
        db.execute("COMMIT")


def _dump(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _pack(obj) -> bytes:
    return zlib.compress(_dump(obj).encode())


def _unpack(blob: bytes):
    return json.loads(zlib.decompress(blob))


def find(db: Database, token: str):
    """(session row, role) for an edit or view token, or (None, None). Constant-time enough: the
    token is looked up through a unique index; guessing one is 2**-192."""
    row = db.execute(
        "SELECT id, version, edit_token, view_token FROM sessions WHERE edit_token = ? OR view_token = ?",
        [token, token],
    ).fetchone()
    if row is None:
        return None, None
    role = "edit" if secrets.compare_digest(row[2], token) else "view"
    return {"id": row[0], "version": row[1], "edit_token": row[2], "view_token": row[3]}, role


def version(db: Database, token: str) -> int | None:
    row = db.execute(
        "SELECT version FROM sessions WHERE edit_token = ? OR view_token = ?", [token, token]
    ).fetchone()
    return None if row is None else row[0]


def load(db: Database, session_id: int) -> dict:
    row = db.execute(
        "SELECT id, name, created, updated, version, doc, edit_token, view_token FROM sessions WHERE id = ?",
        [session_id],
    ).fetchone()
    if row is None:
        raise KeyError(session_id)
    keys = ("id", "name", "created", "updated", "version", "doc", "edit_token", "view_token")
    out = dict(zip(keys, row))
    out["doc"] = json.loads(out["doc"])
    return out


def _refresh_side_tables(db: Database, session_id: int, doc: dict, state: dict) -> None:
    info = summary.summarize(doc, state)
    db.execute(
        "UPDATE sessions SET name = ?, started = COALESCE(?, created), summary = ? WHERE id = ?",
        [doc["name"], info["started"], _dump(info), session_id],
    )
    db.execute("DELETE FROM session_players WHERE session_id = ?", [session_id])
    net = state["settle"]["net"]
    for name in doc["players"]:
        db.execute(
            "INSERT INTO session_players(session_id, name, key, net) VALUES (?, ?, ?, ?)",
            [session_id, name, summary.player_key(name), net.get(name, 0)],
        )
    db.execute("DELETE FROM session_kinds WHERE session_id = ?", [session_id])
    for kind in sorted({g["kind"] for g in doc["games"]}):
        db.execute("INSERT INTO session_kinds(session_id, kind) VALUES (?, ?)", [session_id, kind])


def _stored(db: Database, key: str | None) -> Written | None:
    if not key:
        return None
    row = db.execute("SELECT seq, location FROM requests WHERE key = ?", [key]).fetchone()
    return Written(row[0], row[1], replayed=True) if row else None


def create(db: Database, doc: dict, *, key: str | None = None, location=None) -> Written:
    """A new session from a session document (new or imported). ``location(edit_token)`` is the
    address to send the phone to afterwards."""
    with immediate(db):
        return _insert_session(db, doc, key, location)


def create_many(db: Database, docs: list[dict], *, key: str | None = None, browser: str | None = None) -> int:
    """Import several sessions (an archive) in one transaction: all of them or none. With ``browser``,
    each is remembered as opened with its edit link. A retried request (same ``key``) imports nothing
    more. Returns how many sessions were stored."""
    with immediate(db):
        for i, doc in enumerate(docs):
            written = _insert_session(db, doc, f"{key}:{i}" if key else None, None)
            if browser:
                row, _role = find(db, written.location)
                _remember(db, browser, row["id"], "edit")
    return len(docs)


def _insert_session(db: Database, doc: dict, key: str | None, location) -> Written:
    done = _stored(db, key)
    if done:
        return done
    doc = events.apply_event(None, "create", {"doc": doc})
    state = compute_state(doc)
    stamp = now()
    edit, view = new_token(), new_token()
    cur = db.execute(
        "INSERT INTO sessions(name, created, updated, started, edit_token, view_token, version, doc)"
        " VALUES (?, ?, ?, ?, ?, ?, 1, ?)",
        [doc["name"], stamp, stamp, doc.get("started") or stamp, edit, view, _dump(doc)],
    )
    session_id = cur.lastrowid
    db.execute(
        "INSERT INTO events(session_id, seq, type, payload, created) VALUES (?, 1, 'create', ?, ?)",
        [session_id, _dump({"doc": doc}), stamp],
    )
    _refresh_side_tables(db, session_id, doc, state)
    where = location(edit) if location else edit
    if key:
        db.execute("INSERT INTO requests(key, session_id, seq, location) VALUES (?, ?, 1, ?)",
                   [key, session_id, where])
    return Written(1, where)


def _undone(db: Database, session_id: int) -> set[int]:
    rows = db.execute(
        "SELECT json_extract(payload, '$.target') FROM events WHERE session_id = ? AND type = 'undo'",
        [session_id],
    ).fetchall()
    return {r[0] for r in rows}


def last_effective(db: Database, session_id: int, game: int):
    """The game's last event that has not been undone: (seq, type, before) or None."""
    undone = _undone(db, session_id)
    for seq, etype, before in db.execute(
        "SELECT seq, type, before FROM events WHERE session_id = ? AND game = ? AND type IN ('game', 'add_game')"
        " ORDER BY seq DESC",
        [session_id, game],
    ):
        if seq not in undone:
            return seq, etype, before
    return None


def write(db: Database, session_id: int, etype: str, payload: dict, *, key: str | None,
          seen_version: int | None, location: str) -> Written:
    """Append one event. Raises RuleError (nothing written) when it is not legal now."""
    with immediate(db):
        done = _stored(db, key)
        if done:
            return done
        current = load(db, session_id)
        doc, ver = current["doc"], current["version"]
        before = None
        game = None
        if etype == "undo":
            game = payload["game"]
            last = last_effective(db, session_id, game)
            if last is None:
                raise Conflict("There is nothing left to undo in this game.")
            seq, ltype, blob = last
            if payload.get("target") is not None and payload["target"] != seq:
                raise Conflict("Someone else recorded something since: nothing was undone. Check the screen and undo again if needed.")
            if seen_version is not None and seen_version != ver and payload.get("target") is None:
                raise Conflict("The game changed on another phone: nothing was undone. Check the screen first.")
            payload = {"game": game, "target": seq}
            new_doc = json.loads(json.dumps(doc))
            if ltype == "add_game":
                if game != len(doc["games"]) - 1:
                    raise Conflict("Only the last game of the session can be removed by undo.")
                new_doc["games"].pop()
            else:
                new_doc["games"][game] = _unpack(blob)
        else:
            if etype == "game":
                game = payload["game"]
                if not 0 <= game < len(doc["games"]):
                    raise RuleError("There is no such game in this session.")
                before = _pack(doc["games"][game])
            elif etype == "add_game":
                game = len(doc["games"])
            new_doc = events.apply_event(doc, etype, payload)
        state = compute_state(new_doc)
        seq = ver + 1
        stamp = now()
        db.execute(
            "INSERT INTO events(session_id, seq, type, game, payload, before, created) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [session_id, seq, etype, game, _dump(payload), before, stamp],
        )
        db.execute("UPDATE sessions SET doc = ?, version = ?, updated = ? WHERE id = ?",
                   [_dump(new_doc), seq, stamp, session_id])
        _refresh_side_tables(db, session_id, new_doc, state)
        if key:
            db.execute("INSERT INTO requests(key, session_id, seq, location) VALUES (?, ?, ?, ?)",
                       [key, session_id, seq, location])
        return Written(seq, location)


def event_list(db: Database, session_id: int) -> list[tuple[int, str, dict]]:
    return [(seq, etype, json.loads(payload)) for seq, etype, payload in db.execute(
        "SELECT seq, type, payload FROM events WHERE session_id = ? ORDER BY seq", [session_id])]


def remember(db: Database, browser: str, session_id: int, role: str) -> None:
    """This browser created or opened this session (for its home page). An edit role is never
    downgraded by later opening the view link."""
    with immediate(db):
        _remember(db, browser, session_id, role)


def _remember(db: Database, browser: str, session_id: int, role: str) -> None:
    db.execute(
        "INSERT INTO browsers(browser, session_id, role, opened) VALUES (?, ?, ?, ?)"
        " ON CONFLICT(browser, session_id) DO UPDATE SET opened = excluded.opened,"
        " role = CASE WHEN browsers.role = 'edit' THEN 'edit' ELSE excluded.role END",
        [browser, session_id, role, now()],
    )


def revoke_edit(db: Database, session_id: int) -> str:
    token = new_token()
    with immediate(db):
        db.execute("UPDATE sessions SET edit_token = ?, version = version WHERE id = ?", [token, session_id])
    return token
