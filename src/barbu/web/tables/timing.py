"""The clock's work at a table (its rules are `barbu.web.tables.clock`), and a turn-based table's waiting.

A person's decision is timed only while the table waits for him and he is connected (`Timing.wait`, from
the table's `advance`); the pause between deals, the computers' turns and a disconnected player's grace
period start no clock.  When the time runs out, the table's `controller` hands that decision to the
stand-in, which plays it through the computer players' own path; a seat that keeps running out is played by
the stand-in at once until its player acts or says he is back.  A seat's bank and timeouts are stored when
they change: a timeout, a return, or a decision that drew on the bank (a decision within its allowance, the
common case, writes nothing more than its move).

A turn-based table stores whose decision is awaited and since when (`Timing.note_turn`): the player's
"your turn" list reads it, the clock resumes from it after a restart, and he may be told by e-mail.

A real-time table rebuilt by another process (a takeover after kill -9, a SIGTERM hand-over) or after a
restart does not give the decision it waits for its full allowance again: the decision has run since the
last action stored (the journal's own time of it, `Timing.recall`), so it goes on from the seat's stored bank
less that time, leaving the player at least `TAKEOVER_MARGIN` seconds to send his move to the new owner.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timezone
from typing import Any

from ...core.words import N_
from ..common.errors import WebError
from ..common.wording import lang_of, say
from ..db.leases import Fenced
from ..db.storage import EVENTS, Store, TableRecord
from .clock import Clock, Turn, is_away
from .computers import Computers
from .core import Conn, Seat, TableCore, dumps
from .persistence import Persistence
from .refusals import NO_SEAT_HERE

log = logging.getLogger("barbu.web")

TAKEOVER_MARGIN = 5.0  # seconds a decision timed across a takeover keeps at least, to reach the new owner


class Timing:
    """A table's clock and whose turn it is (inside its actor)."""

    def __init__(self, table: TableCore, record: TableRecord, persistence: Persistence, computers: Computers) -> None:
        self.t = table
        self.persistence = persistence
        self.computers = computers
        # The clock: the decision being timed, and the decision the stand-in plays because its time ran out, as
        # (seat, version).  A new match (a rematch copies its seats) starts with every bank full.
        self.clock = Clock.stored(table.clock_text)
        self.turn: Turn | None = None
        self.epoch = 0  # bumped at every start of a timer: an older timer sees it and does nothing
        self.stood_in: tuple[int, int] | None = None
        if not record.events:
            for seat in table.seats:
                seat.bank, seat.timeouts = None, 0
        # A turn-based table's decision awaited: (seat, version), and since when (wall clock, stored with the
        # account it waits for, so that the clock and the "your turn" lists survive a restart or a takeover).
        self.turn_since: float | None = record.turn_since.timestamp() if record.turn_since else None
        self.turn_key: tuple[int, int] | None = None
        self.waiting_for: int | None = None
        # A table rebuilt from its journal: (version, wall-clock time its last action was stored), the decision
        # of that version having run since then (`recall`); None once used, or for a new table.
        self.resumed: tuple[int, float] | None = None

    # ------------------------------------------------------------------ what the clock says
    def stands_in(self, s: Seat) -> bool:
        """Whether the stand-in plays this person's decision: his time ran out on it, or he is away by the clock."""
        return self.clock is not None and (is_away(s.timeouts) or self.stood_in == (s.index, self.t.version))

    def bank(self, s: Seat) -> float:
        assert self.clock is not None
        return self.clock.bank if s.bank is None else s.bank

    def info(self) -> dict[str, Any] | None:
        """The clock as everyone at the table may see it: its allowance, each person's bank, whose clock runs."""
        if self.clock is None:
            return None
        t = self.t
        turn = self.turn if self.turn is not None and self.turn.version == t.version else None
        return {
            "text": str(self.clock),
            "per_move": self.clock.per_move,
            "bank": self.clock.bank,
            "banks": [round(self.bank(s), 1) if s.kind == "human" else None for s in t.seats],
            "away": [s.index for s in t.seats if s.kind == "human" and is_away(s.timeouts)],
            "turn": turn.public(time.monotonic()) if turn is not None else None,
        }

    def send(self) -> None:
        self.t.send_all({"type": "clock", "clock": self.info()})

    # ------------------------------------------------------------------ a decision timed
    def wait(self, seat: int) -> None:
        """The table waits for a person: his clock runs while he is connected, and stands still otherwise."""
        t = self.t
        s = t.seats[seat]
        if self.clock is None or s.kind != "human":
            return
        now = time.monotonic()
        turn = self.turn
        if turn is None or turn.version != t.version or turn.seat != seat:
            turn = self.turn = Turn(seat, t.version, self.clock.per_move, self.bank(s))
            if t.turn_based and self.turn_since is not None:  # days: counted on the wall clock, restarts too
                turn.spent = max(0.0, time.time() - self.turn_since)
            elif self.resumed is not None and self.resumed[0] == t.version:  # taken over: not a full allowance
                most = max(0.0, turn.per_move + turn.bank - TAKEOVER_MARGIN)
                turn.spent = min(max(0.0, time.time() - self.resumed[1]), most)
            self.resumed = None
        run = t.controller(seat) == "human"
        if run == turn.running():
            return
        if run:
            turn.resume(now)
            self.epoch += 1
            t.later(turn.left(now), self._out, seat, turn.version, self.epoch)
        else:
            turn.pause(now)
        self.send()

    async def _out(self, seat: int, version: int, epoch: int) -> None:
        """A timer ran out: if the decision is still awaited, the stand-in plays it and everyone is told."""
        t = self.t
        turn = self.turn
        if (
            epoch != self.epoch
            or turn is None
            or not turn.running()
            or turn.seat != seat
            or turn.version != version
            or version != t.version
            or t.match.to_act() != seat
        ):
            return
        now = time.monotonic()
        if not turn.expired(now):  # a timer may fire a little early
            t.later(turn.left(now), self._out, seat, version, epoch)
            return
        s = t.seats[seat]
        self.turn = None
        self.stood_in = (seat, version)
        s.bank = 0.0
        s.timeouts += 1
        await self.store(s)
        self._notice(s)
        self.send()
        if t.turn_based and s.user_id is not None and t.on_turn is not None:
            await t.on_turn(t, s.user_id, "timeout")  # he is told, wherever he is
        # The stand-in plays now (his time is already spent), through the computer players' own path.
        self.computers.play_soon(0.0)

    async def recall(self) -> None:
        """A table rebuilt from its journal (a takeover, a restart): when its last action was stored, from which the
        decision it waits for has run (read once, before the table plays on)."""
        t = self.t
        if self.clock is None or t.turn_based or not t.actors:
            return
        table_id, version = t.id, t.version

        def last(conn: Any) -> datetime | None:
            q = EVENTS.select().with_only_columns(EVENTS.c.created_at).where(EVENTS.c.table_id == table_id)
            return conn.execute(q.order_by(EVENTS.c.seq.desc()).limit(1)).scalar()

        try:
            at = await t.journal.run(last)
        except Fenced:
            raise
        except Exception:  # the database is away a moment: this decision gets its full allowance
            log.warning("table %s: could not read when its last action was stored", t.id)
            return
        if at is not None and t.version == version:
            self.resumed = (version, (at if at.tzinfo else at.replace(tzinfo=timezone.utc)).timestamp())

    async def moved(self, seat: int) -> None:
        """A person decided: his bank pays for the time beyond the allowance, and he is no longer away."""
        if self.clock is None:
            return
        s = self.t.seats[seat]
        turn, self.turn = self.turn, None
        changed = s.timeouts != 0
        s.timeouts = 0
        if turn is not None and turn.seat == seat and turn.version == self.t.version - 1:
            bank = turn.bank_left(time.monotonic())
            if bank < self.bank(s):
                s.bank, changed = bank, True
        if changed:
            await self.store(s)
            self.send()

    async def come_back(self, conn: Conn) -> None:
        """A player the stand-in plays for because his time ran out says he is back: he decides again."""
        if conn.seat is None:
            raise WebError(NO_SEAT_HERE)
        s = self.t.seats[conn.seat]
        changed = self.stood_in is not None and self.stood_in[0] == s.index
        if changed:
            self.stood_in = None
        if s.timeouts:
            s.timeouts, changed = 0, True
            await self.store(s)
        if changed:  # a repeated "back" changes nothing and sends nothing
            self.send()
            await self.t.advance()

    def release(self, seat: int) -> None:
        """A seat is the stand-in's for good (its player left): its clock stops, nothing is stood in for it."""
        if self.turn is not None and self.turn.seat == seat:  # his clock stops: the stand-in plays at once
            self.turn, self.epoch = None, self.epoch + 1
        if self.stood_in is not None and self.stood_in[0] == seat:
            self.stood_in = None

    def stop(self) -> None:
        """The table was ended: no clock runs any more."""
        self.turn, self.epoch, self.stood_in = None, self.epoch + 1, None

    async def store(self, s: Seat) -> None:
        """Store a seat's bank and timeouts; a failing database costs the clock's memory, not the table."""
        try:
            await self.persistence.save_seat(s)
        except Exception:
            log.warning("table %s: could not store the clock of seat %s", self.t.id, s.index)

    def _notice(self, s: Seat) -> None:
        """Tell everyone, each in his language, that the stand-in plays for a seat whose time ran out."""
        away = is_away(s.timeouts)
        for c in self.t.connections():
            if c.seat == s.index:
                text = say(
                    lang_of(c),
                    N_("Your time ran out again: the computer plays for you until you are back.")
                    if away
                    else N_("Your time ran out: the computer plays this move for you."),
                )
            else:
                text = say(
                    lang_of(c),
                    N_("Time ran out again: the computer plays for {name} until they are back.")
                    if away
                    else N_("Time ran out: the computer plays for {name}."),
                    name=s.name,
                )
            c.send(
                dumps(
                    {"type": "notice", "code": "clock_away" if away else "clock_out", "seat": s.index, "message": text}
                )
            )

    # ------------------------------------------------------------------ a turn-based table's waiting
    async def note_turn(self, seat: int | None) -> None:
        """At a turn-based table, store whose decision is awaited and since when (once per decision): the
        player's "your turn" list reads it, the clock resumes from it after a restart, and he may be told."""
        t = self.t
        if not t.turn_based:
            return
        key = (seat, t.version) if seat is not None else None
        if key == self.turn_key:
            return
        first = self.turn_key is None and seat is not None and self.turn_since is not None
        self.turn_key = key
        if not first:  # after a restart the decision awaited is the one stored, since the moment stored
            self.turn_since = time.time() if seat is not None else None
        user = t.seats[seat].user_id if seat is not None and t.seats[seat].kind == "human" else None
        if first and user == self.waiting_for:
            return
        self.waiting_for = user
        since = datetime.fromtimestamp(self.turn_since, timezone.utc) if self.turn_since is not None else None
        table_id = t.id
        try:
            await t.journal.run(lambda c: Store.set_turn(c, table_id, user, since))
        except Fenced:
            raise
        except Exception:  # the list is late by one move; the table plays on
            log.warning("table %s: could not store whose turn it is", t.id)
        if user is not None and seat is not None and not first and t.on_turn is not None and not t.seats[seat].conns:
            await t.on_turn(t, user, "turn")
