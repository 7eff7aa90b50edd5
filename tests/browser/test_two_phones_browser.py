"""Two phones in two browser contexts (each its own cookies): replacing the scoring link turns the other
phone into a watcher everywhere; two phones correcting the same Mus hand: the second is told, and keeps
its correction to save again."""
from helpers import start_session

import pytest

pytestmark = pytest.mark.both_engines    # live polls across phones: on PostgreSQL too (tests/conftest.py)


def _wait_listed(page, link):
    """The page lists itself on the phone with a POST when it loads (htmx): wait for that to land."""
    page.goto(link)
    for _ in range(50):
        home = page.request.get(page.url.split("/s/")[0] + "/").text()
        if link.split("/s/")[1].split("/")[0] in home:
            return
        page.wait_for_timeout(100)
    raise AssertionError("the session was never listed on this phone")


def test_a_replaced_link_leaves_the_other_phone_watching(live_server, phone, second_phone, shots):
    me = phone.new_page()
    edit = start_session(me, live_server)
    view = me.input_value("#watch-link")
    other = second_phone.new_page()
    _wait_listed(other, edit)
    assert other.locator("#edit-link").count() == 1          # a scorer: it sees the scoring link
    me.click("a:has-text('Replace the scoring link')")
    me.wait_for_selector("h1:has-text('Replace the scoring link?')")
    me.screenshot(path=f"{shots}/replace-ask.png", full_page=True)
    me.click("button:has-text('Replace it')")
    me.wait_for_selector("text=The scoring link was replaced")
    new_edit = me.input_value("#edit-link")
    assert new_edit != edit
    me.screenshot(path=f"{shots}/replace-done.png", full_page=True)
    # the other phone: the old link opens nothing; its home lists the session to watch only
    resp = other.goto(edit)
    assert resp.status == 404
    other.goto(live_server + "/")
    html = other.content()
    assert new_edit.split("/s/")[1] not in html and view.split("/s/")[1] in html
    other.click(f"a[href='{view.split(live_server)[1]}']")
    other.wait_for_selector("text=Watching")
    assert other.locator("#edit-link").count() == 0


def _tap(page, selector):
    page.click(selector)
    page.wait_for_load_state("networkidle")


def test_two_phones_correcting_the_same_hand(live_server, phone, second_phone, shots):
    me = phone.new_page()
    edit = start_session(me, live_server)
    me.click("text=+ Mus")
    me.click("button:has-text('Start the match')")
    me.wait_for_url("**/mus/0*")
    game = me.url
    for move in ("button[value='bet:A:2']", "button[value=fold]", "button[value=pass]", "button[value=declare]",
                 "button[value=pass]"):
        _tap(me, move)
    other = second_phone.new_page()
    _wait_listed(other, edit)
    for page, bet in ((me, "button[value='bet:A:5']"), (other, "button[value='bet:B:2']")):
        page.goto(game.split("?")[0] + "/hand/1?redo=1")
        for move in (bet, "button[value=fold]", "button[value=pass]", "button[value=declare]", "button[value=pass]"):
            _tap(page, move)
        page.wait_for_selector("button:has-text('Save the fix')")
    _tap(me, "button:has-text('Save the fix')")
    me.wait_for_selector("text=Hand 1 corrected")
    _tap(other, "button:has-text('Save the fix')")
    other.wait_for_selector("text=changed on another phone since you opened it")
    assert other.locator("button:has-text('Save the fix')").is_visible()   # the draft is kept
    other.screenshot(path=f"{shots}/fix-conflict.png", full_page=True)
    hands = me.request.get(edit + "/session.json").json()["games"][0]["hands"]
    assert hands[0]["grande"] == [{"team": "A", "bet": 5}, {"team": "B", "fold": True}]
