"""Values made from the last few objects, found again by the objects' identity.

One PR's texts and files are read by several analyzers in turn, each asking for the same
derived value (a text's cuts, a file's declarations, their pairs): kept by identity, the
value is made once without hashing or comparing the object itself.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class RecentByIdentity(Generic[K, V]):
    """The value made from each of the last ``size`` objects asked for, least recently asked
    out. Each object is kept alive with its value, so an id is never another object's."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[int, tuple[K, V]] = OrderedDict()

    def get(self, key: K, make: Callable[[K], V]) -> V:
        entry = self._entries.get(id(key))
        if entry is not None and entry[0] is key:
            self._entries.move_to_end(id(key))
            return entry[1]
        value = make(key)
        self._entries[id(key)] = (key, value)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)
        return value
