"""Serving the app on every core: gunicorn's arbiter with one worker process per core, each worker reading
every request whole, with deadlines, before a thread sees it (``preread_worker``); or waitress alone in one
process where gunicorn cannot run (Windows) or when asked (``--server waitress``).

Why gunicorn: a club night keeps one connection open per phone (a poll every 2 s), so the server must hold
thousands of idle keep-alive connections cheaply and must use every core: Python runs one thread at a time
per process, so one process is one core whatever its thread count. gunicorn's arbiter forks the workers,
shares the listening socket between them and replaces a worker that dies; we add no process management of
our own. Waitress has no multi-process mode.

Why read ahead (issue 30): a thread of gunicorn's ``gthread`` worker reads the request itself, so a client
that sends its header or body a byte at a time holds a thread (16 such sockets stopped 2 workers x 8
threads), and an idle new connection held one for 5 s. ``PrereadWorker`` is gthread with one change: its
main loop (epoll) reads what each socket has without blocking until the request's header and body are in
(a body past 512 KB spooled to a temporary file), then gives the whole request to a thread; a slow client
costs a socket and the bytes it sent. A request that does not arrive whole in time (``request_allowance``)
is closed, and an idle kept-alive connection after KEEPALIVE. Measured against the alternatives
(bench/abuse_bench.py): waitress's event loop inside each worker (``--worker waitress``) also starves
nobody but made a normal request 2.3 (a page) to 5.3 (a kept-alive /healthz) times slower (its loop polls
every connection on every turn and hands each answer back through a pipe); reading ahead left the normal
path as fast as gthread's (0.97). A
reverse proxy in front (nginx, ``deploy/``) is still the setup for the internet: TLS, and a flood of
connections, are its job.

Everything a worker keeps is either read from the database per request (the live version, the rate
limits' counters) or keyed by a version the database gave (the state and render caches), so a write
through one worker is seen by all of them at their next request.
"""
from __future__ import annotations

import logging
import os
import re
import sys
import time

CONNECTIONS = 10_000          # per worker: far above what the cores can serve (a phone is one connection)
KEEPALIVE = 30                # seconds an idle connection is kept: longer than any page's poll interval
HEADER_SECONDS = 15           # a request's header must arrive whole within this, from its first byte
BODY_SECONDS = 30             # and its body within this, plus BODY_RATE bytes a second of its length
BODY_RATE = 32 * 1024         # (an 8 MB upload: 4.5 minutes: a phone on a poor network)
MAX_BODY = 100 * 1024 * 1024  # above the app's largest upload (an archive, 96 MB): the app says "too large"
SWEEP_SECONDS = 2             # how often the deadlines are checked


