"""What the scoring tests share: the live region's version, a page at rest, a tap recorded, a double tap
held at the network so its requests can be counted. Every wait is for an event, never a guessed delay
(the 80 ms between the two taps of a double tap is the gesture itself)."""
import time


def live_version(page):
    return page.evaluate("document.getElementById('live') && document.getElementById('live').dataset.version")


def at_rest(page, timeout=20000):
    """No tap's request under way and the scroll put back (static/app.js marks <html data-busy> until then)."""
    page.wait_for_load_state()
    page.wait_for_selector("html:not([data-busy])", state="attached", timeout=timeout)


def wait_recorded(page, before, timeout=20):
    """The live region's version moved past ``before`` (a step was recorded), then the page is at rest."""
    deadline = time.monotonic() + timeout
    while live_version(page) in (before, None):
        assert time.monotonic() < deadline, "nothing was recorded"
        page.wait_for_timeout(30)
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
