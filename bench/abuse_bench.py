"""Abuse benchmark (issue 30): what slow clients and heavy uploads do to `companion serve` on its defaults.

1. Latency of a normal request (GET / on a fresh connection, median of ``--requests``) with 0, 16 and 200
   slow-header plus as many slow-body connections open, as ratios to 0 measured in the same round; rounds
   interleaved, median of ``--rounds``; for each gunicorn worker: preread (the default), waitress, and
   gunicorn's own gthread (the reference: what reading ahead costs a normal request) where it answers.
2. Peak memory of an upload ÷ its size: 1, 4 and 8 uploads at once of an 8 MB file, the server's worker
   processes' peak resident memory (VmHWM, reset before each run through /proc/PID/clear_refs) above
   what they held before. Files: the issue's ``[1e999, 1e999, ...]`` (8 MB) and the heaviest file the
   reader still builds (300,000 strings, 8 MB).

Only loopback; every loop bounded in count and time.

    python bench/abuse_bench.py [--rounds 5] [--requests 15] [--out bench/RESULTS-abuse.md]
"""
from __future__ import annotations

import argparse
import http.client
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TIMEOUT = 5.0          # a request not answered by then counts as not answered


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(db: str, *extra: str) -> tuple[int, subprocess.Popen]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--db", db, "--host", "127.0.0.1",
                             "--port", str(port), "--base-url", f"http://127.0.0.1:{port}", *extra],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.monotonic() + 60
    while time.monotonic() < end:
        try:
            if get(port, "/healthz")[0] == 200:
                return port, proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def get(port: int, path: str, timeout: float = TIMEOUT) -> tuple[int, float]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    began = time.perf_counter()
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        resp.read()
        return resp.status, time.perf_counter() - began
    finally:
        conn.close()


def slow_clients(port: int, count: int) -> list[socket.socket]:
    """``count`` clients that have sent part of a header and ``count`` part of a body (of 100 KB)."""
    socks = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: a")
        socks.append(s)
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        s.sendall(b"POST /import HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                  b"Content-Length: 100000\r\n\r\n--b\r\n")
        socks.append(s)
    return socks


def cheap(port: int, requests: int) -> float:
    """Median seconds of GET /healthz on one kept-alive connection: the server's own cost, nearly no app."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    times = []
    try:
        for _ in range(requests):
            began = time.perf_counter()
            conn.request("GET", "/healthz")
            resp = conn.getresponse()
            resp.read()
            times.append(time.perf_counter() - began)
    finally:
        conn.close()
    return statistics.median(times)


def latency(port: int, slow: int, requests: int) -> float | None:
    """Median seconds of GET / while ``slow`` slow-header and ``slow`` slow-body clients are open (None:
    not answered within TIMEOUT)."""
    socks = slow_clients(port, slow)
    try:
        for s in socks:             # one more byte each: they are being read
            s.sendall(b"a")
        times = []
        for _ in range(requests):
            try:
                status, took = get(port, "/")
            except (socket.timeout, OSError):
                return None
            assert status == 200, status
            times.append(took)
        return statistics.median(times)
    finally:
        for s in socks:
            s.close()


# ------------------------------------------------------------------------------------------------ uploads

def attack_file() -> bytes:
    """Issue 30's upload: 8 MB of ``[1e999, 1e999, ...]`` (8,000,000 bytes: the form around it stays
    within the app's 8 MiB)."""
    unit = b"1e999, "
    n = (8_000_000 - 2) // len(unit)
    return b"[" + unit * (n - 1) + b"1e999]"


def heaviest_file() -> bytes:
    """The heaviest file the reader still builds: just under MAX_VALUES values of strings (8 MB); it is no session file (422) once built."""
    sys.path.insert(0, ROOT)
    from companion.domain.jsonparse import MAX_VALUES

    n = MAX_VALUES - 10
    width = (8_000_000 - 2) // n - 3      # '"' x '",'
    return b"[" + b",".join([b'"' + b"a" * width + b'"'] * n) + b"]"


def children(pid: int) -> list[int]:
    out = []
    for d in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{d}/stat") as fh:
                if int(fh.read().rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(d))
        except OSError:
            pass
    return out


def status_kb(pid: int, field: str) -> int:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise KeyError(field)


class Uploader:
    """A browser that has its cookie and CSRF token, ready to POST a file to /import."""

    def __init__(self, port: int):
        self.port = port
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("GET", "/")
        resp = conn.getresponse()
        page = resp.read().decode()
        conn.close()
        self.cookie = resp.getheader("Set-Cookie").split(";", 1)[0]
        self.csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)

    def body(self, data: bytes) -> tuple[bytes, str]:
        boundary = "companionbench"
        head = (f'--{boundary}\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n{self.csrf}\r\n'
                f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="night.json"\r\n'
                f"Content-Type: application/json\r\n\r\n").encode()
        return head + data + f"\r\n--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"

    def post(self, body: bytes, ctype: str) -> int:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        try:
            conn.request("POST", "/import", body=body, headers={"Content-Type": ctype, "Cookie": self.cookie})
            resp = conn.getresponse()
            resp.read()
            return resp.status
        finally:
            conn.close()


