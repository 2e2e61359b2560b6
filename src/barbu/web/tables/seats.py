"""A table's seats: taking one, the creator's say, computer players, credentials, and the grace of a player
who went away.

A seat's credential is given out once, when the seat is taken, and stored hashed; a logged-in account has its
seat back from any browser.  A private table seats only the holders of its invitation's secret; at a listed
table one address holds at most ``seats_per_address`` seats of a table it did not create, and its last free seat
waits for its creator (`Seating.last_for_creator`).  A player who
leaves the table's page keeps his seat through a grace period; after it, while someone is still at the table,
a stand-in plays for him (`barbu.web.tables.actor.Table.controller`) until he comes back.
"""

from __future__ import annotations

import functools
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from ...agents import AGENT_KINDS
from ...core.errors import AgentError
from ...core.words import N_
from ...i18n import LANGUAGES, translator
from ...play.labels import PLACE_WORDS, computer_name, table_place
from ..common.errors import WebError
from ..common.refusals import NAME_OF_COMPUTERS, UNKNOWN_STRENGTH
from ..common.wording import lang_of, say
from ..db.storage import hash_token
from .core import Conn, Seat, TableCore, dumps
from .persistence import Persistence
from .refusals import (
    ALREADY_SEATED,
    COMPUTER_UNUSABLE,
    COMPUTERS_CREATOR_ONLY,
    COMPUTERS_SEATED_ONLY,
    CREDENTIALS_HOLD_NOTHING,
    INVITATION_NOT_VALID,
    LAST_SEAT_CREATOR,
    MATCH_OVER,
    NAME_AT_TABLE,
    NAME_NEEDED,
    NAME_TOO_LONG,
    NAME_UNPRINTABLE,
    NO_SEAT_HERE,
    NO_SUCH_SEAT,
    PRIVATE_TABLE,
    RATED_NEEDS_ACCOUNT,
    REMOVE_AFTER_START,
    REMOVE_CREATOR_ONLY,
    REMOVED_BY_CREATOR,
    SEAT_FREE,
    SEAT_KEPT,
    SEAT_TAKEN,
    SEATS_ALL_TAKEN,
    SEATS_PER_ADDRESS,
)

NAME_MAX = 24
_COMPUTER_WORDS = ("bot", "computer", "cpu", "robot", "ai", "standin")


def clean_name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip():
        raise WebError(NAME_NEEDED)
    name = " ".join(name.split())
    if len(name) > NAME_MAX:
        raise WebError(NAME_TOO_LONG, n=NAME_MAX)
    if any(not ch.isprintable() for ch in name):
        raise WebError(NAME_UNPRINTABLE)
    return name


@functools.cache
def _places() -> frozenset[str]:
    """The places at a table in every language of the house, folded ("west", "ouest", "ovest"…): a computer
    player is named "West, good player", so a person's name may not begin with one and a comma."""
    return frozenset(translator(lang, "web").gettext(place).casefold() for lang in LANGUAGES for place in PLACE_WORDS)


def poses_as_computer(name: str) -> bool:
    """A person's name that could be read as a computer player's ("Bot 1", "Computer", "search", "West, good
    player", "Ouest, expert")."""
    folded = name.casefold()
    first = folded.replace("-", " ").replace("_", " ").replace("(", " ").replace(",", " ").split()
    return (
        folded in AGENT_KINDS
        or (bool(first) and first[0] in _COMPUTER_WORDS)
        or any(f"({kind})" in folded for kind in AGENT_KINDS)
        or ("," in folded and folded.split(",", 1)[0].strip() in _places())
    )


def _matches(token: Any, stored: str | None) -> bool:
    """Whether ``token`` (from outside: anything) is the credential whose hash is ``stored``."""
    if not isinstance(token, str) or not token or len(token) > 200 or stored is None:
        return False
    return secrets.compare_digest(hash_token(token.encode("utf-8", "replace").decode()), stored)


#: Refuses (a `WebError`) an account a seat at a table where these accounts sit: the application's block check
#: (`barbu.web.social.blocks.seat_guard`), wired by the lobby into every table it builds.
SeatGuard = Callable[[int, Sequence[int]], Awaitable[None]]


