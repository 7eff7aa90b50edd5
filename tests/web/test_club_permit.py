"""A table's link against every write route × every state of its round match (not started, playing,
decided, ended by the clock, an earlier round): allowed exactly where rules/club.md (Tables) says, and
the session file unchanged otherwise. The organizer's closed-result changes: asked first, then logged
(in the session file and on the page). The table phone following the night; the clock stopped at the
round's end; the night over after the planned rounds."""
import html as htmllib
import json
import re

import pytest
from helpers import csrf, form_fields, new_session
from test_club_web import PLAYERS, start_round, table_links, tally

PHASES = ("not_started", "playing", "decided", "time", "earlier")
# (command, phase) where a table's own link may write (every other cell is refused)
ALLOWED = {("record", "not_started"), ("record", "playing"), ("undo", "playing"), ("correct", "playing")}


def night(client, phase, rounds="2", minutes="50"):
    """A rotating night of 8 (two tables, matches of one game to 40, tallies), table 1's round-1 match
    (game 0) brought to ``phase``: (session links, table 1's link, table 2's link)."""
    s = new_session(client, players=PLAYERS)
    edit = s["edit"]
    page = client.get(edit + "/club").get_data(as_text=True)
    data = {**form_fields(page, edit + "/club/setup"), "format": "rotating", "minutes": minutes,
            "games_to_win": "1", "scoring": "tally", "pairs": "", "rounds": rounds}
    assert client.post(edit + "/club/setup", data=data).status_code == 303
    links = table_links(start_round(client, edit))
    if phase in ("playing", "time", "earlier"):
        assert tally(client, edit, 0, [["A", 10]]).status_code == 303
    if phase == "decided":
        assert tally(client, edit, 0, [["A", 40]]).status_code == 303
    if phase in ("time", "earlier"):
        end_round(client, edit)
    if phase == "earlier":
        start_round(client, edit)
        assert table_links(client.get(edit + "/club").get_data(as_text=True)) == links
    return s, links["1"], links["2"]


def end_round(client, edit):
    page = client.get(edit + "/club").get_data(as_text=True)
    assert client.post(edit + "/club/end", data=form_fields(page, edit + "/club/end")).status_code == 303


def doc(client, s):
    return client.get(s["view"] + "/session.json").get_data()


GAME_ROUTES = {
    "record": lambda c, link, gi: tally(c, link, gi, [["B", 5]]),
    "undo": lambda c, link, gi: c.post(f"{link}/undo/{gi}", data={"csrf": csrf(c)}),
    "correct": lambda c, link, gi: c.post(f"{link}/mus/{gi}/hand/1", data={
        "csrf": csrf(c), "move": "save", "draft": json.dumps({"tally": [{"team": "B", "points": 7}]})}),
}


def session_routes(plan):
    """Every write route of the session that is not one game's: (path, form)."""
    seats = {f"seat{i}": p for i, p in enumerate(PLAYERS[:4])}
    return [
        ("/club/setup", {"format": "free"}), ("/club/swap", {"plan": plan, "x": "0:0", "y": "0:1"}),
        ("/club/start", {"plan": plan}), ("/club/end", {}), ("/club/leave", {"name": "Ane"}),
        ("/club/arrive", {"name": "Zoe"}), ("/club/table", {"label": "9", **seats}),
        ("/club/tables/1/replace", {}), ("/club/tables/2/replace", {}), ("/rename", {"name": "Mine"}),
        ("/players", {"name": "Zoe"}), ("/replace", {}), ("/settle/banker", {"banker": "Ane"}),
        ("/settle/paid", {"from": "Ane", "to": "Bea", "amount": "100"}),
        ("/mus/new", {"preset": "pagat", **seats}), ("/newmarket/new", {**seats}), ("/desmoche/new", {**seats}),
    ]


@pytest.mark.parametrize("phase", PHASES)
def test_a_table_link_against_every_write_route(client, phase):
    s, one, two = night(client, phase)
    plan = json.dumps({"tables": [PLAYERS[:4], PLAYERS[4:]], "free": []})
    before = doc(client, s)
    # the routes that write nothing first (every one of them, through table 1's and the watch link)
    for path, form in session_routes(plan):
        for link in (one, s["view"]):
            resp = client.post(link + path, data={"csrf": csrf(client), "k": "", **form})
            assert resp.status_code == 403, (phase, path, link)
            assert doc(client, s) == before, (phase, path)
    for cmd, route in GAME_ROUTES.items():
        for link, gi in ((one, 1), (two, 0), (s["view"], 0)):      # another table's match; the watch link
            assert route(client, link, gi).status_code in (403, 404), (phase, cmd, link)
            assert doc(client, s) == before
        if (cmd, phase) not in ALLOWED:
            resp = route(client, one, 0)
            assert resp.status_code in (403, 404), (phase, cmd)         # 404: no hand yet to correct
            assert doc(client, s) == before, (phase, cmd)
    if phase == "not_started":      # removing the round match is the organizer's (and asked first)
        resp = GAME_ROUTES["undo"](client, one, 0)
        assert resp.status_code == 403 and "Only the organizer" in resp.get_data(as_text=True)
    # the allowed cells, each on a night of its own: it writes
    for cmd in [c for c, p in sorted(ALLOWED) if p == phase]:
        s, one, _two = night(client, phase)
        before = doc(client, s)
        assert GAME_ROUTES[cmd](client, one, 0).status_code == 303, (phase, cmd)
        assert doc(client, s) != before


def log_of(client, s):
    return json.loads(doc(client, s)).get("log", [])


