"""Who owns each unfinished table when several server processes share one database.

A table is played by one actor in one process at a time (`barbu.web.tables.actor.Table`).  With many processes,
the one that owns it holds a lease, a row of ``barbu_leases``: its owner (the process's node id), an
epoch, and when it ends unless renewed.  Leases live in the database the journal writes to, on the
database's own clock, so no two machines need agree on the time.

Fencing (Kleppmann, "How to do distributed locking"): a lease that ends is not enough, since a process
paused past its lease (a long GC, SIGSTOP, a cut network) still believes it owns the table when it wakes.
So every write of a table's journal carries the epoch its writer was given, and is checked in the same
transaction against the lease row, locked for share: a write whose epoch is no longer the lease's is
refused (`Fenced`), and a process that takes a table over bumps the epoch before it reads the journal.
Either the old owner's write committed first, and the new owner reads it, or it is refused.

Deadlocks: a journal's transaction locks the lease rows of the tables it writes for (`refused`, for share)
while a renewal locks all of one process's rows (`renew`, for update).  Two transactions that take the same
rows in two orders can wait for each other, and PostgreSQL then kills one: at 500 tables on two busy
processes, a renewal that died so let leases lapse and the processes took tables from each other.  So every
statement here that locks several rows takes them in one order, by table id, and `transaction` runs a
transaction again when it still meets a deadlock or a serialization failure.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Callable, Iterable, TypeVar

from sqlalchemy import Select, insert, select, text, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError

from .storage import LEASES, TABLES

log = logging.getLogger("barbu.web")

#: Statuses of a table that still needs an owner (a finished table is only read).
UNFINISHED = ("open", "playing")

#: PostgreSQL's codes for a transaction it ended to undo a deadlock, or a serialization failure: run it again.
RETRYABLE = {"40P01", "40001"}

T = TypeVar("T")


def retryable(exc: BaseException) -> bool:
    """Whether the database ended this transaction only because of another one (deadlock, serialization)."""
    code = getattr(getattr(exc, "orig", None), "pgcode", None) or getattr(getattr(exc, "orig", None), "sqlstate", None)
    return isinstance(exc, DBAPIError) and code in RETRYABLE


def transaction(engine: Engine, fn: Callable[[Connection], T], tries: int = 4) -> T:
    """``fn(connection)`` in a transaction of its own, run again (up to ``tries`` times in all, after a short
    wait) when the database ended it for a deadlock or a serialization failure; one log line when it does."""
    for attempt in range(1, tries + 1):
        try:
            with engine.begin() as conn:
                return fn(conn)
        except DBAPIError as exc:
            if attempt == tries or not retryable(exc):
                raise
            log.warning("leases: a transaction met a deadlock or a serialization failure; running it again")
            time.sleep(0.01 * attempt)
    raise AssertionError("unreachable")


class Fenced(Exception):
    """A write for a table whose lease has passed to another process since its writer was given it."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id}: its lease has passed to another process")
        self.table_id = table_id


@dataclass(frozen=True)
class Lease:
    table_id: str
    owner: str
    epoch: int
    expires: float  # seconds since 1970, the database's clock

    def alive(self, at: float) -> bool:
        return self.expires > at


def db_now(conn: Connection) -> float:
    """Seconds since 1970 on the database's clock: every process reads the same one."""
    if conn.dialect.name == "postgresql":
        return float(conn.execute(text("SELECT extract(epoch from clock_timestamp())")).scalar_one())
    return float(conn.execute(text("SELECT (julianday('now') - 2440587.5) * 86400.0")).scalar_one())


def claim(conn: Connection, table_id: str, node: str, ttl: float) -> int | None:
    """Take the table's lease if nobody holds it (or it has ended); its new epoch, or None if it is held.

    Taking it bumps the epoch, so whatever its last owner still tries to write is refused from now on."""
    at = db_now(conn)
    row = conn.execute(
        update(LEASES)
        .where(LEASES.c.table_id == table_id, LEASES.c.expires <= at)
        .values(owner=node, epoch=LEASES.c.epoch + 1, expires=at + ttl)
        .returning(LEASES.c.epoch)
    ).first()
    if row is not None:
        return int(row.epoch)
    if conn.execute(select(LEASES.c.table_id).where(LEASES.c.table_id == table_id)).first() is not None:
        return None  # held by a live owner
    try:
        with conn.begin_nested():  # another process may insert the same row at the same moment
            conn.execute(insert(LEASES).values(table_id=table_id, owner=node, epoch=1, expires=at + ttl))
    except IntegrityError:
        return None
    return 1


