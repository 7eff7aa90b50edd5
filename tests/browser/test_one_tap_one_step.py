"""One tap, one step (issue 26): real touch taps on a phone at 360x740 and 320x640, the CPU kept busy.

- A double tap at 60, 100 and 150 ms records one step: on Paso, on the count of a hand (bids and tally),
  on the club's Start the round and End the round. The server's state says so, not only the page.
- The second tap of a double tap that lands on the next screen's control (the ghost tap) is ignored: a
  finger down before the control was shown, or a tap before it has been on screen 250 ms; the control is
  dimmed and aria-disabled meanwhile. Deliberate taps on one screen all count (4 x +5 and +1 = 21).
- A count refused as stale (an old page's tap) leaves the next hand empty; so does the next hand brought
  by the live poll.
- No bar tap moves the scroll, "Paso en todo" included; the step's buttons are inside the screen."""
import json
import re
import time

import pytest

from helpers import start_session
from taps import at_rest, double_tap, live_version, tap_at, wait_recorded
from test_club_browser import start_night

SIZES = [(360, 740), (320, 640)]
GAPS = (60, 100, 150)
IDS = [f"{w}x{h}" for w, h in SIZES]

# every click the page gets, before any listener of the app: which screen it landed on, and whether the
# control under it had just appeared ([data-arming]); when a swap last brought controls in (epoch ms)
CLICKS = """window.__clicks = [];
document.addEventListener('htmx:load', function () { window.__shown = performance.timeOrigin + performance.now(); });
addEventListener('click', function (ev) {
  var live = document.getElementById('live'), c = ev.target.closest ? ev.target.closest('button, a[href]') : null;
  __clicks.push({v: live ? live.dataset.version : location.pathname, arming: !!(c && c.hasAttribute('data-arming')),
                 what: c ? c.textContent.trim().replace(/\\s+/g, ' ').slice(0, 30) : ''});
}, true);"""


@pytest.fixture(params=SIZES, ids=IDS)
def touch(browser, request):
    w, h = request.param
    ctx = browser.new_context(viewport={"width": w, "height": h}, device_scale_factor=2, has_touch=True,
                              is_mobile=True)
    ctx.add_init_script(CLICKS)
    yield ctx.new_page()
    ctx.close()


def size(page):
    return page.viewport_size["width"], page.viewport_size["height"]


def centre(page, selector):
    box = page.locator(selector).filter(visible=True).first.bounding_box()
    assert box, f"{selector} is not on the screen"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def in_view(page, selector, label):
    """Every shown control matching ``selector`` lies inside the screen."""
    w, h = size(page)
    boxes = page.evaluate("""sel => [...document.querySelectorAll(sel)].filter(b => b.offsetParent).map(b => {
        const r = b.getBoundingClientRect(); return [b.textContent.trim().slice(0, 24), r.left, r.top, r.right, r.bottom]; })""",
                          selector)
    assert boxes, f"{label}: no {selector}"
    for text, left, top, right, bottom in boxes:
        assert left >= 0 and top >= 0 and right <= w + 0.5 and bottom <= h + 0.5, \
            f"{label}: '{text}' is off screen ({left:.0f},{top:.0f}-{right:.0f},{bottom:.0f} in {w}x{h})"


def tap(page, selector):
    """A deliberate tap on the control's centre once the page is at rest; returns when it is recorded."""
    at_rest(page)
    before = live_version(page)
    x, y = centre(page, selector)
    page.touchscreen.tap(x, y)
    wait_recorded(page, before)


def double_tapped(page, selector, gap):
    """A double tap ``gap`` ms apart on ``selector``; returns when the first tap's answer is shown and the page
    is at rest (any second step would have been sent by then), with what the second tap landed on."""
    at_rest(page)
    in_view(page, "#thumb .btn", f"before the double tap on {selector}")
    before = live_version(page)
    page.evaluate("__clicks.length = 0")
    x, y = centre(page, selector)
    scrolled = page.evaluate("scrollY")
    double_tap(page, x, y, gap)
    delivered(page)
    wait_recorded(page, before)
    assert abs(page.evaluate("scrollY") - scrolled) <= 1, f"the double tap on {selector} moved the page"
    return what_became(page.evaluate("__clicks"))


def delivered(page):
    """Both taps handled by the page: the input is dispatched before the next frames are drawn, so a click
    it makes (and the request that click sends) has happened once two frames are. (A count of pointerup
    events would miss a finger lifted from a control the swap removed: its events reach no window.)"""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r())))")


