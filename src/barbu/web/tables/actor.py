"""One table: an actor that owns its match, its seats and its connections.

Every change goes through the table's inbox and runs one at a time, so the
match is never touched by two things at once.  A command is handled in this
order: the seat's credential (checked when the connection said hello) → a
command already applied is answered again, not re-applied → it is the seat's
turn → the action is for the current version of the table (not stale) → it
parses and is legal → apply → append to the event log and wait for the commit
→ acknowledge → send each connection its own seat's view.  Chance and the
computer players go through the same path.  A seat whose player has left is
played by a stand-in after a grace period, while someone is still at the
table, and handed back when he returns.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import random
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Awaitable, Callable, Protocol

import orjson

from ...agents import AGENT_KINDS, Agent
from ...core.chance import BoardChance, keyed_chance
from ...core.errors import AgentError, BarbuError, IllegalAction
from ...core.safejson import is_unicode
from ...core.words import N_, NN_
from ...core.game import CHANCE
from ...games import game_kind, open_game
from ...i18n.typed import parse_typed
from .clock import Clock, ClockError, Turn, is_away, parse as parse_clock, parse_turn_based
from .games import web_game
from ..db.leases import Fenced
from ..common.mailbox import Mailbox
from ..common.settings import Settings
from .shadow import TableShadow
from .thinking import Thought, ThinkingPool
from ..common.errors import WebError
from ..common.wording import lang_of, refusal, say
from ..db.storage import SeatRecord, Store, TableRecord, hash_token

log = logging.getLogger("barbu.web")

NAME_MAX = 24
RECENT_COMMANDS = 64  # command ids remembered per seat, to answer a repeated command without re-applying it
CALM_AFTER = 4  # computer moves thought at leisure in a row before the table is told the server is less busy
_THINKING: set[asyncio.Task] = set()  # computer players' decisions being thought, held until they end


class Conn(Protocol):
    """A connection as the table sees it: a seat (None for a spectator) and a non-blocking send."""

    seat: int | None

    def send(self, text: str) -> None: ...

    def close(self, code: int = 1000, reason: str = "") -> None: ...


class JournalLike(Protocol):
    def append(self, table_id: str, seq: int, actor: int, action: str) -> Awaitable[None]: ...

    def run(self, fn: Callable[[Any], Any]) -> Awaitable[Any]: ...


#: The web's one error type, by the name the tables' code knew it by (`barbu.web.common.errors.WebError`).
TableError = WebError


@dataclass
class Seat:
    index: int
    kind: str = "open"  # open, human, bot
    name: str = ""
    strength: str | None = None
    token_hash: str | None = None
    conns: set = field(default_factory=set)
    away: bool = False  # a stand-in plays for the disconnected player
    epoch: int = 0  # bumped at every (re)connection: stale grace timers see it and do nothing
    agent: Agent | None = None
    bank: float | None = None  # seconds left in the time bank (tables with a clock)
    timeouts: int = 0  # times in a row the clock ran out on this seat
    address: str | None = None  # who took the seat (in memory only): the per-address seat limit, removals
    user_id: int | None = None  # the account seated here: it has the seat back from any browser
    left: bool = False  # its player gave it up during the match (a stand-in plays it; a rated match places him last)
    rating: dict | None = None  # the figure shown beside the name (`barbu.web.profiles.history.seat_ratings`)

    def record(self) -> SeatRecord:
        return SeatRecord(self.index, self.name, self.kind, self.strength, self.token_hash, self.bank, self.timeouts,
                          self.user_id, self.left)


def clean_name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip():
        raise TableError(N_("choose a display name"))
    name = " ".join(name.split())
    if len(name) > NAME_MAX:
        raise TableError(N_("a display name has at most {n} characters"), n=NAME_MAX)
    if any(not ch.isprintable() for ch in name):
        raise TableError(N_("a display name may hold only printable characters"))
    return name


_COMPUTER_WORDS = ("bot", "computer", "cpu", "robot", "ai", "standin")


def poses_as_computer(name: str) -> bool:
    """A person's name that could be read as a computer player's ("Bot 1", "Computer", "search")."""
    folded = name.casefold()
    first = folded.replace("-", " ").replace("_", " ").replace("(", " ").split()
    return (folded in AGENT_KINDS or (bool(first) and first[0] in _COMPUTER_WORDS)
            or any(f"({kind})" in folded for kind in AGENT_KINDS))


def dumps(obj: Any) -> str:
    """Compact JSON text; orjson, because every move sends a message to every connection.

    A text orjson cannot write (a lone surrogate, which the edge refuses: `safejson.loads`) is written
    escaped instead, so a reply can never fail after a move was committed."""
    try:
        return orjson.dumps(obj).decode()
    except orjson.JSONEncodeError:
        return json.dumps(obj, separators=(",", ":"))


def requested_clock(value: Any, turn_based: bool = False) -> str | None:
    """The clock a table-creation request asks for, in its stored form (None: no clock); refused in words.
    A turn-based table always has one, in hours or days."""
    try:
        clock = parse_turn_based(value) if turn_based else parse_clock(value)
    except ClockError as e:
        raise TableError(e.template, **e.fields) from None
    return None if clock is None else str(clock)


class Table:
    """The actor of one table."""

    def __init__(self, record: TableRecord, journal: JournalLike, settings: Settings,
                 on_rematch: Callable[["Table"], Awaitable["Table"]] | None = None) -> None:
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
        self.on_rematch = on_rematch
        self.on_lost: Callable[["Table"], None] | None = None  # told when another process has taken it over
        # Any game of the house, reached through the `barbu.core.game.Game` protocol; `self.web` holds
        # what differs by game (the messages a connection is sent, its computer players, its record).
        self.match = open_game(record.rules, self.seed)
        self.rules = self.match.rules
        self.web = web_game(self.match)
        self.actors: list[int] = []  # who took each action of the history (CHANCE for chance)
        # A duplicate event's table (`barbu.web.events.service`): deal k has the same cards at every table of its round,
        # whatever was played before, and the match ends after ``deal_limit`` deals.  The board counter is fed
        # every chance event of the log, so a table rebuilt after a restart draws the next ones alike.
        self.boards = BoardChance(self.secret) if record.boards and self.secret is not None else None
        self.deal_limit = record.deal_limit
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
        # A turn-based table's decision awaited: (seat, version), and since when (wall clock, stored with the
        # account it waits for, so that the clock and the "your turn" lists survive a restart or a takeover).
        self.turn_since: float | None = record.turn_since.timestamp() if record.turn_since else None
        self._turn_key: tuple[int, int] | None = None
        self._waiting_for: int | None = None
        self.on_turn: Callable[["Table", int, str], Awaitable[None]] | None = None  # the lobby's e-mails
        self.on_over: Callable[["Table"], Awaitable[None]] | None = None  # the lobby writes results and ratings
        self.on_deal: Callable[["Table"], None] | None = None  # a deal ended: the lobby tells an event's pages
        # The clock (barbu.web.tables.clock): the decision being timed, and the decision the stand-in plays
        # because its time ran out, as (seat, version).  A new match (a rematch copies its seats) starts
        # with every bank full.
        self.clock = Clock.stored(self.clock_text)
        self.turn: Turn | None = None
        self._clock_epoch = 0  # bumped at every start of a timer: an older timer sees it and does nothing
        self._stood_in: tuple[int, int] | None = None
        if not record.events:
            for seat in self.seats:
                seat.bank, seat.timeouts = None, 0
        self.spectators: set[Conn] = set()
        self.recent: list[OrderedDict[str, dict[str, Any]]] = [OrderedDict() for _ in self.seats]
        self._inbox: Mailbox[tuple[Callable[..., Awaitable[Any]], tuple, asyncio.Future | None]] | None = None
        self._task: asyncio.Task | None = None
        self._timers: set[asyncio.TimerHandle] = set()
        self._scheduled: int | None = None  # the version a computer turn is already scheduled for
        self._results_sent = self.web.deals_done()
        self.closed = False
        self.stored_status = record.status  # the status the database holds
        self.last_activity = time.monotonic()  # a connection came or went, or a move was made
        self.shadow = TableShadow(self)  # one person against computer players: each deal replayed by the expert

    # ------------------------------------------------------------------ the actor
    def start(self) -> None:
        self._inbox = Mailbox()
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.id}")
        for seat in self.seats:  # after a restart nobody is connected yet
            if seat.kind == "human" and not self.turn_based:
                self._start_grace(seat)
        self.tell(self._advance)
        self.shadow.catch_up()  # after a restart: the deals not compared yet

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

    async def _run(self) -> None:
        assert self._inbox is not None
        while True:
            fn, args, fut = await self._inbox.get()
            try:
                result = await fn(*args)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # a request's error goes back to its caller; the table carries on
                if isinstance(e, Fenced):  # another process owns the table now: this actor stops here
                    self._fenced()
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
            raise TableError(N_("this table is closed"), 503)
        fut = asyncio.get_running_loop().create_future()
        self._inbox.put((fn, args, fut))
        return await fut

    def tell(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
        """Queue ``fn(*args)`` in the actor without waiting."""
        if self._inbox is not None and not self.closed:
            self._inbox.put((fn, args, None))

    def _later(self, delay: float, fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
        if delay <= 0:
            self.tell(fn, *args)
            return
        loop = asyncio.get_running_loop()
        handle: asyncio.TimerHandle | None = None

        def fire() -> None:
            self._timers.discard(handle)  # type: ignore[arg-type]
            self.tell(fn, *args)
        handle = loop.call_later(delay, fire)
        self._timers.add(handle)

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

    def controller(self, seat: int) -> str:
        """Who decides for a seat now: 'human', 'bot' (a computer player or a stand-in) or 'wait'."""
        s = self.seats[seat]
        if s.kind == "bot":
            return "bot"
        if self.turn_based and s.kind == "human":  # nobody need be here: the clock alone hands a move over
            return "bot" if self.clock_stands_in(s) else "human"
        # away past his grace: the stand-in plays while others are here (at an event's table, even if nobody is:
        # the round must end for every table)
        if s.kind == "human" and s.away and not s.conns and (self.humans_connected() or self.boards is not None):
            return "bot"
        if s.kind == "human" and s.conns and self.clock_stands_in(s):
            return "bot"
        return "human" if s.conns else "wait"

    def info(self) -> dict[str, Any]:
        """Public facts about the table: never credentials, never the seed."""
        return {
            "id": self.id, "rules": str(self.rules), "players": self.match.n, "status": self.status,
            "private": self.invite_hash is not None, "rated": self.rated, "club_id": self.club_id,
            "turn_based": self.turn_based,
            "seats": [{"seat": s.index, "kind": s.kind, "name": s.name, "strength": s.strength,
                       "connected": bool(s.conns) if s.kind == "human" else s.kind == "bot",
                       "away": s.away and s.kind == "human" and not s.conns,
                       "account": s.user_id is not None and not s.left, "left": s.left,
                       "rating": s.rating} for s in self.seats],
            "spectators": len(self.spectators), "version": self.version,
            "rematch_id": self.rematch_id, "rematch_of": self.rematch_of, "strengths": self.settings.strengths(),
            "default_strength": self.settings.stand_in,  # the seat menus' first choice: a middling player
            "clock": self.clock_info(),
            "compare": self.shadow.offered() is not None,  # one person against computer players: the expert's box
            **self.web.info(),
        }

    # ------------------------------------------------------------------ seats (HTTP requests)
    async def take_seat(self, seat: int, name: Any, invite: Any = None, address: str | None = None,
                        creator: Any = None, user: tuple[int, str] | None = None) -> str:
        """Seat a guest, or a logged-in player (``user``: his account's id and name, which is the name he
        plays under); returns the seat's credential, which is given out only this once.

        A private table seats only the holders of its invitation's secret.  The creator (his address or
        his credential) may seat anyone; anyone else may not come back once removed, and at a listed
        table one address holds at most ``seats_per_address`` seats, so a stranger cannot fill it alone."""
        if self.invite_hash is not None and not self.is_creator(creator):
            if invite is None or invite == "":
                raise TableError(N_("this table is private: take a seat through the invitation link its creator "
                                    "shared"), 403)
            if not isinstance(invite, str) or len(invite) > 200 or not secrets.compare_digest(
                    hash_token(invite.encode("utf-8", "replace").decode()), self.invite_hash):
                raise TableError(N_("this invitation is not valid for this table: ask its creator for the link "
                                    "again"), 403)
        s = self._open_seat(seat)
        if user is not None:
            name = user[1]
            if any(o.user_id == user[0] for o in self.seats):
                raise TableError(N_("you already have a seat at this table"), 409)
        elif self.rated:
            raise TableError(N_("this table is rated: log in (or make an account) to take a seat"), 403)
        name = clean_name(name)
        own = address is None or address == self.creator_address or self.is_creator(creator)
        if not own and address in self.barred:
            raise TableError(N_("the creator of this table removed you from it: you cannot take a seat here "
                                "again"), 403)
        cap = self.settings.seats_per_address
        if not own and self.invite_hash is None and cap > 0:
            held = sum(1 for o in self.seats if o.kind == "human" and o.address == address)
            if held >= cap:
                raise TableError(NN_("at a listed table one address may hold {n} seat; for friends who share "
                                     "a connection, create a private table and send them its invitation",
                                     "at a listed table one address may hold {n} seats; for friends who share "
                                     "a connection, create a private table and send them its invitation"),
                                 429, n=cap)
        if poses_as_computer(name):
            raise TableError(N_("the name '{name}' is kept for computer players; choose another"), name=name)
        if any(o.kind == "human" and o.name.casefold() == name.casefold() for o in self.seats):
            raise TableError(N_("{name} is already at this table; choose another name"), name=name)
        token = secrets.token_urlsafe(24)
        s.kind, s.name, s.strength, s.token_hash = "human", name, None, hash_token(token)
        s.address, s.user_id, s.left = address, user[0] if user else None, False
        await self._save_seat(s)
        self.touched = time.time()
        await self.journal.run(lambda conn: Store.touch(conn, self.id))
        self._start_grace(s)
        await self._seats_changed()
        return token

    def is_creator(self, token: Any) -> bool:
        """Whether ``token`` is this table's creator's credential."""
        if not isinstance(token, str) or not token or len(token) > 200 or self.creator_hash is None:
            return False
        return secrets.compare_digest(hash_token(token.encode("utf-8", "replace").decode()), self.creator_hash)

    async def remove_player(self, seat: Any, token: Any) -> None:
        """Before the match starts, the table's creator frees a seat, a person's or a computer player's.

        The removed person's connections watch from then on and are told so in their language; his
        credential holds no seat any more and his address may not take one here again."""
        if not self.is_creator(token):
            raise TableError(N_("only the player who created this table may remove a player"), 403)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.seats):
            raise TableError(N_("there is no seat {seat}: seats are 0 to {last}"), seat=repr(seat)[:40],
                             last=len(self.seats) - 1)
        if self.started:
            raise TableError(N_("the match has started: nobody can be removed from it now"), 409)
        s = self.seats[seat]
        if s.kind == "open":
            raise TableError(N_("seat {seat} is free: there is nobody to remove"), 409, seat=seat)
        if s.kind == "human" and s.address is not None and s.address != self.creator_address:
            self.barred.add(s.address)
        for c in list(s.conns):
            c.seat = None
            self.spectators.add(c)
            c.send(dumps({"type": "removed", "seat": seat, "message": say(
                lang_of(c), N_("the creator of this table removed you from seat {seat}: you are watching now"),
                seat=seat)}))
        s.conns.clear()
        s.epoch += 1  # a grace timer running for the seat does nothing now
        s.kind, s.name, s.strength, s.token_hash, s.address = "open", "", None, None, None
        s.agent, s.away = None, False
        self.recent[seat].clear()
        await self.journal.run(lambda c: Store.clear_seat(c, self.id, seat))
        self._send_all({"type": "table", "table": self.info()})
        for c in self.spectators:
            self._send_state(c, full=True)

    def may_add_bots(self, token: Any) -> bool:
        """The table's creator, or (if the table says so) any seated player, may seat computer players."""
        if not isinstance(token, str) or len(token) > 200:
            return False
        h = hash_token(token)
        if self.creator_hash is not None and secrets.compare_digest(h, self.creator_hash):
            return True
        return self.bots_by == "seated" and any(
            s.kind == "human" and s.token_hash and secrets.compare_digest(h, s.token_hash) for s in self.seats)

    async def add_bot(self, seat: int, strength: Any, token: Any = None, address: str | None = None) -> None:
        if not self.may_add_bots(token):
            if self.bots_by == "creator":
                raise TableError(N_("only the player who created this table may give seats to computer players"), 403)
            raise TableError(N_("only the player who created this table or a seated player may give seats to "
                                "computer players"), 403)
        s = self._open_seat(seat)
        if strength not in self.settings.strengths():
            raise TableError(N_("unknown computer player '{strength}'; choose from: {strengths}"),
                             strength=str(strength)[:40], strengths=", ".join(self.settings.strengths()))
        if strength not in AGENT_KINDS:  # an operator's own player: check it plays this game
            try:
                self.web.agent(self.settings.player_spec(strength), 0)
            except AgentError as e:
                raise TableError(N_("{strength}: {error}"), strength=strength, error=str(e)) from None
        if self.bot_address is None:
            self.bot_address = address
        if self.bots_addr is None and address is not None and self.hash_address is not None:
            self.bots_addr = self.hash_address(address)
            await self._save_addresses()
        # The stored name, seen in records and replays (seats counted from 1); a table's page names a computer
        # player by where it sits from the reader's chair ("West, computer (good player)").
        s.kind, s.name, s.strength, s.token_hash = "bot", f"Computer, seat {seat + 1}", strength, None
        await self._save_seat(s)
        await self._seats_changed()

    def _open_seat(self, seat: Any) -> Seat:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.seats):
            raise TableError(N_("there is no seat {seat}: seats are 0 to {last}"), seat=repr(seat)[:40],
                             last=len(self.seats) - 1)
        if self.started:
            raise TableError(N_("the match has started: every seat is taken"), 409)
        s = self.seats[seat]
        if s.kind != "open":
            raise TableError(N_("seat {seat} is taken"), 409, seat=seat)
        return s

    async def _save_seat(self, s: Seat) -> None:
        rec = s.record()
        await self.journal.run(lambda conn: Store.set_seat(conn, self.id, rec))

    async def _seats_changed(self) -> None:
        if not self.started and all(s.kind != "open" for s in self.seats):
            self.status = "playing"
            await self.journal.run(lambda conn: Store.set_status(conn, self.id, "playing"))
            self.stored_status = "playing"
        self._send_all({"type": "table", "table": self.info()})
        await self._advance()

    async def leave_seat(self, conn: Conn) -> None:
        """Before the match starts, a player may give his seat up."""
        if conn.seat is None:
            raise TableError(N_("you have no seat here"))
        if self.started:
            raise TableError(N_("the match has started: your seat is yours until it ends"))
        await self._free_seat(self.seats[conn.seat])

    async def _free_seat(self, s: Seat) -> None:
        """Before the match starts, a seat's player gives it up: it is free again, his connections watch."""
        self._to_spectators(s)
        s.kind, s.name, s.strength, s.token_hash, s.address = "open", "", None, None, None
        s.user_id, s.left, s.rating = None, False, None
        await self.journal.run(lambda c: Store.clear_seat(c, self.id, s.index))
        self._send_all({"type": "table", "table": self.info()})
        for c in self.spectators:
            self._send_state(c, full=True)

    def _to_spectators(self, s: Seat) -> None:
        for c in list(s.conns):
            c.seat = None
            self.spectators.add(c)
        s.conns.clear()

    # ------------------------------------------------------------------ the lobby's "My tables" (barbu.web.tables.mine)
    def holder(self, token: Any) -> Seat | None:
        """The person's seat ``token`` is the credential of, else None."""
        if not isinstance(token, str) or not token or len(token) > 200:
            return None
        h = hash_token(token.encode("utf-8", "replace").decode())
        return next((s for s in self.seats if s.kind == "human" and s.token_hash
                     and secrets.compare_digest(s.token_hash, h)), None)

    def seat_of(self, user_id: Any) -> Seat | None:
        """The seat a logged-in account holds here (it plays it from any browser), else None."""
        if not isinstance(user_id, int) or isinstance(user_id, bool):
            return None
        return next((s for s in self.seats if s.kind == "human" and s.user_id == user_id), None)

    def people_besides(self, seat: Seat | None) -> bool:
        """Whether a person other than ``seat``'s holds a seat here (then the table may be left, not ended)."""
        return any(s.kind == "human" and s is not seat for s in self.seats)

    def _credited(self, token: Any, creator: Any, user_id: Any = None) -> tuple[Seat | None, bool]:
        """The caller's seat (by its credential, or his account's) and whether he created the table; refused
        if he holds neither."""
        seat, made = self.holder(token) or self.seat_of(user_id), self.is_creator(creator)
        if seat is None and not made:
            raise TableError(N_("these credentials hold no seat at this table and did not create it"), 403)
        if self.status == "over":
            raise TableError(N_("the match is over"), 409)
        return seat, made

    async def give_up(self, token: Any, creator: Any, user_id: Any = None, alone: bool = False) -> str:
        """A player leaves the table for good from the lobby: before the start his seat is free again
        ("freed"); once the match is under way the stand-in plays it to the end, as it plays for a player who
        went away ("stand_in").  The table no longer counts against its creator's address if he is the one
        leaving ("released": the creator without a seat).  A table of computer players is ended, not left
        (but at a duplicate event's table, ``alone``: the stand-in plays the round's deals to their end)."""
        seat, made = self._credited(token, creator, user_id)
        if self.started and not self.people_besides(seat) and not alone:
            raise TableError(N_("nobody else plays at this table: end it instead"), 409)
        if made:
            self.creator_address = self.bot_address = None
            self.creator_addr = self.bots_addr = None
            await self._save_addresses()
        if seat is None:
            return "released"
        for c in seat.conns:
            c.send(dumps({"type": "removed", "seat": seat.index, "message": say(
                lang_of(c), N_("you left this table: you are watching now"))}))
        if not self.started:
            await self._free_seat(seat)
            return "freed"
        self._to_spectators(seat)
        seat.kind, seat.strength, seat.token_hash, seat.address = "bot", self.settings.stand_in, None, None
        seat.left = True  # his seat stays his in the results: a rated match places him last
        seat.epoch += 1  # his grace timer does nothing now
        seat.agent, seat.away, seat.bank, seat.timeouts = None, False, None, 0
        self.recent[seat.index].clear()
        if self.turn is not None and self.turn.seat == seat.index:  # his clock stops: the stand-in plays at once
            self.turn, self._clock_epoch = None, self._clock_epoch + 1
        if self._stood_in is not None and self._stood_in[0] == seat.index:
            self._stood_in = None
        await self._save_seat(seat)
        self._send_all({"type": "table", "table": self.info()})
        if self.clock is not None:
            self._send_clock()
        await self._advance()
        return "stand_in"

    async def end(self, token: Any, creator: Any, user_id: Any = None) -> bool:
        """The only person at a table of computer players ends it; True when its record is kept (as a finished
        match's, for its replay) because a deal was finished, False when nothing was (the table is closed).
        Either is stored, so a restarted server does not bring the table back into play."""
        seat, _ = self._credited(token, creator, user_id)
        if self.people_besides(seat):
            raise TableError(N_("other people play at this table: you may leave it, not end it"), 409)
        kept = self.web.deals_done() > 0
        status = "over" if kept else "expired"
        await self.journal.run(lambda c: Store.set_status(c, self.id, status))
        self.status = self.stored_status = status
        self.turn, self._clock_epoch, self._stood_in = None, self._clock_epoch + 1, None
        self._thinking = self._scheduled = None  # a computer's move being thought is not made
        self.last_activity = time.monotonic()
        for c in self.connections():
            c.send(dumps({"type": "notice", "code": "ended", "message": say(
                lang_of(c), N_("This match was ended from the lobby.") if kept
                else N_("This table was closed from the lobby."))}))
        self._send_all({"type": "table", "table": self.info()})
        return kept

    # ------------------------------------------------------------------ connections
    async def join(self, conn: Conn, token: Any, since: Any) -> None:
        """A connection said hello: with a seat's credential it sits there, or at the seat its logged-in
        account holds (from any browser); else it watches."""
        self.last_activity = time.monotonic()
        seat: Seat | None = None
        user_id = getattr(conn, "user_id", None)
        if user_id is not None and (token is None or self.holder(token) is None):
            seat = self.seat_of(user_id)
            if seat is not None:
                token = None
        if token is not None:
            if not isinstance(token, str) or len(token) > 200:
                self._error(conn, "bad_token", N_("that credential is not valid here; you are watching"))
            else:
                seat = self.holder(token)
                if seat is None:
                    self._error(conn, "bad_token", N_("that credential holds no seat at this table; you are watching"))
        if seat is None:
            conn.seat = None
            self.spectators.add(conn)
        else:
            conn.seat = seat.index
            seat.conns.add(conn)
            seat.epoch += 1
            seat.away = False
        conn.send(dumps({"type": "welcome", "seat": conn.seat, "table": self.info()}))
        self._catch_up(conn, since)
        told = self.shadow.welcome(conn)  # the person's seat only: the comparisons with the expert so far
        if told is not None:
            conn.send(dumps(told))
        if seat is not None:
            self._send_all({"type": "table", "table": self.info()}, skip=conn)
            await self._advance()

    async def disconnect(self, conn: Conn) -> None:
        self.last_activity = time.monotonic()
        self.spectators.discard(conn)
        if conn.seat is None:
            return
        s = self.seats[conn.seat]
        s.conns.discard(conn)
        if not s.conns and s.kind == "human":
            self._start_grace(s)
            self._send_all({"type": "table", "table": self.info()})
            await self._advance()  # nobody left to play with: stand-ins stop

    def _start_grace(self, s: Seat) -> None:
        s.epoch += 1
        if self.turn_based:  # a turn-based table waits for its players: no grace, no stand-in but the clock's
            return
        self._later(self.settings.grace, self._grace_over, s.index, s.epoch)

    async def _grace_over(self, seat: int, epoch: int) -> None:
        s = self.seats[seat]
        if s.epoch != epoch or s.conns or s.kind != "human":
            return
        s.away = True
        self._send_all({"type": "table", "table": self.info()})
        await self._advance()

    async def sync(self, conn: Conn, since: Any = None) -> None:
        self._catch_up(conn, since)

    def _catch_up(self, conn: Conn, since: Any) -> None:
        """What the connection missed since ``since`` if it is within this deal, else a full resync."""
        valid = isinstance(since, int) and not isinstance(since, bool)
        if valid and since == self.version:
            conn.send(dumps({"type": "in_sync", "version": self.version}))
            return
        msg = self.web.catch_up(conn.seat, since if valid else None, self.actors)
        if msg["type"] == "sync":
            msg["table"] = self.info()
        conn.send(dumps(msg))

    # ------------------------------------------------------------------ commands
    async def act(self, conn: Conn, msg: dict[str, Any]) -> None:
        """A player's command: ``{"type": "act", "action": "QH", "version": 17, "id": "…"}``."""
        cid = msg.get("id")
        if cid is not None and (not isinstance(cid, str) or not 0 < len(cid) <= 64 or not cid.isprintable()
                                or not is_unicode(cid)):  # only a checked id is echoed in the replies
            return self._error(conn, "bad_message", N_("a command id is a string of 1 to 64 characters"))
        seat = conn.seat
        if seat is None:
            return self._error(conn, "not_seated", N_("spectators cannot act: take a seat to play"), cid)
        claimed = msg.get("seat", seat)
        if claimed != seat:
            return self._error(conn, "foreign_seat", N_("you may act only for your own seat"), cid)
        recent = self.recent[seat]
        if cid is not None and cid in recent:  # sent twice: answer again, apply once
            conn.send(dumps({**recent[cid], "duplicate": True}))
            return
        m = self.match
        if not self.started:
            return self._error(conn, "not_started", N_("the match starts when every seat is taken"), cid)
        actor = m.to_act()
        if actor is None or self.status == "over":
            return self._error(conn, "over", N_("the match is over"), cid)
        if actor != seat:
            if actor == CHANCE:
                return self._error(conn, "not_your_turn", N_("it is not your turn: waiting for the shuffle"), cid)
            if not self.seats[actor].name:
                return self._error(conn, "not_your_turn", N_("it is not your turn: waiting for seat {seat}"), cid,
                                   seat=actor)
            return self._error(conn, "not_your_turn", N_("it is not your turn: waiting for {name}"), cid,
                               name=self.seats[actor].name)
        version = msg.get("version")
        if version != self.version:
            self._error(conn, "stale", N_("the table has moved on since that command: here is where it stands"), cid)
            self._send_state(conn, full=True)
            return
        text = msg.get("action")
        if not isinstance(text, str) or not text.strip() or len(text) > 300:
            return self._error(conn, "bad_message", N_("an action is a short text such as QH or pass"), cid)
        try:  # a text the player typed is read in his language ("dk", "passe"); a chosen one is the engine's own
            action = parse_typed(m, text, lang_of(conn)) if msg.get("typed") is True else m.parse_action(text)
        except BarbuError as e:  # a malformed text (ParseError), or one that names nothing possible now
            return self._refused(conn, "parse", e, seat, cid)
        refused = self.web.refuse(action, seat)
        if refused:
            return self._refused(conn, "illegal", refused, seat, cid)
        try:
            self.web.apply(action, seat)
        except IllegalAction as e:
            return self._refused(conn, "illegal", e, seat, cid)
        ok = await self._commit(seat, action)
        if not ok:
            return self._error(conn, "storage", N_("the move could not be saved; please try again"), cid)
        ack = {"type": "ack", "id": cid, "version": self.version}
        if cid is not None:
            recent[cid] = ack  # a repeat is answered with this, without the action: the deal may be over
            if len(recent) > RECENT_COMMANDS:
                recent.popitem(last=False)
        conn.send(dumps({**ack, "action": str(action)}))
        self._after_move(seat, action)
        await self._clock_moved(seat)  # he decided: his bank pays any time beyond the allowance, he is not away
        await self._advance()

    def _refused(self, conn: Conn, code: str, e: BarbuError, seat: int, cid: Any) -> None:
        """The engine's refusal in the connection's language, less any card the seat may not see."""
        words = refusal(e, lang_of(conn), lambda c: self.web.visible(c, seat), lambda t: self.web.redact(t, seat))
        msg: dict[str, Any] = {"type": "error", "code": code, **words}
        if cid is not None:
            msg["id"] = cid
        conn.send(dumps(msg))

    async def _commit(self, actor: int, action: Any) -> bool:
        """Append the action just applied to the log; on failure take it back."""
        seq = len(self.match.history) - 1
        self.actors.append(actor)
        try:
            await self.journal.append(self.id, seq, actor, str(action))
        except Exception as e:
            if isinstance(e, Fenced):
                log.warning("table %s: action %d refused, another process owns the table now", self.id, seq)
            else:
                log.exception("table %s: could not store action %d", self.id, seq)
            self.actors.pop()
            self.match.undo()
            if isinstance(e, Fenced):
                self._fenced()
            return False
        return True

    async def _save_addresses(self) -> None:
        await self.journal.run(lambda c: Store.set_addresses(c, self.id, self.creator_addr, self.bots_addr))

    def _fenced(self) -> None:
        """Another process took the table over (this one was paused or cut off past its lease): stop
        acting, and send every connection to reconnect, which reaches the new owner."""
        if self.closed:
            return
        self.closed = True
        for t in self._timers:
            t.cancel()
        for c in self.connections():
            c.close(1012, "the table moved to another server process")
        if self.on_lost is not None:
            self.on_lost(self)

    # ------------------------------------------------------------------ chance and computer players
    async def _advance(self) -> None:
        """Play chance at once, schedule a computer player's turn, or wait for a person."""
        m = self.match
        if self.status == "over":  # over, or ended from the lobby: nothing more is played
            return
        while self.started and not m.is_over and m.to_act() == CHANCE:
            if self.web.between_deals() and self.settings.deal_pause > 0 and any(
                    s.kind == "human" for s in self.seats):
                self._schedule(self.settings.deal_pause, self._chance)
                return
            if not await self._chance_now():
                return
        if not self.started or m.is_over:
            await self._note_turn(None)
            return
        seat = m.to_act()
        assert seat is not None and seat >= 0
        if self.controller(seat) == "bot":
            await self._note_turn(None)
            self._schedule(self.settings.bot_delay, self._bot_turn)
        else:
            await self._note_turn(seat)
            self._clock_wait(seat)  # a person decides: his clock runs while he is here

    async def _note_turn(self, seat: int | None) -> None:
        """At a turn-based table, store whose decision is awaited and since when (once per decision): the
        player's "your turn" list reads it, the clock resumes from it after a restart, and he may be told."""
        if not self.turn_based:
            return
        key = (seat, self.version) if seat is not None else None
        if key == self._turn_key:
            return
        first = self._turn_key is None and seat is not None and self.turn_since is not None
        self._turn_key = key
        if not first:  # after a restart the decision awaited is the one stored, since the moment stored
            self.turn_since = time.time() if seat is not None else None
        user = self.seats[seat].user_id if seat is not None and self.seats[seat].kind == "human" else None
        if first and user == self._waiting_for:
            return
        self._waiting_for = user
        since = datetime.fromtimestamp(self.turn_since, timezone.utc) if self.turn_since is not None else None
        try:
            await self.journal.run(lambda c: Store.set_turn(c, self.id, user, since))
        except Fenced:
            raise
        except Exception:  # the list is late by one move; the table plays on
            log.warning("table %s: could not store whose turn it is", self.id)
        if user is not None and not first and self.on_turn is not None and not self.seats[seat].conns:
            await self.on_turn(self, user, "turn")

    # The lobby's pool: computer players think through it, in fair turns by the address that set the table up.
    thinking: ThinkingPool | None = None
    _thinking: object | None = None  # the token of the decision being thought; a thought with another is stale
    _hurried = False  # the computer players think in a hurry (the server is busy): the table was told
    _unhurried = 0  # computer moves thought at leisure in a row since; a few make the table told it is over

    def _schedule(self, delay: float, fn: Callable[..., Awaitable[None]]) -> None:
        if self._scheduled == self.version:
            return
        self._scheduled = self.version
        if fn == self._bot_turn:  # thinking starts now; the move is made after the longer of ``delay`` and it
            self._start_thinking(delay)
        else:
            self._later(delay, fn, self.version)

    async def _chance(self, version: int) -> None:
        if version == self.version and self.status != "over" and self.match.to_act() == CHANCE:
            self._scheduled = None
            if await self._chance_now():
                await self._advance()

    async def _chance_now(self) -> bool:
        m = self.match
        if self.boards is not None:
            action = self.boards(m)
        else:
            action = keyed_chance(m, self.secret) if self.secret is not None else m.sample_chance()
        m.apply(action)
        if not await self._commit(CHANCE, action):
            self._schedule(1.0, self._chance)  # the database is failing: try again shortly
            return False
        self._after_move(CHANCE, action)
        return True

    def _start_thinking(self, delay: float) -> None:
        """Start the computer player's decision off the actor, from its seat's view only (all a worker gets).

        The actor stays free while it thinks; the thought comes back through `_bot_turn`
        no sooner than ``delay`` after now, so that people can follow the play.
        """
        version = self.version
        seat = self.match.to_act()
        if seat is None or seat < 0 or self.controller(seat) != "bot":
            self._scheduled = None
            return
        agent = self._agent_for(seat, version)
        view = self.match.view(seat)
        token = self._thinking = object()
        task = asyncio.get_running_loop().create_task(self._think(agent, view, version, delay, token),
                                                      name=f"think-{self.id}")
        _THINKING.add(task)
        task.add_done_callback(_THINKING.discard)

    async def _think(self, agent: Agent, view: Any, version: int, delay: float, token: object) -> None:
        loop = asyncio.get_running_loop()
        started = loop.time()
        result: Thought | Exception
        try:
            if self.thinking is not None:  # the group: the address that set the table up, else the table itself
                result = await self.thinking.think(agent, view, self.bot_address or f"table {self.id}", self.id)
            else:
                result = Thought(await asyncio.to_thread(agent.act, view), agent)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # the agent failed: `_bot_turn` plays a legal action instead
            result = e
        rest = delay - (loop.time() - started)
        if rest > 0:
            await asyncio.sleep(rest)
        self.tell(self._bot_turn, version, (token, result))

    def _agent_for(self, seat: int, version: int) -> Agent:
        """The seat's computer player (its own strength, or the stand-in for a person), made once and kept."""
        s = self.seats[seat]
        kind = s.strength if s.kind == "bot" and s.strength else self.settings.stand_in
        if s.agent is None or getattr(s.agent, "kind_name", None) != kind:
            seed = self.bot_seed(seat, version)
            try:
                s.agent = self.web.agent(self.settings.player_spec(kind), seed)
            except AgentError:  # an operator's player this server was not started with: the stand-in plays
                log.warning("table %s: no computer player %r here; the stand-in plays seat %s", self.id, kind, seat)
                s.agent = self.web.agent(self.settings.stand_in, seed)
            setattr(s.agent, "kind_name", kind)
        return s.agent

    async def _bot_turn(self, version: int, thought: tuple[object, Any] | None = None) -> None:
        """Make the computer player's move that was thought for ``version`` (without one: think it first)."""
        m = self.match
        if version != self.version or self.status == "over":
            return
        if thought is None:
            self._scheduled = None
            self._schedule(0.0, self._bot_turn)
            return
        token, result = thought
        if token is not self._thinking:  # thought for a position since taken back (and perhaps played again)
            return
        self._thinking = None
        self._scheduled = None
        seat = m.to_act()
        if seat is None or seat < 0 or self.controller(seat) != "bot":  # a person is back: he decides
            return
        s = self.seats[seat]
        kind = getattr(s.agent, "kind_name", None)
        try:
            if not isinstance(result, Thought):
                raise result
            if getattr(result.agent, "kind_name", None) == kind:  # from a worker process: its random state moved on
                s.agent = result.agent
            self._tell_busy(result.hurried)
            action = result.action
            self.web.apply(action, seat)
        except Exception as e:
            log.error("table %s: computer player %s failed (%s); playing a random legal action", self.id, kind,
                      type(e).__name__, exc_info=not isinstance(e, (BarbuError, ValueError)))
            action = random.Random(version).choice(m.legal_actions())
            self.web.apply(action, seat)
        if not await self._commit(seat, action):
            self._schedule(1.0, self._bot_turn)
            return
        self._after_move(seat, action)
        await self._advance()

    def _tell_busy(self, hurried: bool | None) -> None:
        """Tell the table, each in his language, when its computer players start or stop thinking in a hurry."""
        if hurried is None:
            return
        self._unhurried = 0 if hurried else self._unhurried + 1
        if hurried == self._hurried or (not hurried and self._unhurried < CALM_AFTER):
            return
        self._hurried = hurried
        template = (N_("the server is busy: the computer players think faster for now") if hurried
                    else N_("the server is less busy: the computer players take their time again"))
        for c in self.connections():
            c.send(dumps({"type": "busy", "busy": hurried, "message": say(lang_of(c), template)}))

    def bot_seed(self, seat: int, version: int) -> int:
        """A computer player's seed: keyed by the table's own secret for them, so no player can work it out."""
        if self.bots_secret is None:  # a table made before the computer players had a key of their own
            return (self.seed * 7919 + seat * 104729 + version) & 0x7FFFFFFF
        msg = seat.to_bytes(2, "big") + version.to_bytes(8, "big")
        return int.from_bytes(hmac.new(self.bots_secret, msg, hashlib.sha256).digest()[:8], "big")

    # ------------------------------------------------------------------ the clock (barbu.web.tables.clock)
    # A person's decision is timed only while the table waits for him and he is connected (`_clock_wait`,
    # from `_advance`); the pause between deals, the computers' turns and a disconnected player's grace
    # period start no clock.  When the time runs out, `controller` hands that decision to the stand-in,
    # which plays it through the computer players' own path; a seat that keeps running out is played by
    # the stand-in at once until its player acts or says he is back.  A seat's bank and timeouts are
    # stored when they change: a timeout, a return, or a decision that drew on the bank (a decision
    # within its allowance, the common case, writes nothing more than its move).
    def clock_stands_in(self, s: Seat) -> bool:
        """Whether the stand-in plays this person's decision: his time ran out on it, or he is away by the clock."""
        return self.clock is not None and (is_away(s.timeouts) or self._stood_in == (s.index, self.version))

    def _bank(self, s: Seat) -> float:
        assert self.clock is not None
        return self.clock.bank if s.bank is None else s.bank

    def clock_info(self) -> dict[str, Any] | None:
        """The clock as everyone at the table may see it: its allowance, each person's bank, whose clock runs."""
        if self.clock is None:
            return None
        turn = self.turn if self.turn is not None and self.turn.version == self.version else None
        return {"text": str(self.clock), "per_move": self.clock.per_move, "bank": self.clock.bank,
                "banks": [round(self._bank(s), 1) if s.kind == "human" else None for s in self.seats],
                "away": [s.index for s in self.seats if s.kind == "human" and is_away(s.timeouts)],
                "turn": turn.public(time.monotonic()) if turn is not None else None}

    def _send_clock(self) -> None:
        self._send_all({"type": "clock", "clock": self.clock_info()})

    def _clock_wait(self, seat: int) -> None:
        """The table waits for a person: his clock runs while he is connected, and stands still otherwise."""
        s = self.seats[seat]
        if self.clock is None or s.kind != "human":
            return
        now = time.monotonic()
        t = self.turn
        if t is None or t.version != self.version or t.seat != seat:
            t = self.turn = Turn(seat, self.version, self.clock.per_move, self._bank(s))
            if self.turn_based and self.turn_since is not None:  # days: counted on the wall clock, restarts too
                t.spent = max(0.0, time.time() - self.turn_since)
        run = self.controller(seat) == "human"
        if run == t.running():
            return
        if run:
            t.resume(now)
            self._clock_epoch += 1
            self._later(t.left(now), self._clock_out, seat, t.version, self._clock_epoch)
        else:
            t.pause(now)
        self._send_clock()

    async def _clock_out(self, seat: int, version: int, epoch: int) -> None:
        """A timer ran out: if the decision is still awaited, the stand-in plays it and everyone is told."""
        t = self.turn
        if (epoch != self._clock_epoch or t is None or not t.running() or t.seat != seat or t.version != version
                or version != self.version or self.match.to_act() != seat):
            return
        now = time.monotonic()
        if not t.expired(now):  # a timer may fire a little early
            self._later(t.left(now), self._clock_out, seat, version, epoch)
            return
        s = self.seats[seat]
        self.turn = None
        self._stood_in = (seat, version)
        s.bank = 0.0
        s.timeouts += 1
        await self._store_clock(s)
        self._clock_notice(s)
        self._send_clock()
        if self.turn_based and s.user_id is not None and self.on_turn is not None:
            await self.on_turn(self, s.user_id, "timeout")  # he is told, wherever he is
        # The stand-in plays now (his time is already spent), through the computer players' own path.
        self._schedule(0.0, self._bot_turn)

    async def _clock_moved(self, seat: int) -> None:
        """A person decided: his bank pays for the time beyond the allowance, and he is no longer away."""
        if self.clock is None:
            return
        s = self.seats[seat]
        t, self.turn = self.turn, None
        changed = s.timeouts != 0
        s.timeouts = 0
        if t is not None and t.seat == seat and t.version == self.version - 1:
            bank = t.bank_left(time.monotonic())
            if bank < self._bank(s):
                s.bank, changed = bank, True
        if changed:
            await self._store_clock(s)
            self._send_clock()

    async def come_back(self, conn: Conn) -> None:
        """A player the stand-in plays for because his time ran out says he is back: he decides again."""
        if conn.seat is None:
            raise TableError(N_("you have no seat here"))
        s = self.seats[conn.seat]
        changed = self._stood_in is not None and self._stood_in[0] == s.index
        if changed:
            self._stood_in = None
        if s.timeouts:
            s.timeouts, changed = 0, True
            await self._store_clock(s)
        if changed:  # a repeated "back" changes nothing and sends nothing
            self._send_clock()
            await self._advance()

    async def _store_clock(self, s: Seat) -> None:
        """Store a seat's bank and timeouts; a failing database costs the clock's memory, not the table."""
        try:
            await self._save_seat(s)
        except Exception:
            log.warning("table %s: could not store the clock of seat %s", self.id, s.index)

    def _clock_notice(self, s: Seat) -> None:
        """Tell everyone, each in his language, that the stand-in plays for a seat whose time ran out."""
        away = is_away(s.timeouts)
        for c in self.connections():
            if c.seat == s.index:
                text = say(lang_of(c), N_("Your time ran out again: the computer plays for you until you are back.")
                           if away else N_("Your time ran out: the computer plays this move for you."))
            else:
                text = say(lang_of(c), N_("Time ran out again: the computer plays for {name} until they are back.")
                           if away else N_("Time ran out: the computer plays for {name}."), name=s.name)
            c.send(dumps({"type": "notice", "code": "clock_away" if away else "clock_out", "seat": s.index,
                          "message": text}))

    # ------------------------------------------------------------------ help at the table
    def against_computers(self, seat: int) -> bool:
        return all(s.kind == "bot" for s in self.seats if s.index != seat)

    async def hint_view(self, conn: Conn) -> Any:
        """The seat's own view, for a hint computed outside the actor (never anything more)."""
        seat = conn.seat
        if seat is None:
            raise TableError(N_("spectators get no hints: take a seat to play"))
        if self.rated:
            raise TableError(N_("a rated match is played without hints"))
        if not self.started or self.status == "over" or self.match.to_act() != seat:
            raise TableError(N_("a hint is for your turn"))
        return self.match.view(seat)

    async def take_back(self, conn: Conn) -> int:
        """Undo back to this player's previous decision of the deal, at a table of computer players only.

        The event log is cut at the same place in the same transaction order, so a restarted server
        rebuilds the table as it is now.
        """
        seat = conn.seat
        m = self.match
        if seat is None:
            raise TableError(N_("spectators cannot take moves back"))
        if not self.against_computers(seat):
            raise TableError(N_("moves can be taken back only in a match against computer players"))
        if self.rated:
            raise TableError(N_("a rated match is played without taking moves back"))
        if self.status == "over":
            raise TableError(N_("the match is over"))
        mine = [i for i in range(max(self.web.deal_start(), 0), len(m.history)) if self.actors[i] == seat]
        if not mine:
            raise TableError(N_("there is no move of yours in this deal to take back"))
        target = mine[-1]
        await self.journal.run(lambda c: Store.truncate_events(c, self.id, target))
        undone = 0
        while len(m.history) > target:
            m.undo()
            self.actors.pop()
            undone += 1
        self._scheduled = None
        self.recent[seat].clear()
        for c in self.connections():
            self._send_state(c, full=True)
        await self._advance()
        return undone

    async def set_ratings(self, values: list[dict | None]) -> None:
        """The figures shown beside the seats' names (read by the lobby off the actor)."""
        if len(values) != len(self.seats) or all(s.rating == v for s, v in zip(self.seats, values)):
            return
        for s, v in zip(self.seats, values):
            s.rating = v
        self._send_all({"type": "table", "table": self.info()})

    # ------------------------------------------------------------------ rematch
    async def rematch(self, conn: Conn) -> str:
        """After the match, a seated player asks for another with the same seats and rules."""
        if conn.seat is None:
            raise TableError(N_("only the players can ask for a rematch"))
        if not self.match.is_over:
            raise TableError(N_("the rematch comes when this match is over"))
        if self.rematch_id is None:
            if self.on_rematch is None:
                raise TableError(N_("rematches are not available here"))
            new = await self.on_rematch(self)
            self.rematch_id = new.id
            rid = new.id
            await self.journal.run(lambda c: Store.set_rematch(c, self.id, rid))
            self._send_all({"type": "rematch", "table": new.id})
            self._send_all({"type": "table", "table": self.info()})
        return self.rematch_id

    # ------------------------------------------------------------------ sending
    def _after_move(self, actor: int, action: Any) -> None:
        """Send every connection its own view of the move just made."""
        m = self.match
        self.last_activity = time.monotonic()
        deal_ended = self.web.deals_done() != self._results_sent
        self._results_sent = self.web.deals_done()
        msgs = self.web.messages(actor, action, [s.index for s in self.seats if s.conns], bool(self.spectators))
        for s in self.seats:
            if s.conns:
                text = dumps(msgs[s.index])
                for c in list(s.conns):
                    c.send(text)
        if self.spectators:
            text = dumps(msgs[None])
            for c in list(self.spectators):
                c.send(text)
        if deal_ended:
            self._send_all({"type": "scores", "scores": self.web.scores()})
            self.shadow.catch_up()  # the expert replays the deal just over, beside the table
        if (m.is_over or self.limit_reached()) and self.status != "over":
            self.status = "over"
            self.tell(self._save_status)
        if deal_ended and self.on_deal is not None:
            self.on_deal(self)

    def limit_reached(self) -> bool:
        """An event's table has played the deals of its round."""
        return self.deal_limit is not None and self.web.deals_done() >= self.deal_limit

    async def _save_status(self) -> None:
        status = self.status
        if status == "over" and self.on_over is not None:
            await self.on_over(self)  # the results (and ratings), in the same transaction as the status
        else:
            await self.journal.run(lambda c: Store.set_status(c, self.id, status))
        self.stored_status = status
        self._send_all({"type": "table", "table": self.info()})

    def _send_state(self, conn: Conn, full: bool = False) -> None:
        conn.send(dumps({"type": "state", "state": self.web.state(conn.seat, full=full, actors=self.actors)}))

    def send_to_seat(self, seat: int, msg: dict[str, Any]) -> None:
        """A message for one seat's own connections (never its watchers)."""
        text = dumps(msg)
        for c in list(self.seats[seat].conns):
            c.send(text)

    def _send_all(self, msg: dict[str, Any], skip: Conn | None = None) -> None:
        text = dumps(msg)
        for c in self.connections():
            if c is not skip:
                c.send(text)

    def connections(self) -> list[Conn]:
        out = list(self.spectators)
        for s in self.seats:
            out.extend(s.conns)
        return out

    @staticmethod
    def _error(conn: Conn, code: str, template: str, cid: Any = None, **fields: Any) -> None:
        """The server's own message ``template`` (marked N_), worded in the connection's language."""
        msg: dict[str, Any] = {"type": "error", "code": code, "message": say(lang_of(conn), template, **fields)}
        if cid is not None:
            msg["id"] = cid
        conn.send(dumps(msg))

    def expired(self, now: float) -> bool:
        """Still waiting for players, nobody here, and no seat taken for `open_table_expiry` seconds."""
        limit = self.settings.open_table_expiry
        return (limit > 0 and self.status == "open" and not self.connections()
                and now - self.touched > limit)

    def record_lines(self) -> list[dict[str, Any]]:
        """The finished match's record, with the key that lets anyone check its deals."""
        if self.status != "over":
            raise TableError(N_("the record is published when the match is over"), 409)
        header: dict[str, Any] = {"table": self.id}
        if self.secret is not None:
            header["chance"] = {"method": "hmac-sha256", "secret": self.secret.hex()}
            if self.boards is not None:  # an event's table: keyed by (deal, draw), `core.chance.verify_board_chance`
                header["chance"]["dealing"] = "boards"
        if self.bots_secret is not None:  # a computer player's seed: HMAC-SHA256(key, seat ‖ version), first 8 bytes
            header["computer_players"] = {"method": "hmac-sha256", "secret": self.bots_secret.hex()}
        return game_kind(str(self.rules)).record_lines(self.match, header)

    def idle_and_over(self, before: float) -> bool:
        """Finished, stored as finished, nobody here and nothing happening since ``before``."""
        return (self.status == "over" and self.stored_status == "over" and not self.connections()
                and self.last_activity < before)

    def summary(self) -> dict[str, Any]:
        """For the lobby's list of tables."""
        return {"id": self.id, "rules": str(self.rules), "players": self.match.n, "status": self.status,
                "private": self.invite_hash is not None,
                "rated": self.rated, "club_id": self.club_id, "turn_based": self.turn_based,
                "seats": [{"kind": s.kind, "name": s.name, "strength": s.strength,
                           "account": s.user_id is not None and not s.left, "rating": s.rating} for s in self.seats],
                "open_seats": sum(1 for s in self.seats if s.kind == "open"),
                "spectators": len(self.spectators), **self.web.summary()}
