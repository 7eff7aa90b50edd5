"""History: the list (visibility, pages, search, filters, indexes), a past session hand by hand, a
player's page, the CSV export, the archive zip (round trip, refusal naming the bad file)."""
import csv
import io
import json
import re

import pytest
import zipfile


from companion.record import csvexport
from helpers import unchanged, csrf
from test_settle_page import DESMOCHE, NEEDS, NEWMARKET, _text, import_doc, session_doc


def _mus_game(seats=("Ane", "Bea", "Carlos", "Dani"), hands=12, seed=3):
    """A Mus game typed from paper notes: random cards, a grande bet folded every third hand."""
    import random

    from companion.kinds.mus import KIND

    rnd = random.Random(seed)
    seats = list(seats)
    game = {"kind": "mus", "rules": {"preset": "pagat"}, "seats": seats, "stake": {"per_game": 100},
            "hands": []}
    for i in range(hands):
        deck = list("A234567SCR") * 4
        rnd.shuffle(deck)
        hand = {"cards": {p: "".join(deck[j * 4:j * 4 + 4]) for j, p in enumerate(seats)},
                "grande": [], "chica": [], "pares": [], "juego": []}
        if i % 3 == 0:
            hand["grande"] = [{"team": "A", "bet": 2}, {"team": "B", "fold": True}]
        rec = KIND.build({**game, "hands": game["hands"] + [hand]}, seats)
        game = KIND.to_doc(rec)
        if rec.state["match_winner"]:
            break
    return game


def _day(i: int) -> str:
    return f"2026-{1 + i // 28:02d}-{1 + i % 28:02d}T21:00:00+01:00"


def _names(html: str) -> list[str]:
    return re.findall(r'class="hist-name"[^>]*><strong>([^<]+)</strong>', html)


def _zip(files: dict) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, content in files.items():
            zf.writestr(name, content if isinstance(content, (str, bytes)) else json.dumps(content))
    return buf.getvalue()


def _import_zip(client, raw: bytes, filename="archive.zip"):
    return client.post("/history/import", data={"csrf": csrf(client), "k": "",
                                                "archive": (io.BytesIO(raw), filename)},
                       content_type="multipart/form-data")


def _session_count(app) -> int:
    from companion.storage.db import connect

    db = connect(app.config["DATABASE"])
    try:
        return db.execute("SELECT COUNT(*) FROM sessions").fetchone()[0]
    finally:
        db.conn.close()


# ----------------------------------------------------------------------------------------------------
# the list
# ----------------------------------------------------------------------------------------------------

def test_an_empty_history(client):
    page = client.get("/history").get_data(as_text=True)
    assert "0 sessions" in _text(page)
    assert "Sessions you start or open on this phone appear here." in page


def test_pages_of_20_newest_first(client):
    for i in range(45):
        import_doc(client, session_doc(name=f"Night {i:02d}", players=("Ane", "Bea"), started=_day(i)))
    page1 = client.get("/history").get_data(as_text=True)
    assert _names(page1) == [f"Night {i:02d}" for i in range(44, 24, -1)]
    assert "45 sessions" in _text(page1) and "page 1 of 3" in _text(page1)
    assert 'rel="next"' in page1 and 'rel="prev"' not in page1
    nxt = re.search(r'href="([^"]+)" rel="next"', page1).group(1).replace("&amp;", "&")
    page2 = client.get(nxt).get_data(as_text=True)
    assert _names(page2) == [f"Night {i:02d}" for i in range(24, 4, -1)]
    page3 = client.get("/history?page=3").get_data(as_text=True)
    assert _names(page3) == [f"Night {i:02d}" for i in range(4, -1, -1)]
    assert 'rel="next"' not in page3 and 'rel="prev"' in page3
    assert _names(client.get("/history?page=99").get_data(as_text=True)) == []
    assert client.get("/history?page=-4").status_code == 200


