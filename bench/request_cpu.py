"""CPU per request on the paths bench/capacity.py's phones take, measured as CPU time (not latency), so a
figure taken on a shared machine still compares.

    python bench/request_cpu.py [--rounds 5] [--requests 300] [--quick]

1. In process, through the app's whole WSGI stack (the live poll's middleware, Flask, compression), one
   Mus table playing as capacity.py plays it (Spanish readers, gzip): the unchanged poll, a changed Watch
   poll served from the shared render, the render of a new version (the first watcher's poll after a tap),
   the scorer's POST and the GET its 303 leads to. Median of the rounds; and the app's CPU per table per
   second for capacity.py's mix (per table and second: 2.4 unchanged polls, 0.5 shared, 0.1 render,
   0.1 POST, 0.1 GET).
2. Through `companion serve` with its defaults on loopback: server CPU (every process, from /proc) per
   unchanged poll, sequential keep-alive requests over 50 connections, against the same gunicorn settings
   serving a bare 3-line WSGI app in the same run (interleaved rounds): what the server itself costs
   a request, whatever the app does.
"""
from __future__ import annotations

import argparse
import gzip
import http.client
import io
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

import capacity as C  # noqa: E402  (its form helpers, server start and /proc readers)

HEADERS = {"HTTP_HOST": "127.0.0.1", "HTTP_ACCEPT_ENCODING": "gzip, deflate",
           "HTTP_ACCEPT_LANGUAGE": "es-ES,es;q=0.9,en;q=0.8"}
HX = {"HX-Request": "true"}
TAP = {"HX-Request": "true", "HX-Boosted": "true"}
MIX = {"unchanged": 2.4, "shared": 0.5, "render": 0.1, "post": 0.1, "get": 0.1}

BARE = """
def app(environ, start_response):
    start_response("200 OK", [("Content-Length", "0")])
    return []
"""


