"""Writers' locks on PostgreSQL, measured alone: taps at T tables written side by side by T threads (each
its own connection), each tap a transaction of a tap's statements (the lock, the version, the event, the
items, the key, the commit), under the archive-wide lock (every writer waits for every other: before
issue 27) and under a lock per session (after), in one run on one throwaway cluster (tests/pgcluster.py,
durable: fsync on, as a real server). Prints taps per second and the ratio.

    python bench/write_locks.py [--tables 8] [--seconds 10]
"""
from __future__ import annotations

import argparse
import os
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]


def run(url: str, tables: int, seconds: float, per_session: bool) -> tuple[int, float]:
    from companion.storage import store
    from companion.storage.db import connect

    done = [0] * tables
    stop = time.monotonic() + seconds

    def tapper(n: int) -> None:
        db = connect(url)
        sid = n + 1
        while time.monotonic() < stop:
            with store.immediate(db, sid if per_session else None):
                seq = db.execute("UPDATE sessions SET version = version + 1 WHERE id = ? RETURNING version",
                                 [sid]).fetchone()[0]
                db.execute("INSERT INTO events(session_id, seq, type, payload, created) VALUES (?, ?, 'bench', '{}', ?)",
                           [sid, seq, store.now()])
                db.execute("INSERT INTO items(session_id, gi, idx, body, before) VALUES (?, 0, ?, '{}', '{}')",
                           [sid, seq])
                db.execute("INSERT INTO requests(browser, scope, key, seq, location) VALUES ('b', ?, ?, ?, '')",
                           [str(sid), f"k{seq}", seq])
            done[n] += 1
        db.close()

    threads = [threading.Thread(target=tapper, args=(n,)) for n in range(tables)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(done), time.monotonic() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=10)
    args = ap.parse_args()
    from pgcluster import Cluster

    from companion.storage import store
    from companion.storage.db import connect, init_db

    cluster = Cluster(durable=True)
    try:
        init_db(cluster.url)
        db = connect(cluster.url)
        with store.immediate(db):
            for n in range(args.tables):
                db.execute("INSERT INTO sessions(name, created, updated, edit_token, view_token) VALUES"
                           " (?, '', '', ?, ?)", [f"t{n}", f"e{n}", f"v{n}"])
        db.close()
        rates = {}
        for label, per_session in (("archive-wide lock", False), ("lock per session", True),
                                   ("archive-wide lock (again)", False), ("lock per session (again)", True)):
            taps, took = run(cluster.url, args.tables, args.seconds, per_session)
            rates.setdefault(per_session, []).append(taps / took)
            print(f"{label}: {args.tables} tables, {taps} taps in {took:.1f} s: {taps / took:.0f} taps/s", flush=True)
        before, after = sum(rates[False]) / 2, sum(rates[True]) / 2
        print(f"per session / archive-wide: {after / before:.2f}x taps per second ({os.cpu_count()} cores, "
              f"load {os.getloadavg()[0]:.1f})")
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
