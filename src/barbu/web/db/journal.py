"""The writer: one thread that owns every database write, with group commit.

Table actors ``await journal.append(...)`` and only send a move to anyone once
it is committed, so an acknowledged move is never lost, even if the process
is killed.  Writes queued while a transaction is being committed go into the
next one together, which keeps hundreds of busy tables cheap on SQLite and
PostgreSQL alike.  Blocking database work never runs on the event loop.

With many server processes a table's writes carry the epoch of its lease
(`barbu.web.db.leases`): they are checked in the transaction that commits them,
and one whose lease has moved on fails with `Fenced`, the others going on.

A database that cannot be reached fails the writes waiting (the tables write their moves again a while:
`barbu.web.tables.persistence`) and is said once when it starts and once when it ends (`outage`), never with
a traceback; any other failure is a bug, logged with its traceback.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import sys
import threading
from typing import Any, Callable

from sqlalchemy import select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, IntegrityError

from ..common import metrics, outages
from ..common.outages import is_unreachable
from . import leases
from .leases import Fenced
from .storage import EVENTS, Store

log = logging.getLogger("barbu.web")

_STOP = object()


class Journal:
    """Serialises writes through one thread; each write resolves its future once committed."""

    def __init__(self, store: Store, max_batch: int = 2000) -> None:
        self.store = store
        self.max_batch = max_batch
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="barbu-journal", daemon=True)
        self._thread.start()
        self.commits = 0
        self.outage = outages.database  # the process's one (told by the writer thread, read by readiness)

    # -- called from the event loop --
    def append(
        self, table_id: str, seq: int, actor: int, action: str, epoch: int | None = None
    ) -> "asyncio.Future[None]":
        """Append one event; the future is done when it is committed.

        ``epoch``: the lease's epoch the writer holds (many processes); None: no lease is checked."""
        return self._submit(("event", (table_id, seq, actor, action, epoch)), (table_id, epoch))

    def run(
        self, fn: Callable[[Connection], Any], fence: tuple[str, int | None] | None = None
    ) -> "asyncio.Future[Any]":
        """Run ``fn(connection)`` inside the next transaction; the future holds its result.

        ``fence``: (table, epoch) when the write is a table's, checked as `append` checks its epoch."""
        return self._submit(("call", fn), fence)

    def fenced(self, table_id: str, epoch: int | None) -> "FencedJournal":
        """This journal as one table sees it: every write carries the table's lease epoch."""
        return FencedJournal(self, table_id, epoch)

    def queued(self) -> int:
        """Writes waiting for the writer thread (approximate), for the health endpoint."""
        return self._queue.qsize()

    def _submit(self, item: tuple[str, Any], fence: tuple[str, int | None] | None = None) -> "asyncio.Future[Any]":
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()
        if fence is not None and fence[1] is None:
            fence = None
        self._queue.put(((*item, fence), loop, fut))
        return fut

    async def close(self) -> None:
        self._queue.put(_STOP)
        await asyncio.to_thread(self._thread.join)
        self.store.close()

    # -- the writer thread --
    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is _STOP:
                return
            batch = [first]
            stop = False
            while len(batch) < self.max_batch:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is _STOP:
                    stop = True
                    break
                batch.append(nxt)
            self._commit(batch)
            if stop:
                return

    def _commit(self, batch: list[Any], again: bool = True) -> None:
        try:
            with metrics.DATABASE_WRITE.time(), self.store.engine.begin() as conn:
                results = self._execute(conn, batch)
            self.commits += 1
        except DBAPIError as exc:
            if again and exc.connection_invalidated:  # the session was lost (ended by the database): once more
                if self.outage.up:
                    log.info("database connection lost during a write; writing again")
                self._commit(batch, again=False)
                return
            self._failed(batch)
            return
        except Exception:
            self._failed(batch)
            return
        self.outage.recovered()
        by_loop: dict[Any, list[tuple[asyncio.Future[Any], Any]]] = {}
        for (_, loop, fut), res in zip(batch, results):
            by_loop.setdefault(loop, []).append((fut, res))
        for loop, done in by_loop.items():  # one wake-up of the event loop per commit, not per write
            loop.call_soon_threadsafe(_set_results, done)

    def _failed(self, batch: list[Any]) -> None:
        """One bad write must not sink the others: retry them one by one.  The database away fails them all at
        once (each would wait for it in turn), said once for the whole outage."""
        exc = sys.exc_info()[1]  # called while the write's exception is being handled
        assert exc is not None
        if is_unreachable(exc):
            self.outage.failed(exc)
            for _, loop, fut in batch:
                loop.call_soon_threadsafe(_set_exception, fut, exc)
            return
        if len(batch) > 1:
            for item in batch:
                self._commit([item])
            return
        ((item, loop, fut),) = batch
        if isinstance(exc, IntegrityError) and self._stored(item):
            # written by an attempt whose answer was lost with its connection (the database cut as it
            # committed): the move is there as it was sent, so it is done, not failed
            loop.call_soon_threadsafe(_set_results, [(fut, None)])
            return
        log.exception("database write failed")
        loop.call_soon_threadsafe(_set_exception, fut, exc)

    def _stored(self, item: tuple[str, Any, Any]) -> bool:
        """Whether a move's row is already in the log exactly as this write would store it (the same actor,
        action and lease epoch at its table and number): never another writer's move at that number."""
        kind, payload, _ = item
        if kind != "event":
            return False
        table_id, seq, actor, action, epoch = payload
        try:
            with self.store.engine.connect() as conn:
                row = conn.execute(
                    select(EVENTS.c.actor, EVENTS.c.action, EVENTS.c.epoch).where(
                        EVENTS.c.table_id == table_id, EVENTS.c.seq == seq
                    )
                ).first()
        except DBAPIError:
            return False
        return row is not None and tuple(row) == (actor, action, epoch)

    @staticmethod
    def _execute(conn: Connection, batch: list[Any]) -> list[Any]:
        results: list[Any] = []
        events: list[tuple[str, int, int, str, int | None]] = []
        fences = {fence[0]: fence[1] for (_, _, fence), _, _ in batch if fence is not None}
        refused = leases.refused(conn, fences)
        for (kind, payload, fence), _, _ in batch:
            if fence is not None and fence[0] in refused:
                results.append(Fenced(fence[0]))
            elif kind == "event":
                events.append(payload)
                results.append(None)
            else:
                if events:  # keep the order of writes
                    Store.append_events(conn, events)
                    events = []
                results.append(payload(conn))
        Store.append_events(conn, events)
        return results


def _set_results(done: list[tuple["asyncio.Future[Any]", Any]]) -> None:
    for fut, res in done:
        if fut.done():
            continue
        if isinstance(res, Fenced):
            fut.set_exception(res)
        else:
            fut.set_result(res)


def _set_exception(fut: "asyncio.Future[Any]", exc: BaseException) -> None:
    if not fut.done():
        fut.set_exception(exc)


class FencedJournal:
    """A table's view of the journal: each of its writes carries its lease's epoch (None: no lease)."""

    def __init__(self, journal: Journal, table_id: str, epoch: int | None) -> None:
        self.journal, self.table_id, self.epoch = journal, table_id, epoch

    def append(self, table_id: str, seq: int, actor: int, action: str) -> "asyncio.Future[None]":
        return self.journal.append(table_id, seq, actor, action, self.epoch if table_id == self.table_id else None)

    def run(self, fn: Callable[[Connection], Any]) -> "asyncio.Future[Any]":
        return self.journal.run(fn, (self.table_id, self.epoch))

    def queued(self) -> int:
        return self.journal.queued()
