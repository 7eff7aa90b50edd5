"""Which engine a ``--db`` names, without importing either: a file path is SQLite (the embedded default),
a ``postgresql://`` URL is PostgreSQL (``companion.storage.postgres``, which needs the ``postgresql`` extra:
``pip install 'companion[postgresql]'``)."""
from __future__ import annotations

SCHEMES = ("postgresql://", "postgres://")


def is_url(database: str) -> bool:
    return database.startswith(SCHEMES)


def postgres():
    """The PostgreSQL module, or a clear message when psycopg is not installed."""
    try:
        from companion.storage import postgres as module
    except ImportError as err:
        raise RuntimeError("a postgresql:// database needs psycopg: pip install 'companion[postgresql]'"
                           f" ({err})") from None
    return module
