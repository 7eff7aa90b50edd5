"""Two servers on one PostgreSQL, the writers' lock per session against one archive-wide lock, with the
capacity bench (``bench/capacity.py --postgres 2``), interleaved: the machine is shared and noisy, so the
two are run in turns (after, before; then before, after; ...) and each figure is the median of its rounds.

"Before" is this same commit with one line changed in a copy (``PostgresConnection.begin_write`` takes
the archive's lock whole whatever the scope: every writer waits for every other, as before issue 27);
everything else is equal. Both copies are exported from git (``git archive HEAD``, so commit first) into
a temporary folder; each run's servers import the copy they were started from.

    python bench/lock_ab.py [--rounds 3] [--tables 40] [--seconds 30] [--warmup 10] [--tap 1]
"""
from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PER_SESSION = "        if scope is None:\n            sql = _BEGIN_WRITE\n"
ARCHIVE_WIDE = "        if True:           # bench/lock_ab.py: the archive-wide lock for every writer\n            sql = _BEGIN_WRITE\n"
FIGURES = ("taps_done", "tap_p99_ms", "post_p99_ms", "poll_p50_ms", "poll_p99_ms", "seen_p99_s", "server_cpu_cores",
           "others_cpu_cores")


def export(into: str, archive_wide: bool) -> str:
    data = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into)
    if archive_wide:
        path = os.path.join(into, "companion", "storage", "postgres.py")
        with open(path) as fh:
            text = fh.read()
        if PER_SESSION not in text:
            raise SystemExit("begin_write has changed: update bench/lock_ab.py's patch")
        with open(path, "w") as fh:
            fh.write(text.replace(PER_SESSION, ARCHIVE_WIDE))
    return into


def run(tree: str, args, out: str) -> dict:
    cmd = [sys.executable, os.path.join(tree, "bench", "capacity.py"), "--postgres", "2", "--levels", str(args.tables),
           "--seconds", str(args.seconds), "--warmup", str(args.warmup), "--tap", str(args.tap), "--keep-going",
           "--json", out]
    subprocess.run(cmd, cwd=tree, check=True, stdout=subprocess.DEVNULL)
    with open(out) as fh:
        found = json.load(fh)
    return (found["results"] if isinstance(found, dict) else found)[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--tables", type=int, default=40)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--warmup", type=float, default=10)
    ap.add_argument("--tap", type=float, default=1.0, help="seconds between a scorer's taps (1: 10x the default)")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="lock-ab-")
    try:
        trees = {"per session": export(os.path.join(tmp, "after"), False),
                 "archive-wide": export(os.path.join(tmp, "before"), True)}
        got: dict[str, list[dict]] = {k: [] for k in trees}
        print("| round | lock | " + " | ".join(FIGURES) + " |")
        print("|---|---|" + "---:|" * len(FIGURES))
        for n in range(args.rounds):
            order = list(trees) if n % 2 == 0 else list(reversed(trees))
            for name in order:
                r = run(trees[name], args, os.path.join(tmp, f"{name.replace(' ', '-')}-{n}.json"))
                got[name].append(r)
                print(f"| {n + 1} | {name} | " + " | ".join(str(r[f]) for f in FIGURES) + " |", flush=True)
        print()
        medians = {name: {f: statistics.median(float(r[f]) for r in rs) for f in FIGURES} for name, rs in got.items()}
        for name, m in medians.items():
            print(f"| median | {name} | " + " | ".join(f"{m[f]:g}" for f in FIGURES) + " |")
        a, b = medians["per session"], medians["archive-wide"]
        print()
        print(f"per session / archive-wide, medians of {args.rounds} rounds at {args.tables} tables: taps "
              f"{a['taps_done'] / b['taps_done']:.2f}x, tap p99 {a['tap_p99_ms'] / b['tap_p99_ms']:.2f}x, "
              f"poll p99 {a['poll_p99_ms'] / b['poll_p99_ms']:.2f}x (below 1: faster)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
