"""A club night to look at and to measure: 40 players (the most a session holds), a rotating night in
its second round at 10 Mus tables, plus a Newmarket and a Desmoche table (12 tables on the sala).

    python bench/club_demo.py out.db     # writes the night into a database and prints its links
"""
from __future__ import annotations

import random
import sys
from datetime import datetime, timedelta, timezone

NAMES = ["Ane", "Bea", "Carlos", "Dani", "Eneko", "Fermín", "Gorka", "Hodei", "Iker", "Jone", "Koldo", "Leire",
         "Mikel", "Nerea", "Oier", "Paula", "Quique", "Rosa", "Sara", "Txema", "Unai", "Vera", "Xabi", "Yolanda",
         "Zuriñe", "Aitor", "Begoña", "Cris", "Dolores", "Edu", "Fran", "Garazi", "Haizea", "Iñaki", "Javi",
         "Kepa", "Lore", "Maite", "Nico", "Olatz"]


def _tally(games, current):
    hands = []
    for a, b in games:
        win, lose = ("A", "B") if a > b else ("B", "A")
        pts = {"A": a, "B": b}
        if pts[lose]:
            hands.append({"tally": [{"team": lose, "points": pts[lose]}]})
        hands.append({"tally": [{"team": win, "points": pts[win]}]})
    for t, p in zip("AB", current):
        if p:
            hands.append({"tally": [{"team": t, "points": p}]})
    return hands


def mus_game(seats, rnd, table, games=(), current=(0, 0)):
    return {"kind": "mus", "rules": {"preset": "spanish", "games_to_win": 2}, "seats": list(seats),
            "scoring": "tally", "hands": _tally(games, current), "table": str(table), "round": rnd}


def demo_doc(seed: int = 7, minutes_in: int = 46) -> dict:
    rng = random.Random(seed)
    players = NAMES[:40]
    games = []
    order = list(players)
    for t in range(10):                       # round 1: finished
        seats = order[4 * t:4 * t + 4]
        a_first = rng.random() < .5
        res = [(40, rng.randrange(10, 39)), (rng.randrange(10, 39), 40), (40, rng.randrange(10, 39))][:rng.choice([2, 3])]
        if len(res) == 2:
            res[1] = (40, res[1][0])
        if not a_first:
            res = [(b, a) for a, b in res]
        games.append(mus_game(seats, 1, t + 1, res))
    from companion.club.proposals import propose
    from companion.club.results import round_matches
    from companion.record.session import load, state_of

    club = {"format": "rotating", "kind": "mus", "minutes": 50, "rounds": 4,
            "mus": {"rules": {"preset": "spanish"}, "scoring": "tally"}}
    doc = {"format": "companion-session/1", "name": "Liga de mus · noche 3", "players": players,
           "currency": "EUR", "club": club, "games": games}
    sess = load(doc)
    st = state_of(sess)
    plan = propose(club, players, round_matches([g.head for g in sess.games], st["games"]), 2)
    for t, tb in enumerate(plan.tables):     # round 2: in play
        won = rng.choice([(), ((40, rng.randrange(5, 35)),), ((rng.randrange(5, 35), 40),)])
        cur = (rng.randrange(0, 39), rng.randrange(0, 39))
        if t == 2:
            cur = (36, 22)                    # DENTRO
        games.append(mus_game(plan.seats(tb), 2, t + 1, won, cur))
    games.append({"kind": "newmarket", "rules": {"variant": "classic", "ante": 1}, "seats": players[:4],
                  "start_chips": 20, "chip_value": 10, "table": "11",
                  "deals": [{"out": "Bea", "cards_left": {"Ane": 3, "Carlos": 5, "Dani": 1}}]})
    games.append({"kind": "desmoche", "rules": {"variant": "desmoche", "stake": 10}, "seats": players[4:7],
                  "unit_value": 10, "table": "12", "hands": [{"winner": None}, {"winner": "Fermín"}, {"winner": None}]})
    start = datetime.now(timezone.utc) - timedelta(minutes=minutes_in)
    club["clock"] = {"1": (start - timedelta(minutes=55)).isoformat(timespec="seconds"),
                     "2": start.isoformat(timespec="seconds")}
    return doc


def write_db(path: str, doc: dict | None = None) -> dict:
    """The night in a database at ``path``: {"edit", "view", "tables": {label: token}}."""
    from companion.storage.db import connect, init_db
    from companion.record.session import load
    from companion import service
    from companion.web import club_links

    init_db(path)
    db = connect(path)
    doc = doc or demo_doc()
    written = service.create(db, load(doc), browser="demo")
    sid = db.execute("SELECT max(id) FROM sessions").fetchone()[0]
    row = db.execute("SELECT edit_token, view_token FROM sessions WHERE id = ?", [sid]).fetchone()
    doc = doc or {}
    labels = sorted({str(g["table"]) for g in doc.get("games", []) if g.get("table")}, key=int) or \
        [str(i) for i in range(1, 13)]
    tables = club_links.ensure(db, sid, labels)
    del written
    return {"id": sid, "edit": row[0], "view": row[1], "tables": tables}


if __name__ == "__main__":
    print(write_db(sys.argv[1]))


def bench_doc(tables: int = 40, hands: int = 6, seed: int = 3) -> dict:
    """A free club night with ``tables`` Mus tables in play, 4 players of its own at each (a session with
    a club holds up to 400 players: 40 tables are 160 players), each match a few tally hands in."""
    rng = random.Random(seed)
    players = [NAMES[i % 40] if i < 40 else f"{NAMES[i % 40]} {i // 40 + 1}" for i in range(4 * tables)]
    games = []
    for t in range(tables):
        seats = players[4 * t:4 * t + 4]
        game = mus_game(seats, 1, t + 1)
        game["hands"] = [{"tally": [{"team": rng.choice("AB"), "points": rng.randint(1, 5)}]} for _ in range(hands)]
        games.append(game)
    return {"format": "companion-session/1", "name": "Bench night", "players": players,
            "club": {"format": "free", "minutes": 50, "clock": {"1": datetime.now(timezone.utc).isoformat(timespec="seconds")}},
            "games": games}
