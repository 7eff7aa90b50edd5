"""The event store: versions, idempotency, undo, concurrency, crash safety, and that the rows it keeps
always equal a replay of its events."""
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from companion import service
from companion.record import events
from companion.record import session as S
from companion.storage import store
from companion.storage.db import connect, init_db
from companion.domain.errors import RuleError, Stale
from companion.kinds.mus import KIND as MUS, actions as A

PLAYERS = ["Ane", "Bea", "Carlos", "Dani"]
HEADER = {"format": S.FORMAT, "name": "Night", "players": PLAYERS}
GAME = {"kind": "mus", "rules": {"preset": "pagat", "target": 100, "games_to_win": 9}, "seats": PLAYERS}


@pytest.fixture
def db(new_database):
    path = new_database("s.db")
    init_db(path)
    return connect(path)


def _session(db, browser="b1"):
    service.create(db, S.load({**HEADER, "games": []}), browser=browser, location=lambda edit: edit)
    sid = db.execute("SELECT max(id) FROM sessions").fetchone()[0]
    _write(db, sid, "add_game", {"game": GAME}, browser=browser)
    return sid


def _write(db, sid, etype, payload, browser="b1", key=None, seen=None, location="/"):
    return service.write(db, store.session(db, sid), etype, payload, browser=browser, key=key,
                         seen_version=seen, location=location)


def _tally(db, sid, n, key=None, seen=None, at=None, browser="b1"):
    action = A.Tally(awards=[{"team": "A" if n % 2 else "B", "points": 1 + n % 3}], at=at)
    return _write(db, sid, "game", {"game": 0, "action": action}, browser=browser, key=key, seen=seen,
                  location="/g")


def _doc(db, sid):
    return S.to_doc(service.load(db, sid))


def _hands(db, sid):
    return _doc(db, sid)["games"][0]["hands"]


def _consistent(db, sid):
    """The rows equal a replay of the events, and every game's rows equal a fresh build of its file."""
    replayed = events.replay(store.event_list(db, sid))
    stored = service.load(db, sid)
    assert S.to_doc(replayed) == S.to_doc(stored)
    assert S.state_of(replayed) == S.state_of(stored)
    assert S.state_of(S.load(S.to_doc(stored))) == S.state_of(stored)


def test_a_key_lands_once(db):
    sid = _session(db)
    first = _tally(db, sid, 3, key="tap-1")
    second = _tally(db, sid, 3, key="tap-1")
    assert second.replayed and second.seq == first.seq
    assert len(_hands(db, sid)) == 1


def test_keys_belong_to_one_browser_and_one_session(db):
    sid = _session(db)
    _tally(db, sid, 1, key="tap-1", browser="b1")
    other = _tally(db, sid, 2, key="tap-1", browser="b2")     # another phone that happens to send the same key
    assert not other.replayed and len(_hands(db, sid)) == 2
    sid2 = _session(db)
    # the same key on another session is another form's: refused, never answered with the first write
    # (issue 21), and nothing written
    with pytest.raises(RuleError) as err:
        _tally(db, sid2, 1, key="tap-1", browser="b1")
    assert err.value.code == "formkey.used" and _hands(db, sid2) == []


def test_an_overlong_or_odd_key_is_refused(db):
    sid = _session(db)
    with pytest.raises(RuleError):
        _tally(db, sid, 1, key="k" * 65)
    with pytest.raises(RuleError):
        _tally(db, sid, 1, key="clé")
    assert _hands(db, sid) == []


def test_a_stale_write_that_is_still_legal_lands(db):
    sid = _session(db)
    _tally(db, sid, 1, seen=2)
    _tally(db, sid, 2, seen=2)  # saw version 2, now 3: still legal (no position given)
    assert len(_hands(db, sid)) == 2


def test_a_stale_write_that_no_longer_makes_sense_is_refused_and_nothing_stored(db):
    sid = _session(db)
    at = MUS.position(service.game(db, sid, 0))
    _tally(db, sid, 1, at=at)
    before = (_doc(db, sid), store.version(db, sid))
    with pytest.raises(Stale, match="already recorded"):
        _tally(db, sid, 1, at=at)
    assert (_doc(db, sid), store.version(db, sid)) == before


def test_undo_is_the_exact_inverse(db):
    sid = _session(db)
    docs = [_doc(db, sid)]
    for n in (4, 1, 5):
        _tally(db, sid, n)
        docs.append(_doc(db, sid))
    for expected in reversed(docs[:-1]):
        _write(db, sid, "undo", {"game": 0})
        assert _doc(db, sid) == expected
    _consistent(db, sid)


def test_undo_of_a_stale_target_is_refused(db):
    sid = _session(db)
    _tally(db, sid, 1)
    target = db.execute("SELECT max(seq) FROM events WHERE session_id = ?", [sid]).fetchone()[0]
    _tally(db, sid, 2)
    with pytest.raises(events.Conflict):
        _write(db, sid, "undo", {"game": 0, "target": target})
    assert len(_hands(db, sid)) == 2


def test_undo_past_the_first_action_removes_the_game_then_stops(db):
    sid = _session(db)
    _tally(db, sid, 1)
    for _ in range(2):
        _write(db, sid, "undo", {"game": 0})
    assert _doc(db, sid)["games"] == []
    with pytest.raises(events.Conflict):
        _write(db, sid, "undo", {"game": 0})
    _consistent(db, sid)


def test_events_are_never_edited_in_place(db):
    sid = _session(db)
    _tally(db, sid, 1)
    _write(db, sid, "undo", {"game": 0})
    types = [t for _, t, _ in store.event_list(db, sid)]
    assert types == ["create", "add_game", "game", "undo"]


