"""The organizer's tournament setup page (companion/web/tournament.py), registered here as the app will:
pairs pasted (every bad line named) or tapped, the check-in, the stage plan; fixed once a stage began."""
import html as htmllib
import io
import json
import re

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
    resp = post(tclient, edit, "plan", template="swiss_knockout", **{"swiss_knockout-rounds": "3",
                "swiss_knockout-top": "4", "swiss_knockout-games_to_win": "2", "swiss_knockout-swiss_games_to_win": "1",
                "swiss_knockout-final_games_to_win": "3", "swiss_knockout-third_place": "on"})
    assert resp.status_code == 303, resp.get_data(as_text=True)
    page = tclient.get(edit + "/tournament").get_data(as_text=True)
    assert "Swiss" in page and "Koldo &amp; Lur" not in page and "Mikel &amp; Nerea" in page
    assert "Round 1: proposed" in page and "Table 3" in page                  # 6 pairs: 3 tables
    resp = post(tclient, edit, "plan", template="groups_brackets", **{"groups_brackets-groups": "9"})
    assert resp.status_code == 422 and 'id="err-plan"' in resp.get_data(as_text=True)
    resp = post(tclient, edit, "plan", template="groups_brackets", **{"groups_brackets-groups": "x"})
    assert resp.status_code == 422 and "Groups must be a whole number" in resp.get_data(as_text=True)
    resp = post(tclient, edit, "plan", template="ladder")
    assert resp.status_code == 422 and "choose one of the stage plans" in resp.get_data(as_text=True)


def club_of(client, edit):
    return client.get(edit + "/session.json").get_json()["club"]


def plan_form(page: str, action: str) -> dict:
    """Every field the plan form sends as it stands: hidden and number inputs, the checked radio and
    boxes."""
    body = re.search(r'<form[^>]*action="%s"[^>]*>(.*?)</form>' % re.escape(action), page, re.S).group(1)
    out = {}
    for tag in re.findall(r"<input[^>]*>", body):
        attrs = dict(re.findall(r'(\w[\w-]*)(?:="([^"]*)")?', tag[6:]))
        kind, name = attrs.get("type", "text"), attrs.get("name")
        if kind in ("radio", "checkbox"):
            if "checked" in attrs:
                out[name] = attrs.get("value") or "on"
        elif name:
            out[name] = htmllib.unescape(attrs.get("value", ""))
    return out


def test_the_default_plan_is_the_spec_example_and_every_setting_is_kept(tclient):
    """10 pairs pasted: the page's form as it comes (groups then brackets A and B), saved untouched, is the
    worked example's plan with its 50 minutes; then bracket B's settings changed, and the form shows them."""
    from tourneydata import P, STAGES

    edit = new_session(tclient, players=PLAYERS)["edit"]
    resp = post(tclient, edit, "paste", pairs="\n".join(", ".join(P[i]) for i in range(1, 11)))
    assert resp.status_code == 303
    page = tclient.get(edit + "/tournament").get_data(as_text=True)
    fields = plan_form(page, edit + "/tournament/plan")
    assert fields["template"] == "groups_brackets" and fields["minutes"] == "50"
    assert "groups_brackets-b_third_place" not in fields             # unchecked: no third place in B
    assert tclient.post(edit + "/tournament/plan", data=fields).status_code == 303
    club = club_of(tclient, edit)
    assert club["stages"] == STAGES and club["minutes"] == 50
    fields.update({"groups_brackets-b_third_place": "on", "groups_brackets-b_final_games_to_win": "3",
                   "groups_brackets-b_games_to_win": "1", "minutes": ""})
    page = tclient.get(edit + "/tournament").get_data(as_text=True)
    fields.update({k: v for k, v in form_fields(page, edit + "/tournament/plan").items() if k in ("csrf", "k", "v")})
    assert tclient.post(edit + "/tournament/plan", data=fields).status_code == 303
    club = club_of(tclient, edit)
    assert club["stages"][2] == {**STAGES[2], "games_to_win": 1, "final_games_to_win": 3, "third_place": True}
    assert club["stages"][:2] == STAGES[:2] and "minutes" not in club
    fields = plan_form(tclient.get(edit + "/tournament").get_data(as_text=True), edit + "/tournament/plan")
    assert (fields["groups_brackets-b_games_to_win"], fields["groups_brackets-b_final_games_to_win"],
            fields["groups_brackets-b_third_place"], fields["minutes"]) == ("1", "3", "on", "")


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


def imported(client, doc):
    resp = client.post("/import", data={"csrf": csrf(client), "k": "",
                                        "file": (io.BytesIO(json.dumps(doc).encode()), "night.json")},
                       content_type="multipart/form-data")
    assert resp.status_code == 303, resp.get_data(as_text=True)
    edit = resp.headers["Location"]
    page = client.get(edit).get_data(as_text=True)
    watch = re.search(r'value="http://[^"/]+(/s/[^"]+)" id="watch-link"', page).group(1)
    return edit, watch, page


def test_the_classification_on_the_session_page_and_as_csv(tclient):
    """Once every stage is done: the podium and the whole classification on the session page (the edit
    and the watch link alike), and the CSV from any link; before, neither (the CSV: its header alone)."""
    edit, watch, page = imported(tclient, example_doc())
    for html in (page, tclient.get(watch).get_data(as_text=True)):
        card = html[html.index('id="session-classification"'):]
        card = card[:card.index("</section>")]
        podium = re.search(r'<ol class="list podium-list">(.*?)</ol>', card, re.S).group(1)
        assert re.findall(r"<li>(.*?)</li>", podium) == ["1. Ane &amp; Bea", "2. Oier &amp; Paula",
                                                          "3. Eneko &amp; Fermín"]
        assert "(10)" in card and "9. Unai &amp; Ainhoa" in card and "7. Koldo &amp; Lur" in card
    assert "/tournament/classification.csv" in page
    resp = tclient.get(watch + "/tournament/classification.csv")
    assert resp.status_code == 200 and resp.mimetype == "text/csv"
    rows = resp.get_data(as_text=True).lstrip("\ufeff").splitlines()
    assert rows[0] == "session,rank,player_1,player_2,stage,stage_name"
    assert rows[1] == "AEIT night,1,Ane,Bea,1,Bracket A" and len(rows) == 11
    doc = example_doc()
    doc["games"] = doc["games"][:-1]                         # bracket B's final not played: not done
    edit, watch, page = imported(tclient, doc)
    assert 'id="session-classification"' not in page
    assert tclient.get(watch + "/tournament/classification.csv").get_data(as_text=True).lstrip("\ufeff") == \
        "session,rank,player_1,player_2,stage,stage_name\r\n"
    plain = new_session(tclient, players=PLAYERS)
    assert tclient.get(plain["view"] + "/tournament/classification.csv").status_code == 404


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
