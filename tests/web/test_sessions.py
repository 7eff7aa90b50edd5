"""Every route of the sessions area through the Flask client."""
import io
import json
import re

from helpers import unchanged, csrf, form_fields, new_session


def test_home_lists_nothing_for_a_new_browser(client):
    page = client.get("/").get_data(as_text=True)
    assert "New session" in page
    assert "Sessions you start or open on this phone appear here." in page


def test_security_headers(client):
    resp = client.get("/")
    csp = resp.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert resp.headers["Referrer-Policy"] == "no-referrer"
    assert "SameSite=Lax" in resp.headers["Set-Cookie"]
    assert "HttpOnly" in resp.headers["Set-Cookie"]


def test_create_session_redirects_to_the_edit_page(client):
    links = new_session(client, players=("Ane", "Iñaki", "赤桐"))
    page = client.get(links["edit"]).get_data(as_text=True)
    for name in ("Ane", "Iñaki", "赤桐", "Friday at Koldo&#39;s"):
        assert name in page
    assert "Score with me" in page and "Watch" in page
    assert page.count("<svg class=\"qr\"") == 2


def test_home_lists_the_sessions_this_browser_made(client):
    new_session(client, name="First night")
    new_session(client, name="Second night")
    page = client.get("/").get_data(as_text=True)
    assert page.index("Second night") < page.index("First night")


def test_another_browser_does_not_see_my_sessions(app, client):
    new_session(client, name="Mine only")
    other = app.test_client()
    assert "Mine only" not in other.get("/").get_data(as_text=True)


def test_admin_token_unlocks_the_archive(app, client):
    app.config["ADMIN_TOKEN"] = "s3cret-admin"
    new_session(client, name="Somebody's night")
    other = app.test_client()
    assert other.get("/admin?token=wrong").status_code == 404
    assert other.get("/admin?token=s3cret-admin").status_code == 303
    assert "Somebody&#39;s night" in other.get("/").get_data(as_text=True)


def test_names_are_trimmed_and_validated_beside_the_field(client):
    token = csrf(client)
    resp = client.post("/new", data={"csrf": token, "name": "  Night  ", "p0": "  Ane  ", "p1": "ane",
                                     "p2": "x" * 41})
    assert resp.status_code == 422
    page = resp.get_data(as_text=True)
    assert re.search(r'name="p1".*?ane is already listed', page, re.S)
    assert re.search(r'name="p2".*?at most 40 characters', page, re.S)


def test_one_player_is_not_a_session(client):
    resp = client.post("/new", data={"csrf": csrf(client), "name": "Solo", "p0": "Ane"})
    assert resp.status_code == 422
    assert "Type at least two players." in resp.get_data(as_text=True)


def test_missing_name_is_refused(client):
    resp = client.post("/new", data={"csrf": csrf(client), "name": " ", "p0": "Ane", "p1": "Bea"})
    assert resp.status_code == 422
    assert "a session needs a name" in resp.get_data(as_text=True)


def test_bad_currency_is_refused_beside_the_field(client):
    resp = client.post("/new", data={"csrf": csrf(client), "name": "N", "p0": "Ane", "p1": "Bea",
                                     "currency": "E1"})
    assert resp.status_code == 422
    assert "ISO 4217" in resp.get_data(as_text=True)


def test_double_submit_creates_one_session(client, app):
    data = {"csrf": csrf(client), "name": "Once", "p0": "Ane", "p1": "Bea", "k": "same-key-123"}
    first = client.post("/new", data=data)
    second = client.post("/new", data=data)
    assert first.headers["Location"] == second.headers["Location"]
    with app.app_context():
        from companion.storage.db import get_db
        assert get_db().execute("SELECT count(*) FROM sessions").fetchone()[0] == 1


def test_csrf_is_required_for_every_write(client):
    links = new_session(client)
    assert client.post("/new", data={"name": "x", "p0": "A", "p1": "B"}).status_code == 400
    assert client.post(links["edit"] + "/rename", data={"name": "x"}).status_code == 400
    assert client.post(links["edit"] + "/rename", data={"name": "x", "csrf": "forged"}).status_code == 400
    assert client.post(links["edit"] + "/rename", data={"name": "x"},
                       headers={"X-CSRF-Token": csrf(client)}).status_code == 303


