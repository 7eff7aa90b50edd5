"""Rule-engine speed that tests once asserted in absolute seconds (machine-dependent): now figures, each a
ratio against a reference measured in the same run, interleaved, median of several rounds.

- a Newmarket tap at deal 300 against the same tap at deal 2, and building 300 deals from the file;
- a Desmoche hand at hand 600 against the same hand at hand 2, and building 600 hands;
- the exact settle plan for 15 players not at zero against 5 players.

    python bench/kind_speed.py [--rounds 9] [--out bench/RESULTS-kind-speed.md]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests"), os.path.join(ROOT, "tests", "kinds", "newmarket"),
                os.path.join(ROOT, "tests", "kinds", "desmoche")]

from companion.kinds.desmoche import KIND as DESMOCHE, actions as DA  # noqa: E402
from companion.kinds.newmarket import KIND as NEWMARKET  # noqa: E402
from companion.kinds.newmarket import actions as NA  # noqa: E402
from companion.domain.settle import _fewest_cached, settle  # noqa: E402
from dm_helpers import PLAYERS as DM_PLAYERS  # noqa: E402
from nm_helpers import P4  # noqa: E402
from test_desmoche_speed import SEATS4, long_series  # noqa: E402  (the tests' long games)
from test_nm_actions import long_game  # noqa: E402


def timed(fn, repeat: int = 1) -> float:
    t = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - t) / repeat


def pair(name: str, fn, ref, rounds: int, repeat: int) -> dict:
    """Median seconds of ``fn`` and of ``ref`` measured alternately, and their ratio."""
    a, b = [], []
    for _ in range(rounds):
        a.append(timed(fn, repeat))
        b.append(timed(ref, repeat))
    ma, mb = statistics.median(a), statistics.median(b)
    return {"what": name, "ms": ma * 1000, "ref_ms": mb * 1000, "ratio": ma / mb}


def nets(n: int) -> dict:
    values = [(i + 1) * 10 * (1 if i % 2 else -1) for i in range(n - 1)]
    values.append(-sum(values))
    return {f"P{i}": v for i, v in enumerate(values)}


def uncached(nets_: dict) -> dict:
    _fewest_cached.cache_clear()
    return settle(list(nets_), [{"net": nets_, "on_table": 0}])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--out")
    args = parser.parse_args()
    r = args.rounds
    nm_long, nm_short = long_game(300), long_game(2)
    nm_doc, nm_small = NEWMARKET.to_doc(nm_long), NEWMARKET.to_doc(long_game(3))
    dm_long, dm_short = (DESMOCHE.build(long_series(n), DM_PLAYERS) for n in (600, 2))
    dm_doc, dm_small = long_series(600), long_series(6)
    hand = DA.Hand(hand={"winner": "Bea", "mico": 1, "side": {"oro": {"joined": SEATS4, "winner": "Ane"}}})
    n15, n5 = nets(15), nets(5)
    rows = [
        pair("Newmarket: a tap at deal 300 / at deal 2", lambda: NEWMARKET.apply(nm_long, NA.StartDeal()),
             lambda: NEWMARKET.apply(nm_short, NA.StartDeal()), r, 200),
        pair("Newmarket: build 300 deals / 3 deals", lambda: NEWMARKET.build(nm_doc, P4),
             lambda: NEWMARKET.build(nm_small, P4), r, 3),
        pair("Desmoche: a hand at hand 600 / at hand 2", lambda: DESMOCHE.apply(dm_long, hand),
             lambda: DESMOCHE.apply(dm_short, hand), r, 200),
        pair("Desmoche: build 600 hands / 6 hands", lambda: DESMOCHE.build(dm_doc, DM_PLAYERS),
             lambda: DESMOCHE.build(dm_small, DM_PLAYERS), r, 3),
        pair("Settle: exact plan, 15 players / 5 players (not cached)", lambda: uncached(n15),
             lambda: uncached(n5), r, 1),
    ]
    lines = ["| what | ms | reference ms | ratio |", "|---|---:|---:|---:|"]
    lines += [f"| {x['what']} | {x['ms']:.3f} | {x['ref_ms']:.3f} | {x['ratio']:.1f} |" for x in rows]
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(f"# Rule engines' speed\n\n`python bench/kind_speed.py --rounds {r}` (median of {r} rounds, "
                     "interleaved)\n\n" + text + "\n")


if __name__ == "__main__":
    main()
