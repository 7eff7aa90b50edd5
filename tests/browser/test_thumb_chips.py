"""The thumb zone on the chip games' scoring pages (Newmarket, Desmoche), on a touch phone at 360 x 740 and
320 x 640, with real taps (``page.tap``).

At every step of a Newmarket deal and of a Desmoche hand: every control of the bar (#thumb) is inside the
screen and at least 48 px tall, the score is on top and not under the bar, nothing is wider than the screen,
no name is cut with an ellipsis and every tap target is at least 44 px. A tap in the bar from a scrolled page
comes back to the same scroll position, with the toast under the score saying what was recorded.

Every test runs with the CPU kept busy (the cpu_load fixture): nothing here may depend on timing.

Run with COMPANION_SHOTS=/tmp/thumb-shots to keep a screenshot of every step."""
import json
import re

import pytest
from helpers import start_session
from taps import double_tap_held, live_version as _version, version_moved, wait_recorded
from widths import WIDE

# the scroll kept and the bar in view must not depend on timing: every test here runs with the CPU busy
pytestmark = pytest.mark.usefixtures("cpu_load")

SIZES = [(360, 740), (320, 640)]
FOUR = ("Ane", "Begoña", "Carlos", "Dani")
EIGHT = ("Ane", "Begoña", "Carlos", "Dani", "Maximiliano", "Feli", "Guillermina", "Hodei")


