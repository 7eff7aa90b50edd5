"""Random legal taps for every game kind the app knows: each kind draws its own (``strategies.py`` in its
folder: ``new_game(players)`` and ``tap(draw, rec)``, CONTRACT.md), so a new kind brings its strategies
with it and nothing here names a kind."""
from importlib import import_module

from companion import kinds

STRATEGIES = {name: import_module(f"companion.kinds.{name}.strategies") for name in kinds.KINDS}
TAPS = {name: s.tap for name, s in STRATEGIES.items()}


def new_games(players):
    """One new game of every kind for a session with (at least) these five players."""
    return [s.new_game(players) for s in STRATEGIES.values()]


def tap(draw, rec):
    """A random tap for this game, or None when it has nothing left to do."""
    return TAPS[rec.kind](draw, rec)
