"""The command line: companion serve | import FILE | export ID | state FILE.

``state`` works offline on a file and imports neither Flask nor SQLite.
"""
from __future__ import annotations

import json
import os
import secrets
import sys

import click

MIN_ADMIN_TOKEN = 16


def _db_option(f):
    return click.option("--db", "db_path", envvar="COMPANION_DB", default="companion.db", show_default=True,
                        help="SQLite database file (env COMPANION_DB).")(f)


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
@click.option("--behind-proxy", is_flag=True, default=False,
              help="Trust X-Forwarded-Proto/-For from one reverse proxy (HTTPS cookies get Secure).")
@click.option("--threads", default=8, show_default=True, type=int)
def serve(db_path, host, port, admin_token, base_url, behind_proxy, threads):
    """Serve the app with waitress."""
    from waitress import serve as waitress_serve

    from .app import create_app
    from .share import base_url as reachable, qr_text

    token = _admin_token(admin_token)
    app = create_app({"DATABASE": db_path, "ADMIN_TOKEN": token, "BASE_URL": base_url, "BIND_HOST": host,
                      "BEHIND_PROXY": behind_proxy})
    address, unreachable = reachable(base_url, host, port)
    click.echo(f"Companion on {os.path.abspath(db_path)}")
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
    waitress_serve(app, host=host, port=port, threads=threads, ident="companion")


def _read(path: str):
    """A session file, parsed and checked by the one reader (companion.session.read_file)."""
    from .errors import RuleError
    from .session import read_file

    try:
        with open(path, "rb") as fh:
            data = fh.read(8 * 1024 * 1024 + 1)
    except OSError as err:
        raise click.ClickException(f"{path}: {err.strerror}")
    try:
        return read_file(data)
    except RuleError as err:
        raise click.ClickException(f"{path}: refused, nothing imported: {err.path or '$'}: {err.message}")


@main.command("import")
@_db_option
@click.argument("file", type=click.Path(dir_okay=False))
def import_(db_path, file):
    """Import a companion-session/1 file as a new session; prints its id and links."""
    from . import service
    from .app import create_app
    from .db import connect

    sess = _read(file)
    create_app({"DATABASE": db_path})  # creates / migrates the database
    db = connect(db_path)
    written = service.create(db, sess, browser="cli", location=lambda edit: edit)
    row = db.execute("SELECT id, view_token FROM sessions WHERE edit_token = ?", [written.location]).fetchone()
    click.echo(json.dumps({"id": row[0], "edit": f"/s/{written.location}", "view": f"/s/{row[1]}"}))


@main.command()
@_db_option
@click.argument("session_id", type=int)
def export(db_path, session_id):
    """Print session ID as a companion-session/1 file."""
    from . import service
    from .app import create_app
    from .db import connect
    from .session import to_doc

    create_app({"DATABASE": db_path})
    db = connect(db_path)
    if db.execute("SELECT 1 FROM sessions WHERE id = ?", [session_id]).fetchone() is None:
        raise click.ClickException(f"no session {session_id}")
    click.echo(json.dumps(to_doc(service.load(db, session_id)), ensure_ascii=False, indent=2))


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
def state(file):
    """Print the companion-state/1 JSON computed from a session file (offline; no database)."""
    from .session import state_of

    click.echo(json.dumps(state_of(_read(file)), ensure_ascii=False, indent=2))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
