"""Desmoche (and Honduran Conquián): stakes, the pot and its rollovers, bonuses, side games
(shared/rules/desmoche.md). The cards stay on the table; the app tracks the money.

``shape`` (the file's shape and bounds), ``hand`` (playing one hand from the running state; the end of
the series), ``actions`` (typed taps), ``options`` (a new series' typed options), ``kind`` (the Kind the
app talks to), ``messages`` (every sentence by code).
"""
from . import messages  # noqa: F401  (registers the codes)
from .kind import KIND
from .options import Spec

__all__ = ["KIND", "Spec"]
