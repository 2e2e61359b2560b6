"""The challenges' tables (migration 0022): each challenge and each challenged player's answer.

The reads and writes, each on an open connection; the rules are `barbu.web.challenges.service`'s.  A change of
state is one conditional UPDATE (``WHERE state = 'open'``), so of two processes answering at once only one moves it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Index, Integer, String, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Mapped, mapped_column

from ..accounts.store import USERS
from ..db.storage import Base, _aware, table_of

STATES = ("open", "accepted", "declined", "expired", "cancelled")
ANSWERS = ("waiting", "accepted", "declined")


class ChallengeRow(Base):
    """A challenge from ``from_id`` to the players of its seats."""

    __tablename__ = "barbu_challenges"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    from_id: Mapped[int] = mapped_column(ForeignKey("barbu_users.id", ondelete="CASCADE"))
    rules: Mapped[str] = mapped_column(String(400))
    clock: Mapped[str | None] = mapped_column(String(40), nullable=True)
    turn_based: Mapped[bool] = mapped_column(Boolean)
    rated: Mapped[bool] = mapped_column(Boolean)
    bots: Mapped[bool] = mapped_column(Boolean)  # computer players in the seats left over
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    state: Mapped[str] = mapped_column(String(12))
    ended_by: Mapped[int | None] = mapped_column(Integer, nullable=True)  # who declined or cancelled it
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    __table_args__ = (
        Index("ix_barbu_challenges_from", "from_id", "state"),
        Index("ix_barbu_challenges_open", "state", "expires_at"),
    )


class ChallengeSeatRow(Base):
    """One challenged player and his answer."""

    __tablename__ = "barbu_challenge_seats"
    challenge_id: Mapped[int] = mapped_column(ForeignKey("barbu_challenges.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("barbu_users.id", ondelete="CASCADE"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    answer: Mapped[str] = mapped_column(String(10))
    __table_args__ = (Index("ix_barbu_challenge_seats_user", "user_id"),)


CHALLENGES = table_of(ChallengeRow)
SEATS = table_of(ChallengeSeatRow)


@dataclass(frozen=True)
class Invited:
    user_id: int
    name: str
    answer: str


@dataclass(frozen=True)
class Challenge:
    id: int
    from_id: int
    from_name: str
    rules: str
    clock: str | None
    turn_based: bool
    rated: bool
    bots: bool
    created_at: datetime
    expires_at: datetime
    state: str
    ended_by: int | None
    table_id: str | None
    invited: tuple[Invited, ...]

    def players(self) -> list[int]:
        """Everyone in it: the challenger first, then the challenged in the order he named them."""
        return [self.from_id, *(i.user_id for i in self.invited)]

    def name_of(self, user_id: int | None) -> str:
        return next((n for u, n in self.names() if u == user_id), "")

    def table_link(self) -> str:
        return f"/t/{self.table_id}" if self.table_id else ""

    def names(self) -> list[tuple[int, str]]:
        return [(self.from_id, self.from_name), *((i.user_id, i.name) for i in self.invited)]


def add(
    conn: Connection,
    from_id: int,
    to: list[int],
    rules: str,
    clock: str | None,
    turn_based: bool,
    rated: bool,
    bots: bool,
    at: datetime,
    expires: datetime,
) -> int:
    cid = conn.execute(
        insert(CHALLENGES)
        .values(
            from_id=from_id,
            rules=rules,
            clock=clock,
            turn_based=turn_based,
            rated=rated,
            bots=bots,
            created_at=at,
            expires_at=expires,
            state="open",
        )
        .returning(CHALLENGES.c.id)
    ).scalar_one()
    conn.execute(
        insert(SEATS),
        [{"challenge_id": cid, "user_id": u, "position": i + 1, "answer": "waiting"} for i, u in enumerate(to)],
    )
    return int(cid)


def open_count(conn: Connection, from_id: int, at: datetime) -> int:
    """The challenges ``from_id`` has open now (not yet lapsed)."""
    q = select(func.count()).where(
        CHALLENGES.c.from_id == from_id, CHALLENGES.c.state == "open", CHALLENGES.c.expires_at > at
    )
    return int(conn.execute(q).scalar_one())


def get(conn: Connection, cid: int) -> Challenge | None:
    r = conn.execute(
        select(CHALLENGES, USERS.c.name.label("from_name"))
        .join(USERS, USERS.c.id == CHALLENGES.c.from_id)
        .where(CHALLENGES.c.id == cid)
    ).first()
    if r is None:
        return None
    seats = conn.execute(
        select(SEATS.c.user_id, SEATS.c.answer, USERS.c.name)
        .join(USERS, USERS.c.id == SEATS.c.user_id)
        .where(SEATS.c.challenge_id == cid)
        .order_by(SEATS.c.position)
    )
    return Challenge(
        r.id,
        r.from_id,
        r.from_name,
        r.rules,
        r.clock,
        bool(r.turn_based),
        bool(r.rated),
        bool(r.bots),
        _aware(r.created_at),
        _aware(r.expires_at),
        r.state,
        r.ended_by,
        r.table_id,
        tuple(Invited(s.user_id, s.name, s.answer) for s in seats),
    )


def answer(conn: Connection, cid: int, user_id: int, said: str, at: datetime) -> bool:
    """His answer to an open challenge not lapsed, given once; False when it is not his to give now."""
    live = select(CHALLENGES.c.id).where(
        CHALLENGES.c.id == cid, CHALLENGES.c.state == "open", CHALLENGES.c.expires_at > at
    )
    r = conn.execute(
        update(SEATS)
        .where(
            SEATS.c.challenge_id == cid,
            SEATS.c.user_id == user_id,
            SEATS.c.answer == "waiting",
            SEATS.c.challenge_id.in_(live),
        )
        .values(answer=said)
    )
    return bool(r.rowcount)


def all_accepted(conn: Connection, cid: int) -> bool:
    q = select(func.count()).where(SEATS.c.challenge_id == cid, SEATS.c.answer != "accepted")
    return int(conn.execute(q).scalar_one()) == 0


def end(conn: Connection, cid: int, state: str, by: int | None = None, table_id: str | None = None) -> bool:
    """Move an open challenge to ``state``; False when it was no longer open (another took it first)."""
    r = conn.execute(
        update(CHALLENGES)
        .where(CHALLENGES.c.id == cid, CHALLENGES.c.state == "open")
        .values(state=state, ended_by=by, table_id=table_id)
    )
    return bool(r.rowcount)


def reopen(conn: Connection, cid: int, user_id: int) -> None:
    """An accepted challenge whose table could not be made: open again, waiting for ``user_id``'s answer."""
    r = conn.execute(
        update(CHALLENGES)
        .where(CHALLENGES.c.id == cid, CHALLENGES.c.state == "accepted", CHALLENGES.c.table_id.is_(None))
        .values(state="open")
    )
    if r.rowcount:
        conn.execute(
            update(SEATS).where(SEATS.c.challenge_id == cid, SEATS.c.user_id == user_id).values(answer="waiting")
        )


def set_table(conn: Connection, cid: int, table_id: str) -> None:
    conn.execute(update(CHALLENGES).where(CHALLENGES.c.id == cid).values(table_id=table_id))


def lapsed(conn: Connection, at: datetime, limit: int = 200) -> list[int]:
    """Open challenges whose time ran out."""
    q = (
        select(CHALLENGES.c.id)
        .where(CHALLENGES.c.state == "open", CHALLENGES.c.expires_at <= at)
        .order_by(CHALLENGES.c.id)
        .limit(limit)
    )
    return [r.id for r in conn.execute(q)]
