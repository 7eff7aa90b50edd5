"""Capacity: how many real tables `companion serve`, with its defaults, holds on this machine.

A table is 7 phones: 6 watching a Mus match through its Watch link, each polling the page's own
``hx-get`` (``?since=<version>``, ``HX-Request: true``) every 2 s on its own keep-alive connection, as
htmx does; and 1 scorer tapping a bid through the real form every 10 s (the POST, its 303, and the page
it leads to, whose form gives the next tap's fields). Levels of tables run one after another, each
after a warm-up in which every phone opens its page once (a first visit, not measured), for at least
60 s measured.

A level holds when every poll offered was served (polls achieved = offered), poll p99 < 250 ms, tap
(write) p99 < 500 ms, and nothing failed. The bench prints each level, the largest level that holds,
the server's CPU (master and workers, from /proc), the generator's own CPU and the machine's (so a
figure taken while other work shares the machine says so), and how long a write took to reach the
watchers, split by whether a watcher's connection was served by another worker process than the
scorer's (mapped through /proc: which process holds which socket).

The generator is one asyncio process speaking raw HTTP/1.1 over keep-alive sockets (no client
library in the way); it only talks to 127.0.0.1, and is bounded (levels, tables per level, seconds).

    python bench/capacity.py [--levels 100,200,300,400] [--seconds 60] [--warmup 15] [--keep-going]
                             [--server-args "--workers 2"] [--json out.json]
"""
from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import random
import re
import resource
import shlex
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
HOST = "127.0.0.1"              # loopback only
POLL = 2.0
TAP = 10.0
WATCHERS = 6
MAX_TABLES = 2000
POLL_P99 = 0.250
WRITE_P99 = 0.500
SEEN_P99 = 2.2
TIMEOUT = 30                    # seconds a phone waits for an answer (then it counts an error)
# a bid, and its answer, in every lance: the match goes on without a count that needs the cards
MOVES = ("fold", "bet:A:2", "bet:B:2", "declare", "start", "rest", "pass")
CLK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


# ---------------------------------------------------------------------------------------------------
# a phone: one keep-alive connection, a cookie jar

class HTTPError(Exception):
    pass


class Phone:
    def __init__(self, port: int):
        self.port = port
        self.reader = self.writer = None
        self.cookies: dict[str, str] = {}
        self.local_port = None

    async def connect(self):
        self.reader, self.writer = await asyncio.open_connection(HOST, self.port, limit=1 << 20)
        self.local_port = self.writer.get_extra_info("sockname")[1]

    def close(self):
        if self.writer is not None:
            self.writer.close()
            self.reader = self.writer = None

    async def request(self, method: str, path: str, headers: dict | None = None, form: dict | None = None):
        try:
            return await asyncio.wait_for(self._request(method, path, headers, form), TIMEOUT)
        except asyncio.TimeoutError:
            self.close()
            raise HTTPError("no answer in %d s" % TIMEOUT) from None

    async def _request(self, method: str, path: str, headers: dict | None, form: dict | None):
        if self.writer is None:
            await self.connect()
        body = urllib.parse.urlencode(form).encode() if form is not None else b""
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}", "Accept-Encoding: gzip, deflate",
                 "Accept-Language: es-ES,es;q=0.9,en;q=0.8"]
        for k, v in (headers or {}).items():
            lines.append(f"{k}: {v}")
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if form is not None:
            lines.append("Content-Type: application/x-www-form-urlencoded")
            lines.append(f"Content-Length: {len(body)}")
        try:
            self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
            head = await self.reader.readuntil(b"\r\n\r\n")
            status_line, *header_lines = head.decode("latin-1").split("\r\n")
            status = int(status_line.split(" ", 2)[1])
            got: dict[str, str] = {}
            for line in header_lines:
                if not line:
                    continue
                name, _, value = line.partition(":")
                name, value = name.strip().lower(), value.strip()
                if name == "set-cookie":
                    k, _, v = value.split(";", 1)[0].partition("=")
                    self.cookies[k] = v
                got[name] = value
            if "content-length" in got:
                data = await self.reader.readexactly(int(got["content-length"]))
            elif got.get("transfer-encoding") == "chunked":
                chunks = []
                while True:
                    size = int((await self.reader.readuntil(b"\r\n")).strip(), 16)
                    chunks.append(await self.reader.readexactly(size + 2))
                    if size == 0:
                        break
                data = b"".join(c[:-2] for c in chunks)
            else:
                data = b""
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError, IndexError) as err:
            self.close()
            raise HTTPError(repr(err)) from err
        if got.get("connection", "").lower() == "close":
            self.close()
        if got.get("content-encoding") == "gzip":
            data = gzip.decompress(data)
        return status, got, data


