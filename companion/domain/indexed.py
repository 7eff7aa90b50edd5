"""A sequence read one element at a time, with Python's indexes (negative ones, slices): what a game's
items are when they are not a list (the store's rows read when asked for, a change laid over them). No
rule and no SQL here: both sides use it."""
from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence


class Indexed(Sequence):
    """Subclasses set ``count`` and read element ``i`` (0 <= i < count) in ``_get``."""

    count: int

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self.count))]
        if i < 0:
            i += self.count
        if not 0 <= i < self.count:
            raise IndexError(i)
        return self._get(i)

    @abstractmethod
    def _get(self, i: int):
        """Element ``i`` (0 <= i < count)."""
