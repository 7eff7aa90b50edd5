"""Duel, the test-only kind: one folder (tests/kinds/test_new_kind.py)."""
from .kind import KIND

__all__ = ["KIND"]
