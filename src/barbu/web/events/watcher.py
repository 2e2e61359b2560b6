"""The watcher of one server process: it starts the events whose time has come and moves rounds on.

Every ``interval`` seconds it starts the due events and, when every table of a round is over, makes the next
round's tables, or ends the event (a conditional update on the round's number lets one process alone do it
when several share the database).  A deal ended at an event's table played here (the lobby's ``on_deal``) is
told to the event's pages at once, and a table that is over moves its round on without waiting.  A round left
short of its tables for ``repair_after`` seconds (the process making them was lost) is completed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import datetime, timedelta
from typing import Any, Awaitable, Callable

from ..common import outages
from ..common.errors import WebError
from ..common.outages import is_unreachable
from ..tables.actor import Table
from . import store as db
from .access import Changed, EventAccess
from .pausing import paused_json
from .push import EventPush
from .rounds import Rounds

log = logging.getLogger("barbu.web")

SOON_EVERY = 15  # the watcher's rounds between two looks for the events starting soon
SWEEP_EVERY = 30  # the watcher's rounds between two checks of every event with pages here (a lost notice)


class Watcher:
    """Due starts, finished rounds, and the deals ended at the event tables of this process."""

    def __init__(
        self,
        access: EventAccess,
        rounds: Rounds,
        push: EventPush,
        changed: Changed,
        clock: Callable[[], datetime],
        repair_after: Callable[[], float],
    ) -> None:
        self.access = access
        self.lobby = access.lobby
        self.rounds = rounds
        self.push = push
        self.changed = changed
        self.clock = clock  # now, as the watcher reads it
        self.repair_after = repair_after  # seconds a round may stay short of its tables before they are made
        self.interval = 2.0
        self.task: asyncio.Task | None = None
        self._ticks = 0
        self.advancing: set[int] = set()
        self.unstarted: set[int] = set()  # events whose time came but which could not start (logged once)
        self._short: dict[tuple[int, int], float] = {}  # (event, round) → since when its tables are fewer than planned
        self._event_of: dict[str, int] = {}  # table → its event, as read
        self.background: set[asyncio.Task] = set()
        # its registered players told an event starts soon (the application gives the notifications':
        # `barbu.web.notices`): (event, name, accounts, minutes), each event once by this process
        self.soon: Callable[[int, str, list[int], int], Awaitable[Any]] | None = None
        self.soon_minutes = 15
        self._told_soon: set[int] = set()

    # -- its life --
    def start(self) -> None:
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._watch(), name="events")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            try:
                await self.task
            except (asyncio.CancelledError, Exception):
                pass
            self.task = None
        for task in list(self.background):
            task.cancel()
        await self.push.stop()

    async def _listen_to_the_others(self) -> None:
        """With a broker, hear the other processes' notices of change (their tables' deals, their requests)."""
        cluster = self.lobby.cluster
        if cluster is None or self.push.listening:
            return
        try:
            await self.push.start(cluster.broker.redis, cluster.node)
        except Exception as e:  # the pages here read the event slowly instead, until a restart
            log.warning("events: cannot listen for the other processes' changes (%s)", e)

    async def _watch(self) -> None:
        await self._listen_to_the_others()
        while True:
            await asyncio.sleep(self.interval)
            if self.lobby.store is None:
                continue
            try:
                await self.tick()
            except Exception as exc:  # never let the watcher die; the database away is its outage, one line
                if is_unreachable(exc):
                    outages.database.failed(exc)
                else:
                    log.exception("events: the watcher failed")

    async def tick(self) -> None:
        """Start the events whose time has come; move every running event whose round is over on."""
        due = await self.access.read(db.due, self.clock())
        for event_id in due:
            try:
                await self.rounds.start(event_id, None)
            except WebError as e:  # nobody registered, or the numbers do not fit: the event stays as it is
                if event_id not in self.unstarted:  # said once, not every round of the watcher
                    self.unstarted.add(event_id)
                    log.info("event %s: could not start at its time (%s)", event_id, e)
        for event_id in await self.access.read(lambda c: db.running(c)):
            await self.advance(event_id)
        if self.soon is not None and self._ticks % SOON_EVERY == 0:
            await self.tell_soon()
        self._ticks += 1
        if self._ticks % SWEEP_EVERY == 0:
            self.push.sweep()

    async def tell_soon(self) -> None:
        """Tell the players of the events starting within ``soon_minutes`` (once each: the notices are keyed)."""
        at = self.clock()
        until = at + timedelta(minutes=self.soon_minutes)
        for event_id, name, players in await self.access.read(db.starting_soon, at, until):
            if event_id not in self._told_soon and self.soon is not None:
                self._told_soon.add(event_id)
                await self.soon(event_id, name, players, self.soon_minutes)

    # -- a deal ended at a table here --
    def deal_ended(self, t: Table) -> None:
        """A deal ended at a table played here (the lobby's ``on_deal``, in the table's actor): if it is an
        event's, its pages are told, and a table that is over may end its round."""
        if getattr(t, "boards", None) is None:  # only an event's tables are dealt by boards
            return
        task = asyncio.get_running_loop().create_task(self._table_moved(t), name=f"event-deal-{t.id}")
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def _table_moved(self, t: Table) -> None:
        try:
            event_id = self._event_of.get(t.id)
            if event_id is None:  # (not kept when not found: a table is entered in its event once seated)
                event_id = await self.access.read(db.event_of_table, t.id)
                if event_id is None:
                    return
                if len(self._event_of) > 10_000:
                    self._event_of.clear()
                self._event_of[t.id] = event_id
            self.changed(event_id)
            if t.status == "over":

                async def settled() -> None:  # after the table's own "over" is stored (queued before this)
                    return None

                try:
                    await t.call(settled)
                except WebError:  # closed meanwhile: the watcher moves the round on
                    return
                await self.advance(event_id)
        except Exception:  # the watcher's rounds make up for it
            log.exception("events: table %s's deal could not be told", t.id)

    # -- rounds moved on --
    async def advance(self, event_id: int) -> None:
        """If every table of the current round is over, make the next round's tables, or end the event."""
        if event_id in self.advancing:
            return
        self.advancing.add(event_id)
        try:
            ev = await self.access.read(db.event_by_id, event_id)
            if ev is None or ev.status != "running" or ev.plan is None:
                return
            tables = [tid for r, _, tid in await self.access.read(db.tables, event_id) if r == ev.round]
            if len(tables) < len(ev.plan[ev.round - 1]):  # the round's tables are being made...
                await self._repair(ev)
                return
            self._short.pop((event_id, ev.round), None)
            self._pause_in_step(ev, tables)
            for tid in tables:
                t = self.lobby.tables.get(tid) or await self.lobby.get(tid)
                if t is None or t.status != "over" or t.stored_status != "over":
                    return
            last = ev.round >= len(ev.plan)

            def write(conn: Any) -> db.Event | None:
                found = db.event_by_id(conn, event_id, lock=True)
                if found is None or found.status != "running" or found.round != ev.round:
                    return None  # another process moved it on
                if last:
                    db.set_event(conn, event_id, status="over")
                else:
                    db.set_event(conn, event_id, round=ev.round + 1)
                return db.event_by_id(conn, event_id)

            moved = await self.access.write(write)
            if moved is not None and not last:
                try:
                    await self.rounds.make(moved, await self.access.read(db.players, event_id), moved.round)
                except WebError as e:  # no room for its computer players now: made later, as a round left short
                    self.rounds.waiting(event_id, moved.round, e)
            if moved is not None:
                self.changed(event_id)
        finally:
            self.advancing.discard(event_id)

    def _pause_in_step(self, ev: db.Event, tables: list[str]) -> None:
        """The round's tables played here paused as their event is (a notice of the director's lost on its way,
        a process that was away): each reads the event again in its actor, so a newer pause or resumption is
        never undone by this older reading."""
        paused = paused_json(ev)
        for tid in tables:
            t = self.lobby.tables.get(tid)
            if t is not None and t.boards is not None and t.status != "over" and t.paused != paused:
                t.tell(t.refresh_pause)

    async def _repair(self, ev: db.Event) -> None:
        """A round short of its tables is being made, or the process making it was lost: after a while, its
        missing tables are made here (each table is made once, whoever makes it)."""
        since = self._short.setdefault((ev.id, ev.round), time.monotonic())
        if time.monotonic() - since >= self.repair_after():
            self._short.pop((ev.id, ev.round), None)
            made = frozenset(n for r, n, _ in await self.access.read(db.tables, ev.id) if r == ev.round)
            if (ev.id, ev.round) not in self.rounds.told:
                log.warning("event %s: round %s was left half made; making its missing tables", ev.id, ev.round)
            try:
                await self.rounds.make(ev, await self.access.read(db.players, ev.id), ev.round, made)
            except WebError as e:  # still no room for its computer players: tried again after a while
                self.rounds.waiting(ev.id, ev.round, e)
            self.changed(ev.id)
