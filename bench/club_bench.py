"""Club night benchmark (issues 18, 28): a night of N Mus tables (default 40: 160 players), each with 4
phones polling its game page every 2 s (through the table's own link) and a scorer tapping every 10 s,
plus 2 sala screens polling every second and the organizer's club page polling every 2 s, all at once
against `companion serve` with its defaults (a real subprocess on loopback, its own SQLite file, as
bench/capacity.py runs it). Then, in the same run, interleaved: the cost of the sala's changed poll at N
tables against one table's game-page changed poll (each just after a tap).

    python bench/club_bench.py [--tables 40] [--seconds 60] [--rounds 9] [--server-args "..."]

Reported: p50/p99 of every kind of request under the load (target p99 < 250 ms on this 2-core machine),
no error; and the median ratio sala changed poll / game-page changed poll (target <= 3). Only talks to
127.0.0.1; bounded by --seconds and --rounds.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import shlex
import statistics
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from club_demo import bench_doc, write_db  # noqa: E402
from capacity import start_server  # noqa: E402
from scale_bench import Phone, free_port  # noqa: E402

HX = {"HX-Request": "true"}


def version_of(html: str, old: int) -> int:
    m = re.search(r'data-version="(\d+)"', html)
    return int(m.group(1)) if m else old


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))] * 1000 if xs else float("nan")


class Night:
    def __init__(self, port: int, night: dict):
        self.port = port
        self.night = night
        self.lat: dict[str, list[float]] = {}
        self.errors: list[str] = []
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.measure_from = 0.0             # the warm-up's requests (every phone's first visit) are not noted

    def note(self, kind: str, dt: float, status: int) -> None:
        if time.perf_counter() < self.measure_from:
            return
        with self.lock:
            self.lat.setdefault(kind, []).append(dt)
            if status >= 500 or status in (403, 404):
                self.errors.append(f"{kind}: {status}")

    def poller(self, path: str, every: float, kind: str) -> None:
        phone = Phone(self.port)
        version = version_of(phone.text(path), 0)
        time.sleep(random.random() * every)
        while not self.stop.is_set():
            t = time.perf_counter()
            resp, data = phone.request("GET", f"{path}?since={version}", headers=HX)
            dt = time.perf_counter() - t
            changed = bool(data)
            self.note(f"{kind} {'changed' if changed else 'unchanged'}", dt, resp.status)
            if changed:
                import gzip

                body = gzip.decompress(data).decode() if resp.getheader("Content-Encoding") == "gzip" else data.decode()
                version = version_of(body, version)
            self.stop.wait(max(0.0, every - dt))

    def scorer(self, table: str, gi: int, every: float) -> None:
        phone = Phone(self.port)
        link = f"/s/{self.night['tables'][table]}"
        page = phone.text(f"{link}/mus/{gi}")
        csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
        time.sleep(random.random() * every)
        n = 0
        while not self.stop.is_set():
            n += 1
            form = {"csrf": csrf, "move": "tally", "tally": json.dumps([[random.choice("AB"), 1]]),
                    "k": f"{table}-{n}-{random.random()}"}
            t = time.perf_counter()
            resp, _ = phone.request("POST", f"{link}/mus/{gi}/act", form=form)
            self.note("write (tally)", time.perf_counter() - t, resp.status)
            self.stop.wait(every)


def load_phase(port: int, night: dict, seconds: float, tables: int, warmup: float) -> Night:
    run = Night(port, night)
    run.measure_from = time.perf_counter() + warmup
    threads = []
    for t in range(tables):
        label = str(t + 1)
        path = f"/s/{night['tables'][label]}/mus/{t}"
        for _ in range(4):
            threads.append(threading.Thread(target=run.poller, args=(path, 2.0, "table poll"), daemon=True))
        threads.append(threading.Thread(target=run.scorer, args=(label, t, 10.0), daemon=True))
    for _ in range(2):
        threads.append(threading.Thread(target=run.poller, args=(f"/s/{night['view']}/sala", 1.0, "sala poll"),
                                        daemon=True))
    # the organizer's club page has no live region (no data-version): every refresh is the whole page
    threads.append(threading.Thread(target=run.poller, args=(f"/s/{night['edit']}/club", 2.0, "organizer page"),
                                    daemon=True))
    for th in threads:
        th.start()
    time.sleep(warmup + seconds)
    run.stop.set()
    for th in threads:
        th.join(timeout=30)
    return run


def ratio_phase(port: int, night: dict, rounds: int) -> dict:
    """Interleaved: a tap at a table, then the sala's first poll of the new version (it computes the
    night's state); a tap, then the game page's first poll of the new version. Median of the rounds."""
    scorer, reader = Phone(port), Phone(port)
    link = f"/s/{night['tables']['3']}"
    page = scorer.text(f"{link}/mus/2")
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    sala, game = [], []

    def tap(i):
        resp, _ = scorer.request("POST", f"{link}/mus/2/act", form={"csrf": csrf, "move": "tally",
                                                                     "tally": '[["A", 1]]', "k": f"r{i}"})
        assert resp.status == 303, resp.status

    for i in range(rounds):
        tap(2 * i)
        t = time.perf_counter()
        resp, data = reader.request("GET", f"/s/{night['view']}/sala?since=0", headers=HX)
        sala.append(time.perf_counter() - t)
        assert resp.status == 200 and data
        tap(2 * i + 1)
        t = time.perf_counter()
        resp, data = reader.request("GET", f"/s/{night['view']}/mus/2?since=0", headers=HX)
        game.append(time.perf_counter() - t)
        assert resp.status == 200 and data
    ratios = [s / g for s, g in zip(sala, game)]
    return {"sala_ms": statistics.median(sala) * 1000, "game_ms": statistics.median(game) * 1000,
            "ratio": statistics.median(ratios), "sala": sala, "game": game}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--tables", type=int, default=40)
    ap.add_argument("--warmup", type=float, default=10, help="seconds of load before measuring (first visits)")
    ap.add_argument("--server-args", default="", help="extra options for `companion serve` (default: none)")
    args = ap.parse_args()
    if not 3 <= args.tables <= 100:
        raise SystemExit("--tables: 3 to 100 (a club night holds 400 players)")
    tmp = tempfile.mkdtemp()
    db = os.path.join(tmp, "club.db")
    night = write_db(db, bench_doc(args.tables))
    port = free_port()
    load0 = os.getloadavg()
    proc = start_server(db, port, shlex.split(args.server_args))
    try:
        run = load_phase(port, night, args.seconds, args.tables, args.warmup)
        ratio = ratio_phase(port, night, args.rounds)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except Exception:
            proc.kill()
    load1 = os.getloadavg()
    with open(proc.log_path, encoding="utf-8", errors="replace") as fh:
        served = next((line.strip() for line in fh if line.startswith("Serving with")), "?")
    print(f"club night on `companion serve {args.server_args or '(defaults)'}`: {args.tables} tables"
          f" ({4 * args.tables} players) x 4 phones polling every 2 s + a scorer every 10 s + 2 salas every 1 s"
          f" + the organizer's page every 2 s, {args.seconds:.0f} s measured after {args.warmup:.0f} s warm-up")
    print(served)
    print(f"load average before {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}, after {load1[0]:.2f} {load1[1]:.2f}"
          f" {load1[2]:.2f} ({os.cpu_count()} cores)")
    print(f"{'request':28} {'n':>6} {'p50 ms':>8} {'p99 ms':>8}")
    for kind in sorted(run.lat):
        xs = run.lat[kind]
        print(f"{kind:28} {len(xs):6d} {pct(xs, 50):8.1f} {pct(xs, 99):8.1f}")
    print(f"slowest writes (ms): {[round(x * 1000) for x in sorted(run.lat.get('write (tally)', []))[-5:]]}")
    print(f"errors: {len(run.errors)} {run.errors[:5]}")
    print(f"sala changed poll at {args.tables} tables {ratio['sala_ms']:.1f} ms / game page changed poll {ratio['game_ms']:.1f} ms"
          f" = {ratio['ratio']:.2f} (median of {args.rounds} interleaved rounds; target <= 3)")
    print(f"  per round, sala ms: {[round(x * 1000) for x in ratio['sala']]}")
    print(f"  per round, game ms: {[round(x * 1000) for x in ratio['game']]}")
    print(f"  floor (fastest sala / fastest game page): {min(ratio['sala']) / min(ratio['game']):.2f}"
          " (the least disturbed by the machine's other work)")
    worst = max(pct(xs, 99) for xs in run.lat.values())
    print(f"worst p99 {worst:.1f} ms (target < 250)")


if __name__ == "__main__":
    main()
