"""PostgreSQL as the archive's engine: the same tables as SQLite's, SQLite's transaction meaning (one
writer at a time, who sees every earlier commit), migrations two servers can run at once, and its faults
said plainly. (The rest of the suite runs on both engines: tests/conftest.py.)"""
from __future__ import annotations

import sqlite3
import threading

import pytest

from companion import registry
from companion.storage import migrations, postgres
from companion.storage.db import connect, init_db


@pytest.fixture
def url(pg_cluster):
    made = pg_cluster.new_schema()
    yield made
    pg_cluster.drop(made)


def _sqlite_tables(path) -> dict:
    conn = sqlite3.connect(path)
    tables = {}
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'"
                                " AND name NOT LIKE 'sqlite%'"):
        cols = conn.execute(f"PRAGMA table_info({name})").fetchall()
        tables[name] = ({c[1] for c in cols}, tuple(c[1] for c in sorted(cols, key=lambda c: c[5]) if c[5]))
    conn.close()
    return tables


def _pg_tables(db) -> dict:
    tables = {}
    for (name,) in db.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
                              " AND table_name <> 'migrations'").fetchall():
        cols = {r[0] for r in db.execute("SELECT column_name FROM information_schema.columns WHERE table_schema ="
                                         " current_schema() AND table_name = ?", [name]).fetchall()}
        key = tuple(r[0] for r in db.execute(
            "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid"
            " AND a.attnum = ANY(i.indkey) WHERE i.indrelid = CAST(? AS regclass) AND i.indisprimary"
            " ORDER BY array_position(i.indkey, a.attnum)", [name]).fetchall())
        tables[name] = (cols, key)
    return tables


def test_both_engines_have_the_same_tables_columns_and_keys(url, tmp_path):
    path = str(tmp_path / "same.db")
    init_db(path)
    init_db(url)
    db = connect(url)
    assert _pg_tables(db) == _sqlite_tables(path)


def test_text_sorts_by_code_point_as_on_sqlite(url):
    init_db(url)
    db = connect(url)
    db.execute("CREATE TABLE words (w TEXT)")
    words = ["b", "B", "a", "Ñ", "ñ", "Z", "é", "e"]
    db.executemany("INSERT INTO words(w) VALUES (?)", [[w] for w in words])
    assert [r[0] for r in db.execute("SELECT w FROM words ORDER BY w").fetchall()] == sorted(words)


def test_a_second_writer_waits_for_the_first_and_sees_its_commit(url):
    init_db(url)
    first, second = connect(url), connect(url)
    first.execute("BEGIN IMMEDIATE")
    first.execute("INSERT INTO meta(key, value) VALUES ('who', 'first')")
    entered = threading.Event()
    seen = []

    def write():
        second.execute("BEGIN IMMEDIATE")       # waits here until the first commits
        entered.set()
        seen.append(second.execute("SELECT value FROM meta WHERE key = 'who'").fetchone())
        second.execute("COMMIT")

    thread = threading.Thread(target=write)
    thread.start()
    assert not entered.wait(0.5)       # still waiting for the lock (a wait that must not end)
    first.execute("COMMIT")
    thread.join(30)
    assert seen == [("first",)]


def _waiting(db) -> bool:
    """Whether ``db``'s backend waits for a lock (asked of PostgreSQL: no guessing by time)."""
    pid = db.raw.info.backend_pid
    probe = connect(db.path)
    try:
        return probe.execute("SELECT count(*) FROM pg_locks WHERE pid = ? AND NOT granted", [pid]).fetchone()[0] > 0
    finally:
        probe.close()


def _until(check, timeout=30.0):
    import time

    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, "never happened"
        time.sleep(0.01)


def test_writers_of_two_sessions_go_side_by_side_and_an_archive_wide_one_waits_for_all(url):
    """A lock per session (issue 27): a tap at one table never waits for another table's; a second writer
    of the same session waits; an archive-wide write (an import, the ratings' tables) waits for both and
    holds every session's writer back while it runs."""
    init_db(url)
    one, two, same, whole, later = (connect(url) for _ in range(5))
    one.begin_write(1)
    two.begin_write(2)                   # another session: granted at once (this call returns)
    threads = [threading.Thread(target=same.begin_write, args=(1,)), threading.Thread(target=whole.begin_write)]
    threads[0].start()
    _until(lambda: _waiting(same))       # the same session: waits for the first
    threads[1].start()
    _until(lambda: _waiting(whole))      # archive-wide: waits for every writer
    one.execute("COMMIT")
    threads[0].join(30)
    assert not threads[0].is_alive() and _waiting(whole)
    two.execute("COMMIT")
    same.execute("COMMIT")
    threads[1].join(30)
    assert not threads[1].is_alive()
    waiting = threading.Thread(target=later.begin_write, args=(3,))
    waiting.start()
    _until(lambda: _waiting(later))      # any session's writer waits for the archive-wide one
    whole.execute("COMMIT")
    waiting.join(30)
    later.execute("COMMIT")
    for db in (one, two, same, whole, later):
        db.close()


