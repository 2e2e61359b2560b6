"""Durable storage of tables: SQLAlchemy models, Alembic migrations, and the table event log.

A table is its ruleset, its secret seed, its seats and its event log: every
action of the match in order (chance included), so a table is rebuilt by
replaying the log.  The schema is created and upgraded by the Alembic
migrations shipped in ``barbu/web/migrations``; SQLite is the default and
PostgreSQL (psycopg 3) is supported.  `Store` is synchronous and is used
from one writer thread (see `barbu.web.db.journal`) plus reads at start-up.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, CursorResult, Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

MIGRATIONS = Path(__file__).with_name("migrations")


class Base(DeclarativeBase):
    pass


def table_of(row: type[Base]) -> Table:
    """The table a mapped class declares, as the `Table` it is (SQLAlchemy types it as any ``FromClause``)."""
    table = row.__table__
    assert isinstance(table, Table)
    return table


def inserted_id(result: CursorResult[Any]) -> int:
    """The primary key of the one row an insert made."""
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


class TableRow(Base):
    """One table: the match's rules and secret seed, and where it stands."""

    __tablename__ = "barbu_tables"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    rules: Mapped[str] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), default="open", index=True)  # open, playing, over
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    secret: Mapped[str | None] = mapped_column(String(64), nullable=True)  # hex key of the deals (barbu.chance)
    creator_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    bots_by: Mapped[str | None] = mapped_column(String(16), nullable=True)  # creator or seated
    touched_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    invite_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)  # set: a private table
    clock: Mapped[str | None] = mapped_column(String(32), nullable=True)  # "per_move+bank" seconds; None: no clock
    bots_secret: Mapped[str | None] = mapped_column(String(64), nullable=True)  # hex key of the computer players' seeds
    creator_addr: Mapped[str | None] = mapped_column(String(64), nullable=True)  # HMAC of its creator's address
    bots_addr: Mapped[str | None] = mapped_column(String(64), nullable=True)  # HMAC of who gave seats to computers
    rated: Mapped[bool | None] = mapped_column(Boolean, nullable=True)  # its result changes the players' ratings
    club_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)  # a club's table
    turn_based: Mapped[bool | None] = mapped_column(Boolean, nullable=True)  # long clocks, nobody need be there
    # A turn-based table waits for this account's decision since then (the "your turn" lists, the clock)
    waiting_for: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    turn_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # A duplicate event's table (`barbu.web.events.service`): dealt by boards, and over after so many deals
    boards: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    deal_limit: Mapped[int | None] = mapped_column(Integer, nullable=True)


