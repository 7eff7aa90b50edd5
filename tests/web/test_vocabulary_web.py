"""The Japanese Mus vocabulary (issue 20): chosen per browser like the language, only in Japanese, never a
way off the site; the language menu offers it only to a Japanese reader; the Mus page in either vocabulary."""
import pytest

from helpers import new_session
from test_mus_web import act, add_match

pytestmark = pytest.mark.one_engine    # pages and typed values, not the store: one engine (tests/conftest.py)

JA = {"Accept-Language": "ja-JP,ja;q=0.9"}
ES = {"Accept-Language": "es-ES,es;q=0.9"}


def test_the_vocabulary_is_chosen_and_kept_per_browser(app, client):
    links = new_session(client)
    game = add_match(client, links["edit"])
    act(client, game, "bet:A:2:call")
    page = client.get(game, headers=JA).get_data(as_text=True)
    assert "グランデ" in page and "オルダゴ" in page and "ハイ" not in page
    resp = client.get("/vocab/poker?next=/history", headers=JA)
    assert resp.status_code == 303
    page = client.get(game, headers=JA).get_data(as_text=True)
    assert "ハイ" in page and "オールイン" in page and "グランデ" not in page and "オルダゴ" not in page
    assert 'aria-current="true">ムスの用語: ポーカー用語' in page and 'aria-current="true">ムスの用語: スペイン語読み' not in page
    assert "Grande" in client.get(game, headers=ES).get_data(as_text=True)      # Spanish: unaffected
    assert "data-vocab" not in client.get(game, headers=ES).get_data(as_text=True)  # offered in Japanese only
    other = app.test_client()
    assert "グランデ" in other.get(game, headers=JA).get_data(as_text=True)     # another phone: its own


def test_an_unknown_vocabulary_or_a_foreign_address_changes_nothing(client):
    resp = client.get("/vocab/klingon?next=/history")
    assert resp.status_code == 303 and "vocab=" not in resp.headers.get("Set-Cookie", "")
    for bad in ("https://evil.example/", "//evil.example/x"):
        assert client.get(f"/vocab/poker?next={bad}").headers["Location"] in ("/", "http://localhost/")