def hidden_fields(html: str, action: str) -> dict:
    for act, body in re.findall(r'<form[^>]*action="([^"]*)"[^>]*>(.*?)</form>', html, re.S):
        if act == action:
            return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', body))
    raise KeyError(action)


def form_values(html: str) -> dict:
    """The values a browser would send from a form as the page fills it (inputs, checked radios, selects)."""
    out = {}
    for tag in re.findall(r"<input[^>]*>", html):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if not name:
            continue
        if 'type="radio"' in tag or 'type="checkbox"' in tag:
            if "checked" in tag:
                out[name.group(1)] = value.group(1) if value else "on"
        elif value:
            out.setdefault(name.group(1), value.group(1))
    for name, body in re.findall(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', html, re.S):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', body) or re.search(r'<option value="([^"]*)"', body)
        if chosen:
            out[name] = chosen.group(1)
    return out


VERSION = re.compile(r'hx-get="([^"?]+)\?since=(\d+)"')


# ---------------------------------------------------------------------------------------------------
# tables, made through the app's own forms

async def make_table(port: int, n: int) -> dict:
    p = Phone(port)
    try:
        _, _, home = await p.request("GET", "/")
        csrf = re.search(r'name="csrf" value="([^"]+)"', home.decode()).group(1)
        status, h, _ = await p.request("POST", "/new", form={"csrf": csrf, "name": f"Table {n}", "p0": "Ane",
                                                             "p1": "Bea", "p2": "Carlos", "p3": "Dani",
                                                             "currency": "EUR", "k": ""})
        assert status == 303, status
        edit = urllib.parse.urlsplit(h["location"]).path
        _, _, page = await p.request("GET", f"{edit}/mus/new")
        html = page.decode()
        form = {**form_values(html), **hidden_fields(html, f"{edit}/mus/new"),
                "seat0": "Ane", "seat1": "Bea", "seat2": "Carlos", "seat3": "Dani"}
        status, h, _ = await p.request("POST", f"{edit}/mus/new", form=form)
        assert status == 303, status
        game = urllib.parse.urlsplit(h["location"]).path
        _, _, session = await p.request("GET", edit)
        view = re.search(r'value="http://[^"]+(/s/[^"]+)" id="watch-link"', session.decode()).group(1)
        return {"n": n, "game": game, "watch": game.replace(edit, view)}
    finally:
        p.close()


# ---------------------------------------------------------------------------------------------------
# one level

