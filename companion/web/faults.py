"""A bad disk, said plainly: a read-only or full disk, a locked, missing or damaged database.

The web app answers 503 with a page in the reader's language (the write was rolled back: nothing changed),
logging one line, not a traceback. The command line prints one line and exits 1 (``database_line``).

A database file whose permission bits allow no writing (``chmod 444``) is treated as read-only even by
root and even while the server has it open: SQLite would go on writing through its open file.
"""
from __future__ import annotations

import errno
import os
import sqlite3

from companion.storage.engine import is_url
from companion.domain.messages import N_, define

READONLY, FULL, BUSY, BROKEN, MISSING = "readonly", "full", "busy", "broken", "missing"

# SQLite's primary result codes (the low byte of sqlite_errorcode)
_CODES = {3: READONLY, 8: READONLY, 13: FULL, 5: BUSY, 6: BUSY, 10: BROKEN, 11: BROKEN, 26: BROKEN, 14: MISSING}
_WORDS = (("readonly", READONLY), ("read-only", READONLY), ("disk is full", FULL), ("locked", BUSY),
          ("busy", BUSY), ("not a database", BROKEN), ("malformed", BROKEN), ("disk i/o", BROKEN),
          ("unable to open", MISSING))

define("fault", {
    "readonly": N_("The server cannot save anything: its database is read-only. Nothing was changed. Tell "
                   "whoever runs the server."),
    "full": N_("The server cannot save anything: its disk is full. Nothing was changed. Tell whoever runs "
               "the server."),
    "busy": N_("The server's database is busy: nothing was changed. Try again in a moment."),
    "broken": N_("The server cannot read its database (damaged or missing): nothing was changed. Tell whoever "
                 "runs the server."),
})


class DiskFault(Exception):
    """A write refused before it started (the database is marked read-only)."""

    def __init__(self, kind: str, detail: str = ""):
        super().__init__(detail or kind)
        self.kind = kind


def kind_of(err: BaseException) -> str | None:
    """READONLY, FULL, BUSY, BROKEN or MISSING for a database or disk error; None for anything else."""
    if isinstance(err, DiskFault):
        return err.kind
    if isinstance(err, sqlite3.Error):
        code = getattr(err, "sqlite_errorcode", None)
        if code is not None and (code & 0xFF) in _CODES:
            return _CODES[code & 0xFF]
        text = str(err).lower()
        return next((kind for word, kind in _WORDS if word in text), BROKEN if isinstance(err, sqlite3.DatabaseError) else None)
    pg = _postgres_kind(err)
    if pg is not None:
        return pg
    if isinstance(err, OSError):
        return {errno.EROFS: READONLY, errno.EACCES: READONLY, errno.EPERM: READONLY, errno.ENOSPC: FULL,
                errno.EDQUOT: FULL, errno.ENOENT: MISSING}.get(err.errno)
    return None


def _postgres_errors() -> tuple:
    """PostgreSQL's error classes, when psycopg is installed (a SQLite-only install has none)."""
    try:
        import psycopg
        from psycopg_pool import PoolTimeout
    except ImportError:
        return ()
    return psycopg.Error, PoolTimeout


def _postgres_kind(err: BaseException) -> str | None:
    errors = _postgres_errors()
    if not errors or not isinstance(err, errors):
        return None
    state = getattr(getattr(err, "diag", None), "sqlstate", None) or ""
    if state == "53100":                          # disk_full
        return FULL
    if state == "25006":                          # read_only_sql_transaction (a standby, a read-only database)
        return READONLY
    if state in ("55P03", "40001", "40P01") or state.startswith(("08", "57P")) or not state:
        return BUSY      # a lock not had in time, a conflict, the server unreachable or restarting: try again
    return BROKEN


def no_space(path: str) -> bool:
    """The filesystem holding ``path`` has no block left (SQLite may then say "disk I/O error": growing
    its shared-memory file fails before any write does)."""
    try:
        st = os.statvfs(os.path.dirname(os.path.abspath(path)))
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < 64 * 1024


def kind_at(err: BaseException, path: str) -> str | None:
    """``kind_of``, told a full disk from a broken file by looking at the disk."""
    kind = kind_of(err)
    if kind == BROKEN and isinstance(err, sqlite3.Error) and "not a database" not in str(err) and no_space(path):
        return FULL
    return kind


def cannot_write(path: str) -> str | None:
    """Why the database at ``path`` cannot be written (MISSING, READONLY), or None. Cheap: a stat (a
    database server answers for itself)."""
    if path == ":memory:" or path.startswith("file:") or is_url(path):
        return None
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return MISSING
    if os.path.exists(path):
        if not os.stat(path).st_mode & 0o222 or not os.access(path, os.W_OK):
            return READONLY
    elif not os.access(folder, os.W_OK):
        return READONLY
    return None


def database_line(path: str, err: BaseException | str) -> str:
    """One line for the command line, naming the file and what to do."""
    kind = err if isinstance(err, str) else kind_at(err, path)
    if is_url(path):
        from companion.storage.postgres import describe

        return f"database {describe(path)}: {'busy or unreachable, try again' if kind == BUSY else err}"
    where = os.path.abspath(path)
    folder = os.path.dirname(where)
    if kind == MISSING and not os.path.isdir(folder):
        return f"cannot open the database {where}: the folder {folder} does not exist"
    return {
        READONLY: f"the database {where} is read-only: nothing can be saved (check the file's and folder's "
                  "permissions and the disk)",
        FULL: f"the disk holding {where} is full: nothing can be saved (free some space)",
        BUSY: f"the database {where} is locked by another program: try again when it has finished",
        BROKEN: f"{where} is not a readable Companion database (damaged, or another kind of file): "
                "restore a backup or choose another --db",
        MISSING: f"cannot open the database {where}",
    }.get(kind, f"database {where}: {err}")


def install(app) -> None:
    """Refuse writes to a database marked read-only (503 before anything runs), and answer every database
    error with a page saying what happened."""
    from flask import request

    @app.before_request
    def _writable():
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return None
        why = cannot_write(app.config["DATABASE"])
        if why is not None:
            raise DiskFault(READONLY if why == READONLY else BROKEN, why)
        return None

    app.register_error_handler(sqlite3.Error, _fault_page)
    for error in _postgres_errors():
        app.register_error_handler(error, _fault_page)
    app.register_error_handler(DiskFault, _fault_page)


def _fault_page(err):
    from flask import current_app, render_template, request

    from companion.domain.messages import ENGLISH
    from companion.web.i18n import t

    kind = kind_at(err, current_app.config["DATABASE"]) or BROKEN
    current_app.logger.warning("database problem (%s) on %s %s: %s", kind, request.method, request.path, err)
    m = {"code": f"fault.{kind if kind != MISSING else BROKEN}"}
    if request.path.endswith(".json") or request.accept_mimetypes.best == "application/json":
        resp = current_app.make_response(({"error": ENGLISH(m), "status": 503}, 503))
    else:
        resp = current_app.make_response((render_template("error.html", code=503, message=t(m)), 503))
    resp.headers["Retry-After"] = "30" if kind == BUSY else "300"
    resp.headers["Cache-Control"] = "no-store"
    return resp


def probe_write(path: str) -> None:
    """One real write, now (``storage.db.probe_write``): a read-only mount or a full disk is found when
    the server starts or a command begins, not at the first hand of the night."""
    from companion.storage.db import probe_write as probe

    probe(path)
