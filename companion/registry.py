"""What the app keeps between requests (caches, connection pools), in the app's own registry
(``app.extensions``) rather than in module globals: two apps in one process (the tests, a copy) never
share them, and each is safe for the threads of a worker process and bounded."""
from __future__ import annotations

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
        self._lock = threading.Lock()

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
            self._pools.clear()


def of(app) -> Registry:
    """The app's registry (made on first use)."""
    found = app.extensions.get(NAME)
    if found is None:
        found = app.extensions.setdefault(NAME, Registry())
    return found
