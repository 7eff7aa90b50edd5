"""The live poll, answered before Flask whenever it can be.

Every phone watching a game asks every 2 s whether anything changed (``GET <page>?since=<version>`` with
``HX-Request: true``). This WSGI middleware looks the link's version up (one indexed read) and:

- unchanged: answers at once, before Flask verifies the signed cookie or runs any hook. "Unchanged" is a
  200 with an empty body and ``HX-Reswap: none`` (htmx keeps what it shows), not a 204: some servers
  close the connection after a 204, and a phone would open a new one for each poll;
- changed, through a Watch link: answers with the live region rendered once per (page, version,
  language) and compressed once, shared by every watcher in every worker process (``Renders``). A
  watch-only region carries nothing of the reader but the language (no form, no CSRF token); a region
  that sets a cookie is never shared;
- anything else (a scoring link's region carries its reader's CSRF token and fresh form keys; an
  unknown token; another route) goes on to Flask.

The version is read from the database on every poll, so a write through any worker (or any server on
the same database) is seen by the next poll. `FastPoll.lookup` is the one read of the archive outside the
store (the rest of the SQL here is the shared file's, companion.storage.shared).
"""
from __future__ import annotations

import gzip
import json
import random
import re
import secrets
import sqlite3
import threading
import time
from collections import OrderedDict
from urllib.parse import parse_qsl, urlencode

from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header, parse_cookie

from companion.storage import engine
from companion.web import faults
from companion.domain import numbers
from companion.kinds import glossary
from companion.web.security import CAPABILITY_HEADERS, SECURITY_HEADERS
from companion.storage import reads

try:
    import brotli
except ImportError:             # gzip alone is enough
    brotli = None

HEADERS = [("Content-Length", "0"), ("HX-Reswap", "none"), ("Vary", "HX-Request"), *SECURITY_HEADERS,
           *CAPABILITY_HEADERS]
MAX_TOKEN = 64
LANGUAGES = ("en", "es", "ja")      # as web/i18n.py chooses: its cookie, else Accept-Language
LANG_COOKIE = "lang"
VOCAB_COOKIE = "vocab"               # as web/i18n.py: the Japanese reader's vocabulary
WAIT = 2.0                          # how long a poll waits for another worker's render of the same version
STALE_CLAIM = 3.0                   # a claim older than this was abandoned (its worker died)
FORGET = 3600.0                     # a region rendered this long ago is dropped from the shared file
VERSION_IN_BODY = re.compile(rb'data-version="(\d+)"')


class FastPoll:
    def __init__(self, app, database: str, renders: "Renders | None" = None, held=None):
        self.app = app
        self.database = database
        self.renders = renders
        self.held = held                    # the app's registry: its pool and live versions
        self.local = threading.local()

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self.local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.database, timeout=10, isolation_level=None, check_same_thread=False)
            self.local.conn = conn
        return conn

    def _read(self, fn):
        """``fn(connection)``: this thread's SQLite connection, or one borrowed from the PostgreSQL pool
        for the length of the read (a poll holds no connection between polls)."""
        if engine.is_url(self.database):
            db = self.held.borrow(self.database)
            try:
                return fn(db)
            finally:
                db.close()
        return fn(self._conn())

    def lookup(self, token: str) -> tuple[int, bool] | None:
        """(version, whether the token is the Watch link) of a session's link, or None."""
        if engine.is_url(self.database):     # told of every write: most polls read nothing (storage.live)
            row = self.held.versions(self.database).lookup(token)
        else:
            row = reads.link_version(self._conn(), token)
        if row is None:
            return None
        return row[0], secrets.compare_digest(row[1].encode(), token.encode())

    def __call__(self, environ, start_response):
        if (environ.get("REQUEST_METHOD") == "GET" and environ.get("HTTP_HX_REQUEST") == "true"
                and "since=" in environ.get("QUERY_STRING", "")):
            path = environ.get("PATH_INFO", "")
            if path.startswith("/s/"):
                token = path[3:].split("/", 1)[0]
                query = parse_qsl(environ["QUERY_STRING"])
                since = dict(query).get("since", "")
                if 0 < len(token) <= MAX_TOKEN and numbers.is_ascii_int(since) and len(since) <= numbers.MAX_DIGITS:
                    try:
                        found = self.lookup(token)
                    except Exception as err:        # the database: Flask answers with its fault page
                        if faults.kind_of(err) is None:
                            raise
                        return self.app(environ, start_response)
                    if found is None:     # a club table's scoring link: its own table's changes only
                        from companion.web.club_links import poll_unchanged

                        rest = path[3 + len(token):]
                        try:
                            unchanged = self._read(lambda conn: poll_unchanged(conn, token, int(since), rest))
                        except Exception as err:    # the database lost: Flask answers with its fault page
                            if faults.kind_of(err) is None:
                                raise
                            unchanged = False
                        if unchanged:
                            start_response("200 OK", list(HEADERS))
                            return []
                    else:
                        version, watching = found
                        if str(version) == since:
                            start_response("200 OK", list(HEADERS))
                            return []
                        if watching and self.renders is not None:
                            return self.renders.respond(self.app, environ, start_response, version, query)
        return self.app(environ, start_response)


