"""The accounts' tables: players, their sessions, one-time password links, finished matches'
results and the ratings (migration 0006).

Nothing here decides a rule (`barbu.web.accounts.service` does); these are the reads and writes, each taking an
open connection so that a caller can make several in one transaction.  What is stored about a player:
his name, the Argon2id hash of his password, the SHA-256 of his sessions' and links' random ids, the
moments he signed up and last used a session, his results and his ratings.  No address, no e-mail.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    cast,
    delete,
    func,
    insert,
    literal,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Mapped, mapped_column

from ..daily.store import ATTEMPTS as DAILY_ATTEMPTS
from ..db.storage import SEATS, Base, _aware, inserted_id, now, table_of


class UserRow(Base):
    """An account.  ``name_key`` (the name folded) is unique; ``skeleton`` is what it looks like, so that a
    name confusable with another ("Alice" and "AIice", a Cyrillic "а") is refused at sign-up."""

    __tablename__ = "barbu_users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str] = mapped_column(String(64), unique=True)
    skeleton: Mapped[str] = mapped_column(String(64), index=True)
    password_hash: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    banned: Mapped[bool] = mapped_column(Boolean, default=False)
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)  # only to say "your turn", if asked
    notify_turns: Mapped[bool] = mapped_column(Boolean, default=False)
    lang: Mapped[str | None] = mapped_column(String(8), nullable=True)  # the language his e-mails are written in
    # when his address was confirmed by its link (migration 0013); None: nothing is sent to it
    email_confirmed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # the moderator's desk (migration 0016): "player" or "moderator"; muted until then (None: not muted)
    role: Mapped[str] = mapped_column(String(16), default="player")
    muted_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class SessionRow(Base):
    """A logged-in browser: the SHA-256 of its cookie's random id, and when it lapses unless used."""

    __tablename__ = "barbu_sessions"
    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("barbu_users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ResetRow(Base):
    """A one-time link to choose a new password (``barbu users reset-password``): its id's SHA-256."""

    __tablename__ = "barbu_resets"
    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("barbu_users.id", ondelete="CASCADE"), index=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ResultRow(Base):
    """One seat of a finished match: who sat there, where he finished and with how many points."""

    __tablename__ = "barbu_results"
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("barbu_users.id", ondelete="SET NULL"), nullable=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)  # None: a deleted player
    kind: Mapped[str] = mapped_column(String(16))  # human or bot
    strength: Mapped[str | None] = mapped_column(String(32), nullable=True)
    game: Mapped[str] = mapped_column(String(32))  # the rated game (barbu.ratings.GAMES) or the family
    rules: Mapped[str] = mapped_column(Text)
    players: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(BigInteger)
    left: Mapped[bool] = mapped_column(Boolean, default=False)  # gave his seat up before the end
    # HMAC of the address the seat was taken from (migration 0014): one household is not rated against itself
    household: Mapped[str | None] = mapped_column(String(64), nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    detail: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON: the seat's deals by contract, doubles
    __table_args__ = (Index("ix_barbu_results_user", "user_id", "finished_at"),)


class RatingRow(Base):
    """A player's rating in one game.  ``subject`` is "u:<user id>" or "bot:<strength>"."""

    __tablename__ = "barbu_ratings"
    subject: Mapped[str] = mapped_column(String(48), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer)
    shown: Mapped[int] = mapped_column(Integer, index=True)  # the conservative figure the leaderboards sort by
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingPointRow(Base):
    """A rating after one rated match: the profile's chart."""

    __tablename__ = "barbu_rating_history"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    subject: Mapped[str] = mapped_column(String(48))
    game: Mapped[str] = mapped_column(String(32))
    table_id: Mapped[str] = mapped_column(String(32))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    shown: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    __table_args__ = (Index("ix_barbu_rating_history_subject", "subject", "game", "at"),)


class DecisionCostRow(Base):
    """What the replay's analysis found one seat's decisions in one deal of a finished table cost: how many
    were weighed, how many cost something, and their total cost in points (the profile's statistics)."""

    __tablename__ = "barbu_decision_costs"
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    decisions: Mapped[int] = mapped_column(Integer)
    costly: Mapped[int] = mapped_column(Integer)
    cost: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


USERS = table_of(UserRow)
DECISION_COSTS = table_of(DecisionCostRow)
SESSIONS = table_of(SessionRow)
RESETS = table_of(ResetRow)
RESULTS = table_of(ResultRow)
RATINGS = table_of(RatingRow)
RATING_HISTORY = table_of(RatingPointRow)


@dataclass(frozen=True)
class User:
    id: int
    name: str
    created_at: datetime
    banned: bool = False
    role: str = "player"  # or "moderator" (`barbu.web.moderation`)


def _user(r: Any) -> User:
    return User(r.id, r.name, _aware(r.created_at), bool(r.banned), getattr(r, "role", None) or "player")


def subject_of(user_id: int) -> str:
    return f"u:{user_id}"


def bot_subject(strength: str) -> str:
    return f"bot:{strength}"


# -- users --
def add_user(conn: Connection, name: str, name_key: str, skeleton: str, password_hash: str) -> int:
    result = conn.execute(
        insert(USERS).values(
            name=name, name_key=name_key, skeleton=skeleton, password_hash=password_hash, created_at=now(), banned=False
        )
    )
    return inserted_id(result)


def user_by_key(conn: Connection, name_key: str) -> tuple[User, str] | None:
    """The account whose folded name is ``name_key``, with its password hash."""
    r = conn.execute(select(USERS).where(USERS.c.name_key == name_key)).first()
    return None if r is None else (_user(r), r.password_hash)


def user_by_id(conn: Connection, user_id: int) -> User | None:
    r = conn.execute(select(USERS).where(USERS.c.id == user_id)).first()
    return None if r is None else _user(r)


def skeleton_taken(conn: Connection, skeleton: str) -> bool:
    return conn.execute(select(USERS.c.id).where(USERS.c.skeleton == skeleton).limit(1)).first() is not None


def list_users(conn: Connection) -> list[tuple[User, datetime | None, int]]:
    """Every account, with its last session's expiry (a proxy for its last visit) and its finished matches."""
    last = (
        select(SESSIONS.c.user_id, func.max(SESSIONS.c.expires_at).label("last"))
        .group_by(SESSIONS.c.user_id)
        .subquery()
    )
    played = select(RESULTS.c.user_id, func.count().label("n")).group_by(RESULTS.c.user_id).subquery()
    q = (
        select(USERS, last.c.last, played.c.n)
        .outerjoin(last, last.c.user_id == USERS.c.id)
        .outerjoin(played, played.c.user_id == USERS.c.id)
        .order_by(USERS.c.name_key)
    )
    return [(_user(r), _aware(r.last) if r.last else None, int(r.n or 0)) for r in conn.execute(q)]


def set_password(conn: Connection, user_id: int, password_hash: str) -> None:
    conn.execute(update(USERS).where(USERS.c.id == user_id).values(password_hash=password_hash))


def mail_of(conn: Connection, user_id: int) -> tuple[str | None, bool, str | None, str] | None:
    """An account's e-mail address, whether it asked for "your turn" e-mails, its language and its name."""
    r = conn.execute(
        select(USERS.c.email, USERS.c.notify_turns, USERS.c.lang, USERS.c.name, USERS.c.banned).where(
            USERS.c.id == user_id
        )
    ).first()
    return None if r is None or r.banned else (r.email, bool(r.notify_turns), r.lang, r.name)


def set_mail(conn: Connection, user_id: int, email: str | None, notify: bool) -> None:
    conn.execute(update(USERS).where(USERS.c.id == user_id).values(email=email, notify_turns=notify))


def set_lang(conn: Connection, user_id: int, lang: str) -> None:
    conn.execute(update(USERS).where(USERS.c.id == user_id).values(lang=lang))


def set_banned(conn: Connection, user_id: int, banned: bool) -> None:
    conn.execute(update(USERS).where(USERS.c.id == user_id).values(banned=banned))


def set_role(conn: Connection, user_id: int, role: str) -> None:
    conn.execute(update(USERS).where(USERS.c.id == user_id).values(role=role))


def set_muted(conn: Connection, user_id: int, until: datetime | None) -> None:
    conn.execute(update(USERS).where(USERS.c.id == user_id).values(muted_until=until))


def muted_until(conn: Connection, user_id: int) -> datetime | None:
    """Until when an account is muted (None: it is not, or no longer)."""
    r = conn.execute(select(USERS.c.muted_until).where(USERS.c.id == user_id)).first()
    until = None if r is None or r.muted_until is None else _aware(r.muted_until)
    return until if until is not None and until > now() else None


def delete_user(conn: Connection, user_id: int) -> None:
    """The account and what is personal goes; its matches stay, under "a deleted player" (no name, no id).
    Its seats at tables keep their place in the match, without his name."""
    conn.execute(update(RESULTS).where(RESULTS.c.user_id == user_id).values(user_id=None, name=None))
    conn.execute(update(SEATS).where(SEATS.c.user_id == user_id).values(user_id=None, name=""))
    # his daily deals stay in the others' comparisons, without his name (the pages say "a deleted player")
    conn.execute(
        update(DAILY_ATTEMPTS)
        .where(DAILY_ATTEMPTS.c.user_id == user_id)
        .values(user_id=None, name="", who=literal("d:") + cast(DAILY_ATTEMPTS.c.id, String))
    )  # an id may be reused
    subject = subject_of(user_id)
    conn.execute(delete(RATINGS).where(RATINGS.c.subject == subject))
    conn.execute(delete(RATING_HISTORY).where(RATING_HISTORY.c.subject == subject))
    conn.execute(delete(SESSIONS).where(SESSIONS.c.user_id == user_id))
    conn.execute(delete(RESETS).where(RESETS.c.user_id == user_id))
    conn.execute(delete(USERS).where(USERS.c.id == user_id))


# -- sessions and one-time links --
def add_session(conn: Connection, id_hash: str, user_id: int, expires_at: datetime) -> None:
    conn.execute(insert(SESSIONS).values(id_hash=id_hash, user_id=user_id, created_at=now(), expires_at=expires_at))


def session_user(conn: Connection, id_hash: str) -> tuple[User, datetime] | None:
    """The (not banned) user of a live session and when the session lapses."""
    q = (
        select(USERS, SESSIONS.c.expires_at)
        .join(SESSIONS, SESSIONS.c.user_id == USERS.c.id)
        .where(SESSIONS.c.id_hash == id_hash)
    )
    r = conn.execute(q).first()
    if r is None or _aware(r.expires_at) <= now() or r.banned:
        return None
    return _user(r), _aware(r.expires_at)


def extend_session(conn: Connection, id_hash: str, expires_at: datetime) -> None:
    conn.execute(update(SESSIONS).where(SESSIONS.c.id_hash == id_hash).values(expires_at=expires_at))


def end_session(conn: Connection, id_hash: str) -> None:
    conn.execute(delete(SESSIONS).where(SESSIONS.c.id_hash == id_hash))


def end_sessions(conn: Connection, user_id: int, keep: str | None = None) -> None:
    """Log a user out everywhere (but the session ``keep``, the one that asked)."""
    q = delete(SESSIONS).where(SESSIONS.c.user_id == user_id)
    if keep is not None:
        q = q.where(SESSIONS.c.id_hash != keep)
    conn.execute(q)


def add_reset(conn: Connection, id_hash: str, user_id: int, expires_at: datetime) -> None:
    conn.execute(delete(RESETS).where(RESETS.c.user_id == user_id))  # one link at a time: the newest
    conn.execute(insert(RESETS).values(id_hash=id_hash, user_id=user_id, expires_at=expires_at))


def take_reset(conn: Connection, id_hash: str) -> int | None:
    """The user a live one-time link is for; the link is used up either way."""
    r = conn.execute(select(RESETS).where(RESETS.c.id_hash == id_hash)).first()
    if r is None:
        return None
    conn.execute(delete(RESETS).where(RESETS.c.id_hash == id_hash))
    return None if _aware(r.expires_at) <= now() else int(r.user_id)


def reset_user(conn: Connection, id_hash: str) -> User | None:
    """The user a live one-time link is for (the link stays usable)."""
    r = conn.execute(select(RESETS).where(RESETS.c.id_hash == id_hash)).first()
    if r is None or _aware(r.expires_at) <= now():
        return None
    return user_by_id(conn, r.user_id)


def sweep(conn: Connection) -> None:
    """Forget lapsed sessions and links (failed log-ins are counted in memory or the broker:
    `barbu.web.accounts.throttle`)."""
    t = now()
    conn.execute(delete(SESSIONS).where(SESSIONS.c.expires_at <= t))
    conn.execute(delete(RESETS).where(RESETS.c.expires_at <= t))
