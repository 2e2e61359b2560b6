"""The puzzles' tables (migration 0023): the puzzles with their ratings, the solvers' ratings, and the attempts.

Nothing here decides a rule (`barbu.web.puzzles.service` does).  A puzzle row holds the puzzle's JSON
(`barbu.puzzles.model.Puzzle.to_dict`) beside the fields it is chosen by, and its rating (OpenSkill's mu and
sigma) with how often it was played and solved; ``owner_id`` is None for the library's puzzles and the
account's id for the puzzles found in his own matches.  A solver is ``who``: "u:<account id>" or
"g:<SHA-256 of the browser's guest cookie>" (the daily deals' guest identity).  An attempt is offered first and
answered once: (who, puzzle) is unique, and the answer is one ``UPDATE … WHERE answered_at IS NULL``, so a
replayed or raced answer finds nothing to update, on SQLite as on PostgreSQL, in one process or many.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    and_,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from ...ratings.rating import Rating
from ..db.storage import Base, _aware, now, table_of


class PuzzleRow(Base):
    """One puzzle and its rating."""

    __tablename__ = "barbu_puzzles"
    __table_args__ = (
        Index("ix_barbu_puzzles_owner", "owner_id", "added_at"),
        Index("ix_barbu_puzzles_choice", "owner_id", "family", "contract", "theme", "kind"),
    )
    id: Mapped[str] = mapped_column(String(12), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    family: Mapped[str] = mapped_column(String(32))
    contract: Mapped[str] = mapped_column(String(64))
    theme: Mapped[str] = mapped_column(String(24))
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("barbu_users.id", ondelete="CASCADE"), nullable=True)
    body: Mapped[str] = mapped_column(Text)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    plays: Mapped[int] = mapped_column(Integer)
    solved: Mapped[int] = mapped_column(Integer)
    added_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PuzzlePlayerRow(Base):
    """A solver's puzzle rating and streaks (an account's or a guest browser's)."""

    __tablename__ = "barbu_puzzle_players"
    __table_args__ = (Index("ix_barbu_puzzle_players_user", "user_id", unique=True),)
    who: Mapped[str] = mapped_column(String(80), primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("barbu_users.id", ondelete="CASCADE"), nullable=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    plays: Mapped[int] = mapped_column(Integer)
    solved: Mapped[int] = mapped_column(Integer)
    streak: Mapped[int] = mapped_column(Integer)
    streak_level: Mapped[float] = mapped_column(Float)
    best_streak: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PuzzleAttemptRow(Base):
    """One solver's one attempt at one puzzle: offered, then answered once."""

    __tablename__ = "barbu_puzzle_attempts"
    __table_args__ = (
        UniqueConstraint("who", "puzzle_id", name="uq_barbu_puzzle_attempt"),
        Index("ix_barbu_puzzle_attempts_who", "who", "answered_at"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    who: Mapped[str] = mapped_column(String(80))
    puzzle_id: Mapped[str] = mapped_column(ForeignKey("barbu_puzzles.id", ondelete="CASCADE"))
    mode: Mapped[str] = mapped_column(String(8))
    offered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    answered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    answer: Mapped[str | None] = mapped_column(String(8), nullable=True)
    solved: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    before: Mapped[int | None] = mapped_column(Integer, nullable=True)
    after: Mapped[int | None] = mapped_column(Integer, nullable=True)


class PuzzleHarvestRow(Base):
    """One finished day's set or event round looked at for the server's own puzzles (`barbu.web.puzzles.harvest`):
    claimed by one process (the primary key settles a race), then done."""

    __tablename__ = "barbu_puzzle_harvests"
    source: Mapped[str] = mapped_column(String(80), primary_key=True)
    claimer: Mapped[str] = mapped_column(String(16))
    claimed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    done_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    found: Mapped[int] = mapped_column(Integer)


PUZZLES = table_of(PuzzleRow)
PLAYERS = table_of(PuzzlePlayerRow)
ATTEMPTS = table_of(PuzzleAttemptRow)
HARVESTS = table_of(PuzzleHarvestRow)


@dataclass(frozen=True)
class Stored:
    """A puzzle as stored: its JSON, its rating and its counts."""

    id: str
    kind: str
    family: str
    contract: str
    theme: str
    owner_id: int | None
    body: str
    rating: Rating
    plays: int
    solved: int
    added_at: datetime


@dataclass(frozen=True)
class Solver:
    """A solver's puzzle rating (``rating.matches`` is his rated answers) and streaks."""

    who: str
    rating: Rating
    solved: int
    streak: int
    streak_level: float
    best_streak: int


@dataclass(frozen=True)
class Attempt:
    who: str
    puzzle_id: str
    mode: str
    offered_at: datetime
    answered_at: datetime | None
    answer: str | None
    solved: bool | None
    before: int | None
    after: int | None


NEWCOMER = Rating()


def _stored(r: Any) -> Stored:
    return Stored(
        r.id,
        r.kind,
        r.family,
        r.contract,
        r.theme,
        r.owner_id,
        r.body,
        Rating(r.mu, r.sigma, r.plays),
        r.plays,
        r.solved,
        _aware(r.added_at),
    )


def _attempt(r: Any) -> Attempt:
    return Attempt(
        r.who,
        r.puzzle_id,
        r.mode,
        _aware(r.offered_at),
        None if r.answered_at is None else _aware(r.answered_at),
        r.answer,
        r.solved,
        r.before,
        r.after,
    )


# -- puzzles
def known_ids(conn: Connection, ids: Sequence[str]) -> set[str]:
    """Which of ``ids`` are stored already."""
    found: set[str] = set()
    for i in range(0, len(ids), 500):
        found.update(conn.execute(select(PUZZLES.c.id).where(PUZZLES.c.id.in_(ids[i : i + 500]))).scalars())
    return found


def add_puzzles(engine: Engine, rows: Iterable[dict[str, Any]], owner_id: int | None = None) -> int:
    """Store the puzzles not stored yet (a rating of their own, a newcomer's), keeping those that are: how many
    were added.  Rows are ``{"id", "kind", "family", "contract", "theme", "body"}``.  Idempotent and safe
    against another process adding the same at once (a clash is skipped by the database)."""
    rows = list(rows)
    with engine.connect() as conn:
        known = known_ids(conn, [r["id"] for r in rows])
    fresh = [
        {
            **r,
            "owner_id": owner_id,
            "mu": NEWCOMER.mu,
            "sigma": NEWCOMER.sigma,
            "plays": 0,
            "solved": 0,
            "added_at": now(),
        }
        for r in rows
        if r["id"] not in known
    ]
    if not fresh:
        return 0
    with engine.begin() as conn:  # one statement; a puzzle another process added meanwhile is skipped
        conn.execute(insert_new(conn), fresh)
    return len(fresh)


def insert_new(conn: Connection) -> Any:
    """An insert of puzzles that skips those already stored (SQLite's and PostgreSQL's ON CONFLICT DO NOTHING)."""
    if conn.dialect.name == "postgresql":
        return postgresql.insert(PUZZLES).on_conflict_do_nothing(index_elements=["id"])
    return sqlite.insert(PUZZLES).on_conflict_do_nothing(index_elements=["id"])


def puzzle(conn: Connection, pid: str) -> Stored | None:
    r = conn.execute(select(PUZZLES).where(PUZZLES.c.id == pid)).first()
    return None if r is None else _stored(r)


def library_count(conn: Connection) -> int:
    return int(conn.execute(select(func.count()).select_from(PUZZLES).where(PUZZLES.c.owner_id.is_(None))).scalar_one())


def choices(conn: Connection) -> list[tuple[str, str, str, str, int]]:
    """The library's (family, contract, theme, kind) with how many puzzles each has."""
    q = (
        select(PUZZLES.c.family, PUZZLES.c.contract, PUZZLES.c.theme, PUZZLES.c.kind, func.count())
        .where(PUZZLES.c.owner_id.is_(None))
        .group_by(PUZZLES.c.family, PUZZLES.c.contract, PUZZLES.c.theme, PUZZLES.c.kind)
    )
    return [(r[0], r[1], r[2], r[3], int(r[4])) for r in conn.execute(q)]


def candidates(
    conn: Connection, who: str, filters: dict[str, str], around: float, limit: int = 60, owner_id: int | None = None
) -> list[Stored]:
    """Up to ``limit`` puzzles ``who`` has not been offered, matching ``filters`` (family, contract, theme,
    kind), nearest to the rating mean ``around``: the library's, or the account ``owner_id``'s own."""
    tried = select(ATTEMPTS.c.puzzle_id).where(ATTEMPTS.c.who == who)
    owner = PUZZLES.c.owner_id.is_(None) if owner_id is None else PUZZLES.c.owner_id == owner_id
    q = select(PUZZLES).where(owner, PUZZLES.c.id.not_in(tried))
    for key, value in filters.items():
        q = q.where(PUZZLES.c[key] == value)
    q = q.order_by(func.abs(PUZZLES.c.mu - around), PUZZLES.c.id).limit(limit)
    return [_stored(r) for r in conn.execute(q)]


def harder(conn: Connection, who: str, level: float, limit: int = 20) -> list[Stored]:
    """The library's puzzles ``who`` has not been offered, from the rating mean ``level`` up, easiest first."""
    tried = select(ATTEMPTS.c.puzzle_id).where(ATTEMPTS.c.who == who)
    q = (
        select(PUZZLES)
        .where(PUZZLES.c.owner_id.is_(None), PUZZLES.c.id.not_in(tried), PUZZLES.c.mu >= level)
        .order_by(PUZZLES.c.mu, PUZZLES.c.id)
        .limit(limit)
    )
    return [_stored(r) for r in conn.execute(q)]


def owned(conn: Connection, owner_id: int, limit: int = 50) -> list[Stored]:
    """An account's own puzzles, newest first."""
    q = select(PUZZLES).where(PUZZLES.c.owner_id == owner_id).order_by(PUZZLES.c.added_at.desc(), PUZZLES.c.id)
    return [_stored(r) for r in conn.execute(q.limit(limit))]


# -- the server's own puzzles' harvests
def claim_harvest(engine: Engine, source: str, claimer: str, stale_before: datetime) -> bool:
    """Claim ``source`` for ``claimer``: True when it was never claimed, or its claim was left undone since
    before ``stale_before`` (its process stopped); False when done or held by another."""
    try:
        with engine.begin() as conn:
            conn.execute(insert(HARVESTS).values(source=source, claimer=claimer, claimed_at=now(), found=0))
        return True
    except IntegrityError:
        pass
    with engine.begin() as conn:
        taken = conn.execute(
            update(HARVESTS)
            .where(HARVESTS.c.source == source, HARVESTS.c.done_at.is_(None), HARVESTS.c.claimed_at < stale_before)
            .values(claimer=claimer, claimed_at=now())
        )
        return taken.rowcount == 1


def harvest_done(engine: Engine, source: str, claimer: str, found: int) -> None:
    with engine.begin() as conn:
        conn.execute(
            update(HARVESTS)
            .where(HARVESTS.c.source == source, HARVESTS.c.claimer == claimer)
            .values(done_at=now(), found=found)
        )


def harvested(conn: Connection, sources: Sequence[str]) -> set[str]:
    """Which of ``sources`` are done."""
    q = select(HARVESTS.c.source).where(HARVESTS.c.source.in_(list(sources)), HARVESTS.c.done_at.is_not(None))
    return set(conn.execute(q).scalars())


# -- solvers
def solver(conn: Connection, who: str, lock: bool = False) -> Solver:
    """The solver's rating and streaks (a newcomer's when he has none stored)."""
    q = select(PLAYERS).where(PLAYERS.c.who == who)
    r = conn.execute(q.with_for_update() if lock else q).first()
    if r is None:
        return Solver(who, NEWCOMER, 0, 0, 0.0, 0)
    return Solver(who, Rating(r.mu, r.sigma, r.plays), r.solved, r.streak, r.streak_level, r.best_streak)


def save_solver(conn: Connection, s: Solver, user_id: int | None) -> None:
    """Write the solver's row (made on his first answer or streak)."""
    values = {
        "mu": s.rating.mu,
        "sigma": s.rating.sigma,
        "plays": s.rating.matches,
        "solved": s.solved,
        "streak": s.streak,
        "streak_level": s.streak_level,
        "best_streak": s.best_streak,
        "updated_at": now(),
    }
    done = conn.execute(update(PLAYERS).where(PLAYERS.c.who == s.who).values(**values))
    if done.rowcount == 0:
        conn.execute(insert(PLAYERS).values(who=s.who, user_id=user_id, **values))


def solver_of_user(conn: Connection, user_id: int) -> Solver | None:
    r = conn.execute(select(PLAYERS.c.who).where(PLAYERS.c.user_id == user_id)).first()
    return None if r is None else solver(conn, r.who)


# -- attempts
def offer(engine: Engine, who: str, pid: str, mode: str) -> Attempt:
    """The solver's attempt at the puzzle, offered now if it was not yet (the unique pair settles a race)."""
    try:
        with engine.begin() as conn:
            conn.execute(insert(ATTEMPTS).values(who=who, puzzle_id=pid, mode=mode, offered_at=now()))
    except IntegrityError:
        pass
    with engine.connect() as conn:
        found = attempt(conn, who, pid)
    assert found is not None
    return found


def attempt(conn: Connection, who: str, pid: str) -> Attempt | None:
    r = conn.execute(select(ATTEMPTS).where(ATTEMPTS.c.who == who, ATTEMPTS.c.puzzle_id == pid)).first()
    return None if r is None else _attempt(r)


def open_attempt(conn: Connection, who: str, mode: str) -> Attempt | None:
    """The solver's newest attempt of ``mode`` offered and not answered (a reload shows it again)."""
    q = (
        select(ATTEMPTS)
        .where(ATTEMPTS.c.who == who, ATTEMPTS.c.mode == mode, ATTEMPTS.c.answered_at.is_(None))
        .order_by(ATTEMPTS.c.id.desc())
        .limit(1)
    )
    r = conn.execute(q).first()
    return None if r is None else _attempt(r)


def answer(conn: Connection, who: str, pid: str, card: str, solved: bool) -> bool:
    """Mark the offered attempt answered: False when there is none waiting (never offered, or answered already)."""
    done = conn.execute(
        update(ATTEMPTS)
        .where(and_(ATTEMPTS.c.who == who, ATTEMPTS.c.puzzle_id == pid, ATTEMPTS.c.answered_at.is_(None)))
        .values(answered_at=now(), answer=card, solved=solved)
    )
    return done.rowcount == 1


def set_ratings_shown(conn: Connection, who: str, pid: str, before: int | None, after: int | None) -> None:
    conn.execute(
        update(ATTEMPTS).where(ATTEMPTS.c.who == who, ATTEMPTS.c.puzzle_id == pid).values(before=before, after=after)
    )


def rate_puzzle(conn: Connection, pid: str, r: Rating, solved: bool) -> None:
    conn.execute(
        update(PUZZLES)
        .where(PUZZLES.c.id == pid)
        .values(mu=r.mu, sigma=r.sigma, plays=PUZZLES.c.plays + 1, solved=PUZZLES.c.solved + int(solved))
    )


def count_play(conn: Connection, pid: str, solved: bool) -> None:
    """An unrated answer counted on the puzzle (its rating left alone)."""
    conn.execute(
        update(PUZZLES)
        .where(PUZZLES.c.id == pid)
        .values(plays=PUZZLES.c.plays + 1, solved=PUZZLES.c.solved + int(solved))
    )


def puzzle_for_update(conn: Connection, pid: str) -> Stored | None:
    r = conn.execute(select(PUZZLES).where(PUZZLES.c.id == pid).with_for_update()).first()
    return None if r is None else _stored(r)


def history(conn: Connection, who: str, limit: int = 100) -> list[Attempt]:
    """The solver's answered attempts, oldest first (the last ``limit``)."""
    q = (
        select(ATTEMPTS)
        .where(ATTEMPTS.c.who == who, ATTEMPTS.c.answered_at.is_not(None))
        .order_by(ATTEMPTS.c.answered_at.desc(), ATTEMPTS.c.id.desc())
        .limit(limit)
    )
    return [_attempt(r) for r in reversed(conn.execute(q).all())]


def forget(conn: Connection, user_id: int) -> None:
    """An account about to be deleted: his attempts, his puzzle rating and his own puzzles go with him (in the
    deletion's transaction: `barbu.web.accounts.service.Accounts`' ``on_delete``)."""
    own = select(PUZZLES.c.id).where(PUZZLES.c.owner_id == user_id)
    conn.execute(delete(ATTEMPTS).where((ATTEMPTS.c.who == f"u:{user_id}") | ATTEMPTS.c.puzzle_id.in_(own)))
    conn.execute(delete(PUZZLES).where(PUZZLES.c.owner_id == user_id))
    conn.execute(delete(PLAYERS).where(PLAYERS.c.user_id == user_id))
