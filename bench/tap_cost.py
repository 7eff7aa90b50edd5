"""What one Mus tap costs the server, counted (not timed): the SQL statements run, the reads of the session
row, of game rows and of stored items (hands), and how many times a hand is played, for one bid
(POST …/mus/0/act, ``bet:A:2`` on Chica) and the GET it is redirected to, at hand 31 and at hand 600.

The match before the hand in progress is made of table adjustments (+1, -1: the score stays 0), so the
600-hand match is still being played; the hand in progress has Grande passed.

    python bench/tap_cost.py [--out bench/RESULTS-tap-cost.md]
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from companion import create_app, service  # noqa: E402
from companion.storage import store
from companion.storage import db as dbm
from companion.kinds.mus import hand as mus_hand  # noqa: E402
from companion.record.session import FORMAT, load  # noqa: E402

SEATS = ["Ane", "Bea", "Carlos", "Dani"]


class Counter:
    def __init__(self):
        self.on = False
        self.reset()

    def reset(self):
        self.sql, self.items, self.plays = [], 0, 0

    def trace(self, sql: str):
        if self.on and not sql.startswith("PRAGMA"):
            self.sql.append(" ".join(sql.split()))

    def figures(self) -> dict:
        reads = [s for s in self.sql if s.startswith("SELECT")]
        return {"statements": len(self.sql),
                "session": sum(1 for s in reads if re.search(r"\bFROM sessions\b", s)),
                "game": sum(1 for s in reads if re.search(r"\bFROM games\b", s)),
                "item rows": self.items, "plays": self.plays}


COUNT = Counter()


def _instrument():
    connect = dbm.connect

    def traced(path):
        db = connect(path)
        db.conn.set_trace_callback(COUNT.trace)
        return db

    dbm.connect = traced
    lazy_get = store.LazyItems.__getitem__

    def counted_get(self, i):
        before = len(self.cache)
        out = lazy_get(self, i)
        if COUNT.on:
            COUNT.items += len(self.cache) - before
        return out

    store.LazyItems.__getitem__ = counted_get
    recent = store.recent

    def counted_recent(*args):
        out = recent(*args)
        if COUNT.on:
            COUNT.items += len(out)
        return out

    store.recent = counted_recent
    run = mus_hand.Play.run

    def counted_run(self):
        if COUNT.on:
            COUNT.plays += 1
        return run(self)

    mus_hand.Play.run = counted_run


def measure(before: int) -> tuple[dict, dict]:
    """(POST figures, GET figures) of a bid on the hand after ``before`` stored items."""
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "DATABASE": os.path.join(tmp, "b.db")})
        hands = [{"adjust": {"team": "A", "points": 1 if i % 2 == 0 else -1}} for i in range(before)]
        hands.append({"grande": [], "chica": [], "pares": [], "juego": [], "open": "chica"})
        doc = {"format": FORMAT, "name": "Bench", "players": SEATS,
               "games": [{"kind": "mus", "rules": {"preset": "spanish"}, "seats": SEATS, "hands": hands}]}
        db = dbm.connect(app.config["DATABASE"])
        edit = service.create(db, load(doc), browser="bench", location=lambda e: e).location
        db.conn.close()
        client = app.test_client()
        page = client.get(f"/s/{edit}/mus/0").get_data(as_text=True)
        form = re.search(r'<form[^>]*action="(/s/[^"]+/act)"[^>]*>(.*?)</form>', page, re.S)
        data = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form.group(2)))
        data["move"] = "bet:A:2"
        COUNT.reset()
        COUNT.on = True
        resp = client.post(form.group(1), data=data)
        COUNT.on = False
        assert resp.status_code == 303, resp.status_code
        post = COUNT.figures()
        COUNT.reset()
        COUNT.on = True
        got = client.get(resp.headers["Location"])
        COUNT.on = False
        assert got.status_code == 200
        return post, COUNT.figures()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out")
    args = parser.parse_args()
    _instrument()
    keys = ["statements", "session", "game", "item rows", "plays"]
    lines = ["| request | hand | SQL statements | session reads | game reads | item rows read | hand played |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for before in (30, 599):
        post, get = measure(before)
        for what, fig in (("POST bid", post), ("GET page", get)):
            lines.append(f"| {what} | {before + 1} | " + " | ".join(str(fig[k]) for k in keys) + " |")
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write("# One Mus tap, counted\n\n`python bench/tap_cost.py`\n\n" + text + "\n")


if __name__ == "__main__":
    main()