def test_only_the_sessions_this_browser_saw_unless_admin(app, client):
    import_doc(client, session_doc(name="Mine", players=("Ane", "Bea")))
    other = app.test_client()
    assert _names(other.get("/history").get_data(as_text=True)) == []
    assert other.get("/players/ane").status_code == 404
    assert zipfile.ZipFile(io.BytesIO(other.get("/history/archive.zip").data)).namelist() == []
    # opening the view link makes it part of that browser's history, as watching
    page = client.get("/history").get_data(as_text=True)
    token = re.search(r'class="hist-name" href="/s/([^/]+)/history"', page).group(1)
    view = re.search(r'value="http://table\.example:8000(/s/[^"]+)" id="watch-link"',
                     client.get(f"/s/{token}").get_data(as_text=True)).group(1)
    opened = other.get(view).get_data(as_text=True)
    assert f'action="{view}/opened"' in opened            # the page asks to be listed (a POST, never a GET)
    assert other.post(f"{view}/opened", data={"csrf": csrf(other)}).status_code == 204
    page = other.get("/history").get_data(as_text=True)
    assert _names(page) == ["Mine"] and "watching" in page and f"{view}/history" in page
    # the admin sees every session, with edit links
    app.config["ADMIN_TOKEN"] = "letmein"
    admin = app.test_client()
    admin.get("/admin?token=letmein")
    import_doc(other, session_doc(name="Theirs", players=("Ane", "Bea"), started="2026-12-01T20:00:00+01:00"))
    page = admin.get("/history").get_data(as_text=True)
    assert _names(page) == ["Theirs", "Mine"] and "(all: admin)" in page


def test_search_by_player_ignores_case_and_accents(client):
    import_doc(client, session_doc(name="With Iñaki", players=("Iñaki", "Bea"), started=_day(1)))
    import_doc(client, session_doc(name="With Inés", players=("Inés", "Ane"), started=_day(2)))
    import_doc(client, session_doc(name="Without", players=("Ane", "Bea"), started=_day(3)))
    assert _names(client.get("/history?q=inaki").get_data(as_text=True)) == ["With Iñaki"]
    assert _names(client.get("/history?q=IÑAKI").get_data(as_text=True)) == ["With Iñaki"]
    assert _names(client.get("/history?q=in").get_data(as_text=True)) == ["With Inés", "With Iñaki"]
    assert _names(client.get("/history?q=bea").get_data(as_text=True)) == ["Without", "With Iñaki"]
    assert _names(client.get("/history?q=zoe").get_data(as_text=True)) == []
    assert "No session matches." in client.get("/history?q=zoe").get_data(as_text=True)
    # the search keeps its value in the form and across pages
    assert 'value="inaki"' in client.get("/history?q=inaki").get_data(as_text=True)


@NEEDS["desmoche"]
@NEEDS["newmarket"]
def test_filter_by_game_and_dates(client):
    import_doc(client, session_doc(DESMOCHE, name="Desmoche night", started="2026-03-05T21:00:00+01:00"))
    import_doc(client, session_doc(NEWMARKET, name="Newmarket night", started="2026-03-20T21:00:00+01:00"))
    import_doc(client, session_doc(NEWMARKET, DESMOCHE, name="Both", started="2026-04-02T21:00:00+02:00"))
    assert _names(client.get("/history?kind=desmoche").get_data(as_text=True)) == ["Both", "Desmoche night"]
    assert _names(client.get("/history?kind=newmarket").get_data(as_text=True)) == ["Both", "Newmarket night"]
    assert _names(client.get("/history?from=2026-03-06&to=2026-03-31").get_data(as_text=True)) == [
        "Newmarket night"]
    assert _names(client.get("/history?to=2026-03-20").get_data(as_text=True)) == [
        "Newmarket night", "Desmoche night"]
    assert _names(client.get("/history?from=2026-03-20&kind=desmoche").get_data(as_text=True)) == ["Both"]
    bad = client.get("/history?from=yesterday&kind=poker").get_data(as_text=True)
    assert "A date like 2026-11-20" in bad and "Unknown game." in bad