class InProcessPhone:
    """One phone speaking WSGI to the app directly: a cookie jar, gzip accepted."""

    def __init__(self, app):
        self.app = app
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, headers: dict | None = None, form: dict | None = None):
        path, _, query = path.partition("?")
        body = urllib.parse.urlencode(form).encode() if form is not None else b""
        environ = {"REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": query, "SERVER_NAME": "127.0.0.1",
                   "SERVER_PORT": "80", "SERVER_PROTOCOL": "HTTP/1.1", "wsgi.url_scheme": "http",
                   "wsgi.input": io.BytesIO(body), "wsgi.errors": sys.stderr, "wsgi.multithread": True,
                   "wsgi.multiprocess": True, "wsgi.run_once": False, "REMOTE_ADDR": "127.0.0.1", **HEADERS}
        for k, v in (headers or {}).items():
            environ["HTTP_" + k.upper().replace("-", "_")] = v
        if self.cookies:
            environ["HTTP_COOKIE"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if form is not None:
            environ["CONTENT_TYPE"] = "application/x-www-form-urlencoded"
            environ["CONTENT_LENGTH"] = str(len(body))
        got = {}

        def start_response(status, headers, exc_info=None):
            got["status"], got["headers"] = int(status.split()[0]), headers

        result = self.app(environ, start_response)
        data = b"".join(result)
        if hasattr(result, "close"):
            result.close()
        out = {}
        for k, v in got["headers"]:
            if k.lower() == "set-cookie":
                name, _, value = v.split(";", 1)[0].partition("=")
                self.cookies[name] = value
            out[k.lower()] = v
        if out.get("content-encoding") == "gzip":
            data = gzip.decompress(data)
        return got["status"], out, data


def make_table(phone: InProcessPhone) -> dict:
    """A session and a Mus game through the real forms, as capacity.make_table makes one."""
    _, _, home = phone.request("GET", "/")
    csrf = re.search(r'name="csrf" value="([^"]+)"', home.decode()).group(1)
    status, h, _ = phone.request("POST", "/new", form={"csrf": csrf, "name": "Table", "p0": "Ane", "p1": "Bea",
                                                        "p2": "Carlos", "p3": "Dani", "currency": "EUR", "k": ""})
    assert status == 303, status
    edit = urllib.parse.urlsplit(h["location"]).path
    _, _, page = phone.request("GET", f"{edit}/mus/new")
    html = page.decode()
    form = {**C.form_values(html), **C.hidden_fields(html, f"{edit}/mus/new"),
            "seat0": "Ane", "seat1": "Bea", "seat2": "Carlos", "seat3": "Dani"}
    status, h, _ = phone.request("POST", f"{edit}/mus/new", form=form)
    assert status == 303, status
    game = urllib.parse.urlsplit(h["location"]).path
    _, _, session = phone.request("GET", edit)
    view = re.search(r'value="http://[^"]+(/s/[^"]+)" id="watch-link"', session.decode()).group(1)
    return {"game": game, "watch": game.replace(edit, view)}


def in_process(rounds: int, n: int) -> dict:
    from companion import create_app

    tmp = tempfile.mkdtemp(prefix="request-cpu-")
    app = create_app({"DATABASE": os.path.join(tmp, "bench.db"), "BASE_URL": "http://127.0.0.1"})
    scorer = InProcessPhone(app)
    table = make_table(scorer)
    act = f"{table['game']}/act"
    _, _, page = scorer.request("GET", table["game"])
    at = {"html": page.decode(), "location": None}

    def post():
        html = at["html"]
        move = next(m for m in C.MOVES if f'name="move" value="{m}"' in html)
        status, h, _ = scorer.request("POST", act, TAP, {**C.hidden_fields(html, act), "move": move})
        assert status == 303, status
        at["location"] = urllib.parse.urlsplit(h["location"])

    def get():
        loc = at["location"]
        status, _, page = scorer.request("GET", f"{loc.path}?{loc.query}", TAP)
        assert status == 200, status
        at["html"] = page.decode()
        at["since"] = C.VERSION.search(at["html"]).group(2)    # the newest version

    for _ in range(40):             # a match under way: 40 taps
        post()
        get()
    watcher = InProcessPhone(app)
    _, _, page = watcher.request("GET", table["watch"])
    path = C.VERSION.search(page.decode()).group(1)

    def unchanged():
        status, _, body = watcher.request("GET", f"{path}?since={at['since']}", HX)
        assert status == 200 and not body

    def changed():                  # an older version: the newest region, from the shared render
        status, _, body = watcher.request("GET", f"{path}?since=1", HX)
        assert status == 200 and body

    def cpu_of(fn, count: int) -> float:
        t = time.process_time()
        for _ in range(count):
            fn()
        return (time.process_time() - t) / count * 1000

    changed()
    runs: dict[str, list[float]] = {k: [] for k in MIX}
    for _ in range(rounds):
        runs["unchanged"].append(cpu_of(unchanged, n))
        runs["shared"].append(cpu_of(changed, n))
        posts, gets, renders = [], [], []
        for _ in range(max(10, n // 20)):
            t = time.process_time()
            post()
            posts.append(time.process_time() - t)
            t = time.process_time()
            get()
            gets.append(time.process_time() - t)
            t = time.process_time()
            changed()               # the first poll of the new version renders it
            renders.append(time.process_time() - t)
        runs["post"].append(statistics.median(posts) * 1000)
        runs["get"].append(statistics.median(gets) * 1000)
        runs["render"].append(statistics.median(renders) * 1000)
    out = {k: statistics.median(v) for k, v in runs.items()}
    out["per_table"] = sum(MIX[k] * out[k] for k in MIX)
    return out


def start_bare(port: int) -> subprocess.Popen:
    """The bare WSGI app on gunicorn with `companion serve`'s own settings (companion.ops.server)."""
    from companion.ops.server import default_workers, gunicorn_options

    folder = tempfile.mkdtemp(prefix="bare-")
    with open(os.path.join(folder, "bare_app.py"), "w") as fh:
        fh.write(BARE)
    opts = gunicorn_options("127.0.0.1", port, 8, default_workers())
    cmd = [sys.executable, "-m", "gunicorn", "--chdir", folder, "-b", opts["bind"][0], "-k", opts["worker_class"],
           "-w", str(opts["workers"]), "--threads", str(opts["threads"]),
           "--worker-connections", str(opts["worker_connections"]), "--keep-alive", str(opts["keepalive"]),
           "bare_app:app"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(400):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("the bare app did not start")


def server_cpu_per_request(port: int, pid: int, path: str, n: int) -> float:
    conns = [http.client.HTTPConnection("127.0.0.1", port, timeout=30) for _ in range(50)]
    headers = {"HX-Request": "true", "Accept-Encoding": "gzip", "Accept-Language": "es-ES,es;q=0.9"}

    def ask(conn):
        conn.request("GET", path, headers=headers)
        resp = conn.getresponse()
        resp.read()
        assert resp.status == 200, resp.status

    for c in conns:                 # every connection open and warm
        ask(c)
    pids = C.process_tree(pid)
    before = C.cpu_seconds(pids)
    for i in range(n):
        ask(conns[i % len(conns)])
    spent = C.cpu_seconds(pids) - before
    for c in conns:
        c.close()
    return spent / n * 1e6


def through_server(rounds: int, n: int) -> dict:
    import asyncio

    tmp = tempfile.mkdtemp(prefix="request-cpu-serve-")
    port, bare_port = C.free_port(), C.free_port()
    server = C.start_server(os.path.join(tmp, "bench.db"), port, [])
    bare = start_bare(bare_port)
    try:
        table = asyncio.run(C.make_table(port, 0))
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", table["watch"])
        path, since = C.VERSION.search(conn.getresponse().read().decode()).groups()
        conn.close()
        poll = f"{path}?since={since}"
        ours, theirs = [], []
        for _ in range(rounds):
            theirs.append(server_cpu_per_request(bare_port, bare.pid, poll, n))
            ours.append(server_cpu_per_request(port, server.pid, poll, n))
    finally:
        for proc in (server, bare):
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
    return {"companion_us": statistics.median(ours), "bare_us": statistics.median(theirs),
            "ratio": statistics.median(o / b for o, b in zip(ours, theirs))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--requests", type=int, default=300)
    ap.add_argument("--quick", action="store_true", help="a smoke run (2 rounds, few requests)")
    args = ap.parse_args()
    if args.quick:
        args.rounds, args.requests = 2, 60
    load = os.getloadavg()
    print(f"# {os.cpu_count()} cores, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; "
          f"{args.rounds} rounds", flush=True)
    app = in_process(args.rounds, args.requests)
    print("| request (in process, the app's whole WSGI stack) | CPU ms |")
    print("|---|---:|")
    for key, label in (("unchanged", "unchanged live poll"), ("shared", "changed Watch poll, shared render"),
                       ("render", "changed Watch poll, rendering the new version"), ("post", "scorer's POST (a bid)"),
                       ("get", "scorer's GET after the 303 (the whole Mus page)")):
        print(f"| {label} | {app[key]:.3f} |")
    print(f"| the app per table per second, capacity.py's mix | {app['per_table']:.2f} |", flush=True)
    srv = through_server(args.rounds, args.requests * 10)
    print()
    print("| `companion serve` (defaults), server CPU per unchanged poll | µs |")
    print("|---|---:|")
    print(f"| companion's unchanged poll | {srv['companion_us']:.0f} |")
    print(f"| a bare 3-line WSGI app, same gunicorn settings | {srv['bare_us']:.0f} |")
    print(f"| ratio (median of the rounds' ratios) | {srv['ratio']:.2f} |")


if __name__ == "__main__":
    main()