def test_a_writer_held_up_too_long_is_told_busy(url, monkeypatch):
    from companion import create_app

    app = create_app({"TESTING": True, "DATABASE": url, "BASE_URL": "http://table.example:8000"})
    client = app.test_client()
    from helpers import new_session

    links = new_session(client)
    registry.of(app).close()       # the pool again, with the shorter timeout
    monkeypatch.setattr(postgres, "LOCK_TIMEOUT", "200ms")
    holder = connect(url)
    holder.execute("BEGIN IMMEDIATE")              # another server's long write
    try:
        page = client.get(links["edit"]).get_data(as_text=True)
        from helpers import csrf

        resp = client.post(links["edit"] + "/rename", data={"csrf": csrf(client), "name": "Renamed", "k": "x1"})
        assert resp.status_code == 503 and resp.headers["Retry-After"] == "30", resp.status_code
        assert "busy" in resp.get_data(as_text=True) and page
    finally:
        holder.execute("ROLLBACK")
    assert "Renamed" not in client.get(links["edit"]).get_data(as_text=True)


def test_a_read_only_database_answers_503_and_changes_nothing(url, monkeypatch):
    from companion import create_app
    from helpers import csrf, new_session

    app = create_app({"TESTING": True, "DATABASE": url, "BASE_URL": "http://table.example:8000"})
    client = app.test_client()
    links = new_session(client)
    registry.of(app).close()
    real = postgres._configure

    def read_only(conn):          # a standby, or a database an administrator set read-only
        real(conn)
        conn.execute("SET default_transaction_read_only = on")

    monkeypatch.setattr(postgres, "_configure", read_only)
    resp = client.post(links["edit"] + "/rename", data={"csrf": csrf(client), "name": "Renamed", "k": "x2"})
    assert resp.status_code == 503 and "read-only" in resp.get_data(as_text=True)
    monkeypatch.setattr(postgres, "_configure", real)
    registry.of(app).close()
    assert "Renamed" not in client.get(links["edit"]).get_data(as_text=True)


def test_two_servers_starting_at_once_migrate_once(url):
    errors, keys = [], []

    def start():
        try:
            keys.append(init_db(url))
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == [] and len(set(keys)) == 1
    db = connect(url)
    assert [r[0] for r in db.execute("SELECT name FROM migrations").fetchall()] == \
        [m.name for m in migrations.MIGRATIONS]


