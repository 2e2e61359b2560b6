"""Chat rooms beyond the table: a club's, for its members, and an event's, for its players and its director, who
posts notices there.  The table's chat (`barbu.web.tables.chat`) gives the rules of what is said; this module
gives the rooms.

**Who reads and writes.**  A room is entered with an account only, and only by those it is for (`RoomKind.role`:
a club's members; an event's registered players and its director, a club's owner and admins directing its
events): anyone else, logged out or not, is told the same refusal, so a private club's room does not even say
that it exists.  A member writes quick phrases (each reader sees them in his own language) and free text; the
director of an event also posts notices (words, shown apart and pinned on the event's page, announced).  A block
(`apart`, the application's) keeps the two accounts it parts out of each other's messages.

**Limits and safety**, as at the table: `TEXT_MAX` characters; `BURST` messages in any `WINDOW` seconds for one
account over every room (the table's average of one each `EVERY` seconds), checked in the transaction that writes
the message, after the write, with the account's row held on PostgreSQL: a burst over several pages or server
processes says exactly `BURST`; a moderator's mute refuses (the application's `Speaker`, which also tells whether
the author has the history that makes his links clickable); membership is checked again at each message.

**Live.**  Each process keeps the pages open on each room (``/ws/room/{kind}/{address}``, `barbu.web.routes.rooms`)
and gives each message stored to them at once; with a broker it publishes the message on `CHANNEL`, which every
process hears, so members on two processes read each other.  A page (re)connecting is given the room's last
`RECENT` messages and its pinned notices.  A moderator's removal (the kind "message" of the desk) makes every page
of the room read its log again, without it.  Messages are stored in `barbu.web.db.chat` (rooms "club" and "event")
and deleted with the table chat's after ``--chat-days``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Callable

from sqlalchemy.engine import Connection

from ...core import safejson
from ..accounts.service import open_store, read_in_thread, write_in_thread
from ..accounts.store import User
from ..common import outages
from ..common.errors import WebError
from ..common.mailbox import Mailbox
from ..db import chat as db
from ..db.chat import CLUB, Message
from ..db.storage import Store, now
from ..tables import refusals as tno
from ..tables.chat import BURST, EVERY, RECENT, Speaker, message_json, what_is_said
from . import refusals as no
from . import store as clubs

log = logging.getLogger("barbu.web")

CHANNEL = "barbu:rooms"
WINDOW = BURST * EVERY  # seconds in which one account says at most BURST messages in the rooms
PINNED = 3  # an event's latest notices pinned at the top of its room
REFRESH = '{"type":"room_refresh"}'  # a page's note that its room's log changed (a moderator's removal)

#: The accounts a block keeps apart from an account, either way (`barbu.web.social.blocks.chat_apart`).
Apart = Callable[[Connection, int], frozenset[int]]

#: What a page of a room is given: (the author's account, a message's JSON), or None to close.
Note = tuple[int | None, str] | None


@dataclass(frozen=True)
class Room:
    """A room as found from its page's address: its kind, its key (the club's or event's number), its name and
    page, and what its kind needs to say who is in it."""

    kind: str
    key: str
    name: str
    url: str
    about: Any = None


@dataclass(frozen=True)
class RoomKind:
    """How a kind of room is found and who is in it: ``find`` by the page's address (a club's slug, an event's
    number), ``by_key`` by its stored key, ``role`` an account's place in it ("member", "director" or None)."""

    name: str
    find: Callable[[Connection, str], Room | None]
    by_key: Callable[[Connection, str], Room | None]
    role: Callable[[Connection, Room, int], str | None]


def _club_room(club: clubs.Club | None) -> Room | None:
    return None if club is None or club.deleted else Room(CLUB, str(club.id), club.name, f"/c/{club.slug}", club)


def _club_role(conn: Connection, room: Room, user_id: int) -> str | None:
    return "member" if clubs.role_of(conn, int(room.key), user_id) is not None else None


CLUB_ROOM = RoomKind(
    CLUB,
    lambda c, slug: _club_room(clubs.club_by_slug(c, slug)) if 0 < len(slug) <= 64 else None,
    lambda c, key: _club_room(clubs.club_by_id(c, int(key))) if key.isdigit() and len(key) < 10 else None,
    _club_role,
)


