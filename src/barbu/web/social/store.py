"""The social tables (migration 0019): follows, blocks and the presence setting.

Nothing here decides a rule (`barbu.web.social.service` does); these are the reads and writes, each on an open
connection so that a caller makes several in one transaction (a block removes the follows both ways in the
transaction that writes it).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Index, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from ..accounts.store import USERS
from ..db.storage import Base, _aware, table_of


class FollowRow(Base):
    """``follower`` follows ``followed`` (no consent needed)."""

    __tablename__ = "barbu_follows"
    follower: Mapped[int] = mapped_column(ForeignKey("barbu_users.id", ondelete="CASCADE"), primary_key=True)
    followed: Mapped[int] = mapped_column(ForeignKey("barbu_users.id", ondelete="CASCADE"), primary_key=True)
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    __table_args__ = (Index("ix_barbu_follows_followed", "followed"),)


class BlockRow(Base):
    """``blocker`` blocked ``blocked``: the two never share a table, a chat or a challenge."""

    __tablename__ = "barbu_blocks"
    blocker: Mapped[int] = mapped_column(ForeignKey("barbu_users.id", ondelete="CASCADE"), primary_key=True)
    blocked: Mapped[int] = mapped_column(ForeignKey("barbu_users.id", ondelete="CASCADE"), primary_key=True)
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    __table_args__ = (Index("ix_barbu_blocks_blocked", "blocked"),)


class PresenceSettingRow(Base):
    """An account that hides its presence: everyone else sees it "offline"."""

    __tablename__ = "barbu_presence_settings"
    user_id: Mapped[int] = mapped_column(ForeignKey("barbu_users.id", ondelete="CASCADE"), primary_key=True)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)


FOLLOWS = table_of(FollowRow)
BLOCKS = table_of(BlockRow)
SETTINGS = table_of(PresenceSettingRow)


# ---------------------------------------------------------------------- follows
def follow(conn: Connection, follower: int, followed: int, at: datetime) -> bool:
    """Add the follow; False when it was there already."""
    try:
        with conn.begin_nested():
            conn.execute(insert(FOLLOWS).values(follower=follower, followed=followed, since=at))
    except IntegrityError:
        return False
    return True


def unfollow(conn: Connection, follower: int, followed: int) -> bool:
    r = conn.execute(delete(FOLLOWS).where(FOLLOWS.c.follower == follower, FOLLOWS.c.followed == followed))
    return bool(r.rowcount)


def follows(conn: Connection, follower: int, followed: int) -> bool:
    q = select(FOLLOWS.c.follower).where(FOLLOWS.c.follower == follower, FOLLOWS.c.followed == followed)
    return conn.execute(q).first() is not None


def following(conn: Connection, follower: int, limit: int) -> list[tuple[int, str, datetime]]:
    """The accounts ``follower`` follows (id, name, since), by name."""
    q = (
        select(USERS.c.id, USERS.c.name, FOLLOWS.c.since)
        .join(FOLLOWS, FOLLOWS.c.followed == USERS.c.id)
        .where(FOLLOWS.c.follower == follower)
        .order_by(USERS.c.name_key)
        .limit(limit)
    )
    return [(r.id, r.name, _aware(r.since)) for r in conn.execute(q)]


def following_count(conn: Connection, follower: int) -> int:
    return int(conn.execute(select(func.count()).where(FOLLOWS.c.follower == follower)).scalar_one())


def followers_count(conn: Connection, followed: int) -> int:
    return int(conn.execute(select(func.count()).where(FOLLOWS.c.followed == followed)).scalar_one())


def followers_of(conn: Connection, followed: int) -> list[int]:
    """The accounts following ``followed`` (the presence's pushes go to them)."""
    return [r[0] for r in conn.execute(select(FOLLOWS.c.follower).where(FOLLOWS.c.followed == followed))]


# ---------------------------------------------------------------------- blocks
def block(conn: Connection, blocker: int, blocked: int, at: datetime) -> bool:
    """Add the block and remove the follows both ways; False when the block was there already."""
    conn.execute(
        delete(FOLLOWS).where(
            or_(
                (FOLLOWS.c.follower == blocker) & (FOLLOWS.c.followed == blocked),
                (FOLLOWS.c.follower == blocked) & (FOLLOWS.c.followed == blocker),
            )
        )
    )
    try:
        with conn.begin_nested():
            conn.execute(insert(BLOCKS).values(blocker=blocker, blocked=blocked, since=at))
    except IntegrityError:
        return False
    return True


def unblock(conn: Connection, blocker: int, blocked: int) -> bool:
    r = conn.execute(delete(BLOCKS).where(BLOCKS.c.blocker == blocker, BLOCKS.c.blocked == blocked))
    return bool(r.rowcount)


def blocks(conn: Connection, blocker: int, blocked: int) -> bool:
    """Whether ``blocker`` blocked ``blocked`` (this direction only)."""
    q = select(BLOCKS.c.blocker).where(BLOCKS.c.blocker == blocker, BLOCKS.c.blocked == blocked)
    return conn.execute(q).first() is not None


def apart(conn: Connection, user_id: int, others: Iterable[int] | None = None) -> set[int]:
    """The accounts ``user_id`` blocked or is blocked by (among ``others`` when given)."""
    among = None if others is None else sorted(set(others) - {user_id})
    if among is not None and not among:
        return set()
    a = select(BLOCKS.c.blocked.label("other")).where(BLOCKS.c.blocker == user_id)
    b = select(BLOCKS.c.blocker.label("other")).where(BLOCKS.c.blocked == user_id)
    if among is not None:
        a, b = a.where(BLOCKS.c.blocked.in_(among)), b.where(BLOCKS.c.blocker.in_(among))
    return {r.other for r in conn.execute(a.union(b))}


def blocked_by(conn: Connection, blocker: int, limit: int) -> list[tuple[int, str, datetime]]:
    """The accounts ``blocker`` blocked (id, name, since), by name."""
    q = (
        select(USERS.c.id, USERS.c.name, BLOCKS.c.since)
        .join(BLOCKS, BLOCKS.c.blocked == USERS.c.id)
        .where(BLOCKS.c.blocker == blocker)
        .order_by(USERS.c.name_key)
        .limit(limit)
    )
    return [(r.id, r.name, _aware(r.since)) for r in conn.execute(q)]


def block_count(conn: Connection, blocker: int) -> int:
    return int(conn.execute(select(func.count()).where(BLOCKS.c.blocker == blocker)).scalar_one())


# ---------------------------------------------------------------------- the presence setting
def hidden(conn: Connection, user_ids: Iterable[int]) -> set[int]:
    """Which of these accounts hide their presence."""
    ids = sorted(set(user_ids))
    if not ids:
        return set()
    q = select(SETTINGS.c.user_id).where(SETTINGS.c.user_id.in_(ids), SETTINGS.c.hidden.is_(True))
    return {r.user_id for r in conn.execute(q)}


def set_hidden(conn: Connection, user_id: int, hide: bool) -> None:
    if conn.execute(update(SETTINGS).where(SETTINGS.c.user_id == user_id).values(hidden=hide)).rowcount == 0:
        conn.execute(insert(SETTINGS).values(user_id=user_id, hidden=hide))