PRIVATE = "companion.private"      # set in the environ when a render read the reader's cookie session


def install(app) -> None:
    """Put the poll in front of the app, and mark a response that used anything of its reader (a CSRF
    token, a form key, anything in the signed cookie session) as not to be shared."""
    from flask import globals as flask_globals, request

    from companion import registry

    def marking(fn):
        def marked(*args, **kwargs):
            request.environ[PRIVATE] = True
            return fn(*args, **kwargs)
        return marked

    for name in ("csrf_token", "form_key"):
        app.jinja_env.globals[name] = marking(app.jinja_env.globals[name])

    @app.after_request
    def _mark_private(response):
        # the request context's own session, read without the ``session`` proxy (which would mark it read)
        ctx = flask_globals._cv_request.get(None)
        opened = getattr(ctx, "_session", None)
        if opened is not None and getattr(opened, "accessed", False):
            request.environ[PRIVATE] = True
        return response

    held = registry.of(app)
    app.wsgi_app = FastPoll(app.wsgi_app, app.config["DATABASE"], Renders(held.shared_file(app.config["DATABASE"])),
                            held)


def language_of(environ) -> str:
    """The reader's language as web/i18n.select_language chooses it (tests/web/test_poll_shared.py holds
    the two to the same answers)."""
    cookies = parse_cookie(environ.get("HTTP_COOKIE", ""))
    chosen = cookies.get(LANG_COOKIE)
    if chosen not in LANGUAGES:
        accept = parse_accept_header(environ.get("HTTP_ACCEPT_LANGUAGE"), LanguageAccept)
        chosen = accept.best_match(list(LANGUAGES), default="en") or "en"
    # Japanese has two vocabularies (web/i18n.vocabulary): each is its own render
    vocab = cookies.get(VOCAB_COOKIE)
    if chosen == "ja" and vocab in glossary.VOCABULARIES and vocab != glossary.VOCABULARIES[0]:
        return f"{chosen}-{vocab}"
    return chosen


class Rendered:
    __slots__ = ("status", "headers", "gz", "br")

    def __init__(self, status: str, headers: list, gz: bytes, br: bytes | None):
        self.status, self.headers, self.gz, self.br = status, headers, gz, br

    def send(self, environ, start_response):
        accept = environ.get("HTTP_ACCEPT_ENCODING", "")
        if self.br is not None and "br" in accept:
            body, encoding = self.br, "br"
        elif "gzip" in accept:
            body, encoding = self.gz, "gzip"
        else:
            body, encoding = gzip.decompress(self.gz), None
        headers = list(self.headers)
        if encoding:
            headers.append(("Content-Encoding", encoding))
        headers.append(("Content-Length", str(len(body))))
        start_response(self.status, headers)
        return [body]


