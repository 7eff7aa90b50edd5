"""An organizer's action on a club night is one write: starting a round (its clock, byes, every table and
its link), ending it by the clock, a late pair's arrival land whole or not at all; a double tap lands once."""
import json
import sqlite3

from test_club_web import PLAYERS, setup_night, table_links

from companion.record import events
from companion.storage import store
from companion.storage.db import connect
from companion.domain.errors import RuleError
from helpers import csrf, form_fields


def written(app, edit):
    """What the database holds of the session: (version, events, games, table links, header's club)."""
    db = connect(app.config["DATABASE"])
    try:
        sid, version, header = db.execute("SELECT id, version, header FROM sessions WHERE edit_token = ?",
                                          [edit.rsplit("/", 1)[1]]).fetchone()
        count = lambda table: db.execute(f"SELECT COUNT(*) FROM {table} WHERE session_id = ?", [sid]).fetchone()[0]
        return version, count("events"), count("games"), count("club_tables"), json.loads(header)
    finally:
        db.conn.close()


def start_form(client, edit):
    page = client.get(edit + "/club").get_data(as_text=True)
    return form_fields(page, edit + "/club/start")


def fail_on(monkeypatch, etype, nth):
    """The ``nth`` event of type ``etype`` is refused (the ones before it are worked out as usual)."""
    real, calls = events.HANDLERS[etype], []

    def handler(night, payload, stale):
        calls.append(etype)
        if len(calls) == nth:
            raise RuleError("v.no_game", "game")
        return real(night, payload, stale)

    monkeypatch.setitem(events.HANDLERS, etype, handler)
    return calls


def test_a_table_refused_mid_round_leaves_nothing_of_the_round(app, client, monkeypatch):
    s = setup_night(client)             # two tables: the clock, table 1, then table 2 refused
    edit = s["edit"]
    before = written(app, edit)
    calls = fail_on(monkeypatch, "add_game", 2)
    resp = client.post(edit + "/club/start", data=start_form(client, edit))
    assert calls == ["add_game", "add_game"]           # the first table was worked out, the second refused
    html = resp.get_data(as_text=True)
    assert resp.status_code == 422 and "there is no such game in this session" in html
    after = written(app, edit)
    assert after == before                             # no clock, no table, no link, no event, same version
    assert "clock" not in after[4]["club"]
    monkeypatch.undo()
    # the same round starts whole afterwards
    page = client.get(edit + "/club").get_data(as_text=True)
    assert table_links(page) == {}
    resp = client.post(edit + "/club/start", data=start_form(client, edit))
    assert resp.status_code == 303
    version, n_events, n_games, n_links, header = written(app, edit)
    assert (version - before[0], n_events - before[1], n_games, n_links) == (3, 3, 2, 2)
    assert list(header["club"]["clock"]) == ["1"]


def test_a_crash_mid_round_rolls_every_row_back(app, client, monkeypatch):
    s = setup_night(client)
    edit = s["edit"]
    before = written(app, edit)
    real, seen = store.commit, []

    def commit(*args, **kw):
        seen.append(kw["key"])
        if len(seen) == 3:
            raise sqlite3.OperationalError("disk I/O error")
        return real(*args, **kw)

    monkeypatch.setattr(store, "commit", commit)
    form = start_form(client, edit)
    resp = client.post(edit + "/club/start", data=form)
    assert resp.status_code == 503 and resp.headers["Retry-After"]       # the database fault page, not a 500
    assert seen == [None, None, form["k"]]             # the clock, table 1; the key goes with the last only
    assert written(app, edit) == before


def test_a_double_tap_on_start_round_starts_it_once(app, client):
    s = setup_night(client)
    edit = s["edit"]
    before = written(app, edit)
    form = start_form(client, edit)
    assert form.get("k")
    first = client.post(edit + "/club/start", data=form)
    second = client.post(edit + "/club/start", data=form)
    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    version, n_events, n_games, n_links, header = written(app, edit)
    assert (version - before[0], n_events - before[1], n_games, n_links) == (3, 3, 2, 2)
    assert list(header["club"]["clock"]) == ["1"]


def test_removing_a_round_table_is_asked_first_then_logged(app, client):
    s = setup_night(client)
    edit = s["edit"]
    assert client.post(edit + "/club/start", data=start_form(client, edit)).status_code == 303
    before = written(app, edit)
    resp = client.post(f"{edit}/undo/1", data={"csrf": csrf(client)})
    page = resp.get_data(as_text=True)
    assert resp.status_code == 200 and "Remove this round match?" in page
    assert written(app, edit) == before                 # asking writes nothing
    resp = client.post(f"{edit}/undo/1", data=form_fields(page, f"{edit}/undo/1") | {"note": "wrong seats"})
    assert resp.status_code == 303
    header = written(app, edit)[4]
    assert written(app, edit)[2] == 1
    assert [(e["by"], e["what"], e["game"], e.get("note")) for e in header["log"]] == \
        [("organizer", "removed", 1, "wrong seats")]


