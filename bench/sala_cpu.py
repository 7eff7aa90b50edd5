"""The sala's changed poll against one table's game-page changed poll, in CPU time of the request's thread
(issue 28): the wall-clock ratio of bench/club_bench.py swings with whatever else the machine runs; the CPU a
request spends does much less. Flask test client, no server; interleaved rounds (a tap, the sala at the new
version; a tap, the game page at the new version), 12 and 40 tables.

    python bench/sala_cpu.py [--rounds 31]
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from club_demo import bench_doc, write_db  # noqa: E402


def measure(tables: int, rounds: int) -> dict:
    from companion.web.app import create_app

    db = os.path.join(tempfile.mkdtemp(), "c.db")
    night = write_db(db, bench_doc(tables))
    app = create_app({"DATABASE": db, "TESTING": True})
    scorer, reader = app.test_client(), app.test_client()
    link = f"/s/{night['tables']['3']}"
    page = scorer.get(f"{link}/mus/2").get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    hx = {"HX-Request": "true"}
    out = {"sala": [], "game": [], "sala_wall": [], "game_wall": []}

    def tap(key, team):     # one point each side in turn: the match lasts the rounds (a decided one refuses taps)
        resp = scorer.post(f"{link}/mus/2/act", data={"csrf": csrf, "move": "tally", "tally": f'[["{team}", 1]]',
                                                       "k": key})
        assert resp.status_code == 303, resp.status_code

    def timed(path, name):
        c, w = time.thread_time(), time.perf_counter()
        resp = reader.get(path, headers=hx)
        out[name].append(time.thread_time() - c)
        out[name + "_wall"].append(time.perf_counter() - w)
        assert resp.status_code == 200 and resp.data

    reader.get(f"/s/{night['view']}/sala")          # a sala that has seen the night once (as in a room)
    for i in range(rounds):
        tap(f"s{i}", "A")
        timed(f"/s/{night['view']}/sala?since=0", "sala")
        tap(f"g{i}", "B")
        timed(f"/s/{night['view']}/mus/2?since=0", "game")
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=31)
    args = ap.parse_args()
    for tables in (12, 40):
        m = measure(tables, args.rounds)
        med = {k: statistics.median(v) * 1000 for k, v in m.items()}
        ratio = statistics.median(s / g for s, g in zip(m["sala"], m["game"]))
        print(f"{tables} tables: CPU sala {med['sala']:.1f} ms / game page {med['game']:.1f} ms, median ratio"
              f" {ratio:.2f} (wall {med['sala_wall']:.1f} / {med['game_wall']:.1f} ms); load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