def what_became(clicks):
    """What became of the second tap: no click (the browser made none), a click on the same screen (the form's
    key drops it), or a click on the next screen's control (ignored: it had just appeared)."""
    if len(clicks) < 2:
        return "no click"
    if clicks[1]["v"] == clicks[0]["v"]:
        return "same screen"
    return "next screen" + (" (arming)" if clicks[1]["arming"] else "")


def new_match(page, base, scoring="bids", edit=None):
    edit = edit or start_session(page, base)
    page.goto(edit + "/mus/new")
    page.locator("input[name=preset][value=spanish]").check()
    page.locator(f"input[name=scoring][value={scoring}]").check()
    page.locator("button:has-text('Start the match')").tap()
    page.wait_for_url(re.compile(r".*/mus/\d+$"))
    at_rest(page)
    return edit, page.url.split("?")[0]


def games(page, edit):
    return json.loads(page.request.get(edit + "/session.json").text())["games"]


def points(hand):
    got = {"A": 0, "B": 0}
    for a in hand["tally"]:
        got[a["team"]] += a["points"]
    return got


def mano(page):
    return page.locator(".mus-mano").first.inner_text()


# ---------------------------------------------------------------------------------------------------
# the ghost tap, made certain: the answer is held until the second touch is under way

def test_a_tap_on_a_control_that_just_appeared_is_ignored(touch, live_server, cpu_load):
    page = touch
    edit, game = new_match(page, live_server)
    x, y = centre(page, "#thumb button[value=pass]")
    cdp = page.context.new_cdp_session(page)
    held = []

    def hold(route):
        if route.request.method == "POST":
            held.append(route)
        else:
            route.continue_()

    def first_tap_answered_later():
        """A tap on Paso whose answer waits until this returns its release."""
        held.clear()
        page.route("**/mus/0/act", hold)
        before = live_version(page)
        tap_at(cdp, x, y, time.time())
        deadline = time.monotonic() + 20
        while not held:                         # the route handler runs as the driver's events are read
            assert time.monotonic() < deadline, "the tap sent nothing"
            page.wait_for_timeout(20)

        def release():
            held[0].continue_()
            page.unroute("**/mus/0/act")
            page.wait_for_function("v => document.getElementById('live').dataset.version !== v", arg=before)
        return release

    # 1. a finger that went down before the next screen came and lifts on it: its click is ignored
    at_rest(page)
    page.evaluate("__clicks.length = 0")
    release = first_tap_answered_later()
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}], "timestamp": time.time()})
    release()
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": [], "timestamp": time.time()})
    delivered(page)
    at_rest(page)
    assert what_became(page.evaluate("__clicks")).startswith("next screen")     # (its cue may be gone by now)
    hands = games(page, edit)[0]["hands"]
    assert len(hands) == 1 and hands[0]["open"] == "chica", hands           # Grande passed; Chica not

    # 2. a tap 100 ms after the next screen came in (delivered late, as a busy phone does): ignored
    page.evaluate("__clicks.length = 0")
    release = first_tap_answered_later()
    release()
    shown = page.evaluate("__shown")
    tap_at(cdp, x, y, shown / 1000 + 0.1)
    delivered(page)
    at_rest(page)
    assert what_became(page.evaluate("__clicks")).startswith("next screen")
    hands = games(page, edit)[0]["hands"]
    assert len(hands) == 1 and hands[0]["open"] == "pares", hands           # Chica passed; nothing more

    # 3. once the control is live (its cue gone), a tap counts
    at_rest(page)
    assert page.locator("[data-arming]").count() == 0
    tap(page, "#thumb button[value=declare]")
    assert games(page, edit)[0]["hands"][0]["open"] != "pares"
    cdp.detach()


# ---------------------------------------------------------------------------------------------------
# a double tap records one step

def test_a_double_tap_on_paso_passes_one_lance(touch, live_server, cpu_load):
    page, edit, seen = touch, None, []
    for gi, gap in enumerate(GAPS):
        edit, game = new_match(page, live_server, edit=edit)
        seen.append(double_tapped(page, "#thumb button[value=pass]", gap))
        hands = games(page, edit)[gi]["hands"]
        assert len(hands) == 1 and hands[0]["open"] == "chica", (gap, hands)        # Grande passed, once
        assert page.locator("#thumb .mus-lance").inner_text() == "Chica"
        in_view(page, "#thumb .btn", f"Chica after a double tap at {gap} ms")
    print("Paso", size(page), dict(zip(GAPS, seen)))


