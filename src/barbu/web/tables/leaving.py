"""Leaving a table for good, and ending one, from the lobby's "My tables" (`barbu.web.tables.mine`).

A player who leaves before the start frees his seat; once the match is under way the stand-in plays his seat
to the end, as it plays for a player who went away, so the others finish their match.  The only person at a
table of computer players ends it instead: kept as a finished match if a deal was finished, else closed.
Either is stored before the answer, so a restarted server neither plays on nor counts it against the
per-address limits.
"""

from __future__ import annotations

import time
from typing import Any

from ...core.words import N_
from ..common.errors import WebError
from ..common.wording import lang_of, say
from .computers import Computers
from .core import TableCore, dumps
from .persistence import Persistence
from .refusals import ALONE_END_INSTEAD, OTHERS_LEAVE_INSTEAD
from .seats import Seating
from .timing import Timing


class Leaving:
    """A table's players leaving it for good, and its ending (inside its actor)."""

    def __init__(
        self, table: TableCore, seating: Seating, timing: Timing, computers: Computers, persistence: Persistence
    ) -> None:
        self.t = table
        self.seating, self.timing, self.computers, self.persistence = seating, timing, computers, persistence

    async def give_up(self, token: Any, creator: Any, user_id: Any = None, alone: bool = False) -> str:
        """A player leaves the table for good from the lobby: before the start his seat is free again
        ("freed"); once the match is under way the stand-in plays it to the end, as it plays for a player who
        went away ("stand_in").  The table no longer counts against its creator's address if he is the one
        leaving ("released": the creator without a seat).  A table of computer players is ended, not left
        (but at a duplicate event's table, ``alone``: the stand-in plays the round's deals to their end)."""
        t = self.t
        seat, made = self.seating.credited(token, creator, user_id)
        if t.started and not self.seating.people_besides(seat) and not alone:
            raise WebError(ALONE_END_INSTEAD)
        if made:
            t.creator_address = t.bot_address = None
            t.creator_addr = t.bots_addr = None
            await self.persistence.save_addresses()
        if seat is None:
            return "released"
        for c in seat.conns:
            c.send(
                dumps(
                    {
                        "type": "removed",
                        "seat": seat.index,
                        "message": say(lang_of(c), N_("you left this table: you are watching now")),
                    }
                )
            )
        if not t.started:
            await self.seating.free_seat(seat)
            return "freed"
        self.seating.to_spectators(seat)
        # his address stays with the seat: whom his result is not measured against (`barbu.ratings.fair`)
        seat.kind, seat.strength, seat.token_hash = "bot", t.settings.stand_in, None
        seat.left = True  # his seat stays his in the results: a rated match places him last
        seat.epoch += 1  # his grace timer does nothing now
        seat.agent, seat.away, seat.bank, seat.timeouts = None, False, None, 0
        t.recent[seat.index].clear()
        self.timing.release(seat.index)
        await self.persistence.save_seat(seat)
        t.send_table()
        if self.timing.clock is not None:
            self.timing.send()
        await t.advance()
        return "stand_in"

    async def end(self, token: Any, creator: Any, user_id: Any = None) -> bool:
        """The only person at a table of computer players ends it; True when its record is kept (as a finished
        match's, for its replay) because a deal was finished, False when nothing was (the table is closed).
        Either is stored, so a restarted server does not bring the table back into play."""
        t = self.t
        seat, _ = self.seating.credited(token, creator, user_id)
        if self.seating.people_besides(seat):
            raise WebError(OTHERS_LEAVE_INSTEAD)
        kept = t.web.deals_done() > 0
        status = "over" if kept else "expired"
        await self.persistence.set_status(status)
        t.status = t.stored_status = status
        self.timing.stop()
        self.computers.forget()  # a computer's move being thought is not made
        t.last_activity = time.monotonic()
        for c in t.connections():
            c.send(
                dumps(
                    {
                        "type": "notice",
                        "code": "ended",
                        "message": say(
                            lang_of(c),
                            N_("This match was ended from the lobby.")
                            if kept
                            else N_("This table was closed from the lobby."),
                        ),
                    }
                )
            )
        t.send_table()
        return kept
