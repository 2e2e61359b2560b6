"""The notifications' storage (migration 0020): each notice given to an account, the browsers' Web Push
subscriptions (one per device), each account's switches per kind, and the server's VAPID key.

A notice keeps its kind, its params (JSON: names, numbers, ids) and its link, never words: each reader's
page says it in his own language.  A notice given with a ``key`` is given once per account whatever the
number of processes that give it (a unique index: the second insert changes nothing).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Mapped, mapped_column

from ...core import safejson
from ..db.storage import Base, _aware, now, table_of

#: Every kind of notice, in the order the settings list them.
KINDS = ("turn", "challenge", "event-soon", "event-table", "club-invite", "moderator-reply")
KEEP_DAYS = 90  # a notice older than this goes (the sweeper)
LIST_MAX = 100  # the newest notices a list shows


class NotificationRow(Base):
    """One notice given to an account."""

    __tablename__ = "barbu_notifications"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("barbu_users.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(24))
    params: Mapped[str] = mapped_column(Text)  # JSON
    link: Mapped[str] = mapped_column(String(300))
    key: Mapped[str | None] = mapped_column(String(96), nullable=True)  # given once per account (e.g. an event's start)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    read_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    __table_args__ = (
        UniqueConstraint("user_id", "key", name="uq_barbu_notifications_key"),
        Index("ix_barbu_notifications_user", "user_id", "id"),
        Index("ix_barbu_notifications_created", "created_at"),
    )


class PushSubscriptionRow(Base):
    """A browser's Web Push subscription (RFC 8030): where to post, and its keys to encrypt for (RFC 8291)."""

    __tablename__ = "barbu_push_subscriptions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("barbu_users.id", ondelete="CASCADE"))
    endpoint: Mapped[str] = mapped_column(String(1000), unique=True)
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(64))
    device: Mapped[str] = mapped_column(String(80))  # "Chrome on Android", from the user agent
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_success: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    __table_args__ = (Index("ix_barbu_push_subscriptions_user", "user_id"),)


class SwitchRow(Base):
    """An account's choice for one kind: pushed to his devices, and e-mailed (absent: push on, e-mail off)."""

    __tablename__ = "barbu_notice_switches"
    user_id: Mapped[int] = mapped_column(ForeignKey("barbu_users.id", ondelete="CASCADE"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(24), primary_key=True)
    push: Mapped[bool] = mapped_column(Boolean)
    mail: Mapped[bool] = mapped_column(Boolean)


class VapidKeyRow(Base):
    """The server's VAPID private key (PEM), made on first need; the oldest row wins for every process."""

    __tablename__ = "barbu_vapid_keys"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    private_pem: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


NOTICES = table_of(NotificationRow)
SUBSCRIPTIONS = table_of(PushSubscriptionRow)
SWITCHES = table_of(SwitchRow)
VAPID = table_of(VapidKeyRow)


@dataclass(frozen=True)
class Notice:
    id: int
    kind: str
    params: dict[str, Any]
    link: str
    created_at: datetime
    read: bool

    def json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "params": self.params,
            "link": self.link,
            "at": self.created_at.isoformat(timespec="seconds"),
            "read": self.read,
        }


@dataclass(frozen=True)
class Subscription:
    id: int
    user_id: int
    endpoint: str
    p256dh: str
    auth: str
    device: str

    def info(self) -> dict[str, Any]:
        """As pywebpush takes it (the browser's PushSubscription.toJSON())."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


def _notice(r: Any) -> Notice:
    return Notice(r.id, r.kind, safejson.loads(r.params), r.link, _aware(r.created_at), r.read_at is not None)


# -- notices --
def add(conn: Connection, user_id: int, kind: str, params: dict[str, Any], link: str, key: str | None) -> Notice | None:
    """Store a notice: it, or None when one of that ``key`` was given to this account already."""
    values = dict(user_id=user_id, kind=kind, params=json.dumps(params), link=link, key=key, created_at=now())
    if key is None:
        new_id = conn.execute(insert(NOTICES).values(**values).returning(NOTICES.c.id)).scalar_one()
    else:
        ins = (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(NOTICES)
        q = ins.values(**values).on_conflict_do_nothing(index_elements=[NOTICES.c.user_id, NOTICES.c.key])
        new_id = conn.execute(q.returning(NOTICES.c.id)).scalar()
        if new_id is None:
            return None
    return Notice(int(new_id), kind, params, link, values["created_at"], False)  # type: ignore[arg-type]


def unread_of(conn: Connection, user_id: int, kind: str, link: str) -> bool:
    """Whether he has an unread notice of this kind and link (a table waiting for him, told already)."""
    q = select(NOTICES.c.id).where(
        NOTICES.c.user_id == user_id, NOTICES.c.kind == kind, NOTICES.c.link == link, NOTICES.c.read_at.is_(None)
    )
    return conn.execute(q.limit(1)).first() is not None


def of_user(conn: Connection, user_id: int, n: int = LIST_MAX) -> list[Notice]:
    """An account's newest notices, newest first."""
    q = select(NOTICES).where(NOTICES.c.user_id == user_id).order_by(NOTICES.c.id.desc()).limit(n)
    return [_notice(r) for r in conn.execute(q)]