def test_a_double_tap_on_count_counts_one_hand_with_bids(touch, live_server, cpu_load):
    page, edit, seen = touch, None, []
    for gi, gap in enumerate(GAPS):
        edit, game = new_match(page, live_server, edit=edit)
        was = mano(page)
        page.locator("#thumb a[href*='rest=1']").tap()             # everyone passes: who won what
        page.wait_for_url("**rest=1")
        at_rest(page)
        page.locator("input[name=win_juego][value=A]").check()       # the better punto
        seen.append(double_tapped(page, "#thumb button[value='rest:grande:A:chica:B']", gap))
        hands = games(page, edit)[gi]["hands"]
        # one hand counted, the next one not begun (the second tap did not pass its Grande), mano moved once
        assert len(hands) == 1 and "open" not in hands[0], (gap, hands)
        assert page.locator("#thumb .mus-lance").inner_text() == "Grande"
        assert mano(page) != was
        in_view(page, "#thumb .btn", f"hand 2 after a double tap at {gap} ms")
    print("Count (bids)", size(page), dict(zip(GAPS, seen)))


def test_a_double_tap_on_count_counts_one_hand_with_the_tally(touch, live_server, cpu_load):
    page, seen = touch, []
    edit, game = new_match(page, live_server, scoring="tally")
    manos = [mano(page)]
    for n, gap in enumerate(GAPS, start=1):
        at_rest(page)
        page.locator("#thumb a[data-tally-add='A:2']").tap()
        seen.append(double_tapped(page, "#thumb button[value=tally]", gap))
        hands = games(page, edit)[0]["hands"]
        assert len(hands) == n and points(hands[-1]) == {"A": 2, "B": 0}, (gap, hands)
        assert page.locator("[data-tally-sum=A]").first.inner_text() == "A +0"      # the next hand is empty
        manos.append(mano(page))
        assert manos[-1] != manos[-2], manos                                        # mano moved once
        in_view(page, "#thumb .btn", f"tally hand {n + 1}")
    # deliberate taps on one screen all count: four +5 0.3 s apart and a +1, right after the last count
    at_rest(page)
    x, y = centre(page, "#thumb a[data-tally-add='A:5']")
    cdp = page.context.new_cdp_session(page)
    t0 = time.time()
    for i in range(4):
        wait = t0 + 0.3 * i - time.time()
        if wait > 0:
            page.wait_for_timeout(wait * 1000)       # the rhythm of a hand counting stones
        tap_at(cdp, x, y, t0 + 0.3 * i)
    cdp.detach()
    page.locator("#thumb a[data-tally-add='A:1']").tap()
    page.wait_for_function("() => document.querySelector('[data-tally-sum=A]').textContent === 'A +21'")
    tap(page, "#thumb button[value=tally]")
    assert points(games(page, edit)[0]["hands"][-1]) == {"A": 21, "B": 0}
    print("Count (tally)", size(page), dict(zip(GAPS, seen)))


def test_a_double_tap_starts_and_ends_one_round(touch, live_server, cpu_load):
    """The organizer's Start the round and End the round, each tapped twice: one round started, one ended."""
    page, seen = touch, []
    start_night(page, live_server)
    watch = page.locator("a:has-text('Open the sala')").get_attribute("href")

    def state():
        return page.request.get(live_server + watch.replace("/sala", "/state.json")).json()

    def double(selector, gap):
        at_rest(page)
        page.locator(selector).scroll_into_view_if_needed()
        at_rest(page)
        in_view(page, selector, selector)
        page.evaluate("__clicks.length = 0")
        x, y = centre(page, selector)
        double_tap(page, x, y, gap)
        delivered(page)
        return page

    for rnd, gap in enumerate(GAPS, start=1):
        assert page.locator("#proposal button.primary").first.inner_text() == f"Start round {rnd}"
        double("#proposal button.primary", gap).wait_for_selector("#round")
        at_rest(page)
        got = state()["games"]
        assert len(got) == 3 * rnd and not any(g.get("ended_by") for g in got[-3:]), (gap, got[-3:])
        double("#round button.danger", gap)
        page.wait_for_selector("#proposal" if rnd < 3 else "#standings")
        at_rest(page)
        got = state()["games"]
        assert len(got) == 3 * rnd and all(g.get("ended_by") == "time" for g in got), (gap, got)
        seen.append([c["what"][:14] + (" (arming)" if c["arming"] else "") for c in page.evaluate("__clicks")])
    print("club", size(page), dict(zip(GAPS, seen)))


# ---------------------------------------------------------------------------------------------------
# an old page's count, refused: the next hand starts empty

