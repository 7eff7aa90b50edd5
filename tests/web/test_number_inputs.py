"""Issue 26 point 4, issue 30 point 5: what a superscript digit, a label with "/", a fragment request on a
page without a live region, a formula in a name, a look-alike name or a reused form key did to pages.
Every refusal here is checked to have changed nothing."""
import csv
import io
import json
import re

import pytest

from helpers import csrf, form_fields, new_session
from test_club_web import PLAYERS, setup_night, start_round, table_links
from test_settle_page import DESMOCHE, NEEDS, import_doc, session_doc

pytestmark = pytest.mark.one_engine    # pages and typed values, not the store: one engine (tests/conftest.py)

HX = {"HX-Request": "true"}


def state(client, links):
    return client.get(links["edit"] + "/session.json").get_json()


def errors_in(html):
    return re.findall(r'class="error"[^>]*>([^<]*)<', html)


# -- numbers --------------------------------------------------------------------------------------

@NEEDS["desmoche"]
@pytest.mark.parametrize("amount", ["²", "٣٥٠", "３５０", "350 ", "3_50", "9" * 5000])
def test_a_paid_mark_with_an_amount_in_other_digits_is_refused(client, amount):
    links = import_doc(client, session_doc(DESMOCHE, players=("Ane", "Bea", "Carlos")))
    before = state(client, links)
    page = client.get(links["edit"] + "/settle").get_data(as_text=True)
    data = {**form_fields(page, links["edit"] + "/settle/paid"), "from": "Carlos", "to": "Ane", "amount": amount,
            "paid": "1"}
    resp = client.post(links["edit"] + "/settle/paid", data=data)
    assert resp.status_code == 422 and errors_in(resp.get_data(as_text=True))
    assert state(client, links) == before


@pytest.mark.parametrize("field", ["minutes", "rounds", "games_to_win"])
@pytest.mark.parametrize("value", ["²", "٣", "１", "-1", "9" * 5000])
def test_club_setup_numbers_in_other_digits_are_refused_beside_the_field(client, field, value):
    s = setup_night(client)
    edit = s["edit"]
    before = state(client, s)
    page = client.get(edit + "/club").get_data(as_text=True)
    data = {**form_fields(page, edit + "/club/setup"), "format": "rotating", "minutes": "50", "games_to_win": "2",
            "scoring": "tally", "pairs": "", field: value}
    resp = client.post(edit + "/club/setup", data=data)
    assert resp.status_code == 422, resp.status_code
    assert errors_in(resp.get_data(as_text=True))
    assert state(client, s) == before


def _mus_game(client, links):
    page = client.get(f"{links['edit']}/mus/new").get_data(as_text=True)
    data = {**form_fields(page, f"{links['edit']}/mus/new"), "seat0": "Ane", "seat1": "Bea", "seat2": "Carlos",
            "seat3": "Dani", "preset": "pagat", "scoring": "tally"}
    resp = client.post(f"{links['edit']}/mus/new", data=data)
    assert resp.status_code == 303
    return resp.headers["Location"]


@pytest.mark.parametrize("points", ["²", "٣", "３", "1_0", "9" * 5000, "-3", " 4 "])
def test_a_tally_link_with_points_in_other_digits_is_a_page(client, points):
    links = new_session(client)
    game = _mus_game(client, links)
    resp = client.get(game, query_string={"team": "A", "points": points, "mode": "tally"})
    assert resp.status_code == 200
    resp = client.get(game, query_string={"fixed": points, "was": points + ".3"})
    assert resp.status_code == 200


@pytest.mark.parametrize("since", ["²", "٣", "-1", "9" * 5000, "1_0", ""])
def test_a_poll_with_since_in_other_digits_is_answered(client, since):
    s = setup_night(client)
    page = start_round(client, s["edit"])
    one = table_links(page)["1"]
    for url in (one + "/mus/0", s["view"], s["edit"] + "/club", s["view"] + "/sala"):
        resp = client.get(url, query_string={"since": since}, headers=HX)
        assert resp.status_code == 200, url


def _get_routes(app, token):
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or "<token>" not in rule.rule or rule.endpoint == "static":
            continue
        path = rule.rule.replace("<token>", token)
        path = re.sub(r"<int:[a-z_]+>", "0", path)
        if "<" in path:
            continue
        yield path


def test_a_fragment_request_on_a_page_without_a_live_region_gets_the_whole_page(app, client):
    """?since=0 with HX-Request on every page of a session with a game of each kind: never a KeyError."""
    s = setup_night(client)
    start_round(client, s["edit"])
    token = s["edit"].rsplit("/", 1)[1]
    seen = 0
    for path in _get_routes(app, token):
        resp = client.get(path, query_string={"since": "0"}, headers=HX)
        assert resp.status_code < 500, path
        seen += 1
    assert seen >= 13


# -- table labels ---------------------------------------------------------------------------------

def _add_table(client, edit, label):
    page = client.get(edit + "/club").get_data(as_text=True)
    data = {**form_fields(page, edit + "/club/table"), "label": label, "seat0": "Ane", "seat1": "Bea",
            "seat2": "Carlos", "seat3": "Dani"}
    return client.post(edit + "/club/table", data=data)


@pytest.mark.parametrize("label", ["A/B", ".", "..", "²", "٣", "~x", "a\\b", "x\u0000"])
def test_a_label_that_is_no_path_segment_is_refused_beside_the_field(client, label):
    s = setup_night(client, fmt="free")
    before = state(client, s)
    resp = _add_table(client, s["edit"], label)
    assert resp.status_code == 422
    assert errors_in(resp.get_data(as_text=True))
    assert state(client, s) == before


