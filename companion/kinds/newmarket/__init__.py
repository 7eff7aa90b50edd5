"""Newmarket (Michigan, Boodle, Stops): chips on boodle cards, classic and parlett (shared/rules/newmarket.md).

``options`` (cards, rule options, the new-game options), ``shape`` (the file's shape, each deal checked
against the running state before it), ``deal`` (playing one deal; the leftovers), ``actions`` (typed
taps), ``kind`` (the Kind the app talks to), ``messages`` (every sentence by code).
"""
from companion.kinds.newmarket import messages  # noqa: F401  (registers the codes)
from companion.kinds.newmarket.kind import KIND

__all__ = ["KIND"]
