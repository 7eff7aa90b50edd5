"""What every test's app costs, paid once per test process (issue 27.5: the fast tier under 3 minutes).

A test app costs ~190 ms of CPU before its first page: Werkzeug compiles two URL builders per rule (~80
rules: ~50 ms), the fresh SQLite file is migrated (~30 ms) and Jinja compiles each template the page
uses (~90 ms for the home page). Every one of those is the same work each time, for ~1,500 apps in a run.
Here it is done once per process:

- **URL builders**: Werkzeug's builder for a rule is a pure function of the rule's text, its parts and
  its defaults (it reaches the rule's converters through ``self``); the compiled function is kept by that
  key and bound to each new rule as Werkzeug binds it.
- **Templates**: one Jinja bytecode cache for every app in the process, keyed by the template's name and
  checked against its source's checksum (a template changed on disk is compiled again).
- **A new SQLite database** is a copy of one migrated once per process, less its secret key (each app
  still makes its own); then the real ``init_db`` runs on it (nothing left to migrate). A path that already
  exists, a PostgreSQL URL or a copy that fails (a read-only folder) takes the real ``init_db`` whole.

Only the test process is changed: the app, the servers the tests start and what the tests assert run the
real code. ``tests/test_speedups.py`` checks that each shortcut gives what the long way gives.
"""
from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import threading

import flask
from jinja2 import BytecodeCache
from werkzeug.routing.rules import Rule

_lock = threading.Lock()


# URL builders -------------------------------------------------------------------------------------

_builders: dict = {}
_compile_builder = Rule._compile_builder


def _builder_key(rule: Rule, append_unknown: bool):
    defaults = rule.defaults or {}
    return (rule.rule, tuple(rule._trace), tuple(sorted((k, repr(v)) for k, v in defaults.items())),
            tuple(sorted((k, type(c), repr(getattr(c, "__dict__", None))) for k, c in rule._converters.items()
                         if k in defaults)),
            append_unknown)


def _cached_compile_builder(self: Rule, append_unknown: bool = True):
    key = _builder_key(self, append_unknown)
    func = _builders.get(key)
    if func is None:
        func = _builders[key] = _compile_builder(self, append_unknown)
    return func


# Templates ----------------------------------------------------------------------------------------

class _ProcessBytecode(BytecodeCache):
    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket) -> None:
        data = self.code.get(bucket.key)
        if data is not None:
            bucket.bytecode_from_string(data)

    def dump_bytecode(self, bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


# A new SQLite database ----------------------------------------------------------------------------

_template: dict[str, str] = {}


def _migrated_template(real_init) -> str:
    with _lock:
        if "path" not in _template:
            from companion.storage.db import connect

            folder = tempfile.mkdtemp(prefix="companion-template-")
            atexit.register(shutil.rmtree, folder, ignore_errors=True)
            path = os.path.join(folder, "migrated.db")
            real_init(path)
            db = connect(path)
            db.execute("DELETE FROM meta WHERE key = 'secret_key'")   # each copy makes its own
            db.close()
            _template["path"] = path
        return _template["path"]


def _fast_init_db(real_init):
    from companion.storage import engine

    def init_db(path: str) -> str:
        if path == ":memory:" or engine.is_url(path) or os.path.exists(path):
            return real_init(path)
        try:
            shutil.copyfile(_migrated_template(real_init), path)
        except OSError:
            return real_init(path)       # the real one says what is wrong with the folder
        return real_init(path)

    init_db.__doc__ = real_init.__doc__
    init_db.real = real_init
    return init_db


def install() -> None:
    """Called once by tests/conftest.py as each test process starts."""
    Rule._compile_builder = _cached_compile_builder
    flask.Flask.jinja_options = {**flask.Flask.jinja_options, "bytecode_cache": _ProcessBytecode()}
    from companion.storage import db

    if not hasattr(db.init_db, "real"):
        db.init_db = _fast_init_db(db.init_db)
