import os

import pytest

import speedups
from companion import create_app

speedups.install()     # what every test's app costs, paid once per process (tests/speedups.py)

# Every test that uses a database runs on both engines: the embedded SQLite and PostgreSQL (a throwaway
# cluster started once, tests/pgcluster.py). A test about SQLite's own file (its pragmas, its query
# plans, a read-only or full disk) is marked ``sqlite_only``.
BACKENDS = ("sqlite", "postgresql")


def _postgres_available() -> bool:
    from pgcluster import binaries

    return bool(os.environ.get("COMPANION_TEST_PG")) or binaries() is not None


# The engine matrix (issue 27: the whole suite under 12 minutes on 2 cores). Every test that uses a
# database runs on both engines, except:
# - browser tests: a page drives the same routes over the same store whichever engine is under it, and the
#   store's behaviour on both engines is what the non-browser tests check. Browser modules marked
#   ``both_engines`` (live polls across phones and servers) still run on PostgreSQL too;
# - modules marked ``one_engine``: their subject is a page's words, numbers and assets, or how a typed value
#   is read and refused, worked out above the store (the write path's refusals on both engines are
#   test_write_path.py's, test_inputs_refused.py's and test_form_keys.py's).
# COMPANION_TEST_ENGINES=all runs every one of them on both.
ALL_ENGINES = os.environ.get("COMPANION_TEST_ENGINES", "") == "all"


# The order the two xdist workers take the tests in (``--dist worksteal``, pyproject.toml): each starts on
# its half and an idle one takes half of what the other has left, from its end. The longest tests go first
# so that the last test a worker runs is a short one: the wall time is then the CPU time over two cores, not
# a container build that starts when the other worker has finished. A stable sort: within a rank the
# order pytest chose stays (a session fixture's parameters, e.g. the live server's engine, stay grouped).
SLOW_FIRST = (
    "tests/test_container.py",          # builds an image and runs it twice (podman)
    "tests/browser/",                    # Chromium; a module's session built through the UI once
    "tests/test_faults.py",              # servers killed and restarted
    "tests/test_serve.py",               # real servers, deadlines of a slow client
    "tests/web/test_behind_proxy.py",    # nginx in front of the app
    "tests/test_postgres.py",            # cluster restarts
)


def _rank(item) -> int:
    return next((rank for rank, prefix in enumerate(SLOW_FIRST) if item.nodeid.startswith(prefix)), len(SLOW_FIRST))


def pytest_collection_modifyitems(config, items):
    available = _postgres_available()
    keep, dropped = [], []
    for item in items:
        params = item.callspec.params if getattr(item, "callspec", None) is not None else {}
        on_pg = params.get("backend") == "postgresql" or params.get("live_backend") == "postgresql"
        if on_pg or "pg_cluster" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.postgres)
        browser_pg_left_out = (params.get("live_backend") == "postgresql" and not ALL_ENGINES
                               and not item.get_closest_marker("both_engines"))
        page_pg_left_out = not ALL_ENGINES and item.get_closest_marker("one_engine") is not None
        if on_pg and (not available or item.get_closest_marker("sqlite_only") or browser_pg_left_out
                      or page_pg_left_out):
            dropped.append(item)
        else:
            keep.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep
    if not available:
        config._companion_no_pg = len(dropped)


class _SlowFirst:
    @pytest.hookimpl(trylast=True)    # after pytest's own reordering by fixture and the -m selection
    def pytest_collection_modifyitems(self, items):
        items.sort(key=_rank)


def pytest_configure(config):
    config.pluginmanager.register(_SlowFirst(), "companion-slow-first")


def pytest_terminal_summary(terminalreporter, config):
    missing = getattr(config, "_companion_no_pg", None)
    if missing:
        terminalreporter.write_line(f"PostgreSQL is not installed: {missing} runs on PostgreSQL were left out "
                                    "(Debian: apt-get install postgresql; .ci/run installs it)", yellow=True)


@pytest.fixture(scope="session")
def pg_cluster():
    from pgcluster import Cluster

    cluster = Cluster()
    yield cluster
    cluster.stop()


@pytest.fixture(params=BACKENDS)
def backend(request):
    return request.param


@pytest.fixture
def new_database(backend, tmp_path, request):
    """``new_database(name)``: a fresh, empty database on this test's engine (a file in ``tmp_path``, or a
    schema of its own on the test cluster, dropped afterwards)."""
    made = []
    cluster = request.getfixturevalue("pg_cluster") if backend == "postgresql" else None

    def make(name: str = "test.db") -> str:
        if cluster is None:
            return str(tmp_path / name)
        url = cluster.new_schema()
        made.append(url)
        return url

    yield make
    for url in made:
        cluster.drop(url)


@pytest.fixture
def database(new_database):
    return new_database()


@pytest.fixture
def app(database):
    app = create_app({"TESTING": True, "DATABASE": database, "BASE_URL": "http://table.example:8000"})
    yield app
    from companion import registry

    registry.of(app).close()      # its pools, its listener, its idle connections (per app: nothing shared)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


from helpers import csrf, form_fields, new_session, start_session  # noqa: F401  (import from helpers)