def upload_peak(port: int, proc: subprocess.Popen, data: bytes, at_once: int) -> tuple[float, dict]:
    """(the workers' peak resident memory above their resting memory, in bytes; {status: count}) for
    ``at_once`` simultaneous uploads of ``data``."""
    workers = children(proc.pid)
    uploaders = [Uploader(port) for _ in range(at_once)]
    bodies = [u.body(data) for u in uploaders]
    for pid in workers:                     # the peak so far becomes the memory now
        with open(f"/proc/{pid}/clear_refs", "w") as fh:
            fh.write("5")
    resting = {pid: status_kb(pid, "VmRSS") for pid in workers}
    statuses: list[int] = []
    go = threading.Barrier(at_once)

    def send(u, b):
        go.wait(30)
        statuses.append(u.post(*b))

    threads = [threading.Thread(target=send, args=(u, b)) for u, b in zip(uploaders, bodies)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    peak = sum(max(0, status_kb(pid, "VmHWM") - resting[pid]) for pid in workers) * 1024
    return peak, {s: statuses.count(s) for s in sorted(set(statuses))}


NOTE = ("Before (issue 30's probe, not this run): one such `[1e999, ...]` upload left a worker 435 MB "
        "larger (54 times its size), 4 at once 1.64 GB, 8 at once 3.08 GB; gunicorn's gthread stopped answeri"
        'ng at 16 slow clients. 503 = told to come back (Retry-After): each worker parses at most 2 uploads at once.')
WORKERS = {"preread": "preread (default)", "waitress": "waitress", "gthread": "gthread (reference)"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--requests", type=int, default=15)
    ap.add_argument("--out", default=None, help="write the tables (markdown) to this file")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="abuse-")
    servers = {w: start(os.path.join(tmp, f"{w}.db"), "--worker", w) for w in WORKERS}
    levels = (0, 16, 200)
    page = {w: {n: [] for n in levels} for w in WORKERS}
    health = {w: [] for w in WORKERS}
    memory = []
    try:
        for r in range(args.rounds):
            for w, (port, _proc) in servers.items():        # interleaved: every worker, every level, each round
                health[w].append(cheap(port, args.requests * 4))
                for n in levels:
                    if w == "gthread" and n and r:          # it does not answer under slow clients: once
                        continue
                    page[w][n].append(latency(port, n, args.requests if w != "gthread" or not n else 1))
            print(f"round {r + 1}: " + "; ".join(
                f"{w} " + ", ".join(f"{n}: {page[w][n][-1] * 1000:.1f} ms" if page[w][n][-1] is not None
                                    else f"{n}: none" for n in levels) for w in WORKERS), flush=True)
        for w in ("waitress", "gthread"):
            stop(servers[w][1])
        port, proc = servers["preread"]
        files = {"`[1e999, ...]` (issue 30)": attack_file(), "300,000 strings (heaviest built)": heaviest_file()}
        upload_peak(port, proc, b"[]", 1)                  # every module and cache loaded
        for name, data in files.items():
            for at_once in (1, 4, 8):
                peaks, answers = [], {}
                for _ in range(max(1, args.rounds // 2)):
                    peak, got = upload_peak(port, proc, data, at_once)
                    peaks.append(peak)
                    for k, v in got.items():
                        answers[k] = answers.get(k, 0) + v
                memory.append((name, len(data), at_once, statistics.median(peaks), answers))
                print(f"{name} x{at_once}: peak {statistics.median(peaks) / 2**20:.1f} MB, {answers}", flush=True)
    finally:
        for _port, proc in servers.values():
            if proc.poll() is None:
                stop(proc)

    def med(values):
        return statistics.median(values) if values and None not in values else None

    lines = ["# Abuse benchmark (issue 30)", "",
             f"`python bench/abuse_bench.py --rounds {args.rounds} --requests {args.requests}` on "
             f"{len(os.sched_getaffinity(0))} cores shared with other developers' tests (absolute times vary "
             "with their load: read the ratios), `companion serve` defaults: gunicorn, 2 workers x 8 threads, "
             "each worker kind in its own server, measured interleaved.", "",
             "## A normal request (GET /, new connection) while slow clients are connected", "",
             "N + N = N clients sending a header a byte at a time and N sending a body a byte at a time. "
             f"Median of {args.rounds} rounds of the median of {args.requests} requests; ÷ 0 = against the same "
             "worker with no slow client, in the same rounds.", "",
             "| slow clients | " + " | ".join(f"{WORKERS[w]} | ÷ 0" for w in WORKERS) + " |",
             "|---:|" + "---:|---:|" * len(WORKERS)]
    for n in levels:
        cells = []
        for w in WORKERS:
            m, base = med(page[w][n]), med(page[w][0])
            cells.append(f"{m * 1000:.1f} ms | {m / base:.2f}" if m is not None else f"no answer in {TIMEOUT:.0f} s | -")
        lines.append(f"| {n} + {n} | " + " | ".join(cells) + " |")
    ref_page, ref_health = med(page["gthread"][0]), med(health["gthread"])
    lines += ["", "What each worker costs a normal request, no slow client (÷ gthread, gunicorn's own worker, "
                  "the same rounds):", "",
              "| worker | GET / (new connection) | ÷ gthread | GET /healthz (kept-alive) | ÷ gthread |",
              "|---|---:|---:|---:|---:|"]
    for w in WORKERS:
        p, h = med(page[w][0]), med(health[w])
        lines.append(f"| {WORKERS[w]} | {p * 1000:.1f} ms | {p / ref_page:.2f} | {h * 1000:.2f} ms | "
                     f"{h / ref_health:.2f} |")
    lines += ["", "## Upload peak memory ÷ size (preread worker)", "",
              "Workers' peak resident memory (VmHWM, reset first) above their resting memory, all workers "
              f"together, while N uploads are sent at once; median of {max(1, args.rounds // 2)} runs, answers "
              "summed.", "",
              "| file | size | at once | peak | ÷ one file's size | ÷ all files' size | answers |",
              "|---|---:|---:|---:|---:|---:|---|"]
    for name, size, at_once, peak, answers in memory:
        lines.append(f"| {name} | {size / 2**20:.1f} MB | {at_once} | {peak / 2**20:.1f} MB | {peak / size:.2f} | "
                     f"{peak / (size * at_once):.2f} | {', '.join(f'{k} x{v}' for k, v in answers.items())} |")
    lines += ["", NOTE]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text)


if __name__ == "__main__":
    main()
