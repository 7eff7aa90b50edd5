"""The command line: companion serve | import FILE | export ID | check | state FILE.

``state`` works offline on a file and imports neither Flask nor SQLite. Every database problem (a missing
folder, a read-only or full disk, a locked or damaged file) is one line and exit status 1.
"""
from __future__ import annotations

import json
import os
import secrets
import sys

import click

from companion.storage.engine import is_url

MIN_ADMIN_TOKEN = 16


def _db_option(f):
    return click.option("--db", "db_path", envvar="COMPANION_DB", default="companion.db", show_default=True,
                        help="SQLite database file, or a postgresql:// URL (env COMPANION_DB).")(f)


class _DatabaseErrors:
    """Any database or disk error inside becomes one line (``faults.database_line``) and exit status 1."""

    def __init__(self, path: str):
        self.path = path

    def __enter__(self):
        return self

    def __exit__(self, etype, err, _tb):
        import sqlite3

        from companion.web.faults import database_line, kind_of

        if err is not None and (isinstance(err, (sqlite3.Error, OSError)) or kind_of(err) is not None):
            raise click.ClickException(database_line(self.path, err)) from None
        return False


def _where(db_path: str) -> str:
    """The database as a person reads it: a file's full path, a URL without its password."""
    if is_url(db_path):
        from companion.storage.postgres import describe

        return describe(db_path)
    return os.path.abspath(db_path)


def _open_app(db_path: str, config: dict | None = None, *, write: bool = True):
    """The app on ``db_path`` (created or migrated); with ``write``, checked writable by a real write.
    Without it, the database must already exist (nothing is created by reading)."""
    from companion.web.app import create_app
    from companion.web.faults import cannot_write, database_line, probe_write

    if write:
        why = cannot_write(db_path)
        if why is not None:
            raise click.ClickException(database_line(db_path, why))
    elif not is_url(db_path) and not os.path.isfile(db_path):
        raise click.ClickException(f"no database at {os.path.abspath(db_path)}")
    with _DatabaseErrors(db_path):
        app = create_app({**(config or {}), "DATABASE": db_path})
        if write:
            probe_write(db_path)
    return app


@click.group()
def main():
    """Companion: score a card game on a phone beside a real table."""


def _admin_token(given: str | None) -> str | None:
    if not given:
        return None
    if given == "auto":
        return secrets.token_urlsafe(18)
    if len(given) < MIN_ADMIN_TOKEN:
        raise click.BadParameter(f"at least {MIN_ADMIN_TOKEN} characters (or 'auto' to have one made and printed)",
                                 param_hint="--admin-token")
    return given


@main.command()
@_db_option
@click.option("--host", default="0.0.0.0", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--admin-token", envvar="COMPANION_ADMIN_TOKEN", default=None,
              help="Unlocks the full archive at /admin?token=... (env COMPANION_ADMIN_TOKEN; at least 16 "
                   "characters, or 'auto' to have one made and printed).")
@click.option("--base-url", envvar="COMPANION_BASE_URL", default=None,
              help="Public address for links and QR codes (env COMPANION_BASE_URL).")
@click.option("--behind-proxy", "behind_proxy", is_flag=False, flag_value="127.0.0.1", default=None,
              envvar="COMPANION_BEHIND_PROXY", metavar="[ADDRESS]",
              help="One reverse proxy in front, at ADDRESS (alone: 127.0.0.1; '*': any peer): its "
                   "X-Forwarded-For/-Proto are trusted, from it only (env COMPANION_BEHIND_PROXY).")
@click.option("--threads", default=8, show_default=True, type=click.IntRange(1, 256),
              help="Threads per worker process.")
@click.option("--workers", envvar="COMPANION_WORKERS", default=0, type=click.IntRange(0, 64),
              help="Worker processes (env COMPANION_WORKERS; default: one per core).")
@click.option("--server", "server_name", type=click.Choice(["auto", "gunicorn", "waitress"]), default="auto",
              show_default=True, help="gunicorn (every core; not on Windows) or waitress (one process).")
@click.option("--worker", "worker", type=click.Choice(["preread", "waitress", "gthread"]), default="preread",
              envvar="COMPANION_WORKER", show_default=True,
              help="gunicorn's worker: preread (gthread reading each request whole, with deadlines, before a "
                   "thread sees it: slow clients hold no thread), waitress (waitress's event loop in each "
                   "worker) or gthread (gunicorn's own: only behind a proxy that buffers requests, e.g. "
                   "nginx) (env COMPANION_WORKER).")