class Renders:
    """Live regions rendered once per version and shared through the shared file (companion.storage.shared):
    the first poll that misses claims the render (an insert that only one worker wins), renders through
    Flask and stores the compressed bytes; a poll of the same version meanwhile, in any worker, waits
    for them. Each process keeps the newest ones in memory too (a version's bytes never change)."""

    def __init__(self, shared_file, memory: int = 512):
        self.file = shared_file
        self.memory: OrderedDict[str, Rendered] = OrderedDict()
        self.size = memory
        self.lock = threading.Lock()
        self.rendered = 0           # renders this process made (read by the tests)

    # -- the bytes of one version ------------------------------------------------------------------
    def _remember(self, key: str, hit: Rendered) -> Rendered:
        with self.lock:
            self.memory[key] = hit
            self.memory.move_to_end(key)
            while len(self.memory) > self.size:
                self.memory.popitem(last=False)
        return hit

    def get(self, key: str) -> Rendered | None:
        hit = self.memory.get(key)
        if hit is not None:
            return hit
        row = self.file.conn().execute("SELECT status, headers, gz, br FROM renders WHERE key = ? AND gz IS NOT NULL",
                                       [key]).fetchone()
        if row is None:
            return None
        return self._remember(key, Rendered(row[0], [tuple(h) for h in json.loads(row[1])], row[2], row[3]))

    def _claim(self, key: str, base: str) -> bool:
        conn = self.file.conn()
        now = time.time()
        if conn.execute("INSERT OR IGNORE INTO renders(key, base, claimed) VALUES (?, ?, ?)",
                        [key, base, now]).rowcount == 1:
            return True
        return conn.execute("UPDATE renders SET claimed = ? WHERE key = ? AND gz IS NULL AND claimed < ?",
                            [now, key, now - STALE_CLAIM]).rowcount == 1

    def _store(self, key: str, base: str, hit: Rendered) -> None:
        conn = self.file.conn()
        conn.execute("UPDATE renders SET status = ?, headers = ?, gz = ?, br = ? WHERE key = ?",
                     [hit.status, json.dumps(hit.headers), hit.gz, hit.br, key])
        # a region's older versions are asked for no more (a poll reads the newest version first), and a
        # region nobody asked for in an hour goes now and then
        now = time.time()
        conn.execute("DELETE FROM renders WHERE base = ? AND key != ? AND claimed < ?", [base, key, now - WAIT])
        if random.random() < 0.01:
            conn.execute("DELETE FROM renders WHERE claimed < ?", [now - FORGET])

    def _release(self, key: str) -> None:
        self.file.conn().execute("DELETE FROM renders WHERE key = ? AND gz IS NULL", [key])

    # -- a poll ------------------------------------------------------------------------------------
    def respond(self, app, environ, start_response, version: int, query: list):
        rest = urlencode(sorted((k, v) for k, v in query if k != "since"))
        base = f"{environ.get('PATH_INFO', '')}?{rest}|{language_of(environ)}"
        key = f"{base}|{version}"
        hit = self.get(key)
        if hit is None:
            if self._claim(key, base):
                return self._render(app, environ, start_response, key, base, version)
            deadline = time.monotonic() + WAIT
            while hit is None and time.monotonic() < deadline:
                time.sleep(0.005)
                hit = self.get(key)
            if hit is None:             # the claiming worker is slow or gone: render for this poll alone
                return app(environ, start_response)
        return hit.send(environ, start_response)

    def _render(self, app, environ, start_response, key: str, base: str, version: int):
        captured = {}

        def capture(status, headers, exc_info=None):
            captured["status"], captured["headers"] = status, headers
            return lambda data: captured.setdefault("written", []).append(data)

        plain_environ = dict(environ)
        plain_environ.pop("HTTP_ACCEPT_ENCODING", None)     # the app answers uncompressed; we compress once
        try:
            result = app(plain_environ, capture)
            try:
                body = b"".join([*captured.get("written", []), *result])
            finally:
                if hasattr(result, "close"):
                    result.close()
        except BaseException:
            self._release(key)
            raise
        status, headers = captured["status"], captured["headers"]
        names = {name.lower() for name, _ in headers}
        rendered_version = VERSION_IN_BODY.search(body[:4096])
        if (not status.startswith("200") or plain_environ.get(PRIVATE) or "set-cookie" in names
                or "content-encoding" in names
                or rendered_version is None or int(rendered_version.group(1)) != version):
            # not a region every watcher may share (or a write landed meanwhile): this poll's answer only
            self._release(key)
            start_response(status, headers)
            return [body]
        kept = [(n, v) for n, v in headers if n.lower() not in ("content-length", "vary")]
        vary = ", ".join(v for n, v in headers if n.lower() == "vary")
        kept.append(("Vary", f"{vary}, Accept-Encoding" if vary else "Accept-Encoding"))
        hit = Rendered(status, kept, gzip.compress(body, compresslevel=6, mtime=0),
                       brotli.compress(body, quality=5) if brotli else None)
        self.rendered += 1
        try:
            self._store(key, base, hit)
        except sqlite3.Error:
            self._release(key)
        self._remember(key, hit)
        return hit.send(environ, start_response)
