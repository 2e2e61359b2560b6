"""Table leases on PostgreSQL under concurrency: renewals and journal writes never deadlock.

A renewal locks all of one process's lease rows for update; a journal's transaction locks the rows of the
tables it writes for, for share.  Taken in two orders, they deadlocked at 500 tables on two busy processes
(issue 44) and the processes took tables from each other.  Here threads on the real driver renew two
processes' leases and check journal writes over the same rows at once, with no retry to hide a deadlock;
and the statements that lock several rows are read as the database receives them.
"""

from __future__ import annotations

import random
import threading
from typing import Any, Iterator

import pytest
from conftest import postgres_url, reset_postgres
from sqlalchemy import event, insert
from sqlalchemy.exc import DBAPIError

from barbu.web.db import leases
from barbu.web.db.storage import LEASES, Store

NODES = ("node-a", "node-b")
TABLES = 240  # each process holds half, their ids interleaved and their rows stored in a random order


@pytest.fixture(scope="module")
def store() -> Iterator[Store]:
    url = postgres_url()
    reset_postgres(url)
    s = Store(url)
    ids = [f"t{i:04d}" for i in range(TABLES)]
    random.Random(44).shuffle(ids)  # the heap's order is not the ids' order
    with s.engine.begin() as conn:
        at = leases.db_now(conn)
        conn.execute(
            insert(LEASES),
            [{"table_id": tid, "owner": NODES[int(tid[1:]) % 2], "epoch": 1, "expires": at + 60} for tid in ids],
        )
    yield s
    s.close()


def owned(node: str) -> list[str]:
    return [f"t{i:04d}" for i in range(TABLES) if NODES[i % 2] == node]


def test_renewals_and_journal_writes_at_once_never_deadlock(store: Store) -> None:
    """Two renewers and four writers, 60 transactions each, on 240 rows: not one deadlock, every lease kept."""
    deadlocks: list[BaseException] = []
    errors: list[BaseException] = []
    start = threading.Barrier(6)

    def renewer(node: str) -> None:
        start.wait()
        for _ in range(60):
            try:
                with store.engine.begin() as conn:
                    held = leases.renew(conn, node, 60)
                assert set(held) == set(owned(node))
            except DBAPIError as exc:
                (deadlocks if leases.retryable(exc) else errors).append(exc)
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)

    def writer(seed: int) -> None:
        """As a journal's transaction: the rows of the tables it writes for, in whatever order its batch has them
        (a process that was paused may still write for tables the other holds now)."""
        rng = random.Random(seed)
        start.wait()
        for _ in range(60):
            fences = {f"t{i:04d}": 1 for i in rng.sample(range(TABLES), 40)}
            try:
                with store.engine.begin() as conn:
                    assert leases.refused(conn, fences) == set()
                    conn.execute(LEASES.select().where(LEASES.c.table_id == "t0000"))  # the batch's other writes
            except DBAPIError as exc:
                (deadlocks if leases.retryable(exc) else errors).append(exc)
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)

    threads = [threading.Thread(target=renewer, args=(n,)) for n in NODES]
    threads += [threading.Thread(target=writer, args=(seed,)) for seed in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert not any(t.is_alive() for t in threads)
    assert errors == []
    assert deadlocks == []


def test_every_statement_that_locks_rows_takes_them_in_table_order(store: Store) -> None:
    """What PostgreSQL receives: the renewal's lock and the journal's lock both ORDER BY the table id."""
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        seen.append(" ".join(statement.split()))

    event.listen(store.engine, "before_cursor_execute", record)
    try:
        with store.engine.begin() as conn:
            leases.renew(conn, "node-a", 60)
            leases.refused(conn, {"t0003": 1, "t0001": 1, "t0002": 1})
    finally:
        event.remove(store.engine, "before_cursor_execute", record)
    locking = [s for s in seen if " FOR UPDATE" in s or " FOR SHARE" in s]
    assert len(locking) == 2, seen
    assert all(
        s.endswith(("ORDER BY barbu_leases.table_id FOR UPDATE", "ORDER BY barbu_leases.table_id FOR SHARE"))
        for s in locking
    ), locking
    update = [s for s in seen if s.startswith("UPDATE barbu_leases")]
    assert len(update) == 1 and "barbu_leases.table_id IN" in update[0]  # only the rows locked in order


def test_a_transaction_that_meets_a_deadlock_runs_again_with_one_line(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """`leases.transaction`: a deadlock PostgreSQL reports ends in one warning line and a second run."""
    runs: list[int] = []

    def once_deadlocked(conn: Any) -> int:
        runs.append(1)
        if len(runs) == 1:  # PostgreSQL's own deadlock error, raised by the server for this transaction
            conn.exec_driver_sql(
                "DO $$ BEGIN RAISE EXCEPTION USING ERRCODE = 'deadlock_detected', MESSAGE = 'deadlock'; END $$"
            )
        return len(leases.renew(conn, "node-b", 60))

    with caplog.at_level("WARNING", logger="barbu.web"):
        assert leases.transaction(store.engine, once_deadlocked) == TABLES // 2
    assert len(runs) == 2
    lines = [r for r in caplog.records if "deadlock" in r.getMessage()]
    assert len(lines) == 1 and lines[0].exc_info is None