class Seating:
    """A table's seats and who holds them (inside its actor)."""

    def __init__(self, table: TableCore, persistence: Persistence) -> None:
        self.t = table
        self.persistence = persistence
        self.guard: SeatGuard | None = None

    # ------------------------------------------------------------------ credentials
    def is_creator(self, token: Any) -> bool:
        """Whether ``token`` is this table's creator's credential."""
        return _matches(token, self.t.creator_hash)

    def holder(self, token: Any) -> Seat | None:
        """The person's seat ``token`` is the credential of, else None."""
        if not isinstance(token, str) or not token or len(token) > 200:
            return None
        h = hash_token(token.encode("utf-8", "replace").decode())
        return next(
            (s for s in self.t.seats if s.kind == "human" and s.token_hash and secrets.compare_digest(s.token_hash, h)),
            None,
        )

    def seat_of(self, user_id: Any) -> Seat | None:
        """The seat a logged-in account holds here (it plays it from any browser), else None."""
        if not isinstance(user_id, int) or isinstance(user_id, bool):
            return None
        return next((s for s in self.t.seats if s.kind == "human" and s.user_id == user_id), None)

    def people_besides(self, seat: Seat | None) -> bool:
        """Whether a person other than ``seat``'s holds a seat here (then the table may be left, not ended)."""
        return any(s.kind == "human" and s is not seat for s in self.t.seats)

    def credited(self, token: Any, creator: Any, user_id: Any = None) -> tuple[Seat | None, bool]:
        """The caller's seat (by its credential, or his account's) and whether he created the table; refused
        if he holds neither."""
        seat, made = self.holder(token) or self.seat_of(user_id), self.is_creator(creator)
        if seat is None and not made:
            raise WebError(CREDENTIALS_HOLD_NOTHING)
        if self.t.status == "over":
            raise WebError(MATCH_OVER)
        return seat, made

    def may_add_bots(self, token: Any) -> bool:
        """The table's creator, or (if the table says so) any seated player, may seat computer players."""
        t = self.t
        if not isinstance(token, str) or len(token) > 200:
            return False
        h = hash_token(token)
        if t.creator_hash is not None and secrets.compare_digest(h, t.creator_hash):
            return True
        return t.bots_by == "seated" and any(
            s.kind == "human" and s.token_hash and secrets.compare_digest(h, s.token_hash) for s in t.seats
        )

    # ------------------------------------------------------------------ taking a seat (HTTP requests)
    async def take_seat(
        self,
        seat: int,
        name: Any,
        invite: Any = None,
        address: str | None = None,
        creator: Any = None,
        user: tuple[int, str] | None = None,
    ) -> str:
        """Seat a guest, or a logged-in player (``user``: his account's id and name, which is the name he
        plays under); returns the seat's credential, which is given out only this once.

        A private table seats only the holders of its invitation's secret.  The creator (his address or
        his credential) may seat anyone; anyone else may not come back once removed, and at a listed
        table one address holds at most ``seats_per_address`` seats, so a stranger cannot fill it alone."""
        t = self.t
        if t.invite_hash is not None and not self.is_creator(creator):
            if invite is None or invite == "":
                raise WebError(PRIVATE_TABLE)
            if not isinstance(invite, str) or len(invite) > 200 or not _matches(invite, t.invite_hash):
                raise WebError(INVITATION_NOT_VALID)
        s = self.open_seat(seat)
        if user is not None:
            name = user[1]
            if any(o.user_id == user[0] for o in t.seats):
                raise WebError(ALREADY_SEATED)
        elif t.rated:
            raise WebError(RATED_NEEDS_ACCOUNT)
        name = clean_name(name)
        own = address is None or address == t.creator_address or self.is_creator(creator)
        if not own and address in t.barred:
            raise WebError(REMOVED_BY_CREATOR)
        if not own and t.invite_hash is None and self.last_for_creator():
            raise WebError(LAST_SEAT_CREATOR)
        cap = t.settings.seats_per_address
        if not own and t.invite_hash is None and cap > 0:
            held = sum(1 for o in t.seats if o.kind == "human" and o.address == address)
            if held >= cap:
                raise WebError(SEATS_PER_ADDRESS, n=cap)
        if poses_as_computer(name):
            raise WebError(NAME_OF_COMPUTERS, name=name)
        if any(o.kind == "human" and o.name.casefold() == name.casefold() for o in t.seats):
            raise WebError(NAME_AT_TABLE, name=name)
        if user is not None and self.guard is not None:  # a block keeps two accounts from one table, either way
            seated = [o.user_id for o in t.seats if o.kind == "human" and o.user_id is not None and not o.left]
            if seated:
                await self.guard(user[0], seated)
            s = self.open_seat(seat)  # (the actor runs one call at a time: the seat is still free)
        token = secrets.token_urlsafe(24)
        s.kind, s.name, s.strength, s.token_hash = "human", name, None, hash_token(token)
        s.address, s.user_id, s.left = address, user[0] if user else None, False
        await self.persistence.save_seat(s)
        t.touched = time.time()
        await self.persistence.touch()
        self.start_grace(s)
        await self.seats_changed()
        return token

    def last_for_creator(self) -> bool:
        """Whether a listed table's one free seat waits for its creator, who holds none yet: strangers cannot fill
        his table and start it without him (and the friends he made it for); he may seat himself, a computer
        player, or free a seat before the start.  Not known after a restart (his address is kept in memory only)."""
        t = self.t
        if t.creator_address is None or sum(1 for s in t.seats if s.kind == "open") != 1:
            return False
        return not any(s.kind == "human" and s.address == t.creator_address for s in t.seats)

    def open_seat(self, seat: Any) -> Seat:
        t = self.t
        self._check_index(seat)
        if t.started:
            raise WebError(SEATS_ALL_TAKEN)
        s = t.seats[seat]
        if s.kind != "open":
            raise WebError(SEAT_TAKEN, seat=seat)
        return s

    def _check_index(self, seat: Any) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.t.seats):
            raise WebError(NO_SUCH_SEAT, seat=repr(seat)[:40], last=len(self.t.seats) - 1)

    async def seats_changed(self) -> None:
        t = self.t
        if not t.started and all(s.kind != "open" for s in t.seats):
            t.status = "playing"
            await self.persistence.set_status("playing")
        t.send_table()
        await t.advance()

    async def add_bot(self, seat: int, strength: Any, token: Any = None, address: str | None = None) -> None:
        t = self.t
        if not self.may_add_bots(token):
            raise WebError(COMPUTERS_CREATOR_ONLY if t.bots_by == "creator" else COMPUTERS_SEATED_ONLY)
        s = self.open_seat(seat)
        if strength not in t.settings.strengths():
            raise WebError(UNKNOWN_STRENGTH, strength=str(strength)[:40], strengths=", ".join(t.settings.strengths()))
        if strength not in AGENT_KINDS:  # an operator's own player: check it plays this game
            try:
                t.web.agent(t.settings.player_spec(strength), 0)
            except AgentError as e:
                raise WebError(COMPUTER_UNUSABLE, strength=strength, error=str(e)) from None
        if t.bot_address is None:
            t.bot_address = address
        if t.bots_addr is None and address is not None and t.hash_address is not None:
            t.bots_addr = t.hash_address(address)
            await self.persistence.save_addresses()
        # The stored name, in English as a record's words are ("West, good player", from the first seat's chair:
        # `barbu.play.names.computer_kind` reads it back); every page names a computer player by where it sits
        # from the reader's chair, in his language.
        where = table_place(seat, 0, t.match.n)
        s.kind, s.name, s.strength, s.token_hash = "bot", computer_name(where, strength, english=True), strength, None
        await self.persistence.save_seat(s)
        await self.seats_changed()

    # ------------------------------------------------------------------ before the start: removing, leaving
    async def remove_player(self, seat: Any, token: Any) -> None:
        """Before the match starts, the table's creator frees a seat, a person's or a computer player's.

        The removed person's connections watch from then on and are told so in their language; his
        credential holds no seat any more and his address may not take one here again."""
        t = self.t
        if not self.is_creator(token):
            raise WebError(REMOVE_CREATOR_ONLY)
        self._check_index(seat)
        if t.started:
            raise WebError(REMOVE_AFTER_START)
        s = t.seats[seat]
        if s.kind == "open":
            raise WebError(SEAT_FREE, seat=seat)
        if s.kind == "human" and s.address is not None and s.address != t.creator_address:
            t.barred.add(s.address)
        for c in list(s.conns):
            c.seat = None
            t.spectators.add(c)
            c.send(
                dumps(
                    {
                        "type": "removed",
                        "seat": seat,
                        "message": say(
                            lang_of(c), N_("the creator of this table removed you from your seat: you are watching now")
                        ),
                    }
                )
            )
        s.conns.clear()
        s.epoch += 1  # a grace timer running for the seat does nothing now
        s.kind, s.name, s.strength, s.token_hash, s.address = "open", "", None, None, None
        s.agent, s.away = None, False
        t.recent[seat].clear()
        await self.persistence.clear_seat(seat)
        t.send_table()
        for c in t.spectators:
            t.send_state(c, full=True)

    async def leave_seat(self, conn: Conn) -> None:
        """Before the match starts, a player may give his seat up."""
        if conn.seat is None:
            raise WebError(NO_SEAT_HERE)
        if self.t.started:
            raise WebError(SEAT_KEPT)
        await self.free_seat(self.t.seats[conn.seat])

    async def free_seat(self, s: Seat) -> None:
        """Before the match starts, a seat's player gives it up: it is free again, his connections watch."""
        t = self.t
        self.to_spectators(s)
        s.kind, s.name, s.strength, s.token_hash, s.address = "open", "", None, None, None
        s.user_id, s.left, s.rating = None, False, None
        await self.persistence.clear_seat(s.index)
        t.send_table()
        for c in t.spectators:
            t.send_state(c, full=True)

    def to_spectators(self, s: Seat) -> None:
        for c in list(s.conns):
            c.seat = None
            self.t.spectators.add(c)
        s.conns.clear()

    # ------------------------------------------------------------------ a player away
    def start_grace(self, s: Seat) -> None:
        t = self.t
        s.epoch += 1
        if t.turn_based:  # a turn-based table waits for its players: no grace, no stand-in but the clock's
            return
        t.later(t.settings.grace, self._grace_over, s.index, s.epoch)

    async def _grace_over(self, seat: int, epoch: int) -> None:
        t = self.t
        s = t.seats[seat]
        if s.epoch != epoch or s.conns or s.kind != "human":
            return
        s.away = True
        t.send_table()
        await t.advance()
