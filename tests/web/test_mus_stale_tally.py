"""A count refused as stale (issue 26) shows the next hand empty, without JavaScript too: the refused form's
tally belonged to a hand that is over, and must not sit one tap from being counted again."""
import html as htmllib
import json
import re

from test_mus_web import doc_of, form_fields, setup


def tally_form(page):
    """The hidden fields of the thumb bar's Count the hand form, the pending tally included."""
    body = re.search(r'<form[^>]*data-tally-form[^>]*>(.*?)</form>', page, re.S).group(1)
    return {k: htmllib.unescape(v) for k, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', body)}


def test_a_stale_count_leaves_the_next_hand_empty(client):
    links, game = setup(client, scoring="tally")
    old = client.get(f"{game}?mode=tally&tally=" + json.dumps([["A", 5], ["A", 4]])).get_data(as_text=True)
    assert 'data-tally-sum="A">A +9' in old
    # another phone counts the hand first
    now = client.get(game).get_data(as_text=True)
    resp = client.post(f"{game}/act", data={**form_fields(now, f"{game}/act"), "move": "tally",
                                            "tally": json.dumps([["B", 1]])})
    assert resp.status_code == 303
    before = doc_of(client, links["edit"])
    # the old page's count: refused, nothing written, and hand 2 shown with nothing pending
    sent = tally_form(old)
    assert sum(a[1] for a in json.loads(sent["tally"]) if a[0] == "A") == 9, sent
    resp = client.post(f"{game}/act", data={**sent, "move": "tally"})
    assert resp.status_code == 409
    html = resp.get_data(as_text=True)
    assert doc_of(client, links["edit"]) == before
    assert 'class="thumb-note"' in html and "Hand 2" in html
    assert 'data-tally-sum="A">A +0' in html and 'data-tally-sum="B">B +0' in html
    assert json.loads(tally_form(html)["tally"]) == []
    assert "tally=" not in resp.headers["HX-Replace-Url"]
    assert 'value="tally"' in html                              # still the tally screen

