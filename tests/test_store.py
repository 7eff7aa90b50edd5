"""The event store: versions, idempotency, undo, concurrency, crash safety."""
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

import tally_kind
from companion import events, kinds, store
from companion.db import connect, init_db
from companion.rules.errors import RuleError
from companion.sessionfile import FORMAT

DOC = {"format": FORMAT, "name": "Night", "players": ["Ane", "Bea"], "games": []}


@pytest.fixture(autouse=True)
def tally(monkeypatch):
    monkeypatch.setitem(kinds.KINDS, "tally", tally_kind)


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "s.db")
    init_db(path)
    return connect(path)


def _session(db):
    store.create(db, DOC, location=lambda edit: edit)
    sid = db.execute("SELECT id FROM sessions").fetchone()[0]
    store.write(db, sid, "add_game", {"game": {"kind": "tally", "marks": []}}, key=None, seen_version=None,
                location="/")
    return sid


def _mark(db, sid, n, key=None, seen=None, at=None):
    action = {"type": "mark", "n": n}
    if at is not None:
        action["at"] = at
    return store.write(db, sid, "game", {"game": 0, "action": action}, key=key, seen_version=seen, location="/g")


def _marks(db, sid):
    return store.load(db, sid)["doc"]["games"][0]["marks"]


def test_a_key_lands_once(db):
    sid = _session(db)
    first = _mark(db, sid, 3, key="tap-1")
    second = _mark(db, sid, 3, key="tap-1")
    assert second.replayed and second.seq == first.seq
    assert _marks(db, sid) == [3]


def test_a_stale_write_that_is_still_legal_lands(db):
    sid = _session(db)
    _mark(db, sid, 1, seen=2)
    _mark(db, sid, 2, seen=2)  # saw version 2, now 3: still legal (no position given)
    assert _marks(db, sid) == [1, 2]


def test_a_stale_write_that_no_longer_makes_sense_is_refused_and_nothing_stored(db):
    sid = _session(db)
    _mark(db, sid, 1, at="0")
    before = store.load(db, sid)
    with pytest.raises(RuleError, match="another phone"):
        _mark(db, sid, 1, at="0")
    after = store.load(db, sid)
    assert after["version"] == before["version"] and after["doc"] == before["doc"]


def test_undo_is_the_exact_inverse(db):
    sid = _session(db)
    docs = [store.load(db, sid)["doc"]]
    for n in (4, 1, 5):
        _mark(db, sid, n)
        docs.append(store.load(db, sid)["doc"])
    for expected in reversed(docs[:-1]):
        store.write(db, sid, "undo", {"game": 0}, key=None, seen_version=None, location="/")
        assert store.load(db, sid)["doc"] == expected
    # and the cached document always equals a full replay of the events
    assert events.replay(store.event_list(db, sid)) == store.load(db, sid)["doc"]


def test_undo_of_a_stale_target_is_refused(db):
    sid = _session(db)
    _mark(db, sid, 1)
    target = store.last_effective(db, sid, 0)[0]
    _mark(db, sid, 2)
    with pytest.raises(store.Conflict):
        store.write(db, sid, "undo", {"game": 0, "target": target}, key=None, seen_version=None, location="/")
    assert _marks(db, sid) == [1, 2]


def test_undo_past_the_first_action_removes_the_game_then_stops(db):
    sid = _session(db)
    _mark(db, sid, 1)
    store.write(db, sid, "undo", {"game": 0}, key=None, seen_version=None, location="/")
    store.write(db, sid, "undo", {"game": 0}, key=None, seen_version=None, location="/")
    assert store.load(db, sid)["doc"]["games"] == []
    with pytest.raises(store.Conflict):
        store.write(db, sid, "undo", {"game": 0}, key=None, seen_version=None, location="/")


def test_events_are_never_edited_in_place(db):
    sid = _session(db)
    _mark(db, sid, 1)
    store.write(db, sid, "undo", {"game": 0}, key=None, seen_version=None, location="/")
    types = [t for _, t, _ in store.event_list(db, sid)]
    assert types == ["create", "add_game", "game", "undo"]


def test_four_phones_writing_at_once_lose_nothing(tmp_path):
    path = str(tmp_path / "c.db")
    init_db(path)
    sid = _session(connect(path))
    errors = []

    def phone(i):
        db = connect(path)
        for j in range(50):
            try:
                _mark(db, sid, i * 100 + j, key=f"p{i}-{j}", seen=1)
            except Exception as exc:  # pragma: no cover - the assertion below reports it
                errors.append(exc)

    threads = [threading.Thread(target=phone, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(_marks(connect(path), sid)) == sorted(i * 100 + j for i in range(4) for j in range(50))


WRITER = r"""
import sys
sys.path.insert(0, sys.argv[3])
import tally_kind
from companion import kinds, store
from companion.db import connect
kinds.KINDS["tally"] = tally_kind
db = connect(sys.argv[1])
sid = int(sys.argv[2])
for n in range(100000):
    store.write(db, sid, "game", {"game": 0, "action": {"type": "mark", "n": n}}, key=f"k{n}",
                seen_version=None, location="/")
    print(n, flush=True)  # acknowledged: committed before this line is printed
"""


def test_a_server_killed_mid_write_keeps_every_acknowledged_write(tmp_path):
    path = str(tmp_path / "k.db")
    init_db(path)
    sid = _session(connect(path))
    proc = subprocess.Popen([sys.executable, "-c", WRITER, path, str(sid), os.path.dirname(__file__)],
                            stdout=subprocess.PIPE, text=True)
    acknowledged = []
    deadline = time.time() + 20
    while len(acknowledged) < 150 and time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        acknowledged.append(int(line))
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    db = connect(path)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    marks = _marks(db, sid)
    assert len(acknowledged) >= 150
    assert marks[: len(acknowledged)] == acknowledged
    assert events.replay(store.event_list(db, sid)) == store.load(db, sid)["doc"]


def _count(db, table):
    return db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def test_an_archive_imports_whole_or_not_at_all(db):
    bad = {**DOC, "players": ["Ane", "Ane"]}              # refused by the rules, after two good ones
    with pytest.raises(RuleError):
        store.create_many(db, [DOC, {**DOC, "name": "Second"}, bad], key="k1", browser="b1")
    assert _count(db, "sessions") == 0 and _count(db, "events") == 0 and _count(db, "browsers") == 0
    assert store.create_many(db, [DOC, {**DOC, "name": "Second"}], key="k2", browser="b1") == 2
    assert store.create_many(db, [DOC, {**DOC, "name": "Second"}], key="k2", browser="b1") == 2    # a retry
    assert _count(db, "sessions") == 2
    roles = db.execute("SELECT role FROM browsers WHERE browser = 'b1'").fetchall()
    assert [r[0] for r in roles] == ["edit", "edit"]
