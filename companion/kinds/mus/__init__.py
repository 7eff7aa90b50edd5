"""Mus: four players in two teams; bids lance by lance, the count, the stones, dentro (shared/rules/mus.md).

``cards`` (hand evaluation), ``options`` (presets), ``shape`` (the file's shape), ``hand`` (playing one
hand from the running state), ``actions`` (typed taps), ``kind`` (the Kind the app talks to),
``messages`` (every sentence by code); ``view`` and ``blueprint`` are the web's.
"""
from companion.kinds.mus import messages  # noqa: F401  (registers the codes)
from companion.kinds.mus.kind import KIND

__all__ = ["KIND"]
