"""Ratings: the library's own results, date order, import order, corrections."""
import random

from openskill.models import PlackettLuce

from companion import service
from companion.storage import store
from companion.kinds.mus.actions import ReplaceHand
from companion.storage import ratings_store as derived
from ratings_data import desmoche, doc, make_db, mus, rating_rows

A4 = ("Ane", "Bea", "Carlos", "Dani")


def history():
    return [
        doc("One", "2026-01-05T20:00:00+01:00", [mus(A4, ["A"]), desmoche(("Ane", "Eneko", "Bea"), ["Eneko", "Eneko", "Ane"])]),
        doc("Two", "2026-01-12T20:00:00+01:00", [mus(("Ane", "Carlos", "Bea", "Dani"), ["B"])]),
        doc("Three", "2026-01-19T20:00:00+01:00", [mus(A4, ["B", "A", "B"], games_to_win=2)]),
        doc("Same time X", "2026-01-26T20:00:00+01:00", [mus(("Eneko", "Bea", "Carlos", "Dani"), ["A"])]),
        doc("Same time Y", "2026-01-26T20:00:00+01:00", [mus(("Eneko", "Dani", "Carlos", "Bea"), ["B"])]),
    ]


def test_ratings_equal_the_librarys_own_results(new_database):
    db = make_db(new_database, history())
    derived.refresh(db)
    model = PlackettLuce()
    r = {k: model.rating() for k in ("ane", "bea", "carlos", "dani", "eneko")}

    def team_match(a, b, ranks):
        new = model.rate([[r[a[0]], r[a[1]]], [r[b[0]], r[b[1]]]], ranks=ranks)
        r[a[0]], r[a[1]] = new[0]
        r[b[0]], r[b[1]] = new[1]

    team_match(("ane", "carlos"), ("bea", "dani"), [1, 2])
    # Desmoche (rated apart): Eneko won two pots, Ane one: nets +300, 0, -300 rank Eneko, Ane, Bea
    new = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[2, 1, 3])
    r_des = {"ane": new[0][0], "eneko": new[1][0], "bea": new[2][0]}
    team_match(("ane", "bea"), ("carlos", "dani"), [2, 1])
    team_match(("ane", "carlos"), ("bea", "dani"), [2, 1])
    # the two sessions that start together are taken in the order of their content's digest
    x = (("eneko", "carlos"), ("bea", "dani"), [1, 2])
    y = (("eneko", "carlos"), ("dani", "bea"), [2, 1])
    ords = dict(db.execute("SELECT s.name, c.ord FROM rt_contests c JOIN sessions s ON s.id = c.session_id").fetchall())
    for a, b, ranks in (sorted([x, y], key=lambda m: ords["Same time X" if m is x else "Same time Y"])):
        team_match(a, b, ranks)
    got = {(k, key): (mu, sigma, n) for k, key, _name, mu, sigma, n in rating_rows(db)}
    for key, rating in r.items():
        assert got[("mus", key)][:2] == (rating.mu, rating.sigma), key
    for key, rating in r_des.items():
        assert got[("desmoche", key)] == (rating.mu, rating.sigma, 1)
    assert got[("mus", "ane")][2] == 3 and got[("mus", "eneko")][2] == 2
    # the pair as one entity: Ane & Carlos beat Bea & Dani, then lost to them
    p = {"ane|carlos": model.rating(), "bea|dani": model.rating(), "ane|bea": model.rating(),
         "carlos|dani": model.rating()}
    for a, b, ranks in (("ane|carlos", "bea|dani", [1, 2]), ("ane|bea", "carlos|dani", [2, 1]),
                        ("ane|carlos", "bea|dani", [2, 1])):
        (p[a],), (p[b],) = model.rate([[p[a]], [p[b]]], ranks=ranks)
    for key in ("ane|carlos", "ane|bea"):
        assert got[("mus-pair", key)][:2] == (p[key].mu, p[key].sigma)
    assert got[("mus-pair", "ane|carlos")][2] == 2


def test_same_ratings_whatever_the_import_order(new_database):
    docs = history()
    base = rating_rows(_rated(make_db(new_database, docs, "a.db")))
    for seed in range(3):
        shuffled = docs[:]
        random.Random(seed).shuffle(shuffled)
        assert rating_rows(_rated(make_db(new_database, shuffled, f"s{seed}.db"))) == base


def _rated(db):
    derived.refresh(db)
    return db


def test_incremental_equals_a_rebuild_from_scratch(new_database):
    docs = history()
    db = make_db(new_database, docs[:2])
    derived.refresh(db)
    from companion.record import session as S
    for d in docs[2:]:
        service.create(db, S.load(d), browser="b")
        derived.refresh(db)
    incremental = rating_rows(db)
    history_rows = db.execute("SELECT * FROM rt_history ORDER BY kind, key, ord").fetchall()
    db.execute("DELETE FROM meta WHERE key = 'ratings_schema'")   # forces a rebuild
    derived.refresh(db)
    assert rating_rows(db) == incremental
    assert db.execute("SELECT * FROM rt_history ORDER BY kind, key, ord").fetchall() == history_rows


