"""The organizer's tournament setup page (companion/web/tournament.py), registered here as the app will:
pairs pasted (every bad line named) or tapped, the check-in, the stage plan; fixed once a stage began."""
import io
import json

import pytest
from helpers import csrf, form_fields, new_session
from tourneydata import example_doc

from companion.web import tournament

PLAYERS = ["Ane", "Bea", "Carlos", "Dani"]


@pytest.fixture
def tclient(app):
    if "tournament" not in app.blueprints:
        app.register_blueprint(tournament.bp)
    return app.test_client()


def post(client, edit, action, **data):
    page = client.get(edit + "/tournament").get_data(as_text=True)
    return client.post(edit + "/tournament/" + action,
                       data={**form_fields(page, edit + "/tournament/" + action), **data})


def test_paste_tap_check_in_and_plan(tclient):
    edit = new_session(tclient, players=PLAYERS)["edit"]
    assert tclient.get(edit + "/tournament").status_code == 200
    resp = post(tclient, edit, "paste", pairs="Ane, Bea\nCarlos\nEneko, Fermín\nCarlos, Dani")
    assert resp.status_code == 422
    page = resp.get_data(as_text=True)
    assert "Line 2: a pair is two names" in page and "Eneko" in page
    resp = post(tclient, edit, "paste", pairs="Ane, Bea\nEneko, Fermín\nCarlos, Dani\nGorka, Hodei\nIker, Jone")
    assert resp.status_code == 303, resp.get_data(as_text=True)
    page = tclient.get(edit + "/tournament").get_data(as_text=True)
    assert "Eneko &amp; Fermín" in page and "Bracket A" in page
    resp = post(tclient, edit, "pair", a="Ane", b="Bea")
    assert resp.status_code == 422
    resp = post(tclient, edit, "paste", pairs="Koldo, Lur\nMikel, Nerea")
    assert resp.status_code == 303
    resp = post(tclient, edit, "checkin", present=["0", "1", "2", "3", "4", "6"])
    assert resp.status_code == 303
    resp = post(tclient, edit, "plan", template="swiss_knockout", rounds="3", top="4", games_to_win="2",
                group_games_to_win="1", final_games_to_win="3", groups="2", places="2", third_place="on")
    assert resp.status_code == 303, resp.get_data(as_text=True)
    page = tclient.get(edit + "/tournament").get_data(as_text=True)
    assert "Swiss" in page and "Koldo &amp; Lur" not in page and "Mikel &amp; Nerea" in page
    assert "Round 1: proposed" in page and "Table 3" in page                  # 6 pairs: 3 tables
    resp = post(tclient, edit, "plan", template="groups_brackets", groups="9", places="2", rounds="3", top="4",
                games_to_win="2", group_games_to_win="1", final_games_to_win="0")
    assert resp.status_code == 422 and 'id="err-plan"' in resp.get_data(as_text=True)


def test_a_view_link_cannot_set_up(tclient):
    s = new_session(tclient, players=PLAYERS)
    assert tclient.get(s["view"] + "/tournament").status_code == 403


def test_fixed_once_a_stage_began(tclient):
    resp = tclient.post("/import", data={"csrf": csrf(tclient), "k": "",
                                         "file": (io.BytesIO(json.dumps(example_doc()).encode()), "night.json")},
                        content_type="multipart/form-data")
    assert resp.status_code == 303, resp.get_data(as_text=True)
    edit = resp.headers["Location"]
    page = tclient.get(edit + "/tournament").get_data(as_text=True)
    assert "the pairs and the plan are fixed" in page and "/tournament/plan" not in page
    assert 'id="classification"' in page and "1. Ane &amp; Bea" in page
    fields = form_fields(page, edit + "/tournament/checkin")
    resp = tclient.post(edit + "/tournament/checkin", data={**fields, "present": ["0", "1"]})
    assert resp.status_code == 409


def test_fifty_pairs_pasted_at_once(tclient):
    edit = new_session(tclient, players=PLAYERS)["edit"]
    text = "\n".join(f"Jugador {2 * i}, Jugador {2 * i + 1}" for i in range(50))
    resp = post(tclient, edit, "paste", pairs=text)
    assert resp.status_code == 303, resp.get_data(as_text=True)[-2000:]
    page = tclient.get(edit + "/tournament").get_data(as_text=True)
    assert "Jugador 98 &amp; Jugador 99" in page


def test_two_pairs_make_a_knockout_until_a_plan_is_chosen(tclient):
    edit = new_session(tclient, players=PLAYERS)["edit"]
    resp = post(tclient, edit, "paste", pairs="Ane, Bea\nCarlos, Dani")
    assert resp.status_code == 303, resp.get_data(as_text=True)[-2000:]
    page = tclient.get(edit + "/tournament").get_data(as_text=True)
    assert "<strong>Knockout</strong>" in page
