"""Objects kept by id for a while (games being played, replays): a bounded store, the least
recently used dropped first when there are more than `limit` of them or they hold more than
`max_bytes` together (each measured by `size`), safe to use from many request threads at once."""
from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from typing import Callable

from hoc.web.errors import NotFound


class Store:
    def __init__(self, what: str, limit: int, max_bytes: int | None = None, size: Callable[[object], int] = lambda x: 0):
        self.what, self.limit, self.max_bytes, self.size = what, limit, max_bytes, size
        self._items: OrderedDict[str, object] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, item) -> str:
        key = secrets.token_hex(8)
        with self._lock:
            self._items[key] = item
            self._fit(keep=key)
        return key

    def get(self, key: str):
        with self._lock:
            item = self._items.get(key)
            if item is None:
                raise NotFound(f"no {self.what} {key[:40]!r} (unknown id, or dropped to make room for newer ones)")
            self._items.move_to_end(key)
            return item

    def fit(self) -> None:
        """Drop the least recently used items until the rest fit the bounds (items grow: a game's log)."""
        with self._lock:
            self._fit()

    def _fit(self, keep: str | None = None) -> None:
        while len(self._items) > self.limit:
            self._items.popitem(last=False)
        if self.max_bytes is None:
            return
        sizes = {k: self.size(v) for k, v in self._items.items()}
        total = sum(sizes.values())
        for k in list(self._items):
            if total <= self.max_bytes or len(self._items) == 1 or k == keep and len(self._items) == 1:
                break
            if k == keep:
                continue
            total -= sizes[k]
            del self._items[k]

    def nbytes(self) -> int:
        with self._lock:
            return sum(self.size(v) for v in self._items.values())

    def __len__(self) -> int:
        return len(self._items)