def test_view_link_renders_no_edit_control_and_refuses_every_write(client):
    links = new_session(client)
    page = client.get(links["view"]).get_data(as_text=True)
    assert "Watching" in page
    assert "Score with me" not in page and "edit-link" not in page
    # the only form a watcher gets asks to list the session on this phone; it changes nothing
    assert all(action.endswith("/opened") for action in re.findall(r'<form[^>]*method="post"[^>]*action="([^"]+)"', page))
    token = csrf(client)
    for path in ("/rename", "/players", "/undo/0", "/replace"):
        resp = client.post(links["view"] + path, data={"csrf": token, "name": "Hacked"})
        assert resp.status_code == 403, path
    assert "Hacked" not in client.get(links["edit"]).get_data(as_text=True)


def test_unknown_token_is_404(client):
    assert client.get("/s/not-a-real-token").status_code == 404
    assert client.get("/s/" + "x" * 500).status_code == 404


def test_rename_and_add_player(client):
    links = new_session(client)
    page = client.get(links["edit"]).get_data(as_text=True)
    hidden = form_fields(page, links["edit"] + "/rename")
    assert client.post(links["edit"] + "/rename", data={**hidden, "name": "Sábado"}).status_code == 303
    hidden = form_fields(client.get(links["edit"]).get_data(as_text=True), links["edit"] + "/players")
    assert client.post(links["edit"] + "/players", data={**hidden, "name": "Eneko"}).status_code == 303
    page = client.get(links["edit"]).get_data(as_text=True)
    assert "Sábado" in page and "Eneko" in page


def test_adding_a_player_twice_is_refused_beside_the_field(client):
    links = new_session(client)
    hidden = form_fields(client.get(links["edit"]).get_data(as_text=True), links["edit"] + "/players")
    resp = client.post(links["edit"] + "/players", data={**hidden, "name": "ane"})
    assert resp.status_code == 422
    assert "Ane is already playing" in resp.get_data(as_text=True)


def test_user_text_is_escaped(client):
    links = new_session(client, name="<script>alert(1)</script>", players=("<b>Ane</b>", "Bea"))
    page = client.get(links["edit"]).get_data(as_text=True)
    assert "<script>alert(1)</script>" not in page and "<b>Ane</b>" not in page
    assert "&lt;script&gt;" in page and "&lt;b&gt;Ane&lt;/b&gt;" in page


def test_live_poll_is_empty_when_unchanged_and_the_region_when_changed(client):
    links = new_session(client)
    hx = {"HX-Request": "true"}
    version = re.search(r'data-version="(\d+)"', client.get(links["view"]).get_data(as_text=True)).group(1)
    assert unchanged(client.get(f"{links['view']}?since={version}", headers=hx))
    hidden = form_fields(client.get(links["edit"]).get_data(as_text=True), links["edit"] + "/rename")
    client.post(links["edit"] + "/rename", data={**hidden, "name": "Changed"})
    resp = client.get(f"{links['view']}?since={version}", headers=hx)
    assert resp.status_code == 200
    body = resp.get_data(as_text=True)
    assert body.lstrip().startswith('<section id="live"') and "Changed" in body and "<html" not in body
    assert "HX-Request" in resp.headers["Vary"]


def test_replacing_the_edit_link_asks_first_then_says_what_it_did(client):
    links = new_session(client)
    page = client.get(links["edit"]).get_data(as_text=True)
    assert links["edit"] + "/replace" in page and links["edit"] + "/replace" not in re.findall(r'action="([^"]+)"', page)
    ask = client.get(links["edit"] + "/replace").get_data(as_text=True)
    assert "Replace the scoring link?" in ask and "opens nothing" in ask
    resp = client.post(links["edit"] + "/replace", data=form_fields(ask, links["edit"] + "/replace"))
    assert resp.status_code == 303 and links["edit"] not in resp.headers["Location"]
    done = client.get(resp.headers["Location"]).get_data(as_text=True)
    assert "The scoring link was replaced" in done
    assert client.get(links["edit"]).status_code == 404
    assert client.get(links["view"]).status_code == 200


def test_export_and_state_json(client):
    links = new_session(client, players=("Ane", "Bea"))
    exported = client.get(links["view"] + "/session.json")
    assert exported.headers["Content-Disposition"].startswith("attachment")
    doc = exported.get_json()
    assert doc["format"] == "companion-session/1" and doc["players"] == ["Ane", "Bea"]
    state = client.get(links["view"] + "/state.json").get_json()
    assert state["format"] == "companion-state/1"
    assert state["settle"]["net"] == {"Ane": 0, "Bea": 0}


def _import(client, payload: bytes, name="s.json"):
    data = {"csrf": csrf(client), "file": (io.BytesIO(payload), name)}
    return client.post("/import", data=data, content_type="multipart/form-data")