@NEEDS["desmoche"]
def test_each_row_says_date_players_games_and_biggest_winner(client):
    import_doc(client, session_doc(DESMOCHE, players=("Ane", "Bea", "Carlos")))
    text = _text(client.get("/history").get_data(as_text=True))
    assert "Friday at Koldo's Nov 20, 2026 Ane Bea Carlos Desmoche (Ane +35 units)"  # the date in the reader's words in text
    assert "Biggest winner: Ane +€3.50" in text


@pytest.mark.sqlite_only     # SQLite's query plans (PostgreSQL's planner scans small tables on purpose)
def test_every_list_query_uses_indexes(app):
    """EXPLAIN QUERY PLAN: every table is reached through an index, never scanned whole."""
    from companion.web import history, players

    app.config["ADMIN_TOKEN"] = "letmein"
    filters = [{}, {"key": "ane"}, {"kind": "mus"}, {"from": "2026-01-01", "to": "2026-02-01"},
               {"key": "ane", "kind": "mus", "from": "2026-01-01"}]
    for admin in (False, True):
        for flt in filters:
            with app.test_request_context("/history"):
                from flask import session

                if admin:
                    session["admin"] = "letmein"
                sql, params, count_sql, count_params = history.list_sql(flt, 3)
                queries = [(sql, params), (count_sql, count_params), players.player_sql("ane")]
                for q, p in queries:
                    plan = history.explain(q, p)
                    for step in plan:
                        if step.startswith("SCAN"):
                            assert "USING" in step and "INDEX" in step or step == "SCAN p", (admin, flt, plan)
                    assert any("INDEX" in step or "PRIMARY KEY" in step for step in plan), plan


# ----------------------------------------------------------------------------------------------------
# a past session, hand by hand
# ----------------------------------------------------------------------------------------------------

@NEEDS["newmarket"]
@NEEDS["desmoche"]
def test_past_session_page_has_charts_tables_and_reasons(client):
    links = import_doc(client, session_doc(NEWMARKET, DESMOCHE))
    resp = client.get(links["view"] + "/history")
    assert resp.status_code == 200
    page = resp.get_data(as_text=True)
    assert page.count('<svg class="chart-svg"') == 2
    assert page.count('class="chart-table"') == 2
    assert "style=" not in page
    text = _text(page)
    assert "Chips in hand, deal by deal" in text and "Units won or lost, hand by hand" in text
    assert "Bea bought the dummy: paid Ane 2" in text
    assert "Bea won: took the pot of 60" in text
    assert "Deal 1" in text and "Deal 2" in text and "Hand 3" in text
    # every log entry's reason is on the page
    state = client.get(links["view"] + "/state.json").get_json()
    for game in state["games"]:
        for entry in game["log"]:
            assert entry["why"].replace("'", "&#39;") in page
    # a view link: no form that writes
    assert 'method="post"' not in page


@NEEDS["mus"]
def test_past_mus_game_shows_both_teams_hand_by_hand(client):
    game = _mus_game(hands=12)
    links = import_doc(client, session_doc(game, players=("Ane", "Bea", "Carlos", "Dani")))
    page = client.get(links["edit"] + "/history").get_data(as_text=True)
    state = client.get(links["view"] + "/state.json").get_json()["games"][0]
    charts_expected = len({e["game"] for e in state["log"]})
    assert page.count('<svg class="chart-svg"') == charts_expected >= 1
    assert "A: Ane &amp; Carlos" in page and "B: Bea &amp; Dani" in page
    text = _text(page)
    assert "Hand 1" in text and "Hand 12" in text or state["match_winner"]
    for entry in state["log"]:
        assert entry["why"].replace("'", "&#39;") in page
    assert "40 to win" in page


