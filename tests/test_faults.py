"""A bad disk, said plainly (issue 21): a read-only or full database answers a 503 page in the reader's
language and changes nothing; the command line prints one line and exits 1 for every database problem;
`companion serve` refuses to start on a database it cannot write; `companion check` finds a wrong session."""
from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import sys

import pytest
from click.testing import CliRunner

from companion import create_app, registry
from companion.storage import db as dbmod
from companion.ops.cli import main
from helpers import form_fields, new_session

ES = {"Accept-Language": "es-ES,es;q=0.9"}
JA = {"Accept-Language": "ja-JP,ja;q=0.9"}


def _rename(client, edit: str, name: str, headers=None):
    page = client.get(edit).get_data(as_text=True)
    data = {**form_fields(page, edit + "/rename"), "name": name}
    return client.post(edit + "/rename", data=data, headers=headers or {})


def _name(client, edit: str) -> str:
    return client.get(edit + "/session.json").get_json()["name"]


@pytest.fixture
def readonly_later(tmp_path):
    path = tmp_path / "night.db"
    yield path
    for p in tmp_path.glob("night.db*"):
        os.chmod(p, 0o644)


# ---------------------------------------------------------------------------------------------- the web app

def test_a_database_made_read_only_while_serving_answers_503_in_the_readers_language(readonly_later):
    app = create_app({"TESTING": True, "DATABASE": str(readonly_later), "BASE_URL": "http://table.example:8000"})
    client = app.test_client()
    links = new_session(client)
    os.chmod(readonly_later, stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)       # chmod 444 while it runs
    resp = _rename(client, links["edit"], "Different name", headers=ES)
    assert resp.status_code == 503
    assert "su base de datos es de solo lectura. No se ha cambiado nada." in resp.get_data(as_text=True)
    resp = _rename(client, links["edit"], "Different name", headers=JA)
    assert resp.status_code == 503 and "読み取り専用" in resp.get_data(as_text=True)
    assert client.get(links["view"]).status_code == 200                          # reading still works
    assert _name(client, links["edit"]) == "Friday at Koldo's"                    # nothing changed


def _connect_with(pragma: str, monkeypatch):
    real = dbmod.connect

    def connect(path):
        db = real(path)
        db.execute(pragma)
        return db

    monkeypatch.setattr(dbmod, "connect", connect)


@pytest.mark.sqlite_only     # SQLite's own errors (tests/test_postgres.py: PostgreSQL's)
def test_sqlite_refusing_a_write_as_read_only_is_a_503_not_a_500(app, client, monkeypatch, caplog):
    links = new_session(client)
    registry.of(app).drop_pools()
    _connect_with("PRAGMA query_only = ON", monkeypatch)                   # SQLite itself says SQLITE_READONLY
    resp = _rename(client, links["edit"], "Different name")
    assert resp.status_code == 503 and "its database is read-only" in resp.get_data(as_text=True)
    assert "Traceback" not in caplog.text
    monkeypatch.undo()
    registry.of(app).drop_pools()
    assert _name(client, links["edit"]) == "Friday at Koldo's"


@pytest.mark.sqlite_only     # SQLite's own errors (tests/test_postgres.py: PostgreSQL's)
def test_a_full_database_answers_503_and_keeps_what_it_had(app, client, monkeypatch):
    links = new_session(client)
    registry.of(app).drop_pools()
    # a size-limited file: not one page more than it has now
    real = dbmod.connect

    def connect(path):
        db = real(path)
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {pages}")
        return db

    monkeypatch.setattr(dbmod, "connect", connect)
    codes = []
    for i in range(400):                                  # until the file would grow
        resp = _rename(client, links["edit"], f"Night {i} " + "x" * 60, headers=ES)
        codes.append(resp.status_code)
        if resp.status_code == 503:
            break
    assert codes[-1] == 503, codes
    assert "su disco está lleno" in resp.get_data(as_text=True)
    monkeypatch.undo()
    registry.of(app).drop_pools()
    assert codes.count(303) == len(codes) - 1
    assert _name(client, links["edit"]).startswith(f"Night {len(codes) - 2} ")    # the last acknowledged one


def _mount(*args) -> bool:
    return subprocess.run(["mount", *args], capture_output=True).returncode == 0


@pytest.fixture
def small_disk(tmp_path):
    """A 1 MB tmpfs (root can mount one here; elsewhere the size-limited file above stands in)."""
    where = tmp_path / "disk"
    where.mkdir()
    if os.geteuid() != 0 or not _mount("-t", "tmpfs", "-o", "size=1m", "tmpfs", str(where)):
        pytest.skip("cannot mount a tmpfs here (not root, or no permission)")
    yield where
    subprocess.run(["umount", "-l", str(where)], capture_output=True)


