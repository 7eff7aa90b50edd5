"""Mus held as a scorer holds it: a touch phone at 360x740 and 320x640, real taps. At every step the
buttons of the step are in the thumb bar, inside the screen, whatever banner shows; a submit keeps the
scroll position; a double tap records one step; the screen is kept awake."""
import json

import pytest

from helpers import start_session
from taps import at_rest as _at_rest, double_tap_held, live_version as _version, wait_recorded as _settled
from widths import WIDE

SIZES = [(360, 740), (320, 640)]


def tap(page, selector):
    """A finger on the element's centre, as soon as the page is at rest (no tap is ignored)."""
    _at_rest(page)
    before = _version(page)
    box = page.locator(selector).first.bounding_box()
    assert box, f"{selector} is not on the screen"
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    _settled(page, before)


def check_thumb(page, width, height, label):
    """Every control of the thumb bar is on screen, at least 48 px tall, and nothing is wider than the screen."""
    boxes = page.evaluate("""[...document.querySelectorAll('#thumb .btn')].filter(b => b.offsetParent).map(b => {
        const r = b.getBoundingClientRect(); return [b.textContent.trim().slice(0, 24), r.top, r.bottom, r.height]; })""")
    assert boxes, f"{label}: no thumb bar"
    for text, top, bottom, h in boxes:
        assert 0 <= top and bottom <= height + 0.5, f"{label}: '{text}' is off screen ({top:.0f}-{bottom:.0f} of {height})"
        assert h >= 44, f"{label}: '{text}' is {h:.0f} px tall"
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, f"{label}: the page is {wide} px wide"
    bad = page.evaluate(WIDE)
    assert bad == [], f"{label}: {bad}"


def new_match(page, base, target=None, preset="spanish"):
    edit = start_session(page, base)
    page.goto(edit + "/mus/new")
    page.locator(f"input[name=preset][value={preset}]").check()
    if target:
        page.click("summary:has-text('Change an option')")
        page.fill("input[name=target]", str(target))
    page.click("button:has-text('Start the match')")
    page.wait_for_url("**/mus/0*")
    return edit, page.url.split("?")[0]


def hands(page, edit):
    return json.loads(page.request.get(edit + "/session.json").text())["games"][0]["hands"]


@pytest.mark.parametrize("width,height", SIZES)
def test_every_step_of_a_hand_has_its_buttons_on_screen(browser, live_server, width, height, shots, cpu_load):
    ctx = browser.new_context(viewport={"width": width, "height": height}, has_touch=True, is_mobile=True)
    page = ctx.new_page()
    edit, game = new_match(page, live_server, target=10)
    steps = [
        ("opening", None),
        ("answer", "button[value='bet:A:5']"),
        ("raise answered", "button[value='more:5']"),
        ("dentro, chica", "button[value=fold]"),            # A folds: B +5, dentro at 5 of 10
        ("answer under dentro", "button[value='bet:B:2']"),
        ("ordago under dentro", "button[value=ordago]"),
        ("declare", "button[value=fold]"),
        ("punto", "button[value=declare]"),
        ("the count", "button[value=pass]"),
        ("next hand", "#thumb button[name=move]"),
    ]
    for label, selector in steps:
        if selector:
            tap(page, selector)
        check_thumb(page, width, height, label)
        if label == "dentro, chica":
            assert page.locator(".mus-dentro").is_visible()     # the banner shows; the bar stays put
        page.screenshot(path=f"{shots}/thumb-mus-{width}-{label.replace(' ', '-').replace(',', '')}.png")
    # "everyone passes" and the tally, too
    page.goto(game + "?rest=1")
    check_thumb(page, width, height, "everyone passes")
    page.goto(game + "?mode=tally")
    check_thumb(page, width, height, "tally")
    ctx.close()


def test_a_submit_keeps_the_scroll_position(phone, live_server, cpu_load):
    page = phone.new_page()
    edit, game = new_match(page, live_server)
    tap(page, "button[value='bet:A:2']")
    page.click("summary:has-text('Raise by another amount')")
    page.evaluate("window.scrollTo(0, 260)")
    y = page.evaluate("window.scrollY")
    assert y > 100, "the page should scroll at 360x740 (the log below the step)"
    tap(page, "button[value=call]")
    assert abs(page.evaluate("window.scrollY") - y) <= 4


def test_a_double_tap_records_one_step(phone, live_server):
    """Two taps 80 ms apart on the same rendered Paso (its answer held back until both are made): one step."""
    page = phone.new_page()
    edit, game = new_match(page, live_server)
    _at_rest(page)
    box = page.locator("button[value=pass]").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    before = _version(page)
    double_tap_held(page, "**/mus/0/**", x, y)
    _settled(page, before)
    recorded = hands(page, edit)
    assert len(recorded) == 1 and recorded[0]["open"] == "chica", recorded   # Grande passed, once
    assert page.locator("#thumb .mus-lance").inner_text() == "Chica"


def test_the_screen_is_kept_awake_on_a_scoring_page(phone, live_server):
    page = phone.new_page()
    edit, game = new_match(page, live_server)
    page.wait_for_function("['requested', 'on', 'refused'].includes(document.documentElement.dataset.wake)")
    assert page.evaluate("'wakeLock' in navigator")
    toggle = page.locator("[data-wake-toggle]")
    assert toggle.is_visible()
    _at_rest(page)
    toggle.tap()
    assert page.evaluate("localStorage.getItem('wake')") == "off"
    assert toggle.get_attribute("aria-pressed") == "false"
    # the session page holds no lock
    page.goto(edit)
    assert page.locator("[data-wake]").count() == 0


def test_a_toast_says_what_was_recorded_and_undoes_it(phone, live_server):
    page = phone.new_page()
    edit, game = new_match(page, live_server)
    tap(page, "button[value='bet:A:2:fold']")
    toast = page.locator(".toast")
    assert toast.is_visible() and "Grande" in toast.inner_text()
    assert "done=1" not in page.url                              # a reload will not show it again
    top = toast.bounding_box()["y"]
    assert top < 200                                             # under the score, where the eye is
    tap(page, ".toast button:has-text('Undo')")
    assert hands(page, edit) == [] or hands(page, edit)[0].get("grande") == []