class Level:
    def __init__(self, tables: list[dict], port: int, warmup: float, seconds: float):
        self.tables, self.port = tables, port
        self.warmup, self.seconds = warmup, seconds
        self.t0 = time.monotonic() + warmup          # the measured window
        self.t1 = self.t0 + seconds
        self.polls_offered = self.polls_done = 0
        self.poll_times: list[float] = []
        self.taps_offered = self.taps_done = 0
        self.tap_times: list[float] = []
        self.post_times: list[float] = []
        self.errors: dict[str, int] = {}
        self.acks: list[tuple[int, int, float, int]] = []     # (table, version, time acknowledged, scorer port)
        self.seen: dict[tuple[int, int], list[tuple[int, float]]] = {}   # (table, watcher) -> [(version, when)]
        self.watcher_ports: dict[tuple[int, int], int] = {}
        self.phones: list[Phone] = []

    def error(self, what: str):
        self.errors[what] = self.errors.get(what, 0) + 1

    def measuring(self, t: float) -> bool:
        return self.t0 <= t < self.t1

    async def watcher(self, table: dict, w: int):
        phone = Phone(self.port)
        self.phones.append(phone)
        await asyncio.sleep(random.uniform(0, self.warmup * 0.6))
        try:
            status, _, body = await phone.request("GET", table["watch"])
        except HTTPError:
            self.error("first visit: connection")
            return
        m = VERSION.search(body.decode())
        if status != 200 or not m:
            self.error(f"first visit: {status}")
            return
        path, since = m.group(1), int(m.group(2))
        self.watcher_ports[(table["n"], w)] = phone.local_port
        seen = self.seen.setdefault((table["n"], w), [])
        tick = self.t0 - POLL + random.uniform(0, POLL)
        headers = {"HX-Request": "true", "HX-Current-URL": f"http://{HOST}:{self.port}{table['watch']}"}
        while True:
            tick += POLL
            now = time.monotonic()
            if tick >= self.t1:
                break
            if tick > now:
                await asyncio.sleep(tick - now)
            elif self.measuring(tick):         # still busy with the last poll when this one was due: missed
                self.polls_offered += 1
                continue
            counted = self.measuring(tick)
            if counted:
                self.polls_offered += 1
            start = time.monotonic()
            try:
                status, _, body = await phone.request("GET", f"{path}?since={since}", headers)
            except HTTPError:
                if counted:
                    self.error("poll: connection")
                continue
            done = time.monotonic()
            if status != 200:
                if counted:
                    self.error(f"poll: {status}")
                continue
            if counted:
                self.polls_done += 1
                self.poll_times.append(done - start)
            if body:
                m = VERSION.search(body.decode())
                if not m:
                    self.error("poll: no version in the region")
                    continue
                since = int(m.group(2))
                seen.append((since, done))

    async def scorer(self, table: dict):
        phone = Phone(self.port)
        self.phones.append(phone)
        await asyncio.sleep(random.uniform(0, self.warmup * 0.6))
        try:
            status, _, page = await phone.request("GET", table["game"])
        except HTTPError:
            self.error("scorer page: connection")
            return
        html = page.decode()
        tap = TAP
        tick = self.t0 - tap + random.uniform(0, tap)
        act = f"{table['game']}/act"
        while True:
            tick += tap
            now = time.monotonic()
            if tick >= self.t1:
                break
            if tick > now:
                await asyncio.sleep(tick - now)
            counted = self.measuring(tick)
            move = next((m for m in MOVES if f'name="move" value="{m}"' in html), None)
            if move is None:
                self.error("scorer: no move offered")
                return
            try:
                form = {**hidden_fields(html, act), "move": move}
            except KeyError:
                self.error("scorer: no form")
                return
            if counted:
                self.taps_offered += 1
            start = time.monotonic()
            try:
                status, h, _ = await phone.request("POST", act, {"HX-Request": "true", "HX-Boosted": "true"}, form)
                posted = time.monotonic()
                if status != 303:
                    if counted:
                        self.error(f"tap: {status}")
                    _, _, page = await phone.request("GET", table["game"])
                    html = page.decode()
                    continue
                status, _, page = await phone.request("GET", urllib.parse.urlsplit(h["location"]).path + "?" +
                                                      urllib.parse.urlsplit(h["location"]).query,
                                                      {"HX-Request": "true", "HX-Boosted": "true"})
            except HTTPError:
                if counted:
                    self.error("tap: connection")
                continue
            done = time.monotonic()
            html = page.decode()
            m = VERSION.search(html)
            if status != 200 or not m:
                if counted:
                    self.error(f"tap page: {status}")
                continue
            self.acks.append((table["n"], int(m.group(2)), posted, phone.local_port))
            if counted:
                self.taps_done += 1
                self.tap_times.append(done - start)
                self.post_times.append(posted - start)

    async def run(self):
        tasks = [asyncio.create_task(self.watcher(t, w)) for t in self.tables for w in range(WATCHERS)]
        tasks += [asyncio.create_task(self.scorer(t)) for t in self.tables]
        await asyncio.sleep(self.warmup)
        self.workers_of = server_sockets(self.port)             # client port -> worker pid, after warm-up
        _done, late = await asyncio.wait(tasks, timeout=max(0.0, self.t1 - time.monotonic()) + TIMEOUT + 5)
        for task in late:                   # bounded in time whatever happens
            task.cancel()
            self.error("phone still waiting at the end")
        for p in self.phones:
            p.close()

    def seen_after_writes(self) -> tuple[list[float], list[float]]:
        """How long each acknowledged write took to reach each watcher of its table: (watchers served by
        the scorer's worker, watchers served by another)."""
        same, other = [], []
        for n, version, acked, scorer_port in self.acks:
            if not self.measuring(acked) or acked > self.t1 - 2 * POLL:
                continue
            for w in range(WATCHERS):
                first = next((when for v, when in self.seen.get((n, w), []) if v >= version), None)
                if first is None:
                    first = self.t1 + POLL       # never seen before the level ended: counts as late
                delay = max(0.0, first - acked)
                a = self.workers_of.get(scorer_port)
                b = self.workers_of.get(self.watcher_ports.get((n, w)))
                (same if a is not None and a == b else other).append(delay)
        return same, other