def test_a_full_disk_answers_503_and_keeps_every_acknowledged_write(small_disk):
    app = create_app({"TESTING": True, "DATABASE": str(small_disk / "night.db"),
                      "BASE_URL": "http://table.example:8000"})
    client = app.test_client()
    links = new_session(client)
    filler = small_disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)      # the disk fills up (a log, a backup...)
    try:
        while os.write(fd, b"\0" * 4096):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)
    codes = []
    for i in range(60):
        page = client.get(links["edit"]).get_data(as_text=True)
        resp = client.post(links["edit"] + "/players", data={**form_fields(page, links["edit"] + "/players"),
                                                             "name": f"P{i} " + "y" * 30})
        codes.append(resp.status_code)
        if resp.status_code == 503:
            break
    assert codes[-1] == 503 and "its disk is full" in resp.get_data(as_text=True), codes
    os.remove(filler)
    registry.of(app).drop_pools()
    players = client.get(links["edit"] + "/session.json").get_json()["players"]
    assert len(players) == 4 + codes.count(303)


# ---------------------------------------------------------------------------------------------- the command line

def _one_line(result) -> str:
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 1, result.output
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    return lines[0]


def _session_file(tmp_path) -> str:
    doc = {"format": "companion-session/1", "name": "Night", "players": ["Ane", "Bea"], "games": []}
    path = tmp_path / "night.json"
    path.write_text(json.dumps(doc))
    return str(path)


@pytest.mark.parametrize("command", ["import", "export", "check", "serve"])
def test_a_missing_folder_is_one_line(tmp_path, command):
    db = str(tmp_path / "nowhere" / "companion.db")
    args = {"import": ["import", "--db", db, _session_file(tmp_path)], "export": ["export", "--db", db, "1"],
            "check": ["check", "--db", db], "serve": ["serve", "--db", db, "--port", "0"]}[command]
    line = _one_line(CliRunner().invoke(main, args))
    assert "does not exist" in line or "no database at" in line


@pytest.mark.parametrize("command", ["import", "serve"])
def test_a_read_only_database_is_one_line_and_serve_refuses_to_start(readonly_later, tmp_path, command):
    create_app({"DATABASE": str(readonly_later)})
    for p in tmp_path.glob("night.db*"):
        os.chmod(p, 0o444)
    args = {"import": ["import", "--db", str(readonly_later), _session_file(tmp_path)],
            "serve": ["serve", "--db", str(readonly_later), "--host", "127.0.0.1", "--port", "0"]}[command]
    assert "is read-only" in _one_line(CliRunner().invoke(main, args))


