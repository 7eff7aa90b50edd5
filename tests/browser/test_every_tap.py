"""Every tap counts, once, whatever the network does (issue 16). Real taps on a touch phone; the network
cases run the real server (`companion serve` on loopback, a free port) and kill it by PID mid-tap.

- The tally counts on the phone: four taps on +5 0.3 s apart and one on +1 record 21.
- Two taps 80 ms apart on one control send one request (the form's idempotency key, not a timer).
- A tap with no answer waits in the outbox (page + localStorage), says so, and lands exactly once when the
  server is back: by itself, on "Try again", and after a reload; a tap the server had already committed is
  recognised by its key and shows its result."""
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time

import pytest

from helpers import start_session
from taps import at_rest as wait_settled, double_tap_held, live_version as _version, wait_recorded as wait_version_after

SIZES = [(360, 740), (320, 640)]


def _touch(browser, w=360, h=740):
    return browser.new_context(viewport={"width": w, "height": h}, device_scale_factor=2, has_touch=True,
                               is_mobile=True)


def centre(page, selector):
    box = page.locator(selector).first.bounding_box()
    assert box, f"{selector} is not on the screen"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def new_match(page, base, scoring="bids"):
    edit = start_session(page, base)
    page.goto(edit + "/mus/new")
    page.locator("input[name=preset][value=spanish]").check()
    page.locator(f"input[name=scoring][value={scoring}]").check()
    page.click("button:has-text('Start the match')")
    page.wait_for_url("**/mus/0*")
    wait_settled(page)
    return edit, page.url.split("?")[0]


def hands(page, edit):
    return json.loads(page.request.get(edit + "/session.json").text())["games"][0]["hands"]


# ---------------------------------------------------------------------------------------------------
# deliberate taps always count

@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_fast_tally_taps_all_count(browser, live_server, size):
    ctx = _touch(browser, *size)
    page = ctx.new_page()
    edit, game = new_match(page, live_server, scoring="tally")
    plus5 = "#thumb .mus-a a[data-tally-add='A:5']"
    x, y = centre(page, plus5)
    for _ in range(4):
        page.touchscreen.tap(x, y)
        page.wait_for_timeout(300)                 # the rhythm of a hand counting stones
    page.tap("#thumb .mus-a a[data-tally-add='A:1']")
    page.tap("#thumb .mus-b a[data-tally-add='B:2']")
    # the pending totals show at once, one per team
    assert page.locator("[data-tally-sum=A]").first.inner_text() == "A +21"
    assert page.locator("[data-tally-sum=B]").first.inner_text() == "B +2"
    assert page.locator("[data-tally-list] li").count() == 6
    # a reload keeps the hand being counted (the address carries it)
    page.reload()
    wait_settled(page)
    assert page.locator("[data-tally-sum=A]").first.inner_text() == "A +21"
    before = _version(page)
    page.tap("#thumb button[value=tally]")
    wait_version_after(page, before)
    got = hands(page, edit)
    assert len(got) == 1
    pts = {"A": 0, "B": 0}
    for a in got[0]["tally"]:
        pts[a["team"]] += a["points"]
    assert pts == {"A": 21, "B": 2}, got
    ctx.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_two_taps_on_one_control_send_one_request(browser, live_server, size):
    """The second tap lands on the same rendered button (its answer is held back until both taps are made):
    one request; the next screen's button, tapped as soon as it shows, is a new step."""
    ctx = _touch(browser, *size)
    page = ctx.new_page()
    edit, game = new_match(page, live_server)
    x, y = centre(page, "#thumb button[value=pass]")
    before = _version(page)
    double_tap_held(page, "**/mus/0/**", x, y)
    wait_version_after(page, before)
    got = hands(page, edit)
    assert len(got) == 1 and got[0]["open"] == "chica", got          # Grande passed, once
    # the next screen's Paso, tapped at once: a new step
    before = _version(page)
    page.tap("#thumb button[value=pass]")
    wait_version_after(page, before)
    assert hands(page, edit)[0]["open"] == "pares"
    ctx.close()


