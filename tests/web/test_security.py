"""Hardening: a replaced link opens nothing and its holders only watch; a stale correction is refused with
its draft kept; odd input never answers 500; the admin token stays out of cookies and guesses are slowed;
keys are scoped; tokens stay out of logs; links never come from the Host header; pages that list edit
links are not cached; cookies are Secure over HTTPS."""
import base64
import logging
import re
import zlib

import pytest

from companion import create_app
from helpers import csrf, form_fields, new_session


def _opened(client, link):
    """Open a link as a phone does: the page, then its "list it on this phone" beacon."""
    page = client.get(link).get_data(as_text=True)
    if f'action="{link}/opened"' in page:
        assert client.post(f"{link}/opened", data={"csrf": csrf(client)}).status_code == 204
    return page


def _home_links(client):
    return re.findall(r'href="(/s/[^"/]+)"', client.get("/").get_data(as_text=True))


# ---------------------------------------------------------------------------------------------- 1. replace

def test_replacing_the_link_turns_every_holder_of_the_old_one_into_a_watcher(app, client):
    links = new_session(client)
    other = app.test_client()                    # a second scorer who opened the edit link
    _opened(other, links["edit"])
    assert links["edit"] in _home_links(other)
    ask = client.get(links["edit"] + "/replace").get_data(as_text=True)
    resp = client.post(links["edit"] + "/replace", data=form_fields(ask, links["edit"] + "/replace"))
    new_edit = resp.headers["Location"].split("?")[0]
    assert new_edit != links["edit"]
    # the replacer scores on with the new link; the other phone watches, and never learns the new link
    assert new_edit in _home_links(client)
    home = other.get("/").get_data(as_text=True)
    assert new_edit not in home and links["edit"] not in home and links["view"] in home
    history = other.get("/history").get_data(as_text=True)
    assert new_edit.rsplit("/", 1)[1] not in history and links["view"] + "/history" in history
    # the old link opens nothing and writes nothing
    assert other.get(links["edit"]).status_code == 404
    assert other.post(links["edit"] + "/rename", data={"csrf": csrf(other), "name": "Hacked"}).status_code == 404
    # opening the new link (given again) makes a scorer again
    _opened(other, new_edit)
    assert new_edit in _home_links(other)


def test_replacing_asks_first_through_a_get_that_changes_nothing(client):
    links = new_session(client)
    client.get(links["edit"] + "/replace")
    assert client.get(links["edit"]).status_code == 200


# ---------------------------------------------------------------------------------------------- 2. stale fix

def _mus(client, links):
    page = client.get(f"{links['edit']}/mus/new").get_data(as_text=True)
    data = {**form_fields(page, f"{links['edit']}/mus/new"), "seat0": "Ane", "seat1": "Bea", "seat2": "Carlos",
            "seat3": "Dani"}
    game = client.post(f"{links['edit']}/mus/new", data=data).headers["Location"]
    for move in ("bet:A:2", "fold", "pass", "declare", "pass"):
        page = client.get(game).get_data(as_text=True)
        client.post(f"{game}/act", data={**form_fields(page, f"{game}/act"), "move": move})
    return game


def _redo(client, url, moves):
    loc = url
    for move in moves:
        page = client.get(loc).get_data(as_text=True)
        import html as htmllib

        data = {k: htmllib.unescape(v) for k, v in form_fields(page, url).items()}
        resp = client.post(url, data={**data, "move": move})
        assert resp.status_code == 303, resp.get_data(as_text=True)[-500:]
        loc = resp.headers["Location"]
    return loc


def test_two_phones_correcting_one_hand_the_second_is_told_and_keeps_its_draft(app, client):
    import html as htmllib

    links = new_session(client)
    game = _mus(client, links)
    second = app.test_client()
    _opened(second, links["edit"])
    url = f"{game}/hand/1"
    mine = _redo(client, url, ("bet:A:5", "fold", "pass", "declare", "pass"))
    theirs = _redo(second, url, ("bet:B:2", "fold", "pass", "declare", "pass"))
    page = client.get(mine).get_data(as_text=True)
    data = {k: htmllib.unescape(v) for k, v in form_fields(page, url).items()}
    assert client.post(url, data={**data, "move": "save"}).status_code == 303
    page = second.get(theirs).get_data(as_text=True)
    data = {k: htmllib.unescape(v) for k, v in form_fields(page, url).items()}
    resp = second.post(url, data={**data, "move": "save"})
    assert resp.status_code == 409
    html = resp.get_data(as_text=True)
    assert "changed on another phone since you opened it" in html
    assert "Save the fix" in html                     # the draft is still there, to check and save
    hand = client.get(links["edit"] + "/session.json").get_json()["games"][0]["hands"][0]
    assert hand["grande"] == [{"team": "A", "bet": 5}, {"team": "B", "fold": True}]     # the first one stands
    data = {k: htmllib.unescape(v) for k, v in form_fields(html, url).items()}
    assert second.post(url, data={**data, "move": "save"}).status_code == 303       # saved over it, knowingly
    hand = client.get(links["edit"] + "/session.json").get_json()["games"][0]["hands"][0]
    assert hand["grande"] == [{"team": "B", "bet": 2}, {"team": "A", "fold": True}]


