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
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]

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
    from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

    if not hasattr(Browser.new_context, "__wrapped_scale__"):
        Browser.new_context = _scaled(Browser.new_context)
        Browser.new_context.__wrapped_scale__ = True
        Page.close = _calm_close(Page.close, lambda page: [page])
        BrowserContext.close = _calm_close(BrowserContext.close, lambda context: list(context.pages))
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


@pytest.fixture
def print_pdf(browser):
    """print_pdf(url, path, **pdf_options): the page at url printed to a PDF by a Chromium of its own, closed
    at once. The worker's browser never prints: the runs that hung for good in the 64-pair bracket test had printed
    on it earlier in that test."""
    def print_(url, path, **options):
        own = browser.browser_type.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            page = own.new_page()
            page.goto(url)
            page.pdf(path=str(path), **options)
        finally:
            own.close()

    return print_


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


# Closing a page while a navigation of its own commits can hang for ever in Chromium (Playwright issues
# 42068 and 41900, an upstream Chromium bug), and these pages navigate by themselves: a table's phone
# follows the night to its next match, a sala turns its pages. Two runs hung that way, in ctx.close() and
# page.close(). Every close first takes its pages to about:blank, where no script is left to navigate.
def _blank(page) -> None:
    from playwright.sync_api import Error

    for _ in range(3):
        if page.is_closed():
            return
        try:
            page.goto("about:blank", timeout=15000)
            return
        except Error:           # the page's own navigation won the race: go again
            continue


def _calm_close(close, pages_of):
    def calm(self, *args, **kwargs):
        for page in pages_of(self):
            _blank(page)
        return close(self, *args, **kwargs)

    calm.__doc__ = close.__doc__
    return calm


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
    """Where screenshots go (set COMPANION_SHOTS to keep them, e.g. to look at them)."""
    path = os.environ.get("COMPANION_SHOTS") or str(tmp_path_factory.mktemp("shots"))
    os.makedirs(path, exist_ok=True)
    return path


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