def unread(conn: Connection, user_id: int) -> int:
    q = select(func.count()).select_from(NOTICES).where(NOTICES.c.user_id == user_id, NOTICES.c.read_at.is_(None))
    return int(conn.execute(q).scalar() or 0)


def mark_read(conn: Connection, user_id: int, notice_id: int | None) -> int:
    """Mark one of his notices read (None: all of them): how many changed."""
    q = update(NOTICES).where(NOTICES.c.user_id == user_id, NOTICES.c.read_at.is_(None))
    if notice_id is not None:
        q = q.where(NOTICES.c.id == notice_id)
    return int(conn.execute(q.values(read_at=now())).rowcount or 0)


def sweep(conn: Connection, before: datetime) -> int:
    """Forget the notices older than ``before``."""
    return int(conn.execute(delete(NOTICES).where(NOTICES.c.created_at < before)).rowcount or 0)


# -- switches --
def switches(conn: Connection, user_id: int) -> dict[str, dict[str, bool]]:
    """Each kind's {push, mail} for this account (the defaults where he chose nothing)."""
    found = {k: {"push": True, "mail": False} for k in KINDS}
    for r in conn.execute(select(SWITCHES).where(SWITCHES.c.user_id == user_id)):
        if r.kind in found:
            found[r.kind] = {"push": bool(r.push), "mail": bool(r.mail)}
    return found


def set_switch(conn: Connection, user_id: int, kind: str, push: bool, mail: bool) -> None:
    ins = (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(SWITCHES)
    q = ins.values(user_id=user_id, kind=kind, push=push, mail=mail).on_conflict_do_update(
        index_elements=[SWITCHES.c.user_id, SWITCHES.c.kind], set_={"push": push, "mail": mail}
    )
    conn.execute(q)


# -- push subscriptions --
def subscribe(conn: Connection, user_id: int, endpoint: str, p256dh: str, auth: str, device: str) -> int:
    """Keep a device's subscription for this account (an endpoint seen before is his now, with its new keys)."""
    conn.execute(delete(SUBSCRIPTIONS).where(SUBSCRIPTIONS.c.endpoint == endpoint))
    values = dict(user_id=user_id, endpoint=endpoint, p256dh=p256dh, auth=auth, device=device, created_at=now())
    return int(conn.execute(insert(SUBSCRIPTIONS).values(**values).returning(SUBSCRIPTIONS.c.id)).scalar_one())


def unsubscribe(conn: Connection, user_id: int, endpoint: str) -> bool:
    q = delete(SUBSCRIPTIONS).where(SUBSCRIPTIONS.c.user_id == user_id, SUBSCRIPTIONS.c.endpoint == endpoint)
    return bool(conn.execute(q).rowcount)


def subscriptions(conn: Connection, user_id: int) -> list[Subscription]:
    q = select(SUBSCRIPTIONS).where(SUBSCRIPTIONS.c.user_id == user_id).order_by(SUBSCRIPTIONS.c.id)
    return [Subscription(r.id, r.user_id, r.endpoint, r.p256dh, r.auth, r.device) for r in conn.execute(q)]


def count_subscriptions(conn: Connection, user_id: int) -> int:
    q = select(func.count()).select_from(SUBSCRIPTIONS).where(SUBSCRIPTIONS.c.user_id == user_id)
    return int(conn.execute(q).scalar() or 0)


def pushed(conn: Connection, subscription_id: int) -> None:
    conn.execute(update(SUBSCRIPTIONS).where(SUBSCRIPTIONS.c.id == subscription_id).values(last_success=now()))


def gone(conn: Connection, sub: Subscription) -> None:
    """The push service says this subscription is no more (404, 410): it goes (that one: its id and endpoint)."""
    conn.execute(delete(SUBSCRIPTIONS).where(SUBSCRIPTIONS.c.id == sub.id, SUBSCRIPTIONS.c.endpoint == sub.endpoint))


# -- the VAPID key --
def vapid_pem(conn: Connection, make: Any) -> str:
    """The server's VAPID private key: the oldest kept, or ``make()``'s, kept (two processes making one at
    once: the older row wins for both)."""

    def oldest() -> str | None:
        return conn.execute(select(VAPID.c.private_pem).order_by(VAPID.c.id).limit(1)).scalar()

    found = oldest()
    if found is None:
        conn.execute(insert(VAPID).values(private_pem=make(), created_at=now()))
        found = oldest()
    assert found is not None
    return found
