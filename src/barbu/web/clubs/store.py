"""The clubs' tables: clubs, their members and roles, their invitation links and their seasons (migration 0007).

Nothing here decides a rule (`barbu.web.clubs.service` does); these are the reads and writes, each taking an open
connection so that a caller makes several in one transaction.  A club's owner is the member whose role is
"owner" (one per club).  A deleted club stays as a row marked deleted, its name and address freed: its tables
keep its ``club_id``, so a private club's tables stay hidden from outsiders after it is gone, and its
creation still counts against its maker's daily limit.  An invitation link's secret is never stored: only
its SHA-256.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, DateTime, ForeignKey, Index, Integer, String, Text, delete, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Mapped, mapped_column

from ..accounts.store import RESULTS as _RESULTS
from ..accounts.store import USERS
from ..db.storage import SEATS, TABLES, Base, _aware, inserted_id, now, table_of

ROLES = ("owner", "admin", "member")


class ClubRow(Base):
    """A club.  ``name_key`` (the name folded) and ``slug`` (its address, /c/<slug>) are unique."""

    __tablename__ = "barbu_clubs"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    slug: Mapped[str] = mapped_column(String(48), unique=True)
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str] = mapped_column(String(80), unique=True)
    description: Mapped[str] = mapped_column(Text, default="")
    public: Mapped[bool] = mapped_column(Boolean, default=True)
    created_by: Mapped[int | None] = mapped_column(
        ForeignKey("barbu_users.id", ondelete="SET NULL"), nullable=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    deleted: Mapped[bool] = mapped_column(Boolean, default=False)
    # removed by a moderator (migration 0016): out of sight as if deleted, until restored (`barbu.web.moderation`)
    removed: Mapped[bool] = mapped_column(Boolean, default=False)


class MemberRow(Base):
    """An account's membership of a club, with its role: owner, admin or member."""

    __tablename__ = "barbu_club_members"
    club_id: Mapped[int] = mapped_column(ForeignKey("barbu_clubs.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("barbu_users.id", ondelete="CASCADE"), primary_key=True, index=True)
    role: Mapped[str] = mapped_column(String(8))
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class InviteRow(Base):
    """An invitation link: the SHA-256 of its secret, who made it and until when it works (None: until revoked)."""

    __tablename__ = "barbu_club_invites"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("barbu_clubs.id", ondelete="CASCADE"), index=True)
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("barbu_users.id", ondelete="SET NULL"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    uses: Mapped[int] = mapped_column(Integer, default=0)


class SeasonRow(Base):
    """A club's season: from ``started_at`` until ``ended_at`` (None: the current one)."""

    __tablename__ = "barbu_club_seasons"
    club_id: Mapped[int] = mapped_column(ForeignKey("barbu_clubs.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    __table_args__ = (Index("ix_barbu_club_seasons_open", "club_id", "ended_at"),)


CLUBS = table_of(ClubRow)
MEMBERS = table_of(MemberRow)
INVITES = table_of(InviteRow)
SEASONS = table_of(SeasonRow)


@dataclass(frozen=True)
class Club:
    id: int
    slug: str
    name: str
    description: str
    public: bool
    created_at: datetime
    deleted: bool = False


@dataclass(frozen=True)
class Member:
    user_id: int
    name: str
    role: str
    joined_at: datetime


@dataclass(frozen=True)
class Season:
    number: int
    started_at: datetime
    ended_at: datetime | None


def _club(r: Any) -> Club:
    """A club as the others see it: one a moderator removed is, to everyone, as if deleted."""
    gone = bool(r.deleted) or bool(getattr(r, "removed", False))
    return Club(r.id, r.slug, r.name, r.description or "", bool(r.public), _aware(r.created_at), gone)


def _season(r: Any) -> Season:
    return Season(r.number, _aware(r.started_at), _aware(r.ended_at) if r.ended_at else None)


# -- clubs --
def add_club(
    conn: Connection, slug: str, name: str, name_key: str, description: str, public: bool, owner_id: int
) -> int:
    """A new club, its owner its first member, and its first season begun."""
    t = now()
    club_id = inserted_id(
        conn.execute(
            insert(CLUBS).values(
                slug=slug,
                name=name,
                name_key=name_key,
                description=description,
                public=public,
                created_by=owner_id,
                created_at=t,
                deleted=False,
                removed=False,
            )
        )
    )
    conn.execute(insert(MEMBERS).values(club_id=club_id, user_id=owner_id, role="owner", joined_at=t))
    conn.execute(insert(SEASONS).values(club_id=club_id, number=1, started_at=t, ended_at=None))
    return club_id


def club_by_slug(conn: Connection, slug: str) -> Club | None:
    r = conn.execute(
        select(CLUBS).where(CLUBS.c.slug == slug, CLUBS.c.deleted.is_(False), CLUBS.c.removed.is_(False))
    ).first()
    return None if r is None else _club(r)


def club_by_id(conn: Connection, club_id: int) -> Club | None:
    """A club by id, a deleted one too (its tables keep its id)."""
    r = conn.execute(select(CLUBS).where(CLUBS.c.id == club_id)).first()
    return None if r is None else _club(r)


def name_taken(conn: Connection, name_key: str) -> bool:
    return conn.execute(select(CLUBS.c.id).where(CLUBS.c.name_key == name_key)).first() is not None


def slug_taken(conn: Connection, slug: str) -> bool:
    return conn.execute(select(CLUBS.c.id).where(CLUBS.c.slug == slug)).first() is not None


def lock_user(conn: Connection, user_id: int) -> None:
    """On PostgreSQL, hold the account's row until the transaction ends (SQLite writes one at a time anyway)."""
    if conn.dialect.name == "postgresql":
        conn.execute(select(USERS.c.id).where(USERS.c.id == user_id).with_for_update())


def created_since(conn: Connection, user_id: int, since: datetime) -> list[datetime]:
    """When this account created clubs since ``since`` (deleted ones count too), oldest first."""
    q = (
        select(CLUBS.c.created_at)
        .where(CLUBS.c.created_by == user_id, CLUBS.c.created_at >= since)
        .order_by(CLUBS.c.created_at)
    )
    return [_aware(r.created_at) for r in conn.execute(q)]


def edit_club(conn: Connection, club_id: int, **values: Any) -> None:
    conn.execute(update(CLUBS).where(CLUBS.c.id == club_id).values(**values))


def delete_club(conn: Connection, club_id: int) -> None:
    """The club goes: its members, links and seasons; its row stays, marked deleted, its name and address free."""
    conn.execute(delete(MEMBERS).where(MEMBERS.c.club_id == club_id))
    conn.execute(delete(INVITES).where(INVITES.c.club_id == club_id))
    conn.execute(delete(SEASONS).where(SEASONS.c.club_id == club_id))
    conn.execute(
        update(CLUBS)
        .where(CLUBS.c.id == club_id)
        .values(deleted=True, slug=f"-{club_id}", name_key=f"-deleted-{club_id}", description="")
    )


def public_clubs(conn: Connection, limit: int = 200) -> list[tuple[Club, int]]:
    """Public clubs with their member counts, the largest first."""
    counts = select(MEMBERS.c.club_id, func.count().label("n")).group_by(MEMBERS.c.club_id).subquery()
    q = (
        select(CLUBS, counts.c.n)
        .join(counts, counts.c.club_id == CLUBS.c.id)
        .where(CLUBS.c.public.is_(True), CLUBS.c.deleted.is_(False), CLUBS.c.removed.is_(False))
        .order_by(counts.c.n.desc(), CLUBS.c.name_key)
        .limit(limit)
    )
    return [(_club(r), int(r.n)) for r in conn.execute(q)]


def clubs_of(conn: Connection, user_id: int) -> list[tuple[Club, str, int]]:
    """The clubs an account belongs to, with its role there and their member counts."""
    counts = select(MEMBERS.c.club_id, func.count().label("n")).group_by(MEMBERS.c.club_id).subquery()
    mine = MEMBERS.alias("mine")
    q = (
        select(CLUBS, mine.c.role, counts.c.n)
        .join(mine, mine.c.club_id == CLUBS.c.id)
        .join(counts, counts.c.club_id == CLUBS.c.id)
        .where(mine.c.user_id == user_id, CLUBS.c.deleted.is_(False), CLUBS.c.removed.is_(False))
        .order_by(CLUBS.c.name_key)
    )
    return [(_club(r), r.role, int(r.n)) for r in conn.execute(q)]


# -- members --
def role_of(conn: Connection, club_id: int, user_id: int) -> str | None:
    r = conn.execute(select(MEMBERS.c.role).where(MEMBERS.c.club_id == club_id, MEMBERS.c.user_id == user_id)).first()
    return None if r is None else str(r.role)


def members(conn: Connection, club_id: int) -> list[Member]:
    """A club's members: the owner first, then the admins, then the others, each by joining date."""
    q = (
        select(MEMBERS, USERS.c.name)
        .join(USERS, USERS.c.id == MEMBERS.c.user_id)
        .where(MEMBERS.c.club_id == club_id)
        .order_by(MEMBERS.c.joined_at, MEMBERS.c.user_id)
    )
    out = [Member(r.user_id, r.name, r.role, _aware(r.joined_at)) for r in conn.execute(q)]
    return sorted(out, key=lambda m: ROLES.index(m.role) if m.role in ROLES else len(ROLES))


def member_count(conn: Connection, club_id: int) -> int:
    return int(conn.execute(select(func.count()).select_from(MEMBERS).where(MEMBERS.c.club_id == club_id)).scalar_one())


def add_member(conn: Connection, club_id: int, user_id: int, role: str = "member") -> None:
    conn.execute(insert(MEMBERS).values(club_id=club_id, user_id=user_id, role=role, joined_at=now()))


def set_role(conn: Connection, club_id: int, user_id: int, role: str) -> None:
    conn.execute(update(MEMBERS).where(MEMBERS.c.club_id == club_id, MEMBERS.c.user_id == user_id).values(role=role))


def remove_member(conn: Connection, club_id: int, user_id: int) -> None:
    conn.execute(delete(MEMBERS).where(MEMBERS.c.club_id == club_id, MEMBERS.c.user_id == user_id))


def successor(conn: Connection, club_id: int, leaving: int) -> int | None:
    """Who a club passes to when its owner goes: the oldest admin, else the oldest member, else nobody."""
    q = (
        select(MEMBERS.c.user_id, MEMBERS.c.role)
        .where(MEMBERS.c.club_id == club_id, MEMBERS.c.user_id != leaving)
        .order_by(MEMBERS.c.joined_at, MEMBERS.c.user_id)
    )
    rows = list(conn.execute(q))
    for r in rows:
        if r.role == "admin":
            return int(r.user_id)
    return int(rows[0].user_id) if rows else None


def leave_all(conn: Connection, user_id: int) -> None:
    """An account about to be deleted leaves its clubs: a club it owns passes to the oldest admin, else the
    oldest member, else is deleted.  Call it in the deletion's transaction, before the account goes."""
    owned = [
        int(r.club_id)
        for r in conn.execute(select(MEMBERS.c.club_id).where(MEMBERS.c.user_id == user_id, MEMBERS.c.role == "owner"))
    ]
    for club_id in owned:
        heir = successor(conn, club_id, user_id)
        if heir is None:
            delete_club(conn, club_id)
        else:
            set_role(conn, club_id, heir, "owner")
    conn.execute(delete(MEMBERS).where(MEMBERS.c.user_id == user_id))


def holds_seat(conn: Connection, table_id: str, user_id: int) -> bool:
    """Whether an account holds a seat at a table (a member who has since left the club keeps his own match)."""
    q = select(SEATS.c.seat).where(SEATS.c.table_id == table_id, SEATS.c.user_id == user_id).limit(1)
    return conn.execute(q).first() is not None


def table_club(conn: Connection, table_id: str) -> tuple[bool, int | None]:
    """(whether the table exists, its club's id)."""
    r = conn.execute(select(TABLES.c.club_id).where(TABLES.c.id == table_id)).first()
    return (False, None) if r is None else (True, r.club_id)


def tables_clubs(conn: Connection, table_ids: list[str]) -> dict[str, int]:
    """The clubs of those tables that belong to one."""
    q = select(TABLES.c.id, TABLES.c.club_id).where(TABLES.c.id.in_(table_ids), TABLES.c.club_id.is_not(None))
    return {r.id: int(r.club_id) for r in conn.execute(q)}


def seats_held(conn: Connection, table_ids: list[str], user_id: int) -> set[str]:
    """Which of those tables an account holds a seat at."""
    q = select(SEATS.c.table_id).where(SEATS.c.table_id.in_(table_ids), SEATS.c.user_id == user_id)
    return {r.table_id for r in conn.execute(q)}


def clubs_by_id(conn: Connection, ids: list[int]) -> dict[int, Club]:
    if not ids:
        return {}
    return {r.id: _club(r) for r in conn.execute(select(CLUBS).where(CLUBS.c.id.in_(ids)))}


def memberships(conn: Connection, user_id: int, ids: list[int]) -> set[int]:
    """Which of these clubs an account belongs to."""
    if not ids:
        return set()
    q = select(MEMBERS.c.club_id).where(MEMBERS.c.user_id == user_id, MEMBERS.c.club_id.in_(ids))
    return {int(r.club_id) for r in conn.execute(q)}


# -- invitation links --
def add_invite(conn: Connection, club_id: int, secret_hash: str, user_id: int, expires_at: datetime | None) -> int:
    return inserted_id(
        conn.execute(
            insert(INVITES).values(
                club_id=club_id,
                secret_hash=secret_hash,
                created_by=user_id,
                created_at=now(),
                expires_at=expires_at,
                uses=0,
            )
        )
    )


def invite_by_hash(conn: Connection, secret_hash: str) -> Any:
    return conn.execute(select(INVITES).where(INVITES.c.secret_hash == secret_hash)).first()


def invites(conn: Connection, club_id: int) -> list[dict[str, Any]]:
    """A club's links (never their secrets), the newest first, with who made them."""
    q = (
        select(INVITES, USERS.c.name)
        .outerjoin(USERS, USERS.c.id == INVITES.c.created_by)
        .where(INVITES.c.club_id == club_id)
        .order_by(INVITES.c.created_at.desc(), INVITES.c.id.desc())
    )
    return [
        {
            "id": r.id,
            "by": r.name,
            "created": _aware(r.created_at).isoformat(timespec="seconds"),
            "expires": _aware(r.expires_at).isoformat(timespec="seconds") if r.expires_at else None,
            "expired": r.expires_at is not None and _aware(r.expires_at) <= now(),
            "uses": r.uses or 0,
        }
        for r in conn.execute(q)
    ]


def live_invites(conn: Connection, club_id: int) -> int:
    t = now()
    q = (
        select(func.count())
        .select_from(INVITES)
        .where(INVITES.c.club_id == club_id)
        .where((INVITES.c.expires_at.is_(None)) | (INVITES.c.expires_at > t))
    )
    return int(conn.execute(q).scalar_one())


def set_invite_expiry(conn: Connection, club_id: int, invite_id: int, expires_at: datetime | None) -> bool:
    r = conn.execute(
        update(INVITES).where(INVITES.c.id == invite_id, INVITES.c.club_id == club_id).values(expires_at=expires_at)
    )
    return bool(r.rowcount)


def revoke_invite(conn: Connection, club_id: int, invite_id: int) -> bool:
    r = conn.execute(delete(INVITES).where(INVITES.c.id == invite_id, INVITES.c.club_id == club_id))
    return bool(r.rowcount)


def count_use(conn: Connection, invite_id: int) -> None:
    conn.execute(update(INVITES).where(INVITES.c.id == invite_id).values(uses=INVITES.c.uses + 1))


def sweep_invites(conn: Connection, club_id: int, before: datetime) -> None:
    """Forget the links of a club that lapsed before ``before``."""
    conn.execute(
        delete(INVITES).where(
            INVITES.c.club_id == club_id, INVITES.c.expires_at.is_not(None), INVITES.c.expires_at < before
        )
    )


# -- seasons --
def seasons(conn: Connection, club_id: int) -> list[Season]:
    """A club's seasons, the current one last."""
    q = select(SEASONS).where(SEASONS.c.club_id == club_id).order_by(SEASONS.c.number)
    return [_season(r) for r in conn.execute(q)]


def season(conn: Connection, club_id: int, number: int) -> Season | None:
    r = conn.execute(select(SEASONS).where(SEASONS.c.club_id == club_id, SEASONS.c.number == number)).first()
    return None if r is None else _season(r)


def close_season(conn: Connection, club_id: int, number: int) -> Season | None:
    """End season ``number`` now and begin the next; None when ``number`` is not the current season (a second
    click, or another owner's tab, closed it already)."""
    t = now()
    r = conn.execute(
        update(SEASONS)
        .where(SEASONS.c.club_id == club_id, SEASONS.c.number == number, SEASONS.c.ended_at.is_(None))
        .values(ended_at=t)
    )
    if not r.rowcount:
        return None
    conn.execute(insert(SEASONS).values(club_id=club_id, number=number + 1, started_at=t, ended_at=None))
    return Season(number + 1, t, None)


# -- the club's matches --
def club_results(
    conn: Connection,
    club_id: int,
    since: datetime | None = None,
    until: datetime | None = None,
    rated_only: bool = False,
) -> list[Any]:
    """Every seat's result of the club's finished matches between two moments, oldest match first."""
    q = (
        select(_RESULTS, USERS.c.name.label("account"))
        .join(TABLES, TABLES.c.id == _RESULTS.c.table_id)
        .outerjoin(USERS, USERS.c.id == _RESULTS.c.user_id)
        .where(TABLES.c.club_id == club_id)
    )
    if since is not None:
        q = q.where(_RESULTS.c.finished_at >= since)
    if until is not None:
        q = q.where(_RESULTS.c.finished_at < until)
    if rated_only:
        q = q.where(_RESULTS.c.rated.is_(True))
    return list(conn.execute(q.order_by(_RESULTS.c.finished_at, _RESULTS.c.table_id, _RESULTS.c.seat)))


def recent_matches(conn: Connection, club_id: int, limit: int, before: datetime | None = None) -> list[Any]:
    """The seats' results of the club's latest finished matches (``limit`` matches, older than ``before``)."""
    q = (
        select(_RESULTS.c.table_id, func.max(_RESULTS.c.finished_at).label("at"))
        .join(TABLES, TABLES.c.id == _RESULTS.c.table_id)
        .where(TABLES.c.club_id == club_id)
        .group_by(_RESULTS.c.table_id)
    )
    if before is not None:
        q = q.having(func.max(_RESULTS.c.finished_at) < before)
    ids = [
        r.table_id
        for r in conn.execute(q.order_by(func.max(_RESULTS.c.finished_at).desc(), _RESULTS.c.table_id).limit(limit))
    ]
    if not ids:
        return []
    q = (
        select(_RESULTS, USERS.c.name.label("account"))
        .outerjoin(USERS, USERS.c.id == _RESULTS.c.user_id)
        .where(_RESULTS.c.table_id.in_(ids))
        .order_by(_RESULTS.c.finished_at.desc(), _RESULTS.c.table_id, _RESULTS.c.seat)
    )
    return list(conn.execute(q))


def club_games(conn: Connection, club_id: int) -> list[str]:
    """The games the club's matches were played in, the most played first."""
    q = (
        select(_RESULTS.c.game, func.count(func.distinct(_RESULTS.c.table_id)).label("n"))
        .join(TABLES, TABLES.c.id == _RESULTS.c.table_id)
        .where(TABLES.c.club_id == club_id)
        .group_by(_RESULTS.c.game)
        .order_by(func.count(func.distinct(_RESULTS.c.table_id)).desc(), _RESULTS.c.game)
    )
    return [r.game for r in conn.execute(q)]


def unfinished_tables(conn: Connection, club_id: int, limit: int = 100) -> list[Any]:
    """The club's tables still open or being played, the newest first, with their seats."""
    q = (
        select(TABLES.c.id, TABLES.c.rules, TABLES.c.status, TABLES.c.rated, TABLES.c.turn_based, TABLES.c.created_at)
        .where(TABLES.c.club_id == club_id, TABLES.c.status.in_(("open", "playing")))
        .order_by(TABLES.c.created_at.desc())
        .limit(limit)
    )
    return list(conn.execute(q))


def seats_of(conn: Connection, table_ids: list[str]) -> dict[str, list[Any]]:
    if not table_ids:
        return {}
    out: dict[str, list[Any]] = {}
    q = select(SEATS).where(SEATS.c.table_id.in_(table_ids)).order_by(SEATS.c.table_id, SEATS.c.seat)
    for r in conn.execute(q):
        out.setdefault(r.table_id, []).append(r)
    return out
