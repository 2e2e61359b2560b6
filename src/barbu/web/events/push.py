"""An event's page told at once when what it shows has changed: the push behind ``/ws/events/{id}``.

- **Where a change is made.**  A deal finished at an event's table, in the process that plays it (the lobby's
  ``on_deal``); a round moved on or its tables made; the start; a registration or a withdrawal; a player
  leaving; a director's change.  `barbu.web.events.service.Events` calls `EventPush.changed` for each.
- **Across processes.**  With a broker, the notice is published on one Redis channel (``CHANNEL``) that every
  process of the server listens to, so a page held by one process hears of a deal finished in another.  In one
  process the notice goes straight to the check.
- **What a page is told.**  Each process with pages of an event keeps a digest of what the event's page shows
  anyone (its details, players, standings and travellers, which hold a board only once every table has played
  it) and of which tables are made.  A notice makes it read that again; only when the digest differs are the
  pages sent ``{"type": "changed"}``, nothing more, and each page reads its JSON again, which applies the
  visibility rules for its reader.  So a deal finished at one table while others still play that board tells
  nobody anything.
- **Cost.**  The checks of one event are coalesced: one at a time, at most one waiting, ``MIN_GAP`` seconds
  apart at least, so fifty tables finishing a deal together cost a check or two, not fifty.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any, Awaitable, Callable

from ...core import safejson
from ..common import outages
from ..common.mailbox import Mailbox
from ..common.outages import is_unreachable

log = logging.getLogger("barbu.web")

CHANNEL = "barbu:events:changed"
MIN_GAP = 0.5  # seconds between two checks of one event in one process
CHANGED = '{"type":"changed"}'


class EventPush:
    """The pages of events held by this process, and the notices that reach them."""

    def __init__(self, digest: Callable[[int], Awaitable[str | None]]) -> None:
        self._digest = digest  # what an event's page shows anyone, reduced to a digest (None: no such event)
        self.pages: dict[int, set[Mailbox[str | None]]] = {}
        self._last: dict[int, str | None] = {}
        self._checking: dict[int, asyncio.Task] = {}
        self._again: set[int] = set()
        self._tasks: set[asyncio.Task] = set()
        self._redis: Any = None
        self._node = ""
        self._pubsub: Any = None
        self._listener: asyncio.Task | None = None
        self._warned = False
        self.told = 0  # "changed" notices put to pages (for the operator and the tests)
        self.checks = 0  # digests computed

    # ------------------------------------------------------------------ life
    async def start(self, redis: Any, node: str) -> None:
        """Listen to the other processes' notices on the broker (``redis``: redis-py's asyncio client)."""
        pubsub = redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(CHANNEL)
        self._redis, self._node, self._pubsub = redis, node, pubsub
        self._listener = asyncio.get_running_loop().create_task(self._listen(), name="event-push")

    @property
    def listening(self) -> bool:
        """Whether the other processes' notices are heard (a broker)."""
        return self._redis is not None

    async def stop(self) -> None:
        for task in [*self._tasks, *self._checking.values(), *([self._listener] if self._listener else [])]:
            task.cancel()
        for task in [*self._tasks, *self._checking.values(), *([self._listener] if self._listener else [])]:
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        self._listener = None
        if self._pubsub is not None:
            try:
                await self._pubsub.aclose()
            except Exception:  # the broker is gone already: nothing to tidy
                pass
            self._pubsub = None
        for boxes in self.pages.values():
            for box in boxes:
                box.put(None)

    async def _listen(self) -> None:
        while True:
            try:
                async for message in self._pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    try:
                        note = safejson.loads(message["data"])
                    except safejson.JsonError:
                        continue
                    event_id = note.get("e") if isinstance(note, dict) else None
                    if isinstance(event_id, int) and note.get("n") != self._node:
                        self._check(event_id)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the broker went away for a moment: listen again once it is back
                if not (is_unreachable(e) and not outages.broker.up):  # an outage is told once, by the broker's own
                    log.warning("events: listening for changes failed (%s); trying again", e)
                await asyncio.sleep(0.5)
                try:
                    await self._pubsub.subscribe(CHANNEL)
                except Exception:
                    pass

    # ------------------------------------------------------------------ pages
    async def watch(self, event_id: int) -> Mailbox[str | None]:
        """A page of ``event_id`` to be told of its changes (its mailbox: ``CHANGED``, or None to close)."""
        if event_id not in self._last:
            self._last[event_id] = await self._digest(event_id)
            self.checks += 1
        box: Mailbox[str | None] = Mailbox()
        self.pages.setdefault(event_id, set()).add(box)
        return box

    def unwatch(self, event_id: int, box: Mailbox[str | None]) -> None:
        boxes = self.pages.get(event_id)
        if boxes is None:
            return
        boxes.discard(box)
        if not boxes:
            del self.pages[event_id]
            self._last.pop(event_id, None)

    def watched(self, event_id: int) -> int:
        return len(self.pages.get(event_id, ()))

    # ------------------------------------------------------------------ notices
    def changed(self, event_id: int) -> None:
        """Something about ``event_id`` may have changed here: check it, and tell the other processes."""
        self._check(event_id)
        if self._redis is not None:
            self._spawn(self._publish(event_id))

    async def _publish(self, event_id: int) -> None:
        try:
            await self._redis.publish(CHANNEL, json.dumps({"e": event_id, "n": self._node}))
            self._warned = False
        except Exception as e:  # the other processes' pages fall back on their slow reading
            if not self._warned:
                self._warned = True
                log.warning("events: could not tell the other processes of a change (%s)", e)

    def sweep(self) -> None:
        """Check every event with pages here (a notice lost while the broker was away is made up for)."""
        for event_id in list(self.pages):
            self._check(event_id)

    def _check(self, event_id: int) -> None:
        if event_id not in self.pages:
            return
        if event_id in self._checking:
            self._again.add(event_id)
            return
        task = asyncio.get_running_loop().create_task(self._run_check(event_id), name=f"event-check-{event_id}")
        self._checking[event_id] = task

    async def _run_check(self, event_id: int) -> None:
        try:
            while True:
                self._again.discard(event_id)
                began = time.monotonic()
                try:
                    digest = await self._digest(event_id)
                    self.checks += 1
                except Exception:  # the database hiccuped: the next notice or sweep tries again
                    log.exception("events: event %s could not be checked for changes", event_id)
                    digest = self._last.get(event_id)
                if event_id in self.pages and digest != self._last.get(event_id):
                    self._last[event_id] = digest
                    for box in list(self.pages[event_id]):
                        if not len(box):  # one notice waiting is enough: the page reads everything again
                            box.put(CHANGED)
                            self.told += 1
                if event_id not in self._again or event_id not in self.pages:
                    return
                await asyncio.sleep(max(0.0, MIN_GAP - (time.monotonic() - began)))
        finally:
            self._checking.pop(event_id, None)

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