def test_a_postgresql_database_of_0_4_upgrades_with_the_one_list(url):
    """0.4 recorded its own names (``p001_schema``, ``p002_notify_versions``) after its own runner: the one
    list of migrations takes them as applied, applies what came after, and every row stays."""
    from companion.storage.postgres import ddl

    old = connect(url)
    old.execute("CREATE TABLE migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    for name, statements in (("p001_schema", migrations.P001), ("p002_notify_versions", migrations.P002)):
        for sql in statements:
            old.raw.execute(ddl(sql))
        old.execute("INSERT INTO migrations(name, applied_at) VALUES (?, '2026-11-01T00:00:00+00:00')", [name])
    old.execute("INSERT INTO sessions(name, created, updated, edit_token, view_token) VALUES ('Old', '', '', 'e', 'v')")
    old.close()
    key = init_db(url)
    db = connect(url)
    assert migrations.migrations.pending(db) == [] and key == init_db(url)
    assert db.execute("SELECT name FROM sessions").fetchall() == [("Old",)]
    assert db.execute("SELECT count(*) FROM information_schema.triggers WHERE trigger_name = 'companion_versions'"
                      " AND event_object_schema = current_schema()").fetchone()[0] == 1
    db.close()


def test_an_unreachable_server_is_one_line_for_the_command_line(tmp_path):
    from click.testing import CliRunner

    from companion.ops.cli import main

    nowhere = f"postgresql://companion:secret@/companion?host={tmp_path}"
    result = CliRunner().invoke(main, ["check", "--db", nowhere])
    assert result.exit_code == 1
    line = result.output.strip()
    assert len(line.splitlines()) == 1 and "secret" not in line and "***" in line, line


@pytest.mark.parametrize("sql, params, spelled", [
    ("SELECT 1 FROM t WHERE a = ? AND b = '?'", True, "SELECT 1 FROM t WHERE a = %s AND b = '?'"),
    ("SELECT 1 FROM t WHERE w LIKE 'h2h:%' AND k = ?", True, "SELECT 1 FROM t WHERE w ILIKE 'h2h:%%' AND k = %s"),
    ("SELECT json_extract(s.summary, '$.teams') FROM sessions s", False,
     "SELECT json_extract_path_text(s.summary::json, 'teams') FROM sessions s"),
    ("DELETE FROM x WHERE k IN (SELECT value FROM json_each(?))", True,
     "DELETE FROM x WHERE k IN (SELECT value FROM json_array_elements_text(CAST(%s AS json)))"),
])
def test_the_few_spellings_that_differ(sql, params, spelled):
    assert postgres.translate(sql, params) == spelled


def test_a_nul_in_a_lookup_finds_nothing_instead_of_failing(url):
    init_db(url)
    db = connect(url)
    assert db.execute("SELECT id FROM sessions WHERE view_token = ?", ["a\x00b"]).fetchone() is None


def test_copy_moves_a_night_to_postgresql_and_every_link_goes_on_working(url, tmp_path):
    from click.testing import CliRunner

    from companion import create_app
    from companion.ops.cli import main
    from helpers import csrf, new_session

    path = str(tmp_path / "night.db")
    old = create_app({"TESTING": True, "DATABASE": path, "BASE_URL": "http://table.example:8000"})
    phone = old.test_client()
    links = new_session(phone)
    assert phone.post(links["edit"] + "/rename", data={"csrf": csrf(phone), "name": "Moved night",
                                                       "k": "key-1"}).status_code == 303
    before = phone.get(links["view"] + "/state.json").get_json()
    token = csrf(phone)                               # signed with the old database's secret key
    result = CliRunner().invoke(main, ["copy", "--db", path, "--to", url])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("copied 1 sessions") and "postgresql://" in result.output
    new = create_app({"TESTING": True, "DATABASE": url, "BASE_URL": "http://table.example:8000"})
    same_phone = phone
    same_phone.application = new                     # the same phone, its cookies kept: still signed in
    assert same_phone.get(links["view"] + "/state.json").get_json() == before
    events = connect(url).execute("SELECT COUNT(*) FROM events").fetchone()[0]
    # the retried tap is recognised by its key on the new database: nothing written twice
    again = same_phone.post(links["edit"] + "/rename", data={"csrf": token, "name": "Moved night", "k": "key-1"})
    assert again.status_code == 303
    fresh = same_phone.post(links["edit"] + "/rename", data={"csrf": token, "name": "Renamed after", "k": "key-2"})
    assert fresh.status_code == 303
    assert connect(url).execute("SELECT COUNT(*) FROM events").fetchone()[0] == events + 1
    # a new session after the copy is numbered after the copied ones
    assert new_session(same_phone)["edit"] != links["edit"]
    # and a second copy into the same database is refused, changing nothing
    result = CliRunner().invoke(main, ["copy", "--db", path, "--to", url])
    assert result.exit_code == 1 and "already holds sessions" in result.output


def test_connections_the_server_closed_are_replaced_not_answered_with_an_error(url):
    """A database restart or failover closes every pooled connection: the next poll and the next page get
    fresh ones."""
    import re

    from companion import create_app
    from helpers import new_session

    app = create_app({"TESTING": True, "DATABASE": url, "BASE_URL": "http://table.example:8000"})
    client = app.test_client()
    links = new_session(client)
    page = client.get(links["view"]).get_data(as_text=True)
    version = re.search(r'data-version="(\d+)"', page).group(1)
    pool = registry.of(app).pg_pool(url)
    held = [pool.getconn() for _ in range(pool.get_stats()["pool_size"])]
    pids = [c.info.backend_pid for c in held]
    for c in held:
        pool.putconn(c)
    killer = connect(url)
    for pid in pids:
        killer.execute("SELECT pg_terminate_backend(?)", [pid])
    poll = client.get(f"{links['view']}?since={version}", headers={"HX-Request": "true"})
    assert poll.status_code == 200 and poll.headers["HX-Reswap"] == "none"
    for pid in pids:
        killer.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = ?", [pid])
    assert client.get(links["view"]).status_code == 200


def test_the_poll_survives_psycopg_deallocating_every_statement(url):
    """psycopg sends DEALLOCATE ALL after a ROLLBACK on a connection where it had prepared statements:
    the poll's own statement is prepared again, never a failed poll."""
    init_db(url)
    pool = postgres.make_pool(url)
    try:
        db = postgres.borrow(pool, url)
        for _ in range(6):            # psycopg prepares a statement on its fifth run
            db.execute("SELECT version FROM sessions WHERE id = ?", [1]).fetchall()
        db.close()
        assert postgres.version_of_link(pool, "nobody") is None        # prepared on the pooled connection
        db = postgres.borrow(pool, url)
        db.execute("BEGIN")
        db.execute("ROLLBACK")                                          # psycopg: DEALLOCATE ALL
        db.close()
        assert postgres.version_of_link(pool, "nobody") is None
        assert pool.get_stats()["pool_size"] >= 1
    finally:
        pool.close()


def _listening_night(url, link="view"):
    """(client, links, version of the ``link`` page, the process's live cache listening already)."""
    import re
    import time

    from companion import create_app
    from helpers import new_session

    app = create_app({"TESTING": True, "DATABASE": url, "BASE_URL": "http://table.example:8000"})
    client = app.test_client()
    links = new_session(client)
    version = int(re.search(r'data-version="(\d+)"', client.get(links[link]).get_data(as_text=True)).group(1))
    cache = registry.of(app).versions(url)
    deadline = time.monotonic() + 30
    while time.monotonic() - cache.alive_at > 1 and time.monotonic() < deadline:    # listening yet?
        time.sleep(0.02)
    return client, links, version, cache


def _poll(client, link, since):
    resp = client.get(f"{link}?since={since}", headers={"HX-Request": "true"})
    return resp.status_code, resp.headers.get("HX-Reswap") == "none"


def test_a_write_through_another_server_reaches_this_ones_cached_polls(url):
    """Polls answer from a cache kept by LISTEN/NOTIFY: a version bumped by another server (here: another
    connection, as another server's commit) is heard, and the next poll says it changed."""
    import time

    client, links, version, cache = _listening_night(url)
    deadline = time.monotonic() + 30
    assert _poll(client, links["view"], version) == (200, True)          # read once, then cached
    session_id = cache.links[links["view"].rsplit("/", 1)[1]][0]
    assert cache.versions[session_id] == version
    other = connect(url)
    other.execute("UPDATE sessions SET version = version + 1 WHERE id = ?", [session_id])   # another server
    while cache.versions[session_id] == version and time.monotonic() < deadline:
        time.sleep(0.01)
    assert cache.versions[session_id] == version + 1
    assert _poll(client, links["view"], version + 1) == (200, True)
    assert _poll(client, links["view"], version)[1] is False             # changed: the region is sent


def test_a_lost_listener_forgets_the_cache_and_polls_read_the_database(url):
    import time

    client, links, version, cache = _listening_night(url)
    deadline = time.monotonic() + 30
    _poll(client, links["view"], version)
    generation = cache.generation
    killer = connect(url)
    killer.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'"
                   " OR query = 'SELECT 1'")
    # the version moves while nobody listens: the cache must not answer "unchanged" from before
    killer.execute("UPDATE sessions SET version = version + 1 WHERE view_token = ?", [links["view"].rsplit("/", 1)[1]])
    while cache.generation == generation and time.monotonic() < deadline:
        time.sleep(0.01)
    assert cache.generation > generation
    assert _poll(client, links["view"], version)[1] is False
    assert _poll(client, links["view"], version + 1) == (200, True)


def test_a_replaced_scoring_link_is_forgotten_by_the_cache(url):
    from companion.storage import store

    client, links, version, cache = _listening_night(url, "edit")
    _poll(client, links["edit"], version)
    token = links["edit"].rsplit("/", 1)[1]
    db = registry.of(client.application).borrow(url)       # a write of this app: its cache knows at commit
    session_id = db.execute("SELECT id FROM sessions WHERE edit_token = ?", [token]).fetchone()[0]
    store.replace_edit(db, session_id)
    assert token not in cache.links
    assert client.get(f"{links['edit']}?since={version}", headers={"HX-Request": "true"}).status_code == 404
