"""What the scoring tests share: the live region's version, a page at rest, a tap recorded, a double tap
held at the network so its requests can be counted. Every wait is for an event, never a guessed delay
(the 80 ms between the two taps of a double tap is the gesture itself)."""
import json
import time

from playwright.sync_api import TimeoutError as PlaywrightTimeout


def live_version(page):
    return page.evaluate("document.getElementById('live') && document.getElementById('live').dataset.version")


def at_rest(page, timeout=20000):
    """No tap's request under way, the scroll put back (static/app.js marks <html data-busy> until then) and
    the controls the last swap brought in take taps (static/app.js marks them [data-arming] until then)."""
    page.wait_for_load_state()
    page.wait_for_selector("html:not([data-busy])", state="attached", timeout=timeout)
    page.wait_for_selector("[data-arming]", state="detached", timeout=timeout)


def version_moved(page, before, timeout=20, what="nothing was recorded"):
    """Wait until the live region shows a version other than ``before``: a selector wait, so it has a
    deadline and needs no script (the CSP forbids ``wait_for_function``'s evaluated strings)."""
    moved = "#live[data-version]" + (f":not([data-version={json.dumps(before)}])" if before is not None else "")
    try:
        page.wait_for_selector(moved, state="attached", timeout=timeout * 1000)
    except PlaywrightTimeout:
        raise AssertionError(what) from None


def wait_recorded(page, before, timeout=20):
    """The live region's version moved past ``before`` (a step was recorded), then the page is at rest."""
    version_moved(page, before, timeout)
    at_rest(page)


def double_tap_held(page, pattern, x, y):
    """Two taps 80 ms apart at (x, y) while the game's POSTs are held: asserts one request was sent, then
    lets it through."""
    held = []
    page.route(pattern, lambda route: held.append(route) if route.request.method == "POST" else route.continue_())
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(80)
    page.touchscreen.tap(x, y)
    deadline = time.monotonic() + 10
    while not held:
        assert time.monotonic() < deadline, "the tap sent nothing"
        page.wait_for_timeout(20)
    page.wait_for_timeout(300)                     # room for a second request, were one sent
    assert len(held) == 1, f"{len(held)} requests for one double tap"
    held[0].continue_()
    page.unroute(pattern)


def tap_at(cdp, x, y, at):
    """One finger on (x, y) for 30 ms, stamped with the time it went down (``at``, seconds since the epoch):
    the page reads each touch's own time, as a phone's hardware gives it."""
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}], "timestamp": at})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": [], "timestamp": at + 0.03})


def double_tap(page, x, y, gap_ms):
    """Two taps ``gap_ms`` apart at (x, y), nothing held: each is delivered when the finger makes it and
    stamped with that time, so a busy machine can deliver the second late (as a busy phone does) but
    never changes the gesture the page sees."""
    cdp = page.context.new_cdp_session(page)
    try:
        t0 = time.time()
        tap_at(cdp, x, y, t0)
        wait = t0 + gap_ms / 1000 - time.time()
        if wait > 0:
            page.wait_for_timeout(wait * 1000)      # the gesture's own interval
        tap_at(cdp, x, y, t0 + gap_ms / 1000)
    finally:
        cdp.detach()
