"""The chat's storage (migration 0018): each message said at a table, in its room, and the logged-in spectators
who watched a table (who read its chat in the replay, as its players do).  A club's and an event's rooms
(migration 0021, `barbu.web.clubs.chat`) are kept here too, in the rooms "club" and "event" with the club's or
event's number in ``table_id``: one store, one moderation, one retention for every room.

A message is a quick phrase's key (each reader sees it in his own language) or free text, with the author's name
as the table showed it, his seat (None: a spectator) and his account (None: a guest).  A moderator's removal sets
``removed``: the message is then sent to nobody.  Nothing here decides a rule (`barbu.web.tables.chat` does);
these are the reads and writes, each on an open connection so that the table's writes go through its journal.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, DateTime, Index, Integer, String, Text, delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from .storage import Base, SeatRow, _aware, inserted_id, table_of

PLAYERS, SPECTATORS = "players", "spectators"  # a table's rooms
CLUB, EVENT = "club", "event"  # the rooms of a club and of an event, keyed by its number
TABLE_ROOMS = (PLAYERS, SPECTATORS)


class ChatRow(Base):
    """One message said at a table."""

    __tablename__ = "barbu_chat"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32))  # a table's id, or a club's or event's number
    room: Mapped[str] = mapped_column(String(12))  # players or spectators; club or event
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    user_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    phrase: Mapped[str | None] = mapped_column(String(16), nullable=True)  # a quick phrase's key, or
    text: Mapped[str | None] = mapped_column(Text, nullable=True)  # free text
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    removed: Mapped[bool] = mapped_column(Boolean, default=False)
    notice: Mapped[bool] = mapped_column(Boolean, default=False)  # an event director's notice (migration 0021)
    links: Mapped[bool] = mapped_column(Boolean, default=False)  # its author had the history for clickable links
    __table_args__ = (
        Index("ix_barbu_chat_table", "table_id", "id"),
        Index("ix_barbu_chat_at", "at"),
        Index("ix_barbu_chat_user", "user_id", "at"),
    )


class WatcherRow(Base):
    """A logged-in spectator who watched a table: its chat is his to read in the replay."""

    __tablename__ = "barbu_chat_watchers"
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


CHAT = table_of(ChatRow)
WATCHERS = table_of(WatcherRow)
SEATS = table_of(SeatRow)


@dataclass(frozen=True)
class Message:
    id: int
    table_id: str
    room: str
    seat: int | None
    user_id: int | None
    name: str
    phrase: str | None
    text: str | None
    at: datetime
    removed: bool
    notice: bool = False
    links: bool = False


def _message(r: Any) -> Message:
    return Message(
        r.id,
        r.table_id,
        r.room,
        r.seat,
        r.user_id,
        r.name,
        r.phrase,
        r.text,
        _aware(r.at),
        r.removed,
        bool(r.notice),
        bool(r.links),
    )


def add(
    conn: Connection,
    table_id: str,
    room: str,
    seat: int | None,
    user_id: int | None,
    name: str,
    phrase: str | None,
    text: str | None,
    at: datetime,
    notice: bool = False,
    links: bool = False,
) -> int:
    """Store one message: its id, which orders a room's messages."""
    values: dict[str, Any] = {"table_id": table_id, "room": room, "seat": seat, "user_id": user_id, "name": name}
    values.update(phrase=phrase, text=text, at=at, removed=False, notice=notice, links=links)
    return inserted_id(conn.execute(insert(CHAT).values(**values)))


def recent(conn: Connection, table_id: str, room: str, n: int, notice: bool | None = None) -> list[Message]:
    """A room's last ``n`` messages not removed, oldest first (``notice``: only the notices, or none of them)."""
    q = select(CHAT).where(CHAT.c.table_id == table_id, CHAT.c.room == room, CHAT.c.removed.is_(False))
    if notice is not None:
        q = q.where(CHAT.c.notice.is_(notice))
    return [_message(r) for r in reversed(conn.execute(q.order_by(CHAT.c.id.desc()).limit(n)).all())]


def said_since(conn: Connection, user_id: int, rooms: tuple[str, ...], since: datetime) -> list[datetime]:
    """When an account said its messages in these rooms since ``since``, oldest first (removed ones count): a
    rate's count."""
    q = select(CHAT.c.at).where(CHAT.c.user_id == user_id, CHAT.c.room.in_(rooms), CHAT.c.at >= since)
    return [_aware(r.at) for r in conn.execute(q.order_by(CHAT.c.at))]


def of_table(conn: Connection, table_id: str) -> list[Message]:
    """Every message of a table not removed, in order (the replay's)."""
    q = select(CHAT).where(CHAT.c.table_id == table_id, CHAT.c.room.in_(TABLE_ROOMS), CHAT.c.removed.is_(False))
    return [_message(r) for r in conn.execute(q.order_by(CHAT.c.id)).all()]


def by_id(conn: Connection, message_id: int) -> Message | None:
    r = conn.execute(select(CHAT).where(CHAT.c.id == message_id)).first()
    return None if r is None else _message(r)


def around(conn: Connection, m: Message, n: int) -> list[Message]:
    """The messages of ``m``'s room said just before and after it (``n`` each side), ``m`` among them: what a
    moderator reads to judge it, removed ones included."""
    same = (CHAT.c.table_id == m.table_id, CHAT.c.room == m.room)
    before = conn.execute(select(CHAT).where(*same, CHAT.c.id < m.id).order_by(CHAT.c.id.desc()).limit(n)).all()
    after = conn.execute(select(CHAT).where(*same, CHAT.c.id > m.id).order_by(CHAT.c.id).limit(n)).all()
    return [_message(r) for r in reversed(before)] + [m] + [_message(r) for r in after]


def set_removed(conn: Connection, message_id: int, removed: bool) -> bool:
    """Set the flag if it is not so yet, in one statement: False when it was so already."""
    q = update(CHAT).where(CHAT.c.id == message_id, CHAT.c.removed.is_(not removed)).values(removed=removed)
    return bool(conn.execute(q).rowcount)


def sweep(conn: Connection, before: datetime) -> int:
    """Delete the messages said before ``before`` (the retention the operator set): how many."""
    gone = conn.execute(delete(CHAT).where(CHAT.c.at < before)).rowcount
    conn.execute(delete(WATCHERS).where(WATCHERS.c.at < before))
    return int(gone or 0)


def add_watcher(conn: Connection, table_id: str, user_id: int, at: datetime) -> None:
    """Note a logged-in spectator at a table (once: a second time changes nothing)."""
    found = select(WATCHERS.c.user_id).where(WATCHERS.c.table_id == table_id, WATCHERS.c.user_id == user_id)
    if conn.execute(found).first() is not None:
        return
    try:
        with conn.begin_nested():
            conn.execute(insert(WATCHERS).values(table_id=table_id, user_id=user_id, at=at))
    except IntegrityError:  # noted at the same moment by another process
        pass


def watched(conn: Connection, table_id: str, user_id: int) -> bool:
    q = select(WATCHERS.c.user_id).where(WATCHERS.c.table_id == table_id, WATCHERS.c.user_id == user_id)
    return conn.execute(q).first() is not None


def seats_of(conn: Connection, table_id: str) -> list[tuple[str | None, int | None]]:
    """Each seat's credential hash and account: those who were there as players."""
    q = select(SEATS.c.token_hash, SEATS.c.user_id).where(SEATS.c.table_id == table_id)
    return [(r.token_hash, r.user_id) for r in conn.execute(q).all()]