def default_workers() -> int:
    """One worker per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:      # not Linux
        return max(1, os.cpu_count() or 1)


def gunicorn_available() -> bool:
    if os.name != "posix":
        return False
    try:
        import gunicorn  # noqa: F401
    except ImportError:
        return False
    return True


def raise_open_files(wanted: int = 65_536) -> int:
    """Each phone holds a socket: lift the soft limit on open files toward the hard one (often 1,024
    soft). Returns the soft limit in force."""
    try:
        import resource
    except ImportError:         # Windows: no such limit to raise
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft


def serve(app, *, host: str, port: int, threads: int, workers: int, server: str = "auto",
          behind_proxy: str | None = None, worker: str = "preread") -> None:
    """Run until stopped. ``server``: "gunicorn", "waitress" or "auto" (gunicorn where it runs); ``worker``
    (gunicorn): "preread" (``preread_worker``), "waitress" (``buffering_worker``) or "gthread" (gunicorn's
    own: only behind a proxy that buffers requests, as nginx does)."""
    raise_open_files()
    if server == "auto":
        server = "gunicorn" if gunicorn_available() else "waitress"
    if server == "gunicorn":
        run_gunicorn(app, host=host, port=port, threads=threads, workers=workers, behind_proxy=behind_proxy,
                     worker=worker)
    else:
        run_waitress(app, host=host, port=port, threads=threads, behind_proxy=behind_proxy)


# ---------------------------------------------------------------------------------------- waitress, with deadlines

def waitress_settings(threads: int, behind_proxy: str | None = None, connections: int = CONNECTIONS) -> dict:
    """waitress's adjustments: poll() instead of select() (no 1,024-descriptor ceiling), a connection limit
    far above what one core serves (waitress's default is 100), idle connections closed after KEEPALIVE."""
    from companion.web.proxy import proxy_settings

    return {"threads": threads, "ident": "companion", "connection_limit": connections, "asyncore_use_poll": True,
            "channel_timeout": KEEPALIVE, "cleanup_interval": SWEEP_SECONDS, "max_request_body_size": MAX_BODY,
            "backlog": 4096, **proxy_settings(behind_proxy)}


def request_allowance(request) -> float:
    """Seconds a partly received request may take, from its first byte."""
    if not request.headers_finished:
        return HEADER_SECONDS
    return HEADER_SECONDS + BODY_SECONDS + (request.content_length or 0) / BODY_RATE


def _deadline_channel():
    from waitress.channel import HTTPChannel

    class DeadlineChannel(HTTPChannel):
        """Remembers when the request being received began (its first byte)."""
        request_began = 0.0

        def received(self, data):
            if self.request is None and data:
                self.request_began = time.time()
            return super().received(data)

    return DeadlineChannel


def with_deadlines(server) -> list:
    """The listening servers of a waitress ``create_server`` result, made to close a request that does not
    arrive whole in time (``request_allowance``) as well as an idle connection (waitress's own sweep)."""
    from waitress.server import BaseWSGIServer

    channel = _deadline_channel()
    listeners = [d for d in server.map.values() if isinstance(d, BaseWSGIServer)] if hasattr(server, "map") \
        else [server]

    def sweep(listener):
        def maintenance(now):
            idle_before = now - listener.adj.channel_timeout
            for ch in list(listener.active_channels.values()):
                if ch.requests:          # a thread is answering it
                    continue
                partial = ch.request
                late = partial is not None and now - getattr(ch, "request_began", now) > request_allowance(partial)
                if late or ch.last_activity < idle_before:
                    ch.will_close = True
        return maintenance

    for listener in listeners:
        listener.channel_class = channel
        listener.maintenance = sweep(listener)
    return listeners


def run_waitress(app, *, host: str, port: int, threads: int, behind_proxy: str | None = None) -> None:
    """One process (Windows, or ``--server waitress``)."""
    from waitress.server import create_server

    server = create_server(app, host=host, port=port, **waitress_settings(threads, behind_proxy))
    with_deadlines(server)
    server.run()


# ---------------------------------------------------------------------------------------- gunicorn

def gunicorn_options(host: str, port: int, threads: int, workers: int) -> dict:
    bind = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return {
        "bind": [bind],
        "workers": workers,
        "threads": threads,
        "worker_connections": CONNECTIONS,
        "keepalive": KEEPALIVE,
        "backlog": 4096,
        # the app (and the database migration) is made once, before the workers are forked
        "preload_app": True,
        # gunicorn itself trusts no peer's X-Forwarded-*: with --behind-proxy the app (companion.web.proxy.wrap)
        # takes them from the trusted proxy's address only, exactly one hop (and waitress, --worker waitress)
        "forwarded_allow_ips": "",
        "proc_name": "companion",
        "accesslog": None,
        "errorlog": "-",
        "loglevel": "warning",
        "graceful_timeout": 10,
        "control_socket_disable": True,
    }


def buffering_worker(behind_proxy: str | None = None):
    """gunicorn's worker class: waitress's event loop on the listening sockets gunicorn shares, the
    app in ``threads`` threads. It tells the arbiter it is alive every second and stops when told."""
    from gunicorn.workers.base import Worker
    from waitress import wasyncore
    from waitress.server import create_server

    class BufferingWorker(Worker):
        def run(self):
            sockets = [s.sock for s in self.sockets]
            server = create_server(self.wsgi, map={}, sockets=sockets,
                                   **waitress_settings(self.cfg.threads, behind_proxy, self.cfg.worker_connections))
            listeners = with_deadlines(server)
            socket_map = listeners[0]._map
            while self.alive:
                self.notify()
                if os.getppid() != self.ppid:       # the arbiter is gone
                    break
                wasyncore.loop(timeout=1.0, map=socket_map, use_poll=True, count=1)
            # stop taking connections; let the requests being answered finish (graceful_timeout)
            for listener in listeners:
                listener.accepting = False
                listener.del_channel()
            end = time.monotonic() + self.cfg.graceful_timeout
            while time.monotonic() < end and any(ch.requests or ch.total_outbufs_len
                                                 for ch in list(socket_map.values()) if hasattr(ch, "requests")):
                self.notify()
                wasyncore.loop(timeout=0.5, map=socket_map, use_poll=True, count=1)
            listeners[0].task_dispatcher.shutdown(timeout=1)
            wasyncore.close_all(socket_map)

    BufferingWorker.__qualname__ = BufferingWorker.__name__ = "BufferingWorker"
    return BufferingWorker


# ------------------------------------------------------------------------------------ the pre-reading worker

HEADER_MAX = 96 * 1024        # a header not ended by then goes to gunicorn's parser, which refuses it
SPOOL_IN_MEMORY = 512 * 1024  # a request read ahead past this waits in a temporary file
THREAD_IO_SECONDS = 10        # a thread's socket reads and writes (a request read whole needs none)
_CONTENT_LENGTH = re.compile(rb"\r\ncontent-length[ \t]*:[ \t]*([0-9]{1,15})[ \t]*\r\n", re.I)
_CHUNKED = re.compile(rb"\r\ntransfer-encoding[ \t]*:[^\r\n]*chunked", re.I)
_EXPECT = re.compile(rb"\r\nexpect[ \t]*:[ \t]*100-continue", re.I)


class Preread:
    """A client's socket with the bytes already read ahead (a whole request) served first to gunicorn's
    parser; everything else is the socket's. ``setblocking(True)`` in a thread means a bounded wait."""

    def __init__(self, sock):
        self.sock = sock
        self.ahead = None               # a file of read-ahead bytes, or None
        self.ahead_only = False         # True: the socket itself is not read (an end of data instead)

    def recv(self, size, *flags):
        if self.ahead is not None:
            data = self.ahead.read(size)
            if data:
                return data
            self.ahead.close()
            self.ahead = None
        if self.ahead_only:
            return b""
        return self.sock.recv(size, *flags)

    def take_ahead(self) -> bytes:
        """The read-ahead bytes gunicorn's parser left (a pipelined request's beginning)."""
        if self.ahead is None:
            return b""
        data = self.ahead.read()
        self.ahead.close()
        self.ahead = None
        return data

    def setblocking(self, flag):
        self.sock.settimeout(THREAD_IO_SECONDS if flag else 0.0)

    def close(self):
        if self.ahead is not None:
            self.ahead.close()
            self.ahead = None
        self.sock.close()

    def __getattr__(self, name):
        return getattr(self.sock, name)


class Incoming:
    """A request being read ahead, without a thread: whole once its header is ended and its body (by
    Content-Length, or a chunked body's last chunk) has arrived."""

    def __init__(self):
        self.began = time.monotonic()
        self.head = bytearray()
        self.headers_finished = False
        self.content_length = 0
        self.chunked = False
        self.expects_continue = False
        self.body_seen = 0
        self.tail = b""                 # a chunked body's last bytes (its end is "0\r\n\r\n")
        self.spool = None

    def feed(self, data: bytes) -> None:
        import tempfile

        if self.spool is None:
            self.spool = tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY)
        self.spool.write(data)
        if self.headers_finished:
            self.body_seen += len(data)
            self.tail = (self.tail + data)[-7:]
            return
        self.head += data
        end = self.head.find(b"\r\n\r\n")
        if end < 0:
            return
        header = bytes(self.head[:end + 2])
        self.headers_finished = True
        if (m := _CONTENT_LENGTH.search(header)) is not None:
            self.content_length = int(m.group(1))
        self.chunked = _CHUNKED.search(header) is not None
        self.expects_continue = _EXPECT.search(header) is not None
        rest = bytes(self.head[end + 4:])
        self.body_seen = len(rest)
        self.tail = rest[-7:]
        self.head = bytearray()

    @property
    def whole(self) -> bool:
        if not self.headers_finished:
            return len(self.head) > HEADER_MAX          # gunicorn's parser refuses it at once
        if self.chunked:
            return self.tail.endswith(b"0\r\n\r\n")
        return self.body_seen >= self.content_length or self.content_length > MAX_BODY

    def expired(self, now: float) -> bool:
        return now - self.began > request_allowance(self)

    def read_back(self):
        self.spool.seek(0)
        spool, self.spool = self.spool, None
        return spool


