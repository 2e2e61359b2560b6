"""A table's core: its state as stored, its inbox, and its voice to the connections.

Every change of a table goes through its inbox (`TableCore.call`, `TableCore.tell`) and runs one at a time,
so the match is never touched by two things at once.  The table's collaborators (`barbu.web.tables.seats`,
`timing`, `computers`, `leaving`, `rematch`, `persistence`) work on this core inside the actor; the table
itself (`barbu.web.tables.actor.Table`) puts them together and says who decides, what the table looks like
and how a move goes on (`controller`, `info`, `advance`, `after_move`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Protocol, Sequence, cast

import orjson

from ...agents import Agent
from ...core.chance import BoardChance
from ...core.errors import BarbuError
from ...core.game import CHANCE, Game
from ...games import game_kind, open_game
from ..common import logs, metrics
from ..common.errors import WebError
from ..common.mailbox import Mailbox
from ..common.settings import Settings
from ..common.wording import lang_of, say
from ..db.leases import Fenced
from ..db.storage import SeatRecord, TableRecord
from .games import WebGame, web_game
from .limited import Limited
from .refusals import RECORD_NOT_YET, TABLE_CLOSED
from .thinking import ThinkingPool

log = logging.getLogger("barbu.web")

RECENT_COMMANDS = 64  # command ids remembered per seat, to answer a repeated command without re-applying it

#: What the inbox holds: a coroutine function, its arguments, and the future of a caller waiting (None: told).
Letter = tuple[Callable[..., Awaitable[Any]], tuple[Any, ...], "asyncio.Future[Any] | None"]


class Conn(Protocol):
    """A connection as the table sees it: a seat (None for a spectator) and a non-blocking send."""

    seat: int | None

    def send(self, text: str) -> None: ...

    def close(self, code: int = 1000, reason: str = "") -> None: ...


class JournalLike(Protocol):
    def append(self, table_id: str, seq: int, actor: int, action: str) -> Awaitable[None]: ...

    def run(self, fn: Callable[[Any], Any]) -> Awaitable[Any]: ...


class PlayedGame(Game[Any, Any], Protocol):
    """A game as a table plays it: besides `barbu.core.game.Game`, the actions so far and an unkeyed chance draw."""

    @property
    def history(self) -> Sequence[Any]: ...

    def sample_chance(self) -> Any: ...


@dataclass
class Seat:
    index: int
    kind: str = "open"  # open, human, bot
    name: str = ""
    strength: str | None = None
    token_hash: str | None = None
    conns: set[Conn] = field(default_factory=set)
    away: bool = False  # a stand-in plays for the disconnected player
    epoch: int = 0  # bumped at every (re)connection: stale grace timers see it and do nothing
    agent: Agent | None = None
    bank: float | None = None  # seconds left in the time bank (tables with a clock)
    timeouts: int = 0  # times in a row the clock ran out on this seat
    address: str | None = None  # who took the seat (in memory only): the per-address seat limit, removals
    user_id: int | None = None  # the account seated here: it has the seat back from any browser
    left: bool = False  # its player gave it up during the match (a stand-in plays it; a rated match places him last)
    rating: dict[str, Any] | None = None  # the figure shown beside the name (given by the lobby)

    def record(self) -> SeatRecord:
        return SeatRecord(
            self.index,
            self.name,
            self.kind,
            self.strength,
            self.token_hash,
            self.bank,
            self.timeouts,
            self.user_id,
            self.left,
        )


def dumps(obj: Any) -> str:
    """Compact JSON text; orjson, because every move sends a message to every connection.

    A text orjson cannot write (a lone surrogate, which the edge refuses: `safejson.loads`) is written
    escaped instead, so a reply can never fail after a move was committed."""
    try:
        return orjson.dumps(obj).decode()
    except orjson.JSONEncodeError:
        return json.dumps(obj, separators=(",", ":"))


class TableCore:
    """One table's state, its inbox and what it sends; the actor (`barbu.web.tables.actor.Table`) builds on it."""

    # The lobby's pool: computer players think through it, in fair turns by the address that set the table up.
    thinking: ThinkingPool | None = None

    def __init__(self, record: TableRecord, journal: JournalLike, settings: Settings) -> None:
        self.id = record.id
        self.seed = record.seed  # secret: it seeds the computer players (and deals older tables)
        # The key of the deals (barbu.chance): never sent anywhere until the match is over.
        self.secret = bytes.fromhex(record.secret) if record.secret else None
        self.creator_hash = record.creator_hash
        self.bots_by = record.bots_by
        self.invite_hash = record.invite_hash  # set: a private table (not listed; seats with the invitation only)
        self.clock_text = record.clock  # "per_move+bank" seconds, as stored; None: no clock
        # The key of the computer players' seeds: drawn from `secrets`, independent of the deals' key and of
        # the seed, published with the record when the match is over.  Older tables have none (their seed).
        self.bots_secret = bytes.fromhex(record.bots_secret) if record.bots_secret else None
        self.touched = (record.touched_at or record.created_at).timestamp()  # wall clock: survives restarts
        self.bot_address: str | None = None  # the address that gave seats to computer players
        self.creator_address: str | None = None  # the address that created the table (in memory only)
        # The same two as stored (HMAC of the address), which the per-address limits count by: they survive a
        # restart or a takeover by another process.  ``hash_address`` is the lobby's HMAC.
        self.creator_addr, self.bots_addr = record.creator_addr, record.bots_addr
        self.hash_address: Callable[[str], str] | None = None
        self.barred: set[str] = set()  # addresses of players the creator removed: no seat here again
        self.status = record.status
        self.rematch_of = record.rematch_of
        self.rematch_id = record.rematch_id
        self.journal = journal
        self.settings = settings
        self.on_lost: Callable[[Any], None] | None = None  # told when another process has taken it over
        self.on_over: Callable[[Any], Awaitable[None]] | None = None  # the lobby writes results and ratings
        self.on_deal: Callable[[Any], None] | None = None  # a deal ended: the lobby tells an event's pages
        # a turn-based table waits for an account ("turn") or its time ran out ("timeout"): the lobby's e-mails
        self.on_turn: Callable[[Any, int, str], Awaitable[None]] | None = None
        # Any game of the house, reached through the `barbu.core.game.Game` protocol; `self.web` holds
        # what differs by game (the messages a connection is sent, its computer players, its record).
        self.match = cast(PlayedGame, open_game(record.rules, self.seed))
        self.rules = self.match.rules
        self.web: WebGame = web_game(self.match)
        self.actors: list[int] = []  # who took each action of the history (CHANCE for chance)
        # A duplicate event's table (`barbu.web.events.service`): deal k has the same cards at every table of its round,
        # whatever was played before, and the match ends after ``deal_limit`` deals.  The board counter is fed
        # every chance event of the log, so a table rebuilt after a restart draws the next ones alike.
        self.boards = BoardChance(self.secret) if record.boards and self.secret is not None else None
        self.deal_limit = record.deal_limit
        # An event's table whose director paused the event (`barbu.web.events.pausing`): {"at": ISO, "reason": …};
        # no move is taken, no clock runs, nothing is dealt until it is resumed.  ``paused_of`` reads it from the
        # event when the table is built here (after a restart, or taken over from another process).
        self.paused: dict[str, Any] | None = None
        self.paused_of: Callable[[str], Awaitable[dict[str, Any] | None]] | None = None
        if self.deal_limit is not None:  # it says the round's count, and ends with it (`limited`)
            self.web = Limited(self.web, self.deal_limit)
        for seq, actor, text in record.events:
            if seq != len(self.match.history):
                raise ValueError(f"table {self.id}: the event log skips from {len(self.match.history)} to {seq}")
            if self.boards is not None and self.match.to_act() == CHANCE:
                self.boards.node(self.match)
            self.match.apply(self.match.parse_action(text))
            self.actors.append(actor)
        self.seats = [Seat(i) for i in range(self.match.n)]
        for s in record.seats:
            seat = self.seats[s.seat]
            seat.kind, seat.name, seat.strength, seat.token_hash = s.kind, s.name, s.strength, s.token_hash
            seat.bank, seat.timeouts = s.bank, s.timeouts
            seat.user_id, seat.left = s.user_id, s.left
        self.rated = record.rated  # its result changes the ratings: people sit here only with an account
        self.club_id = record.club_id  # a club's table: a private club's is listed and seated for its members only
        self.turn_based = record.turn_based  # played over days: long clocks, nobody need be connected
        self.spectators: set[Conn] = set()
        self.recent: list[OrderedDict[str, dict[str, Any]]] = [OrderedDict() for _ in self.seats]
        self._inbox: Mailbox[Letter] | None = None
        self._task: asyncio.Task[None] | None = None
        self._timers: set[asyncio.TimerHandle] = set()
        self.closed = False
        self.stored_status = record.status  # the status the database holds
        self.last_activity = time.monotonic()  # a connection came or went, or a move was made

    # ------------------------------------------------------------------ the inbox
    def open_inbox(self) -> None:
        self._inbox = Mailbox()
        self._task = asyncio.get_running_loop().create_task(
            self._run(),
            name=f"table-{self.id}",
            context=logs.table_context(self.id),  # its log lines name it
        )

    async def stop(self) -> None:
        self.closed = True
        for t in self._timers:
            t.cancel()
        if self._task:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
        if self._inbox is not None:  # callers still waiting (a command sent as the table stopped) are answered
            for _, _, fut in self._inbox.take_all():
                if fut is not None and not fut.done():
                    fut.set_exception(WebError(TABLE_CLOSED))

    async def _run(self) -> None:
        assert self._inbox is not None
        while True:
            fn, args, fut = await self._inbox.get()
            try:
                result = await fn(*args)
            except asyncio.CancelledError:  # the table stopped: its caller is answered, never left waiting
                if fut is not None and not fut.done():
                    fut.set_exception(WebError(TABLE_CLOSED))
                raise
            except Exception as e:  # a request's error goes back to its caller; the table carries on
                if isinstance(e, Fenced):  # another process owns the table now: this actor stops here
                    self.fenced()
                if fut is not None and not fut.done():
                    fut.set_exception(e)
                elif not isinstance(e, (BarbuError, Fenced)):
                    log.exception("table %s: %s failed", self.id, getattr(fn, "__name__", fn))
            else:
                if fut is not None and not fut.done():
                    fut.set_result(result)

    async def call(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> Any:
        """Run ``fn(*args)`` in the actor and return its result."""
        if self._inbox is None or self.closed:
            raise WebError(TABLE_CLOSED)
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._inbox.put((fn, args, fut))
        return await fut

    def tell(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
        """Queue ``fn(*args)`` in the actor without waiting."""
        if self._inbox is not None and not self.closed:
            self._inbox.put((fn, args, None))

    def later(self, delay: float, fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
        """Queue ``fn(*args)`` in the actor after ``delay`` seconds (a timer the table cancels when it stops)."""
        if delay <= 0:
            self.tell(fn, *args)
            return
        loop = asyncio.get_running_loop()
        handle: asyncio.TimerHandle | None = None

        def fire() -> None:
            if handle is not None:
                self._timers.discard(handle)
            self.tell(fn, *args)

        handle = loop.call_later(delay, fire)
        self._timers.add(handle)

    def fenced(self) -> None:
        """Another process took the table over (this one was paused or cut off past its lease): stop
        acting, and send every connection to reconnect, which reaches the new owner."""
        if self.closed:
            return
        self.closed = True
        for t in self._timers:
            t.cancel()
        if self._task is not None:  # its actor ends too (left pending, it was destroyed with the table)
            self._task.cancel()
        for c in self.connections():
            c.close(1012, "the table moved to another server process")
        if self.on_lost is not None:
            self.on_lost(self)

    # ------------------------------------------------------------------ facts
    @property
    def version(self) -> int:
        """How many actions the match has had: the number a command must carry to be current."""
        return len(self.match.history)

    @property
    def started(self) -> bool:
        return self.status != "open"

    def humans_connected(self) -> bool:
        return any(s.kind == "human" and s.conns for s in self.seats)

    def limit_reached(self) -> bool:
        """An event's table has played the deals of its round."""
        return self.deal_limit is not None and self.web.deals_done() >= self.deal_limit

    def expired(self, now: float) -> bool:
        """Still waiting for players, nobody here, and no seat taken for `open_table_expiry` seconds."""
        limit = self.settings.open_table_expiry
        return limit > 0 and self.status == "open" and not self.connections() and now - self.touched > limit

    def idle_and_over(self, before: float) -> bool:
        """Finished, stored as finished, nobody here and nothing happening since ``before``."""
        return (
            self.status == "over"
            and self.stored_status == "over"
            and not self.connections()
            and self.last_activity < before
        )

    def record_lines(self) -> list[dict[str, Any]]:
        """The finished match's record, with the key that lets anyone check its deals."""
        if self.status != "over":
            raise WebError(RECORD_NOT_YET)
        header: dict[str, Any] = {"table": self.id}
        if self.secret is not None:
            header["chance"] = {"method": "hmac-sha256", "secret": self.secret.hex()}
            if self.boards is not None:  # an event's table: keyed by (deal, draw), `core.chance.verify_board_chance`
                header["chance"]["dealing"] = "boards"
        if self.bots_secret is not None:  # a computer player's seed: HMAC-SHA256(key, seat ‖ version), first 8 bytes
            header["computer_players"] = {"method": "hmac-sha256", "secret": self.bots_secret.hex()}
        lines: list[dict[str, Any]] = game_kind(str(self.rules)).record_lines(self.match, header)
        return lines

    def summary(self) -> dict[str, Any]:
        """For the lobby's list of tables."""
        return {
            "id": self.id,
            "rules": str(self.rules),
            "players": self.match.n,
            "status": self.status,
            "private": self.invite_hash is not None,
            "rated": self.rated,
            "club_id": self.club_id,
            "turn_based": self.turn_based,
            "seats": [
                {
                    "kind": s.kind,
                    "name": s.name,
                    "strength": s.strength,
                    "account": s.user_id is not None and not s.left,
                    "rating": s.rating,
                }
                for s in self.seats
            ],
            "open_seats": sum(1 for s in self.seats if s.kind == "open"),
            "spectators": len(self.spectators),
            **self.web.summary(),
        }

    # ------------------------------------------------------------------ what the table itself decides
    def info(self) -> dict[str, Any]:
        """Public facts about the table (`barbu.web.tables.actor.Table.info`)."""
        raise NotImplementedError

    def controller(self, seat: int) -> str:
        """Who decides for a seat now (`barbu.web.tables.actor.Table.controller`)."""
        raise NotImplementedError

    async def advance(self) -> None:
        """Play on: chance, a computer player's turn, or wait for a person (`barbu.web.tables.actor.Table`)."""
        raise NotImplementedError

    def after_move(self, actor: int, action: Any) -> None:
        """Send every connection its own view of a move just made (`barbu.web.tables.actor.Table`)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ sending
    def connections(self) -> list[Conn]:
        out = list(self.spectators)
        for s in self.seats:
            out.extend(s.conns)
        return out

    def send_state(self, conn: Conn, full: bool = False) -> None:
        conn.send(dumps({"type": "state", "state": self.web.state(conn.seat, full=full, actors=self.actors)}))

    def send_to_seat(self, seat: int, msg: dict[str, Any]) -> None:
        """A message for one seat's own connections (never its watchers)."""
        text = dumps(msg)
        for c in list(self.seats[seat].conns):
            c.send(text)

    def send_all(self, msg: dict[str, Any], skip: Conn | None = None) -> None:
        text = dumps(msg)
        for c in self.connections():
            if c is not skip:
                c.send(text)

    def send_table(self, skip: Conn | None = None) -> None:
        """The table's public facts (`info`) to every connection."""
        self.send_all({"type": "table", "table": self.info()}, skip)

    @staticmethod
    def error(conn: Conn, code: str, template: str, cid: Any = None, **fields: Any) -> None:
        """The server's own message ``template`` (marked N_), worded in the connection's language."""
        metrics.refused(code)
        msg: dict[str, Any] = {"type": "error", "code": code, "message": say(lang_of(conn), template, **fields)}
        if cid is not None:
            msg["id"] = cid
        conn.send(dumps(msg))