def test_ending_a_round_with_a_hand_open_ends_no_table(app, client):
    s = setup_night(client)
    edit = s["edit"]
    # the club's Mus scored hand by hand (not by tally): table 1 opens a hand
    page = client.get(edit + "/club").get_data(as_text=True)
    data = {**form_fields(page, edit + "/club/setup"), "format": "rotating", "minutes": "50",
            "games_to_win": "2", "scoring": "", "pairs": ""}
    assert client.post(edit + "/club/setup", data=data).status_code == 303
    assert client.post(edit + "/club/start", data=start_form(client, edit)).status_code == 303
    game = f"{edit}/mus/0"
    page = client.get(game).get_data(as_text=True)
    resp = client.post(game + "/act", data={**form_fields(page, game + "/act"), "move": "pass"})
    assert resp.status_code == 303
    before = written(app, edit)
    page = client.get(edit + "/club").get_data(as_text=True)
    resp = client.post(edit + "/club/end", data=form_fields(page, edit + "/club/end"))
    assert resp.status_code == 409
    assert "Table 1 has a hand being recorded" in resp.get_data(as_text=True)
    assert written(app, edit) == before                # table 2 was not ended either
    state = client.get(s["view"] + "/state.json").get_json()
    assert [g.get("ended_by") for g in state["games"]] == [None, None]


def test_ending_a_round_refused_mid_way_ends_nothing(app, client, monkeypatch):
    s = setup_night(client)
    edit = s["edit"]
    assert client.post(edit + "/club/start", data=start_form(client, edit)).status_code == 303
    before = written(app, edit)
    fail_on(monkeypatch, "game", 2)
    page = client.get(edit + "/club").get_data(as_text=True)
    resp = client.post(edit + "/club/end", data=form_fields(page, edit + "/club/end"))
    assert resp.status_code == 422 and "there is no such game in this session" in resp.get_data(as_text=True)
    assert written(app, edit) == before


def test_a_pair_arriving_is_added_whole_or_not_at_all(app, client, monkeypatch):
    s = setup_night(client, "pairs_round_robin", PLAYERS[:6], "Ane, Bea\nCarlos, Dani\nEneko, Fermín")
    edit = s["edit"]
    before = written(app, edit)
    fail_on(monkeypatch, "club", 1)                   # the players land, then the pair is refused
    page = client.get(edit + "/club").get_data(as_text=True)
    resp = client.post(edit + "/club/arrive", data={**form_fields(page, edit + "/club/arrive"), "name": "Gorka",
                                                    "partner": "Hodei"})
    assert resp.status_code == 422
    assert written(app, edit) == before
    assert client.get(s["view"] + "/session.json").get_json()["players"] == PLAYERS[:6]
    monkeypatch.undo()
    page = client.get(edit + "/club").get_data(as_text=True)
    resp = client.post(edit + "/club/arrive", data={**form_fields(page, edit + "/club/arrive"), "name": "Gorka",
                                                    "partner": "Hodei"})
    assert resp.status_code == 303
    version, n_events, *_rest, header = written(app, edit)
    assert (version - before[0], n_events - before[1]) == (3, 3)
    assert header["players"][-2:] == ["Gorka", "Hodei"] and header["club"]["pairs"][-1] == ["Gorka", "Hodei"]


def test_a_round_started_in_one_write_replays_to_the_same_rows(app, client):
    """Each event of the batch is stored with its own seq: the events replayed give the rows written."""
    from companion import service
    from companion.record import session as S
    from companion.storage.db import connect

    s = setup_night(client)
    edit = s["edit"]
    assert client.post(edit + "/club/start", data=start_form(client, edit)).status_code == 303
    db = connect(app.config["DATABASE"])
    sid = db.execute("SELECT id FROM sessions WHERE edit_token = ?", [edit.rsplit("/", 1)[1]]).fetchone()[0]
    kinds_of = [etype for _seq, etype, _payload in store.event_list(db, sid)]
    assert kinds_of[-3:] == ["club", "add_game", "add_game"]
    assert S.to_doc(events.replay(store.event_list(db, sid))) == S.to_doc(service.load(db, sid))


def test_a_double_tap_on_end_the_round_ends_it_once(app, client):
    s = setup_night(client)
    edit = s["edit"]
    assert client.post(edit + "/club/start", data=start_form(client, edit)).status_code == 303
    page = client.get(edit + "/club").get_data(as_text=True)
    form = form_fields(page, edit + "/club/end")
    before = written(app, edit)
    first = client.post(edit + "/club/end", data=form)
    second = client.post(edit + "/club/end", data=form)
    assert first.status_code == second.status_code == 303
    assert written(app, edit)[:2] == (before[0] + 2, before[1] + 2)    # each table ended once
    # another tap (a new key) with no round running is told so
    resp = client.post(edit + "/club/end", data={**form, "k": form["k"] + "x"})
    assert resp.status_code == 422 and "No round is being played." in resp.get_data(as_text=True)
