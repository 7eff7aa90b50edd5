"""The leaderboard: per kind, a date range, a club's nights (by session name), pairs, CSV; bad filters."""
import csv
import io

from ratings_data import desmoche, doc, mus
from webutil import load_docs

A_C_vs_B_D = ("Ane", "Bea", "Carlos", "Dani")
HISTORY = [
    doc("Txoko league 1", "2026-04-01T20:00", [mus(A_C_vs_B_D, ["A"])]),
    doc("Txoko league 2", "2026-04-08T20:00", [mus(A_C_vs_B_D, ["A"])]),
    doc("At home", "2026-05-01T20:00", [mus(A_C_vs_B_D, ["B"]), desmoche(("Ane", "Bea"), ["Bea"])]),
    doc("At home again", "2026-05-08T20:00", [mus(A_C_vs_B_D, ["B"])]),
]


def board_csv(client, query=""):
    resp = client.get("/ratings.csv" + query)
    assert resp.status_code == 200 and resp.mimetype == "text/csv"
    return list(csv.DictReader(io.StringIO(resp.get_data(as_text=True).lstrip("\ufeff"))))


def test_all_time_board_and_pairs(client, app):
    load_docs(app, client, HISTORY)
    rows = board_csv(client)
    players = [r for r in rows if r["board"] == "players"]
    assert {r["player"] for r in players} == {"Ane", "Bea", "Carlos", "Dani"}
    assert all(r["games"] == "4" and r["provisional"] == "yes" for r in players)
    # best first
    assert [float(r["rating"]) for r in players] == sorted((float(r["rating"]) for r in players), reverse=True)
    pairs = [r for r in rows if r["board"] == "pairs"]
    assert {r["player"] for r in pairs} == {"Ane & Carlos", "Bea & Dani"}


def test_a_date_range_rates_those_games_alone(client, app):
    load_docs(app, client, HISTORY)
    rows = board_csv(client, "?from=2026-04-01&to=2026-04-30")
    players = {r["player"]: r for r in rows if r["board"] == "players"}
    assert players["Ane"]["games"] == "2" and players["Ane"]["rank"] in ("1", "2")
    assert float(players["Ane"]["rating"]) > float(players["Bea"]["rating"])
    may = {r["player"]: r for r in board_csv(client, "?from=2026-05-01") if r["board"] == "players"}
    assert float(may["Bea"]["rating"]) > float(may["Ane"]["rating"])


def test_a_clubs_sessions(client, app):
    load_docs(app, client, HISTORY)
    rows = {r["player"]: r for r in board_csv(client, "?q=txoko") if r["board"] == "players"}
    assert rows["Carlos"]["games"] == "2" and float(rows["Carlos"]["rating"]) > float(rows["Dani"]["rating"])


def test_other_kinds(client, app):
    load_docs(app, client, HISTORY)
    rows = board_csv(client, "?kind=desmoche")
    assert [(r["rank"], r["player"]) for r in rows] == [("1", "Bea"), ("2", "Ane")]
    page = client.get("/ratings?kind=desmoche").get_data(as_text=True)
    assert "Bea" in page and "Mus pairs" not in page


def test_bad_filters_say_so_beside_the_field(client, app):
    load_docs(app, client, HISTORY)
    resp = client.get("/ratings?kind=poker&from=yesterday&to=2026-01-01")
    assert resp.status_code == 422
    page = resp.get_data(as_text=True)
    assert "Choose one of the games offered." in page and "A date like 2026-11-20" in page
    resp = client.get("/ratings?from=2026-05-01&to=2026-04-01")
    assert resp.status_code == 422 and "The end date is before the start date." in resp.get_data(as_text=True)


def test_numbers_csv_and_links(client, app):
    load_docs(app, client, HISTORY)
    resp = client.get("/ratings/players/ane/numbers.csv")
    rows = list(csv.DictReader(io.StringIO(resp.get_data(as_text=True).lstrip("\ufeff"))))
    assert {"subject": "Ane", "figure": "games_from_dentro", "value": "0", "of": "2", "rests_on": "2",
            "basis": "games"} in rows
    assert any(r["subject"] == "Ane & Carlos" for r in rows)
    assert any(r["figure"] == "rating_mus" and r["rests_on"] == "4" for r in rows)
    assert "/ratings/players/ane" in client.get("/players/ane").get_data(as_text=True)
    assert "/ratings" in client.get("/history").get_data(as_text=True)
    assert client.get("/ratings/players/Ane").status_code == 301
    assert client.get("/ratings/players/nobody").status_code == 404


def test_a_new_night_moves_the_board_without_rereading_the_rest(client, app):
    from companion import service
    from companion.record import session as S
    from companion.storage import store
    from companion.storage import ratings_store as derived

    db = load_docs(app, client, HISTORY)
    client.get("/ratings")
    browser = db.execute("SELECT browser FROM browsers LIMIT 1").fetchone()[0]
    service.create(db, S.load(doc("Late", "2026-06-01T20:00", [mus(A_C_vs_B_D, ["A"])])), browser=browser)
    assert derived.refresh(db) == 1
    rows = {r["player"]: r for r in board_csv(client) if r["board"] == "players"}
    assert rows["Ane"]["games"] == "5" and rows["Ane"]["provisional"] == "no"


NASTY = ["", "\u0000", "%", "_", "\\", "x" * 300, "💥", "é\u202e", "[" * 500, "9999-99-99", "2026-02-30", "-1",
         "9999-12-31", "0001-01-01"]


def test_odd_input_never_answers_500(client, app):
    load_docs(app, client, HISTORY)
    for value in NASTY:
        for url, field in (("/ratings", "q"), ("/ratings", "from"), ("/ratings", "kind"), ("/ratings.csv", "to"),
                           ("/ratings/h2h", "a"), ("/ratings/h2h", "b")):
            resp = client.get(url, query_string={field: value, "a": "Ane"} if field == "b" else {field: value})
            assert resp.status_code in (200, 422), (url, field, value, resp.status_code)
        resp = client.get("/ratings/players/" + (value or "x").replace("/", ""))
        assert resp.status_code in (301, 404, 200), (value, resp.status_code)


def test_a_long_first_count_says_wait_and_catches_up(client, app, monkeypatch):
    from companion.storage import ratings_store as derived
    from companion.web import ratings as web

    load_docs(app, client, HISTORY)
    monkeypatch.setattr(web, "REFRESH_BUDGET", 0.0)       # one step per page: a session read, or a replay
    monkeypatch.setattr(derived, "SESSIONS_PER_LOCK", 1)
    resp = client.get("/ratings")
    assert resp.status_code == 503 and resp.headers["Retry-After"] == "3"
    assert "3 sessions still to read" in resp.get_data(as_text=True)
    assert [client.get("/ratings").status_code for _ in range(4)] == [503, 503, 503, 200]
    assert "Ane" in client.get("/ratings").get_data(as_text=True)
