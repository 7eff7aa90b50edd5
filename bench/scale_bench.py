"""Scale benchmark: a tap costs the same at hand 200 as at hand 2, an unchanged poll costs what a bare
Flask app costs, eight phones can score one session at once, and a first visit is small.

Everything is measured in one run, on waitress over loopback, as ratios against a reference measured in
the same run (interleaved rounds, the median of the rounds): this machine is shared and noisy, and an
absolute figure alone proves nothing.

    python bench/scale_bench.py [--rounds 5] [--requests 200] [--quick]

1. unchanged live poll of a Mus game at 1,000 events  ÷  a bare 5-line Flask app on waitress  (>= 0.8)
2. one Mus write at 1,000 events  ÷  one Mus write at 10 events                               (<= 1.5)
3. changed live poll of a Mus game at 200 hands  ÷  at 2 hands (each one rendered)          (<= 1.5)
   and a Watch link's changed poll, served from the render shared by every worker ÷ rendered     (< 1)
4. the state of a 200-hand Mus match computed from its document, in process (CPU time)       (< 10 ms)
5. 8 phones x 150 writes on one Mus game through the real forms, retrying on a conflict as a phone
   does: all done, no 500, none lost, none duplicated, the slowest request                    (< 1 s)
6. first visit of each page, gzip, with every asset it loads                                  (<= 30 KB)
"""
from __future__ import annotations

import argparse
import gzip
import http.client
import itertools
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

BARE_APP = """
from flask import Flask
app = Flask(__name__)
@app.route("/")
def index():
    return "ok"
from waitress import serve
import sys
serve(app, host="127.0.0.1", port=int(sys.argv[1]), threads=8, _quiet=True)
"""

COMPANION_APP = """
import sys
sys.path.insert(0, sys.argv[3])
from companion import create_app
from waitress import serve
app = create_app({"DATABASE": sys.argv[1], "BASE_URL": "http://127.0.0.1:" + sys.argv[2]})
serve(app, host="127.0.0.1", port=int(sys.argv[2]), threads=8, _quiet=True)
"""

