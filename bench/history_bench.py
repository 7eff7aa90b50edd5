"""History benchmark: a database of 5,000 sessions (hands and deals as the store keeps them), then the
history list, a player's page, a session's pages, and the ratings pages measured through the Flask test
client (the whole app: routing, SQL, rule engines, templates, gzip; no network).

How the database is built (fast, yet realistic):
1. A dozen *template* sessions are written as session files with rule-checked random play (Mus matches
   with dealt cards and bids, checked hand by hand by the Mus engine; Newmarket games; Desmoche series)
   and created through ``service.create``, then a few header events through ``service.write``; their rows
   (header, summary, games, items, events, side tables) are exactly what the app writes.
2. The templates are replicated with plain SQL in large transactions: new ids and tokens, names and
   dates spread over five years, and the players renamed by a permutation of a pool of 24 (so that
   ratings, partners and rivals have many different tables to come from).

Ratings (issue 22): the same templates also make a database of 50 sessions; the leaderboard and a
player's ratings page are measured on both, interleaved round by round, and the ratio 5,000 / 50 is
reported (aim: at most 2x). So is the leaderboard's first request after a new result in the latest
night (the incremental refresh).

    python bench/history_bench.py [--sessions 5000] [--small 50] [--runs 40] [--db PATH] [--keep]
                                  [--out bench/RESULTS-history.md]

Prints the tables (median and p95 in ms per page) and writes them to ``--out``.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import secrets
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from companion import create_app, service  # noqa: E402
from companion.record import session as S
from companion.storage import store
from companion.storage.db import connect, init_db  # noqa: E402
from companion.domain.errors import RuleError  # noqa: E402
from companion.kinds.mus.hand import Play, start_state  # noqa: E402
from companion.kinds.mus.kind import ctx_of  # noqa: E402
from companion.kinds.mus.shape import norm_head, norm_item  # noqa: E402
from companion.storage import ratings_store as derived  # noqa: E402

POOL = ["Ane", "Bea", "Carlos", "Dani", "Eneko", "Fermín", "Garazi", "Haritz", "Iñaki", "Jone", "Koldo",
        "Leire", "Mikel", "Nerea", "Oier", "Paula", "Quique", "Rosa", "Sara", "Txema", "Unai", "Vega",
        "Xabi", "Yolanda"]
DECK = list("A234567SCR") * 4
BENCH_BROWSER = "bench-browser"
ADMIN = "bench-admin-token"
NAME_RE = re.compile(r"\b(" + "|".join(POOL) + r")\b")


# ----------------------------------------------------------------------------------------------------
# template sessions: session files with random play the rule engines accept
# ----------------------------------------------------------------------------------------------------

def _steps(rnd: random.Random, first: str) -> list[dict]:
    other = "B" if first == "A" else "A"
    return rnd.choices([
        [],
        [{"team": first, "bet": 2}, {"team": other, "call": True}],
        [{"team": first, "bet": 2}, {"team": other, "fold": True}],
        [{"team": first, "bet": 2}, {"team": other, "raise": 5}, {"team": first, "fold": True}],
        [{"team": first, "bet": 2}, {"team": other, "raise": 4}, {"team": first, "call": True}],
        [{"team": first, "ordago": True}, {"team": other, "fold": True}],
        [{"team": first, "ordago": True}, {"team": other, "call": True}],
    ], weights=[8, 4, 4, 1, 1, 0.5, 0.15])[0]


def mus_game(rnd: random.Random, seats: list[str]) -> dict:
    """A whole match: dealt hands with cards and bids, checked hand by hand by the Mus engine (a hand
    whose bids do not fit its cards is played again without them)."""
    head = norm_head({"kind": "mus", "rules": {"preset": "pagat"}, "seats": seats}, None)
    ctx = ctx_of(head)
    state, hands = start_state(), []
    while not state["match_winner"] and len(hands) < 200:
        deck = DECK[:]
        rnd.shuffle(deck)
        cards = {p: "".join(deck[i * 4:i * 4 + 4]) for i, p in enumerate(seats)}
        hand = {"cards": cards}
        for lance in ("grande", "chica", "pares", "juego"):
            hand[lance] = _steps(rnd, rnd.choice("AB"))
        tries = [hand, {**hand, "pares": [], "juego": []},
                 {"cards": cards, "grande": [], "chica": [], "pares": [], "juego": []}]
        for item in tries:
            try:
                play = Play(ctx, state, norm_item(item, "h", seats, ctx.kings), "h", True).run()
            except RuleError:
                continue
            state = play.state
            hands.append({k: v for k, v in item.items() if v != []})
            break
    return {**head, "hands": hands}


def newmarket_game(rnd: random.Random, seats: list[str]) -> dict:
    deals = []
    for _ in range(rnd.randint(4, 10)):
        out = rnd.choice(seats)
        deals.append({"out": out, "cards_left": {p: rnd.randint(0, 7) for p in seats if p != out}})
    return {"kind": "newmarket", "rules": {"variant": "classic"}, "seats": seats, "start_chips": 30,
            "chip_value": 10, "deals": deals, "ended": True}


def desmoche_game(rnd: random.Random, seats: list[str]) -> dict:
    hands = [{"winner": rnd.choice(seats + [None])} for _ in range(rnd.randint(6, 20))]
    return {"kind": "desmoche", "rules": {"variant": "desmoche", "stake": 10}, "seats": seats,
            "unit_value": 10, "hands": hands, "ended": True}


def build_template(db, n: int) -> int:
    rnd = random.Random(1000 + n)
    players = rnd.sample(POOL, rnd.choice([4, 4, 5, 6]))
    plans = [["mus"], ["newmarket"], ["desmoche"], ["mus", "desmoche"], ["newmarket", "mus"],
             ["desmoche", "newmarket", "mus"]][n % 6]
    games = []
    for kind in plans:
        if kind == "mus":
            games.append(mus_game(rnd, rnd.sample(players, 4)))
        elif kind == "newmarket":
            games.append(newmarket_game(rnd, players[: rnd.choice([3, 4, len(players)])]))
        else:
            games.append(desmoche_game(rnd, players[: rnd.choice([2, 3, 4])]))
    doc = {"format": "companion-session/1", "name": f"Template {n}", "currency": "EUR", "players": players,
           "started": "2026-01-01T21:00:00+01:00", "games": games}
    sid = store.find(db, service.create(db, S.load(doc), browser=BENCH_BROWSER).location)[0]["id"]
    for k in range(3):   # a few events after the create (renames), as a night's header changes
        service.write(db, store.session(db, sid), "rename", {"name": f"Template {n} · {k}"}, browser=BENCH_BROWSER, key=None,
                    seen_version=None, location="")
    return sid


# ----------------------------------------------------------------------------------------------------
# replication
# ----------------------------------------------------------------------------------------------------

def _rows(db, table: str, sid: int) -> tuple[list[str], list[tuple]]:
    cols = [r[1] for r in db.execute(f"PRAGMA table_info({table})").fetchall()]
    key = "id" if table == "sessions" else "session_id"
    return cols, db.execute(f"SELECT * FROM {table} WHERE {key} = ?", [sid]).fetchall()


def replicate(db, templates: list[int], sessions: int, seed: int = 7) -> None:
    """Copies of the templates up to ``sessions`` in all: every table a session has rows in."""
    tables = ("sessions", "games", "items", "events", "session_players", "session_kinds")
    rows = {sid: {t: _rows(db, t, sid) for t in tables} for sid in templates}
    places = ["Koldo's", "the txoko", "Ane's", "the bar", "Garazi's", "the beach house", "Mikel's"]
    start = datetime(2022, 1, 7, 21, 0, tzinfo=timezone(timedelta(hours=1)))
    step = timedelta(days=5 * 365) / sessions
    rnd = random.Random(seed)
    next_id = db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM sessions").fetchone()[0]
    db.execute("BEGIN IMMEDIATE")
    try:
        for i in range(sessions - len(templates)):
            tpl = rows[templates[i % len(templates)]]
            started = (start + step * i).isoformat(timespec="seconds")
            name = f"Night {i + 1} at {places[i % len(places)]}"
            shuffled = POOL[:]
            rnd.shuffle(shuffled)
            swap = dict(zip(POOL, shuffled))

            def rename(value):
                return NAME_RE.sub(lambda m: swap[m.group(1)], value) if isinstance(value, str) else value

            new = next_id + i
            for table in tables:
                cols, data = tpl[table]
                out = []
                for row in data:
                    row = dict(zip(cols, row))
                    for c in cols:
                        row[c] = rename(row[c])
                    if table == "sessions":
                        header = json.loads(row["header"])
                        header["started"], header["name"] = started, name
                        summary = json.loads(row["summary"])
                        summary["started"] = started
                        row.update(id=new, name=name, created=started, updated=started, started=started,
                                   edit_token=secrets.token_urlsafe(24), view_token=secrets.token_urlsafe(24),
                                   header=json.dumps(header, ensure_ascii=False), summary=json.dumps(summary, ensure_ascii=False))
                    else:
                        row["session_id"] = new
                        if table == "session_players":
                            row["key"] = S.player_key(row["name"])
                        if table == "events":
                            row.pop("id", None)
                            row["created"] = started
                    out.append(row)
                if out:
                    names = list(out[0])
                    db.conn.executemany(f"INSERT INTO {table}({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
                                        [[r[c] for c in names] for r in out])
        db.execute("INSERT OR IGNORE INTO browsers(browser, session_id, role, opened, gen)"
                   " SELECT ?, id, 'edit', started, edit_gen FROM sessions", [BENCH_BROWSER])
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


def build(path: str, sessions: int, templates: int) -> None:
    init_db(path)
    db = connect(path)
    t0 = time.perf_counter()
    made = [build_template(db, n) for n in range(templates)]
    t1 = time.perf_counter()
    replicate(db, made, sessions)
    print(f"{path}: built in {t1 - t0:.0f} s (templates) + {time.perf_counter() - t1:.0f} s (replication)",
          file=sys.stderr)
    db.conn.close()


def clients(path: str):
    app = create_app({"DATABASE": path, "ADMIN_TOKEN": ADMIN, "BASE_URL": "http://bench.example"})
    browser = app.test_client()
    with browser.session_transaction() as sess:
        sess["browser"] = BENCH_BROWSER
    admin = app.test_client()
    admin.get(f"/admin?token={ADMIN}")
    return browser, admin


def top_player(path: str) -> tuple[str, str, int]:
    db = connect(path)
    key, count = db.execute("SELECT key, COUNT(*) c FROM session_players GROUP BY key ORDER BY c DESC, key"
                            " LIMIT 1").fetchone()
    name = db.execute("SELECT name FROM session_players WHERE key = ?", [key]).fetchone()[0]
    db.conn.close()
    return key, name, count


def one(client, url: str) -> float:
    t0 = time.perf_counter()
    resp = client.get(url, headers={"Accept-Encoding": "gzip"})
    took = (time.perf_counter() - t0) * 1000
    assert resp.status_code == 200, (url, resp.status_code)
    return took


def new_result(path: str, rnd: random.Random) -> None:
    """A Desmoche series ends in the latest night (as it would at the table tonight)."""
    db = connect(path)
    sid, players = db.execute("SELECT id, header FROM sessions ORDER BY started DESC, id DESC LIMIT 1").fetchone()
    seats = json.loads(players)["players"][:3]
    service.write(db, store.session(db, sid), "add_game", {"game": desmoche_game(rnd, seats)}, browser=BENCH_BROWSER, key=None,
                seen_version=None, location="")
    db.conn.close()


def ratings_rounds(small: str, large: str, runs: int) -> tuple[list[tuple], float]:
    """The ratings pages on both databases, interleaved round by round (the same load on both)."""
    cs, _ = clients(small)
    cl, _ = clients(large)
    first_build = 0.0
    for path in (large, small):      # the first build of the ratings tables, from every session
        db = connect(path)
        t0 = time.perf_counter()
        derived.refresh(db)
        first_build = first_build or time.perf_counter() - t0
        db.conn.close()
    ks, ns, _ = top_player(small)
    kl, nl, _ = top_player(large)
    pages = [("Leaderboard /ratings (Mus)", "/ratings", "/ratings"),
             ("Leaderboard, Desmoche", "/ratings?kind=desmoche", "/ratings?kind=desmoche"),
             ("Player's ratings page", f"/ratings/players/{ks}", f"/ratings/players/{kl}"),
             ("Head-to-head", f"/ratings/h2h?a={ns}&b=Ane" if ns != "Ane" else f"/ratings/h2h?a={ns}&b=Bea",
              f"/ratings/h2h?a={nl}&b=Ane" if nl != "Ane" else f"/ratings/h2h?a={nl}&b=Bea")]
    times = {name: ([], []) for name, _a, _b in pages}
    fresh = ([], [])
    rnd_s, rnd_l = random.Random(1), random.Random(1)
    for name, a, b in pages:   # warm
        one(cs, a), one(cl, b)
    for r in range(runs):
        for name, a, b in pages:
            times[name][0].append(one(cs, a))
            times[name][1].append(one(cl, b))
        if r % 4 == 0:             # a new result, then the leaderboard's first request (incremental)
            new_result(small, rnd_s)
            fresh[0].append(one(cs, "/ratings"))
            new_result(large, rnd_l)
            fresh[1].append(one(cl, "/ratings"))
    # the ratio: the median of each round's ratio (both measured back to back), steadier than a ratio of
    # medians when other work on the machine comes and goes
    rows = [(name, statistics.median(s), statistics.median(lg), statistics.median(b / a for a, b in zip(s, lg)))
            for name, (s, lg) in times.items()]
    rows.append(("Leaderboard right after a new result tonight", statistics.median(fresh[0]),
                 statistics.median(fresh[1]), statistics.median(b / a for a, b in zip(*fresh))))
    return rows, first_build


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, default=5000)
    ap.add_argument("--small", type=int, default=50)
    ap.add_argument("--templates", type=int, default=12)
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--db", help="the large database file (default: a temporary one; reused if it exists)")
    ap.add_argument("--keep", action="store_true", help="keep the database files")
    ap.add_argument("--out", default=os.path.join(HERE, "RESULTS-history.md"))
    args = ap.parse_args()
    tmpdir = tempfile.mkdtemp(prefix="history-bench-")
    path = args.db or os.path.join(tmpdir, "bench.db")
    small = os.path.join(tmpdir, "small.db")
    if not (args.db and os.path.exists(path)):
        build(path, args.sessions, args.templates)
    build(small, args.small, args.templates)

    db = connect(path)
    n_sessions = db.execute("SELECT COUNT(*) FROM sessions").fetchone()[0]
    n_events = db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    n_items = db.execute("SELECT COUNT(*) FROM items").fetchone()[0]
    rnd = random.Random(5)
    ids = rnd.sample(range(1, n_sessions + 1), 20)
    edit_tokens = [db.execute("SELECT edit_token FROM sessions WHERE id = ?", [i]).fetchone()[0] for i in ids]
    view_tokens = [db.execute("SELECT view_token FROM sessions WHERE id = ?", [i]).fetchone()[0] for i in ids]
    mid_from = db.execute("SELECT substr(started, 1, 10) FROM sessions ORDER BY started LIMIT 1 OFFSET ?",
                          [n_sessions // 2]).fetchone()[0]
    db.conn.close()
    top_key, some_name, top_count = top_player(path)
    browser, admin = clients(path)

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
    size_mb = os.path.getsize(path) / 1e6
    lines = [f"Database: {n_sessions:,} sessions, {n_items:,} hands and deals, {n_events:,} events, "
             f"{size_mb:,.0f} MB (SQLite, WAL). {runs} requests per row through the Flask test client (gzip), "
             f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}.",
             "",
             "| page | median ms | p95 ms | aim |",
             "|---|---:|---:|---|"]
    for name, values in results:
        lines.append(f"| {name} | {statistics.median(values):.1f} | {p95(values):.1f} | < 100 |")
    rrows, first_build = ratings_rounds(small, path, runs)
    lines += ["", f"Ratings (issue 22): the same pages on {args.small} and on {n_sessions:,} sessions, interleaved "
              f"round by round ({runs} rounds; the new-result row: every 4th round). Median ms; the ratio is the "
              f"median of the rounds' ratios. Building the "
              f"ratings tables from every session of the large database took {first_build:.0f} s "
              "(once; afterwards only what changed is read again).",
              "",
              f"| page | {args.small} sessions | {n_sessions:,} sessions | ratio | aim |",
              "|---|---:|---:|---:|---|"]
    for name, a, b, ratio in rrows:
        lines.append(f"| {name} | {a:.1f} | {b:.1f} | {ratio:.2f}x | <= 2x |")
    table = "\n".join(lines)
    print(table)
    with open(args.out, "w", encoding="utf-8") as fh:
        fh.write("# History benchmark\n\n`python bench/history_bench.py` "
                 f"(measured {datetime.now().date().isoformat()}).\n\n{table}\n")
    if not args.keep:
        for name in os.listdir(tmpdir):
            os.remove(os.path.join(tmpdir, name))
        os.rmdir(tmpdir)


if __name__ == "__main__":
    main()
