"""Browser tests: the real app under waitress on loopback, driven by Playwright in Debian's Chromium."""
import faulthandler
import os
import shutil
import signal
import socket
import sys
import threading
import time

import pytest

from helpers import csrf, form_fields, new_session, start_session  # noqa: F401  (import from helpers)

CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")
# Chromium 156's headless browser opens, for every window (every context here), two renderers of its own for
# the address bar's WebUI popups (chrome://omnibox-popup.top-chrome/): in the 3-table club night they cost
# as much CPU as every page the test opened. And it keeps a spare renderer started for the next page, which a
# new context cannot use: the axe module started 122 renderers, 61 without spares (129 → 104 CPU-s). Both
# turned off, with the features Playwright turns off (Chromium reads the last --disable-features switch, and
# Playwright puts its own first).
PLAYWRIGHT_OFF = ("AvoidUnnecessaryBeforeUnloadCheckSync,DestroyProfileOnBrowserClose,HttpsUpgrades,"
                  "HttpsFirstBalancedModeAutoEnable,LensOverlay,MediaRouter,PaintHolding,ThirdPartyStoragePartitioning,"
                  "AvoidCorsURLLoaderRestartOnRedirect,TcpPortRandomizationWin,OptimizationHints,"
                  "NetworkTimeServiceQuerying,AimEnabled,PreconnectToSearch")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
        f"--disable-features={PLAYWRIGHT_OFF},WebUIOmniboxPopup,WebUIOmniboxAimPopup,SpareRendererForSitePerProcess"]

# Under xdist a test's output is captured and shown only when it fails: there, Playwright says each call it
# starts and ends (DEBUG=pw:api, read when playwright is first imported), so a test the watchdog below had
# to stop shows the call it was stuck in.
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.setdefault("DEBUG", "pw:api")
# A browser test that runs this long is stuck, not slow (the longest takes ~2 min alone, ~5 on a loaded
# machine): see `_watchdog`.
DEADLINE = float(os.environ.get("COMPANION_BROWSER_DEADLINE", "900"))


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session", params=("sqlite", "postgresql"))
def live_backend(request):
    """The engine under the live server: every browser test runs on both (tests/conftest.py)."""
    return request.param


@pytest.fixture(scope="session")
def live_server(tmp_path_factory, live_backend, request):
    """The app served by waitress on 127.0.0.1; QR codes point at the same address."""
    from waitress.server import create_server

    from companion import create_app

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    if live_backend == "postgresql":
        database = request.getfixturevalue("pg_cluster").new_schema()
    else:
        database = str(tmp_path_factory.mktemp("live") / "live.db")
    app = create_app({"DATABASE": database, "BASE_URL": base, "POLL_SECONDS": 1})
    server = create_server(app, host="127.0.0.1", port=port, threads=8)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    yield base
    server.close()


@pytest.fixture(scope="session")
def browser():
    if not shutil.which(CHROMIUM) and not os.path.exists(CHROMIUM):
        pytest.fail(f"Chromium not found at {CHROMIUM}: .ci/run installs Debian's chromium")
    from playwright.sync_api import Browser, BrowserContext, Locator, Page, sync_playwright

    if not hasattr(Browser.new_context, "__wrapped_scale__"):
        Browser.new_context = _scaled(Browser.new_context)
        Browser.new_context.__wrapped_scale__ = True
        page_close = Page.close
        Page.close = _page_closed_surely(page_close)
        BrowserContext.close = _pages_closed_first(BrowserContext.close, page_close)
        Page.screenshot = _unkept(Page.screenshot)
        Locator.screenshot = _unkept(Locator.screenshot)
    with sync_playwright() as pw:
        b = _Relaunching(lambda: pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS))
        yield b
        b.close()


class _Relaunching:
    """The worker's Chromium, launched again when the watchdog had to kill it: one stuck test fails, the
    worker's other tests go on."""

    def __init__(self, launch):
        self._launch = launch
        self._browser = launch()

    def __getattr__(self, name):
        if not self._browser.is_connected():
            self._browser = self._launch()
        return getattr(self._browser, name)


def _chromium_pids() -> list[int]:
    """This worker's Chromium processes (under Playwright's driver, under this process)."""
    parent = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    mine, found = {os.getpid()}, True
    while found:
        found = False
        for pid, ppid in parent.items():
            if ppid in mine and pid not in mine:
                mine.add(pid)
                found = True
    out = []
    for pid in mine - {os.getpid()}:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"chrom" in f.read().split(b"\0")[0]:
                    out.append(pid)
        except OSError:
            continue
    return out


@pytest.fixture(autouse=True)
def _watchdog(request):
    """A browser test stuck for DEADLINE seconds is stopped rather than waited for forever. Chromium can hang
    for good (a page closed while its own navigation commits: Playwright 42068 and 41900); killing it makes the
    stuck call fail, so the test fails with its traceback and the Playwright calls it made (DEBUG=pw:api
    above). If even that does not end it, the stacks are printed and the worker exits (xdist starts another)."""
    done = threading.Event()

    def fire():
        print(f"\n{request.node.nodeid}: still running after {DEADLINE:.0f} s; Chromium killed", file=sys.stderr)
        for pid in _chromium_pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        if not done.wait(120):
            faulthandler.dump_traceback(file=sys.__stderr__, all_threads=True)
            os._exit(3)

    timer = threading.Timer(DEADLINE, fire)
    timer.daemon = True
    timer.start()
    yield
    done.set()
    timer.cancel()