class SeatRow(Base):
    """A seat taken by a guest (with the hash of his credential) or by a computer player."""

    __tablename__ = "barbu_seats"
    table_id: Mapped[str] = mapped_column(ForeignKey("barbu_tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(16))  # human or bot
    strength: Mapped[str | None] = mapped_column(String(32), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    bank: Mapped[float | None] = mapped_column(Float, nullable=True)  # seconds left in the seat's time bank
    timeouts: Mapped[int | None] = mapped_column(Integer, nullable=True)  # clock run out so many times in a row
    user_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)  # the account seated here
    left: Mapped[bool | None] = mapped_column(Boolean, nullable=True)  # he gave the seat up: a stand-in plays it


class EventRow(Base):
    """One action of a table's match; (table, seq) is unique, so an action is never stored twice."""

    __tablename__ = "barbu_events"
    table_id: Mapped[str] = mapped_column(ForeignKey("barbu_tables.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    actor: Mapped[int] = mapped_column(Integer)  # the seat, or -1 for chance
    action: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    epoch: Mapped[int | None] = mapped_column(BigInteger, nullable=True)  # the writer's lease (many processes)


class CreationRow(Base):
    """One table or kept game made by an address (HMAC-SHA256 of it), for the per-hour limits.

    One row of kind "key" holds, in ``address_hash``, the hex key of that HMAC (`Store.creations_key`)."""

    __tablename__ = "barbu_creations"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    address_hash: Mapped[str] = mapped_column(String(64), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # table, kept_game, or key
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class LeaseRow(Base):
    """Which server process owns an unfinished table, when several share the database (`barbu.web.db.leases`).

    ``epoch`` grows by one at every change of owner; every write to the table's journal carries the epoch its
    writer holds, and is refused if the lease has moved on since (fencing).  ``expires`` is seconds since
    1970 on the database's own clock, so the processes' clocks need not agree."""

    __tablename__ = "barbu_leases"
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64), index=True)
    epoch: Mapped[int] = mapped_column(BigInteger)
    expires: Mapped[float] = mapped_column(Float)


TABLES = table_of(TableRow)
SEATS = table_of(SeatRow)
EVENTS = table_of(EventRow)
CREATIONS = table_of(CreationRow)
LEASES = table_of(LeaseRow)


CREATION_KEY = "key"  # the kind of the barbu_creations row that holds the key addresses are hashed with


def _aware(t: datetime) -> datetime:
    """SQLite gives back naive times: they were stored in UTC."""
    return t if t.tzinfo is not None else t.replace(tzinfo=timezone.utc)


def hash_token(token: str) -> str:
    """Credentials are stored hashed: they are long random strings, so one SHA-256 is enough."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def now() -> datetime:
    return datetime.now(timezone.utc)


def database_url(url: str) -> str:
    """Accept the usual ``postgresql://`` form and pick the psycopg 3 driver for it."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def sqlite_url(path: str | Path) -> str:
    return f"sqlite:///{Path(path)}"


@dataclass
class SeatRecord:
    seat: int
    name: str
    kind: str
    strength: str | None = None
    token_hash: str | None = None
    bank: float | None = None  # seconds left in the seat's time bank (tables with a clock)
    timeouts: int = 0  # times in a row the seat's clock ran out
    user_id: int | None = None  # the account of the player seated (None: a guest, a computer player)
    left: bool = False  # the player gave the seat up during the match; a stand-in plays it to the end


@dataclass
class TableRecord:
    """A table as stored: what `barbu.web.tables.actor.Table` is rebuilt from."""

    id: str
    rules: str
    seed: int
    status: str
    created_at: datetime
    rematch_of: str | None = None
    rematch_id: str | None = None
    secret: str | None = None  # hex of the 256-bit key of the deals; None: an older table, dealt from `seed`
    creator_hash: str | None = None
    bots_by: str = "creator"
    touched_at: datetime | None = None
    invite_hash: str | None = None  # set: a private table, seated only with the invitation's secret
    clock: str | None = None  # "per_move+bank" in seconds; None: no clock
    bots_secret: str | None = None  # hex key of the computer players' seeds; None: an older table (its seed)
    creator_addr: str | None = None  # HMAC of the creator's address (`Creations.address_hash`), for the limits
    bots_addr: str | None = None  # HMAC of the address that gave seats to computer players
    rated: bool = False  # created as rated: its result changes the ratings (every person at it has an account)
    club_id: int | None = (
        None  # a club's table (`barbu.web.clubs.service`): a private club's is seen by its members only
    )
    turn_based: bool = False  # played over days: long clocks, nobody need be connected
    turn_since: datetime | None = None  # a turn-based table: since when the decision it waits for is awaited
    boards: bool = False  # an event's table: deal k has the same cards at every table (`core.chance.BoardChance`)
    deal_limit: int | None = None  # an event's table: the match ends after so many deals (None: its own end)
    seats: list[SeatRecord] = field(default_factory=list)
    events: list[tuple[int, int, str]] = field(default_factory=list)  # (seq, actor, action text)


def make_engine(url: str, idle_timeout: float | None = None) -> Engine:
    """An engine for ``url``.  ``idle_timeout`` (PostgreSQL, seconds): how long the database lets a
    transaction sit idle before ending it and its session.  A server process paused in the middle of a
    write (SIGSTOP, a stalled machine) would otherwise keep its row locks, and the process taking its tables
    over would wait on them for as long as it stays paused."""
    url = database_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            # WAL with synchronous=NORMAL: a committed transaction survives the process being killed.
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=5000")
            cur.close()

        return engine
    engine = create_engine(url, pool_pre_ping=True)
    if idle_timeout is not None:
        millis = max(1, round(idle_timeout * 1000))

        @event.listens_for(engine, "connect")
        def _timeouts(dbapi_conn: Any, _record: Any) -> None:
            dbapi_conn.autocommit = True
            dbapi_conn.execute(f"SET idle_in_transaction_session_timeout = {millis}")
            dbapi_conn.autocommit = False

    return engine


#: The PostgreSQL advisory lock that serialises migrations ("barbu" in ASCII).
MIGRATION_LOCK = 0x6261726275


def newest_revision() -> str:
    """The head revision, read from the file names (each revision is named by its number, ``0016_…``), so that
    a process whose database is already there need not load Alembic (0.4 s of each start).
    ``tests/web/test_web_schema.py`` checks that Alembic agrees."""
    return max(path.name.split("_", 1)[0] for path in (MIGRATIONS / "versions").glob("[0-9]*_*.py"))


def at_revision(engine: Engine, revision: str) -> bool:
    """Whether the database already stands at ``revision`` (a new database has no ``alembic_version`` yet)."""
    try:
        with engine.connect() as conn:
            found = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    except SQLAlchemyError:  # no such table yet (or no database): Alembic will say what is wrong
        return False
    return found == [revision]


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the schema to the newest Alembic revision (or to ``revision``: the tests of an upgrade)."""
    target = newest_revision() if revision == "head" else revision
    if at_revision(engine, target):
        return
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        # Processes started at once on an empty database take turns: the first creates the schema, the others
        # wait here and then find it done (two `barbu play --daily` or `barbu serve` in one folder).  The lock
        # ends with the transaction.
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        elif conn.dialect.name == "sqlite":
            conn.exec_driver_sql("BEGIN IMMEDIATE")  # the write lock, waited for up to the busy timeout
            if _stands_at(conn, target):
                return
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)


def _stands_at(conn: Connection, revision: str) -> bool:
    """``at_revision`` inside the migration's own transaction (a failed read would end it: asked first)."""
    has = conn.exec_driver_sql("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'")
    if has.first() is None:
        return False
    return conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all() == [revision]


class Store:
    """Synchronous access to the tables, seats and event logs."""

    def __init__(self, url: str, run_migrations: bool = True, idle_timeout: float | None = None) -> None:
        self.url = url
        self.engine = make_engine(url, idle_timeout)
        if run_migrations:  # one long transaction: never under the idle limit meant for a paused writer
            plain = self.engine if idle_timeout is None else make_engine(url)
            try:
                migrate(plain)
            finally:
                if plain is not self.engine:
                    plain.dispose()

    def close(self) -> None:
        self.engine.dispose()

    # -- writes (each takes an open connection so the journal can batch them) --
    @staticmethod
    def create_table(
        conn: Connection,
        table_id: str,
        rules: str,
        seed: int,
        rematch_of: str | None = None,
        secret: str | None = None,
        creator_hash: str | None = None,
        bots_by: str = "creator",
        invite_hash: str | None = None,
        clock: str | None = None,
        bots_secret: str | None = None,
        creator_addr: str | None = None,
        bots_addr: str | None = None,
        rated: bool = False,
        club_id: int | None = None,
        turn_based: bool = False,
        boards: bool = False,
        deal_limit: int | None = None,
    ) -> None:
        t = now()
        conn.execute(
            insert(TABLES).values(
                id=table_id,
                rules=rules,
                seed=seed,
                status="open",
                created_at=t,
                rematch_of=rematch_of,
                secret=secret,
                creator_hash=creator_hash,
                bots_by=bots_by,
                touched_at=t,
                invite_hash=invite_hash,
                clock=clock,
                bots_secret=bots_secret,
                creator_addr=creator_addr,
                bots_addr=bots_addr,
                rated=rated,
                club_id=club_id,
                turn_based=turn_based,
                boards=boards or None,
                deal_limit=deal_limit,
            )
        )

    @staticmethod
    def set_addresses(conn: Connection, table_id: str, creator_addr: str | None, bots_addr: str | None) -> None:
        """Who the table counts against (address HMACs), after computer players were seated or its maker left."""
        conn.execute(
            update(TABLES).where(TABLES.c.id == table_id).values(creator_addr=creator_addr, bots_addr=bots_addr)
        )

    @staticmethod
    def truncate_events(conn: Connection, table_id: str, from_seq: int) -> None:
        """Cut a table's log at `from_seq` (a move taken back against computer players)."""
        conn.execute(EVENTS.delete().where(EVENTS.c.table_id == table_id, EVENTS.c.seq >= from_seq))

    @staticmethod
    def touch(conn: Connection, table_id: str) -> None:
        conn.execute(update(TABLES).where(TABLES.c.id == table_id).values(touched_at=now()))

    @staticmethod
    def set_seat(conn: Connection, table_id: str, seat: SeatRecord) -> None:
        conn.execute(SEATS.delete().where(SEATS.c.table_id == table_id, SEATS.c.seat == seat.seat))
        conn.execute(
            insert(SEATS).values(
                table_id=table_id,
                seat=seat.seat,
                name=seat.name,
                kind=seat.kind,
                strength=seat.strength,
                token_hash=seat.token_hash,
                bank=seat.bank,
                timeouts=seat.timeouts,
                user_id=seat.user_id,
                left=seat.left,
            )
        )

    @staticmethod
    def clear_seat(conn: Connection, table_id: str, seat: int) -> None:
        conn.execute(SEATS.delete().where(SEATS.c.table_id == table_id, SEATS.c.seat == seat))

    @staticmethod
    def set_status(conn: Connection, table_id: str, status: str) -> None:
        conn.execute(update(TABLES).where(TABLES.c.id == table_id).values(status=status))

    @staticmethod
    def set_turn(conn: Connection, table_id: str, waiting_for: int | None, since: datetime | None) -> None:
        """A turn-based table waits for this account (None: for nobody with an account) since ``since``."""
        conn.execute(update(TABLES).where(TABLES.c.id == table_id).values(waiting_for=waiting_for, turn_since=since))

    @staticmethod
    def set_rematch(conn: Connection, table_id: str, rematch_id: str) -> None:
        conn.execute(update(TABLES).where(TABLES.c.id == table_id).values(rematch_id=rematch_id))

    @staticmethod
    def append_events(conn: Connection, rows: Iterable[tuple[str, int, int, str, int | None]]) -> None:
        """Append (table, seq, actor, action, lease epoch) rows; a seq stored twice violates the primary key."""
        t = now()
        values = [
            {"table_id": tid, "seq": seq, "actor": actor, "action": action, "created_at": t, "epoch": epoch}
            for tid, seq, actor, action, epoch in rows
        ]
        if values:
            conn.execute(insert(EVENTS), values)

    # -- the per-hour counts (barbu_creations) --
    @staticmethod
    def add_creation(conn: Connection, address_hash: str, kind: str, at: datetime) -> None:
        """One table or kept game made by an address (its keyed hash), for the per-hour limits."""
        conn.execute(insert(CREATIONS).values(address_hash=address_hash, kind=kind, created_at=at))

    @staticmethod
    def sweep_creations(conn: Connection, before: datetime) -> None:
        """Forget creations older than ``before``; the hashing key's row is kept."""
        conn.execute(CREATIONS.delete().where(CREATIONS.c.created_at < before, CREATIONS.c.kind != CREATION_KEY))

    def creations_since(self, since: datetime) -> list[tuple[str, str, datetime]]:
        """(address hash, kind, time) of every creation since ``since``, oldest first."""
        with self.engine.connect() as conn:
            q = (
                select(CREATIONS.c.address_hash, CREATIONS.c.kind, CREATIONS.c.created_at)
                .where(CREATIONS.c.created_at >= since, CREATIONS.c.kind != CREATION_KEY)
                .order_by(CREATIONS.c.created_at, CREATIONS.c.id)
            )
            return [(r.address_hash, r.kind, _aware(r.created_at)) for r in conn.execute(q)]

    def creations_key(self) -> bytes:
        """The key addresses are hashed with, made on the first start and kept in the database ever after.

        It is a row of barbu_creations of its own kind, so every process and every restart hashes an
        address alike; should two processes make one at once, the older row wins for both."""

        def oldest(conn: Connection) -> str | None:
            q = (
                select(CREATIONS.c.address_hash)
                .where(CREATIONS.c.kind == CREATION_KEY)
                .order_by(CREATIONS.c.id)
                .limit(1)
            )
            return conn.execute(q).scalar()

        with self.engine.begin() as conn:
            key = oldest(conn)
            if key is None:
                conn.execute(
                    insert(CREATIONS).values(address_hash=secrets.token_hex(32), kind=CREATION_KEY, created_at=now())
                )
                key = oldest(conn)
        assert key is not None
        return bytes.fromhex(key)

    # -- reads --
    def load_tables(self, only_unfinished: bool = False, ids: Iterable[str] | None = None) -> list[TableRecord]:
        """Tables with their seats and whole event logs, oldest first."""
        with self.engine.connect() as conn:
            q = select(TABLES).order_by(TABLES.c.created_at, TABLES.c.id)
            if only_unfinished:
                q = q.where(TABLES.c.status.not_in(("over", "expired")))
            if ids is not None:
                q = q.where(TABLES.c.id.in_(list(ids)))
            tables = {
                r.id: TableRecord(
                    r.id,
                    r.rules,
                    r.seed,
                    r.status,
                    r.created_at,
                    r.rematch_of,
                    r.rematch_id,
                    r.secret,
                    r.creator_hash,
                    r.bots_by or "creator",
                    r.touched_at or r.created_at,
                    r.invite_hash,
                    r.clock,
                    r.bots_secret,
                    r.creator_addr,
                    r.bots_addr,
                    bool(r.rated),
                    r.club_id,
                    bool(r.turn_based),
                    _aware(r.turn_since) if r.turn_since else None,
                    bool(r.boards),
                    r.deal_limit,
                )
                for r in conn.execute(q)
            }
            if not tables:
                return []
            keys = list(tables)
            for chunk in _chunks(keys, 500):
                for r in conn.execute(select(SEATS).where(SEATS.c.table_id.in_(chunk)).order_by(SEATS.c.seat)):
                    tables[r.table_id].seats.append(
                        SeatRecord(
                            r.seat,
                            r.name,
                            r.kind,
                            r.strength,
                            r.token_hash,
                            r.bank,
                            r.timeouts or 0,
                            r.user_id,
                            bool(r.left),
                        )
                    )
                q = (
                    select(EVENTS.c.table_id, EVENTS.c.seq, EVENTS.c.actor, EVENTS.c.action)
                    .where(EVENTS.c.table_id.in_(chunk))
                    .order_by(EVENTS.c.table_id, EVENTS.c.seq)
                )
                for r in conn.execute(q):
                    tables[r.table_id].events.append((r.seq, r.actor, r.action))
            return list(tables.values())

    def load_table(self, table_id: str) -> TableRecord | None:
        found = self.load_tables(ids=[table_id])
        return found[0] if found else None

    def events(self, table_id: str) -> list[tuple[int, int, str]]:
        with self.engine.connect() as conn:
            q = (
                select(EVENTS.c.seq, EVENTS.c.actor, EVENTS.c.action)
                .where(EVENTS.c.table_id == table_id)
                .order_by(EVENTS.c.seq)
            )
            return [(r.seq, r.actor, r.action) for r in conn.execute(q)]

    def epochs(self, table_id: str) -> list[int | None]:
        """The lease epoch each action of a table's log was written under, in order (None: one process alone)."""
        with self.engine.connect() as conn:
            q = select(EVENTS.c.epoch).where(EVENTS.c.table_id == table_id).order_by(EVENTS.c.seq)
            return [r.epoch for r in conn.execute(q)]


def _chunks(items: list[str], size: int) -> Iterable[list[str]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]
