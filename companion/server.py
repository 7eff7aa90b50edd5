"""Serving the app on every core: gunicorn's threaded workers (one process per core), or waitress in one
process where gunicorn cannot run (Windows) or when asked (``--server waitress``).

Why gunicorn: a club night keeps one connection open per phone (a poll every 2 s), so the server must hold
thousands of idle keep-alive connections cheaply (its ``gthread`` worker parks them in epoll and hands
only readable ones to a thread) and must use every core: Python runs one thread at a time per process, so
one process is one core whatever its thread count. gunicorn's arbiter forks the workers, shares the
listening socket between them and replaces a worker that dies; we add no process management of our own.
Waitress has no multi-process mode.

Everything a worker keeps is either read from the database per request (the live version, the rate
limits' counters) or keyed by a version the database gave (the state and render caches), so a write
through one worker is seen by all of them at their next request.
"""
from __future__ import annotations

import logging
import os
import sys

CONNECTIONS = 10_000          # per worker: far above what the cores can serve (a phone is one connection)
KEEPALIVE = 30                # seconds an idle connection is kept: longer than any page's poll interval


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
          behind_proxy: str | None = None) -> None:
    """Run until stopped. ``server``: "gunicorn", "waitress" or "auto" (gunicorn where it runs)."""
    raise_open_files()
    if server == "auto":
        server = "gunicorn" if gunicorn_available() else "waitress"
    if server == "gunicorn":
        run_gunicorn(app, host=host, port=port, threads=threads, workers=workers)
    else:
        run_waitress(app, host=host, port=port, threads=threads, behind_proxy=behind_proxy)


def gunicorn_options(host: str, port: int, threads: int, workers: int) -> dict:
    bind = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return {
        "bind": [bind],
        "workers": workers,
        "worker_class": "gthread",
        "threads": threads,
        "worker_connections": CONNECTIONS,
        "keepalive": KEEPALIVE,
        "backlog": 4096,
        # the app (and the database migration) is made once, before the workers are forked
        "preload_app": True,
        # gunicorn itself trusts no peer's X-Forwarded-*: with --behind-proxy the app (companion.proxy.wrap)
        # drops them unless they come from the trusted proxy's address, then takes exactly one hop
        "forwarded_allow_ips": "",
        "proc_name": "companion",
        "accesslog": None,
        "errorlog": "-",
        "loglevel": "warning",
        "graceful_timeout": 10,
        "control_socket_disable": True,
    }


def run_gunicorn(app, *, host: str, port: int, threads: int, workers: int) -> None:
    from gunicorn.app.base import BaseApplication

    from .logredact import install

    options = gunicorn_options(host, port, threads, workers)

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


def run_waitress(app, *, host: str, port: int, threads: int, behind_proxy: str | None = None) -> None:
    """One process (Windows, or ``--server waitress``): poll() instead of select() (no 1,024-descriptor
    ceiling) and a connection limit far above what one core serves (waitress's default is 100)."""
    from waitress import serve as waitress_serve

    from .proxy import proxy_settings

    waitress_serve(app, host=host, port=port, threads=threads, ident="companion",
                   connection_limit=CONNECTIONS, asyncore_use_poll=True, **proxy_settings(behind_proxy))