def test_correcting_an_old_hand_recomputes(new_database):
    db = make_db(new_database, history())
    derived.refresh(db)
    before = rating_rows(db)
    sid = db.execute("SELECT id FROM sessions WHERE name = 'One'").fetchone()[0]
    # the first night's match: team B won the hand after all
    fix = ReplaceHand(index=0, hand={"tally": [{"team": "B", "points": 40}]})
    service.write(db, store.session(db, sid), "game", {"game": 0, "action": fix}, browser="b", key=None, seen_version=None, location="")
    assert derived.refresh(db) == 1
    after = rating_rows(db)
    assert after != before
    fresh = make_db(new_database, [_flipped(history())[0], *history()[1:]], "fresh.db")
    derived.refresh(fresh)
    assert after == rating_rows(fresh)


def _flipped(docs):
    docs[0]["games"][0]["hands"][0]["tally"][0]["team"] = "B"
    return docs


def test_unfinished_games_count_for_nothing(new_database):
    db = make_db(new_database, [doc("Open", "2026-02-01", [mus(A4, ["A"], games_to_win=2),
                                                       desmoche(("Ane", "Bea"), ["Ane"], ended=False)])])
    derived.refresh(db)
    assert rating_rows(db) == []
    assert derived.refresh(db) == 0     # nothing dirty: nothing read again


def test_ties_share_the_rank(new_database):
    db = make_db(new_database, [doc("Tie", "2026-02-01", [desmoche(("Ane", "Bea", "Carlos"), ["Ane", "Bea"])])])
    derived.refresh(db)
    rows = {key: (mu, sigma) for _k, key, _n, mu, sigma, _c in rating_rows(db)}
    model = PlackettLuce()
    new = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[1, 1, 3])
    assert rows["ane"] == rows["bea"] == (new[0][0].mu, new[0][0].sigma)


def test_the_monthly_chart_rows_follow_corrections(new_database):
    docs = history()
    for d, day in zip(docs[1:], ("2026-02-02", "2026-02-16", "2026-02-26", "2026-02-26")):
        d["started"] = day + d["started"][10:]
    db = make_db(new_database, docs)
    derived.refresh(db)
    sid = db.execute("SELECT id FROM sessions WHERE name = 'Three'").fetchone()[0]
    fix = ReplaceHand(index=2, hand={"tally": [{"team": "A", "points": 40}]})   # mid-February
    service.write(db, store.session(db, sid), "game", {"game": 0, "action": fix}, browser="b", key=None, seen_version=None, location="")
    derived.refresh(db)
    monthly = db.execute("SELECT kind, key, month, mu, sigma, n FROM rt_monthly ORDER BY 1, 2, 3").fetchall()
    last = db.execute("SELECT kind, key, substr(ord, 1, 7), mu, sigma, n FROM rt_history h WHERE ord ="
                      " (SELECT MAX(ord) FROM rt_history WHERE kind = h.kind AND key = h.key"
                      "  AND substr(ord, 1, 7) = substr(h.ord, 1, 7)) ORDER BY 1, 2, 3").fetchall()
    assert monthly == last
    assert {m for _k, _key, m, *_ in monthly} == {"2026-01", "2026-02"}


def test_small_steps_rate_as_one_big_step(new_database, monkeypatch):
    """Shares replaced a few sessions at a time and contests replayed a few at a time (short write
    locks) give exactly the ratings of one pass."""
    docs = history()
    whole = make_db(new_database, docs, "whole.db")
    derived.refresh(whole)
    monkeypatch.setattr(derived, "SESSIONS_PER_LOCK", 2)
    monkeypatch.setattr(derived, "CONTESTS_PER_LOCK", 1)
    steps = make_db(new_database, docs, "steps.db")
    assert derived.refresh(steps) == len(docs)
    assert rating_rows(steps) == rating_rows(whole)
    assert steps.execute("SELECT * FROM rt_monthly ORDER BY 1, 2, 3").fetchall() == \
        whole.execute("SELECT * FROM rt_monthly ORDER BY 1, 2, 3").fetchall()


def test_a_write_during_the_read_keeps_the_session_dirty(new_database, monkeypatch):
    """A tap that lands between the read of a session and the replacement of its share leaves the
    session dirty: it is read again, nothing is missed."""
    db = make_db(new_database, history()[:1])
    real_read = derived._read
    reads = []

    def read_then_a_tap_lands(db_, sid):
        out = real_read(db_, sid)
        reads.append(sid)
        if len(reads) == 1:
            db_.execute("UPDATE sessions SET version = version + 1 WHERE id = ?", [sid])
        return out

    monkeypatch.setattr(derived, "_read", read_then_a_tap_lands)
    assert derived.refresh(db) == 2
    assert len(reads) == 2 and reads[0] == reads[1]
    assert db.execute("SELECT COUNT(*) FROM rt_dirty").fetchone()[0] == 0


def test_a_rebuild_drops_an_earlier_schemas_derived_tables(new_database):
    """A table an earlier schema kept (``rt_*``, gone from this one) goes when the tables are built again;
    the sessions' own tables stay."""
    db = make_db(new_database, history()[:2])
    derived.refresh(db)
    rated = rating_rows(db)
    db.execute("CREATE TABLE rt_retired (subject TEXT PRIMARY KEY, data TEXT NOT NULL)")
    db.execute("DELETE FROM meta WHERE key = 'ratings_schema'")   # as after an upgrade
    derived.refresh(db)
    names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()} \
        if getattr(db, "dialect", "sqlite") == "sqlite" else {r[0] for r in db.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()").fetchall()}
    assert "rt_retired" not in names and {"sessions", "rt_pairs"} <= names
    assert rating_rows(db) == rated
