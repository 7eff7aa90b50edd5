"""The game kinds the app knows. Adding a kind = one rule module (see rules/CONTRACT.md) + one line here
(+ its web blueprint in companion/web/, registered by the same name)."""
from importlib import import_module

KIND_MODULES = {
    "mus": "companion.rules.mus",
    "newmarket": "companion.rules.newmarket",
    "desmoche": "companion.rules.desmoche",
}


def _load() -> dict:
    kinds = {}
    for kind, modname in KIND_MODULES.items():
        try:
            kinds[kind] = import_module(modname)
        except ModuleNotFoundError as exc:  # a kind still being written is simply not offered
            if exc.name != modname:
                raise
    return kinds


KINDS = _load()


def get(kind: str):
    return KINDS[kind]
