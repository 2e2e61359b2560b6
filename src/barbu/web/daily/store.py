"""The daily deals' tables (migration 0008): the installation's daily secret, the attempts and their boards.

Nothing here decides a rule (`barbu.web.daily.service` does).  An attempt is one account's or one browser's play of
one game's set on one day; (day, game, who) is unique, so a second attempt is refused by the database itself
whatever two requests race.  ``who`` is "u:<account id>" or "g:<SHA-256 of the browser's daily cookie>";
``pool`` is "account" (an established account), "new" (a new one) or "guest": each is ranked in a list of its own.
``address_hash`` is HMAC-SHA256 of the address that started (then finished) the attempt, never the address itself
(migration 0015): several finishers from one address are marked to the operator (`address_marks`).  A board
row holds the person's moves as text, one per line, and once the board is over its score and doubles.
"""

from __future__ import annotations

import secrets
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
    UniqueConstraint,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from ..db.storage import Base, _aware, now, table_of


class DailySecretRow(Base):
    """The installation's daily secret (hex): made on first use, the oldest row wins for every process."""

    __tablename__ = "barbu_daily_secret"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    secret: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DailyAttemptRow(Base):
    """One attempt at one game's daily set."""

    __tablename__ = "barbu_daily_attempts"
    __table_args__ = (
        UniqueConstraint("day", "game", "who", name="uq_barbu_daily_attempt"),
        Index("ix_barbu_daily_attempts_set", "day", "game", "finished_at"),
        Index("ix_barbu_daily_attempts_address", "day", "address_hash"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    day: Mapped[str] = mapped_column(String(10))
    game: Mapped[str] = mapped_column(String(32))
    who: Mapped[str] = mapped_column(String(80))
    pool: Mapped[str] = mapped_column(String(8))
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("barbu_users.id", ondelete="SET NULL"), nullable=True, index=True
    )
    name: Mapped[str] = mapped_column(String(64))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    address_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class DailyBoardRow(Base):
    """The person's moves on one board of an attempt, and once over its score and doubles."""

    __tablename__ = "barbu_daily_boards"
    attempt_id: Mapped[int] = mapped_column(ForeignKey("barbu_daily_attempts.id", ondelete="CASCADE"), primary_key=True)
    board: Mapped[int] = mapped_column(Integer, primary_key=True)
    moves: Mapped[str] = mapped_column(Text, default="")
    score: Mapped[int | None] = mapped_column(Integer, nullable=True)
    doubles: Mapped[str | None] = mapped_column(String(200), nullable=True)


SECRET = table_of(DailySecretRow)
ATTEMPTS = table_of(DailyAttemptRow)
BOARDS = table_of(DailyBoardRow)


@dataclass(frozen=True)
class Attempt:
    id: int
    day: str
    game: str
    who: str
    pool: str
    user_id: int | None
    name: str
    started_at: datetime
    finished_at: datetime | None
    address_hash: str | None = None

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


@dataclass(frozen=True)
class BoardRow:
    board: int
    moves: list[str]
    score: int | None
    doubles: str | None


def daily_secret(engine: Engine) -> bytes:
    """The installation's daily secret, made on the first call and kept in the database ever after."""

    def oldest(conn: Connection) -> str | None:
        return conn.execute(select(SECRET.c.secret).order_by(SECRET.c.id).limit(1)).scalar()

    with engine.begin() as conn:
        key = oldest(conn)
        if key is None:
            conn.execute(insert(SECRET).values(secret=secrets.token_hex(32), created_at=now()))
            key = oldest(conn)
    assert key is not None
    return bytes.fromhex(key)


def _attempt(r: Any) -> Attempt:
    finished = r.finished_at
    return Attempt(
        r.id,
        r.day,
        r.game,
        r.who,
        r.pool,
        r.user_id,
        r.name,
        _aware(r.started_at),
        _aware(finished) if finished is not None else None,
        r.address_hash,
    )


def attempt_of(conn: Connection, day: str, game: str, who: str) -> Attempt | None:
    r = conn.execute(
        select(ATTEMPTS).where(ATTEMPTS.c.day == day, ATTEMPTS.c.game == game, ATTEMPTS.c.who == who)
    ).first()
    return None if r is None else _attempt(r)


def attempts_of(conn: Connection, day: str, who: str) -> dict[str, Attempt]:
    """This person's attempts on one day, by game."""
    rows = conn.execute(select(ATTEMPTS).where(ATTEMPTS.c.day == day, ATTEMPTS.c.who == who))
    return {r.game: _attempt(r) for r in rows}


def start_attempt(
    engine: Engine,
    day: str,
    game: str,
    who: str,
    pool: str,
    user_id: int | None,
    name: str,
    address_hash: str | None = None,
) -> tuple[Attempt, bool]:
    """The attempt, made now if there was none: (attempt, made).  The unique constraint settles a race."""
    try:
        with engine.begin() as conn:
            conn.execute(
                insert(ATTEMPTS).values(
                    day=day,
                    game=game,
                    who=who,
                    pool=pool,
                    user_id=user_id,
                    name=name[:64],
                    started_at=now(),
                    address_hash=address_hash,
                )
            )
            made = True
    except IntegrityError:
        made = False
    with engine.connect() as conn:
        found = attempt_of(conn, day, game, who)
    assert found is not None
    return found, made


def boards_of(conn: Connection, attempt_id: int) -> dict[int, BoardRow]:
    rows = conn.execute(select(BOARDS).where(BOARDS.c.attempt_id == attempt_id))
    return {r.board: BoardRow(r.board, [m for m in r.moves.split("\n") if m], r.score, r.doubles) for r in rows}


def save_board(
    conn: Connection, attempt_id: int, board: int, moves: list[str], score: int | None, doubles: str | None
) -> None:
    """Write one board's moves (and result once over), replacing what was there."""
    conn.execute(delete(BOARDS).where(BOARDS.c.attempt_id == attempt_id, BOARDS.c.board == board))
    conn.execute(
        insert(BOARDS).values(attempt_id=attempt_id, board=board, moves="\n".join(moves), score=score, doubles=doubles)
    )


def finish(conn: Connection, attempt_id: int, address_hash: str | None = None) -> None:
    """The attempt finished now, from the address (its HMAC) that played its last move."""
    values: dict[str, Any] = {"finished_at": now()}
    if address_hash is not None:
        values["address_hash"] = address_hash
    conn.execute(update(ATTEMPTS).where(ATTEMPTS.c.id == attempt_id, ATTEMPTS.c.finished_at.is_(None)).values(**values))


def attempt_by_id(conn: Connection, attempt_id: int) -> Attempt | None:
    r = conn.execute(select(ATTEMPTS).where(ATTEMPTS.c.id == attempt_id)).first()
    return None if r is None else _attempt(r)


def finished_days(conn: Connection, who: str, before: str) -> int:
    """On how many days before ``before`` this person finished at least one set."""
    q = select(func.count(func.distinct(ATTEMPTS.c.day))).where(
        ATTEMPTS.c.who == who, ATTEMPTS.c.day < before, ATTEMPTS.c.finished_at.is_not(None)
    )
    return int(conn.execute(q).scalar() or 0)


def shared_finishes(conn: Connection, day: str) -> list[Attempt]:
    """The finished attempts of one day whose (game, address) has more than one finisher, grouped in that order."""
    many = (
        select(ATTEMPTS.c.game, ATTEMPTS.c.address_hash)
        .where(ATTEMPTS.c.day == day, ATTEMPTS.c.finished_at.is_not(None), ATTEMPTS.c.address_hash.is_not(None))
        .group_by(ATTEMPTS.c.game, ATTEMPTS.c.address_hash)
        .having(func.count() > 1)
        .subquery()
    )
    q = (
        select(ATTEMPTS)
        .join(many, (many.c.game == ATTEMPTS.c.game) & (many.c.address_hash == ATTEMPTS.c.address_hash))
        .where(ATTEMPTS.c.day == day, ATTEMPTS.c.finished_at.is_not(None))
        .order_by(ATTEMPTS.c.game, ATTEMPTS.c.address_hash, ATTEMPTS.c.finished_at)
    )
    return [_attempt(r) for r in conn.execute(q)]


def finished_results(conn: Connection, day: str, game: str, pool: str) -> list[tuple[int, str, int, int, str]]:
    """Every finished attempt's boards in one pool: (attempt id, name, board, score, doubles)."""
    q = (
        select(ATTEMPTS.c.id, ATTEMPTS.c.name, BOARDS.c.board, BOARDS.c.score, BOARDS.c.doubles)
        .join(BOARDS, BOARDS.c.attempt_id == ATTEMPTS.c.id)
        .where(
            ATTEMPTS.c.day == day,
            ATTEMPTS.c.game == game,
            ATTEMPTS.c.pool == pool,
            ATTEMPTS.c.finished_at.is_not(None),
            BOARDS.c.score.is_not(None),
        )
    )
    return [(r.id, r.name, r.board, r.score, r.doubles or "") for r in conn.execute(q)]


def finished_count(conn: Connection, day: str, game: str, pool: str) -> int:
    q = (
        select(func.count())
        .select_from(ATTEMPTS)
        .where(
            ATTEMPTS.c.day == day, ATTEMPTS.c.game == game, ATTEMPTS.c.pool == pool, ATTEMPTS.c.finished_at.is_not(None)
        )
    )
    return int(conn.execute(q).scalar() or 0)


def played_days(conn: Connection, before: str, limit: int = 14) -> list[str]:
    """The last days (before ``before``) on which someone finished a set, newest first."""
    q = (
        select(ATTEMPTS.c.day)
        .where(ATTEMPTS.c.day < before, ATTEMPTS.c.finished_at.is_not(None))
        .group_by(ATTEMPTS.c.day)
        .order_by(ATTEMPTS.c.day.desc())
        .limit(limit)
    )
    return [r.day for r in conn.execute(q)]


def attempts_data(conn: Connection, user_id: int) -> list[dict[str, object]]:
    """An account's daily deals for "Download my data": each attempt, its moves and scores."""
    out: list[dict[str, object]] = []
    for r in conn.execute(
        select(ATTEMPTS).where(ATTEMPTS.c.user_id == user_id).order_by(ATTEMPTS.c.day, ATTEMPTS.c.game)
    ):
        a = _attempt(r)
        out.append(
            {
                "day": a.day,
                "game": a.game,
                "started": a.started_at.isoformat(timespec="seconds"),
                "finished": a.finished_at.isoformat(timespec="seconds") if a.finished_at else None,
                "boards": [
                    {"board": b.board, "moves": b.moves, "score": b.score}
                    for _, b in sorted(boards_of(conn, a.id).items())
                ],
            }
        )
    return out
