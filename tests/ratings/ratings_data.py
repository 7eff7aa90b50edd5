"""Hand-made histories for the ratings tests: session documents, and a database built from them
through the real store."""
from companion import session as S, store
from companion.db import connect, init_db


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


def make_db(tmp_path, docs, name="r.db"):
    path = str(tmp_path / name)
    init_db(path)
    db = connect(path)
    for d in docs:
        store.create(db, S.load(d), browser="b")
    return db


def rating_rows(db):
    return db.execute("SELECT kind, key, name, mu, sigma, n FROM rt_current ORDER BY kind, key").fetchall()