def test_serve_refuses_a_read_only_database_through_the_real_command(readonly_later, tmp_path):
    create_app({"DATABASE": str(readonly_later)})
    os.chmod(readonly_later, 0o444)
    proc = subprocess.run([sys.executable, "-m", "companion", "serve", "--db", str(readonly_later), "--host",
                           "127.0.0.1", "--port", "0"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.strip().count("\n") == 0 and "is read-only" in proc.stderr


def test_a_locked_database_is_one_line(tmp_path, monkeypatch):
    path = str(tmp_path / "locked.db")
    create_app({"DATABASE": path})
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")                    # another program holds the write lock
    monkeypatch.setattr(dbmod, "BUSY_TIMEOUT", 0.2)
    try:
        line = _one_line(CliRunner().invoke(main, ["import", "--db", path, _session_file(tmp_path)]))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert "is locked by another program" in line


@pytest.mark.parametrize("command", ["import", "export", "check", "serve"])
def test_a_damaged_database_is_one_line(tmp_path, command):
    path = tmp_path / "broken.db"
    path.write_bytes(b"this is not a database" * 200)
    args = {"import": ["import", "--db", str(path), _session_file(tmp_path)], "export": ["export", "--db", str(path), "1"],
            "check": ["check", "--db", str(path)], "serve": ["serve", "--db", str(path), "--port", "0"]}[command]
    assert "not a readable Companion database" in _one_line(CliRunner().invoke(main, args))


# ---------------------------------------------------------------------------------------------- companion check

def _bump_first_number(value):
    """The state with its first whole number off by one (what a bad write or a hand edit would leave)."""
    if isinstance(value, dict):
        for k, v in value.items():
            changed = _bump_first_number(v)
            if changed is not None:
                return {**value, k: changed}
    elif isinstance(value, list):
        for i, v in enumerate(value):
            changed = _bump_first_number(v)
            if changed is not None:
                return value[:i] + [changed] + value[i + 1:]
    elif isinstance(value, int) and not isinstance(value, bool):
        return value + 1
    return None


def test_check_replays_every_game_and_names_the_wrong_session(tmp_path):
    path = str(tmp_path / "club.db")
    runner = CliRunner()
    game = {"kind": "desmoche", "rules": {"variant": "desmoche", "stake": 10, "bonuses": True, "color_wins": False},
            "seats": ["Ane", "Bea", "Carlos"], "unit_value": 10,
            "hands": [{"winner": w} for w in ("Ane", None, "Bea", "Carlos", "Ane", None, "Bea")]}
    for i, games in enumerate(([game], [game, {**game, "hands": game["hands"][:3]}])):
        doc = {"format": "companion-session/1", "name": f"Night {i + 1}", "players": ["Ane", "Bea", "Carlos"],
               "games": games}
        (tmp_path / f"{i}.json").write_text(json.dumps(doc))
        assert runner.invoke(main, ["import", "--db", path, str(tmp_path / f"{i}.json")]).exit_code == 0
    ok = runner.invoke(main, ["check", "--db", path])
    assert ok.exit_code == 0 and ok.output.startswith("ok: 2 sessions"), ok.output
    conn = sqlite3.connect(path)
    sid, gi, state = conn.execute("SELECT session_id, gi, state FROM games WHERE session_id = 2 AND gi = 1").fetchone()
    conn.execute("UPDATE games SET state = ? WHERE session_id = ? AND gi = ?",
                 [json.dumps(_bump_first_number(json.loads(state))), sid, gi])
    conn.commit()
    name = conn.execute("SELECT name FROM sessions WHERE id = 2").fetchone()[0]
    conn.close()
    bad = runner.invoke(main, ["check", "--db", path])
    assert bad.exit_code == 1
    assert f"session 2 ({name}): game {gi + 1}" in bad.output and "differs from the replay" in bad.output
    assert "session 1 " not in bad.output


@pytest.mark.sqlite_only     # SQLite's own errors (tests/test_postgres.py: PostgreSQL's)
def test_a_database_locked_by_another_program_answers_503_busy(app, client, monkeypatch):
    links = new_session(client)
    registry.of(app).drop_pools()
    monkeypatch.setattr(dbmod, "BUSY_TIMEOUT", 0.2)
    holder = sqlite3.connect(app.config["DATABASE"], isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")                    # a backup tool, a second server...
    try:
        resp = _rename(client, links["edit"], "Different name", headers=ES)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert resp.status_code == 503 and resp.headers["Retry-After"] == "30"
    assert "está ocupada" in resp.get_data(as_text=True)
    assert _name(client, links["edit"]) == "Friday at Koldo's"


def _fill(folder) -> None:
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        while os.write(fd, b"\0" * 4096):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)


def test_a_full_disk_is_one_line_for_the_command_line(small_disk, tmp_path):
    db = str(small_disk / "night.db")
    create_app({"DATABASE": db})
    _fill(small_disk)
    for args in (["import", "--db", db, _session_file(tmp_path)], ["serve", "--db", db, "--port", "0"]):
        assert "is full" in _one_line(CliRunner().invoke(main, args)), args


# ---------------------------------------------------------------------------------------------------
# PostgreSQL lost mid-stream (issue 30): backends terminated or killed, the cluster restarted, while
# scorers tap through a real `companion serve`. Each scorer behaves as the phone's outbox: no answer or
# any 5xx, and the same form (the same idempotency key) is sent again. Every tap lands exactly once.

MOVES = ("fold", "bet:A:2", "bet:B:2", "declare", "start", "rest", "pass")   # as bench/capacity.py
SINCE = r'hx-get="[^"?]+\?since=(\d+)"'


class _Phone:
    def __init__(self, port: int):
        self.port, self.cookie, self.conn = port, "", None
        self.statuses: list[int] = []
        self.lost = 0

    def once(self, method, path, form=None):
        import http.client
        import urllib.parse

        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Cookie": self.cookie} if self.cookie else {}
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            self.conn.request(method, path, body=body, headers=headers)
            resp = self.conn.getresponse()
            data = resp.read().decode()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = None
            self.lost += 1
            return None, None, None
        if resp.getheader("Set-Cookie"):
            self.cookie = resp.getheader("Set-Cookie").split(";", 1)[0]
        self.statuses.append(resp.status)
        if resp.status >= 500:
            assert resp.status == 503 and resp.getheader("Retry-After"), (resp.status, data[:300])
        return resp.status, resp, data

    def until_answered(self, method, path, form=None):
        """As the outbox: sent again, unchanged, until an answer that is not a 5xx (the pause between
        tries is the phone's, not a wait for anything)."""
        import time

        for _ in range(2000):
            status, resp, data = self.once(method, path, form)
            if status is not None and status < 500:
                return status, resp, data
            time.sleep(0.05)
        raise AssertionError(f"no answer to {method} {path}")


def _a_game(port: int, n: int):
    import re
    import urllib.parse

    p = _Phone(port)
    _, _, home = p.until_answered("GET", "/")
    csrf = re.search(r'name="csrf" value="([^"]+)"', home).group(1)
    status, resp, _ = p.until_answered("POST", "/new", {"csrf": csrf, "name": f"Table {n}", "p0": "Ane", "p1": "Bea",
                                                        "p2": "Carlos", "p3": "Dani", "currency": "EUR", "k": ""})
    assert status == 303
    edit = urllib.parse.urlsplit(resp.getheader("Location")).path
    _, _, page = p.until_answered("GET", f"{edit}/mus/new")
    status, resp, _ = p.until_answered("POST", f"{edit}/mus/new", {**_hidden(page, f"{edit}/mus/new"), "preset": "pagat",
                                                                   "seat0": "Ane", "seat1": "Bea", "seat2": "Carlos",
                                                                   "seat3": "Dani"})
    assert status == 303
    return p, urllib.parse.urlsplit(resp.getheader("Location")).path


def _hidden(html, action):
    import re

    for act, body in re.findall(r'<form[^>]*action="([^"]*)"[^>]*>(.*?)</form>', html, re.S):
        if act == action:
            return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', body))
    raise AssertionError(action)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="gunicorn")
def test_postgresql_lost_mid_stream_loses_nothing_records_nothing_twice_and_never_answers_500(tmp_path):
    import re
    import socket
    import threading
    import time

    from pgcluster import Cluster, binaries

    if binaries() is None or os.environ.get("COMPANION_TEST_PG"):
        pytest.skip("needs a throwaway cluster of its own (it is restarted)")
    cluster = Cluster(durable=True)
    from servers import free_port

    port = free_port()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    log = open(tmp_path / "server.log", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--db", cluster.url, "--host", "127.0.0.1",
                             "--port", str(port), "--workers", "2"], cwd=root, stdout=log, stderr=subprocess.STDOUT)
    try:
        from servers import wait_for

        wait_for(lambda: socket.create_connection(("127.0.0.1", port), timeout=0.5).close() or True, "the server", proc)
        tables = [_a_game(port, n) for n in range(4)]
        acked = [0] * len(tables)
        first = []
        for phone, game in tables:
            _, _, page = phone.until_answered("GET", game)
            first.append(int(re.search(SINCE, page).group(1)))
        faults = [lambda: cluster.terminate_backends(),
                  lambda: os.kill(cluster.backends()[0], 9),      # a backend killed: the cluster recovers
                  lambda: cluster.restart("fast"),
                  lambda: cluster.terminate_backends(),
                  lambda: cluster.restart("immediate")]
        TAPS = 30
        done = threading.Event()

        def scorer(i):
            phone, game = tables[i]
            act = f"{game}/act"
            _, _, page = phone.until_answered("GET", game)
            for _ in range(TAPS):
                move = next(m for m in MOVES if f'name="move" value="{m}"' in page)
                status, _, body = phone.until_answered("POST", act, {**_hidden(page, act), "move": move})
                assert status == 303, (status, move, acked[i], re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))[:1500])
                acked[i] += 1
                _, _, page = phone.until_answered("GET", game)

        errors = []

        def run(i):
            try:
                scorer(i)
            except BaseException as err:      # noqa: BLE001 - reported by the test below
                errors.append(err)

        threads = [threading.Thread(target=run, args=(i,)) for i in range(len(tables))]
        for t in threads:
            t.start()
        for k, fault in enumerate(faults):    # each fault once the taps have gone on after the one before
            wait_for(lambda: sum(acked) >= (k + 1) * TAPS * len(tables) // (len(faults) + 1) or errors,
                     "the taps", proc, timeout=300)
            fault()
        for t in threads:
            t.join(600)
        done.set()
        assert not errors, errors
        last = []
        for phone, game in tables:
            _, _, page = phone.until_answered("GET", game)
            last.append(int(re.search(SINCE, page).group(1)))
        # every acknowledged tap is one version, none twice, none lost
        assert [b - a for a, b in zip(first, last)] == acked == [TAPS] * len(tables)
        statuses = [s for phone, _ in tables for s in phone.statuses]
        assert 500 not in statuses
        log.flush()
        text = (tmp_path / "server.log").read_text(errors="replace")
        assert "Traceback" not in text, text[-3000:]
        print(f"answers: {len(statuses)}, 503: {statuses.count(503)}, no answer: {sum(p.lost for p, _ in tables)}")
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
        cluster.stop()
