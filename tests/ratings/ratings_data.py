"""Hand-made histories for the ratings tests: session documents, and a database built from them
through the real store."""
from companion import service
from companion.record import session as S
from companion.storage import store
from companion.storage.db import connect, init_db


def mus(seats, winners, games_to_win=None):
    """A Mus match decided by tally hands: each winner takes one game with a 40-point tally."""
    rules = {"preset": "pagat"}
    if games_to_win:
        rules["games_to_win"] = games_to_win
    else:
        rules["games_to_win"] = len([w for w in winners if w == winners[-1]])
    return {"kind": "mus", "rules": rules, "seats": list(seats),
            "hands": [{"tally": [{"team": w, "points": 40}]} for w in winners]}


def desmoche(seats, winners, ended=True):
    return {"kind": "desmoche", "rules": {"variant": "desmoche", "stake": 10}, "seats": list(seats),
            "unit_value": 10, "hands": [{"winner": w} for w in winners], "ended": ended}


def doc(name, started, games, players=None):
    if players is None:
        players = sorted({p for g in games for p in g["seats"]})
    return {"format": "companion-session/1", "name": name, "started": started, "currency": "EUR",
            "players": players, "games": games}


def make_db(new_database, docs, name="r.db"):
    """A database (on the test's engine: ``new_database`` is conftest's fixture) holding ``docs``."""
    path = new_database(name)
    init_db(path)
    db = connect(path)
    for d in docs:
        service.create(db, S.load(d), browser="b")
    return db


def rating_rows(db):
    return db.execute("SELECT kind, key, name, mu, sigma, n FROM rt_current ORDER BY kind, key").fetchall()


def season(nights=36, seed=22):
    """A club's season: Mus matches played with cards and bids (checked hand by hand by the Mus engine),
    Desmoche series and Newmarket games among eight players, a night a week."""
    import os
    import random
    import sys

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))
    from history_bench import desmoche_game, mus_game, newmarket_game

    rnd = random.Random(seed)
    club = ["Ane", "Bea", "Carlos", "Dani", "Eneko", "Garazi", "Koldo", "Leire"]
    docs = []
    for i in range(nights):
        players = rnd.sample(club, rnd.choice([4, 5, 6]))
        games = [mus_game(rnd, rnd.sample(players, 4))]
        if i % 3 == 0:
            games.append(desmoche_game(rnd, players[:3]))
        if i % 4 == 1:
            games.append(newmarket_game(rnd, players[:4]))
        month, day = 1 + i // 4, 1 + 7 * (i % 4)
        docs.append(doc(f"{'Txoko league' if i % 2 else 'At Koldo’s'} {i + 1}", f"2026-{month:02d}-{day:02d}T21:00:00+01:00",
                        games, players))
    return docs