PLAYERS = ["Ane", "Bea", "Carlos", "Dani"]
CYCLE = ["pass", "pass", "declare", "pass"]   # pagat, without cards: one hand in which nothing scores


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(code: str, *args) -> subprocess.Popen:
    port = int(args[1] if len(args) > 1 else args[0])
    proc = subprocess.Popen([sys.executable, "-c", code, *map(str, args)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(400):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("a server did not start")


class Phone:
    """Just enough of a browser: one keep-alive connection, a cookie jar, gzip accepted."""

    def __init__(self, port: int):
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookie = ""

    def request(self, method: str, path: str, form: dict | None = None, headers: dict | None = None):
        h = {"Accept-Encoding": "gzip", **(headers or {})}
        if self.cookie:
            h["Cookie"] = self.cookie
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            h["Content-Type"] = "application/x-www-form-urlencoded"
        for attempt in range(3):
            try:
                self.conn.request(method, path, body=body, headers=h)
                resp = self.conn.getresponse()
                data = resp.read()
                break
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt == 2:
                    raise
        cookie = resp.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return resp, data

    def text(self, path: str, **kw) -> str:
        resp, data = self.request("GET", path, **kw)
        if resp.getheader("Content-Encoding") == "gzip":
            data = gzip.decompress(data)
        return data.decode()

    def timed(self, method: str, path: str, form: dict | None = None, headers: dict | None = None) -> tuple[float, int]:
        t = time.perf_counter()
        resp, _ = self.request(method, path, form, headers)
        return time.perf_counter() - t, resp.status


def hidden_fields(html: str, action: str) -> dict:
    for act, body in re.findall(r'<form[^>]*action="([^"]*)"[^>]*>(.*?)</form>', html, re.S):
        if act == action:
            return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', body))
    raise KeyError(action)


# ---------------------------------------------------------------------------------------------------
# the sessions, written through the store as the app writes them

def build_db(path: str) -> dict:
    """Sessions of several sizes, each a Mus game played through real writes (events)."""
    from companion import service
    from companion.record import session as S
    from companion.storage import store
    from companion.storage.db import connect, init_db
    from companion.kinds.mus import actions as A

    init_db(path)
    db = connect(path)
    game = {"kind": "mus", "rules": {"preset": "pagat"}, "seats": PLAYERS}
    taps = {"pass": A.Pass(), "declare": A.Declare(pares={}, juego={})}
    out = {}
    for name, events in (("w10", 10), ("w1000", 1000), ("poll", 1000), ("p2", 8), ("p200", 800), ("busy", 4)):
        service.create(db, S.load({"format": S.FORMAT, "name": name, "players": PLAYERS, "games": []}),
                       browser="bench")
        sid = db.execute("SELECT max(id) FROM sessions").fetchone()[0]

        def write(etype, payload):
            service.write(db, store.session(db, sid), etype, payload, browser="bench", key=None,
                          seen_version=None, location="/")

        write("add_game", {"game": game})
        for i in range(events - 2):
            write("game", {"game": 0, "action": taps[CYCLE[i % 4]]})
        edit, view, version = db.execute("SELECT edit_token, view_token, version FROM sessions WHERE id = ?",
                                         [sid]).fetchone()
        out[name] = {"edit": f"/s/{edit}", "view": f"/s/{view}", "version": version, "phase": (events - 2) % 4,
                     "id": sid}
    db.conn.close()
    return out


def state_from_document_ms(rounds: int) -> float:
    """The companion-state of a 200-hand Mus match (cards, bids, a count each hand), from its file."""
    from companion.record import session as S

    rnd = random.Random(5)
    hands = []
    for i in range(200):
        deck = [c for c in "RCS7654321" for _ in range(4)]
        rnd.shuffle(deck)
        h = {"cards": {p: "".join(deck[k * 4:k * 4 + 4]) for k, p in enumerate(PLAYERS)}}
        if i % 2:
            h["grande"] = [{"team": "A", "bet": 2}, {"team": "B", "call": True}]
        else:
            h["chica"] = [{"team": "B", "bet": 2}, {"team": "A", "fold": True}]
        hands.append(h)
    doc = {"format": S.FORMAT, "name": "Long", "players": PLAYERS, "games": [
        {"kind": "mus", "rules": {"preset": "spanish", "target": 100, "games_to_win": 9}, "seats": PLAYERS,
         "hands": hands}]}
    times, cpu = [], []
    for _ in range(rounds * 4):
        t, c = time.perf_counter(), time.process_time()
        S.state_of(S.load(doc))
        cpu.append(time.process_time() - c)
        times.append(time.perf_counter() - t)
    # the CPU this process spent is the figure (one thread, no I/O); the wall time says how busy the
    # machine was besides
    return statistics.median(cpu) * 1000, statistics.median(times) * 1000


# ---------------------------------------------------------------------------------------------------

def latency(phone: Phone, method: str, path: str, n: int, form=None, headers=None, expect=None) -> float:
    times = []
    for _ in range(n):
        t, status = phone.timed(method, path() if callable(path) else path, form() if callable(form) else form,
                                headers)
        if expect is not None:
            assert status == expect, (path, status)
        times.append(t)
    return statistics.median(times)


def measure(args, sessions, bare_port, port) -> dict:
    bare = Phone(bare_port)
    phone = Phone(port)
    csrf = re.search(r'name="csrf" value="([^"]+)"', phone.text("/")).group(1)
    hx = {"HX-Request": "true"}
    n = args.requests
    rounds: dict[str, list] = {k: [] for k in ("bare", "healthz", "poll", "write10", "write1000", "changed2",
                                               "changed200", "shared200")}
    phase = {k: sessions[k]["phase"] for k in ("w10", "w1000")}
    counter = [0]
    fresh = itertools.count()

    def write_form(name):
        def form():
            counter[0] += 1
            move = CYCLE[phase[name] % 4]
            phase[name] += 1
            return {"csrf": csrf, "k": f"bench-{counter[0]}", "move": move}
        return form

    for r in range(args.rounds):
        rounds["bare"].append(latency(bare, "GET", "/", n, expect=200))
        rounds["healthz"].append(latency(phone, "GET", "/healthz", n, expect=200))
        s = sessions["poll"]        # never written to during the run: every poll finds it unchanged
        rounds["poll"].append(latency(phone, "GET", f"{s['view']}/mus/0?since={s['version']}", n, headers=hx,
                                      expect=200))
        for name, key in (("w10", "write10"), ("w1000", "write1000")):
            rounds[key].append(latency(phone, "POST", f"{sessions[name]['edit']}/mus/0/act", n // 4,
                                       form=write_form(name), expect=303))
        # a Watch link's changed region is rendered once per version and then served from the shared
        # renders (web/poll.py): a query parameter the page ignores makes each of these polls a new region
        for name, key in (("p2", "changed2"), ("p200", "changed200")):
            view = sessions[name]["view"]
            rounds[key].append(latency(phone, "GET", lambda: f"{view}/mus/0?since=0&r={next(fresh)}", n,
                                       headers=hx, expect=200))
        rounds["shared200"].append(latency(phone, "GET", f"{sessions['p200']['view']}/mus/0?since=0", n, headers=hx,
                                           expect=200))
    return {k: statistics.median(v) for k, v in rounds.items()}


def phones_at_once(port: int, session: dict, phones: int, writes: int) -> dict:
    """``phones`` threads, each a phone with its own cookie, scoring the same Mus game through the real
    form: read the page, tap the current step; on a conflict (409: another phone recorded first) read the
    page again and tap again."""
    url = f"{session['edit']}/mus/0"
    results = {"done": 0, "conflicts": 0, "errors": [], "max": 0.0, "keys": []}
    lock = threading.Lock()

    def phone_loop(i):
        p = Phone(port)
        p.text("/")
        done = 0
        while done < writes:
            html = p.text(url)
            move = next((m for m in ("pass", "declare") if f'value="{m}"' in html), None)
            if move is None:
                with lock:
                    results["errors"].append("no move offered")
                return
            fields = hidden_fields(html, f"{url}/act")
            t = time.perf_counter()
            resp, _ = p.request("POST", f"{url}/act", {**fields, "move": move})
            elapsed = time.perf_counter() - t
            with lock:
                results["max"] = max(results["max"], elapsed)
                if resp.status == 303:
                    results["done"] += 1
                    results["keys"].append(fields["k"])
                    done += 1
                elif resp.status == 409:
                    results["conflicts"] += 1
                else:
                    results["errors"].append(resp.status)
                    if resp.status >= 500:
                        return

    threads = [threading.Thread(target=phone_loop, args=(i,)) for i in range(phones)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    results["seconds"] = time.perf_counter() - t0
    return results


def fetched_assets(html: str) -> list[str]:
    """What a phone's browser fetches on a first visit: the stylesheets, the scripts, the manifest and one
    icon (the SVG; a browser takes one of the icons it is offered, and the apple-touch-icon only when the
    page is added to an iPhone's home screen)."""
    out = re.findall(r'<script[^>]*src="(/[^"]+)"', html)
    for tag in re.findall(r"<link[^>]*>", html):
        href = re.search(r'href="(/[^"]+)"', tag)
        rel = re.search(r'rel="([^"]+)"', tag)
        if not href or not rel:
            continue
        if rel.group(1) in ("stylesheet", "manifest") or (rel.group(1) == "icon" and "svg" in tag):
            out.append(href.group(1).replace("&amp;", "&"))
    return out


def first_visits(port: int, sessions: dict) -> dict:
    """Bytes on the wire (gzip as served) of a first visit to each page: the page and every asset it
    loads (stylesheets, scripts, the manifest, an icon)."""
    p = Phone(port)
    p.text("/")
    csrf = re.search(r'name="csrf" value="([^"]+)"', p.text("/")).group(1)
    # one session with a game of every kind, played a little
    resp, _ = p.request("POST", "/new", {"csrf": csrf, "name": "Sizes", "p0": "Ane", "p1": "Bea", "p2": "Carlos",
                                         "p3": "Dani", "currency": "EUR"})
    edit = resp.getheader("Location")
    for kind, extra in (("mus", {}), ("newmarket", {"seat4": ""}), ("desmoche", {"seat3": ""})):
        html = p.text(f"{edit}/{kind}/new")
        fields = hidden_fields(html, f"{edit}/{kind}/new")
        form = {k: v for k, v in re.findall(r'<(?:input|select)[^>]*name="([^"]+)"[^>]*value="([^"]*)"', html)}
        p.request("POST", f"{edit}/{kind}/new", {**form, **fields, "seat0": "Ane", "seat1": "Bea", "seat2": "Carlos",
                                                 "seat3": "Dani", **extra})
    view = re.search(r'value="http://[^"]+(/s/[^"]+)" id="watch-link"', p.text(edit)).group(1)
    pages = {"home": "/", "session (edit)": edit, "session (watch)": view, "Mus game": f"{edit}/mus/0",
             "Newmarket game": f"{edit}/newmarket/1", "Desmoche game": f"{edit}/desmoche/2",
             "new Mus match": f"{edit}/mus/new", "settle": f"{view}/settle", "hand by hand": f"{view}/history",
             "history": "/history", "player": "/players/ane", "Mus reference": f"{edit}/mus/0/reference"}
    out = {}
    for name, path in pages.items():
        fresh = Phone(port)
        fresh.cookie = p.cookie
        resp, body = fresh.request("GET", path)
        html = gzip.decompress(body).decode() if resp.getheader("Content-Encoding") == "gzip" else body.decode()
        total = len(body)
        assets = fetched_assets(html)
        for asset in assets:
            r2, b2 = fresh.request("GET", asset)
            total += len(b2)
        out[name] = {"bytes": total, "status": resp.status, "assets": len(assets)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--quick", action="store_true", help="fewer rounds and requests (a smoke run)")
    args = ap.parse_args()
    if args.quick:
        args.rounds, args.requests = 3, 60
    tmp = tempfile.mkdtemp()
    db = os.path.join(tmp, "bench.db")
    print("building the sessions (real writes through the store)...", flush=True)
    sessions = build_db(db)
    bare_port, port = free_port(), free_port()
    procs = [serve(BARE_APP, bare_port), serve(COMPANION_APP, db, port, ROOT)]
    try:
        m = measure(args, sessions, bare_port, port)
        doc_ms = state_from_document_ms(args.rounds)
        crowd = phones_at_once(port, sessions["busy"], 8, 150 if not args.quick else 30)
        sizes = first_visits(port, sessions)
    finally:
        for p in procs:
            p.terminate()
    from companion.storage.db import connect

    conn = connect(db)
    sid = sessions["busy"]["id"]
    events = conn.execute("SELECT count(*) FROM events WHERE session_id = ? AND type = 'game'", [sid]).fetchone()[0]
    events -= 2                     # the two taps the session was built with
    keys = crowd.pop("keys")
    expected = 8 * (150 if not args.quick else 30) + 2
    ratio_poll = m["bare"] / m["poll"]
    ratio_write = m["write1000"] / m["write10"]
    ratio_changed = m["changed200"] / m["changed2"]
    rows = [
        ("unchanged poll at 1,000 events ÷ bare Flask (throughput)", f"{ratio_poll:.2f}", ">= 0.8",
         f"bare {m['bare'] * 1000:.2f} ms, poll {m['poll'] * 1000:.2f} ms, /healthz {m['healthz'] * 1000:.2f} ms"),
        ("Mus write at 1,000 events ÷ at 10 events (latency)", f"{ratio_write:.2f}", "<= 1.5",
         f"{m['write1000'] * 1000:.2f} ms vs {m['write10'] * 1000:.2f} ms"),
        ("changed Mus poll at 200 hands ÷ at 2 hands, rendered (latency)", f"{ratio_changed:.2f}", "<= 1.5",
         f"{m['changed200'] * 1000:.2f} ms vs {m['changed2'] * 1000:.2f} ms"),
        ("changed Watch poll at 200 hands, shared render ÷ rendered (latency)",
         f"{m['shared200'] / m['changed200']:.2f}", "< 1",
         f"{m['shared200'] * 1000:.2f} ms vs {m['changed200'] * 1000:.2f} ms"),
        ("state of a 200-hand Mus match from its document", f"{doc_ms[0]:.1f} ms", "< 10 ms",
         f"in process, CPU time ({doc_ms[1]:.1f} ms wall)"),
        ("8 phones x 150 writes on one game: done / 500s / lost / duplicated",
         f"{crowd['done']} / {sum(1 for e in crowd['errors'] if isinstance(e, int) and e >= 500)} / "
         f"{expected - 2 - events if events < expected - 2 else 0} / {len(keys) - len(set(keys)) + max(0, events - (expected - 2))}",
         "1200 / 0 / 0 / 0", f"{crowd['conflicts']} conflicts retried, {crowd['seconds']:.1f} s in all"),
        ("slowest request of those 8 phones", f"{crowd['max'] * 1000:.0f} ms", "< 1000 ms", ""),
        ("first visit, largest page with its assets (gzip)", f"{max(v['bytes'] for v in sizes.values()) / 1024:.1f} KB",
         "<= 30 KB", max(sizes, key=lambda k: sizes[k]["bytes"])),
    ]
    print()
    print("| measure | figure | aim | detail |")
    print("|---|---:|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    print()
    print("| page (first visit, gzip with assets) | KB |")
    print("|---|---:|")
    for name, v in sizes.items():
        print(f"| {name} | {v['bytes'] / 1024:.1f} |")
    print()
    print(json.dumps({"medians_ms": {k: round(v * 1000, 3) for k, v in m.items()}, "crowd": crowd,
                      "events": events}, default=str))


if __name__ == "__main__":
    main()
