"""A club night through the web: set up, propose, swap, start a round (tables with their own links), score
through a table link only at its table, end the round by the clock, standings, sala, cards, CSV."""
import html as htmllib
import json
import re

from helpers import csrf, form_fields, new_session

PLAYERS = ["Ane", "Bea", "Carlos", "Dani", "Eneko", "Fermín", "Gorka", "Hodei"]


def setup_night(client, fmt="rotating", players=PLAYERS, pairs=""):
    s = new_session(client, players=players)
    edit = s["edit"]
    page = client.get(edit + "/club").get_data(as_text=True)
    data = {**form_fields(page, edit + "/club/setup"), "format": fmt, "minutes": "50", "games_to_win": "2",
            "scoring": "tally", "pairs": pairs}
    resp = client.post(edit + "/club/setup", data=data)
    assert resp.status_code == 303, resp.get_data(as_text=True)
    return s


def plan_of(page):
    return json.loads(htmllib.unescape(re.search(r'name="plan" value="([^"]*)"', page).group(1)))


def start_round(client, edit, plan=None):
    page = client.get(edit + "/club").get_data(as_text=True)
    fields = form_fields(page, edit + "/club/start")
    if plan is not None:
        fields["plan"] = json.dumps(plan)
    resp = client.post(edit + "/club/start", data=fields)
    assert resp.status_code == 303, resp.get_data(as_text=True)
    return client.get(edit + "/club").get_data(as_text=True)


def table_links(page):
    return dict(re.findall(r'<strong>Table ([^<]+)</strong>\s*<input readonly value="http://table\.example:8000(/s/[^"]+)"', page))


def tally(client, link, gi, awards):
    return client.post(f"{link}/mus/{gi}/act", data={"csrf": csrf(client), "move": "tally",
                                                      "tally": json.dumps(awards), "k": ""})


def test_a_round_at_two_tables_scored_by_table_links(client):
    s = setup_night(client)
    edit = s["edit"]
    page = client.get(edit + "/club").get_data(as_text=True)
    plan = plan_of(page)
    assert len(plan["tables"]) == 2 and plan["free"] == []
    page = start_round(client, edit)
    links = table_links(page)
    assert set(links) == {"1", "2"}
    one, two = links["1"], links["2"]
    assert len(one.split("/")[-1]) >= 22           # 24 url-safe chars: 144+ bits
    # the table link opens its own match
    resp = client.get(one)
    assert resp.status_code == 303 and resp.headers["Location"].endswith("/table")
    resp = client.get(one + "/table")
    assert resp.status_code == 303 and resp.headers["Location"].endswith("/mus/0")
    # it scores its table, never the other one, nor anything else of the session
    assert tally(client, one, 0, [["A", 40]]).status_code == 303
    assert tally(client, one, 1, [["A", 40]]).status_code == 403
    assert client.get(one + "/mus/1").status_code == 403
    assert client.post(f"{one}/undo/1", data={"csrf": csrf(client)}).status_code == 403
    assert client.post(f"{one}/rename", data={"csrf": csrf(client), "name": "x"}).status_code == 403
    assert client.post(f"{one}/replace", data={"csrf": csrf(client)}).status_code == 403
    assert client.get(f"{one}/club/cards").status_code == 403
    assert client.post(f"{one}/club/end", data={"csrf": csrf(client)}).status_code == 403
    assert client.post(f"{one}/undo/0", data={"csrf": csrf(client)}).status_code == 303
    assert tally(client, one, 0, [["A", 40]]).status_code == 303
    assert tally(client, two, 1, [["B", 12]]).status_code == 303
    # the watch link sees everything; the sala shows both tables
    sala = client.get(s["view"] + "/sala").get_data(as_text=True)
    assert sala.count('class="tbl') == 2 and "DENTRO" not in sala.split("Table 2")[1][:0] + ""
    # end the round: the clock decides table 2 (B ahead 12-0); table 1 stays in play (A 1-0 in games)
    page = client.get(edit + "/club").get_data(as_text=True)
    resp = client.post(edit + "/club/end", data=form_fields(page, edit + "/club/end"))
    assert resp.status_code == 303
    state = client.get(s["view"] + "/state.json").get_json()
    assert [(g.get("result"), g.get("ended_by")) for g in state["games"]] == [("A", "time"), ("B", "time")]
    ended = client.get(two + "/mus/1").get_data(as_text=True)
    assert "clock ended the match" in ended and 'value="tally"' not in ended
    before_doc = client.get(s["view"] + "/session.json").get_data()
    refused = tally(client, two, 1, [["A", 1]])        # the clock ended it: the table's link records nothing
    assert refused.status_code == 403 and "clock ended this match" in refused.get_data(as_text=True)
    assert client.get(s["view"] + "/session.json").get_data() == before_doc
    rows = state["club"]["standings"]
    assert state["club"]["round"] == 1 and len(rows) == 8
    assert sum(r["match_points"] for r in rows) == 4 and sum(r["points_diff"] for r in rows) == 0
    # replacing a table's link locks the old one out
    page = client.get(edit + "/club").get_data(as_text=True)
    resp = client.post(edit + "/club/tables/1/replace", data=form_fields(page, edit + "/club/tables/1/replace"))
    assert resp.status_code == 303
    assert client.get(one + "/mus/0").status_code == 404
    new_one = table_links(client.get(edit + "/club").get_data(as_text=True))["1"]
    assert new_one != one and client.get(new_one + "/mus/0").status_code == 200
    # standings CSV and cards
    csv = client.get(edit + "/club/standings.csv").get_data(as_text=True)
    assert csv.splitlines()[0].startswith("rank,player,played")
    cards = client.get(edit + "/club/cards").get_data(as_text=True)
    assert cards.count('class="table-card"') == 2 and cards.count("<svg") == 2
    # round 2 is proposed with no repeated partner
    plan2 = plan_of(client.get(edit + "/club").get_data(as_text=True))
    before = {frozenset(t) for g in state["games"] for t in g["teams"].values()}
    assert all(frozenset(p[0::2]) not in before and frozenset(p[1::2]) not in before for p in plan2["tables"])