# ---------------------------------------------------------------------------------------------------
# taps survive the network: the real server, killed by PID and started again on the same port and db

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, db: str):
        self.db, self.port, self.proc = db, _free_port(), None
        self.base = f"http://127.0.0.1:{self.port}"

    def start(self):
        env = dict(os.environ, COMPANION_ADMIN_TOKEN="x" * 32)
        self.proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--db", self.db, "--host", "127.0.0.1",
                                      "--port", str(self.port), "--base-url", self.base, "--threads", "4"],
                                     env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     start_new_session=True)   # its own group: gunicorn's workers with it
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                assert self.proc.poll() is None, "companion serve exited"
                assert time.monotonic() < deadline, "companion serve did not start"
                time.sleep(0.05)

    def kill(self):
        # the server's PID names its process group: gunicorn's master and every worker it forked die at once
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)


@pytest.fixture
def server(tmp_path):
    s = Server(str(tmp_path / "companion.db"))
    s.start()
    yield s
    if s.proc and s.proc.poll() is None:
        s.kill()


def waiting(page) -> int:
    return int(page.evaluate("document.documentElement.getAttribute('data-outbox') || '0'"))


def wait_waiting(page, n, timeout=20):
    deadline = time.monotonic() + timeout
    while waiting(page) != n:
        assert time.monotonic() < deadline, f"{waiting(page)} taps waiting, not {n}"
        page.wait_for_timeout(50)