@NEEDS["desmoche"]
def test_past_session_polls_like_every_page(client):
    links = import_doc(client, session_doc(DESMOCHE, players=("Ane", "Bea", "Carlos")))
    page = client.get(links["view"] + "/history").get_data(as_text=True)
    version = re.search(r'data-version="(\d+)"', page).group(1)
    resp = client.get(f"{links['view']}/history?since={version}", headers={"HX-Request": "true"})
    assert unchanged(resp)
    assert client.get("/s/unknown/history").status_code == 404


# ----------------------------------------------------------------------------------------------------
# CSV
# ----------------------------------------------------------------------------------------------------

@NEEDS["newmarket"]
@NEEDS["desmoche"]
def test_session_csv_one_row_per_award_or_movement(client):
    links = import_doc(client, session_doc(NEWMARKET, DESMOCHE))
    resp = client.get(links["view"] + "/session.csv")
    assert resp.status_code == 200 and resp.mimetype == "text/csv"
    assert "attachment" in resp.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(resp.data.decode("utf-8-sig"))))
    assert rows[0] == csvexport.COLUMNS == ["session", "game", "kind", "round_type", "round", "mus_game", "lance",
                                             "team", "team_players", "from", "to", "amount", "unit", "why"]
    state = client.get(links["view"] + "/state.json").get_json()
    assert len(rows) - 1 == sum(len(g["log"]) for g in state["games"])
    table = [dict(zip(rows[0], r)) for r in rows[1:]]
    dummy = next(r for r in table if r["why"] == "Bea bought the dummy: paid Ane 2")
    assert (dummy["session"], dummy["game"], dummy["kind"], dummy["round_type"], dummy["round"], dummy["from"],
            dummy["to"], dummy["amount"], dummy["unit"]) == ("Friday at Koldo's", "1", "newmarket", "deal", "1",
                                                             "Bea", "Ane", "2", "chips")
    pot = next(r for r in table if r["why"] == "Bea won: took the pot of 60")
    assert (pot["game"], pot["kind"], pot["round"], pot["from"], pot["to"], pot["amount"], pot["unit"]) == (
        "2", "desmoche", "2", "pot", "Bea", "60", "units")


@NEEDS["mus"]
def test_mus_csv_rows_name_team_and_lance(client):
    links = import_doc(client, session_doc(_mus_game(hands=4), players=("Ane", "Bea", "Carlos", "Dani")))
    rows = list(csv.DictReader(io.StringIO(client.get(links["edit"] + "/session.csv").data.decode("utf-8-sig"))))
    assert rows
    for r in rows:
        assert r["kind"] == "mus" and r["unit"] == "points" and r["round_type"] == "hand"
        assert r["team"] in ("A", "B") and r["lance"] in ("grande", "chica", "pares", "juego", "punto")
        assert r["team_players"] in ("Ane & Carlos", "Bea & Dani") and int(r["amount"]) > 0


# ----------------------------------------------------------------------------------------------------
# players over time
# ----------------------------------------------------------------------------------------------------

@NEEDS["desmoche"]
def test_player_page_net_over_time(client):
    import_doc(client, session_doc(DESMOCHE, players=("Ane", "Bea", "Carlos"), started="2026-02-01T21:00:00+01:00"))
    import_doc(client, session_doc(DESMOCHE, players=("Ane", "Bea", "Carlos"), started="2026-03-01T21:00:00+01:00"))
    import_doc(client, session_doc(name="No money", players=("Ane", "Dani"), started="2026-04-01T21:00:00+01:00"))
    resp = client.get("/players/ane")
    assert resp.status_code == 200
    page = resp.get_data(as_text=True)
    text = _text(page)
    assert "3 sessions played, Feb 1, 2026 to Apr 1, 2026" in text
    assert "Net overall: +€7.00" in text
    assert page.count('<svg class="chart-svg"') == 1 and 'class="chart-table"' in page
    assert "€3.50" in page and "€7.00" in page  # the chart's values are money
    # names are matched by key: the URL is the key; other spellings redirect to it
    assert client.get("/players/ANE").status_code == 301
    assert client.get("/players/ANE").headers["Location"].endswith("/players/ane")
    assert client.get("/players/zoe").status_code == 404