def pending(page):
    return [page.locator(f"[data-tally-sum={t}]").first.inner_text() for t in "AB"]


def test_a_refused_stale_count_leaves_the_next_hand_empty(phone, second_phone, live_server, cpu_load):
    a = phone.new_page()
    edit, game = new_match(a, live_server, scoring="tally")
    b = second_phone.new_page()
    # b's live polls answer "unchanged": its page stays an old page while a counts the hand
    poll = re.compile(r".*/mus/0\?since=.*")
    b.route(poll, lambda route: route.fulfill(status=200, body="", headers={"HX-Reswap": "none"}))
    b.goto(game)
    at_rest(b)
    b.locator("#thumb a[data-tally-add='A:5']").tap()
    b.locator("#thumb a[data-tally-add='A:4']").tap()
    assert pending(b) == ["A +9", "B +0"] and "tally=" in b.url
    a.locator("#thumb a[data-tally-add='B:1']").tap()
    tap(a, "#thumb button[value=tally]")
    tap(b, "#thumb button[value=tally]")                      # the old page's count: refused (409)
    assert b.locator("#thumb .thumb-note").is_visible()       # says another phone was first
    hands = games(a, edit)[0]["hands"]
    assert len(hands) == 1 and points(hands[0]) == {"A": 0, "B": 1}, hands
    # hand 2, shown fresh: no A +9 one tap from being counted twice, not in the address either
    assert b.locator(".mus-handno").first.inner_text().startswith("Hand 2")
    assert pending(b) == ["A +0", "B +0"] and b.locator("[data-tally-list] li").count() == 0
    assert "tally=" not in b.url
    b.reload()
    at_rest(b)
    assert pending(b) == ["A +0", "B +0"]
    # the next hand brought by the live poll: the points pending for the hand before go with it
    b.unroute(poll)
    b.locator("#thumb a[data-tally-add='A:3']").tap()
    assert pending(b) == ["A +3", "B +0"] and "tally=" in b.url
    before = live_version(b)
    a.reload()
    at_rest(a)
    a.locator("#thumb a[data-tally-add='B:2']").tap()
    tap(a, "#thumb button[value=tally]")
    wait_recorded(b, before)                                   # b's poll brings hand 3
    assert pending(b) == ["A +0", "B +0"] and "tally=" not in b.url
    b.reload()
    at_rest(b)
    assert pending(b) == ["A +0", "B +0"]
    assert [points(h) for h in games(a, edit)[0]["hands"]] == [{"A": 0, "B": 1}, {"A": 0, "B": 2}]


# ---------------------------------------------------------------------------------------------------
# no bar tap moves the page

BAR_TAPS = [           # (what, the control, where the page is scrolled when it is tapped)
    ("Paso en todo", "#thumb a[href*='rest=1']", 0),
    ("back to the bidding", "#thumb .thumb-foot a", 0),
    ("Paso en todo, scrolled", "#thumb a[href*='rest=1']", 120),
    ("back to the bidding, scrolled", "#thumb .thumb-foot a", 120),
    ("envite", "#thumb button[value='bet:A:2']", 0),
    ("quiero", "#thumb button[value=call]", 120),
    ("paso, chica", "#thumb button[value=pass]", 0),
    ("go on, who has pares", "#thumb button[value=declare]", 120),
    ("paso, punto", "#thumb button[value=pass]", 0),
    ("the count, who won", "#thumb .thumb-row .btn", 120),
]


def test_no_bar_tap_moves_the_page(touch, live_server, cpu_load):
    page = touch
    edit, game = new_match(page, live_server)
    moved = {}
    for label, selector, y in BAR_TAPS:
        at_rest(page)
        # from the top, and from lower down the page (the header gone, the score stuck at the top)
        page.evaluate("y => scrollTo(0, Math.min(y, document.documentElement.scrollHeight - innerHeight))", y)
        y = page.evaluate("scrollY")
        before, url = live_version(page), page.url
        x, cy = centre(page, selector)
        # a link is a GET (another screen of the hand: the address changes); a button records a step
        link = page.locator(selector).filter(visible=True).first.evaluate("e => e.tagName") == "A"
        page.touchscreen.tap(x, cy)
        if link:
            page.wait_for_function("u => location.href !== u", arg=url)
            at_rest(page)
        else:
            wait_recorded(page, before)
        in_view(page, "#thumb .btn", label)
        after = page.evaluate("scrollY")
        if abs(after - y) > 1:
            moved[label] = after - y
    assert moved == {}, f"the page moved at {size(page)}: {moved}"
