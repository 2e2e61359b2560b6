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

The table's work is shared among collaborators behind the one inbox, as lichess's round actor shares its
own (its Finisher, Takebacker, Rematcher, Moretimer): `seats` (seats, credentials, grace), `timing` (the
clock), `computers` (chance, the computer players, hints), `leaving` (leaving and ending from the lobby),
`rematch` (take-backs and rematches) and `persistence` (the journal's writes, fencing), all working on the
table's `core`.  The table keeps the commands, the connections and the play's progress.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from ...core.errors import BarbuError, IllegalAction
from ...core.game import CHANCE
from ...core.safejson import is_unicode
from ...core.words import N_
from ...i18n.typed import parse_typed
from ..common import metrics
from ..common.settings import Settings
from ..common.wording import lang_of, refusal
from ..db.storage import TableRecord
from .chat import Chat
from .clock import Clock, Turn, parse_turn_based
from .clock import parse as parse_clock
from .computers import Computers
from .core import RECENT_COMMANDS, Conn, JournalLike, Seat, TableCore, dumps
from .leaving import Leaving
from .persistence import STORED_TEXTS, Persistence
from .rematch import MakeRematch, Rematches, TakeBacks
from .seats import NAME_MAX, Seating, clean_name, poses_as_computer
from .shadow import TableShadow
from .timing import Timing

log = logging.getLogger("barbu.web")

__all__ = [
    "Conn",
    "JournalLike",
    "NAME_MAX",
    "Seat",
    "Table",
    "clean_name",
    "dumps",
    "poses_as_computer",
    "requested_clock",
]


def requested_clock(value: Any, turn_based: bool = False) -> str | None:
    """The clock a table-creation request asks for, in its stored form (None: no clock); refused in words.
    A turn-based table always has one, in hours or days."""
    clock = parse_turn_based(value) if turn_based else parse_clock(value)
    return None if clock is None else str(clock)


class Table(TableCore):
    """The actor of one table."""

    def __init__(
        self, record: TableRecord, journal: JournalLike, settings: Settings, on_rematch: MakeRematch | None = None
    ) -> None:
        super().__init__(record, journal, settings)
        self.persistence = Persistence(self)
        for seq, _, text in record.events[-STORED_TEXTS:]:
            self.persistence.remember(seq, text)
        self.computers = Computers(self, self.persistence)
        self.timing = Timing(self, record, self.persistence, self.computers)
        self.seating = Seating(self, self.persistence)
        self.leaving = Leaving(self, self.seating, self.timing, self.computers, self.persistence)
        self.take_backs = TakeBacks(self, self.computers)
        self.rematches = Rematches(self, on_rematch)
        self._results_sent = self.web.deals_done()
        self.shadow = TableShadow(self)  # one person against computer players: each deal replayed by the expert
        self.chat = Chat(self)  # its two rooms (`barbu.web.tables.chat`), read back from storage as it starts

    def start(self) -> None:
        self.open_inbox()
        self.tell(self.chat.load)  # before any connection's hello: the chat so far
        for seat in self.seats:  # after a restart nobody is connected yet
            if seat.kind == "human" and not self.turn_based:
                self.seating.start_grace(seat)
        if self.boards is not None and self.paused_of is not None and self.status != "over":
            self.tell(self.refresh_pause)  # an event's table: paused, if its event is, before anything is played
        self.tell(self.timing.recall)  # rebuilt from the journal: the decision awaited has run since its last action
        self.tell(self.advance)
        self.shadow.catch_up()  # after a restart: the deals not compared yet

    async def refresh_pause(self) -> None:
        """Whether this event's table is paused, read from its event inside the actor (a table built after the
        pause, or one the watcher finds out of step): a pause or resumption told meanwhile comes after it."""
        if self.paused_of is None:
            return
        try:
            paused = await self.paused_of(self.id)
        except Exception:  # the database is away a moment: the watcher's next round reads it again
            log.warning("table %s: could not read whether its event is paused", self.id)
            return
        await self.pause_event(paused)

    async def pause_event(self, paused: dict[str, Any] | None) -> None:
        """The event's director paused the event ({"at", "reason"}), or resumed it (None): while paused nobody's
        move is taken, the computers and the stand-in wait, the clock stands still (the turn keeps what is left
        of it), nothing is dealt; resumed, the table goes on from where it stood."""
        if self.boards is None or paused == self.paused:
            return
        self.paused = paused
        if paused is not None:
            self.computers.forget()  # a computer's move being thought is not made: it is thought again after
        self.send_table()
        await self.advance()

    # ------------------------------------------------------------------ who decides, what everyone sees
    def controller(self, seat: int) -> str:
        """Who decides for a seat now: 'human', 'bot' (a computer player or a stand-in) or 'wait'."""
        if self.paused is not None:  # the event is paused: nobody decides
            return "wait"
        s = self.seats[seat]
        if s.kind == "bot":
            return "bot"
        if self.turn_based and s.kind == "human":  # nobody need be here: the clock alone hands a move over
            return "bot" if self.timing.stands_in(s) else "human"
        # away past his grace: the stand-in plays while others are here (at an event's table, even if nobody is:
        # the round must end for every table)
        if s.kind == "human" and s.away and not s.conns and (self.humans_connected() or self.boards is not None):
            return "bot"
        if s.kind == "human" and s.conns and self.timing.stands_in(s):
            return "bot"
        return "human" if s.conns else "wait"

    def info(self) -> dict[str, Any]:
        """Public facts about the table: never credentials, never the seed."""
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
                    "seat": s.index,
                    "kind": s.kind,
                    "name": s.name,
                    "strength": s.strength,
                    "connected": bool(s.conns) if s.kind == "human" else s.kind == "bot",
                    "away": s.away and s.kind == "human" and not s.conns,
                    "account": s.user_id is not None and not s.left,
                    "left": s.left,
                    "rating": s.rating,
                }
                for s in self.seats
            ],
            "spectators": len(self.spectators),
            "version": self.version,
            "rematch_id": self.rematch_id,
            "rematch_of": self.rematch_of,
            "strengths": self.settings.strengths(),
            "default_strength": self.settings.stand_in,  # the seat menus' first choice: a middling player
            "clock": self.timing.info(),
            "compare": self.shadow.offered() is not None,  # one person against computer players: the expert's box
            "paused": self.paused,  # an event's table, its event paused by the director: since when, and why
            **self.web.info(),
        }

    async def set_ratings(self, values: list[dict[str, Any] | None]) -> None:
        """The figures shown beside the seats' names (read by the lobby off the actor)."""
        if len(values) != len(self.seats) or all(s.rating == v for s, v in zip(self.seats, values)):
            return
        for s, v in zip(self.seats, values):
            s.rating = v
        self.send_table()

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
                self.error(conn, "bad_token", N_("that credential is not valid here; you are watching"))
            else:
                seat = self.holder(token)
                if seat is None:
                    self.error(conn, "bad_token", N_("that credential holds no seat at this table; you are watching"))
        if seat is None:
            conn.seat = None
            self.spectators.add(conn)
        else:
            conn.seat = seat.index
            seat.conns.add(conn)
            seat.epoch += 1
            seat.away = False
        # ``heartbeat``: the seconds of silence after which the server sends a beat (the page's silence timeout)
        welcome = {"type": "welcome", "seat": conn.seat, "table": self.info(), "heartbeat": self.settings.heartbeat}
        conn.send(dumps(welcome))
        self._catch_up(conn, since)
        self.chat.welcome(conn)  # the rooms' recent messages this connection reads
        told = self.shadow.welcome(conn)  # the person's seat only: the comparisons with the expert so far
        if told is not None:
            conn.send(dumps(told))
        if seat is not None:
            self.send_table(skip=conn)
            await self.advance()

    async def disconnect(self, conn: Conn) -> None:
        self.last_activity = time.monotonic()
        self.spectators.discard(conn)
        if conn.seat is None:
            return
        s = self.seats[conn.seat]
        s.conns.discard(conn)
        if not s.conns and s.kind == "human":
            self.seating.start_grace(s)
            self.send_table()
            await self.advance()  # nobody left to play with: stand-ins stop

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
        if cid is not None and (
            not isinstance(cid, str) or not 0 < len(cid) <= 64 or not cid.isprintable() or not is_unicode(cid)
        ):  # only a checked id is echoed in the replies
            return self.error(conn, "bad_message", N_("a command id is a string of 1 to 64 characters"))
        seat = conn.seat
        if seat is None:
            return self.error(conn, "not_seated", N_("spectators cannot act: take a seat to play"), cid)
        claimed = msg.get("seat", seat)
        if claimed != seat:
            return self.error(conn, "foreign_seat", N_("you may act only for your own seat"), cid)
        recent = self.recent[seat]
        if cid is not None and cid in recent:  # sent twice: answer again, apply once
            conn.send(dumps({**recent[cid], "duplicate": True}))
            return
        if cid is not None and self.applied(seat, msg):  # sent again after a takeover or a restart: found in the log
            conn.send(dumps({"type": "ack", "id": cid, "version": msg["version"] + 1, "duplicate": True}))
            return
        m = self.match
        if not self.started:
            return self.error(conn, "not_started", N_("the match starts when every seat is taken"), cid)
        actor = m.to_act()
        if actor is None or self.status == "over":
            return self.error(conn, "over", N_("the match is over"), cid)
        if self.paused is not None:  # an event's table: its director paused the event
            if self.paused.get("reason"):
                return self.error(
                    conn,
                    "event_paused",
                    N_("the event is paused by its director: {reason}"),
                    cid,
                    reason=self.paused["reason"],
                )
            return self.error(conn, "event_paused", N_("the event is paused by its director"), cid)
        if actor != seat:
            if actor == CHANCE:
                return self.error(conn, "not_your_turn", N_("it is not your turn: waiting for the shuffle"), cid)
            if not self.seats[actor].name:
                # an empty seat (never one at a started table): no number for a person to read
                return self.error(conn, "not_your_turn", N_("it is not your turn: waiting for another player"), cid)
            return self.error(
                conn, "not_your_turn", N_("it is not your turn: waiting for {name}"), cid, name=self.seats[actor].name
            )
        version = msg.get("version")
        if version != self.version:
            self.error(conn, "stale", N_("the table has moved on since that command: here is where it stands"), cid)
            self.send_state(conn, full=True)
            return
        text = msg.get("action")
        if not isinstance(text, str) or not text.strip() or len(text) > 300:
            return self.error(conn, "bad_message", N_("an action is a short text such as QH or pass"), cid)
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
        ok = await self.persistence.commit(seat, action)
        if not ok:  # written again for `Settings.store_retry` seconds in vain: the page sends it again later
            return self.error(conn, "storage", N_("your move could not be saved yet: it will be sent again"), cid)
        ack = {"type": "ack", "id": cid, "version": self.version}
        if cid is not None:
            recent[cid] = ack  # a repeat is answered with this, without the action: the deal may be over
            if len(recent) > RECENT_COMMANDS:
                recent.popitem(last=False)
        conn.send(dumps({**ack, "action": str(action)}))
        self.after_move(seat, action)
        await self.timing.moved(seat)  # he decided: his bank pays any time beyond the allowance, he is not away
        await self.advance()

    def applied(self, seat: int, msg: dict[str, Any]) -> bool:
        """Whether a command is one this seat made that is already in the log: its version's action is this seat's
        and reads the same.  A command's id is remembered by the process that applied it (`recent`); a command sent
        again after its table changed process (or the process restarted) is recognised here instead, and answered
        with an acknowledgement rather than refused as stale."""
        version, text = msg.get("version"), msg.get("action")
        if not isinstance(version, int) or isinstance(version, bool) or not isinstance(text, str) or msg.get("typed"):
            return False
        if not 0 <= version < len(self.actors) or self.actors[version] != seat:
            return False
        stored = self.persistence.texts.get(version)
        return stored is not None and " ".join(text.split()).casefold() == " ".join(stored.split()).casefold()

    def _refused(self, conn: Conn, code: str, e: BarbuError, seat: int, cid: Any) -> None:
        """The engine's refusal in the connection's language, less any card the seat may not see."""
        metrics.refused(code)
        words = refusal(e, lang_of(conn), lambda c: self.web.visible(c, seat), lambda t: self.web.redact(t, seat))
        msg: dict[str, Any] = {"type": "error", "code": code, **words}
        if cid is not None:
            msg["id"] = cid
        conn.send(dumps(msg))

    # ------------------------------------------------------------------ the play goes on
    async def advance(self) -> None:
        """Play chance at once, schedule a computer player's turn, or wait for a person."""
        m = self.match
        if self.status == "over":  # over, or ended from the lobby: nothing more is played
            return
        if self.paused is not None:  # the event is paused: the clock of the decision awaited stands still
            seat = m.to_act()
            if self.started and seat is not None and seat >= 0:
                self.timing.wait(seat)
            return
        while self.started and not m.is_over and m.to_act() == CHANCE:
            if self.web.between_deals() and self.settings.deal_pause > 0 and any(s.kind == "human" for s in self.seats):
                self.computers.schedule(self.settings.deal_pause, self.computers.chance)
                return
            if not await self.computers.chance_now():
                return
        if not self.started or m.is_over:
            await self.timing.note_turn(None)
            return
        seat = m.to_act()
        assert seat is not None and seat >= 0
        if self.controller(seat) == "bot":
            await self.timing.note_turn(None)
            self.computers.play_soon(self.settings.bot_delay)
        else:
            await self.timing.note_turn(seat)
            self.timing.wait(seat)  # a person decides: his clock runs while he is here

    def after_move(self, actor: int, action: Any) -> None:
        """Send every connection its own view of the move just made."""
        if actor >= 0:  # a player's move (not the shuffle), for /metrics
            metrics.moved(self.rules)
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
            self.send_all({"type": "scores", "scores": self.web.scores()})
            self.shadow.catch_up()  # the expert replays the deal just over, beside the table
        if (m.is_over or self.limit_reached()) and self.status != "over":
            self.status = "over"
            self.tell(self.persistence.save_status)
            self.chat.match_over()  # both rooms are everyone's now
        if deal_ended and self.on_deal is not None:
            self.on_deal(self)

    # ------------------------------------------------------------------ the collaborators' work, by its old names
    async def take_seat(
        self,
        seat: int,
        name: Any,
        invite: Any = None,
        address: str | None = None,
        creator: Any = None,
        user: tuple[int, str] | None = None,
    ) -> str:
        return await self.seating.take_seat(seat, name, invite, address, creator, user)

    async def remove_player(self, seat: Any, token: Any) -> None:
        await self.seating.remove_player(seat, token)

    async def add_bot(self, seat: int, strength: Any, token: Any = None, address: str | None = None) -> None:
        await self.seating.add_bot(seat, strength, token, address)

    async def leave_seat(self, conn: Conn) -> None:
        await self.seating.leave_seat(conn)

    def is_creator(self, token: Any) -> bool:
        return self.seating.is_creator(token)

    def may_add_bots(self, token: Any) -> bool:
        return self.seating.may_add_bots(token)

    def holder(self, token: Any) -> Seat | None:
        return self.seating.holder(token)

    def seat_of(self, user_id: Any) -> Seat | None:
        return self.seating.seat_of(user_id)

    def people_besides(self, seat: Seat | None) -> bool:
        return self.seating.people_besides(seat)

    async def give_up(self, token: Any, creator: Any, user_id: Any = None, alone: bool = False) -> str:
        return await self.leaving.give_up(token, creator, user_id, alone)

    async def end(self, token: Any, creator: Any, user_id: Any = None) -> bool:
        kept = await self.leaving.end(token, creator, user_id)
        self.chat.match_over()  # both rooms of its chat are everyone's now
        return kept

    async def come_back(self, conn: Conn) -> None:
        await self.timing.come_back(conn)

    async def hint_view(self, conn: Conn) -> Any:
        return await self.computers.hint_view(conn)

    async def take_back(self, conn: Conn) -> int:
        return await self.take_backs.take_back(conn)

    async def rematch(self, conn: Conn) -> str:
        return await self.rematches.rematch(conn)

    def against_computers(self, seat: int) -> bool:
        return self.take_backs.against_computers(seat)

    def bot_seed(self, seat: int, version: int) -> int:
        return self.computers.bot_seed(seat, version)

    def clock_info(self) -> dict[str, Any] | None:
        return self.timing.info()

    def clock_stands_in(self, s: Seat) -> bool:
        return self.timing.stands_in(s)

    @property
    def clock(self) -> Clock | None:
        return self.timing.clock

    @property
    def turn(self) -> Turn | None:
        """The person's decision being timed (`barbu.web.tables.clock.Turn`), if any."""
        return self.timing.turn

    @property
    def turn_since(self) -> float | None:
        return self.timing.turn_since
