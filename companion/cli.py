"""The command line: companion serve | import FILE | export ID | state FILE."""
from __future__ import annotations

import json
import os
import sys

import click

from . import create_app


def _db_option(f):
    return click.option("--db", "db_path", envvar="COMPANION_DB", default="companion.db", show_default=True,
                        help="SQLite database file (env COMPANION_DB).")(f)


@click.group()
def main():
    """Companion: score a card game on a phone beside a real table."""


@main.command()
@_db_option
@click.option("--host", default="0.0.0.0", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--admin-token", envvar="COMPANION_ADMIN_TOKEN", default=None,
              help="Unlocks the full archive at /admin?token=... (env COMPANION_ADMIN_TOKEN).")
@click.option("--base-url", envvar="COMPANION_BASE_URL", default=None,
              help="Public address for links and QR codes (env COMPANION_BASE_URL).")
@click.option("--threads", default=8, show_default=True, type=int)
def serve(db_path, host, port, admin_token, base_url, threads):
    """Serve the app with waitress."""
    from waitress import serve as waitress_serve

    from .share import lan_address, qr_text

    app = create_app({"DATABASE": db_path, "ADMIN_TOKEN": admin_token, "BASE_URL": base_url})
    if base_url:
        address = base_url.rstrip("/")
    elif host in ("0.0.0.0", "::", ""):
        lan = lan_address()
        address = f"http://{lan}:{port}" if lan else f"http://127.0.0.1:{port}"
    else:
        address = f"http://{host}:{port}"
    click.echo(f"Companion on {os.path.abspath(db_path)}")
    click.echo(f"Open on any phone on this network: {address}/")
    click.echo(qr_text(f"{address}/"))
    if "127.0.0.1" in address:
        click.echo("Warning: only this computer can reach 127.0.0.1; set --base-url or join a network.")
    waitress_serve(app, host=host, port=port, threads=threads, ident="companion")


def _load_file(path: str) -> dict:
    from .rules.errors import RuleError
    from .sessionfile import normalize_session

    try:
        with open(path, encoding="utf-8") as fh:
            raw = json.load(fh)
        return normalize_session(raw)
    except OSError as err:
        raise click.ClickException(f"{path}: {err.strerror}")
    except json.JSONDecodeError as err:
        raise click.ClickException(f"{path}: not JSON: line {err.lineno}, column {err.colno}: {err.msg}")
    except RuleError as err:
        raise click.ClickException(f"{path}: refused, nothing imported: {err}")


@main.command("import")
@_db_option
@click.argument("file", type=click.Path(dir_okay=False))
def import_(db_path, file):
    """Import a companion-session/1 file as a new session; prints its id and links."""
    from . import store
    from .db import connect

    doc = _load_file(file)
    create_app({"DATABASE": db_path})  # creates / migrates the database
    db = connect(db_path)
    written = store.create(db, doc, location=lambda edit: edit)
    row = db.execute("SELECT id, view_token FROM sessions WHERE edit_token = ?", [written.location]).fetchone()
    click.echo(json.dumps({"id": row[0], "edit": f"/s/{written.location}", "view": f"/s/{row[1]}"}))


@main.command()
@_db_option
@click.argument("session_id", type=int)
def export(db_path, session_id):
    """Print session ID as a companion-session/1 file."""
    from . import store
    from .db import connect

    create_app({"DATABASE": db_path})
    try:
        row = store.load(connect(db_path), session_id)
    except KeyError:
        raise click.ClickException(f"no session {session_id}")
    click.echo(json.dumps(row["doc"], ensure_ascii=False, indent=2))


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
def state(file):
    """Print the companion-state/1 JSON computed from a session file (offline; no database)."""
    from .sessionfile import compute_state

    click.echo(json.dumps(compute_state(_load_file(file)), ensure_ascii=False, indent=2))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