def serve(db_path, host, port, admin_token, base_url, behind_proxy, threads, workers, server_name, worker):
    """Serve the app: gunicorn worker processes on every core (waitress on Windows)."""
    from companion.ops import server
    from companion.web.proxy import trusted_proxy
    from companion.web.share import base_url as reachable, qr_text

    token = _admin_token(admin_token)
    behind_proxy = trusted_proxy(behind_proxy)
    app = _open_app(db_path, {"ADMIN_TOKEN": token, "BASE_URL": base_url, "BIND_HOST": host,
                               "BEHIND_PROXY": behind_proxy})
    address, unreachable = reachable(base_url, host, port)
    click.echo(f"Companion on {_where(db_path)}")
    click.echo(f"Open on any phone on this network: {address}/")
    click.echo(qr_text(f"{address}/"))
    if unreachable == "loopback":
        click.echo("Warning: listening on this computer only; other phones cannot connect. "
                   "Use --host 0.0.0.0 to let them in.")
    elif unreachable:
        click.echo("Warning: no network address found; other phones cannot connect. Join the table's wifi "
                   "or set --base-url.")
    if token and token != admin_token:
        click.echo(f"Admin: open {address}/admin?token={token} once to see the whole archive.")
    if behind_proxy:
        click.echo(f"Behind a proxy at {behind_proxy}: its X-Forwarded-For and X-Forwarded-Proto are trusted.")
    if server_name == "auto":
        server_name = "gunicorn" if server.gunicorn_available() else "waitress"
    if server_name == "gunicorn":
        if not server.gunicorn_available():
            raise click.BadParameter("gunicorn is not installed here (or this is Windows): use waitress",
                                     param_hint="--server")
        workers = workers or server.default_workers()
        click.echo(f"Serving with gunicorn: {workers} worker processes x {threads} threads ({worker} workers).")
        if worker == "gthread" and not behind_proxy:
            click.echo("Warning: gthread workers without a proxy in front: a client that sends its request "
                       "slowly holds a thread. Use it behind nginx (--behind-proxy).")
    else:
        if workers > 1:
            raise click.BadParameter("waitress runs one process; use --server gunicorn for several",
                                     param_hint="--workers")
        click.echo(f"Serving with waitress: one process, {threads} threads.")
    server.serve(app, host=host, port=port, threads=threads, workers=workers or 1, server=server_name,
                 behind_proxy=behind_proxy, worker=worker)


def _read(path: str):
    """A session file, parsed and checked by the one reader (companion.record.session.read_file)."""
    from companion.archive import read_session
    from companion.domain.errors import RuleError

    try:
        with open(path, "rb") as fh:
            data = fh.read(8 * 1024 * 1024 + 1)
    except OSError as err:
        raise click.ClickException(f"{path}: {err.strerror}")
    try:
        return read_session(data)
    except RuleError as err:
        raise click.ClickException(f"{path}: refused, nothing imported: {err.path or '$'}: {err.message}")


@main.command("import")
@_db_option
@click.argument("file", type=click.Path(dir_okay=False))
def import_(db_path, file):
    """Import a companion-session/1 file as a new session; prints its id and links."""
    from companion import service
    from companion.storage import store
    from companion.storage.db import connect

    sess = _read(file)
    _open_app(db_path)  # creates / migrates the database
    with _DatabaseErrors(db_path):
        db = connect(db_path)
        written = service.create(db, sess, browser="cli", location=lambda edit: edit)
        row, _role = store.find(db, written.location)
    click.echo(json.dumps({"id": row["id"], "edit": f"/s/{written.location}", "view": f"/s/{row['view_token']}"}))


@main.command()
@_db_option
@click.argument("session_id", type=int)
def export(db_path, session_id):
    """Print session ID as a companion-session/1 file."""
    from companion import service
    from companion.record.session import to_doc
    from companion.storage import store
    from companion.storage.db import connect

    if not is_url(db_path) and not os.path.isfile(db_path):
        raise click.ClickException(f"no session {session_id}: no database at {os.path.abspath(db_path)}")
    _open_app(db_path, write=False)
    with _DatabaseErrors(db_path):
        db = connect(db_path)
        if not store.exists(db, session_id):
            raise click.ClickException(f"no session {session_id}")
        doc = to_doc(service.load(db, session_id))
    click.echo(json.dumps(doc, ensure_ascii=False, indent=2))


@main.command("copy")
@_db_option
@click.option("--to", "target", required=True, metavar="DATABASE",
              help="The empty database to copy into: a postgresql:// URL or a SQLite file.")
def copy_(db_path, target):
    """Copy the whole archive (--db) into another, empty database: every session, link, key and browser
    as it is, so printed QR codes and open phones go on working. Move to PostgreSQL with it."""
    from companion.storage.copy import copy
    from companion.domain.errors import RuleError
    from companion.domain.messages import ENGLISH

    if not is_url(db_path) and not os.path.isfile(db_path):
        raise click.ClickException(f"no database at {os.path.abspath(db_path)}")
    with _DatabaseErrors(db_path):
        try:
            counts = copy(db_path, target)
        except RuleError as err:
            raise click.ClickException(ENGLISH(err.msg)) from None
    click.echo(f"copied {counts['sessions']} sessions ({counts['events']} events, {counts['items']} hands and "
               f"deals) from {_where(db_path)} to {_where(target)}")


@main.command()
@_db_option
def check(db_path):
    """Check the database: SQLite's integrity check, then every game's stored state against the replay of
    its hands. Names each wrong session; exit status 1 when anything is wrong."""
    from companion.ops.check import check_database
    from companion.storage.db import connect

    _open_app(db_path, write=False)
    with _DatabaseErrors(db_path):
        db = connect(db_path)
        problems, counted = check_database(db)
    for line in problems:
        click.echo(line)
    if problems:
        raise click.ClickException(f"{len(problems)} problem(s) in {_where(db_path)}")
    click.echo(f"ok: {counted['sessions']} sessions, {counted['games']} games, {counted['items']} hands and deals "
               "replayed" + ("" if is_url(db_path) else "; SQLite integrity ok"))


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
def state(file):
    """Print the companion-state/1 JSON computed from a session file (offline; no database)."""
    from companion.record.session import state_of

    click.echo(json.dumps(state_of(_read(file)), ensure_ascii=False, indent=2))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
