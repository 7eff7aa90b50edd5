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


def club_kind():
    """The kind that plays a club night's round matches (``Kind.club_match``): the club asks for it, never
    for a kind by name. The first by name when several do (one does today)."""
    for kind in KINDS.values():
        if kind.club_match is not None:
            return kind
    raise LookupError("no kind plays a club night's matches (Kind.club_match)")


def at_tables() -> list:
    """The kinds the organizer may put at a club night's table besides its matches (``Kind.at_tables``)."""
    return [kind for kind in KINDS.values() if kind.at_tables]


def pairs_kind():
    """The kind whose games are rated as pairs too (``Kind.rated_pairs``), or None: the ratings pages' pairs,
    partners and figures are its. The first by name when several do (one does today)."""
    return next((kind for kind in KINDS.values() if kind.rated_pairs is not None), None)
