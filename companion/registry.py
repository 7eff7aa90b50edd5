"""What the app keeps between requests (caches, connection pools, the live versions' listener, the shared
file), in the app's own registry (``app.extensions``) rather than in module globals: two apps in one
process (the tests, a copy) never share them, each is safe for the threads of a worker process, and each
is bounded. ``tests/test_registry.py`` fails on a new module-level cache anywhere in ``companion/``.

Whatever holds a connection or a thread (a PostgreSQL pool, the listener) is kept per process too: a
worker forked after the app was made opens its own (a pool's connections and a thread do not survive a
fork). ``close`` lets them go (a test's app, an app made for one command)."""
from __future__ import annotations

import os
import queue
import threading
from collections import OrderedDict

NAME = "companion"
SESSIONS = 64          # whole sessions kept (per version): every phone that asks for export or state
TABLE_STATES = 1024    # club tables' state entries (per position of each game): 400 tables and their last rounds
SALA_PIECES = 2048     # a sala's table pieces (per state and language): 400 tables in a few languages
CLUB_VERSIONS = 256    # a club night's standings, proposals, tournament pages (per version of the session)


class LRU:
    """A bounded least-recently-used map, one lock around each step (a lookup that moves the entry to the
    end is one step: another thread evicting it between the two cannot raise KeyError)."""

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key, default=None):
        with self._lock:
            value = self._items.get(key, default)
            if key in self._items:
                self._items.move_to_end(key)
            return value

    def put(self, key, value) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)


class Registry:
    def __init__(self):
        self.sessions = LRU(SESSIONS)
        self.table_states = LRU(TABLE_STATES)       # web/club.py: table_state
        self.sala_pieces = LRU(SALA_PIECES)         # web/club.py: sala_piece
        self.club_versions = LRU(CLUB_VERSIONS)     # web/club.py: by_version
        self._pools: dict[str, queue.SimpleQueue] = {}
        # (what, process, database) -> a PostgreSQL pool, the live versions, the shared file: one per
        # database the app opens (its own), in this process and at most its parent
        self._held: dict[tuple[str, int, str], object] = {}
        self._lock = threading.RLock()      # re-entered: the live versions are made with their pool

    def sqlite_pool(self, path: str) -> queue.SimpleQueue:
        """Idle SQLite connections to ``path`` (a SimpleQueue: safe between threads; as many as the
        threads that used one at once, no more)."""
        found = self._pools.get(path)
        if found is None:
            with self._lock:
                found = self._pools.setdefault(path, queue.SimpleQueue())
        return found

    def drop_pools(self) -> None:
        """Forget the idle connections (the next request opens new ones: a test that changed the file)."""
        with self._lock:
            pools, self._pools = list(self._pools.values()), {}
        for pool in pools:
            _close_idle(pool)

    def _kept(self, what: str, database: str, make):
        key = (what, os.getpid(), database)
        found = self._held.get(key)
        if found is None:
            with self._lock:
                found = self._held.get(key)
                if found is None:
                    found = self._held[key] = make(database)
        return found

    # -- PostgreSQL ----------------------------------------------------------------------------------

    def pg_pool(self, url: str):
        """This process's pool for ``url``."""
        from companion.storage import postgres

        return self._kept("pool", url, postgres.make_pool)

    def borrow(self, url: str):
        """A request's PostgreSQL connection; its commits reach this process's live versions at once."""
        from companion.storage import postgres

        return postgres.borrow(self.pg_pool(url), url, lambda written: self._committed(url, written))

    def versions(self, url: str):
        """This process's live versions of ``url`` (its listener starts on first use)."""
        from companion.storage import live

        return self._kept("versions", url, lambda u: live.Versions(u, self.pg_pool(u)))

    def _committed(self, url: str, written: list) -> None:
        cache = self._held.get(("versions", os.getpid(), url))
        if cache is not None:
            cache.committed(written)

    # -- the file every worker shares ----------------------------------------------------------------

    def shared_file(self, database: str):
        """The shared file of ``database`` (the rate limits' counters, the poll's renders)."""
        from companion.storage import shared

        return self._kept("shared", shared.path_for(database), shared.SharedFile)

    def close(self) -> None:
        """Let go of what this process holds: pools closed, the listener stopped, idle connections
        closed. The app still works afterwards (what it needs is made again on use)."""
        with self._lock:
            held, self._held = self._held, {}
        pid = os.getpid()
        for (what, owner, _database), thing in held.items():
            if owner != pid:
                continue            # a parent's: its connections are the parent's to close
            if what == "versions":
                thing.close()
            elif what == "pool":
                thing.close()
        self.drop_pools()


def _close_idle(pool: queue.SimpleQueue) -> None:
    while True:
        try:
            pool.get_nowait().close()
        except queue.Empty:
            return


def of(app) -> Registry:
    """The app's registry (made on first use)."""
    found = app.extensions.get(NAME)
    if found is None:
        found = app.extensions.setdefault(NAME, Registry())
    return found
