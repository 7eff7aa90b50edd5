"""One word, one meaning on a Mus page (issue 29). Every Mus page (a hand being bid, a finished match scored
by tally, the reference, the new-match form, the Mus ratings, a player's page) rendered in Japanese in both
vocabularies: a word the poker vocabulary uses for a table word (ハイ, ロー, ペア, ゲーム, ポイント, オールイン,
ワンペア, ツーペア, スリーカード) never appears in the Spanish reading, where it would mean something else once
swapped (ゲーム for the 40-point game, ペア for two partners); in the poker words none of the Spanish reading's
words is left. In Spanish a Mus page never calls the game to 40 a partida."""
import html as htmllib
import io
import json
import os
import re
import sys

import pytest

from companion.kinds import glossary
from helpers import csrf, new_session
from test_mus_web import act, add_match

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "club"))
from clubdata import example_doc  # noqa: E402

pytestmark = pytest.mark.one_engine    # pages and typed values, not the store: one engine (tests/conftest.py)

JA = {"Accept-Language": "ja-JP,ja;q=0.9"}
ES = {"Accept-Language": "es-ES,es;q=0.9"}
KATA = "ァ-ヶー・"
MUS = [t for t in glossary.TERMS if t.game == "mus" and t.ja != t.poker]
POKER_WORDS = sorted({t.poker for t in MUS}, key=len, reverse=True)
SPANISH_READING = sorted({t.ja for t in MUS}, key=len, reverse=True)


def text_of(page: str) -> str:
    """What a reader sees or hears of the page's main part: its text, its aria-labels and titles."""
    main = page.split("<main", 1)[-1]
    main = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", main)
    said = " ".join(re.findall(r'(?:aria-label|title|placeholder)="([^"]*)"', main))
    return htmllib.unescape(re.sub(r"<[^>]+>", " ", main) + " " + said)


def whole_words(text: str, words) -> list:
    """The words found in the text as whole katakana words (ロー never inside フォロー)."""
    found = []
    for w in words:
        if re.search(rf"(?<![{KATA}]){re.escape(w)}(?![{KATA}])", text):
            found.append(w)
            text = text.replace(w, " ")
    return found


@pytest.fixture
def mus_pages(app, client):
    """The addresses of the Mus pages: a hand being bid, a finished match (tally), its reference, the
    new-match form, the Mus ratings and a player's page."""
    links = new_session(client)
    game = add_match(client, links["edit"])
    act(client, game, "bet:A:2:call")
    resp = client.post("/import", data={"csrf": csrf(client), "k": "", "file": (
        io.BytesIO(json.dumps(example_doc()).encode()), "night.json")}, content_type="multipart/form-data")
    assert resp.status_code == 303
    club = resp.headers["Location"]
    return [game, game + "/reference", links["edit"] + "/mus/new", club + "/mus/2", club + "/mus/0",
            club + "/club", "/ratings?kind=mus", "/ratings/players/ane"]


def test_the_spanish_reading_never_uses_a_poker_word_and_the_poker_words_leave_none_behind(app, client, mus_pages):
    poker = app.test_client()
    poker.set_cookie("vocab", "poker")
    bad = {}
    for url in mus_pages:
        spanish_page = client.get(url, headers=JA)
        assert spanish_page.status_code == 200, url
        spanish = text_of(spanish_page.get_data(as_text=True))
        poker_text = text_of(poker.get(url, headers=JA).get_data(as_text=True))
        clash = whole_words(spanish, POKER_WORDS)
        left = whole_words(poker_text, SPANISH_READING)
        if clash or left:
            bad[url] = {"poker words in the Spanish reading": clash, "Spanish reading left in poker": left}
    assert bad == {}


def test_spanish_mus_pages_call_the_game_a_juego(client, mus_pages):
    for url in mus_pages[:5]:
        text = text_of(client.get(url, headers=ES).get_data(as_text=True))
        assert not re.search(r"(?i)\bpartidas?\b", text), (url, re.findall(r".{30}partidas?.{30}", text))


def test_the_checker_sees_a_clash():
    assert whole_words("1本目 · ゲーム 31", POKER_WORDS) == ["ゲーム"]
    assert whole_words("フォローする", POKER_WORDS) == []
    assert sorted(whole_words("ワンペア < ツーペア", POKER_WORDS)) == ["ツーペア", "ワンペア"]


def test_a_hand_given_as_a_parameter_reads_in_the_blogs_letters(app):
    from companion.domain.messages import msg
    from companion.web.i18n import t

    hand = msg("mus.better_cards", team="A", lance="grande", player="Ane", cards="RR43")
    with app.test_request_context("/", headers={**JA, "Cookie": "vocab=poker"}):
        app.preprocess_request()
        assert "KK43" in t(hand) and "RR43" not in t(hand)
    with app.test_request_context("/", headers=JA):
        assert "RR43" in t(hand)
