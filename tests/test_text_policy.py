"""One Unicode policy for every typed text (issue 21): NFC; controls, bidi overrides, tags, invisible and
blank-looking characters refused (with the code point named); ZWJ emoji sequences accepted. Applied to
player names, session names, Mus team names and adjustment reasons, on the web and in session files."""
import re
import unicodedata

import pytest
from hypothesis import given, settings, strategies as st

from companion.domain import text
from companion.domain.errors import RuleError
from companion.record.session import clean_name, clean_session_name, load
from helpers import csrf

pytestmark = pytest.mark.one_engine    # pages and typed values, not the store: one engine (tests/conftest.py)

REFUSED = ["\u202e", "\u202d", "\u2066", "\u2069", "\u200e", "\u200f", "\u061c", "\u200b", "\u2060", "\ufeff",
           "\u0001", "\u001f", "\u007f", "\u0085", "\u00ad", "\U000e0041", "\U000e007f", "\u3164", "\u115f",
           "\u1160", "\uffa0", "\u2800", "\u034f", "\u180e", "\u2028", "\u2029", "\ue000", "\U0010fffd",
           "\ufffc", "\u200d", "\u200c"]
ACCEPTED = ["Ane", "Iñaki", "Fermín", "山田 太郎", "Øyvind", "Zoë", "José María", "علي", "דנה", "Ώμηρος",
            "👩\u200d💻", "👩🏽\u200d💻", "🏳\ufe0f\u200d🌈", "👨\u200d👩\u200d👧", "❤\ufe0f", "Ane 🂡", "می\u200cخواهم",
            "O'Brien", "Jean-Luc", "Anne (B)"]


@pytest.mark.parametrize("char", REFUSED, ids=lambda c: f"U+{ord(c):04X}")
@pytest.mark.parametrize("where", ["start", "middle", "end", "alone"])
def test_hidden_characters_are_refused_in_names_wherever_they_are(char, where):
    raw = {"start": char + "Ane", "middle": "An" + char + "e", "end": "Ane" + char, "alone": char}[where]
    for clean in (clean_name, clean_session_name):
        with pytest.raises(RuleError) as err:
            clean(raw, "p1")
        if err.value.code == "text.hidden":
            assert err.value.params["char"] == f"U+{ord(char):04X}"
        else:           # only a blank (whitespace-only) text may be refused as empty instead
            assert char.isspace() and where == "alone", err.value.code


@pytest.mark.parametrize("name", ACCEPTED)
def test_every_script_and_emoji_sequences_are_accepted(name):
    assert clean_name(name) == unicodedata.normalize("NFC", name)


def test_names_are_nfc_and_spaces_collapse():
    assert clean_name("Ine\u0301s") == "In\u00e9s" == clean_name("In\u00e9s")
    assert clean_name("  José\t\u00a0María \n") == "José María"
    assert clean_name("山田\u3000太郎") == "山田 太郎"


@settings(deadline=None)           # the machine is shared: no timing decides this test
@given(st.text(max_size=30))
def test_whatever_is_accepted_holds_nothing_hidden(raw):
    cleaned, bad = text.check(raw)
    if bad is None:
        assert cleaned == unicodedata.normalize("NFC", cleaned) == " ".join(cleaned.split())
        for i, c in enumerate(cleaned):
            cat = unicodedata.category(c)
            if c in (text.ZWJ, text.ZWNJ):
                continue
            assert cat not in text.REFUSED_CATEGORIES and ord(c) not in text.BLANK_LOOKING, (raw, c)
        assert not cleaned or text.visible(cleaned)
        assert text.check(cleaned) == (cleaned, None)          # idempotent


# ---------------------------------------------------------------------------------------------- everywhere

def _mus(team_names=None, why="hand 1 miscounted"):
    game = {"kind": "mus", "seats": ["Ane", "Bea", "Carlos", "Dani"],
            "hands": [{"adjust": {"team": "B", "points": 2, "why": why}}]}
    if team_names:
        game["team_names"] = team_names
    return {"format": "companion-session/1", "name": "Night", "players": ["Ane", "Bea", "Carlos", "Dani"],
            "games": [game]}


@pytest.mark.parametrize("char", ["\u202e", "\u200b", "\u0001", "\U000e0041", "\u2800"], ids=lambda c: f"U+{ord(c):04X}")
def test_team_names_and_adjustment_reasons_follow_the_same_policy(char):
    with pytest.raises(RuleError) as err:
        load(_mus(team_names={"A": "Los" + char + " de Koldo"}))
    assert err.value.code == "text.hidden" and err.value.path == "games[0].team_names.A"
    with pytest.raises(RuleError) as err:
        load(_mus(why="miscounted" + char))
    assert err.value.code == "text.hidden" and err.value.path == "games[0].hands[0].adjust.why"
    sess = load(_mus(team_names={"A": "👩\u200d💻 team"}, why="👩\u200d💻 fixed it"))
    assert sess.games[0].head["team_names"]["A"] == "👩\u200d💻 team"


def test_the_web_form_names_the_character_beside_the_field(client):
    resp = client.post("/new", data={"csrf": csrf(client), "name": "Night", "p0": "Ane", "p1": "Bea\u3164", "k": ""})
    assert resp.status_code == 422
    assert re.search(r'id="err-p1" role="alert">[^<]*\(U\+3164 found\)', resp.get_data(as_text=True))
    resp = client.post("/new", data={"csrf": csrf(client), "name": "Night\u202e", "p0": "Ane", "p1": "Bea", "k": ""})
    assert resp.status_code == 422 and "U+202E" in resp.get_data(as_text=True)


def test_the_web_accepts_a_zwj_emoji_player(client):
    resp = client.post("/new", data={"csrf": csrf(client), "name": "Night", "p0": "Ane", "p1": "👩\u200d💻", "k": ""})
    assert resp.status_code == 303
    doc = client.get(resp.headers["Location"] + "/session.json").get_json()
    assert doc["players"] == ["Ane", "👩\u200d💻"]
