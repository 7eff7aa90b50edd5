"""tests/speedups.py's shortcuts give what the long way gives (they are installed in every test process)."""
import marshal
from pathlib import Path

import pytest

import speedups
from companion import create_app, registry
from companion.storage import db as dbm
from companion.storage.db import connect

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"


@pytest.fixture
def made(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "a.db")})
    yield app
    registry.of(app).close()


def _sample(rule):
    values = {}
    for name in rule.arguments:
        converter = rule._converters.get(name)
        values[name] = 7 if type(converter).__name__ in ("IntegerConverter", "NumberConverter") else "tok-en"
    return values


def test_every_url_builder_builds_what_werkzeug_compiles(made):
    assert speedups.Rule._compile_builder is speedups._cached_compile_builder
    rules = list(made.url_map.iter_rules())
    assert len(rules) > 50
    for rule in rules:
        values = _sample(rule)
        for unknown in (False, True):
            fresh = speedups._compile_builder(rule, unknown).__get__(rule, None)
            kept = speedups._cached_compile_builder(rule, unknown).__get__(rule, None)
            extra = {"next": "a b"} if unknown else {}
            assert kept(**values, **extra) == fresh(**values, **extra), rule.rule


def test_every_template_from_the_process_cache_is_the_code_jinja_compiles(made):
    env = made.jinja_env
    assert isinstance(env.bytecode_cache, speedups._ProcessBytecode)
    names = [p.relative_to(TEMPLATES).as_posix() for p in TEMPLATES.rglob("*.html")]
    assert len(names) > 20
    for name in names:
        env.get_template(name)          # compiled once in this process, or loaded from the cache
        source, filename, _ = env.loader.get_source(env, name)
        bucket = env.bytecode_cache.get_bucket(env, name, filename, source)
        assert bucket.code is not None, name
        assert marshal.dumps(bucket.code) == marshal.dumps(env.compile(source, name, filename)), name


def _schema(path):
    db = connect(path)
    try:
        tables = sorted(tuple(r) for r in db.execute("SELECT type, name, sql FROM sqlite_master"))
        meta = sorted(tuple(r) for r in db.execute("SELECT key, value FROM meta WHERE key != 'secret_key'"))
        secret = db.execute("SELECT value FROM meta WHERE key = 'secret_key'").fetchone()[0]
        mode = db.execute("PRAGMA journal_mode").fetchone()[0]
        return tables, meta, secret, mode
    finally:
        db.close()


def test_a_copied_database_is_the_migrated_one_with_its_own_secret(tmp_path):
    assert hasattr(dbm.init_db, "real")
    long_way = tmp_path / "long.db"
    secret_long = dbm.init_db.real(str(long_way))
    secrets = {dbm.init_db(str(tmp_path / f"copy{i}.db")) for i in range(3)}
    assert len(secrets | {secret_long}) == 4
    tables, meta, secret, mode = _schema(str(long_way))
    for i in range(3):
        copy = _schema(str(tmp_path / f"copy{i}.db"))
        assert (copy[0], copy[1], copy[3]) == (tables, meta, mode)
        assert copy[2] in secrets


def test_an_existing_database_is_migrated_the_long_way(tmp_path, monkeypatch):
    path = tmp_path / "old.db"
    path.write_bytes(b"")           # exists: never overwritten by the copy
    calls = []
    monkeypatch.setattr(speedups.shutil, "copyfile", lambda *a: calls.append(a))
    dbm.init_db(str(path))
    assert calls == []
    assert _schema(str(path))[0]
