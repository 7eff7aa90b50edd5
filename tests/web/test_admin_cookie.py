"""Accepting the admin token rotates the browser id and the CSRF token (a planted cookie shares nothing
with the admin's afterwards), and the cookie keeps an HMAC of the token keyed with the app's secret, never
the token or a bare hash of it (issue 21)."""
import hashlib
import hmac

from helpers import csrf, new_session

TOKEN = "an-admin-token-long-enough"


def _session(app, client) -> dict:
    cookie = client.get_cookie("companion").value
    return app.session_interface.get_signing_serializer(app).loads(cookie)


def test_the_admin_token_rotates_a_planted_browser_id_and_csrf_token(app):
    app.config["ADMIN_TOKEN"] = TOKEN
    attacker, victim = app.test_client(), app.test_client()
    csrf(attacker)                                              # the attacker's cookie: browser id and CSRF
    planted = attacker.get_cookie("companion").value
    victim.set_cookie("companion", planted)                     # ... planted in the victim's browser
    before = _session(app, victim)
    assert victim.get(f"/admin?token={TOKEN}").status_code == 303
    after = _session(app, victim)
    assert after["browser"] != before["browser"] and after["csrf"] != before["csrf"]
    # what the admin opens from now on is not listed for the planted id
    links = new_session(victim, name="Admin's night")
    assert "Admin&#39;s night" in victim.get("/history").get_data(as_text=True)
    assert "Admin&#39;s night" not in attacker.get("/history").get_data(as_text=True)
    assert links["view"] not in attacker.get("/").get_data(as_text=True)
    # the old CSRF token no longer passes
    resp = victim.post("/new", data={"csrf": before["csrf"], "name": "X", "p0": "Ane", "p1": "Bea", "k": ""})
    assert resp.status_code == 400


def test_the_cookie_keeps_an_hmac_of_the_token_never_a_bare_hash(app, client):
    app.config["ADMIN_TOKEN"] = TOKEN
    client.get(f"/admin?token={TOKEN}")
    mark = _session(app, client)["admin"]
    assert TOKEN not in mark and mark != hashlib.sha256(TOKEN.encode()).hexdigest()
    assert mark == hmac.new(app.secret_key.encode(), b"companion-admin\0" + TOKEN.encode(), hashlib.sha256).hexdigest()
    assert "(all: admin)" in client.get("/history").get_data(as_text=True)


def test_an_old_bare_hash_cookie_is_no_longer_admin(app, client):
    app.config["ADMIN_TOKEN"] = TOKEN
    with client.session_transaction() as sess:
        sess["admin"] = hashlib.sha256(TOKEN.encode()).hexdigest()
    assert "(all: admin)" not in client.get("/history").get_data(as_text=True)


def test_another_secret_makes_the_mark_worthless(app, client, tmp_path):
    from companion import create_app

    app.config["ADMIN_TOKEN"] = TOKEN
    client.get(f"/admin?token={TOKEN}")
    mark = _session(app, client)["admin"]
    other = create_app({"TESTING": True, "DATABASE": str(tmp_path / "other.db"), "ADMIN_TOKEN": TOKEN})
    other_client = other.test_client()
    other_client.get(f"/admin?token={TOKEN}")
    assert _session(other, other_client)["admin"] != mark