@pytest.mark.sqlite_only     # SQLite's statement trace (bench/tap_cost.py counts both engines' statements)
def test_a_write_reads_only_the_rows_it_touches(db):
    """A tap on a long match reads the game's row and its last hand, not every hand."""
    sid = _session(db)
    for n in range(60):
        _tally(db, sid, n)
    reads = []
    db.conn.set_trace_callback(lambda sql: reads.append(sql) if "FROM items" in sql else None)
    try:
        _tally(db, sid, 7)
    finally:
        db.conn.set_trace_callback(None)
    assert len(reads) <= 2, reads
    _consistent(db, sid)


def test_four_phones_writing_at_once_lose_nothing(new_database):
    path = new_database("c.db")
    init_db(path)
    sid = _session(connect(path))
    errors = []

    def phone(i):
        db = connect(path)
        for j in range(40):
            try:
                _tally(db, sid, j, key=f"p{i}-{j}", seen=1, browser=f"phone{i}")
            except Exception as exc:  # pragma: no cover - the assertion below reports it
                errors.append(exc)

    threads = [threading.Thread(target=phone, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    db = connect(path)
    assert len(_hands(db, sid)) == 160
    _consistent(db, sid)


WRITER = r"""
import sys
sys.path.insert(0, sys.argv[3])
from companion import service
from companion.storage import store
from companion.storage.db import connect
from companion.kinds.mus import actions as A
db = connect(sys.argv[1])
sid = int(sys.argv[2])
for n in range(100000):
    action = A.Tally(awards=[{"team": "A", "points": 1}], mano=None)
    service.write(db, store.session(db, sid), "game", {"game": 0, "action": action}, browser="w",
                  key=f"k{n}", seen_version=None, location="/")
    print(n, flush=True)  # acknowledged: committed before this line is printed
"""


def test_a_server_killed_mid_write_keeps_every_acknowledged_write(new_database):
    path = new_database("k.db")
    init_db(path)
    sid = _session(connect(path))
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    proc = subprocess.Popen([sys.executable, "-c", WRITER, path, str(sid), root], stdout=subprocess.PIPE, text=True)
    acknowledged = []
    deadline = time.time() + 30
    while len(acknowledged) < 150 and time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        acknowledged.append(int(line))
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    db = connect(path)
    if db.dialect == "sqlite":
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert len(acknowledged) >= 150
    assert len(_hands(db, sid)) >= len(acknowledged)
    _consistent(db, sid)


def _count(db, table):
    return db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def test_an_archive_imports_whole_or_not_at_all(db):
    good = [S.load({**HEADER, "games": [GAME]}), S.load({**HEADER, "name": "Second", "games": []})]

    class Boom(S.Session):
        @property
        def header(self):
            raise RuntimeError("disk full")

        @header.setter
        def header(self, value):
            pass

    with pytest.raises(RuntimeError):
        service.create_many(db, [*good, Boom({})], key="k1", browser="b1")
    assert _count(db, "sessions") == 0 and _count(db, "events") == 0 and _count(db, "browsers") == 0
    assert _count(db, "games") == 0
    assert service.create_many(db, good, key="k2", browser="b1") == 2
    assert service.create_many(db, good, key="k2", browser="b1") == 0    # a retry imports nothing more
    assert _count(db, "sessions") == 2
    roles = db.execute("SELECT role FROM browsers WHERE browser = 'b1'").fetchall()
    assert [r[0] for r in roles] == ["edit", "edit"]


def test_the_apps_cache_is_bounded_and_safe_between_threads():
    """An LRU used from a worker's 8 threads (issue 27): a lookup that moves its entry while another
    thread evicts it never raises, and the size stays within its bound."""
    import threading

    from companion.registry import LRU

    cache, errors = LRU(8), []

    def hammer(n):
        try:
            for i in range(3000):
                key = (n * 7 + i) % 20
                if cache.get(key) is None:
                    cache.put(key, i)
                assert len(cache) <= 8
        except Exception as err:     # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=hammer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(cache) == 8


def test_two_apps_keep_their_caches_apart(tmp_path):
    from companion import create_app, registry

    a = create_app({"TESTING": True, "DATABASE": str(tmp_path / "a.db")})
    b = create_app({"TESTING": True, "DATABASE": str(tmp_path / "b.db")})
    assert registry.of(a) is registry.of(a) and registry.of(a) is not registry.of(b)
    assert registry.of(a).sessions is not registry.of(b).sessions


def test_a_sqlite_database_of_0_4_upgrades_with_the_one_list(tmp_path):
    """0.4 applied SQLite's migrations with sqlite-utils' runner (``_sqlite_migrations``, set
    ``companion``): the one list takes them as applied, applies only what came after, and every row stays."""
    from sqlite_utils.migrations import Migrations

    from companion.storage import migrations as M

    path = str(tmp_path / "old.db")
    old = connect(path)
    runner = Migrations(M.SET)            # what 0.4 ran, step for step
    for m in M.MIGRATIONS[:7]:
        runner(name=m.name)(lambda _utils, step=m.sqlite: step(old))    # (the same sqlite3 connection)
    runner.apply(old.utils())
    old.execute("INSERT INTO sessions(name, created, updated, edit_token, view_token) VALUES ('Old', '', '', 'e', 'v')")
    old.conn.close()
    init_db(path)
    db = connect(path)
    assert M.migrations.pending(db) == []
    assert [r[0] for r in db.execute("SELECT name FROM _sqlite_migrations ORDER BY id")] == [m.name for m in M.MIGRATIONS]
    assert db.execute("SELECT name FROM sessions").fetchall() == [("Old",)]
    db.conn.close()
