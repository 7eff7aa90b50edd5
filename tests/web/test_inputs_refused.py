"""Inputs that once answered 500: each now gets a page (or a redirect) and changes nothing."""
import json

import pytest

from companion import service
from companion.storage.db import connect
from companion.record.session import FORMAT, load

SEATS = ["Ane", "Bea", "Carlos", "Dani"]


@pytest.fixture
def mus(app):
    """The edit link of a session whose Mus match has two finished hands."""
    hands = [{"tally": [{"team": "A", "points": 2}]}, {"tally": [{"team": "B", "points": 1}]}]
    doc = {"format": FORMAT, "name": "Night", "players": SEATS,
           "games": [{"kind": "mus", "rules": {"preset": "spanish"}, "seats": SEATS, "hands": hands}]}
    db = connect(app.config["DATABASE"])
    edit = service.create(db, load(doc), browser="t", location=lambda e: e).location
    db.conn.close()
    return f"/s/{edit}"


@pytest.mark.parametrize("draft", [{"grande": 5}, {"grande": [[1]]}, {"grande": [{"team": "A", "bet": [2]}]},
                                   {"tally": "x"}, {"showdown": {"grande": 7}}, [], {"cards": {"Ane": 5}}])
def test_a_malformed_draft_is_shown_as_unusable(client, mus, draft):
    resp = client.get(f"{mus}/mus/0/hand/1", query_string={"draft": json.dumps(draft)})
    assert resp.status_code in (200, 422), resp.status_code


def test_a_huge_fixed_notice_is_ignored(client, mus):
    resp = client.get(f"{mus}/mus/0", query_string={"fixed": "1", "was": "9" * 5000})
    assert resp.status_code == 200
    resp = client.get(f"{mus}/mus/0", query_string={"fixed": "99999999999999999999", "was": "1.2"})
    assert resp.status_code == 200


def test_a_date_at_the_end_of_the_calendar_filters(client):
    assert client.get("/history", query_string={"to": "9999-12-31"}).status_code == 200
    assert client.get("/history", query_string={"from": "0001-01-01", "to": "9999-12-31"}).status_code == 200


def test_a_language_switch_never_sends_a_line_break(client):
    resp = client.get("/lang/es", query_string={"next": "/\r\nX"})
    assert resp.status_code == 303 and resp.headers["Location"] == "/"
