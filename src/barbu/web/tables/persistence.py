"""What a table writes to its journal: each action, its seats, its status, the addresses it counts against.

Every write goes through the table's journal, which (with many processes) carries the epoch of the table's
lease: a process that was paused past its lease and comes back has its writes refused (`Fenced`), and the
table stops acting there (`TableCore.fenced`), its connections sent to the new owner.
"""

from __future__ import annotations

import logging
from typing import Any

from ..db.leases import Fenced
from ..db.storage import Store
from .core import Seat, TableCore

log = logging.getLogger("barbu.web")


class Persistence:
    """A table's writes (inside its actor)."""

    def __init__(self, table: TableCore) -> None:
        self.t = table

    async def commit(self, actor: int, action: Any) -> bool:
        """Append the action just applied to the log; on failure take it back."""
        t = self.t
        seq = len(t.match.history) - 1
        t.actors.append(actor)
        try:
            await t.journal.append(t.id, seq, actor, str(action))
        except Exception as e:
            if isinstance(e, Fenced):
                log.warning("table %s: action %d refused, another process owns the table now", t.id, seq)
            else:
                log.exception("table %s: could not store action %d", t.id, seq)
            t.actors.pop()
            t.match.undo()
            if isinstance(e, Fenced):
                t.fenced()
            return False
        return True

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