@pytest.mark.parametrize("label", ["A/B", "..", ".", "²", "~x"])
def test_a_label_stored_before_the_rule_is_served_and_its_link_replaced(client, monkeypatch, label):
    """A database written before the rule holds such a label: /club, the cards and the sala are pages,
    and the table's link is replaced through a URL that reaches it."""
    import companion.club.shape as shape

    s = setup_night(client, fmt="free")
    with monkeypatch.context() as m:              # as an older version accepted it
        m.setattr(shape, "check_segment", lambda label, path: None)
        assert _add_table(client, s["edit"], label).status_code == 303
    edit = s["edit"]
    for url in (edit + "/club", edit + "/club/cards", edit + "/sala", s["view"] + "/sala"):
        assert client.get(url).status_code == 200, url
    page = client.get(edit + "/club").get_data(as_text=True)
    old = table_links(page)[label]
    action = re.search(r'action="([^"]*/club/tables/[^"]*/replace)"', page).group(1)
    resp = client.post(action, data=form_fields(page, action))
    assert resp.status_code == 303
    new = table_links(client.get(edit + "/club").get_data(as_text=True))[label]
    assert new != old and client.get(old).status_code == 404 and client.get(new).status_code == 303


@pytest.mark.parametrize("label", ["A/B", "²", ".."])
def test_an_import_refuses_a_bad_label_with_its_json_path(client, label):
    links = new_session(client)
    doc = client.get(links["edit"] + "/session.json").get_json()
    doc["games"] = [{"kind": "mus", "rules": {"preset": "pagat"}, "seats": ["Ane", "Bea", "Carlos", "Dani"],
                     "table": label}]
    data = {"csrf": csrf(client), "k": "", "file": (io.BytesIO(json.dumps(doc).encode()), "night.json")}
    resp = client.post("/import", data=data, content_type="multipart/form-data")
    assert resp.status_code == 422
    assert "games[0].table" in resp.get_data(as_text=True)
    assert client.get("/").get_data(as_text=True).count('class="row-link"') == 1      # nothing imported


# -- CSV ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["rotating", "pairs_round_robin"])
def test_the_standings_csv_escapes_formulas(client, fmt):
    players = ["+1+2", "@SUM(9)", "=cmd", "-x", *PLAYERS[4:]]
    pairs = "+1+2 & @SUM(9)\n=cmd & -x\nEneko & Fermín\nGorka & Hodei" if fmt != "rotating" else ""
    s = setup_night(client, fmt=fmt, players=players, pairs=pairs)
    start_round(client, s["edit"])
    body = client.get(s["edit"] + "/club/standings.csv").get_data(as_text=True)
    cells = [c for row in csv.reader(io.StringIO(body)) for c in row]
    texts = [c for c in cells if c and not re.fullmatch(r"-?[0-9]+", c)]
    assert not any(c[:1] in "=+-@" for c in texts), cells
    assert ("'+1+2 & @SUM(9)" if pairs else "'+1+2") in cells


def test_a_pair_named_as_a_formula_is_escaped_in_the_standings():
    from companion.record.csvexport import cell, write

    assert cell("+1+2 & @SUM(9)") == "'+1+2 & @SUM(9)"
    assert cell(" =1") == "' =1" and cell("\uff1d1") == "'\uff1d1" and cell(-3) == -3 and cell("Ane") == "Ane"
    assert write([["a"], ["=1"]]) == "a\r\n'=1\r\n"


# -- names ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["A\ufe0fB", "A\U000E0100B", "Ane\u180b"])
def test_a_name_with_a_variation_selector_is_refused(client, name):
    data = {"csrf": csrf(client), "name": "Night", "currency": "EUR", "k": "", "p0": "AB", "p1": name}
    resp = client.post("/new", data=data)
    assert resp.status_code == 422 and "U+" in resp.get_data(as_text=True)


def test_look_alike_names_are_asked_once_then_kept(client):
    data = {"csrf": csrf(client), "name": "Night", "currency": "EUR", "k": "", "p0": "Ane", "p1": "\u0410ne"}
    resp = client.post("/new", data=data)
    page = resp.get_data(as_text=True)
    assert resp.status_code == 422 and 'name="confirm_names"' in page and "U+0041 / U+0410" in page
    resp = client.post("/new", data={**data, "confirm_names": "1"})
    assert resp.status_code == 303


def test_a_late_player_who_looks_like_one_listed_is_asked_once(client):
    links = new_session(client)
    before = state(client, links)
    page = client.get(links["edit"]).get_data(as_text=True)
    action = links["edit"] + "/players"
    resp = client.post(action, data={**form_fields(page, action), "name": "B\u0435a"})    # Cyrillic е
    page = resp.get_data(as_text=True)
    assert resp.status_code == 422 and 'name="confirm_names"' in page
    assert state(client, links) == before
    resp = client.post(action, data={**form_fields(page, action), "name": "B\u0435a", "confirm_names": "1"})
    assert resp.status_code == 303
    assert state(client, links)["players"][-1] == "B\u0435a"


# -- undo with a key of another form ---------------------------------------------------------------

def test_undo_with_a_key_reused_from_another_form_is_422(client):
    links = new_session(client)
    game = _mus_game(client, links)
    page = client.get(links["edit"]).get_data(as_text=True)
    fields = form_fields(page, links["edit"] + "/rename")
    resp = client.post(links["edit"] + "/rename", data={**fields, "name": "Other night"})
    assert resp.status_code == 303
    before = state(client, links)
    resp = client.post(links["edit"] + "/undo/0", data={**fields, "target": "0"})
    assert resp.status_code == 422
    assert state(client, links) == before
    assert game