def test_swap_and_a_bad_plan(client):
    s = setup_night(client)
    edit = s["edit"]
    page = client.get(edit + "/club").get_data(as_text=True)
    plan = plan_of(page)
    resp = client.post(edit + "/club/swap", data={"csrf": csrf(client), "plan": json.dumps(plan), "x": "0:0", "y": "1:3"})
    swapped = plan_of(resp.get_data(as_text=True))
    assert swapped["tables"][0][0] == plan["tables"][1][3] and swapped["tables"][1][3] == plan["tables"][0][0]
    bad = {"tables": [plan["tables"][0], plan["tables"][0]], "free": []}
    fields = form_fields(page, edit + "/club/start")
    resp = client.post(edit + "/club/start", data={**fields, "plan": json.dumps(bad)})
    assert resp.status_code == 422 and "seated twice" in resp.get_data(as_text=True)
    assert client.get(s["view"] + "/state.json").get_json()["games"] == []


def test_swiss_pairs_and_a_bye(client):
    s = setup_night(client, "pairs_swiss", PLAYERS, "Ane, Bea\nCarlos, Dani\nEneko & Fermín")
    page = start_round(client, s["edit"])
    state = client.get(s["view"] + "/state.json").get_json()
    assert len(state["games"]) == 1 and state["games"][0]["teams"] == {"A": ["Ane", "Bea"], "B": ["Carlos", "Dani"]}
    rows = state["club"]["standings"]
    assert rows[0]["pair"] == ["Eneko", "Fermín"] and rows[0]["byes"] == 1 and rows[0]["match_points"] == 1
    assert "Table 1" in page


def test_setup_refuses_a_bad_pair_line(client):
    s = new_session(client, players=PLAYERS)
    edit = s["edit"]
    page = client.get(edit + "/club").get_data(as_text=True)
    data = {**form_fields(page, edit + "/club/setup"), "format": "pairs_swiss", "pairs": "Ane, Zoe"}
    resp = client.post(edit + "/club/setup", data=data)
    assert resp.status_code == 422 and "Line 1" in resp.get_data(as_text=True)
    assert "Ane, Zoe</textarea>" in resp.get_data(as_text=True)


def test_sala_poll_unchanged_and_changed(client):
    s = setup_night(client)
    start_round(client, s["edit"])
    sala = client.get(s["view"] + "/sala")
    assert sala.status_code == 200
    version = re.search(r'data-version="(\d+)"', sala.get_data(as_text=True)).group(1)
    poll = client.get(s["view"] + f"/sala?since={version}", headers={"HX-Request": "true"})
    assert poll.get_data() == b""
    poll = client.get(s["view"] + "/sala?since=0", headers={"HX-Request": "true"})
    assert 'id="live"' in poll.get_data(as_text=True) and "<html" not in poll.get_data(as_text=True)


def test_a_table_phone_is_not_sent_other_tables_taps(app, client):
    """The table link's poll (answered before Flask) stays unchanged while only other tables score."""
    s = setup_night(client)
    page = start_round(client, s["edit"])
    links = table_links(page)
    one, two = links["1"], links["2"]
    game = client.get(one + "/mus/0").get_data(as_text=True)
    version = re.search(r'data-version="(\d+)"', game).group(1)
    assert tally(client, two, 1, [["A", 3]]).status_code == 303
    from werkzeug.test import Client

    raw = Client(app.wsgi_app)        # through the middleware, as waitress calls it
    resp = raw.get(f"{one}/mus/0?since={version}", headers={"HX-Request": "true"})
    assert resp.status_code == 200 and resp.get_data() == b"" and resp.headers["HX-Reswap"] == "none"
    assert tally(client, one, 0, [["B", 2]]).status_code == 303
    resp = raw.get(f"{one}/mus/0?since={version}", headers={"HX-Request": "true"})
    assert resp.get_data() != b""


