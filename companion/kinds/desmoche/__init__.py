"""Desmoche (and Honduran Conquián): stakes, the pot and its rollovers, bonuses, side games
(shared/rules/desmoche.md). The cards stay on the table; the app tracks the money.

``shape`` (the file's shape and bounds), ``hand`` (playing one hand from the running state; the end of
the series), ``actions`` (typed taps), ``options`` (a new series' typed options), ``kind`` (the Kind the
app talks to), ``messages`` (every sentence by code).
"""
from companion.kinds.desmoche import messages  # noqa: F401  (registers the codes)
from companion.kinds.desmoche.kind import KIND
from companion.kinds.desmoche.options import Spec

__all__ = ["KIND", "Spec"]