def confirm(client, resp, action, note=""):
    page = resp.get_data(as_text=True)
    assert resp.status_code == 200 and 'name="confirm" value="1"' in page
    fields = {k: htmllib.unescape(v) for k, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"',
                                            page.split('id="confirm"')[1])}
    return client.post(action, data={**fields, "note": note})


def test_the_organizer_reopens_a_finished_match_asked_first_and_logged(client):
    s, one, _ = night(client, "decided")
    edit = s["edit"]
    before = doc(client, s)
    asked = client.post(f"{edit}/undo/0", data={"csrf": csrf(client), "k": ""})
    assert "Reopen this finished match?" in asked.get_data(as_text=True)
    assert "Watching" not in asked.get_data(as_text=True)          # the organizer's page, not a watcher's
    assert doc(client, s) == before                      # asking changed nothing
    bad = confirm(client, asked, f"{edit}/undo/0", "x" * 201)              # a note too long: said, nothing written
    assert bad.status_code == 422 and "0 to 200 characters" in bad.get_data(as_text=True)
    assert doc(client, s) == before
    assert confirm(client, asked, f"{edit}/undo/0", "wrong team <b>").status_code == 303
    log = log_of(client, s)
    assert [(e["by"], e["what"], e["game"], e.get("note")) for e in log] == [
        ("organizer", "reopened", 0, "wrong team <b>")]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", log[0]["at"])
    page = client.get(edit + "/club").get_data(as_text=True)
    assert 'id="log"' in page and "reopened a finished match" in page and "wrong team &lt;b&gt;" in page
    # the match is open again: its table records
    assert tally(client, one, 0, [["B", 5]]).status_code == 303


def test_undoing_the_clock_end_is_the_organizers_and_logged(client):
    s, one, _ = night(client, "time")
    edit = s["edit"]
    asked = client.post(f"{edit}/undo/0", data={"csrf": csrf(client), "k": ""})
    assert "Take back the clock end" in asked.get_data(as_text=True)
    assert confirm(client, asked, f"{edit}/undo/0").status_code == 303
    assert [e["what"] for e in log_of(client, s)] == ["clock_undone"]
    state = client.get(s["view"] + "/state.json").get_json()
    assert state["games"][0].get("ended_by") is None and state["games"][1].get("ended_by") == "time"


def test_changing_an_earlier_rounds_result_says_the_standings_changed(client):
    s, one, _ = night(client, "decided")        # table 1: A won 40-0; the clock ends table 2; round 2 starts
    edit = s["edit"]
    end_round(client, edit)
    start_round(client, edit)
    before = client.get(s["view"] + "/state.json").get_json()["games"][0]["result"]
    assert before == "A"
    asked = client.post(f"{edit}/mus/0/hand/1", data={"csrf": csrf(client), "k": "", "move": "save",
                                                     "draft": json.dumps({"tally": [{"team": "B", "points": 40}]})})
    assert "Change a closed result?" in asked.get_data(as_text=True)
    assert confirm(client, asked, f"{edit}/mus/0/hand/1").status_code == 303
    assert client.get(s["view"] + "/state.json").get_json()["games"][0]["result"] == "B"
    assert [e["what"] for e in log_of(client, s)] == ["corrected", "result_changed"]
    page = client.get(edit + "/club").get_data(as_text=True)
    assert "Standings changed after a round was paired" in page


def test_a_table_phone_follows_the_night(client):
    s, one, _ = night(client, "time")
    edit = s["edit"]
    old = client.get(one + "/mus/0").get_data(as_text=True)
    version = re.search(r'data-version="(\d+)"', old).group(1)
    assert "The round is over." in old
    start_round(client, edit)
    # its next poll moves it to the new match at its table; a full page offers it in one tap
    resp = client.get(f"{one}/mus/0?since={version}", headers={"HX-Request": "true"})
    assert resp.headers["HX-Redirect"].endswith("/mus/2")
    page = client.get(one + "/mus/0").get_data(as_text=True)
    assert "Round 2 has started" in page and f'href="{one}/mus/2"' in page
    strip = client.get(one + "/table/strip?gi=2").get_data(as_text=True)
    assert "Round 2" in strip and "50 min left" in strip


def test_the_clock_stops_at_the_rounds_end_and_the_night_ends_after_the_planned_rounds(client):
    s, one, _ = night(client, "playing", rounds="1")
    edit = s["edit"]
    sala = client.get(s["view"] + "/sala").get_data(as_text=True)
    assert "data-ends=" in sala and "The night is over" not in sala
    end_round(client, edit)
    sala = client.get(s["view"] + "/sala").get_data(as_text=True)
    assert "data-ends=" not in sala and "The night is over" in sala and 'class="podium"' in sala
    page = client.get(edit + "/club").get_data(as_text=True)
    assert "The night is over" in page and "Final standings" in page and "Start round 2" not in page
    assert "One more round (round 2)" in page
    assert "The night is over" in client.get(one + "/mus/0").get_data(as_text=True)
    start_round(client, edit)           # one more round stays possible
    assert "The night is over" not in client.get(edit + "/club").get_data(as_text=True)


def test_a_table_phone_is_not_offered_what_it_may_not_do(client):
    s, one, _ = night(client, "not_started")
    assert "Remove this game" not in client.get(one + "/mus/0").get_data(as_text=True)
    assert "Remove this game" in client.get(s["edit"] + "/mus/0").get_data(as_text=True)
    s, one, _ = night(client, "decided")
    assert f'action="{one}/undo/0"' not in client.get(one + "/mus/0").get_data(as_text=True)
    s, one, _ = night(client, "playing")
    assert f'action="{one}/undo/0"' in client.get(one + "/mus/0").get_data(as_text=True)
