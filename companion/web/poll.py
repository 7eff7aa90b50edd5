"""The unchanged live poll, answered before Flask.

Every phone watching a game asks every 2 s whether anything changed (``GET <page>?since=<version>`` with
``HX-Request: true``). When nothing did, this WSGI middleware answers after one indexed lookup, before
Flask verifies the signed cookie or runs any hook: the poll costs about what a bare WSGI app costs.
Anything else (a changed version, an unknown token, another route) goes on to Flask.

"Unchanged" is a 200 with an empty body and ``HX-Reswap: none`` (htmx keeps what it shows), not a 204:
waitress closes the connection after every 204, and a phone would open a new one for each poll.
"""
from __future__ import annotations

import sqlite3
import threading
from urllib.parse import parse_qsl

from ..security import CAPABILITY_HEADERS, SECURITY_HEADERS

HEADERS = [("Content-Length", "0"), ("HX-Reswap", "none"), ("Vary", "HX-Request"), *SECURITY_HEADERS,
           *CAPABILITY_HEADERS]
MAX_TOKEN = 64


class FastPoll:
    def __init__(self, app, database: str):
        self.app = app
        self.database = database
        self.local = threading.local()

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self.local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.database, timeout=10, isolation_level=None, check_same_thread=False)
            self.local.conn = conn
        return conn

    def __call__(self, environ, start_response):
        if (environ.get("REQUEST_METHOD") == "GET" and environ.get("HTTP_HX_REQUEST") == "true"
                and "since=" in environ.get("QUERY_STRING", "")):
            path = environ.get("PATH_INFO", "")
            if path.startswith("/s/"):
                token = path[3:].split("/", 1)[0]
                since = dict(parse_qsl(environ["QUERY_STRING"])).get("since", "")
                if 0 < len(token) <= MAX_TOKEN and since.isdigit():
                    row = self._conn().execute(
                        "SELECT version FROM sessions WHERE edit_token = ? OR view_token = ?", (token, token)
                    ).fetchone()
                    if row is not None and str(row[0]) == since:
                        start_response("200 OK", list(HEADERS))
                        return []
        return self.app(environ, start_response)
