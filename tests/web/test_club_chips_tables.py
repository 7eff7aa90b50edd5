"""Issue 28 point 4: a free night puts a Newmarket or Desmoche game at a table from the organizer's page:
its own table link and card, and the sala shows it; bad input is refused beside the form, nothing written."""
import html as htmllib
import re

from helpers import form_fields, new_session

PLAYERS = ["Ane", "Bea", "Carlos", "Dani", "Eneko"]


def free_night(client):
    s = new_session(client, players=PLAYERS)
    edit = s["edit"]
    page = client.get(edit + "/club").get_data(as_text=True)
    resp = client.post(edit + "/club/setup", data={**form_fields(page, edit + "/club/setup"), "format": "free"})
    assert resp.status_code == 303, resp.get_data(as_text=True)
    return s


def add(client, edit, **data):
    page = client.get(edit + "/club").get_data(as_text=True)
    return client.post(edit + "/club/table", data={**form_fields(page, edit + "/club/table"), **data})


def test_newmarket_and_desmoche_at_tables(client):
    s = free_night(client)
    edit = s["edit"]
    resp = add(client, edit, label="11", kind="newmarket", players=["Ane", "Bea", "Carlos"])
    assert resp.status_code == 303, resp.get_data(as_text=True)
    resp = add(client, edit, label="12", kind="desmoche", players=["Dani", "Eneko", "Ane"])
    assert resp.status_code == 303, resp.get_data(as_text=True)
    page = client.get(edit + "/club").get_data(as_text=True)
    links = dict(re.findall(r'<strong>Table ([^<]+)</strong>\s*<input readonly value="http://table\.example:8000(/s/[^"]+)"', page))
    assert set(links) == {"11", "12"}
    resp = client.get(links["11"] + "/table")
    assert resp.status_code == 303 and "/newmarket/0" in resp.headers["Location"]
    resp = client.get(links["12"] + "/table")
    assert resp.status_code == 303 and "/desmoche/1" in resp.headers["Location"]
    cards = htmllib.unescape(client.get(edit + "/club/cards").get_data(as_text=True))
    assert cards.count('class="table-card"') == 2 and "Table 11" in cards and "Table 12" in cards
    sala = htmllib.unescape(client.get(s["view"] + "/sala").get_data(as_text=True))
    assert sala.count('class="tbl') == 2 and "Table 11" in sala and "Table 12" in sala and "Carlos" in sala


def test_a_bad_chips_table_is_refused_beside_the_form(client):
    s = free_night(client)
    edit = s["edit"]
    resp = add(client, edit, label="11", kind="newmarket", players=["Ane"])
    assert resp.status_code == 422 and 'id="err-seats"' in resp.get_data(as_text=True)
    resp = add(client, edit, label="11", kind="poker", players=["Ane", "Bea", "Carlos"])
    assert resp.status_code == 422 and "Choose one of the games offered" in resp.get_data(as_text=True)
    resp = add(client, edit, label="", kind="desmoche", players=["Ane", "Bea", "Carlos"])
    assert resp.status_code == 422 and 'id="err-label"' in resp.get_data(as_text=True)
    page = client.get(edit + "/club").get_data(as_text=True)
    assert "Table 11" not in page
