"""Storage against SQLite and PostgreSQL: migrations, the event log, the writer, rebuilding a table."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
from conftest import postgres_url, reset_postgres
from sqlalchemy import inspect, text
from sqlalchemy.exc import DBAPIError, IntegrityError

from barbu.classic.match import CHANCE, Match
from barbu.web.common.settings import Settings
from barbu.web.db import leases
from barbu.web.db.journal import Journal
from barbu.web.db.storage import SeatRecord, Store, TableRecord, hash_token, now
from barbu.web.tables.actor import Table


def test_migrations_create_the_schema_and_run_twice(db_url: str) -> None:
    store = Store(db_url)
    Store(db_url).close()  # a second upgrade finds nothing to do
    names = set(inspect(store.engine).get_table_names())
    assert {"barbu_tables", "barbu_seats", "barbu_events", "alembic_version"} <= names
    store.close()


def played_match(seed: int, actions: int) -> Match:
    m = Match("classic", seed)
    rng = random.Random(seed)
    while len(m.history) < actions:
        if m.to_act() == CHANCE:
            m.play_chance()
        else:
            m.apply(rng.choice(m.legal_actions()))
    return m


def test_processes_started_at_once_on_a_new_sqlite_file_all_come_up(sqlite_url: str) -> None:
    """Two `barbu play --daily` (or servers) started at once in one folder: the second failed with 'table
    barbu_tables already exists' and a traceback; they now take turns for the write lock, and the schema is
    made once."""
    import subprocess
    import sys

    code = "import sys; from barbu.web.db.storage import Store; Store(sys.argv[1]).close()"
    runs = [
        subprocess.Popen([sys.executable, "-c", code, sqlite_url], stderr=subprocess.PIPE, text=True) for _ in range(4)
    ]
    for run in runs:
        _, err = run.communicate(timeout=120)
        assert run.returncode == 0, err[-2000:]
    store = Store(sqlite_url, run_migrations=False)
    with store.engine.connect() as conn:
        assert len(conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()) == 1
    store.close()


def test_tables_seats_and_events_round_trip(db_url: str) -> None:
    store = Store(db_url)
    m = played_match(3, 150)
    with store.engine.begin() as conn:
        Store.create_table(conn, "t1", "classic", 3)
        Store.set_seat(conn, "t1", SeatRecord(0, "Ann", "human", None, hash_token("secret")))
        Store.set_seat(conn, "t1", SeatRecord(1, "Bot 1 (random)", "bot", "random"))
        Store.append_events(conn, [("t1", i, -1, str(a), None) for i, a in enumerate(m.history)])
        Store.set_status(conn, "t1", "playing")
    rec = store.load_table("t1")
    assert rec is not None and rec.status == "playing" and rec.seed == 3
    assert [(s.seat, s.name, s.kind) for s in rec.seats] == [(0, "Ann", "human"), (1, "Bot 1 (random)", "bot")]
    assert rec.seats[0].token_hash == hash_token("secret") != "secret"
    assert [e[2] for e in rec.events] == [str(a) for a in m.history]
    again = Match("classic", 3)
    for _, _, action in rec.events:
        again.apply(again.parse_action(action))
    assert again.history == m.history and again.totals == m.totals and again.hands == m.hands
    store.close()


def test_an_action_is_never_stored_twice(db_url: str) -> None:
    store = Store(db_url)
    with store.engine.begin() as conn:
        Store.create_table(conn, "t1", "classic", 1)
        Store.append_events(conn, [("t1", 0, -1, "draw 2S 3S 4S 5S", None)])
    with pytest.raises(IntegrityError):
        with store.engine.begin() as conn:
            Store.append_events(conn, [("t1", 0, -1, "draw 2S 3S 4S 6S", None)])
    assert store.events("t1") == [(0, -1, "draw 2S 3S 4S 5S")]
    store.close()


def test_the_writer_commits_in_order_and_one_bad_write_spares_the_others(db_url: str) -> None:
    store = Store(db_url)

    async def main() -> list:
        journal = Journal(store)
        await journal.run(lambda c: Store.create_table(c, "t1", "classic", 1))
        futs = [journal.append("t1", i, i % 4, f"action {i}") for i in range(300)]
        futs.append(journal.append("t1", 5, 0, "a repeat"))  # refused by the primary key
        futs += [journal.append("t1", i, 0, f"action {i}") for i in range(300, 310)]
        results = await asyncio.gather(*futs, return_exceptions=True)
        await journal.close()
        return results

    results = asyncio.run(main())
    assert isinstance(results[300], Exception)
    assert all(r is None for i, r in enumerate(results) if i != 300)
    assert [e[0] for e in Store(db_url, run_migrations=False).events("t1")] == list(range(310))


def test_a_move_whose_commit_answer_was_lost_is_written_not_failed(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """PostgreSQL cut as it committed: the move was stored, the writer saw its connection lost and wrote it again
    into the primary key.  The same move (actor, action, epoch) already there is done, with no traceback (clean-
    clone CI's outage test); another move at that number is still refused."""
    store = Store(db_url)
    with store.engine.begin() as conn:
        Store.create_table(conn, "t1", "classic", 1)
        Store.append_events(conn, [("t1", 0, -1, "draw 2S 3S 4S 5S", None), ("t1", 1, 2, "AH", None)])

    async def main() -> list:
        journal = Journal(store)
        futs = [journal.append("t1", 1, 2, "AH"), journal.append("t1", 2, 3, "KH")]  # the first was committed
        done = await asyncio.gather(*futs, return_exceptions=True)
        other = await asyncio.gather(journal.append("t1", 1, 3, "QH"), return_exceptions=True)
        await journal.close()
        return done + other

    with caplog.at_level("ERROR", logger="barbu.web"):
        results = asyncio.run(main())
    assert results[:2] == [None, None] and isinstance(results[2], IntegrityError)
    assert [r.message for r in caplog.records] == ["database write failed"]  # the other move's, not the same one's
    assert Store(db_url, run_migrations=False).events("t1") == [(0, -1, "draw 2S 3S 4S 5S"), (1, 2, "AH"), (2, 3, "KH")]
    store.close()


def test_a_table_is_rebuilt_from_its_log(db_url: str) -> None:
    """A table actor writes through the journal; a new actor built from storage is at the same action."""
    store = Store(db_url)

    async def main() -> tuple[list[str], list[str]]:
        journal = Journal(store)
        settings = Settings(db_url=db_url, bot_delay=0, deal_pause=0)
        await journal.run(lambda c: Store.create_table(c, "t9", "salad(players=3)", 99))
        t = Table(
            TableRecord("t9", "salad(players=3)", 99, "open", now(), creator_hash=hash_token("me")), journal, settings
        )
        t.start()
        for s in range(3):
            await t.call(t.add_bot, s, "random", "me")
        while len(t.match.results) < 2:
            await asyncio.sleep(0.01)
        await t.stop()
        first = [str(a) for a in t.match.history]
        await journal.close()
        rec = Store(db_url, run_migrations=False).load_table("t9")
        assert rec is not None
        rebuilt = Table(rec, journal, settings)
        assert rec.status == "playing" and [s.kind for s in rec.seats] == ["bot"] * 3
        return first, [str(a) for a in rebuilt.match.history]

    first, rebuilt = asyncio.run(main())
    assert rebuilt == first and len(first) > 50


def test_a_writer_paused_inside_a_transaction_does_not_block_its_successor() -> None:
    """Many processes on PostgreSQL: a process paused (SIGSTOP) in the middle of a table's write holds
    that table's lease row locked for share; the database ends its idle transaction, so the process
    taking the table over is not kept waiting, and the paused one's write is refused once it wakes."""
    url = postgres_url()
    reset_postgres(url)
    paused, successor = Store(url, idle_timeout=0.3), Store(url, run_migrations=False)
    try:
        with paused.engine.begin() as conn:
            assert leases.claim(conn, "t1", "A", ttl=0.2) == 1
        conn = paused.engine.connect()
        conn.begin()
        assert leases.refused(conn, {"t1": 1}) == set()  # A's write has begun: the lease row is locked
        time.sleep(0.6)  # A is paused past the idle limit and past its lease
        with successor.engine.begin() as other:
            other.execute(text("SET LOCAL lock_timeout = '5s'"))  # a lock still held fails here, not hangs
            assert leases.claim(other, "t1", "B", ttl=30) == 2
        with pytest.raises(DBAPIError):  # A wakes: its session is gone, and with it the write
            Store.append_events(conn, [("t1", 1, 0, "2C", 1)])
        conn.close()
        with paused.engine.begin() as conn:  # written again on a new session: refused by the new epoch
            assert leases.refused(conn, {"t1": 1}) == {"t1"}
    finally:
        paused.close()
        successor.close()