@NEEDS["mus"]
def test_player_page_mus_partners(client):
    seats = ("Ane", "Bea", "Carlos", "Dani")
    import_doc(client, session_doc(_mus_game(seats, hands=60, seed=1), players=seats, started=_day(1)))
    import_doc(client, session_doc(_mus_game(("Ane", "Carlos", "Bea", "Dani"), hands=60, seed=2), players=seats,
                                   started=_day(2)))
    states = []
    listing = client.get("/history").get_data(as_text=True)
    for token in re.findall(r'class="hist-name" href="(/s/[^/]+)/history"', listing):
        states.append(client.get(token + "/state.json").get_json()["games"][0])
    page = client.get("/players/ane").get_data(as_text=True)
    text = _text(page)
    # Ane played with Carlos (team A, seats 0 and 2) in the first, with Bea in the second
    with_carlos = next(s for s in states if s["teams"]["A"] == ["Ane", "Carlos"])
    with_bea = next(s for s in states if s["teams"]["A"] == ["Ane", "Bea"])
    games = {"Carlos": sum(with_carlos["games_won"].values()), "Bea": sum(with_bea["games_won"].values())}
    won = {"Carlos": with_carlos["games_won"]["A"], "Bea": with_bea["games_won"]["A"]}
    total_won = won["Carlos"] + won["Bea"]
    assert f"Games won: {total_won} of {games['Carlos'] + games['Bea']}" in text
    assert re.search(r"Carlos \d+ / \d+ \d+ / \d+", text) and re.search(r"Bea \d+ / \d+ \d+ / \d+", text)
    assert f"Carlos {won['Carlos']} / {games['Carlos']}" in text
    favourite = max(("Carlos", "Bea"), key=lambda p: (games[p], won[p], p == "Bea"))
    assert f"Favourite partner: {favourite} (most team games played together: {games[favourite]})" in text


# ----------------------------------------------------------------------------------------------------
# the archive
# ----------------------------------------------------------------------------------------------------

@NEEDS["desmoche"]
@NEEDS["newmarket"]
def test_archive_round_trip(app, client):
    docs = [session_doc(DESMOCHE, players=("Ane", "Bea", "Carlos"), name="Uno", started=_day(1)),
            session_doc(NEWMARKET, name="Dos", started=_day(2)),
            session_doc(name="Tres, sin juego", players=("Iñaki", "赤桐"), currency="JPY", started=_day(3))]
    links = [import_doc(client, d) for d in docs]
    # a banker and a paid mark are part of the session file too
    page = client.get(links[0]["edit"] + "/settle").get_data(as_text=True)
    from helpers import form_fields

    client.post(links[0]["edit"] + "/settle/banker",
                data={**form_fields(page, links[0]["edit"] + "/settle/banker"), "banker": "Bea"})
    resp = client.get("/history/archive.zip")
    assert resp.status_code == 200 and resp.mimetype == "application/zip"
    exported = zipfile.ZipFile(io.BytesIO(resp.data))
    assert len(exported.namelist()) == 3 and all(n.endswith(".json") for n in exported.namelist())
    before = sorted(json.dumps(json.loads(exported.read(n)), sort_keys=True) for n in exported.namelist())
    assert any('"banker": "Bea"' in d for d in before)

    other = app.test_client()
    resp = _import_zip(other, resp.data)
    assert resp.status_code == 303 and "imported=3" in resp.headers["Location"]
    assert "Imported 3 sessions." in other.get(resp.headers["Location"]).get_data(as_text=True)
    again = zipfile.ZipFile(io.BytesIO(other.get("/history/archive.zip").data))
    after = sorted(json.dumps(json.loads(again.read(n)), sort_keys=True) for n in again.namelist())
    assert after == before
    assert _session_count(app) == 6


