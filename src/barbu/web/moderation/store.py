"""The moderation's tables: players' reports, the moderators' log and the warnings a player has to read
(migration 0016).

Nothing here decides a rule (`barbu.web.moderation.service` does); these are the reads and writes, each taking an
open connection so that a caller makes several in one transaction.  A report names its target by its kind
("player", "club", "event"; later "message") and the target's id as text, with the target's name as it was then
(``label``), so that a report outlives a renamed or deleted target.  The log keeps the moderator's name beside his
id: an entry stays readable when his account is gone, and the operator at the shell has no account (None).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    and_,
    delete,
    exists,
    func,
    insert,
    literal,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Mapped, mapped_column

from ..accounts.store import USERS
from ..db.storage import Base, _aware, inserted_id, now, table_of

OPEN, ACTED, DISMISSED = "open", "acted", "dismissed"


class ReportRow(Base):
    """A player's report of a player, a club or an event: why, in his words, and whether a moderator closed it."""

    __tablename__ = "barbu_reports"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(16))
    target: Mapped[str] = mapped_column(String(64))
    label: Mapped[str] = mapped_column(String(80))
    reporter_id: Mapped[int | None] = mapped_column(ForeignKey("barbu_users.id", ondelete="SET NULL"), nullable=True)
    reason: Mapped[str] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    status: Mapped[str] = mapped_column(String(12))  # open, acted or dismissed
    closed_by_log: Mapped[int | None] = mapped_column(Integer, nullable=True)
    __table_args__ = (
        Index("ix_barbu_reports_target", "kind", "target", "status"),
        Index("ix_barbu_reports_reporter", "reporter_id", "created_at"),
    )


class LogRow(Base):
    """One action of a moderator (or of the operator at the shell): who, when, what, on what, why."""

    __tablename__ = "barbu_moderation_log"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    moderator_id: Mapped[int | None] = mapped_column(ForeignKey("barbu_users.id", ondelete="SET NULL"), nullable=True)
    moderator: Mapped[str | None] = mapped_column(String(64), nullable=True)  # None: the operator at the shell
    action: Mapped[str] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(16))
    target: Mapped[str] = mapped_column(String(64))
    label: Mapped[str] = mapped_column(String(80))
    reason: Mapped[str] = mapped_column(Text)
    until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)  # a mute's end
    undone_by: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the entry that reversed this one


class WarningRow(Base):
    """A moderator's warning to a player, shown on his pages until he says he has read it."""

    __tablename__ = "barbu_warnings"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("barbu_users.id", ondelete="CASCADE"), index=True)
    log_id: Mapped[int] = mapped_column(Integer, unique=True)
    reason: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


REPORTS = table_of(ReportRow)
LOG = table_of(LogRow)
WARNINGS = table_of(WarningRow)


@dataclass(frozen=True)
class Report:
    id: int
    kind: str
    target: str
    label: str
    reporter: str | None  # None: a deleted account
    reason: str
    text: str
    created_at: datetime


@dataclass(frozen=True)
class Entry:
    id: int
    at: datetime
    moderator: str | None
    action: str
    kind: str
    target: str
    label: str
    reason: str
    until: datetime | None
    undone_by: int | None


def _entry(r: Any) -> Entry:
    return Entry(
        r.id,
        _aware(r.at),
        r.moderator,
        r.action,
        r.kind,
        r.target,
        r.label,
        r.reason,
        _aware(r.until) if r.until else None,
        r.undone_by,
    )


# -- reports --
def add_report(
    conn: Connection,
    kind: str,
    target: str,
    label: str,
    reporter_id: int,
    reason: str,
    text: str,
    limit: int,
    since: datetime,
) -> bool:
    """File a report in one statement, unless the reporter has an open report of the same target already or has
    filed ``limit`` reports since ``since``: True when it was filed.  The check and the insert are one
    statement (on PostgreSQL after the reporter's row is locked), so a burst of reports cannot pass the limit."""
    if conn.dialect.name == "postgresql":  # one reporter's reports at once are counted one after the other
        conn.execute(select(USERS.c.id).where(USERS.c.id == reporter_id).with_for_update())
    mine = REPORTS.c.reporter_id == reporter_id
    recent = select(func.count()).select_from(REPORTS).where(mine, REPORTS.c.created_at >= since).scalar_subquery()
    same = exists().where(mine, REPORTS.c.kind == kind, REPORTS.c.target == target, REPORTS.c.status == OPEN)
    values = {
        "kind": kind,
        "target": target,
        "label": label,
        "reporter_id": reporter_id,
        "reason": reason,
        "text": text,
        "created_at": now(),
        "status": OPEN,
    }
    chosen = select(*(literal(v, REPORTS.c[k].type).label(k) for k, v in values.items())).where(recent < limit, ~same)
    filed = conn.execute(insert(REPORTS).from_select(list(values), chosen).returning(REPORTS.c.id)).first()
    return filed is not None  # (a driver's row count of an INSERT … SELECT may be unknown: -1)


def open_report_of(conn: Connection, kind: str, target: str, reporter_id: int) -> int | None:
    """The reporter's open report of this target, if any."""
    r = conn.execute(
        select(REPORTS.c.id).where(
            REPORTS.c.reporter_id == reporter_id,
            REPORTS.c.kind == kind,
            REPORTS.c.target == target,
            REPORTS.c.status == OPEN,
        )
    ).first()
    return None if r is None else int(r.id)


def update_report(conn: Connection, report_id: int, reason: str, text: str) -> None:
    conn.execute(update(REPORTS).where(REPORTS.c.id == report_id).values(reason=reason, text=text))