def test_setup_refuses_bad_numbers_beside_their_field(client):
    s = new_session(client, players=PLAYERS)
    edit = s["edit"]
    page = client.get(edit + "/club").get_data(as_text=True)
    for field, value in (("games_to_win", "abc"), ("games_to_win", "99"), ("minutes", "soon"), ("rounds", "0")):
        data = {**form_fields(page, edit + "/club/setup"), "format": "rotating", "minutes": "50", field: value}
        resp = client.post(edit + "/club/setup", data=data)
        assert resp.status_code == 422, (field, value)
        assert f'id="err-{field}"' in resp.get_data(as_text=True), (field, value)
    assert "club" not in client.get(s["view"] + "/state.json").get_json()


def test_a_free_night_of_13_tables_turns_sala_pages(client):
    s = setup_night(client, "free")
    edit = s["edit"]
    for n in range(13):
        page = client.get(edit + "/club").get_data(as_text=True)
        fields = form_fields(page, edit + "/club/table")
        seats = {f"seat{i}": PLAYERS[(n + 2 * i) % 8] for i in range(4)}
        resp = client.post(edit + "/club/table", data={**fields, "label": f"T{n + 1}" if n else "Terraza", **seats})
        assert resp.status_code == 303, resp.get_data(as_text=True)
    page = client.get(edit + "/club").get_data(as_text=True)
    assert len(table_links(page)) == 13 and "Table Terraza" in page
    sala = client.get(s["view"] + "/sala").get_data(as_text=True)
    assert sala.count('class="tbl') == 13 and sala.count('class="sala-tables') == 2
    assert 'sala-tables later" data-page="1"' in sala and "sala-main n12" in sala
    bad = client.post(edit + "/club/table", data={**form_fields(page, edit + "/club/table"), "label": "",
                                                  "seat0": "Ane", "seat1": "Ane", "seat2": "Bea", "seat3": "Dani"})
    assert bad.status_code == 422 and 'id="err-label"' in bad.get_data(as_text=True)
    bad = client.post(edit + "/club/table", data={**form_fields(page, edit + "/club/table"), "label": "X",
                                                  "seat0": "Ane", "seat1": "Ane", "seat2": "Bea", "seat3": "Dani"})
    assert bad.status_code == 422 and 'id="err-seats"' in bad.get_data(as_text=True)
    assert len(table_links(client.get(edit + "/club").get_data(as_text=True))) == 13


def test_arrivals_and_departures_between_rounds(client):
    s = setup_night(client)
    edit = s["edit"]
    page = client.get(edit + "/club").get_data(as_text=True)
    resp = client.post(edit + "/club/arrive", data={**form_fields(page, edit + "/club/arrive"), "name": "Zoe"})
    assert resp.status_code == 303
    plan = plan_of(client.get(edit + "/club").get_data(as_text=True))
    assert plan["free"] == ["Zoe"] and len(plan["tables"]) == 2          # 9 present: one sits out, the last listed
    page = client.get(edit + "/club").get_data(as_text=True)
    resp = client.post(edit + "/club/leave", data={**form_fields(page, edit + "/club/leave"), "name": "Ane"})
    assert resp.status_code == 303
    plan = plan_of(client.get(edit + "/club").get_data(as_text=True))
    seated = [n for t in plan["tables"] for n in t]
    assert plan["free"] == [] and "Ane" not in seated and "Zoe" in seated
    page = client.get(edit + "/club").get_data(as_text=True)
    resp = client.post(edit + "/club/arrive", data={**form_fields(page, edit + "/club/arrive"), "name": "zoe"})
    assert resp.status_code == 422                                       # already playing


def test_pairs_arrive_as_a_pair(client):
    s = setup_night(client, "pairs_round_robin", PLAYERS[:6], "Ane, Bea\nCarlos, Dani\nEneko, Fermín")
    edit = s["edit"]
    page = client.get(edit + "/club").get_data(as_text=True)
    assert len(plan_of(page)["free"]) == 1
    resp = client.post(edit + "/club/arrive", data={**form_fields(page, edit + "/club/arrive"), "name": "Gorka",
                                                    "partner": "Hodei"})
    assert resp.status_code == 303
    plan = plan_of(client.get(edit + "/club").get_data(as_text=True))
    assert plan["free"] == [] and len(plan["tables"]) == 2
    club = client.get(s["view"] + "/session.json").get_json()["club"]
    assert club["pairs"][-1] == ["Gorka", "Hodei"]


def test_the_setup_form_shows_the_round_matches_rules_as_saved(client):
    fresh = new_session(client, players=PLAYERS)
    page = client.get(fresh["edit"] + "/club").get_data(as_text=True)
    assert 'name="games_to_win" inputmode="numeric" value="2"' in page and 'value="tally" selected' not in page
    edit = fresh["edit"]
    data = {**form_fields(page, edit + "/club/setup"), "format": "rotating", "minutes": "50", "games_to_win": "3",
            "scoring": "tally", "pairs": ""}
    assert client.post(edit + "/club/setup", data=data).status_code == 303
    page = client.get(edit + "/club").get_data(as_text=True)
    assert 'name="games_to_win" inputmode="numeric" value="3"' in page and '<option value="tally" selected>' in page
