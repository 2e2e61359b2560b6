"""The duplicate events' tables: events, their players and their tables by round (migrations 0009-0011, 0017).

Nothing here decides a rule (`barbu.web.events.service` does); these are the reads and writes, each taking an open
connection so that a caller makes several in one transaction.  The event's secret (the key its rounds'
deals are drawn from) is read only by the server, and shown once the event is over.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String, Text, func, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from ...core import safejson
from ..accounts.store import USERS
from ..clubs.store import CLUBS, MEMBERS
from ..db.storage import Base, _aware, inserted_id, now, table_of

STATUSES = ("registering", "running", "over", "cancelled")


class EventRow(Base):
    """A duplicate event: what is played, how, by whom it is run, and where it stands."""

    __tablename__ = "barbu_duplicate_events"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64))
    director_id: Mapped[int | None] = mapped_column(
        ForeignKey("barbu_users.id", ondelete="SET NULL"), nullable=True, index=True
    )
    club_id: Mapped[int | None] = mapped_column(
        ForeignKey("barbu_clubs.id", ondelete="CASCADE"), nullable=True, index=True
    )
    rules: Mapped[str] = mapped_column(Text)
    format: Mapped[str] = mapped_column(String(16))
    rounds: Mapped[int] = mapped_column(Integer)
    tables: Mapped[int | None] = mapped_column(Integer, nullable=True)
    deals: Mapped[int | None] = mapped_column(Integer, nullable=True)
    strength: Mapped[str] = mapped_column(String(32))
    clock: Mapped[str] = mapped_column(String(32))
    start_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    round: Mapped[int] = mapped_column(Integer, default=0)
    secret: Mapped[str] = mapped_column(String(64))
    plan: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    # what the director changed before the start (migration 0011): JSON [{"at": ISO, "fields": [...]}, ...]
    changes: Mapped[str | None] = mapped_column(Text, nullable=True)
    # HMAC of the address it was created from (migration 0014): its tables' computer players count against it
    director_addr: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # removed by a moderator (migration 0016): out of every list and page until restored (`barbu.web.moderation`)
    removed: Mapped[bool] = mapped_column(Boolean, default=False)
    # paused by its director once running (migration 0017): since when, and why if he said
    paused_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    pause_reason: Mapped[str | None] = mapped_column(String(200), nullable=True)


class PlayerRow(Base):
    """An account registered for an event; ``position`` is his index in the seating plan once it starts."""

    __tablename__ = "barbu_event_players"
    event_id: Mapped[int] = mapped_column(ForeignKey("barbu_duplicate_events.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("barbu_users.id", ondelete="CASCADE"), primary_key=True, index=True)
    position: Mapped[int | None] = mapped_column(Integer, nullable=True)
    left: Mapped[bool] = mapped_column(Boolean, default=False)
    # where he left (migration 0010): the round, and the deals his table had finished then (his own)
    left_round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    left_deal: Mapped[int | None] = mapped_column(Integer, nullable=True)
    registered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class EventTableRow(Base):
    """Table ``number`` of round ``round`` of an event: the barbu_tables row it is played at."""

    __tablename__ = "barbu_event_tables"
    event_id: Mapped[int] = mapped_column(ForeignKey("barbu_duplicate_events.id", ondelete="CASCADE"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), unique=True)


EVENTS = table_of(EventRow)
PLAYERS = table_of(PlayerRow)
EVENT_TABLES = table_of(EventTableRow)


#: The director's changes kept for an event (the oldest are dropped past this).
CHANGES_KEPT = 20


@dataclass(frozen=True)
class Change:
    """One change of the director's before the start: when, and which of the event's facts (`settings.FIELDS`)."""

    at: datetime
    fields: tuple[str, ...]


@dataclass(frozen=True)
class Event:
    id: int
    name: str
    director_id: int | None
    director: str | None
    club_id: int | None
    rules: str
    format: str
    rounds: int
    tables: int | None
    deals: int | None
    strength: str
    clock: str
    start_at: datetime | None
    status: str
    round: int
    secret: str
    plan: list[list[list[int | None]]] | None
    created_at: datetime
    changes: tuple[Change, ...] = ()  # the director's changes before the start, oldest first
    removed: bool = False  # by a moderator: out of sight until restored
    paused_at: datetime | None = None  # paused by the director (his tables take no move) since then
    pause_reason: str | None = None


@dataclass(frozen=True)
class Player:
    user_id: int
    name: str
    position: int | None
    left: bool
    left_round: int | None = None  # the round he left in (None: left before it started, or an older row)
    left_deal: int | None = None  # the deals of that round his table had finished when he left
    registered_at: datetime | None = None


def _changes(text: str | None) -> tuple[Change, ...]:
    try:
        found = safejson.loads(text) if text else []
    except safejson.JsonError:
        return ()
    out = []
    for c in found if isinstance(found, list) else []:
        try:
            out.append(Change(_aware(datetime.fromisoformat(c["at"])), tuple(str(f) for f in c["fields"])))
        except (KeyError, TypeError, ValueError):  # a damaged entry: the others are still told
            continue
    return tuple(out)


def _event(r: Any) -> Event:
    return Event(
        r.id,
        r.name,
        r.director_id,
        getattr(r, "director", None),
        r.club_id,
        r.rules,
        r.format,
        r.rounds,
        r.tables,
        r.deals,
        r.strength,
        r.clock,
        _aware(r.start_at) if r.start_at else None,
        r.status,
        r.round or 0,
        r.secret,
        safejson.loads(r.plan) if r.plan else None,
        _aware(r.created_at),
        _changes(getattr(r, "changes", None)),
        bool(getattr(r, "removed", False)),
        _aware(r.paused_at) if getattr(r, "paused_at", None) else None,
        getattr(r, "pause_reason", None),
    )


def _select() -> Any:
    return select(EVENTS, USERS.c.name.label("director")).outerjoin(USERS, USERS.c.id == EVENTS.c.director_id)


def add_event(conn: Connection, **values: Any) -> int:
    return inserted_id(
        conn.execute(insert(EVENTS).values(status="registering", round=0, created_at=now(), removed=False, **values))
    )


def event_by_id(conn: Connection, event_id: int, lock: bool = False) -> Event | None:
    if lock and conn.dialect.name == "postgresql":  # two starts or registrations at once: one waits
        conn.execute(select(EVENTS.c.id).where(EVENTS.c.id == event_id).with_for_update())
    r = conn.execute(_select().where(EVENTS.c.id == event_id)).first()
    return None if r is None else _event(r)


def events(conn: Connection, status: str | None = None, club_id: int | None = None, limit: int = 100) -> list[Event]:
    """Events, the soonest or newest first (none a moderator removed)."""
    q = _select().where(EVENTS.c.removed.is_(False))
    if status is not None:
        q = q.where(EVENTS.c.status == status)
    if club_id is not None:
        q = q.where(EVENTS.c.club_id == club_id)
    q = q.order_by(EVENTS.c.created_at.desc(), EVENTS.c.id.desc()).limit(limit)
    return [_event(r) for r in conn.execute(q)]


def due(conn: Connection, at: datetime) -> list[int]:
    """Events still registering whose start time has come."""
    q = select(EVENTS.c.id).where(
        EVENTS.c.status == "registering",
        EVENTS.c.start_at.is_not(None),
        EVENTS.c.start_at <= at,
        EVENTS.c.removed.is_(False),
    )
    return [int(r.id) for r in conn.execute(q)]


def starting_soon(conn: Connection, at: datetime, until: datetime) -> list[tuple[int, str, list[int]]]:
    """Events still registering that start between ``at`` and ``until``: (id, name, their players' accounts)."""
    q = select(EVENTS.c.id, EVENTS.c.name).where(
        EVENTS.c.status == "registering",
        EVENTS.c.start_at.is_not(None),
        EVENTS.c.start_at > at,
        EVENTS.c.start_at <= until,
        EVENTS.c.removed.is_(False),
    )
    found = []
    for r in conn.execute(q).all():
        who = select(PLAYERS.c.user_id).where(PLAYERS.c.event_id == r.id, PLAYERS.c.left.is_(False))
        found.append((int(r.id), str(r.name), [int(u) for u in conn.execute(who).scalars()]))
    return found


def running(conn: Connection) -> list[int]:
    return [int(r.id) for r in conn.execute(select(EVENTS.c.id).where(EVENTS.c.status == "running"))]


def set_event(conn: Connection, event_id: int, **values: Any) -> None:
    if "plan" in values and values["plan"] is not None:
        values["plan"] = json.dumps(values["plan"])
    conn.execute(update(EVENTS).where(EVENTS.c.id == event_id).values(**values))


def changes_text(ev: Event, fields: list[str]) -> str:
    """The event's ``changes`` column with one more change, made now, of ``fields``."""
    kept = [*ev.changes, Change(now(), tuple(fields))][-CHANGES_KEPT:]
    return json.dumps([{"at": _aware(c.at).isoformat(), "fields": list(c.fields)} for c in kept])


def players(conn: Connection, event_id: int) -> list[Player]:
    """An event's players, in the order they registered."""
    q = (
        select(PLAYERS, USERS.c.name)
        .join(USERS, USERS.c.id == PLAYERS.c.user_id)
        .where(PLAYERS.c.event_id == event_id)
        .order_by(PLAYERS.c.registered_at, PLAYERS.c.user_id)
    )
    return [
        Player(
            int(r.user_id),
            r.name,
            r.position,
            bool(r.left),
            r.left_round,
            r.left_deal,
            _aware(r.registered_at) if r.registered_at else None,
        )
        for r in conn.execute(q)
    ]


def player_count(conn: Connection, event_id: int) -> int:
    return int(
        conn.execute(select(func.count()).select_from(PLAYERS).where(PLAYERS.c.event_id == event_id)).scalar_one()
    )


def counts(conn: Connection, ids: list[int]) -> dict[int, int]:
    if not ids:
        return {}
    q = (
        select(PLAYERS.c.event_id, func.count().label("n"))
        .where(PLAYERS.c.event_id.in_(ids))
        .group_by(PLAYERS.c.event_id)
    )
    return {int(r.event_id): int(r.n) for r in conn.execute(q)}


def registered(conn: Connection, event_id: int, user_id: int) -> bool:
    q = select(PLAYERS.c.user_id).where(PLAYERS.c.event_id == event_id, PLAYERS.c.user_id == user_id)
    return conn.execute(q).first() is not None


def add_player(conn: Connection, event_id: int, user_id: int) -> None:
    conn.execute(insert(PLAYERS).values(event_id=event_id, user_id=user_id, registered_at=now(), left=False))


def remove_player(conn: Connection, event_id: int, user_id: int) -> None:
    conn.execute(PLAYERS.delete().where(PLAYERS.c.event_id == event_id, PLAYERS.c.user_id == user_id))


def set_player(conn: Connection, event_id: int, user_id: int, **values: Any) -> None:
    conn.execute(update(PLAYERS).where(PLAYERS.c.event_id == event_id, PLAYERS.c.user_id == user_id).values(**values))


def busy_elsewhere(conn: Connection, user_id: int, event_id: int) -> bool:
    """Whether the account plays in another event that is running now (a player at two event tables at once)."""
    q = (
        select(PLAYERS.c.event_id)
        .join(EVENTS, EVENTS.c.id == PLAYERS.c.event_id)
        .where(
            PLAYERS.c.user_id == user_id,
            PLAYERS.c.event_id != event_id,
            EVENTS.c.status == "running",
            PLAYERS.c.left.is_(False),
        )
        .limit(1)
    )
    return conn.execute(q).first() is not None


def add_table(conn: Connection, event_id: int, round_no: int, number: int, table_id: str) -> bool:
    """Enter a round's table; False if that table number of the round is entered already (another process,
    making the same round after the one that began it was lost, got there first)."""
    try:
        with conn.begin_nested():
            conn.execute(
                insert(EVENT_TABLES).values(event_id=event_id, round=round_no, number=number, table_id=table_id)
            )
    except IntegrityError:
        return False
    return True


def tables(conn: Connection, event_id: int) -> list[tuple[int, int, str]]:
    """(round, table number, table id) of every table of the event, in order."""
    q = (
        select(EVENT_TABLES)
        .where(EVENT_TABLES.c.event_id == event_id)
        .order_by(EVENT_TABLES.c.round, EVENT_TABLES.c.number)
    )
    return [(int(r.round), int(r.number), r.table_id) for r in conn.execute(q)]


def director_addr(conn: Connection, event_id: int) -> str | None:
    """The HMAC of the address the event was created from (None: an older event)."""
    r = conn.execute(select(EVENTS.c.director_addr).where(EVENTS.c.id == event_id)).first()
    return None if r is None else r.director_addr


def listed(
    conn: Connection,
    statuses: tuple[str, ...],
    user_id: int | None,
    club_id: int | None = None,
    per_director: int | None = None,
    newest_first: bool = False,
    offset: int = 0,
    limit: int = 50,
) -> list[Event]:
    """A page of the events of these statuses a reader may see (a private club's only to its members, none of a
    deleted club), the soonest first (``newest_first``: the newest), and of each director's only his first
    ``per_director``: so no director, however many events he makes, pushes the others' out of a list."""
    if newest_first:
        order: list[Any] = [EVENTS.c.id.desc()]
    else:
        order = [EVENTS.c.start_at.is_(None), EVENTS.c.start_at, EVENTS.c.id]
    mine = select(MEMBERS.c.club_id).where(MEMBERS.c.user_id == (user_id if user_id is not None else -1))
    seen = select(CLUBS.c.id).where(CLUBS.c.deleted.is_(False), or_(CLUBS.c.public.is_(True), CLUBS.c.id.in_(mine)))
    where = [EVENTS.c.status.in_(statuses), or_(EVENTS.c.club_id.is_(None), EVENTS.c.club_id.in_(seen))]
    if "removed" in EVENTS.c:  # a moderator's removal (migration 0016)
        where.append(EVENTS.c.removed.is_(False))
    if club_id is not None:
        where.append(EVENTS.c.club_id == club_id)
    place = func.row_number().over(partition_by=EVENTS.c.director_id, order_by=order).label("place")
    ranked = select(EVENTS.c.id, place).where(*where).subquery()
    q = _select().join(ranked, ranked.c.id == EVENTS.c.id)
    if per_director is not None:
        q = q.where(ranked.c.place <= per_director)
    q = q.order_by(*order).offset(offset).limit(limit)
    return [_event(r) for r in conn.execute(q)]


def event_of_table(conn: Connection, table_id: str) -> int | None:
    r = conn.execute(select(EVENT_TABLES.c.event_id).where(EVENT_TABLES.c.table_id == table_id)).first()
    return None if r is None else int(r.event_id)