def reports_since(conn: Connection, reporter_id: int, since: datetime) -> list[datetime]:
    """When the reporter filed reports since ``since``, oldest first."""
    q = (
        select(REPORTS.c.created_at)
        .where(REPORTS.c.reporter_id == reporter_id, REPORTS.c.created_at >= since)
        .order_by(REPORTS.c.created_at)
    )
    return [_aware(r.created_at) for r in conn.execute(q)]


def open_reports(conn: Connection, limit: int = 1000) -> list[Report]:
    """The open reports, newest first, with their reporters' names."""
    q = (
        select(REPORTS, USERS.c.name.label("reporter"))
        .outerjoin(USERS, USERS.c.id == REPORTS.c.reporter_id)
        .where(REPORTS.c.status == OPEN)
        .order_by(REPORTS.c.created_at.desc(), REPORTS.c.id.desc())
        .limit(limit)
    )
    return [
        Report(r.id, r.kind, r.target, r.label, r.reporter, r.reason, r.text, _aware(r.created_at))
        for r in conn.execute(q)
    ]


def close_reports(conn: Connection, kind: str, target: str, status: str, log_id: int) -> int:
    """Close the target's open reports (acted on, or dismissed) by the log's entry ``log_id``: how many."""
    q = (
        update(REPORTS)
        .where(REPORTS.c.kind == kind, REPORTS.c.target == target, REPORTS.c.status == OPEN)
        .values(status=status, closed_by_log=log_id)
    )
    return int(conn.execute(q).rowcount or 0)


def reopen_reports(conn: Connection, log_id: int) -> int:
    """The reports the entry ``log_id`` closed, open again."""
    q = update(REPORTS).where(REPORTS.c.closed_by_log == log_id).values(status=OPEN, closed_by_log=None)
    return int(conn.execute(q).rowcount or 0)


def open_label(conn: Connection, kind: str, target: str) -> str | None:
    """The name an open report of this target gave it (None: no open report)."""
    r = conn.execute(
        select(REPORTS.c.label)
        .where(REPORTS.c.kind == kind, REPORTS.c.target == target, REPORTS.c.status == OPEN)
        .limit(1)
    ).first()
    return None if r is None else str(r.label)


def forget_target(conn: Connection, kind: str, target: str) -> None:
    """Every report about this target goes (its account was deleted)."""
    conn.execute(delete(REPORTS).where(REPORTS.c.kind == kind, REPORTS.c.target == target))


def forget_closed(conn: Connection, before: datetime) -> None:
    """Closed reports filed before ``before`` go (the log keeps what was done)."""
    conn.execute(delete(REPORTS).where(REPORTS.c.status != OPEN, REPORTS.c.created_at < before))


# -- the log --
def add_entry(
    conn: Connection,
    moderator_id: int | None,
    moderator: str | None,
    action: str,
    kind: str,
    target: str,
    label: str,
    reason: str,
    until: datetime | None = None,
) -> int:
    return inserted_id(
        conn.execute(
            insert(LOG).values(
                at=now(),
                moderator_id=moderator_id,
                moderator=moderator,
                action=action,
                kind=kind,
                target=target,
                label=label[:80],
                reason=reason,
                until=until,
                undone_by=None,
            )
        )
    )


def entry(conn: Connection, entry_id: int) -> Entry | None:
    r = conn.execute(select(LOG).where(LOG.c.id == entry_id)).first()
    return None if r is None else _entry(r)


def entries(conn: Connection, limit: int = 100, target: tuple[str, str] | None = None) -> list[Entry]:
    """The log, newest first (of one target: (kind, id))."""
    q = select(LOG)
    if target is not None:
        q = q.where(and_(LOG.c.kind == target[0], LOG.c.target == target[1]))
    return [_entry(r) for r in conn.execute(q.order_by(LOG.c.id.desc()).limit(limit))]


def set_undone(conn: Connection, entry_id: int, by: int) -> bool:
    """Mark the entry undone by ``by``, unless it was undone already (False)."""
    q = update(LOG).where(LOG.c.id == entry_id, LOG.c.undone_by.is_(None)).values(undone_by=by)
    return bool(conn.execute(q).rowcount)


# -- warnings --
def add_warning(conn: Connection, user_id: int, log_id: int, reason: str) -> None:
    conn.execute(insert(WARNINGS).values(user_id=user_id, log_id=log_id, reason=reason, at=now(), seen_at=None))


def withdraw_warning(conn: Connection, log_id: int) -> None:
    conn.execute(delete(WARNINGS).where(WARNINGS.c.log_id == log_id))


def unseen_warnings(conn: Connection, user_id: int) -> list[tuple[int, str, datetime]]:
    """The warnings a player has not said he read: (id, reason, when), oldest first."""
    q = (
        select(WARNINGS.c.id, WARNINGS.c.reason, WARNINGS.c.at)
        .where(WARNINGS.c.user_id == user_id, WARNINGS.c.seen_at.is_(None))
        .order_by(WARNINGS.c.id)
    )
    return [(int(r.id), r.reason, _aware(r.at)) for r in conn.execute(q)]


def see_warning(conn: Connection, user_id: int, warning_id: int) -> bool:
    """The player read his warning: False when there is no such warning of his still unread."""
    q = (
        update(WARNINGS)
        .where(WARNINGS.c.id == warning_id, WARNINGS.c.user_id == user_id, WARNINGS.c.seen_at.is_(None))
        .values(seen_at=now())
    )
    return bool(conn.execute(q).rowcount)