# ---------------------------------------------------------------------------------------------- 3. no 500

def test_odd_csrf_values_are_refused_not_crashing(client):
    links = new_session(client)
    for value in ("é", "\u202e", "x" * 5000, "💥"):
        resp = client.post(links["edit"] + "/rename", data={"csrf": value, "name": "x"})
        assert resp.status_code == 400
        resp = client.post(links["edit"] + "/rename", data={"name": "x"}, headers={"X-CSRF-Token": value.encode()})
        assert resp.status_code == 400


def test_an_odd_admin_token_is_not_found(app, client):
    app.config["ADMIN_TOKEN"] = "a-long-enough-admin-token"
    assert client.get("/admin?token=%C3%A9").status_code == 404
    assert client.get("/admin?token=%F0%9F%92%A5").status_code == 404


def test_a_deeply_nested_draft_is_refused(client):
    links = new_session(client)
    game = _mus(client, links)
    draft = "[" * 5000 + "]" * 5000
    assert client.get(f"{game}/hand/1", query_string={"draft": draft}).status_code == 422
    resp = client.post(f"{game}/hand/1", data={"csrf": csrf(client), "draft": '{"a":' * 3000 + "1" + "}" * 3000,
                                               "move": "pass"})
    assert resp.status_code == 422


def test_amounts_that_would_overflow_are_refused_beside_the_field(client):
    links = new_session(client, players=("Ane", "Bea", "Carlos"))
    url = f"{links['edit']}/desmoche/new"
    page = client.get(url).get_data(as_text=True)
    data = {**form_fields(page, url), "seat0": "Ane", "seat1": "Bea", "seat2": "Carlos", "stake": "999999999",
            "unit_value": "9999999.99"}
    resp = client.post(url, data=data)
    html = resp.get_data(as_text=True)
    assert resp.status_code == 422 and 'id="err-stake"' in html and 'id="err-unit_value"' in html
    assert client.get(links["edit"] + "/session.json").get_json()["games"] == []


def test_the_largest_amounts_allowed_still_draw_a_player_page(client):
    links = new_session(client, players=("Ane", "Bea"))
    url = f"{links['edit']}/desmoche/new"
    page = client.get(url).get_data(as_text=True)
    data = {**form_fields(page, url), "seat0": "Ane", "seat1": "Bea", "stake": "1000000", "unit_value": "100000"}
    game = client.post(url, data=data).headers["Location"]
    for winner in (None, None, "Ane", "Bea", None, "Ane"):
        page = client.get(game).get_data(as_text=True)
        hand = {**form_fields(page, f"{game}/hand"), "winner": "none" if winner is None else f"p:{winner}"}
        assert client.post(f"{game}/hand", data=hand).status_code in (303, 422)
    assert client.get("/players/ane").status_code == 200
    assert client.get("/players/bea").status_code == 200


# ---------------------------------------------------------------------------------------------- 4. admin

def _cookie_text(client) -> str:
    cookie = client.get_cookie("companion").value
    payload = cookie.split(".")[0 if not cookie.startswith(".") else 1]
    raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    return (zlib.decompress(raw) if cookie.startswith(".") else raw).decode()


def test_the_admin_cookie_holds_no_token(app, client):
    token = "an-admin-token-long-enough"
    app.config["ADMIN_TOKEN"] = token
    assert client.get(f"/admin?token={token}").status_code == 303
    assert token not in _cookie_text(client)
    assert "(all: admin)" in client.get("/history").get_data(as_text=True)


def test_admin_guesses_are_slowed(app, client):
    app.config["ADMIN_TOKEN"] = "an-admin-token-long-enough"
    codes = [client.get(f"/admin?token=guess{i}").status_code for i in range(7)]
    assert codes[:5] == [404] * 5 and codes[5:] == [429, 429]
    assert "Too many wrong tries" in client.get("/admin?token=x").get_data(as_text=True)