# Pages are drawn at 1 device pixel per CSS pixel: layout, tap targets and every check are in CSS pixels
# and do not change, and Chromium rasters a quarter of the pixels of a 2x phone (a fifth less CPU for the
# screen-heavy modules). Set COMPANION_SHOTS (to keep the screenshots and look at them) and the phones
# draw at 2x, as a phone's screen does.
SCALE = 2 if os.environ.get("COMPANION_SHOTS") else 1


def _scaled(new_context):
    def scaled(self, *args, **kwargs):
        if "device_scale_factor" in kwargs:
            kwargs["device_scale_factor"] = min(kwargs["device_scale_factor"], SCALE)
        return new_context(self, *args, **kwargs)

    scaled.__doc__ = new_context.__doc__
    return scaled


# Closing a page while a navigation of its own commits can hang for ever in Chromium: Chromium answers
# Target.closeTarget with success and drops the close, so page.close() waits for a close that never comes
# (Playwright issues 41900, 42068 and 42366, crbug 536385539; the fixes proposed upstream re-issue the close).
# These pages navigate by themselves (a table's phone follows the night to its next match, a sala turns its
# pages), and runs hung that way in page.close() and ctx.close(). So a close here asks without waiting
# (run_before_unload: the app sets no beforeunload), waits for the page's close event and asks again when it
# does not come; a context's pages are all closed so before the context is.
def _close_page(close, page) -> None:
    from playwright.sync_api import Error

    for _ in range(10):
        if page.is_closed():
            return
        try:
            close(page, run_before_unload=True)
            page.wait_for_event("close", timeout=1000)
        except Error:               # no close event in time (asked again), or the page closed meanwhile
            continue
    assert page.is_closed(), "a page did not close after ten requests"


def _page_closed_surely(close):
    def page_close(self, *args, **kwargs):        # (no test passes run_before_unload or a reason)
        _close_page(close, self)

    page_close.__doc__ = close.__doc__
    return page_close


def _pages_closed_first(close, page_close):
    def context_close(self, *args, **kwargs):
        for page in list(self.pages):
            _close_page(page_close, page)
        return close(self, *args, **kwargs)

    context_close.__doc__ = close.__doc__
    return context_close


def _phone_context(browser):
    return browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2, has_touch=True,
                               is_mobile=True)


@pytest.fixture
def phone(browser):
    """A fresh browser context the size of a small phone (360 x 740)."""
    ctx = _phone_context(browser)
    yield ctx
    ctx.close()


@pytest.fixture
def second_phone(browser):
    """Another phone at the same table (its own cookies)."""
    ctx = _phone_context(browser)
    yield ctx
    ctx.close()


@pytest.fixture(scope="session")
def shots(tmp_path_factory):
    """Where screenshots go (set COMPANION_SHOTS to keep them, e.g. to look at them). Without it the folder is
    a temporary one nobody opens, and a screenshot saved there is not taken (`_unkept`)."""
    path = os.environ.get("COMPANION_SHOTS")
    if not path:
        path = str(tmp_path_factory.mktemp("shots"))
        _THROWN_AWAY.add(os.path.realpath(path))
    os.makedirs(path, exist_ok=True)
    return path


_THROWN_AWAY: set = set()


def _unkept(screenshot):
    """A screenshot saved to the throw-away shots folder is skipped: it is for a person to look at
    (COMPANION_SHOTS), and drawing and encoding a full page was a good part of the browser's CPU. A
    screenshot a test reads (no path, or a path elsewhere) is taken as before."""
    def maybe(self, *args, **kwargs):
        path = kwargs.get("path")
        if path is not None and os.path.dirname(os.path.realpath(str(path))) in _THROWN_AWAY:
            return b""
        return screenshot(self, *args, **kwargs)

    maybe.__doc__ = screenshot.__doc__
    return maybe


@pytest.fixture
def cpu_load():
    """The CPU kept busy while the test runs (a slow phone is a busy machine): stress-ng when installed,
    else busy Python loops; bounded (each stops by itself after 10 minutes) and stopped at the end.

    One busy process per core the other test workers leave free, and at least one: under the README's
    command (2 workers on 2 cores) one process, so the machine is full (3 runnable for 2 cores) without
    taking the other worker's core as well (two processes cost 1.5 CPU-min a run and slowed it down)."""
    import subprocess
    import sys

    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT") or 1)
    n = max(1, (os.cpu_count() or 2) - workers + 1)
    if shutil.which("stress-ng"):
        procs = [subprocess.Popen(["stress-ng", "--cpu", str(n), "--timeout", "600s", "--quiet"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    else:
        loop = "import time\nend = time.monotonic() + 600\nwhile time.monotonic() < end: pass\n"
        procs = [subprocess.Popen([sys.executable, "-c", loop]) for _ in range(n)]
    yield procs
    for p in procs:
        p.terminate()
    for p in procs:
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()
