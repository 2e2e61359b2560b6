"""After a move and after a match: taking moves back against computer players, and asking for a rematch."""

from __future__ import annotations

from typing import Any, Awaitable, Callable

from ..common.errors import WebError
from ..db.storage import Store
from .computers import Computers
from .core import Conn, TableCore
from .refusals import (
    MATCH_OVER,
    REMATCH_SPECTATOR,
    REMATCH_TOO_EARLY,
    REMATCH_UNAVAILABLE,
    TAKE_BACK_NOTHING,
    TAKE_BACK_RATED,
    TAKE_BACK_SPECTATOR,
    TAKE_BACK_WITH_PEOPLE,
)

#: Makes the rematch of a finished table (the lobby's): the new table, with the same seats and rules.
MakeRematch = Callable[[Any], Awaitable[TableCore]]


class TakeBacks:
    """A player's moves taken back, at a table of computer players only (inside its actor)."""

    def __init__(self, table: TableCore, computers: Computers) -> None:
        self.t = table
        self.computers = computers

    def against_computers(self, seat: int) -> bool:
        return all(s.kind == "bot" for s in self.t.seats if s.index != seat)

    async def take_back(self, conn: Conn) -> int:
        """Undo back to this player's previous decision of the deal, at a table of computer players only.

        The event log is cut at the same place in the same transaction order, so a restarted server
        rebuilds the table as it is now.
        """
        t = self.t
        seat = conn.seat
        m = t.match
        if seat is None:
            raise WebError(TAKE_BACK_SPECTATOR)
        if not self.against_computers(seat):
            raise WebError(TAKE_BACK_WITH_PEOPLE)
        if t.rated:
            raise WebError(TAKE_BACK_RATED)
        if t.status == "over":
            raise WebError(MATCH_OVER)
        mine = [i for i in range(max(t.web.deal_start(), 0), len(m.history)) if t.actors[i] == seat]
        if not mine:
            raise WebError(TAKE_BACK_NOTHING)
        target, table_id = mine[-1], t.id
        await t.journal.run(lambda c: Store.truncate_events(c, table_id, target))
        undone = 0
        while len(m.history) > target:
            m.undo()
            t.actors.pop()
            undone += 1
        self.computers.scheduled = None
        t.recent[seat].clear()
        for c in t.connections():
            t.send_state(c, full=True)
        await t.advance()
        return undone


class Rematches:
    """The rematch of a finished match, asked for by one of its players (inside its actor)."""

    def __init__(self, table: TableCore, make: MakeRematch | None) -> None:
        self.t = table
        self.make = make

    async def rematch(self, conn: Conn) -> str:
        """After the match, a seated player asks for another with the same seats and rules."""
        t = self.t
        if conn.seat is None:
            raise WebError(REMATCH_SPECTATOR)
        if not t.match.is_over:
            raise WebError(REMATCH_TOO_EARLY)
        if t.rematch_id is None:
            if self.make is None:
                raise WebError(REMATCH_UNAVAILABLE)
            new = await self.make(t)
            t.rematch_id = new.id
            table_id, rid = t.id, new.id
            await t.journal.run(lambda c: Store.set_rematch(c, table_id, rid))
            t.send_all({"type": "rematch", "table": new.id})
            t.send_table()
        return t.rematch_id
