"""Objects kept by id for a while (games being played, replays): a bounded store, the least
recently used dropped first, safe to use from many request threads at once."""
from __future__ import annotations

import secrets
import threading
from collections import OrderedDict

from hoc.web.errors import NotFound


class Store:
    def __init__(self, what: str, limit: int):
        self.what, self.limit = what, limit
        self._items: OrderedDict[str, object] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, item) -> str:
        key = secrets.token_hex(8)
        with self._lock:
            self._items[key] = item
            while len(self._items) > self.limit:
                self._items.popitem(last=False)
        return key

    def get(self, key: str):
        with self._lock:
            item = self._items.get(key)
            if item is None:
                raise NotFound(f"no {self.what} {key!r} (unknown id, or dropped to make room for newer ones)")
            self._items.move_to_end(key)
            return item

    def __len__(self) -> int:
        return len(self._items)