def room_of(conn: Connection, kinds: dict[str, RoomKind], kind: str, address: str, user_id: int) -> tuple[Room, str]:
    """The room at a page's address and ``user_id``'s role in it, or the one refusal given to all who are not in
    it (no such room, or not theirs)."""
    k = kinds.get(kind)
    room = k.find(conn, address) if k is not None else None
    role = k.role(conn, room, user_id) if k is not None and room is not None else None
    if room is None or role is None:
        raise WebError(no.ROOM_MEMBERS_ONLY)
    return room, role


def reads_room(conn: Connection, kinds: dict[str, RoomKind], kind: str, key: str, user_id: int) -> Room | None:
    """The room of a stored message, when ``user_id`` is in it (he may report what is said there)."""
    k = kinds.get(kind)
    room = k.by_key(conn, key) if k is not None else None
    return room if room is not None and k is not None and k.role(conn, room, user_id) is not None else None


class RoomChat:
    """The clubs' and events' chat rooms of one server process."""

    def __init__(
        self, store: Callable[[], Store | None], kinds: dict[str, RoomKind], speaker: Speaker | None = None
    ) -> None:
        self._store, self.kinds, self.speaker = store, kinds, speaker
        self.pages: dict[tuple[str, str], set[Mailbox[Note]]] = {}
        self.apart: Apart | None = None  # the application's block check (`barbu.web.app`); None: no blocks
        self._redis: Any = None
        self._node = ""
        self._listener: asyncio.Task | None = None
        self._tasks: set[asyncio.Task] = set()

    @property
    def store(self) -> Store:
        return open_store(self._store)

    # ------------------------------------------------------------------ entering a room, and its log
    async def enter(self, kind: str, address: str, user: User | None) -> tuple[Room, str]:
        """The room a page opens and the reader's role in it, or a refusal."""
        if user is None:
            raise WebError(no.ROOM_LOG_IN)
        found: tuple[Room, str] = await read_in_thread(self.store, room_of, self.kinds, kind, address, user.id)
        return found

    async def log(self, room: Room, user: User, role: str, apart: frozenset[int] = frozenset()) -> dict[str, Any]:
        """What a page of the room is given on (re)connection: its last `RECENT` messages and its pinned notices,
        in order, without those of the authors a block keeps ``apart`` from the reader."""

        def read(c: Connection) -> tuple[list[Message], list[Message]]:
            said = db.recent(c, room.key, room.kind, RECENT, notice=False)
            return said, db.recent(c, room.key, room.kind, PINNED, notice=True)

        said, pinned = await read_in_thread(self.store, read)
        return {
            "type": "room_log",
            "room": room.kind,
            "name": room.name,
            "me": user.name,
            "may_notice": role == "director",
            "messages": [message_json(m) for m in said if m.user_id not in apart],
            "notices": [message_json(m) for m in pinned if m.user_id not in apart],
        }

    async def kept_apart(self, user_id: int) -> frozenset[int]:
        """The accounts a block keeps apart from ``user_id`` (either way): he reads none of their messages."""
        apart = self.apart
        if apart is None:
            return frozenset()
        found: frozenset[int] = await read_in_thread(self.store, apart, user_id)
        return found

    # ------------------------------------------------------------------ saying something
    async def say(self, room: Room, user: User, msg: dict[str, Any]) -> Message:
        """Store what ``user`` says in ``room`` (``{"phrase": …}`` or ``{"text": …}``, ``"notice": true`` for a
        director's notice), then give it to every page of the room on every process; or a refusal."""
        phrase, text = what_is_said(msg, True)
        notice = msg.get("notice") is True
        if notice and text is None:
            raise WebError(no.ROOM_NOTICE_TEXT)
        kind, speaker, at = self.kinds[room.kind], self.speaker, now()

        def write(c: Connection) -> Message:
            role = kind.role(c, room, user.id)  # he may have left since he opened the page
            if role is None:
                raise WebError(no.ROOM_MEMBERS_ONLY)
            if notice and role != "director":
                raise WebError(no.ROOM_NOTICE_DIRECTOR)
            name, links = speaker(c, user.id) if speaker is not None else (user.name, False)  # a mute refuses
            clubs.lock_user(c, user.id)  # PostgreSQL: one account's messages counted one at a time
            links = links and text is not None
            mid = db.add(c, room.key, room.kind, None, user.id, name[:64], phrase, text, at, notice, links)
            said = db.said_since(c, user.id, tuple(self.kinds), at - timedelta(seconds=WINDOW))
            if len(said) > BURST:  # counted after the write, in its transaction: undone with it
                wait = (said[-BURST - 1] + timedelta(seconds=WINDOW) - at).total_seconds()
                raise WebError(tno.CHAT_TOO_FAST, n=max(1, math.ceil(wait)))
            return Message(mid, room.key, room.kind, None, user.id, name[:64], phrase, text, at, False, notice, links)

        try:
            m: Message = await write_in_thread(self.store, write)
        except WebError:
            raise
        except Exception as e:  # the database away a moment: said in words, the page may send it again
            outages.failed_or_traced(e, f"rooms: a message in {room.kind} {room.key} could not be saved")
            raise WebError(tno.CHAT_NOT_SAVED) from None
        text_json = json.dumps(message_json(m), ensure_ascii=False, separators=(",", ":"))
        self._deliver(room.kind, room.key, (user.id, text_json))
        self._publish({"k": room.kind, "r": room.key, "a": user.id, "m": text_json})
        return m

    async def changed(self, message_id: int) -> bool:
        """A moderator removed or restored a message: if it was a room's, every page of that room (on every
        process) reads its log again.  False: not a room's message."""

        def find(c: Connection) -> Message | None:
            return db.by_id(c, message_id)

        m = await read_in_thread(self.store, find)
        if m is None or m.room not in self.kinds:
            return False
        self._deliver(m.room, m.table_id, (None, REFRESH))
        self._publish({"k": m.room, "r": m.table_id, "a": None, "m": REFRESH})
        return True

    # ------------------------------------------------------------------ pages
    def watch(self, room: Room) -> Mailbox[Note]:
        box: Mailbox[Note] = Mailbox()
        self.pages.setdefault((room.kind, room.key), set()).add(box)
        return box

    def unwatch(self, room: Room, box: Mailbox[Note]) -> None:
        boxes = self.pages.get((room.kind, room.key))
        if boxes is not None:
            boxes.discard(box)
            if not boxes:
                del self.pages[(room.kind, room.key)]

    def _deliver(self, kind: str, key: str, note: Note) -> None:
        for box in self.pages.get((kind, key), ()):
            box.put(note)

    # ------------------------------------------------------------------ the other processes
    async def start(self, redis: Any, node: str) -> None:
        """Hear the other processes' messages on the broker (``redis``: redis-py's asyncio client); not heard (the
        broker away at start-up), each page here reads them at its next connection."""
        try:
            pubsub = redis.pubsub(ignore_subscribe_messages=True)
            await pubsub.subscribe(CHANNEL)
        except Exception as e:
            log.warning("rooms: cannot listen to the other processes' messages (%s)", e)
            return
        self._redis, self._node = redis, node
        self._listener = asyncio.get_running_loop().create_task(self._listen(pubsub), name="rooms")

    async def stop(self) -> None:
        tasks = [*self._tasks, *([self._listener] if self._listener else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._listener, self._redis = None, None
        for boxes in self.pages.values():
            for box in boxes:
                box.put(None)

    def _publish(self, note: dict[str, Any]) -> None:
        if self._redis is None:
            return
        task = asyncio.get_running_loop().create_task(self._send({**note, "n": self._node}))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send(self, note: dict[str, Any]) -> None:
        try:
            await self._redis.publish(CHANNEL, json.dumps(note))
        except Exception as e:  # the other processes' pages read it at their next (re)connection
            log.warning("rooms: a message could not be told to the other processes (%s)", e)

    async def _listen(self, pubsub: Any) -> None:
        try:
            while True:
                try:
                    async for raw in pubsub.listen():
                        self._heard(raw.get("data"))
                except asyncio.CancelledError:
                    raise
                except Exception as e:  # the broker away a moment: listen again once it is back
                    log.warning("rooms: listening to the other processes failed (%s); trying again", e)
                    await asyncio.sleep(0.5)
                    try:
                        await pubsub.subscribe(CHANNEL)
                    except Exception:
                        pass
        finally:
            try:
                await pubsub.aclose()
            except Exception:  # the broker is gone already
                pass

    def _heard(self, data: Any) -> None:
        try:
            note = safejson.loads(data)
        except safejson.JsonError:
            return
        if not isinstance(note, dict) or note.get("n") == self._node:
            return
        kind, key, author, text = note.get("k"), note.get("r"), note.get("a"), note.get("m")
        if isinstance(kind, str) and isinstance(key, str) and isinstance(text, str):
            self._deliver(kind, key, (author if isinstance(author, int) else None, text))