def test_import_then_export_is_identical(client):
    doc = {"format": "companion-session/1", "name": "Paper notes", "started": "2026-11-20T21:05:00+01:00",
           "currency": "EUR", "players": ["Ane", "Bea", "Carlos"], "games": []}
    resp = _import(client, json.dumps(doc).encode())
    assert resp.status_code == 303
    assert client.get(resp.headers["Location"] + "/session.json").get_json() == doc


def test_bad_files_are_refused_with_the_json_path(client, app):
    cases = [
        (b"{not json", "$: not valid JSON at line 1, column 2"),
        (json.dumps([1]).encode(), "$: a session file is a JSON object"),
        (json.dumps({"format": "other"}).encode(), "format: format must be"),
        (json.dumps({"format": "companion-session/1", "name": "n", "players": ["A", "A"]}).encode(),
         "players[1]: A is listed twice"),
        (json.dumps({"format": "companion-session/1", "name": "n", "players": ["A", "B"],
                     "games": [{"kind": "poker"}]}).encode(), "games[0].kind: unknown game kind"),
        (json.dumps({"format": "companion-session/1", "name": "n", "players": ["A", "B"], "colour": 1}).encode(),
         "colour: unknown key"),
        ("\xff".encode("latin-1"), "not UTF-8 text at byte 0"),
    ]
    for payload, message in cases:
        resp = _import(client, payload)
        assert resp.status_code == 422, message
        assert message in resp.get_data(as_text=True), message
    with app.app_context():
        from companion.storage.db import get_db
        assert get_db().execute("SELECT count(*) FROM sessions").fetchone()[0] == 0


def test_import_without_a_file(client):
    resp = client.post("/import", data={"csrf": csrf(client)}, content_type="multipart/form-data")
    assert resp.status_code == 422
    assert "Choose a session file" in resp.get_data(as_text=True)


def test_static_files_are_versioned_and_compressed(client):
    page = client.get("/").get_data(as_text=True)
    css = re.search(r'href="(/static/app\.css\?v=[0-9a-f]+)"', page).group(1)
    resp = client.get(css, headers={"Accept-Encoding": "gzip"})
    assert resp.headers["Content-Encoding"] == "gzip"


def test_healthz(client):
    assert client.get("/healthz").get_data(as_text=True) == "ok"


def test_session_page_links_to_hand_by_hand_and_csv_once_a_game_exists(client):
    links = new_session(client)
    page = client.get(links["edit"]).get_data(as_text=True)
    assert "Hand by hand" not in page and links["edit"] + "/session.csv" in page
    form = form_fields(client.get(links["edit"] + "/mus/new").get_data(as_text=True), links["edit"] + "/mus/new")
    form.update({"preset": "pagat", **{f"seat{i}": p for i, p in enumerate(("Ane", "Bea", "Carlos", "Dani"))}})
    assert client.post(links["edit"] + "/mus/new", data=form).status_code == 303
    for token in (links["edit"], links["view"]):
        page = client.get(token).get_data(as_text=True)
        assert f'href="{token}/history"' in page and f'href="{token}/session.csv"' in page


def test_a_name_that_differs_only_by_accents_is_refused_beside_the_field(client):
    data = {"csrf": csrf(client), "name": "x", "p0": "Iñaki", "p1": "Inaki", "p2": "Bea"}
    resp = client.post("/new", data=data)
    assert resp.status_code == 422 and "Inaki is already listed (as Iñaki)" in resp.get_data(as_text=True)


def test_undo_says_what_it_takes_back(client):
    links = new_session(client)
    form = form_fields(client.get(links["edit"] + "/mus/new").get_data(as_text=True), links["edit"] + "/mus/new")
    form.update({"preset": "pagat", **{f"seat{i}": p for i, p in enumerate(("Ane", "Bea", "Carlos", "Dani"))}})
    game = client.post(links["edit"] + "/mus/new", data=form).headers["Location"]
    page = client.get(game).get_data(as_text=True)
    assert "Remove this game" in page and "Undo last" not in page       # nothing recorded yet
    act = form_fields(page, game + "/act")
    assert client.post(game + "/act", data={**act, "move": "pass"}).status_code == 303
    page = client.get(game).get_data(as_text=True)
    assert "Undo last" in page and "Remove this game" not in page
    watch = client.get(links["view"] + "/mus/0").get_data(as_text=True)
    assert "Undo last" not in watch and "/undo/" not in watch
