"""The rate limits' counters in the shared file (companion.storage.shared), so that a wrong guess counts once
whichever worker process answers it: with N workers and counters in each process's memory, a guesser
would get N times the allowance.

A ``limits`` storage (fixed windows, the strategy the app uses), registered as ``companion-shared://``
followed by the database it belongs to. Each counter is one upsert; reading one is one indexed lookup.
"""
from __future__ import annotations

import random
import sqlite3
import time

from limits.storage import Storage

from companion.storage import shared

SCHEME = "companion-shared"


def uri(database: str) -> str:
    return f"{SCHEME}://{database}"


class SharedStorage(Storage):
    STORAGE_SCHEME = [SCHEME]

    def __init__(self, uri: str, wrap_exceptions: bool = False, shared_file=None, **options):
        """``shared_file``: the app's (``registry.shared_file``); without one, this storage's own."""
        super().__init__(uri, wrap_exceptions, **options)
        self.file = shared_file or shared.SharedFile(shared.path_for(uri.split("://", 1)[1]))

    @property
    def base_exceptions(self):
        return sqlite3.Error

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        conn = self.file.conn()
        if random.random() < 0.01:      # expired windows go now and then
            conn.execute("DELETE FROM limits WHERE expires <= ?", [now])
        row = conn.execute(
            "INSERT INTO limits(key, hits, expires) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET"
            " hits = CASE WHEN expires <= ? THEN excluded.hits ELSE hits + excluded.hits END,"
            " expires = CASE WHEN expires <= ? THEN excluded.expires ELSE expires END RETURNING hits",
            [key, amount, now + expiry, now, now]).fetchone()
        return row[0]

    def get(self, key: str) -> int:
        row = self.file.conn().execute("SELECT hits FROM limits WHERE key = ? AND expires > ?",
                                       [key, time.time()]).fetchone()
        return row[0] if row else 0

    def get_expiry(self, key: str) -> float:
        row = self.file.conn().execute("SELECT expires FROM limits WHERE key = ? AND expires > ?",
                                       [key, time.time()]).fetchone()
        return row[0] if row else time.time()

    def check(self) -> bool:
        try:
            self.file.conn().execute("SELECT 1").fetchone()
            return True
        except sqlite3.Error:
            return False

    def reset(self) -> int | None:
        return self.file.conn().execute("DELETE FROM limits").rowcount

    def clear(self, key: str) -> None:
        self.file.conn().execute("DELETE FROM limits WHERE key = ?", [key])
