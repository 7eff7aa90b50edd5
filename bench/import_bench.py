"""Import benchmark (issue 21): what an archive upload costs, in CPU and peak memory, against a small
archive measured in the same run (interleaved rounds, medians).

Archives: a small one (2 sessions of 30 Desmoche hands), the hostile one of issue 21 (one 8 MB Desmoche
file of 466,021 hands and a bad file: ~20 KB of zip) and two copies of it, and real exports of 10 and 40
sessions of 2,000 hands each (memory must not grow with the number of files: one file at a time).

    python bench/import_bench.py [--rounds 5] [--out bench/RESULTS-import.md]
"""
from __future__ import annotations

import argparse
import io
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import tracemalloc
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from companion import create_app  # noqa: E402


def desmoche(hands: list, name: str, players=("Ane", "Bea", "Carlos")) -> dict:
    return {"format": "companion-session/1", "name": name, "players": list(players),
            "games": [{"kind": "desmoche", "rules": {"variant": "desmoche", "stake": 10, "bonuses": True,
                                                     "color_wins": False},
                       "seats": list(players), "unit_value": 10, "hands": hands}]}


def zipped(files: dict) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for name, body in files.items():
            zf.writestr(name, body if isinstance(body, (bytes, str)) else json.dumps(body, indent=2))
    return buf.getvalue()


def hostile(copies: int) -> bytes:
    before, after = json.dumps(desmoche([], "Bomb", ("A", "B", "C"))).split('"hands": []')
    body = (before + '"hands": [' + ", ".join(['{"winner": "A"}'] * 466_021) + "]" + after).encode()
    files = {f"night-{i}.json": body for i in range(copies)}
    files["bad.json"] = b"{"
    return zipped(files)


def nights(n: int, hands: int, seed: int) -> bytes:
    rng = random.Random(seed)
    return zipped({f"{i}.json": desmoche([{"winner": rng.choice(["Ane", "Bea", "Carlos", None])}
                                          for _ in range(hands)], f"Night {i}") for i in range(n)})


class Importer:
    def __init__(self, tmp: str):
        self.app = create_app({"TESTING": True, "DATABASE": os.path.join(tmp, "bench.db")})
        self.client = self.app.test_client()
        import re

        page = self.client.get("/").get_data(as_text=True)
        self.csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)

    def post(self, raw: bytes) -> int:
        return self.client.post("/history/import", data={"csrf": self.csrf, "k": "",
                                                         "archive": (io.BytesIO(raw), "a.zip")},
                                content_type="multipart/form-data").status_code

    def cpu(self, raw: bytes) -> tuple[float, int]:
        before = resource.getrusage(resource.RUSAGE_SELF)
        status = self.post(raw)
        after = resource.getrusage(resource.RUSAGE_SELF)
        return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), status

    def peak(self, raw: bytes) -> float:
        tracemalloc.start()
        try:
            self.post(raw)
            return tracemalloc.get_traced_memory()[1] / 1e6
        finally:
            tracemalloc.stop()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--out", default=os.path.join(HERE, "RESULTS-import.md"))
    args = ap.parse_args()
    cases = [("small archive (2 sessions, 60 hands)", nights(2, 30, 1)),
             ("hostile zip: 466,021 hands + a bad file", hostile(1)),
             ("hostile zip, two copies", hostile(2)),
             ("export: 10 sessions of 2,000 hands", nights(10, 2000, 2)),
             ("export: 40 sessions of 2,000 hands", nights(40, 2000, 3))]
    with tempfile.TemporaryDirectory() as tmp:
        imp = Importer(tmp)
        imp.post(cases[0][1])                                  # warm: templates, catalogs
        cpu = {name: [] for name, _ in cases}
        status = {}
        for _ in range(args.rounds):                          # interleaved
            for name, raw in cases:
                seconds, status[name] = imp.cpu(raw)
                cpu[name].append(seconds)
        peaks = {name: statistics.median(imp.peak(raw) for _ in range(3)) for name, raw in cases}
    ref_cpu, ref_peak = statistics.median(cpu[cases[0][0]]), peaks[cases[0][0]]
    lines = ["| archive | zip size | answer | CPU (median) | ÷ small | peak traced memory | ÷ small |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for name, raw in cases:
        c = statistics.median(cpu[name])
        lines.append(f"| {name} | {len(raw) / 1024:,.0f} KB | {status[name]} | {c * 1000:,.0f} ms | {c / ref_cpu:,.1f} "
                     f"| {peaks[name]:,.1f} MB | {peaks[name] / ref_peak:,.1f} |")
    table = "\n".join(lines)
    print(table)
    with open(args.out, "w") as fh:
        fh.write(f"# Import benchmark\n\n`python bench/import_bench.py --rounds {args.rounds}`\n\n{table}\n")


if __name__ == "__main__":
    main()
