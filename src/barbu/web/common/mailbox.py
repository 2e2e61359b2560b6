"""A first-in first-out box with one consumer task, for the hot paths of the server.

Every move passes through a table's inbox and every message through a
connection's outbox.  ``asyncio.Queue`` does more than these need (size limits,
task accounting, several consumers); this box only appends, wakes its one
waiting consumer, and lets a consumer that finds items take them without
giving up its turn in the event loop.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class Mailbox(Generic[T]):
    def __init__(self) -> None:
        self._items: deque[T] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def __len__(self) -> int:
        return len(self._items)

    def put(self, item: T) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> T:
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.popleft()

    def take_all(self) -> list[T]:
        """Empty the box: what was left in it when its consumer stopped (to answer each, never leave it waiting)."""
        items = list(self._items)
        self._items.clear()
        return items
