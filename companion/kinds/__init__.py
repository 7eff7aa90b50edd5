"""The game kinds the app knows: every package here that exposes a ``KIND`` (implementing
``companion.kinds.base.Kind``). A kind is one folder (its pure rules, its page models, its blueprint, its
templates and static files); adding one touches nothing else, and nothing outside a kind's package
switches on a kind's name."""
import pkgutil
from importlib import import_module

KINDS = {}
for _info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if _info.ispkg:
        _kind = getattr(import_module(f"{__name__}.{_info.name}"), "KIND", None)
        if _kind is not None:
            KINDS[_kind.name] = _kind


def get(name: str):
    return KINDS[name]
