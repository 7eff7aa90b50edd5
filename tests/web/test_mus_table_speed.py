"""The Mus screen at table speed, through the Flask client: an envite answered at once, "everyone passes"
with the count in one form, tally hands, adjusting the score, the way a match is scored, the toast, who
deals, fixing a past hand in place, the señas. Every refusal names its field and changes nothing."""
import html as htmllib
import re
from urllib.parse import unquote_plus

import pytest

from helpers import new_session
from test_mus_web import act, add_match, doc_of, errors_in, form_fields, mus_state

pytestmark = pytest.mark.one_engine    # pages and typed values, not the store: one engine (tests/conftest.py)


def setup(client, **opts):
    links = new_session(client)
    return links, add_match(client, links["edit"], **opts)


def links_in(page):
    return [htmllib.unescape(h) for h in re.findall(r'<a[^>]*href="([^"]+)"', page)]


def link(page, pattern):
    """The first link whose (decoded) address matches."""
    for h in links_in(page):
        if re.search(pattern, unquote_plus(h)):
            return h
    raise AssertionError(f"no link matching {pattern}")


def post_form(client, page, form_id, move, **fields):
    """Submit the form ``form_id`` of the page with a thumb-bar button (form=...)."""
    body = re.search(rf'<form[^>]*id="{form_id}"[^>]*>(.*?)</form>', page, re.S).group(1)
    action = re.search(rf'<form[^>]*action="([^"]+)"[^>]*id="{form_id}"', page).group(1)
    data = {k: htmllib.unescape(v) for k, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', body)}
    assert re.search(rf'form="{form_id}" name="move" value="{re.escape(move)}"', page), f"no button {move}"
    return client.post(htmllib.unescape(action), data={**data, "move": move, **fields})


def test_an_envite_answered_at_once_is_one_tap_and_one_undo(client):
    links, game = setup(client)
    page = client.get(game).get_data(as_text=True)
    assert 'value="bet:A:2:call"' in page and 'value="bet:B:2:fold"' in page
    act(client, game, "bet:B:2:fold")
    hand = doc_of(client, links["edit"])["games"][0]["hands"][0]
    assert hand["grande"] == [{"team": "B", "bet": 2}, {"team": "A", "fold": True}] and hand["open"] == "chica"
    assert mus_state(client, links["edit"])["score"] == {"A": 0, "B": 1}
    page = client.get(game + "?done=1").get_data(as_text=True)
    assert "✓ Grande: A folded to B" in page
    undo = re.search(r'action="([^"]*/undo/0)"', page).group(1)
    client.post(undo, data=form_fields(page, undo))
    assert doc_of(client, links["edit"])["games"][0]["hands"] == []


def test_everyone_passes_with_the_count_in_one_form(client):
    links, game = setup(client, preset="spanish")
    page = client.get(game).get_data(as_text=True)
    page = client.get(link(page, r"rest=1")).get_data(as_text=True)
    assert "Everyone passes" in page and 'id="rest-form"' in page
    grid = re.findall(r'form="rest-form" name="move" value="(rest:[^"]+)"', page)
    assert sorted(grid) == ["rest:grande:A:chica:A", "rest:grande:A:chica:B", "rest:grande:B:chica:A",
                            "rest:grande:B:chica:B"]
    resp = post_form(client, page, "rest-form", "rest:grande:A:chica:B",
                     pares0="pareja", pares1="medias", juego0="31", juego1="other")
    assert resp.status_code == 303
    hand = doc_of(client, links["edit"])["games"][0]["hands"][0]
    assert hand == {"grande": [], "chica": [], "pares": [], "juego": [],
                    "showdown": {"grande": "A", "chica": "B", "pares_held": {"Ane": "pareja", "Bea": "medias"},
                                 "juego_held": {"Ane": 31, "Bea": "other"}}}
    assert mus_state(client, links["edit"])["score"] == {"A": 4, "B": 3}
    assert "Hand 1 counted: A +4 · B +3" in client.get(resp.headers["Location"]).get_data(as_text=True)


def test_everyone_passes_refused_keeps_the_form_and_records_nothing(client):
    links, game = setup(client, preset="spanish")
    page = client.get(game + "?rest=1").get_data(as_text=True)
    # two parejas: which team had the better pares? (and nobody with juego: punto needs its winner too)
    resp = post_form(client, page, "rest-form", "rest:grande:A:chica:B", pares0="pareja", pares1="pareja",
                     juego2="31")
    assert resp.status_code == 422
    html = resp.get_data(as_text=True)
    assert 'id="err-win_pares"' in html and 'id="rest-form"' in html
    assert doc_of(client, links["edit"])["games"][0]["hands"] == []
    resp = post_form(client, page, "rest-form", "rest:grande:A:chica:B", pares0="pareja", pares1="pareja",
                     juego2="31", win_pares="B")
    assert resp.status_code == 303


def test_with_the_cards_known_everyone_passes_is_one_button(client):
    links, game = setup(client)
    act(client, game, "cards:start", cards0="RRSA", cards1="CCS7", cards2="4567", cards3="A456")
    page = client.get(game).get_data(as_text=True)
    assert 'name="move" value="rest"' in page and "rest=1" not in page
    act(client, game, "rest")
    hand = doc_of(client, links["edit"])["games"][0]["hands"][0]
    assert "open" not in hand and hand["cards"]["Ane"] == "RRSA"


def test_a_tally_hand_by_links_then_one_post(client):
    links, game = setup(client, preset="spanish", scoring="tally")
    page = client.get(game).get_data(as_text=True)
    assert "Tally" in page and 'aria-label="Team A plus 4"' in page
    page = client.get(link(page, r'tally=\[\["A",4,null\]\]$')).get_data(as_text=True)
    page = client.get(link(page, r"tl=pares")).get_data(as_text=True)           # the next points: pares
    page = client.get(link(page, r'\["B",3,"pares"\]\]$')).get_data(as_text=True)
    assert "+4 A" in page and "+3 B" in page and "A +4" in page and "B +3" in page
    assert doc_of(client, links["edit"])["games"][0]["hands"] == []               # nothing written yet
    act_page = page
    data = form_fields(act_page, f"{game}/act")
    tally_form = re.search(r'<form[^>]*>((?:(?!</form>).)*name="move" value="tally".*?)</form>', act_page, re.S).group(1)
    data = {k: htmllib.unescape(v) for k, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', tally_form)}
    resp = client.post(f"{game}/act", data={**data, "move": "tally"})
    assert resp.status_code == 303
    hand = doc_of(client, links["edit"])["games"][0]["hands"][0]
    assert hand == {"tally": [{"team": "A", "points": 4}, {"team": "B", "points": 3, "lance": "pares"}]}
    st = mus_state(client, links["edit"])
    assert st["score"] == {"A": 4, "B": 3} and st["next_mano"] == "Bea"          # a tally hand is dealt


def test_a_tally_with_another_number_and_a_reason(client):
    links, game = setup(client, scoring="tally")
    page = client.get(game + "?mode=tally&team=B&points=7&why=%3Cb%3Eduples%3C/b%3E").get_data(as_text=True)
    assert "+7 B" in page and "&lt;b&gt;duples&lt;/b&gt;" in page and "<b>duples</b>" not in page
    links2, game2 = setup(client, scoring="tally")
    page = client.get(game2 + "?mode=tally&team=B&points=7&why=duples").get_data(as_text=True)
    tally = htmllib.unescape(re.search(r'name="tally" value="([^"]*)"', page).group(1))
    act(client, game2, "tally", tally=tally, mode="tally")
    assert doc_of(client, links2["edit"])["games"][0]["hands"][0] == {
        "tally": [{"team": "B", "points": 7, "why": "duples"}]}


def test_a_bids_match_can_tally_one_hand_and_switch_back(client):
    links, game = setup(client)
    page = client.get(game).get_data(as_text=True)
    page = client.get(link(page, r"mode=tally$")).get_data(as_text=True)
    assert "Record bids for this hand" in page
    act(client, game, "tally", tally='[["A",2,null]]', mode="tally")
    page = client.get(game).get_data(as_text=True)
    assert 'value="pass"' in page                                  # the next hand: bids again
    act(client, game, "scoring:tally")
    doc = doc_of(client, links["edit"])["games"][0]
    assert doc["scoring"] == "tally"
    page = client.get(game + "?done=scoring").get_data(as_text=True)
    assert "scored by tally" in page and 'aria-label="Team B plus 1"' in page
    act(client, game, "scoring:tally", expect=422)
    act(client, game, "scoring:bids")
    assert "scoring" not in doc_of(client, links["edit"])["games"][0]


def test_adjust_the_score_with_a_reason_and_refusals_beside_the_fields(client):
    links, game = setup(client)
    act(client, game, "tally", tally='[["B",3,null]]', mode="tally")
    resp = act(client, game, "adjust", expect=422, adjust_team="B", adjust_points="-5", adjust_why="x")
    html = resp.get_data(as_text=True)
    assert 'id="err-adjust_points"' in html and "never goes below 0" in html
    act(client, game, "adjust", expect=422, adjust_team="B", adjust_points="0")
    act(client, game, "adjust", expect=422, adjust_team="C", adjust_points="2")
    act(client, game, "adjust", adjust_team="B", adjust_points="-2", adjust_why="hand 1 miscounted")
    st = mus_state(client, links["edit"])
    assert st["score"] == {"A": 0, "B": 1}
    assert st["log"][-1]["why"] == "Score adjusted: hand 1 miscounted" and st["log"][-1]["points"] == -2
    page = client.get(game + "?done=1").get_data(as_text=True)
    assert "Score adjusted: B -2" in page and "Adjustment" in page


def test_the_screen_says_who_deals_who_is_mano_and_the_team_names(client):
    links, game = setup(client, name_A="Los de arriba")
    page = client.get(game).get_data(as_text=True)
    assert "Dani deals" in page and 'mano</span> <small class="gloss">(speaks first)</small> <strong>Ane</strong>' in page
    assert "Los de arriba" in page and "Bea &amp; Dani" in page
    assert "Pagat: no paso point, juego 2/1" in page


def test_a_double_post_of_one_step_records_it_once(client):
    links, game = setup(client)
    page = client.get(game).get_data(as_text=True)
    data = {**form_fields(page, f"{game}/act"), "move": "pass"}
    first = client.post(f"{game}/act", data=data)
    data2 = dict(data, k=data["k"] + "x")                          # another key: a second, separate tap
    second = client.post(f"{game}/act", data=data2)
    assert first.status_code == 303 and second.status_code == 409
    assert "That tap was already recorded" in second.get_data(as_text=True)
    assert doc_of(client, links["edit"])["games"][0]["hands"][0]["open"] == "chica"


def test_fixing_one_lance_winner_is_three_taps(client):
    links, game = setup(client, preset="spanish")
    act(client, game, "pass")
    act(client, game, "bet:A:2:call")
    act(client, game, "declare", pares0="pareja", juego2="31")
    act(client, game, "showdown:grande:A:chica:A")
    before = mus_state(client, links["edit"])["score"]
    page = client.get(game).get_data(as_text=True)
    fix = client.get(link(page, r"/hand/1$")).get_data(as_text=True)             # tap 1: Fix hand 1
    assert "Fix hand 1" in fix and 'value="save" disabled' in fix
    fix = client.get(link(fix, r'"chica":"B"')).get_data(as_text=True)            # tap 2: Better chica B
    assert "After the fix" in fix and 'value="save" disabled' not in fix
    assert mus_state(client, links["edit"])["score"] == before                   # nothing saved yet
    url = re.search(r'<form method="post" action="([^"]+)"', fix[fix.index('id="thumb"'):]).group(1)
    data = {k: htmllib.unescape(v) for k, v in re.findall(
        r'<input type="hidden" name="([^"]+)" value="([^"]*)"', fix[fix.index('id="thumb"'):])}
    resp = client.post(url, data={**data, "move": "save"})                        # tap 3: Save
    assert resp.status_code == 303
    after = mus_state(client, links["edit"])["score"]
    assert after == {"A": before["A"] - 2, "B": before["B"] + 2}
    assert doc_of(client, links["edit"])["games"][0]["hands"][0]["showdown"]["chica"] == "B"


def test_fixing_the_bids_what_was_held_and_a_card(client):
    links, game = setup(client)
    act(client, game, "pass")
    act(client, game, "pass")
    act(client, game, "declare")
    act(client, game, "pass")                                      # punto: pagat needs no count
    fix = client.get(f"{game}/hand/1").get_data(as_text=True)
    # chica was really A 2, no quiero
    fix = client.get(link(fix, r'"chica":\[\{"team":"A","bet":2\},\{"team":"B","fold":true\}\]')).get_data(as_text=True)
    assert "After the fix" in fix and "A +1" in fix
    # and Bea had medias: the held form (a GET: nothing written)
    form = re.search(r'<form method="get"[^>]*>(.*?name="edit" value="held".*?)</form>', fix, re.S).group(1)
    data = {k: htmllib.unescape(v) for k, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form)}
    resp = client.get(f"{game}/hand/1", query_string={**data, "pares1": "medias"})
    assert resp.status_code == 303
    fix = client.get(resp.headers["Location"]).get_data(as_text=True)
    assert "Bea medias" in fix
    # a bad card: refused beside the field, the draft kept
    resp = client.get(f"{game}/hand/1", query_string={**data, "edit": "cards", "cards0": "RRXX", "cards1": "CCS7",
                                                       "cards2": "4567", "cards3": "A456"})
    assert resp.status_code == 422 and 'id="err-cards0"' in resp.get_data(as_text=True)
    assert doc_of(client, links["edit"])["games"][0]["hands"][0]["chica"] == []


def test_fixing_a_tally_hand(client):
    links, game = setup(client, scoring="tally")
    act(client, game, "tally", tally='[["A",2,null],["B",1,null]]', mode="tally")
    fix = client.get(f"{game}/hand/1").get_data(as_text=True)
    fix = client.get(link(fix, r'"tally":\[\{"team":"B","points":2\}')).get_data(as_text=True)   # A's 2 were B's
    data = {k: htmllib.unescape(v) for k, v in re.findall(
        r'<input type="hidden" name="([^"]+)" value="([^"]*)"', fix[fix.index('id="thumb"'):])}
    resp = client.post(f"{game}/hand/1", data={**data, "move": "save"})
    assert resp.status_code == 303
    assert mus_state(client, links["edit"])["score"] == {"A": 0, "B": 3}


def test_a_watch_link_has_no_thumb_bar_no_toast_and_no_fix(client):
    links, game = setup(client)
    act(client, game, "pass")
    watch = game.replace(links["edit"], links["view"])
    page = client.get(watch + "?done=1&mode=tally&rest=1").get_data(as_text=True)
    assert 'id="thumb"' not in page and 'class="toast"' not in page and "/hand/" not in page
    assert client.get(f"{watch}/hand/1").status_code in (403, 404)


def test_the_reference_has_the_senas_and_no_senas_in_the_deal(client):
    links, game = setup(client)
    ref = client.get(f"{game}/reference").get_data(as_text=True)
    assert "Señas" in ref and "No señas during the deal" in ref
    assert "bite the lower lip" in ref and "two reyes" in ref and "solomillo" in ref
    assert errors_in(ref) == []