def wait_open(page, edit, lance, timeout=20):
    """The server's record (not the page) says the hand is at ``lance``."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            got = hands(page, edit)
            if got and got[0]["open"] == lance:
                return got
        except Exception:
            pass
        assert time.monotonic() < deadline, f"the hand never reached {lance}"
        page.wait_for_timeout(100)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_tap_lost_with_the_server_lands_once_by_itself(browser, server, size):
    ctx = _touch(browser, *size)
    page = ctx.new_page()
    edit, game = new_match(page, server.base)

    def killed_mid_tap(route):
        if route.request.method != "POST":
            return route.continue_()
        server.kill()                              # the server goes away while the tap is on its way
        route.continue_()

    page.route("**/mus/0/**", killed_mid_tap)
    page.tap("#thumb button[value=pass]")
    wait_waiting(page, 1)
    page.unroute("**/mus/0/**")
    banner = page.locator("#net-error")
    assert banner.is_visible() and "1 tap waiting for the connection" in banner.inner_text()
    assert page.locator(".scorebar[data-stale]").count() == 1           # the score says it may be behind
    stored = json.loads(page.evaluate("localStorage.getItem('companion.outbox')"))
    assert [f for f in stored[0]["fields"] if f[0] == "move"] == [["move", "pass"]]   # the button's field too
    server.start()
    wait_waiting(page, 0)
    wait_open(page, edit, "chica")                 # Grande passed once, nothing asked of the table
    page.wait_for_selector("#thumb .mus-lance:has-text('Chica')")
    assert "recorded" in banner.inner_text()
    assert page.locator(".scorebar[data-stale]").count() == 0
    ctx.close()


def test_a_committed_tap_whose_answer_was_lost_lands_once_on_try_again(browser, server):
    ctx = _touch(browser)
    page = ctx.new_page()
    edit, game = new_match(page, server.base)

    def answer_lost(route):
        if route.request.method != "POST":
            return route.continue_()
        route.fetch(max_redirects=0)              # the server commits the step...
        server.kill()                              # ...and dies before the phone hears back
        route.abort("connectionreset")

    page.route("**/mus/0/**", answer_lost)
    page.tap("#thumb button[value='bet:A:2:call']")
    wait_waiting(page, 1)
    page.unroute("**/mus/0/**")
    server.start()
    page.tap("#net-retry")
    wait_waiting(page, 0)
    got = wait_open(page, edit, "chica")
    assert len(got) == 1                           # the envite of 2, quiero: once
    page.wait_for_selector("#thumb .mus-lance:has-text('Chica')")
    assert page.locator(".error").count() == 0     # its result, not an error
    ctx.close()


@pytest.mark.parametrize("reload", [False, True], ids=["no-reload", "reload"])
def test_a_tap_made_while_the_server_is_down_lands_once_it_is_back(browser, server, reload):
    ctx = _touch(browser, 320, 640)
    page = ctx.new_page()
    edit, game = new_match(page, server.base)
    server.kill()
    page.tap("#thumb button[value=pass]")
    wait_waiting(page, 1)
    assert page.locator("#net-error").is_visible()
    if reload:
        try:                                        # the table reloads while the server is still down
            page.reload(timeout=5000)
        except Exception:
            pass
        server.start()
        page.goto(game)                             # and opens the game again once it is back
    else:
        server.start()
    wait_waiting(page, 0)
    wait_open(page, edit, "chica")
    page.wait_for_selector("#thumb .mus-lance:has-text('Chica')")
    ctx.close()


def test_a_waiting_tap_refused_as_stale_shows_the_game_now(browser, server):
    """While this phone's tap waits, another phone records the step: the tap is refused (409) when it
    arrives, and the phone shows the game as it is now and says what became of its tap."""
    ctx, other = _touch(browser), _touch(browser)
    page = ctx.new_page()
    edit, game = new_match(page, server.base)
    page.route("**/mus/0/**", lambda route: route.abort("connectionrefused") if route.request.method == "POST"
               else route.continue_())
    page.tap("#thumb button[value=pass]")
    wait_waiting(page, 1)
    second = other.new_page()
    second.goto(game)
    wait_settled(second)
    second.tap("#thumb button[value='bet:B:2:fold']")          # Grande: B envida 2, no quiero
    wait_open(page, edit, "chica")
    page.unroute("**/mus/0/**")
    wait_waiting(page, 0)
    page.wait_for_selector("#thumb .mus-lance:has-text('Chica')")
    assert "moved on" in page.locator("#net-error").inner_text()
    got = hands(page, edit)
    assert got[0]["open"] == "chica"                            # the waiting Paso did not pass Chica too
    ctx.close()
    other.close()


def test_the_watch_link_reconnects_by_itself_and_says_so(browser, server):
    ctx, watcher = _touch(browser), _touch(browser)
    page = ctx.new_page()
    edit, game = new_match(page, server.base)
    page.goto(edit)
    view = page.locator("#watch-link").input_value()
    watch = watcher.new_page()
    watch.goto(view)
    watch.locator("a[href*='/mus/0']").first.click()
    watch.wait_for_url(re.compile(r"/mus/0"))         # the game page itself (the session page polls too)
    watch.wait_for_selector(".scorebar")
    before = _version(watch)
    server.kill()
    banner = watch.locator("#net-error")
    banner.wait_for(state="visible", timeout=20000)
    assert "reconnecting" in banner.inner_text()
    assert watch.locator(".scorebar[data-stale]").count() == 1
    server.start()
    page.goto(game)
    wait_settled(page)
    page.tap("#thumb button[value=pass]")
    wait_open(page, edit, "chica")
    wait_version_after(watch, before, timeout=30)               # the new step shows with nobody touching it
    assert "Connected again" in banner.inner_text()
    assert watch.locator(".scorebar[data-stale]").count() == 0
    ctx.close()
    watcher.close()


@pytest.mark.parametrize("stored", [False, True])
def test_a_tap_answered_500_is_sent_again_and_lands_once(browser, live_server, stored):
    """Any 5xx is no answer (the database lost before or after the commit): the outbox sends the same key
    again; a tap the server had not stored lands, one it had stored is answered by its key: one pass."""
    ctx = _touch(browser)
    page = ctx.new_page()
    edit, game = new_match(page, live_server)
    failed = []

    def stored_then_500(route):
        if route.request.method != "POST" or failed:
            return route.continue_()
        # the server records it (or never hears it); the phone hears a 500
        failed.append(route.fetch(max_redirects=0).status if stored else None)
        return route.fulfill(status=500, body="Internal Server Error")

    page.route("**/mus/0/**", stored_then_500)
    page.tap("#thumb button[value=pass]")
    wait_waiting(page, 0)
    wait_open(page, edit, "chica")
    page.wait_for_selector("#thumb .mus-lance:has-text('Chica')")
    assert failed == [303 if stored else None] and len(hands(page, edit)) == 1
    ctx.close()


def test_a_gateway_error_is_no_answer_the_tap_waits_and_lands_once(browser, live_server):
    """Behind a proxy, the app down answers 502 through the proxy: the tap waits (no error page) and lands
    once the app answers again."""
    ctx = _touch(browser)
    page = ctx.new_page()
    edit, game = new_match(page, live_server)
    page.route("**/mus/0/**", lambda route: route.fulfill(status=502, body="Bad Gateway")
               if route.request.method == "POST" else route.continue_())
    page.tap("#thumb button[value=pass]")
    wait_waiting(page, 1)
    assert page.locator("#thumb button[value=pass]").is_visible()      # the game, not an error page
    page.unroute("**/mus/0/**")
    wait_waiting(page, 0)
    wait_open(page, edit, "chica")
    page.wait_for_selector("#thumb .mus-lance:has-text('Chica')")
    assert len(hands(page, edit)) == 1
    ctx.close()
