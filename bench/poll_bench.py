"""Foundation benchmark, against waitress on loopback, in one run:

1. requests per second of an unchanged live-view poll (204), as a ratio to a minimal Flask route
   (/healthz of the same app, same server, same client);
2. bytes on the wire (headers + gzip bodies, as served) for a first visit to a session page: the page,
   its CSS, htmx and app.js.

    python bench/poll_bench.py [--seconds 5] [--clients 4]
"""
from __future__ import annotations

import argparse
import http.client
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: str, port: int) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--db", db, "--host", "127.0.0.1",
                             "--port", str(port), "--base-url", f"http://127.0.0.1:{port}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=os.path.dirname(HERE))
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("server did not start")


class Browser:
    """Just enough of a browser: one keep-alive connection, a cookie jar, gzip accepted."""

    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port)
        self.cookie = ""

    def request(self, method, path, body=None, headers=None):
        h = {"Accept-Encoding": "gzip", **(headers or {})}
        if self.cookie:
            h["Cookie"] = self.cookie
        if body is not None:
            body = urllib.parse.urlencode(body)
            h["Content-Type"] = "application/x-www-form-urlencoded"
        self.conn.request(method, path, body=body, headers=h)
        resp = self.conn.getresponse()
        data = resp.read()
        if resp.getheader("Set-Cookie"):
            self.cookie = resp.getheader("Set-Cookie").split(";", 1)[0]
        raw_headers = sum(len(k) + len(v) + 4 for k, v in resp.getheaders()) + 17
        return resp, data, raw_headers


def make_session(port: int) -> tuple[str, int]:
    import gzip

    b = Browser(port)
    _, data, _ = b.request("GET", "/")
    page = gzip.decompress(data).decode()
    token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    resp, _, _ = b.request("POST", "/new", {"csrf": token, "name": "Bench night", "p0": "Ane", "p1": "Bea",
                                            "p2": "Carlos", "p3": "Dani", "currency": "EUR"})
    edit = urllib.parse.urlparse(resp.getheader("Location")).path
    _, data, _ = b.request("GET", edit)
    page = gzip.decompress(data).decode()
    view = urllib.parse.urlparse(re.search(r'value="([^"]+)" id="watch-link"', page).group(1)).path
    version = int(re.search(r'data-version="(\d+)"', page).group(1))
    return view, version


def hammer(port: int, path: str, headers: dict, seconds: float, clients: int, expect: int) -> float:
    count = [0] * clients
    stop = time.monotonic() + seconds

    def run(i):
        b = Browser(port)
        while time.monotonic() < stop:
            resp, _, _ = b.request("GET", path, headers=headers)
            assert resp.status == expect, resp.status
            count[i] += 1

    threads = [threading.Thread(target=run, args=(i,)) for i in range(clients)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(count) / (time.monotonic() - start)


def first_visit_bytes(port: int, view: str) -> dict:
    b = Browser(port)
    sizes = {}
    resp, data, head = b.request("GET", view)
    sizes["page"] = len(data) + head
    import gzip

    page = gzip.decompress(data).decode()
    for src in re.findall(r'(?:href|src)="(/static/[^"]+)"', page):
        resp, data, head = b.request("GET", src.replace("&amp;", "&"))
        sizes[src.split("?")[0].rsplit("/", 1)[1]] = len(data) + head
    return sizes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=5)
    ap.add_argument("--clients", type=int, default=4)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = start_server(os.path.join(tmp, "bench.db"), port)
        try:
            view, version = make_session(port)
            hx = {"HX-Request": "true"}
            # warm up both, then measure alternately to share the machine's noise
            hammer(port, "/healthz", {}, 1, args.clients, 200)
            hammer(port, f"{view}?since={version}", hx, 1, args.clients, 204)
            base = [hammer(port, "/healthz", {}, args.seconds, args.clients, 200) for _ in range(2)]
            poll = [hammer(port, f"{view}?since={version}", hx, args.seconds, args.clients, 204) for _ in range(2)]
            base_rps, poll_rps = max(base), max(poll)
            sizes = first_visit_bytes(port, view)
        finally:
            proc.terminate()
            proc.wait()
    total = sum(sizes.values())
    print(f"minimal route (/healthz): {base_rps:8.0f} req/s")
    print(f"unchanged poll (204):     {poll_rps:8.0f} req/s")
    print(f"ratio poll / minimal:     {poll_rps / base_rps:8.2f}   (aim >= 0.8)")
    print("first visit, gzip as served (headers + bodies):")
    for name, size in sizes.items():
        print(f"  {name:28s} {size:7d} B")
    print(f"  {'total':28s} {total:7d} B = {total / 1024:.1f} KB   (aim <= 40 KB)")


if __name__ == "__main__":
    main()
