"""A form's key is for that form only (issue 21): the same key with other fields or on another route is
refused (422, "this form was already used"), never silently answered with the first write's page; a true
retry (the same fields again: a double tap, a lost reply) lands once."""
import re

from helpers import csrf, form_fields, new_session

USED = "This form was already used"


def _post(client, edit, route, key, **fields):
    page = client.get(edit).get_data(as_text=True)
    data = {**form_fields(page, f"{edit}/{route}"), "k": key, **fields}
    return client.post(f"{edit}/{route}", data=data)


def _doc(client, edit):
    return client.get(edit + "/session.json").get_json()


def test_a_key_reused_with_other_fields_is_refused_not_dropped(client):
    links = new_session(client)
    assert _post(client, links["edit"], "rename", "key-1", name="New name").status_code == 303
    resp = _post(client, links["edit"], "rename", "key-1", name="Different name")
    assert resp.status_code == 422 and USED in resp.get_data(as_text=True)
    assert _doc(client, links["edit"])["name"] == "New name"


def test_a_key_reused_on_another_route_is_refused(client):
    links = new_session(client)
    assert _post(client, links["edit"], "rename", "key-2", name="New name").status_code == 303
    resp = _post(client, links["edit"], "players", "key-2", name="Zoe")
    assert resp.status_code == 422 and USED in resp.get_data(as_text=True)
    assert "Zoe" not in _doc(client, links["edit"])["players"]


def test_a_true_retry_lands_once_with_the_first_answer(client):
    links = new_session(client)
    page = client.get(links["edit"]).get_data(as_text=True)
    data = {**form_fields(page, links["edit"] + "/players"), "k": "key-3", "name": "Zoe"}
    first = client.post(links["edit"] + "/players", data=data)
    again = client.post(links["edit"] + "/players", data=data)       # the same form sent twice
    assert first.status_code == again.status_code == 303
    assert again.headers["Location"] == first.headers["Location"]
    assert _doc(client, links["edit"])["players"].count("Zoe") == 1


def _new(client, key, name, p1="Bea"):
    return client.post("/new", data={"csrf": csrf(client), "k": key, "name": name, "p0": "Ane", "p1": p1})


def test_new_refuses_a_reused_key_with_other_fields(app, client):
    first = _new(client, "key-4", "Friday")
    assert first.status_code == 303
    assert _new(client, "key-4", "Friday").headers["Location"] == first.headers["Location"]     # a retry
    resp = _new(client, "key-4", "Saturday")
    assert resp.status_code == 422 and USED in resp.get_data(as_text=True)
    resp = _new(client, "key-4", "Friday", p1="Carlos")
    assert resp.status_code == 422
    with app.app_context():
        from companion.storage.db import get_db

        assert [r[0] for r in get_db().execute("SELECT name FROM sessions")] == ["Friday"]


def test_a_key_from_new_cannot_be_reused_in_a_session(client):
    first = _new(client, "key-5", "Friday")
    edit = first.headers["Location"]
    resp = _post(client, edit, "rename", "key-5", name="Another")
    assert resp.status_code == 422 and USED in resp.get_data(as_text=True)
    assert _doc(client, edit)["name"] == "Friday"


def test_the_refusal_is_said_in_the_readers_language(client):
    links = new_session(client)
    _post(client, links["edit"], "rename", "key-6", name="New name")
    page = client.get(links["edit"]).get_data(as_text=True)
    data = {**form_fields(page, links["edit"] + "/rename"), "k": "key-6", "name": "Otro"}
    resp = client.post(links["edit"] + "/rename", data=data, headers={"Accept-Language": "es"})
    assert resp.status_code == 422 and re.search("formulario ya se ha usado", resp.get_data(as_text=True))