def test_link_guesses_are_slowed_not_a_table_s_phones(client):
    links = new_session(client)
    for _ in range(60):
        assert client.get(links["view"]).status_code == 200          # a phone at the table: never limited
    codes = [client.get(f"/s/guess{i:04d}xxxxxxxxxxxxxxxxxxxxx").status_code for i in range(125)]
    assert codes[:120] == [404] * 120 and codes[-1] == 429


def test_a_short_admin_token_is_refused_at_start():
    import click

    from companion.ops.cli import _admin_token

    with pytest.raises(click.BadParameter):
        _admin_token("short")
    made = _admin_token("auto")
    assert len(made) >= 16 and _admin_token("x" * 16) == "x" * 16


# ---------------------------------------------------------------------------------------------- 5. keys

def test_keys_are_scoped_to_a_browser_and_capped(app, client):
    links = new_session(client)
    other = app.test_client()
    _opened(other, links["edit"])
    for c, name in ((client, "One"), (other, "Two")):
        page = c.get(links["edit"]).get_data(as_text=True)
        data = {**form_fields(page, links["edit"] + "/rename"), "k": "same-key", "name": name}
        assert c.post(links["edit"] + "/rename", data=data).status_code == 303
    assert client.get(links["edit"] + "/session.json").get_json()["name"] == "Two"     # both landed
    resp = client.post("/new", data={"csrf": csrf(client), "k": "k" * (1024 * 1024), "name": "Night", "p0": "Ane",
                                     "p1": "Bea"})
    assert resp.status_code in (400, 413)


# ---------------------------------------------------------------------------------------------- 6. logs

def test_tokens_never_reach_the_log(tmp_path, caplog):
    app = create_app({"TESTING": False, "DATABASE": str(tmp_path / "log.db")})

    @app.get("/s/<token>/boom")
    def boom(token):
        raise RuntimeError("boom")

    client = app.test_client()
    token = new_session_plain(client).rsplit("/", 1)[1]
    with caplog.at_level(logging.ERROR):
        assert client.get(f"/s/{token}/boom").status_code == 500
        assert client.get(f"/admin?token=secret-{token}").status_code == 404
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "Exception on /s/…/boom" in text and token not in text


# ---------------------------------------------------------------------------------------------- 7. links

def test_links_never_come_from_the_host_header(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "h.db")})
    client = app.test_client()
    links = new_session_plain(client)
    page = client.get(links, headers={"Host": "evil.example"}).get_data(as_text=True)
    assert "evil.example" not in page


def new_session_plain(client) -> str:
    data = {"csrf": csrf(client), "name": "N", "p0": "Ane", "p1": "Bea", "k": ""}
    return client.post("/new", data=data).headers["Location"]


def test_a_server_on_loopback_says_other_phones_cannot_reach_it(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "l.db"), "BIND_HOST": "127.0.0.1"})
    client = app.test_client()
    page = client.get(new_session_plain(client)).get_data(as_text=True)
    assert "Other phones cannot open these links" in page and "--host 0.0.0.0" in page
    assert re.search(r'value="http://127\.0\.0\.1(:\d+)?/s/', page)


# ---------------------------------------------------------------------------------------------- 8. the rest

def test_pages_listing_edit_links_are_not_stored(client):
    links = new_session(client)
    for path in ("/", "/history", "/players/ane", links["edit"]):
        assert "no-store" in client.get(path).headers.get("Cache-Control", ""), path


def test_cookies_are_secure_behind_an_https_proxy(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "p.db"), "BEHIND_PROXY": True})
    client = app.test_client()
    resp = client.get("/", headers={"X-Forwarded-Proto": "https"})
    assert "Secure" in resp.headers["Set-Cookie"]
    resp = app.test_client().get("/")
    assert "Secure" not in resp.headers["Set-Cookie"]


@pytest.mark.parametrize("name", ["Ane\u202e", "A\u0007b", "Bea\u200b", "\u2066Dani"])
def test_names_with_hidden_characters_are_refused_beside_the_field(client, name):
    resp = client.post("/new", data={"csrf": csrf(client), "name": "Night", "p0": "Ane", "p1": name, "k": ""})
    assert resp.status_code == 422
    assert re.search(r'id="err-p1" role="alert">[^<]*control or text-direction', resp.get_data(as_text=True))


def test_a_file_with_a_duplicate_key_is_refused_with_its_path(client):
    import io

    raw = b'{"format": "companion-session/1", "name": "N", "players": ["Ane", "Bea"], "name": "M"}'
    resp = client.post("/import", data={"csrf": csrf(client), "k": "", "file": (io.BytesIO(raw), "s.json")},
                       content_type="multipart/form-data")
    assert resp.status_code == 422 and "$:" in resp.get_data(as_text=True) and "name" in resp.get_data(as_text=True)
