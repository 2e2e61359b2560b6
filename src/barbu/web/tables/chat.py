"""Chat at the table: two rooms, quick phrases each reader sees in his own language, and free text for accounts.

**Rooms.**  The players' room is the seated players'; the spectators' room is the spectators' (as lichess has
it): during the match neither reads the other's, so nothing said among those watching reaches a player.  Once
the match is over everyone at the table reads both.

**What is said.**  A quick phrase is sent as its key (`PHRASES`: "gg" is "Well played") and each page words it in
its reader's language; free text is for accounts only: a guest sends and reads quick phrases alone, and a
spectator chats with an account (he is named by it).  Text is kept as plain text: the page never reads it as
markup; a link in it is made clickable (with the page's own elements, "nofollow ugc") only when its author had the
history the application's `Speaker` requires when he wrote it (the message's ``links``), else it stays words.

**Limits.**  Each speaker (a seat, or a spectator's account) has a bucket of `BURST` messages refilled one every
`EVERY` seconds, reserved in the table's actor before the message is written (the actor runs one thing at a
time, and one process owns a table: the count holds with many processes too); a text has at most `TEXT_MAX`
characters; an account a moderator muted says nothing (the application's `Speaker` refuses it, in the same
transaction that stores the message).

**Kept.**  Each message is stored through the table's journal (`barbu.web.db.chat`) before anyone is sent it, so
it survives a reconnection (the welcome is followed by the rooms' last `RECENT` messages), a restart and a
takeover by another process (read back when the table is built).  A moderator's removal sets its flag and the
table reads its rooms again (`refresh`): a removed message is sent to nobody.  The replay shows a table's chat
to those who were there: its seats' credentials and accounts, and the logged-in spectators who watched.
"""

from __future__ import annotations

import time
import unicodedata
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Callable

from sqlalchemy.engine import Connection

from ...core.safejson import is_unicode
from ...core.words import N_
from ..common.errors import WebError
from ..common.wording import word
from ..db import chat as db
from ..db.chat import PLAYERS, SPECTATORS, Message
from ..db.leases import Fenced
from ..db.storage import Store, hash_token, now
from . import refusals as no
from .core import Conn, dumps

if TYPE_CHECKING:
    from .core import TableCore

#: The quick phrases, by the key the protocol carries; the pages word them (static/js/chat.js).
PHRASES = ("hello", "good_luck", "gg", "thanks", "sorry", "oops")
TEXT_MAX = 200  # characters of a free text
BURST, EVERY = 5, 2.0  # messages a speaker may send at once, and seconds to earn one more
RECENT = 50  # messages of each room kept in memory and sent after a (re)connection

#: The accounts kept apart from an account by a block, either way (`barbu.web.social.blocks.chat_apart`): none of
#: them reads his messages, and he reads none of theirs.
Apart = Callable[[Connection, int], frozenset[int]]

#: Checks that an account may write for others now (a moderator's mute refuses it): its name, and whether the links
#: in its words are made clickable (it has the history for it).  The tables' chat and the clubs' and events' rooms.
Speaker = Callable[[Connection, int], tuple[str, bool]]


def message_json(m: Message) -> dict[str, Any]:
    """A message as the pages receive it: its author's name as the table shows it, never his account's id."""
    out: dict[str, Any] = {"type": "chat", "seq": m.id, "room": m.room, "from": m.name, "seat": m.seat}
    if m.phrase is not None:
        out["phrase"] = m.phrase
    else:
        out["text"] = m.text
        if m.links:
            out["links"] = True  # its author's links are clickable
    if m.notice:
        out["notice"] = True
    out["at"] = m.at.isoformat(timespec="seconds")
    return out


def clean_text(raw: str) -> str:
    """Free text as kept: NFC, no control characters, its spaces and lines run together into one line."""
    text = unicodedata.normalize("NFC", raw)
    text = "".join(" " if unicodedata.category(ch)[0] in "CZ" else ch for ch in text)
    return " ".join(text.split())


def what_is_said(msg: dict[str, Any], account: bool) -> tuple[str | None, str | None]:
    """A message's quick phrase or free text (cleaned), checked: one of the two, a known phrase, words of at most
    `TEXT_MAX` characters from an account only (``account``).  The table's chat and the clubs' and events' rooms."""
    phrase, raw = msg.get("phrase"), msg.get("text")
    if (phrase is None) == (raw is None):
        raise WebError(no.CHAT_SAY_WHAT)
    if phrase is not None:
        if not isinstance(phrase, str) or phrase not in PHRASES:
            raise WebError(no.CHAT_UNKNOWN_PHRASE)
        return phrase, None
    if not account:
        raise WebError(no.CHAT_TEXT_ACCOUNT)
    if not isinstance(raw, str) or not is_unicode(raw):
        raise WebError(no.CHAT_SAY_WHAT)
    text = clean_text(raw)
    if not text:
        raise WebError(no.CHAT_EMPTY)
    if len(text) > TEXT_MAX:
        raise WebError(no.CHAT_TOO_LONG, n=TEXT_MAX)
    return None, text


