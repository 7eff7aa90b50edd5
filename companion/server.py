"""Serving the app on every core: gunicorn's arbiter with one worker process per core, each worker reading
requests with waitress's event loop (``BufferingWorker``); or waitress alone in one process where gunicorn
cannot run (Windows) or when asked (``--server waitress``).

Why gunicorn: a club night keeps one connection open per phone (a poll every 2 s), so the server must hold
thousands of idle keep-alive connections cheaply and must use every core: Python runs one thread at a time
per process, so one process is one core whatever its thread count. gunicorn's arbiter forks the workers,
shares the listening socket between them and replaces a worker that dies; we add no process management of
our own. Waitress has no multi-process mode.

Why waitress inside each worker, not gunicorn's ``gthread``: a gthread thread reads the request itself, so
a client that sends its header or body a byte at a time holds a thread (16 such sockets stopped 2 workers x
8 threads; issue 30). Waitress's loop (poll(), no 1,024-descriptor ceiling) reads every request whole,
header and body (a large body spooled to a temporary file), before a thread sees it, and buffers the
answer so a client that reads slowly holds no thread either. A slow client costs a socket, not a thread;
``Deadlines`` closes a request that does not arrive in time and a connection left idle, so sockets come
back too. A reverse proxy in front (nginx) is still the setup for the internet (README).

Everything a worker keeps is either read from the database per request (the live version, the rate
limits' counters) or keyed by a version the database gave (the state and render caches), so a write
through one worker is seen by all of them at their next request.
"""
from __future__ import annotations

import logging
import os
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
          behind_proxy: str | None = None, worker: str = "buffering") -> None:
    """Run until stopped. ``server``: "gunicorn", "waitress" or "auto" (gunicorn where it runs); ``worker``
    (gunicorn): "buffering" (``BufferingWorker``) or "gthread" (gunicorn's own: only behind a proxy that
    buffers requests, as nginx does)."""
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
    from .proxy import proxy_settings

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
        # gunicorn itself trusts no peer's X-Forwarded-*: with --behind-proxy, waitress in the worker and the
        # app (companion.proxy.wrap) take them from the trusted proxy's address only, exactly one hop
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


def run_gunicorn(app, *, host: str, port: int, threads: int, workers: int, behind_proxy: str | None = None,
                 worker: str = "buffering") -> None:
    from gunicorn.app.base import BaseApplication

    from .logredact import install

    options = {**gunicorn_options(host, port, threads, workers),
               "worker_class": "gthread" if worker == "gthread" else buffering_worker(behind_proxy)}

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