@pytest.fixture(params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def touch(request, browser):
    w, h = request.param
    ctx = browser.new_context(viewport={"width": w, "height": h}, device_scale_factor=2, has_touch=True,
                              is_mobile=True)
    page = ctx.new_page()
    page.size = (w, h)
    yield page
    ctx.close()


def settle(page) -> None:
    """The page at rest: no tap's request under way and the scroll put back (static/app.js marks
    <html data-busy> from the tap until the swap has settled; no guessed delay)."""
    page.wait_for_load_state()
    page.wait_for_selector("html:not([data-busy])", state="attached", timeout=20000)
    page.wait_for_selector("[data-arming]", state="detached", timeout=20000)   # its controls live


def check(page, shots: str, name: str, score: bool = True) -> None:
    """The bar's controls are in the screen and tall; the score is on top, clear of the bar; no sideways
    scroll; no name cut; every tap target at least 44 px."""
    w, h = page.size
    page.screenshot(path=f"{shots}/thumb-{w}-{name}.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= w, f"{name}: wider than the screen"
    boxes = page.evaluate("""() => [...document.querySelectorAll('#thumb button, #thumb a[href], #thumb label.toggle')]
        .filter(e => e.offsetParent !== null)
        .map(e => { const r = (e.matches('label') ? e.querySelector('span') : e).getBoundingClientRect();
                    return {what: (e.getAttribute('aria-label') || e.textContent).trim().replace(/\\s+/g, ' ').slice(0, 40),
                            top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height}; })""")
    assert boxes, f"{name}: no control in the thumb bar"
    for b in boxes:
        assert b["top"] >= 0 and b["bottom"] <= h + 0.5, f"{name}: {b['what']!r} is off the screen: {b}"
        assert b["left"] >= 0 and b["right"] <= w + 0.5, f"{name}: {b['what']!r} is off the side: {b}"
        assert b["height"] >= 48 - 0.5, f"{name}: {b['what']!r} is {b['height']} px tall"
    bar = page.locator("#thumb").bounding_box()
    assert bar["y"] + bar["height"] <= h + 0.5
    if score:
        box = page.locator("#live .scorebar").bounding_box()
        assert box["y"] >= -0.5 and box["y"] + box["height"] <= bar["y"] + 0.5, f"{name}: the score is hidden"
    small = page.evaluate("""() => [...document.querySelectorAll(
            '.btn, button, .toggle span, input:not([type=hidden]), select, summary, #live a[href]')]
        .filter(e => e.offsetParent !== null && getComputedStyle(e).visibility !== 'hidden')
        .filter(e => e.getBoundingClientRect().height < 44)
        .map(e => e.outerHTML.slice(0, 80))""")
    assert small == [], f"{name}: tap targets under 44 px: {small}"
    cut = page.evaluate("""() => [...document.querySelectorAll('main *')]
        .filter(e => e.offsetParent !== null && e.children.length === 0 && e.textContent.trim() && !e.closest('.sr-only'))
        .filter(e => { const s = getComputedStyle(e);
                       return s.textOverflow === 'ellipsis' || (s.overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1); })
        .map(e => e.textContent.trim())""")
    assert cut == [], f"{name}: text cut: {cut}"
    names = page.evaluate("""() => [...document.querySelectorAll('.cg-name, #thumb .btn, #thumb .toggle span')]
        .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1).map(e => e.textContent.trim())""")
    assert names == [], f"{name}: names wider than their box: {names}"
    bad = page.evaluate(WIDE)
    assert bad == [], f"{name}: {bad}"


def scroll_to_middle(page) -> int:
    """Scroll the page part of the way down (what scrolls between the score and the bar); returns where."""
    most = page.evaluate("document.documentElement.scrollHeight - window.innerHeight")
    assert most > 40, "the page does not scroll: nothing to keep"
    y = min(160, most // 2)
    page.evaluate(f"window.scrollTo(0, {y})")
    return page.evaluate("window.scrollY")


def tap(page, selector: str) -> None:
    """A real tap that sends a request: it is sent at once, whenever it comes (no tap is ignored)."""
    with page.expect_request(lambda r: "since=" not in r.url and r.resource_type in ("document", "xhr", "fetch"),
                             timeout=20000):
        page.tap(selector)


def tap_and_record(page, selector: str, toast: str | None) -> None:
    """From a scrolled page, tap a control of the bar that records a step: the page shows the new version at
    the same scroll position, and the toast under the score says what was recorded."""
    settle(page)
    y = scroll_to_middle(page)
    before = _version(page)
    tap(page, selector)
    version_moved(page, before, 10, f"nothing recorded after tapping {selector}")
    settle(page)                                      # the scroll is put back once the swap has settled
    now = page.evaluate("window.scrollY")
    assert abs(now - y) <= 3, f"the page jumped from {y} to {now} after {selector}"
    if toast:
        shown = page.locator(".toast")
        assert shown.count() == 1 and shown.is_visible()
        assert re.search(toast, shown.inner_text()), shown.inner_text()
        box, bar = shown.bounding_box(), page.locator("#thumb").bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= bar["y"], "the toast is out of sight"
        assert shown.locator("button:has-text('Undo')").count() == 1
        assert "done=" not in page.url                # a reload does not show it again


def tap_and_go(page, selector: str, then: str) -> None:
    """Tap a link of the bar that opens another screen of the same page (the end of a deal): the scroll
    position is kept."""
    settle(page)
    y = scroll_to_middle(page)
    tap(page, selector)
    page.wait_for_selector(then)
    settle(page)
    now = page.evaluate("window.scrollY")
    assert abs(now - y) <= 3, f"the page jumped from {y} to {now} after {selector}"


def new_newmarket(page, edit: str, players, parlett: bool) -> None:
    page.goto(edit + "/newmarket/new")
    for i in range(8):
        if page.locator(f"select[name=seat{i}]").count():
            page.select_option(f"select[name=seat{i}]", players[i] if i < len(players) else "")
    if parlett:
        page.tap("label:has(input[name=variant][value=parlett])")
    else:
        page.fill("input[name=kitty_ante]", "1")
    with page.expect_navigation():
        page.tap("form[action$='/newmarket/new'] button.primary")
    page.wait_for_selector("#thumb")


def test_newmarket_classic_deal_in_the_thumb(touch, live_server, shots):
    page = touch
    edit = start_session(page, live_server, name="Thumb night", players=FOUR)
    new_newmarket(page, edit, FOUR, parlett=False)
    settle(page)
    check(page, shots, "nm-start")
    assert page.locator(".toast").count() == 0                        # nothing recorded yet: no toast

    tap_and_record(page, "#thumb button:has-text('Start deal 1')", r"Deal 1 started: 20 chips anted")
    check(page, shots, "nm-deal")
    # the dummy, before the first card: the dealer swapped
    tap_and_record(page, "#thumb button[name=dummy][value=swap]", r"Ane swapped with the dummy")
    assert page.locator("#thumb button[name=dummy]").count() == 0     # recorded: gone from the bar
    # a boodle card: the card, then who (the picker is two taps; the first records nothing)
    settle(page)
    v = _version(page)
    page.tap("#thumb label:has(input[name=card][value=KC])")
    assert _version(page) == v and page.locator("#thumb input[value=KC]").is_checked()
    check(page, shots, "nm-picked")
    tap_and_record(page, "#thumb .who button[value=Carlos]", r"Carlos played K♣: \+4")
    check(page, shots, "nm-boodle")
    assert page.locator("#thumb input[name=card][value=KC]").count() == 0

    # the end of the deal: who went out in the bar, the cards left above it
    tap_and_go(page, "#thumb a:has-text('End deal 1')", "#thumb form[action$='/end']")
    check(page, shots, "nm-end")
    settle(page)
    page.tap("#thumb label.toggle:has-text('Begoña')")
    page.fill("input[name=left_0]", "3")
    # a refusal (Carlos's and Dani's cards are missing) comes back on the same screen, messages beside the fields
    settle(page)
    with page.expect_response(lambda r: r.request.method == "POST") as resp:
        tap(page, "#thumb button:has-text('End deal 1')")
    assert resp.value.status == 422
    page.wait_for_selector("#err-left_2")
    settle(page)
    check(page, shots, "nm-end-refused")
    assert page.locator("#thumb input[name=out][value='Begoña']").is_checked()   # what was tapped stays
    for i, k in ((2, "5"), (3, "1")):
        page.fill(f"input[name=left_{i}]", k)
    tap_and_record(page, "#thumb button:has-text('End deal 1')", r"Deal 1 ended: Begoña out, \+13")
    check(page, shots, "nm-ended")
    assert page.locator("#thumb button:has-text('Start deal 2')").count() == 1


def test_newmarket_parlett_eight_players_in_the_thumb(touch, live_server, shots):
    page = touch
    edit = start_session(page, live_server, name="Big table", players=EIGHT)
    new_newmarket(page, edit, EIGHT, parlett=True)
    settle(page)
    check(page, shots, "pa-start")
    tap_and_record(page, "#thumb button:has-text('Start deal 1')", r"Deal 1 started")
    check(page, shots, "pa-deal")
    # the dead hand is one more choice of the picker, before the first Queen
    settle(page)
    page.tap("#thumb label:has(input[name=card][value=dead])")
    check(page, shots, "pa-dead-picked")
    tap_and_record(page, "#thumb .who button[value=Guillermina]", r"Guillermina took the dead hand")
    assert page.locator("#thumb input[value=dead]").count() == 0
    settle(page)
    page.tap("#thumb label:has(input[name=card][value=QH])")
    tap_and_record(page, "#thumb .who button[value=Maximiliano]", r"Maximiliano played Q♥: \+8")
    check(page, shots, "pa-queen")
    tap_and_go(page, "#thumb a:has-text('End deal 1')", "#thumb form[action$='/end']")
    check(page, shots, "pa-end")
    tap_and_record(page, "#thumb button[aria-label='Hodei went out']", r"Deal 1 ended: Hodei out, \+\d+")
    check(page, shots, "pa-ended")


def test_desmoche_hand_in_the_thumb(touch, live_server, shots):
    page = touch
    edit = start_session(page, live_server, name="Desmoche night", players=FOUR)
    page.goto(edit + "/desmoche/new")
    page.fill("input[name=stake]", "10")
    page.tap("label:has(input[name=bonuses])")
    page.tap("label:has(input[name=side_on_oro])")
    page.fill("input[name=side_oro]", "5")
    with page.expect_navigation():
        page.tap("form[action$='/desmoche/new'] button.primary")
    page.wait_for_selector("#thumb")
    settle(page)
    check(page, shots, "ds-hand1")
    # no bonus is ever ticked for the table: arriba del palo, same suit, micos start empty
    assert page.locator("input[name=arriba]:checked, input[name=same_suit]:checked").count() == 0
    assert page.locator("input[name=mico]").input_value() == ""

    page.tap("#thumb label.toggle:has-text('No winner')")
    tap_and_record(page, "#thumb button:has-text('Record hand 1')", r"Hand 1: no winner, 40 rolls over")
    check(page, shots, "ds-rolled")
    assert page.locator("input[name=arriba]:checked").count() == 0

    # hand 2: Begoña wins; Carlos laid no meld (ticked above, in the same form as the bar's button)
    settle(page)
    page.tap("#thumb label.toggle:has-text('Begoña')")
    page.tap("fieldset.bonuses label.toggle:has-text('Carlos')")
    check(page, shots, "ds-picked")
    tap_and_record(page, "#thumb button:has-text('Record hand 2')", r"Hand 2: Begoña won 80 \+10 bonuses")
    check(page, shots, "ds-won")
    assert page.locator("input[name=arriba]:checked").count() == 0    # the next hand starts clean again


def test_the_correction_pages_keep_save_in_the_thumb(touch, live_server, shots):
    page = touch
    edit = start_session(page, live_server, name="Fix night", players=FOUR)
    new_newmarket(page, edit, FOUR, parlett=False)
    game = page.url.split("?")[0]
    tap_and_record(page, "#thumb button:has-text('Start deal 1')", None)
    tap_and_go(page, "#thumb a:has-text('End deal 1')", "#thumb form[action$='/end']")
    settle(page)
    page.tap("#thumb label.toggle:has-text('Ane')")
    for i in (1, 2, 3):
        page.fill(f"input[name=left_{i}]", "2")
    tap_and_record(page, "#thumb button:has-text('End deal 1')", r"Deal 1 ended: Ane out, \+10")
    page.goto(game + "/deal/0")
    check(page, shots, "nm-fix", score=False)
    page.select_option("select[name=won_KC]", "p:Dani")
    with page.expect_navigation():
        tap(page, "#thumb button:has-text('Save deal 1')")
    settle(page)
    assert re.search("Deal 1 corrected", page.locator(".toast").inner_text())

    page.goto(edit + "/desmoche/new")
    with page.expect_navigation():
        page.tap("form[action$='/desmoche/new'] button.primary")
    settle(page)
    page.tap("#thumb label.toggle:has-text('Carlos')")
    tap_and_record(page, "#thumb button:has-text('Record hand 1')", r"Hand 1: Carlos won")
    page.goto(page.url.split("?")[0] + "/hand/0")
    check(page, shots, "ds-fix", score=False)


def _doc(page, edit):
    return json.loads(page.request.get(edit + "/session.json").text())


def test_a_double_tap_in_the_bar_records_one_step(phone, live_server):
    """Two taps 80 ms apart on the same rendered button (its answer held back until both are made): one
    request, one step; the next screen's button, tapped as soon as it shows, is a step of its own."""
    page = phone.new_page()
    edit = start_session(page, live_server, name="Double", players=FOUR)
    new_newmarket(page, edit, FOUR, parlett=False)
    assert page.locator("#live[data-wake]").count() == 1              # a scoring page keeps the screen on
    for target in ("#thumb button:has-text('Start deal 1')", "#thumb .who button[value=Carlos]"):
        settle(page)
        if "who" in target:
            page.tap("#thumb label:has(input[name=card][value=AH])")
        box = page.locator(target).bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        before = _version(page)
        double_tap_held(page, "**/newmarket/0/**", x, y)
        wait_recorded(page, before)
    deals = _doc(page, edit)["games"][0]["deals"]
    assert deals == [{"open": True, "boodles_won": [{"card": "AH", "by": "Carlos"}]}], deals