# ---------------------------------------------------------------------------------------------------
# CPU from /proc

def process_tree(root: int) -> list[int]:
    pids, parents = [root], {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as fh:
                    parents[int(d)] = int(fh.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                pass
    frontier = [root]
    while frontier:
        kids = [p for p, pp in parents.items() if pp in frontier]
        pids += kids
        frontier = kids
    return pids


def cpu_seconds(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return total / CLK


def machine_busy() -> tuple[float, float]:
    with open("/proc/stat") as fh:
        v = [int(x) for x in fh.readline().split()[1:]]
    idle = v[3] + v[4]
    return sum(v) / CLK, (sum(v) - idle) / CLK


def own_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def server_sockets(port: int) -> dict[int, int]:
    """{client port: pid of the server process holding that connection} for loopback connections to ``port``."""
    inodes: dict[str, int] = {}
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(name) as fh:
                next(fh)
                for line in fh:
                    f = line.split()
                    local, remote, inode = f[1], f[2], f[9]
                    if int(local.rsplit(":", 1)[1], 16) == port and remote.rsplit(":", 1)[1] != "0000":
                        inodes[inode] = int(remote.rsplit(":", 1)[1], 16)
        except OSError:
            pass
    out = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target.startswith("socket:["):
                    client = inodes.get(target[8:-1])
                    if client is not None:
                        out[client] = int(pid)
        except OSError:
            continue
    return out


# ---------------------------------------------------------------------------------------------------

def start_server(db: str, port: int, extra: list[str], logs: str | None = None,
                 public: int | None = None) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "companion", "serve", "--db", db, "--host", HOST, "--port", str(port),
           "--base-url", f"http://{HOST}:{public or port}", *extra]
    # the server's log goes to a file (a pipe nobody reads would stall the server once full)
    log = open(os.path.join(logs or os.path.dirname(db), f"server-{port}.log"), "wb")
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    proc.log_path = log.name
    for _ in range(600):
        try:
            socket.create_connection((HOST, port), timeout=0.2).close()
            return proc
        except OSError:
            if proc.poll() is not None:
                with open(log.name, "rb") as fh:
                    raise SystemExit("the server did not start: " + fh.read().decode()[-2000:])
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("the server did not start")


async def make_tables(port: int, count: int, have: list[dict]):
    sem = asyncio.Semaphore(8)

    async def one(n):
        async with sem:
            return await make_table(port, n)

    have += await asyncio.gather(*(one(n) for n in range(len(have), count)))


async def run_level(port: int, tables: list[dict], warmup: float, seconds: float, server_pids: list[int]) -> dict:
    level = Level(tables, port, warmup, seconds)
    task = asyncio.create_task(level.run())
    await asyncio.sleep(max(0.0, level.t0 - time.monotonic()))
    pids = [p for root in server_pids for p in process_tree(root)]
    c0, m0, o0, w0 = cpu_seconds(pids), machine_busy(), own_cpu(), time.monotonic()
    await asyncio.sleep(max(0.0, level.t1 - time.monotonic()))
    c1, m1, o1, w1 = cpu_seconds(pids), machine_busy(), own_cpu(), time.monotonic()
    await task
    wall = w1 - w0
    cores = (m1[0] - m0[0]) / wall
    same, other = level.seen_after_writes()
    out = {
        "tables": len(tables), "phones": len(tables) * (WATCHERS + 1), "seconds": round(seconds),
        "polls_offered": level.polls_offered, "polls_done": level.polls_done,
        "poll_p50_ms": round(pct(level.poll_times, 50) * 1000, 1),
        "poll_p99_ms": round(pct(level.poll_times, 99) * 1000, 1),
        "taps_offered": level.taps_offered, "taps_done": level.taps_done,
        "tap_p99_ms": round(pct(level.tap_times, 99) * 1000, 1),
        "post_p99_ms": round(pct(level.post_times, 99) * 1000, 1),
        "errors": level.errors,
        "seen_p99_s": round(pct(other + same, 99), 2),
        "seen_other_worker_p99_s": round(pct(other, 99), 2), "seen_other_worker_n": len(other),
        "seen_same_worker_p99_s": round(pct(same, 99), 2), "seen_same_worker_n": len(same),
        "workers_seen": len(set(level.workers_of.values())),
        "server_cpu_cores": round((c1 - c0) / wall, 2),
        "generator_cpu_cores": round((o1 - o0) / wall, 2),
        "machine_busy_cores": round((m1[1] - m0[1]) / wall, 2), "machine_cores": round(cores, 1),
    }
    out["others_cpu_cores"] = round(max(0.0, out["machine_busy_cores"] - out["server_cpu_cores"]
                                        - out["generator_cpu_cores"]), 2)
    seen_p99 = pct(other + same, 99)
    out["holds"] = (level.polls_done == level.polls_offered > 0 and pct(level.poll_times, 99) < POLL_P99
                    and level.taps_done == level.taps_offered > 0 and pct(level.tap_times, 99) < WRITE_P99
                    and not level.errors and seen_p99 <= SEEN_P99)
    return out


COLUMNS = [("tables", "tables"), ("phones", "phones"), ("polls offered", "polls_offered"),
           ("achieved", "polls_done"), ("poll p50 ms", "poll_p50_ms"), ("poll p99 ms", "poll_p99_ms"),
           ("taps", "taps_done"), ("tap p99 ms", "tap_p99_ms"), ("POST p99 ms", "post_p99_ms"),
           ("errors", "errors"), ("write seen p99 s", "seen_p99_s"),
           ("seen, other worker p99 s", "seen_other_worker_p99_s"),
           ("server CPU", "server_cpu_cores"), ("generator CPU", "generator_cpu_cores"),
           ("others' CPU", "others_cpu_cores"), ("holds", "holds")]


def row(r: dict) -> str:
    cells = []
    for _, key in COLUMNS:
        v = r[key]
        if key == "errors":
            v = sum(v.values()) if v else 0
        if key == "holds":
            v = "yes" if v else "no"
        cells.append(str(v))
    return "| " + " | ".join(cells) + " |"


NGINX_CONF = """
daemon off;
master_process off;
worker_rlimit_nofile {files};
pid {tmp}/nginx.pid;
error_log {tmp}/nginx-error.log warn;
events {{ worker_connections {conns}; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    upstream servers {{ {servers} keepalive 128; }}
    server {{
        listen {host}:{port} backlog=4096;
        keepalive_requests 100000;
        location / {{
            proxy_pass http://servers;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
        }}
    }}
}}
"""


class City:
    """``--postgres N``: a throwaway PostgreSQL cluster (Debian's, as the tests start it), N app servers
    on it, and Debian's nginx in front, alternating between them: the phones talk to nginx only."""

    def __init__(self, servers: int, extra: list[str], tables: int):
        sys.path.insert(0, os.path.join(ROOT, "tests"))
        from pgcluster import Cluster

        self.tmp = tempfile.mkdtemp(prefix="capacity-city-")
        self.cluster = Cluster()
        self.port = free_port()
        ports = [free_port() for _ in range(servers)]
        self.servers = [start_server(self.cluster.url, p, ["--behind-proxy", *extra], logs=self.tmp,
                                     public=self.port) for p in ports]
        for d in ("body", "proxy"):
            os.mkdir(os.path.join(self.tmp, d))
        conf = os.path.join(self.tmp, "nginx.conf")
        with open(conf, "w") as fh:
            fh.write(NGINX_CONF.format(tmp=self.tmp, host=HOST, port=self.port, conns=tables * 10 + 1024,
                                       files=tables * 20 + 2048,
                                       servers=" ".join(f"server {HOST}:{p};" for p in ports)))
        nginx = "/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else "nginx"
        self.proxy = subprocess.Popen([nginx, "-p", self.tmp, "-c", conf, "-e", os.path.join(self.tmp, "nginx-error.log")])
        for _ in range(600):
            try:
                socket.create_connection((HOST, self.port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        self.log_path = self.servers[0].log_path

    def pids(self) -> list[int]:
        """Every process serving the phones: the app servers, nginx, PostgreSQL (its postmaster's tree)."""
        with open(os.path.join(self.cluster.folder, "data", "postmaster.pid")) as fh:
            postmaster = int(fh.readline())
        return [s.pid for s in self.servers] + [self.proxy.pid, postmaster]

    def stop(self) -> None:
        self.proxy.terminate()
        for s in self.servers:
            s.terminate()
        for proc in (self.proxy, *self.servers):
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
        self.cluster.stop()


async def run_levels(args, port: int, server_pids: list[int], results: list[dict]) -> None:
    """Each level in turn (tables made as they are needed), a row printed per level; stops at the first
    that does not hold unless ``--keep-going``."""
    tables: list[dict] = []
    print("| " + " | ".join(c for c, _ in COLUMNS) + " |", flush=True)
    print("|" + "---|" * len(COLUMNS), flush=True)
    for count in args.levels:
        await make_tables(port, count, tables)
        r = await run_level(port, tables[:count], args.warmup, args.seconds, server_pids)
        results.append(r)
        print(row(r), flush=True)
        if not r["holds"] and not args.keep_going:
            break


async def main_async(args) -> list[dict]:
    if args.postgres:
        return await _city(args)
    port = free_port()
    tmp = tempfile.mkdtemp(prefix="capacity-")
    server = start_server(os.path.join(tmp, "capacity.db"), port, shlex.split(args.server_args))
    results: list[dict] = []
    try:
        await run_levels(args, port, [server.pid], results)
    finally:
        server.terminate()
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
        with open(server.log_path, "rb") as fh:
            lines = [ln for ln in fh.read().decode(errors="replace").splitlines()
                     if ln.strip() and not ln.startswith(("Companion on", "Open on", "Warning: listening",
                                                          "Serving with")) and not set(ln) <= set("█▀▄ ")]
        if lines:
            print(f"server log ({len(lines)} lines), the last ones:")
            for ln in lines[-15:]:
                print("  " + ln)
    return results


async def _city(args) -> list[dict]:
    city = City(args.postgres, shlex.split(args.server_args), args.levels[-1])
    results: list[dict] = []
    try:
        await run_levels(args, city.port, city.pids(), results)
    finally:
        city.stop()
        for server in city.servers:
            with open(server.log_path, "rb") as fh:
                lines = [ln for ln in fh.read().decode(errors="replace").splitlines() if "Traceback" in ln
                         or "Error" in ln]
            if lines:
                print(f"server log {server.log_path}: {len(lines)} error lines, the last ones:")
                for ln in lines[-10:]:
                    print("  " + ln)
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--levels", default="100,200,300,400", help="tables per level, comma separated")
    ap.add_argument("--seconds", type=float, default=60, help="measured seconds per level (>= 60 for a figure)")
    ap.add_argument("--warmup", type=float, default=15)
    ap.add_argument("--keep-going", action="store_true", help="run the levels above one that fails too")
    ap.add_argument("--server-args", default="", help="extra options for `companion serve` (default: none)")
    ap.add_argument("--json", help="write the raw figures here")
    ap.add_argument("--tap", type=float, default=TAP, metavar="SECONDS",
                    help=f"seconds between a scorer's taps (default {TAP:.0f}; shorter: the writers' locks under load)")
    ap.add_argument("--postgres", type=int, default=0, metavar="N",
                    help="N app servers on a throwaway PostgreSQL cluster behind Debian's nginx (default: "
                         "one `companion serve` on SQLite)")
    args = ap.parse_args()
    globals()["TAP"] = args.tap     # the scorers read it (one run, one pace)
    args.levels = sorted({int(x) for x in args.levels.split(",") if x.strip()})
    if not args.levels or args.levels[-1] > MAX_TABLES or args.levels[0] < 1:
        raise SystemExit(f"levels between 1 and {MAX_TABLES} tables")
    if args.seconds > 900:
        raise SystemExit("at most 900 s a level")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = args.levels[-1] * (WATCHERS + 1) + 200
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(need, soft)), hard))
    setup = (f"{args.postgres} x companion serve {args.server_args or '(defaults)'} on PostgreSQL behind nginx"
             if args.postgres else f"companion serve {args.server_args or '(defaults)'}")
    print(f"# {setup} on {HOST}; {os.cpu_count()} cores; "
          f"levels {args.levels}, {args.seconds:.0f} s measured each" +
          ("" if args.seconds >= 60 else "  (SMOKE RUN: levels under 60 s are no figure)"), flush=True)
    results = asyncio.run(main_async(args))
    held = [r["tables"] for r in results if r["holds"]]
    print()
    print(f"largest level that holds: {max(held) if held else 'none'} tables "
          f"(poll p99 < {POLL_P99 * 1000:.0f} ms, tap p99 < {WRITE_P99 * 1000:.0f} ms, every poll served, "
          f"no error, a write seen within {SEEN_P99} s p99)")
    for r in results:
        if r["errors"]:
            print(f"errors at {r['tables']} tables: {r['errors']}")
        print(f"{r['tables']} tables: write seen by a watcher on another worker p99 {r['seen_other_worker_p99_s']} s "
              f"(n={r['seen_other_worker_n']}), on the same worker {r['seen_same_worker_p99_s']} s "
              f"(n={r['seen_same_worker_n']}); server processes serving phones: {r['workers_seen']}; "
              f"machine busy {r['machine_busy_cores']} of {r['machine_cores']} cores; server CPU per table "
              f"{r['server_cpu_cores'] / r['tables'] * 1000:.1f} ms a second")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1)


if __name__ == "__main__":
    main()