@NEEDS["desmoche"]
def test_a_bad_file_refuses_the_whole_zip(app, client):
    bad = session_doc(DESMOCHE, players=("Ane", "Bea", "Carlos"))
    bad["games"][0]["hands"][1]["winner"] = "Zoe"
    raw = _zip({"good.json": session_doc(players=("Ane", "Bea")), "nights/bad.json": bad,
                "zzz.json": session_doc(players=("Ane", "Bea"))})
    resp = _import_zip(client, raw)
    assert resp.status_code == 422
    page = resp.get_data(as_text=True)
    assert "Refused, nothing imported. nights/bad.json: games[0].hands[1].winner: " in page
    assert _session_count(app) == 0


def test_zip_refusals_name_the_problem(app, client):
    cases = [
        ({"a.json": "{not json"}, "a.json: $: not valid JSON at line 1"),
        ({"a.json": {"format": "nope"}}, "a.json: format: format must be"),
        ({"a.json": session_doc(players=("Ane", "Ane"))}, "a.json: players[1]: Ane is listed twice"),
        ({"notes.txt": "hello"}, "notes.txt: not a session file"),
        ({"a.json": b"\xff\xfe"}, "a.json: $: not UTF-8 text"),
        ({}, "The zip holds no session file."),
    ]
    for files, message in cases:
        resp = _import_zip(client, _zip(files))
        assert resp.status_code == 422, files
        assert message in resp.get_data(as_text=True).replace("&#39;", "'"), (message, files)
    resp = _import_zip(client, b"this is no zip")
    assert resp.status_code == 422 and "This is not a zip file." in resp.get_data(as_text=True)
    resp = client.post("/history/import", data={"csrf": csrf(client)}, content_type="multipart/form-data")
    assert resp.status_code == 422
    assert _session_count(app) == 0


def test_import_needs_csrf_and_lands_once(app, client):
    raw = _zip({"a.json": session_doc(players=("Ane", "Bea"))})
    resp = client.post("/history/import", data={"archive": (io.BytesIO(raw), "a.zip")},
                       content_type="multipart/form-data")
    assert resp.status_code == 400 and _session_count(app) == 0
    token = csrf(client)
    for _ in range(2):  # a double tap carries the same form key
        resp = client.post("/history/import", data={"csrf": token, "k": "same-key",
                                                    "archive": (io.BytesIO(raw), "a.zip")},
                           content_type="multipart/form-data")
        assert resp.status_code == 303
    assert _session_count(app) == 1
    assert _names(client.get("/history").get_data(as_text=True)) == ["Friday at Koldo&#39;s"]


def test_migration_moves_old_documents_into_rows(tmp_path):
    """A database of the first version (each session one JSON document) reads the same after m003/m004:
    the games as rows, the summaries and nets recomputed, the export equal to the old document."""
    from companion.storage import db as dbm
    from companion.record import session as S
    from companion import service

    path = str(tmp_path / "old.db")
    db = dbm.connect(path)
    dbm.migrations.apply(db, stop_before="m003_games_and_items")
    doc = session_doc(name="Old", players=("Ane", "Bea", "Carlos", "Dani"))
    doc["games"] = [_mus_game(hands=4)]
    db.execute("INSERT INTO sessions(name, created, updated, started, edit_token, view_token, version, doc)"
               " VALUES ('Old', '2026-01-01', '2026-01-01', '2026-01-01', 'e' || hex(randomblob(16)),"
               " 'v' || hex(randomblob(16)), 1, ?)", [json.dumps(doc)])
    db.conn.close()
    dbm.init_db(path)
    db = dbm.connect(path)
    sid = db.execute("SELECT id FROM sessions").fetchone()[0]
    assert S.to_doc(service.load(db, sid)) == S.to_doc(S.load(doc))
    summary = json.loads(db.execute("SELECT summary FROM sessions").fetchone()[0])
    assert summary["players"] == ["Ane", "Bea", "Carlos", "Dani"] and summary["kinds"] == ["mus"]
    assert db.execute("SELECT count(*) FROM items").fetchone()[0] == len(doc["games"][0]["hands"])
    db.conn.close()
