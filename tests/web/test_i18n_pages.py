"""The reader's language (issue 11): chosen from Accept-Language, switched and remembered per browser, the
Watch link in each phone's own language; money and dates in the language's way; data stays English."""
import pytest

from helpers import new_session
from test_mus_web import act, add_match

pytestmark = pytest.mark.one_engine    # pages and typed values, not the store: one engine (tests/conftest.py)

ES = {"Accept-Language": "es-ES,es;q=0.9"}
JA = {"Accept-Language": "ja-JP,ja;q=0.9"}


def test_the_browser_language_chooses_and_the_header_switch_is_remembered(app, client):
    assert '<html lang="es">' in client.get("/", headers=ES).get_data(as_text=True)
    assert '<html lang="ja">' in client.get("/", headers=JA).get_data(as_text=True)
    assert '<html lang="en">' in client.get("/", headers={"Accept-Language": "de-DE"}).get_data(as_text=True)
    resp = client.get("/lang/ja?next=/history", headers=ES)
    assert resp.status_code == 303 and resp.headers["Location"].endswith("/history")
    assert '<html lang="ja">' in client.get("/", headers=ES).get_data(as_text=True)    # the cookie wins
    other = app.test_client()
    assert '<html lang="es">' in other.get("/", headers=ES).get_data(as_text=True)   # another phone: its own


def test_the_switch_never_leaves_the_site_and_ignores_unknown_languages(app, client):
    for bad in ("https://evil.example/", "//evil.example/x", "javascript:alert(1)"):
        assert client.get(f"/lang/es?next={bad}").headers["Location"] in ("/", "http://localhost/")
    fresh = app.test_client()
    fresh.get("/lang/xx")
    assert '<html lang="en">' in fresh.get("/").get_data(as_text=True)


def test_the_watch_link_in_each_phones_language(app, client):
    links = new_session(client)
    game = add_match(client, links["edit"])
    act(client, game, "bet:A:2:fold")
    watch = game.replace(links["edit"], links["view"])
    es = app.test_client().get(watch, headers=ES).get_data(as_text=True)
    ja = app.test_client().get(watch, headers=JA).get_data(as_text=True)
    assert '<html lang="es">' in es and '<html lang="ja">' in ja
    assert "Grande" in es and "グランデ" in ja                     # the table's words, in the seeds' Japanese
    poker = app.test_client()
    poker.set_cookie("vocab", "poker")
    assert "ハイ" in poker.get(watch, headers=JA).get_data(as_text=True)   # or in the blog's poker words
    assert "Grande" in poker.get(watch, headers=ES).get_data(as_text=True)  # (Japanese only)


def test_money_and_dates_in_the_readers_way(client):
    links = new_session(client)
    add_match(client, links["edit"], stake_game="2.50")
    page = client.get(links["edit"] + "/mus/0", headers=ES).get_data(as_text=True)
    assert "2,50\xa0€" in page
    page = client.get(links["edit"] + "/mus/0").get_data(as_text=True)
    assert "€2.50" in page


def test_data_stays_english_whatever_the_reader_reads(client):
    links = new_session(client)
    game = add_match(client, links["edit"])
    act(client, game, "bet:A:2:fold")
    en = {p: client.get(links["edit"] + p).get_data() for p in ("/state.json", "/session.json", "/session.csv")}
    for headers in (ES, JA):
        for p, body in en.items():
            assert client.get(links["edit"] + p, headers=headers).get_data() == body, p
    assert b"B folded" in en["/state.json"] or b"folded" in en["/state.json"]
    assert en["/session.csv"].splitlines()[0].decode().lstrip("\ufeff").startswith("session,game,kind,")
