"""Every e-mail the server sends is counted first: a budget per recipient and per account per day.

A count is reserved before the mail is sent, each by one atomic SQL statement (an upsert that adds one
only while the count is under its limit), all of one mail's counts in one transaction: so a burst of
requests, on one process or on many sharing the database, never sends more than the day's budget.  A
mail the mail server then refuses still counts (the budget is of attempts).  Days are UTC days.

The recipient is never stored as it is: only HMAC-SHA256 of the address (lower-cased) under the server's
key (`Store.creations_key`).  Turn reminders keep, per account, since when one is due and when the last
was sent (`ReminderRow`), so that every process batches them alike (`barbu.web.tables.outside`).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
from datetime import date, datetime, timedelta
from email.message import EmailMessage
from typing import Any, Sequence

from sqlalchemy import Date, DateTime, Integer, String, delete, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Mapped, mapped_column

from ..common import mail
from ..common.settings import Settings
from .storage import Base, Store, _aware, now, table_of

log = logging.getLogger("barbu.web")

#: A count and its limit for today, e.g. ("to:<hmac>", 10).
Budget = tuple[str, int]


class MailCountRow(Base):
    """How many mails of one kind went to one recipient, or from one account, on one UTC day."""

    __tablename__ = "barbu_mail_counts"
    key: Mapped[str] = mapped_column(String(96), primary_key=True)  # "to:<hmac>", "account:<id>", "reset-ip:<hmac>"…
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    n: Mapped[int] = mapped_column(Integer)


class ReminderRow(Base):
    """An account's turn reminders: since when one is due (None: none) and when the last was sent."""

    __tablename__ = "barbu_turn_reminders"
    user_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    due_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


COUNTS = table_of(MailCountRow)
REMINDERS = table_of(ReminderRow)


class BudgetSpent(Exception):
    """One of a mail's counts is at its limit for today: nothing was counted, nothing is sent."""


def today() -> date:
    return now().date()


def recipient(key: bytes, address: str) -> str:
    """The recipient as counted: HMAC of the address, lower-cased."""
    return hmac.new(key, address.strip().lower().encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()


def _take_one(conn: Connection, key: str, limit: int, day: date) -> bool:
    """Add one to ``key``'s count of ``day`` unless it is at ``limit``: one statement, atomic on its own."""
    ins = (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(COUNTS)
    stmt = (
        ins.values(key=key, day=day, n=1)
        .on_conflict_do_update(
            index_elements=[COUNTS.c.key, COUNTS.c.day], set_={"n": COUNTS.c.n + 1}, where=COUNTS.c.n < limit
        )
        .returning(COUNTS.c.n)
    )
    return limit > 0 and conn.execute(stmt).first() is not None


def reserve(conn: Connection, budgets: Sequence[Budget], day: date | None = None) -> None:
    """Count one against every budget, or raise `BudgetSpent` (the caller's transaction is then rolled back,
    so no count is kept).  Keys are taken in order, so two reservations never wait on each other in a ring."""
    day = day or today()
    for key, limit in sorted(budgets):
        if not _take_one(conn, key, limit, day):
            raise BudgetSpent(key.split(":", 1)[0])


def spent(conn: Connection, key: str, day: date | None = None) -> int:
    r = conn.execute(select(COUNTS.c.n).where(COUNTS.c.key == key, COUNTS.c.day == (day or today()))).first()
    return 0 if r is None else int(r.n)


def sweep(conn: Connection) -> None:
    """Forget the counts of days before yesterday."""
    conn.execute(delete(COUNTS).where(COUNTS.c.day < today() - timedelta(days=1)))


def budgets(settings: Settings, key: bytes, user_id: int | None, to: str) -> list[Budget]:
    """The day's budgets every mail counts against: its recipient's, and its account's."""
    found = [(f"to:{recipient(key, to)}", settings.mails_per_address)]
    if user_id is not None:
        found.append((f"account:{user_id}", settings.mails_per_account))
    return found


async def take(settings: Settings, store: Store, to: str, user_id: int | None, extra: Sequence[Budget] = ()) -> bool:
    """Reserve one mail to ``to``: its recipient's and its account's counts, and ``extra``, all or none.
    False when a budget is spent (one line in the log, without the address)."""
    key = await asyncio.to_thread(store.creations_key)
    wanted = budgets(settings, key, user_id, to) + list(extra)

    def reserve_all() -> None:
        with store.engine.begin() as conn:
            reserve(conn, wanted)

    try:
        await asyncio.to_thread(reserve_all)
    except BudgetSpent as e:
        log.info("mail: an e-mail was not sent: the day's %s budget is spent", e)
        return False
    return True


async def deliver(
    settings: Settings, store: Store, msg: EmailMessage, user_id: int | None, extra: Sequence[Budget] = ()
) -> bool:
    """Reserve the mail's counts (`take`), then send it.  False when a budget is spent (nothing sent) or the
    mail server refused it."""
    return await take(settings, store, str(msg["To"]), user_id, extra) and await mail.send(settings, msg)


# -- turn reminders --
def note_due(conn: Connection, user_id: int) -> None:
    """A table waits for this account: a reminder is due from now, unless one is due already."""
    ins = (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(REMINDERS)
    t = now()
    conn.execute(
        ins.values(user_id=user_id, due_since=t, sent_at=None).on_conflict_do_update(
            index_elements=[REMINDERS.c.user_id], set_={"due_since": func.coalesce(REMINDERS.c.due_since, t)}
        )
    )


def when_due(conn: Connection, user_id: int, wait: float, every: float) -> datetime | None:
    """When this account's reminder may go (None: none is due)."""
    r = conn.execute(select(REMINDERS).where(REMINDERS.c.user_id == user_id)).first()
    if r is None or r.due_since is None:
        return None
    at = _aware(r.due_since) + timedelta(seconds=wait)
    if r.sent_at is not None:
        at = max(at, _aware(r.sent_at) + timedelta(seconds=every))
    return at


def take_due(conn: Connection, user_id: int, wait: float, every: float, sending: bool) -> bool:
    """Claim this account's due reminder, once among all processes: True for the one claim that wins.

    ``sending``: a mail will go (its sending time is kept, the next waits ``every``); else the reminder is
    only dropped (nothing waits for the player any more)."""
    t = now()
    q = update(REMINDERS).where(
        REMINDERS.c.user_id == user_id,
        REMINDERS.c.due_since.isnot(None),
        REMINDERS.c.due_since <= t - timedelta(seconds=wait),
    )
    if sending:
        q = q.where((REMINDERS.c.sent_at.is_(None)) | (REMINDERS.c.sent_at <= t - timedelta(seconds=every)))
    values: dict[str, Any] = {"due_since": None} | ({"sent_at": t} if sending else {})
    return conn.execute(q.values(**values)).rowcount == 1
