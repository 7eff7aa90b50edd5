"""History benchmark: a database of 5,000 sessions and 500,000 events, then the history list, a
player's page and a session's pages measured through the Flask test client (the whole app: routing,
SQL, rule engines, templates, gzip; no network).

How the database is built (fast, yet realistic):
1. A dozen *template* sessions are played through the real code paths: ``store.create`` then
   ``store.write`` of ``add_game`` / ``game`` actions chosen among the moves the rule engines accept
   (Mus with dealt cards, Newmarket deals, Desmoche hands, a banker and paid marks), each exactly
   ``events / sessions`` (100) events long. Their documents, summaries, events (with their packed
   ``before`` snapshots) and side tables are therefore exactly what the app writes.
2. The templates are replicated with plain SQL in large transactions: new ids and tokens, names and
   dates spread over five years (the document, its summary and the create event agree).

    python bench/history_bench.py [--sessions 5000] [--events 500000] [--runs 40] [--db PATH] [--keep]
                                  [--out bench/RESULTS-history.md]

Prints a table (median and p95 in ms per page) and writes it to ``--out``.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from companion import create_app, kinds, store  # noqa: E402
from companion.db import connect, init_db  # noqa: E402
from companion.rules.errors import RuleError  # noqa: E402

POOL = ["Ane", "Bea", "Carlos", "Dani", "Eneko", "Fermín", "Garazi", "Haritz", "Iñaki", "Jone", "Koldo",
        "Leire", "Mikel", "Nerea", "Oier", "Paula", "Quique", "Rosa", "Sara", "Txema", "Unai", "Vega",
        "Xabi", "Yolanda"]
DECK = list("A234567SCR") * 4
BENCH_BROWSER = "bench-browser"
ADMIN = "bench-admin-token"


# ----------------------------------------------------------------------------------------------------
# template sessions, played through the real store
# ----------------------------------------------------------------------------------------------------

class Player:
    """Plays one session through store.write until it holds exactly ``target`` events."""

    def __init__(self, db, session_id: int, rnd: random.Random, target: int):
        self.db, self.sid, self.rnd, self.target = db, session_id, rnd, target

    @property
    def version(self) -> int:
        return self.db.execute("SELECT version FROM sessions WHERE id = ?", [self.sid]).fetchone()[0]

    def left(self) -> int:
        return self.target - self.version

    def doc(self) -> dict:
        return store.load(self.db, self.sid)["doc"]

    def write(self, etype: str, payload: dict) -> bool:
        try:
            store.write(self.db, self.sid, etype, payload, key=None, seen_version=None, location="")
            return True
        except RuleError:
            return False

    def add(self, kind: str, players: list[str], form: dict) -> int:
        game = kinds.get(kind).new_game(players, form)
        assert self.write("add_game", {"game": game})
        return len(self.doc()["games"]) - 1

    def action(self, gi: int, action: dict) -> bool:
        return self.write("game", {"game": gi, "action": action})

    def state(self, gi: int) -> dict:
        doc = self.doc()
        return kinds.get(doc["games"][gi]["kind"]).compute(doc["games"][gi])

    # -- the kinds --------------------------------------------------------------------------------
    def mus(self, seats: list[str], budget: int) -> None:
        form = {f"seat{i}": p for i, p in enumerate(seats)}
        form.update({"stake_kind": "per_game", "stake": "100"})
        gi = self.add("mus", seats, form)
        weights = {"pass": 5, "bet": 3, "call": 3, "fold": 3, "raise": 1, "ordago": 0.03}
        end = self.version + budget - 1
        while self.version < end and self.left() > 0:
            s = self.state(gi)
            if s.get("status") == "match_over" or not s.get("legal"):
                return
            legal = s["legal"]
            if s.get("hand") is None and any(a["type"] == "start_hand" for a in legal):
                deck = DECK[:]
                self.rnd.shuffle(deck)
                start = next(a for a in legal if a["type"] == "start_hand")
                action = {**start, "cards": {p: "".join(deck[i * 4:i * 4 + 4]) for i, p in enumerate(seats)}}
            else:
                action = self.rnd.choices(legal, weights=[weights.get(a["type"], 1) for a in legal])[0]
            if not self.action(gi, action):
                return

    def newmarket(self, seats: list[str], budget: int) -> None:
        gi = self.add("newmarket", seats, {"seats": ",".join(seats), "chip_value": "10", "start_chips": "30"})
        end = self.version + budget - 1
        while self.version < end and self.left() > 0:
            s = self.state(gi)
            legal = s.get("legal") or []
            if s.get("ended"):
                return
            if self.version >= end - 1 and "end_game" in legal and not s.get("deal_open"):
                self.action(gi, {"type": "end_game"})
                return
            if not s.get("deal_open"):
                if not self.action(gi, {"type": "start_deal"}):
                    return
                continue
            roll = self.rnd.random()
            face_up = s.get("face_up") or []
            if roll < 0.45 and face_up and "boodle" in legal:
                if self.action(gi, {"type": "boodle", "card": self.rnd.choice(face_up), "by": self.rnd.choice(seats)}):
                    continue
            if roll < 0.55 and "dummy" in legal:
                buyer = self.rnd.choice([p for p in seats if p != s.get("dealer")])
                if self.action(gi, {"type": "dummy", "sold_to": buyer, "price": self.rnd.randint(1, 3)}):
                    continue
            out = self.rnd.choice(seats)
            left = {p: self.rnd.randint(0, 7) for p in seats if p != out}
            if not self.action(gi, {"type": "end_deal", "out": out, "cards_left": left}):
                if not self.action(gi, {"type": "end_deal", "blocked": True}):
                    return

    def desmoche(self, seats: list[str], budget: int) -> None:
        gi = self.add("desmoche", seats, {"seats": ",".join(seats), "stake": "10", "unit_value": "10",
                                          "bonuses": "on", "side_oro": "5"})
        end = self.version + budget - 1
        while self.version < end and self.left() > 0:
            winner = self.rnd.choice(seats + [None])
            hand: dict = {"winner": winner}
            if winner and self.rnd.random() < 0.3:
                hand["mico"] = 1
            if winner and self.rnd.random() < 0.3:
                hand["arriba"] = [self.rnd.choice([p for p in seats if p != winner])]
            if self.rnd.random() < 0.3:
                joined = self.rnd.sample(seats, 2)
                hand["side"] = {"oro": {"joined": joined, "winner": self.rnd.choice(joined + [None])}}
            if not self.action(gi, {"type": "hand", "hand": hand}):
                if not self.action(gi, {"type": "hand", "hand": {"winner": winner}}):
                    return
        if "end_series" in (self.state(gi).get("legal") or []) and self.left() > 0:
            self.action(gi, {"type": "end_series"})


def build_template(db, n: int, per_session: int) -> int:
    rnd = random.Random(1000 + n)
    players = rnd.sample(POOL, rnd.choice([4, 4, 5, 6]))
    doc = {"format": "companion-session/1", "name": f"Template {n}", "currency": "EUR", "players": players,
           "started": "2026-01-01T21:00:00+01:00", "games": []}
    sid = store.find(db, store.create(db, doc, location=lambda edit: edit).location)[0]["id"]
    p = Player(db, sid, rnd, per_session)
    plans = [["mus"], ["newmarket"], ["desmoche"], ["mus", "desmoche"], ["newmarket", "mus"],
             ["desmoche", "newmarket", "mus"]][n % 6]
    plans = [k for k in plans if k in kinds.KINDS] or list(kinds.KINDS)
    for i, kind in enumerate(plans):
        budget = p.left() // (len(plans) - i) if i < len(plans) - 1 else p.left() - 3
        if kind == "mus":
            p.mus(players[:4], budget)
        elif kind == "newmarket":
            p.newmarket(players[: rnd.choice([3, 4, len(players)])], budget)
        else:
            p.desmoche(players[: rnd.choice([2, 3, 4])], budget)
    # fill up: more Desmoche hands (or Mus when Desmoche is missing), then settle-up events
    while p.left() > 3:
        before = p.version
        if "desmoche" in kinds.KINDS:
            p.desmoche(players[:3], p.left() - 2)
        else:
            p.mus(players[:4], p.left() - 2)
        if p.version == before:
            break
    state = store.compute_state(p.doc())
    if p.left() > 0:
        p.write("banker", {"banker": players[0]} if n % 4 == 0 else {"banker": None})
    payments = store.compute_state(p.doc())["settle"]["payments"]
    while p.left() > 0:
        if payments:
            pay = payments[(p.version) % len(payments)]
            p.write("paid", {"payment": pay, "paid": p.version % 3 != 0})
        else:
            p.write("rename", {"name": f"Template {n} · {p.version}"})
    del state
    return sid


# ----------------------------------------------------------------------------------------------------
# replication
# ----------------------------------------------------------------------------------------------------

def replicate(db, templates: list[int], sessions: int) -> None:
    rows = {}
    for sid in templates:
        s = db.execute("SELECT name, created, updated, version, doc, summary FROM sessions WHERE id = ?",
                       [sid]).fetchone()
        ev = db.execute("SELECT seq, type, game, payload, before, created FROM events WHERE session_id = ?"
                        " ORDER BY seq", [sid]).fetchall()
        sp = db.execute("SELECT name, key, net FROM session_players WHERE session_id = ?", [sid]).fetchall()
        sk = db.execute("SELECT kind FROM session_kinds WHERE session_id = ?", [sid]).fetchall()
        rows[sid] = (s, ev, sp, sk)
    places = ["Koldo's", "the txoko", "Ane's", "the bar", "Garazi's", "the beach house", "Mikel's"]
    start = datetime(2022, 1, 7, 21, 0, tzinfo=timezone(timedelta(hours=1)))
    step = timedelta(days=5 * 365) / sessions
    next_id = db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM sessions").fetchone()[0]
    db.execute("BEGIN IMMEDIATE")
    try:
        for i in range(sessions - len(templates)):
            sid = templates[i % len(templates)]
            s, ev, sp, sk = rows[sid]
            started = (start + step * i).isoformat(timespec="seconds")
            name = f"Night {i + 1} at {places[i % len(places)]}"
            doc = json.loads(s[4])
            doc["started"], doc["name"] = started, name
            summary = json.loads(s[5])
            summary["started"] = started
            doc_text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
            new = next_id + i
            db.execute("INSERT INTO sessions(id, name, created, updated, started, edit_token, view_token, version,"
                       " doc, summary) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       [new, name, started, started, started, secrets.token_urlsafe(24), secrets.token_urlsafe(24),
                        s[3], doc_text, json.dumps(summary, ensure_ascii=False, separators=(",", ":"))])
            events = []
            for seq, etype, game, payload, before, _created in ev:
                if etype == "create":
                    first = json.loads(payload)
                    first["doc"]["started"], first["doc"]["name"] = started, name
                    payload = json.dumps(first, ensure_ascii=False, separators=(",", ":"))
                events.append((new, seq, etype, game, payload, before, started))
            db.conn.executemany("INSERT INTO events(session_id, seq, type, game, payload, before, created)"
                           " VALUES (?, ?, ?, ?, ?, ?, ?)", events)
            db.conn.executemany("INSERT INTO session_players(session_id, name, key, net) VALUES (?, ?, ?, ?)",
                           [(new, *r) for r in sp])
            db.conn.executemany("INSERT INTO session_kinds(session_id, kind) VALUES (?, ?)", [(new, *r) for r in sk])
        db.execute("INSERT INTO browsers(browser, session_id, role, opened) SELECT ?, id, 'edit', started"
                   " FROM sessions", [BENCH_BROWSER])
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("ANALYZE")


# ----------------------------------------------------------------------------------------------------
# measuring
# ----------------------------------------------------------------------------------------------------

def timed(client, url: str, runs: int, expect: int = 200) -> list[float]:
    out = []
    headers = {"Accept-Encoding": "gzip"}
    for _ in range(2):  # warm caches (templates, connection pool, page cache)
        resp = client.get(url, headers=headers)
        assert resp.status_code == expect, (url, resp.status_code)
    for _ in range(runs):
        t0 = time.perf_counter()
        resp = client.get(url, headers=headers)
        out.append((time.perf_counter() - t0) * 1000)
        assert resp.status_code == expect, (url, resp.status_code)
    return out


def timed_many(client, urls: list[str], runs: int) -> list[float]:
    out = []
    headers = {"Accept-Encoding": "gzip"}
    for url in urls[:2]:
        client.get(url, headers=headers)
    for i in range(runs):
        url = urls[i % len(urls)]
        t0 = time.perf_counter()
        resp = client.get(url, headers=headers)
        out.append((time.perf_counter() - t0) * 1000)
        assert resp.status_code == 200, (url, resp.status_code)
    return out


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, default=5000)
    ap.add_argument("--events", type=int, default=500_000)
    ap.add_argument("--templates", type=int, default=12)
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--db", help="database file (default: a temporary one)")
    ap.add_argument("--keep", action="store_true", help="keep the database file")
    ap.add_argument("--out", default=os.path.join(HERE, "RESULTS-history.md"))
    args = ap.parse_args()
    per_session = args.events // args.sessions
    tmpdir = tempfile.mkdtemp(prefix="history-bench-")
    path = args.db or os.path.join(tmpdir, "bench.db")
    reuse = os.path.exists(path) and args.db
    init_db(path)
    db = connect(path)
    t0 = time.perf_counter()
    if not reuse:
        templates = []
        for n in range(args.templates):
            templates.append(build_template(db, n, per_session))
            row = db.execute("SELECT version, summary FROM sessions WHERE id = ?", [templates[-1]]).fetchone()
            print(f"template {n + 1}/{args.templates}: {row[0]} events, games "
                  f"{json.loads(row[1]).get('kinds')}", file=sys.stderr)
        t1 = time.perf_counter()
        replicate(db, templates, args.sessions)
        print(f"built in {t1 - t0:.0f} s (templates) + {time.perf_counter() - t1:.0f} s (replication)",
              file=sys.stderr)
    n_sessions = db.execute("SELECT COUNT(*) FROM sessions").fetchone()[0]
    n_events = db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    size_mb = os.path.getsize(path) / 1e6

    app = create_app({"DATABASE": path, "ADMIN_TOKEN": ADMIN, "BASE_URL": "http://bench.example"})
    browser = app.test_client()
    with browser.session_transaction() as sess:
        sess["browser"] = BENCH_BROWSER
    admin = app.test_client()
    admin.get(f"/admin?token={ADMIN}")

    top_key, top_count = db.execute("SELECT key, COUNT(*) c FROM session_players GROUP BY key ORDER BY c DESC"
                                    " LIMIT 1").fetchone()
    rnd = random.Random(5)
    ids = rnd.sample(range(1, n_sessions + 1), 20)
    edit_tokens = [db.execute("SELECT edit_token FROM sessions WHERE id = ?", [i]).fetchone()[0] for i in ids]
    view_tokens = [db.execute("SELECT view_token FROM sessions WHERE id = ?", [i]).fetchone()[0] for i in ids]
    mid_from = db.execute("SELECT substr(started, 1, 10) FROM sessions ORDER BY started LIMIT 1 OFFSET ?",
                          [n_sessions // 2]).fetchone()[0]
    some_name = db.execute("SELECT name FROM session_players WHERE key = ?", [top_key]).fetchone()[0]
    db.conn.close()

    runs = args.runs
    results = [
        ("History list, page 1 (browser that opened every session)", timed(browser, "/history", runs)),
        ("History list, page 1 (admin: all sessions)", timed(admin, "/history", runs)),
        ("History list, page 200 (admin)", timed(admin, "/history?page=200", runs)),
        ("History, search by player", timed(browser, f"/history?q={some_name[:3].lower()}", runs)),
        ("History, game + date filter", timed(browser, f"/history?kind=desmoche&from={mid_from}", runs)),
        (f"Player page ({some_name}: {top_count} sessions)", timed(browser, f"/players/{top_key}", runs)),
        ("Session page /s/<edit> (20 sessions)", timed_many(browser, [f"/s/{t}" for t in edit_tokens], runs)),
        ("Past session, hand by hand /s/<view>/history",
         timed_many(browser, [f"/s/{t}/history" for t in view_tokens], runs)),
        ("Settle page /s/<view>/settle", timed_many(browser, [f"/s/{t}/settle" for t in view_tokens], runs)),
    ]
    lines = [f"Database: {n_sessions:,} sessions, {n_events:,} events, {size_mb:,.0f} MB (SQLite, WAL). "
             f"{runs} requests per row through the Flask test client (gzip), {os.cpu_count()} CPUs, "
             f"Python {sys.version.split()[0]}.",
             "",
             "| page | median ms | p95 ms | aim |",
             "|---|---:|---:|---|"]
    for name, values in results:
        lines.append(f"| {name} | {statistics.median(values):.1f} | {p95(values):.1f} | < 100 |")
    table = "\n".join(lines)
    print(table)
    with open(args.out, "w", encoding="utf-8") as fh:
        fh.write("# History benchmark\n\n`python bench/history_bench.py` "
                 f"(measured {datetime.now().date().isoformat()}).\n\n{table}\n")
    if not args.keep and not args.db:
        for name in os.listdir(tmpdir):
            os.remove(os.path.join(tmpdir, name))
        os.rmdir(tmpdir)


if __name__ == "__main__":
    main()
