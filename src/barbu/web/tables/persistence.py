"""What a table writes to its journal: each action, its seats, its status, the addresses it counts against.

Every write goes through the table's journal, which (with many processes) carries the epoch of the table's
lease: a process that was paused past its lease and comes back has its writes refused (`Fenced`), and the
table stops acting there (`TableCore.fenced`), its connections sent to the new owner.

A move is sent to nobody before it is stored.  When its write fails (the database is away a moment), the
table writes it again for `Settings.store_retry` seconds, the table's other work waiting behind it; if it
still cannot, the move is taken back and handed back to its player ("storage"), whose page sends it again.
The journal says once that the database is unreachable (`barbu.web.common.outages`), not every table.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from ..db.leases import Fenced
from ..db.storage import EVENTS, Store
from .core import Seat, TableCore

log = logging.getLogger("barbu.web")

STORED_TEXTS = 64  # the last actions' stored texts a table keeps, to know a command sent again (`Table.applied`)


class Persistence:
    """A table's writes (inside its actor)."""

    def __init__(self, table: TableCore) -> None:
        self.t = table
        self.texts: OrderedDict[int, str] = OrderedDict()  # the last actions stored, by place: their texts

    def remember(self, seq: int, text: str) -> None:
        """An action stored at ``seq`` (or read from the journal when the table was rebuilt)."""
        self.texts[seq] = text
        self.texts.move_to_end(seq)
        if len(self.texts) > STORED_TEXTS:
            self.texts.popitem(last=False)

    async def commit(self, actor: int, action: Any) -> bool:
        """Append the action just applied to the log (written again a while if it fails); on failure take it back."""
        t = self.t
        seq = len(t.match.history) - 1
        t.actors.append(actor)
        text = str(action)
        try:
            await self._store(seq, actor, text)
        except Exception as e:
            if isinstance(e, Fenced):
                log.warning("table %s: action %d refused, another process owns the table now", t.id, seq)
            else:  # the journal logged the outage (or the bug) once; the player has the move back
                log.debug("table %s: action %d not stored after %g s: handed back", t.id, seq, t.settings.store_retry)
            t.actors.pop()
            t.match.undo()
            if isinstance(e, Fenced):
                t.fenced()
            return False
        self.remember(seq, text)
        return True

    async def _store(self, seq: int, actor: int, text: str) -> None:
        """Write one action; when the write fails, write it again until `Settings.store_retry` seconds have passed.

        A write that failed may have been committed all the same (the answer was lost with the connection): each
        new attempt first looks for the action at its place, so it is never stored twice nor taken back stored."""
        t = self.t
        try:
            await t.journal.append(t.id, seq, actor, text)
            return
        except Fenced:
            raise
        except Exception:
            if t.settings.store_retry <= 0:
                raise
        deadline = time.monotonic() + t.settings.store_retry
        epoch: int | None = getattr(t.journal, "epoch", None)  # the lease's, with many processes
        table_id, delay = t.id, 0.1
        while True:
            await asyncio.sleep(max(0.0, min(delay, deadline - time.monotonic())))
            delay = min(delay * 2, 1.0)
            try:
                await t.journal.run(lambda conn: _write_once(conn, table_id, seq, actor, text, epoch))
                return
            except Fenced:
                raise
            except Exception:
                if time.monotonic() >= deadline:
                    raise

    async def save_seat(self, s: Seat) -> None:
        rec, table_id = s.record(), self.t.id
        await self.t.journal.run(lambda conn: Store.set_seat(conn, table_id, rec))

    async def clear_seat(self, seat: int) -> None:
        table_id = self.t.id
        await self.t.journal.run(lambda conn: Store.clear_seat(conn, table_id, seat))

    async def save_addresses(self) -> None:
        t = self.t
        creator_addr, bots_addr = t.creator_addr, t.bots_addr
        await t.journal.run(lambda conn: Store.set_addresses(conn, t.id, creator_addr, bots_addr))

    async def touch(self) -> None:
        """A seat was taken: the open table's expiry counts from now (`TableCore.expired`), restarts too."""
        table_id = self.t.id
        await self.t.journal.run(lambda conn: Store.touch(conn, table_id))

    async def set_status(self, status: str) -> None:
        """Store the table's status, as the table now has it."""
        table_id = self.t.id
        await self.t.journal.run(lambda conn: Store.set_status(conn, table_id, status))
        self.t.stored_status = status

    async def save_status(self) -> None:
        """Store the status the table reached by its play (over: its results and ratings with it), and say so."""
        t = self.t
        status = t.status
        if status == "over" and t.on_over is not None:
            await t.on_over(t)  # the results (and ratings), in the same transaction as the status
        else:
            table_id = t.id
            await t.journal.run(lambda conn: Store.set_status(conn, table_id, status))
        t.stored_status = status
        t.send_table()


def _write_once(conn: Connection, table_id: str, seq: int, actor: int, text: str, epoch: int | None) -> None:
    """Store an action at its place unless it is there already (an earlier attempt committed after all)."""
    found = conn.execute(
        select(EVENTS.c.actor, EVENTS.c.action).where(EVENTS.c.table_id == table_id, EVENTS.c.seq == seq)
    ).first()
    if found is None:
        Store.append_events(conn, [(table_id, seq, actor, text, epoch)])
    elif (found.actor, found.action) != (actor, text):
        raise RuntimeError(f"table {table_id}: another action is stored at {seq}")