def renew(conn: Connection, node: str, ttl: float) -> dict[str, int]:
    """Extend every lease ``node`` still holds; the tables it holds, with their epochs.

    A lease past its end that nobody has taken is still ours (its epoch has not moved): renewing it is safe,
    since fencing is by epoch, not by time.  The rows are locked first, in table id order (see the module's
    docstring), then extended: an UPDATE alone locks them in whatever order the database scans them."""
    at = db_now(conn)
    ids = list(conn.execute(renew_lock(node)).scalars())
    if not ids:
        return {}
    rows = conn.execute(
        update(LEASES)
        .where(LEASES.c.table_id.in_(ids), LEASES.c.owner == node)
        .values(expires=at + ttl)
        .returning(LEASES.c.table_id, LEASES.c.epoch)
    )
    return {r.table_id: int(r.epoch) for r in rows}


def renew_lock(node: str) -> Select[tuple[str]]:
    """The lease rows of ``node``, locked for update in table id order (`renew`'s first statement)."""
    return select(LEASES.c.table_id).where(LEASES.c.owner == node).order_by(LEASES.c.table_id).with_for_update()


def hand_over(conn: Connection, tables: dict[str, int], node: str, successor: str, ttl: float) -> set[str]:
    """Give these tables (table -> the epoch ``node`` holds) to ``successor`` at once, each with its epoch bumped
    (what ``node`` still writes is refused); the tables handed over (a lease that moved meanwhile is not).

    The rows are changed in table id order, as every locker takes them."""
    at = db_now(conn)
    handed: set[str] = set()
    for table_id in sorted(tables):
        row = conn.execute(
            update(LEASES)
            .where(LEASES.c.table_id == table_id, LEASES.c.owner == node, LEASES.c.epoch == tables[table_id])
            .values(owner=successor, epoch=LEASES.c.epoch + 1, expires=at + ttl)
            .returning(LEASES.c.table_id)
        ).first()
        if row is not None:
            handed.add(table_id)
    return handed


def release(conn: Connection, table_id: str, node: str, epoch: int) -> bool:
    """End a lease at once (a process handing its tables over before it stops, or a finished table)."""
    res = conn.execute(
        update(LEASES)
        .where(LEASES.c.table_id == table_id, LEASES.c.owner == node, LEASES.c.epoch == epoch)
        .values(expires=0.0)
    )
    return bool(res.rowcount)


def orphans(conn: Connection, limit: int = 100) -> list[str]:
    """Unfinished tables whose lease has ended or that never had one: they need a new owner."""
    at = db_now(conn)
    q = (
        select(TABLES.c.id)
        .select_from(TABLES.outerjoin(LEASES, LEASES.c.table_id == TABLES.c.id))
        .where(TABLES.c.status.in_(UNFINISHED), (LEASES.c.expires.is_(None)) | (LEASES.c.expires <= at))
        .order_by(TABLES.c.created_at)
        .limit(limit)
    )
    return [r.id for r in conn.execute(q)]


def leases(conn: Connection, table_ids: Iterable[str]) -> tuple[dict[str, Lease], float]:
    """The leases of these tables, and the database's time to judge them by."""
    ids = list(table_ids)
    at = db_now(conn)
    if not ids:
        return {}, at
    rows = conn.execute(select(LEASES).where(LEASES.c.table_id.in_(ids)))
    return {r.table_id: Lease(r.table_id, r.owner, int(r.epoch), float(r.expires)) for r in rows}, at


def held(conn: Connection) -> tuple[dict[str, int], float]:
    """How many live leases each process holds, and the database's time: the whole server's health."""
    at = db_now(conn)
    counts: dict[str, int] = {}
    for r in conn.execute(select(LEASES.c.owner).where(LEASES.c.expires > at)):
        counts[r.owner] = counts.get(r.owner, 0) + 1
    return counts, at


def refused(conn: Connection, fences: dict[str, int]) -> set[str]:
    """The tables among ``fences`` (table -> the epoch a write carries) whose lease has another epoch.

    The lease rows are locked for share until the transaction ends, so no process can take one of these
    tables over between this check and the commit of the writes it allows."""
    if not fences:
        return set()
    q = refused_lock(fences)
    if conn.dialect.name == "postgresql":
        q = q.with_for_update(read=True)
    current = {r.table_id: int(r.epoch) for r in conn.execute(q)}
    return {tid for tid, epoch in fences.items() if current.get(tid) != epoch}


def refused_lock(fences: dict[str, int]) -> Select[tuple[str, int]]:
    """`refused`'s statement (before its lock for share): the rows in table id order, as every locker takes them."""
    return (
        select(LEASES.c.table_id, LEASES.c.epoch)
        .where(LEASES.c.table_id.in_(sorted(fences)))
        .order_by(LEASES.c.table_id)
    )