def preread_worker():
    """gunicorn's gthread worker, with every request read whole before a thread sees it: the worker's
    main loop (epoll, as gthread's) reads what each socket has, without blocking, until the header and
    body are in (spooled to a temporary file past 512 KB), then hands the request to a thread, whose
    parser reads it from there. A client that sends its request slowly costs a socket and a few bytes,
    never a thread, and is closed at its deadline (``request_allowance``); an idle kept-alive connection
    after KEEPALIVE."""
    import errno
    import selectors
    from functools import partial

    from gunicorn.workers.gthread import _DEFER, TConn, ThreadWorker

    class PrereadWorker(ThreadWorker):
        def init_process(self):
            self.incoming = {}
            self.next_sweep = 0.0
            super().init_process()

        def accept(self, listener):
            try:
                client, address = listener.accept()
            except OSError as e:
                if e.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                    raise
                return
            self.nr_conns += 1
            conn = TConn(self.cfg, Preread(client), address, listener.getsockname())
            self.read_ahead(conn)

        def on_client_socket_readable(self, conn, client):
            """A kept-alive connection has a new request: read it ahead too (at once: it is there)."""
            self.keepalived_conns.remove(conn)
            self.incoming[conn] = Incoming()
            self.poller.modify(client, selectors.EVENT_READ, partial(self.on_bytes, conn))
            self.on_bytes(conn, client)

        def read_ahead(self, conn, first: bytes = b""):
            incoming = self.incoming[conn] = Incoming()
            if first:
                incoming.feed(first)
                if incoming.whole:
                    self.hand_over(conn)
                    return
            self.poller.register(conn.sock, selectors.EVENT_READ, partial(self.on_bytes, conn))
            self.on_bytes(conn, conn.sock)      # often there already: no turn of the loop lost

        def on_bytes(self, conn, _sock):
            incoming = self.incoming[conn]
            raw = conn.sock.sock
            try:
                for _ in range(64):                     # at most 4 MB a turn: others get theirs
                    data = raw.recv(65536)
                    if not data:
                        self.drop(conn)
                        return
                    continuing = incoming.headers_finished
                    incoming.feed(data)
                    if incoming.headers_finished and not continuing and incoming.expects_continue \
                            and not incoming.whole:
                        raw.send(b"HTTP/1.1 100 Continue\r\n\r\n")
                    if incoming.whole or len(data) < 65536:
                        break
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:
                self.drop(conn)
                return
            if incoming.whole:
                self.poller.unregister(conn.sock)
                self.hand_over(conn)

        def hand_over(self, conn):
            incoming = self.incoming.pop(conn)
            conn.sock.ahead = incoming.read_back()
            conn.data_ready = True
            self.enqueue_req(conn)

        def drop(self, conn):
            self.incoming.pop(conn, None)
            try:
                self.poller.unregister(conn.sock)
            except (KeyError, ValueError, OSError):
                pass
            self.nr_conns -= 1
            conn.close()

        def handle(self, conn):
            """In a thread: the request (read whole); then what the app left unread of its body (a form
            refused before it was read) is skipped, from the bytes read ahead only: a body that is not
            all there closes the connection instead."""
            result = super().handle(conn)
            mesg = getattr(conn.parser, "mesg", None)
            if result and result is not _DEFER and mesg is not None and getattr(mesg, "body", None) is not None:
                conn.sock.ahead_only = True
                try:
                    while mesg.body.read(65536):
                        pass
                except Exception:       # the body ended early: nothing more can be read on this connection
                    return False
                finally:
                    conn.sock.ahead_only = False
            return result

        def finish_request(self, conn, fs):
            # a pipelined request's beginning, read ahead or left in the parser, is read whole as well
            if not fs.cancelled() and fs.exception() is None and fs.result() and conn.parser is not None:
                left = conn.parser.unreader.take_buffered() + conn.sock.take_ahead()
                if left:
                    self.read_ahead(conn, left)
                    return
            super().finish_request(conn, fs)

        def murder_pending(self):
            super().murder_pending()
            now = time.monotonic()
            if now < self.next_sweep:
                return
            self.next_sweep = now + 1
            for conn, incoming in list(self.incoming.items()):
                if incoming.expired(now):
                    self.drop(conn)

    PrereadWorker.__qualname__ = "PrereadWorker"
    return PrereadWorker


def run_gunicorn(app, *, host: str, port: int, threads: int, workers: int, behind_proxy: str | None = None,
                 worker: str = "preread") -> None:
    from gunicorn.app.base import BaseApplication

    from companion.web.logredact import install

    classes = {"gthread": lambda: "gthread", "waitress": lambda: buffering_worker(behind_proxy),
               "preread": preread_worker}
    options = {**gunicorn_options(host, port, threads, workers), "worker_class": classes[worker]()}

    class Companion(BaseApplication):
        def load_config(self):
            for key, value in options.items():
                if key in self.cfg.settings:        # an older gunicorn lacks some settings
                    self.cfg.set(key, value)

        def load(self):
            return app

    install(logging.getLogger("gunicorn.error"), logging.getLogger("gunicorn.access"))
    sys.argv = sys.argv[:1]     # gunicorn reads no command line of ours
    Companion().run()
