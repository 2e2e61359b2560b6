"""The double-dummy tables solved in the background (migration 0024): one row a deal as dealt.

Nothing here solves (`barbu.web.replay.solved` does).  A row is keyed by the deal's `board_key`, so two processes
(or two days' sets that happen to deal alike) add it once; it holds the actions that deal it on a fresh match,
so any process can solve it after a restart.  A row is "waiting" until a process claims it ("solving"), in one
UPDATE whose WHERE only one claimer can pass: a waiting row, or one whose claim was not renewed for ``stale``
seconds (its process is gone).  The claimer renews its claim as cells are solved and writes the cells ("done").
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import DateTime, Float, Index, Integer, String, Text, case, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from ...core import safejson
from .storage import Base, now, table_of

WAITING, SOLVING, DONE = "waiting", "solving", "done"


class SolvedTableRow(Base):
    """One deal's double-dummy table, to be solved or solved."""

    __tablename__ = "barbu_solved_tables"
    __table_args__ = (Index("ix_barbu_solved_tables_state", "state", "created_at"),)
    key: Mapped[str] = mapped_column(String(32), primary_key=True)
    source: Mapped[str] = mapped_column(String(120))  # "daily:<day>/<game>/<board>", "event:<id>/<round>/<deal>"
    rules: Mapped[str] = mapped_column(String(400))
    actions: Mapped[str] = mapped_column(Text)  # the chance actions dealing it on a fresh match, one a line
    seconds: Mapped[float] = mapped_column(Float)  # each cell's budget
    state: Mapped[str] = mapped_column(String(8))
    claimed_by: Mapped[str | None] = mapped_column(String(40), nullable=True)
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    solved_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    cells: Mapped[str | None] = mapped_column(Text, nullable=True)  # `ddtable.table_json`
    exact_cells: Mapped[int | None] = mapped_column(Integer, nullable=True)
    total_cells: Mapped[int | None] = mapped_column(Integer, nullable=True)


SOLVED = table_of(SolvedTableRow)


@dataclass(frozen=True)
class Board:
    """A deal to solve: its key, where it came from, its rules and the actions dealing it, each cell's budget."""

    key: str
    source: str
    rules: str
    actions: tuple[str, ...]
    seconds: float


def add(engine: Engine, board: Board) -> bool:
    """The deal to be solved, unless it is there already (whatever process added it): whether it was added."""
    try:
        with engine.begin() as conn:
            conn.execute(
                insert(SOLVED).values(
                    key=board.key,
                    source=board.source[:120],
                    rules=board.rules,
                    actions="\n".join(board.actions),
                    seconds=board.seconds,
                    state=WAITING,
                    created_at=now(),
                )
            )
        return True
    except IntegrityError:
        return False


def known(conn: Connection, keys: list[str]) -> set[str]:
    """Which of these deals are there already (waiting, being solved or solved)."""
    return set(conn.execute(select(SOLVED.c.key).where(SOLVED.c.key.in_(keys))).scalars()) if keys else set()


def to_solve(conn: Connection, stale: float, limit: int = 8) -> list[Board]:
    """Deals waiting, or claimed by a process that stopped renewing its claim ``stale`` seconds ago: an event's
    first (its round is played within the hour, a day's deals all day), then the oldest first."""
    cut = now() - timedelta(seconds=stale)
    q = (
        select(SOLVED)
        .where((SOLVED.c.state == WAITING) | ((SOLVED.c.state == SOLVING) & (SOLVED.c.claimed_at < cut)))
        .order_by(case((SOLVED.c.source.like("event:%"), 0), else_=1), SOLVED.c.created_at, SOLVED.c.key)
        .limit(limit)
    )
    return [
        Board(r.key, r.source, r.rules, tuple(a for a in r.actions.split("\n") if a), r.seconds)
        for r in conn.execute(q)
    ]


def claim(engine: Engine, key: str, claimer: str, stale: float) -> bool:
    """Claim a deal to solve: true for exactly one claimer, however many try at once."""
    cut = now() - timedelta(seconds=stale)
    with engine.begin() as conn:
        done = conn.execute(
            update(SOLVED)
            .where(
                SOLVED.c.key == key,
                (SOLVED.c.state == WAITING) | ((SOLVED.c.state == SOLVING) & (SOLVED.c.claimed_at < cut)),
            )
            .values(state=SOLVING, claimed_by=claimer, claimed_at=now())
        )
    return done.rowcount == 1


def renew(engine: Engine, key: str, claimer: str) -> bool:
    """Renew one's claim (still solving): false once another process has taken it over."""
    with engine.begin() as conn:
        done = conn.execute(
            update(SOLVED)
            .where(SOLVED.c.key == key, SOLVED.c.state == SOLVING, SOLVED.c.claimed_by == claimer)
            .values(claimed_at=now())
        )
    return done.rowcount == 1


def save(engine: Engine, key: str, claimer: str, cells: dict[str, Any], exact: int, total: int) -> bool:
    """The solved cells, written by the claimer (whether it still held the claim)."""
    with engine.begin() as conn:
        done = conn.execute(
            update(SOLVED)
            .where(SOLVED.c.key == key, SOLVED.c.claimed_by == claimer, SOLVED.c.state == SOLVING)
            .values(
                state=DONE,
                solved_at=now(),
                cells=json.dumps(cells, separators=(",", ":")),
                exact_cells=exact,
                total_cells=total,
            )
        )
    return done.rowcount == 1


def cells_of(conn: Connection, key: str) -> tuple[dict[str, Any], float] | None:
    """A solved deal's cells (`ddtable.table_json`) and each cell's budget, or None when it is not solved."""
    row = conn.execute(
        select(SOLVED.c.cells, SOLVED.c.seconds).where(SOLVED.c.key == key, SOLVED.c.state == DONE)
    ).first()
    if row is None or not row.cells:
        return None
    try:
        found = safejson.loads(row.cells)
    except safejson.JsonError:
        return None
    return (found, float(row.seconds)) if isinstance(found, dict) else None


def state_of(conn: Connection, key: str) -> str | None:
    return conn.execute(select(SOLVED.c.state).where(SOLVED.c.key == key)).scalar()