def good_id(cid: Any) -> bool:
    """Whether a command's id is as the protocol has it (absent, or a printable string of 1 to 64 characters)."""
    return cid is None or (isinstance(cid, str) and 0 < len(cid) <= 64 and cid.isprintable() and is_unicode(cid))


def refused_json(e: WebError, lang: str, cid: str | None) -> dict[str, Any]:
    """A refused chat message as the page is told it: its code, its words in the reader's language, its id."""
    out: dict[str, Any] = {"type": "error", "code": "refused", "reason": e.code, "message": word(e, lang)}
    if cid is not None:
        out["id"] = cid
    return out


class Bucket:
    """A token bucket: `BURST` at once, one more every `EVERY` seconds."""

    def __init__(self) -> None:
        self.tokens, self.stamp = float(BURST), time.monotonic()

    def take(self) -> float:
        """0 when a message may go now (one is taken), else the seconds until one may."""
        t = time.monotonic()
        self.tokens = min(BURST, self.tokens + (t - self.stamp) / EVERY)
        self.stamp = t
        if self.tokens < 1:
            return (1 - self.tokens) * EVERY
        self.tokens -= 1
        return 0.0


class Chat:
    """One table's chat, run inside its actor."""

    def __init__(self, table: TableCore) -> None:
        self.table = table
        self.rooms: dict[str, list[Message]] = {PLAYERS: [], SPECTATORS: []}
        self.buckets: dict[tuple[str, int], Bucket] = {}
        self.watchers: set[int] = set()  # logged-in spectators noted as having watched (for the replay)
        self.speaker: Speaker | None = None  # the application's (`barbu.web.app`); None: names as the table has them
        self.apart: Apart | None = None  # the application's block check (`barbu.web.app`); None: no blocks
        self.unseen: dict[int, frozenset[int]] = {}  # by message: the accounts a block keeps from reading it

    # ------------------------------------------------------------------ who reads what
    def over(self) -> bool:
        return self.table.status not in ("open", "playing")

    def reads(self, conn: Conn, m: Message) -> bool:
        """Whether ``conn`` is sent ``m``: its own room (both once the match is over); free text to accounts only."""
        if m.text is not None and getattr(conn, "user_id", None) is None:
            return False
        if m.id in self.unseen and self._reader(conn) in self.unseen[m.id]:
            return False  # a block between its author and this reader
        return self.over() or m.room == (PLAYERS if conn.seat is not None else SPECTATORS)

    def log_for(self, conn: Conn) -> dict[str, Any]:
        """The rooms' recent messages this connection reads, in order, and what it may send."""
        shown = sorted((m for room in self.rooms.values() for m in room if self.reads(conn, m)), key=lambda m: m.id)
        logged_in = getattr(conn, "user_id", None) is not None
        room = PLAYERS if conn.seat is not None else SPECTATORS
        return {
            "type": "chat_log",
            "room": room,
            "may_chat": conn.seat is not None or logged_in,
            "free_text": logged_in,
            "messages": [message_json(m) for m in shown],
        }

    def welcome(self, conn: Conn) -> None:
        """After a connection's welcome: the chat so far (nothing when nothing was said: the page knows who it is
        from its seat and its account); a logged-in spectator is noted as having watched."""
        if any(self.rooms.values()):
            conn.send(dumps(self.log_for(conn)))
        user_id = getattr(conn, "user_id", None)
        if conn.seat is None and isinstance(user_id, int) and user_id not in self.watchers:
            self.watchers.add(user_id)
            self.table.tell(self._watched, user_id)

    async def _watched(self, user_id: int) -> None:
        """Note a logged-in spectator for the replay; not noted (the database away a moment), he is at his next visit."""
        table_id, at = self.table.id, now()
        try:
            await self.table.journal.run(lambda c: db.add_watcher(c, table_id, user_id, at))
        except Fenced:
            raise
        except Exception:
            self.watchers.discard(user_id)

    # ------------------------------------------------------------------ saying something
    async def say(self, conn: Conn, msg: dict[str, Any]) -> None:
        """``{"type": "chat", "id": …, "phrase": "gg"}`` or ``{"type": "chat", "id": …, "text": "…"}``: stored,
        acknowledged with its ``seq``, then sent to its room; or refused in words, with the command's id."""
        cid = msg.get("id")
        if not good_id(cid):
            return self.table.error(conn, "bad_message", N_("a command id is a string of 1 to 64 characters"))
        try:
            m = await self._say(conn, msg)
        except WebError as e:
            conn.send(dumps(refused_json(e, _lang(conn), cid)))
            return
        await self._keep_apart([m])
        conn.send(dumps({"type": "ack", "id": cid, "seq": m.id, "chat": True}))
        self.keep(m)
        text = dumps(message_json(m))
        for c in self.table.connections():
            if self.reads(c, m):
                c.send(text)

    async def _say(self, conn: Conn, msg: dict[str, Any]) -> Message:
        phrase, text = what_is_said(msg, getattr(conn, "user_id", None) is not None)
        user_id = getattr(conn, "user_id", None)
        seat = self.table.seats[conn.seat] if conn.seat is not None else None
        if seat is not None and seat.user_id is not None:
            user_id = seat.user_id  # the account seated here, from whichever browser
        if seat is None and not isinstance(user_id, int):
            raise WebError(no.CHAT_SPECTATOR_ACCOUNT)
        key = ("seat", seat.index) if seat is not None else ("user", int(user_id or 0))
        wait = self.buckets.setdefault(key, Bucket()).take()  # reserved before the write: nothing awaits between
        if wait:
            raise WebError(no.CHAT_TOO_FAST, n=max(1, round(wait + 0.49)))
        room = PLAYERS if seat is not None else SPECTATORS
        table_id, at, speaker = self.table.id, now(), self.speaker
        index, seat_name = (seat.index, seat.name) if seat is not None else (None, "")

        def write(c: Connection) -> Message:
            name, links = seat_name, False
            if isinstance(user_id, int) and speaker is not None:
                spoken, links = speaker(c, user_id)  # refused while a moderator's mute lasts
                name = name or spoken
            if not name:
                raise WebError(no.CHAT_SPECTATOR_ACCOUNT)
            links = links and text is not None
            mid = db.add(c, table_id, room, index, user_id, name[:64], phrase, text, at, links=links)
            return Message(mid, table_id, room, index, user_id, name[:64], phrase, text, at, False, links=links)

        try:
            written: Message = await self.table.journal.run(write)
        except (WebError, Fenced):
            raise
        except Exception:  # the database away a moment: said in words, the page may send it again
            raise WebError(no.CHAT_NOT_SAVED) from None
        return written

    def _reader(self, conn: Conn) -> int | None:
        """The account reading on ``conn``: its browser's, else the account seated at its seat."""
        user_id = getattr(conn, "user_id", None)
        if user_id is None and conn.seat is not None:
            user_id = self.table.seats[conn.seat].user_id
        return user_id if isinstance(user_id, int) else None

    async def _keep_apart(self, messages: list[Message]) -> None:
        """Note, for each message by an account, the accounts a block keeps from reading it (read once per author)."""
        apart = self.apart
        authors = {m.user_id for m in messages if isinstance(m.user_id, int)}
        if apart is None or not authors:
            return

        def read(c: Connection) -> dict[int, frozenset[int]]:
            return {a: apart(c, a) for a in authors}

        try:
            found = await self.table.journal.run(read)
        except Fenced:
            raise
        except Exception:  # the database away a moment: no block known for these (the next message reads again)
            return
        for m in messages:
            if found and m.user_id in found and found[m.user_id]:
                self.unseen[m.id] = found[m.user_id]
        if len(self.unseen) > 4 * RECENT:  # only the messages still kept in the rooms
            kept = {m.id for room in self.rooms.values() for m in room} | {m.id for m in messages}
            self.unseen = {i: v for i, v in self.unseen.items() if i in kept}

    def keep(self, m: Message) -> None:
        room = self.rooms[m.room]
        room.append(m)
        del room[:-RECENT]

    # ------------------------------------------------------------------ read again
    async def load(self) -> None:
        """The rooms' recent messages, read from storage: after a restart or a takeover, and after a moderator
        removed or restored one."""
        table_id = self.table.id

        def read(c: Connection) -> dict[str, list[Message]]:
            return {room: db.recent(c, table_id, room, RECENT) for room in (PLAYERS, SPECTATORS)}

        try:
            found = await self.table.journal.run(read)
        except Fenced:
            raise
        except Exception:  # the database away a moment: the chat starts empty, what is stored stays stored
            return
        if found is not None:  # (a journal with no storage behind it reads nothing)
            self.rooms = found
            await self._keep_apart([m for room in found.values() for m in room])

    async def refresh(self) -> None:
        """A moderator removed or restored a message: every connection is sent the chat as it is now."""
        await self.load()
        for c in self.table.connections():
            c.send(dumps(self.log_for(c)))

    def match_over(self) -> None:
        """The match just ended: both rooms are everyone's now."""
        if not any(self.rooms.values()):
            return
        for c in self.table.connections():
            c.send(dumps(self.log_for(c)))


def _lang(conn: Conn) -> str:
    return str(getattr(conn, "lang", "en") or "en")


# ---------------------------------------------------------------------- the replay's chat, and the retention
def replay_chat(store: Store, table_id: str, token: Any, user_id: int | None) -> list[dict[str, Any]]:
    """A table's chat for the replay, for those who were there: a seat's credential, an account seated there,
    or a logged-in spectator who watched; refused to anyone else."""
    with store.engine.connect() as c:
        hashed = hash_token(token) if isinstance(token, str) and 0 < len(token) <= 200 else None
        there = any(
            (hashed is not None and h == hashed) or (user_id is not None and u == user_id)
            for h, u in db.seats_of(c, table_id)
        )
        if not there and not (user_id is not None and db.watched(c, table_id, user_id)):
            raise WebError(no.CHAT_NOT_THERE)
        return [message_json(m) for m in db.of_table(c, table_id)]


def sweep_before(days: float, at: datetime | None = None) -> datetime | None:
    """The moment before which messages are deleted with ``--chat-days`` ``days`` (0: kept for ever)."""
    return None if days <= 0 else (at or now()) - timedelta(days=days)
