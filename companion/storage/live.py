"""The live versions on PostgreSQL without a read per poll: each worker process keeps the version of the
sessions its phones watch, told of every write by PostgreSQL (``LISTEN``/``NOTIFY``). The app's registry
(``companion.registry``) keeps one per process and database and tells it of the process's own commits.

Three phones in four ask "anything new?" and hear "no"; on SQLite that is a read of a page already in
memory, on PostgreSQL a round trip to the database server and a backend's time. Here a trigger on
``sessions`` (migration ``p002``) notifies ``<session id> <version>`` when a session's version or its
scoring link changes, delivered at commit, in commit order, to every server. One listening connection per
worker process keeps ``versions`` up to date; a poll answers from it and reads the database only for a
link it has not seen yet.

Never stale, only slower: the cache is trusted only while its listening connection is known alive (it
checks itself every ``HEARTBEAT`` seconds; a cache not confirmed for ``STALE`` seconds is not used). When
the connection drops, everything cached is forgotten and polls read the database until it listens again.
A version read from the database is merged with ``max`` (versions only grow), so a notification that
overtakes the read is never lost. A replaced scoring link drops the session's links (the old one must not
answer even "unchanged").
"""
from __future__ import annotations

import threading
import time

import psycopg

from companion.storage import postgres

CHANNEL = "companion_versions"
HEARTBEAT = 2.0        # seconds between the listener's own checks of its connection
STALE = 6.0            # a cache not confirmed alive for this long is not trusted
MAX_LINKS = 100_000    # links remembered per process (forgotten all at once beyond it)


class Versions:
    def __init__(self, url: str, pool):
        self.url, self.pool = url, pool                  # the pool the cache-missing reads borrow from
        self.stopped = threading.Event()                 # ``close``: the listener ends within HEARTBEAT
        self.links: dict[str, tuple[int, str]] = {}      # token -> (session id, view token)
        self.versions: dict[int, int] = {}               # session id -> version
        self.lock = threading.Lock()
        self.alive_at = 0.0                              # monotonic time the listener last confirmed
        self.generation = 0                              # bumped whenever the cache is forgotten
        self.thread = threading.Thread(target=self._listen, name="companion-versions", daemon=True)
        self.thread.start()

    # -- the poll's side ----------------------------------------------------------------------------

    def lookup(self, token: str) -> tuple[int, str] | None:
        """(version, view token) of a link, or None: from the cache when it is trusted, else read."""
        with self.lock:
            trusted = time.monotonic() - self.alive_at < STALE
            known = self.links.get(token) if trusted else None
            if known is not None and known[0] in self.versions:
                return self.versions[known[0]], known[1]
            generation = self.generation
        row = postgres.version_of_link(self.pool, token)
        if row is None:
            return None
        version, view, session_id = row
        with self.lock:
            if trusted and generation == self.generation:    # nothing forgotten since the read began
                if len(self.links) >= MAX_LINKS:
                    self.links.clear()
                self.links[token] = (session_id, view)
                self.versions[session_id] = max(self.versions.get(session_id, 0), version)
        return version, view

    # -- the listener --------------------------------------------------------------------------------

    def _forget(self) -> None:
        with self.lock:
            self.links.clear()
            self.versions.clear()
            self.generation += 1
            self.alive_at = 0.0

    def _told(self, payload: str) -> None:
        parts = payload.split()
        self.tell(int(parts[0]), int(parts[1]), link=len(parts) > 2)

    def tell(self, session_id: int, version: int | None, link: bool = False) -> None:
        """A session's new version (a write), or its replaced scoring link (``version`` None or ``link``)."""
        with self.lock:
            if link or version is None:    # the scoring link was replaced: its old token opens nothing
                for token in [t for t, (sid, _view) in self.links.items() if sid == session_id]:
                    del self.links[token]
                self.versions.pop(session_id, None)
                return
            if session_id in self.versions:
                self.versions[session_id] = max(self.versions[session_id], version)

    def committed(self, written: list[tuple[int, int | None]]) -> None:
        """This process's own writes, known at commit (its next poll must not wait for the notification
        to come back)."""
        for session_id, version in written:
            self.tell(session_id, version)

    def close(self) -> None:
        """Stop listening (the app is done with it: its listening connection closes within HEARTBEAT)."""
        self.stopped.set()
        self._forget()

    def _listen(self) -> None:
        while not self.stopped.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    schema = conn.execute("SELECT current_schema()").fetchone()[0]
                    conn.execute(f'LISTEN "{CHANNEL}.{schema}"')
                    self._forget()                 # whatever was cached before listening may be stale
                    while not self.stopped.is_set():
                        with self.lock:
                            self.alive_at = time.monotonic()
                        for note in conn.notifies(timeout=HEARTBEAT):
                            self._told(note.payload)
                        conn.execute("SELECT 1")   # a dead connection fails here, not silently
            except Exception:                      # noqa: BLE001 - any failure: forget, wait, listen again
                self._forget()
                self.stopped.wait(1.0)
        self._forget()
