"""Every step says what happened (issue 16): an accepted órdago, undo, "Go on" after Chica."""
import re

import pytest

from helpers import new_session
from test_mus_web import act, add_match, form_fields

pytestmark = pytest.mark.one_engine    # pages and typed values, not the store: one engine (tests/conftest.py)


def toast_of(client, url):
    page = client.get(url).get_data(as_text=True)
    m = re.search(r'class="toast-text">([^<]*)<', page)
    return (m.group(1).strip() if m else None), page


def match(client):
    links = new_session(client)
    return links, add_match(client, links["edit"], preset="spanish")


def test_an_accepted_ordago_says_the_count_decides_the_game(client):
    links, game = match(client)
    act(client, game, "ordago:A")
    act(client, game, "call")
    said, page = toast_of(client, game + "?done=1")
    assert said == "✓ Órdago accepted in Grande: the count decides the game"
    bar = page[page.index('id="thumb"'):]
    assert "It decides the game (órdago accepted in Grande)." in bar[:bar.index("</p>")]
    # the hand in progress says it too (no "A +0 B +0" with nothing under it)
    log = page[page.index('class="card mus-log"'):]
    assert "órdago, quiero: the count decides the game" in log


def test_undo_says_what_it_took_back(client):
    links, game = match(client)
    act(client, game, "pass")
    act(client, game, "bet:A:2:call")
    page = client.get(game).get_data(as_text=True)
    undo = re.search(r'action="([^"]*/undo/0)"', page).group(1)
    resp = client.post(undo, data=form_fields(page, undo))
    assert resp.status_code == 303
    said, page = toast_of(client, resp.headers["Location"])
    assert said == "↶ Undone: envite of 2 called in Chica", said
    assert toast_of(client, game)[0] is None                  # said once: a reload does not say it again


def test_go_on_after_chica_does_not_repeat_chica(client):
    links, game = match(client)
    act(client, game, "pass")
    act(client, game, "pass")
    assert toast_of(client, game + "?done=1")[0] == "✓ Chica: passed"
    act(client, game, "declare", pares0="pareja", pares1="medias")
    said = toast_of(client, game + "?done=1")[0]
    assert said == "✓ Pares and juego said · now Pares", said


def _counted_hand(client):
    links, game = match(client)
    act(client, game, "pass")
    act(client, game, "bet:A:2:call")
    act(client, game, "declare", pares0="pareja", juego2="31")
    act(client, game, "showdown:grande:A:chica:A")
    return links, game


def test_a_fix_that_makes_both_teams_hold_pares_offers_the_better_pares(client):
    """No dead end: the correction that needs "which team had the better pares" asks it, above the bar."""
    import html as htmllib
    links, game = _counted_hand(client)
    page = client.get(game).get_data(as_text=True)
    fix = re.search(r'href="([^"]*/hand/1)"', page)
    assert fix, "the counted hand has its Fix link on the game page"
    page = client.get(fix.group(1)).get_data(as_text=True)
    assert '<details open>' in page and 'name="win_pares"' in page          # what was held, with the tie choice
    form = re.search(r'<form method="get" action="([^"]+)" class="mus-declare">(.*?)</form>', page, re.S)
    data = {k: htmllib.unescape(v) for k, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form.group(2))}
    data.update({"pares0": "pareja", "pares1": "pareja", "juego2": "31"})   # Bea (B) held pareja too
    resp = client.get(htmllib.unescape(form.group(1)), query_string=data)
    page = client.get(resp.headers["Location"]).get_data(as_text=True)
    assert "could not be used" in page or "cannot be saved yet" in page
    preview = page[page.index('class="card mus-fixed"'):]
    preview = preview[:preview.index("</section>")]
    choice = re.findall(r'href="([^"]+)">(A|B) <small>', preview)
    assert [c[1] for c in choice] == ["A", "B"], "the better pares is asked in the preview"
    page = client.get(htmllib.unescape(choice[1][0])).get_data(as_text=True)
    assert "After the fix" in page and 'value="save" disabled' not in page
    assert page.index("After the fix") < page.index('id="thumb"')
    bar = page[page.index('id="thumb"'):]
    assert "After the fix" in bar                                           # and the bar repeats it
