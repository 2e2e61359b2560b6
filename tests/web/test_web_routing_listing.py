"""The lobby's shared index (`barbu.web.cluster.broker`): each process's cost does not grow with the processes.

Real Redis, the real `Broker` of several nodes in this process: each writes its tables' rows only when they
change and reads one page of the index a round; rows of a node that is gone expire; a row a node wrote is
never taken out by it once another node has rewritten it (the table moved).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from conftest import redis_url

from barbu.web.cluster.broker import LOBBY, PAGE, Broker, row_key


def rows(node: int, n: int, status: str = "open") -> list[dict[str, Any]]:
    return [
        {"id": f"n{node}t{i:03d}", "rules": "classic", "status": status, "seats": [], "route": f"p{node}"}
        for i in range(n)
    ]


async def nodes(url: str, n: int) -> list[Broker]:
    brokers = [Broker(url, f"node{i}", lambda env: None) for i in range(n)]
    await brokers[0].redis.flushdb()
    return brokers


async def close(brokers: list[Broker]) -> None:
    for b in brokers:
        await b.redis.aclose()


async def round_bytes(b: Broker, own: list[dict[str, Any]]) -> int:
    """What one round of the lobby costs this node: its rows written (or given more time) and one page read."""
    before = b.listing_bytes
    await b.list_rows(own, 10)
    await b.lobby_page()
    return b.listing_bytes - before


def test_each_process_reads_one_page_whatever_the_number_of_processes() -> None:
    url = redis_url()

    async def measure(n: int) -> tuple[int, list[dict[str, Any]]]:
        brokers = await nodes(url, n)
        try:
            for i, b in enumerate(brokers):  # the first round writes every row
                await b.list_rows(rows(i, 60), 10)
            steady = [await round_bytes(b, rows(i, 60)) for i, b in enumerate(brokers)]
            return max(steady), await brokers[0].lobby_page()
        finally:
            await close(brokers)

    two, page2 = asyncio.run(measure(2))
    eight, page8 = asyncio.run(measure(8))
    assert len(page2) == 120 and {r["id"] for r in page2} == {r["id"] for i in range(2) for r in rows(i, 60)}
    assert len(page8) == PAGE  # 480 tables listed: one page of them read
    assert [r["id"] for r in page8[:60]] == [r["id"] for r in rows(7, 60)]  # newest first: the last node's
    row = len(page8[0]["id"]) + 80  # a row of these is about this long
    assert eight <= PAGE * row + 60 * 8  # a page, and an id for each of its own unchanged rows
    assert eight < 2 * two  # four times the processes, and eight times the rows read before (480 vs 60)


def test_only_changed_rows_are_written_and_rows_of_a_gone_node_leave_the_index() -> None:
    url = redis_url()

    async def run() -> None:
        a, b = await nodes(url, 2)
        try:
            await a.list_rows(rows(0, 5), 10)
            await b.list_rows(rows(1, 3), 0.3)  # b's rows live 0.3 s unless given more time
            before = a.listing_bytes
            changed = rows(0, 5)
            changed[2]["status"] = "playing"
            await a.list_rows(changed, 10)
            written = a.listing_bytes - before
            assert written == len(str(changed[2]).replace("'", '"').replace(": ", ":").replace(", ", ",")) + sum(
                len(r["id"]) for r in changed
            )  # the changed row in full (as JSON), the others by their id only
            assert (await a.redis.get(row_key("n0t002"))) is not None
            assert "playing" in str(await a.redis.get(row_key("n0t002")))
            await a.list_rows(changed[1:], 10)  # the first is over or private now: out of the lobby
            assert await a.redis.get(row_key("n0t000")) is None
            await asyncio.sleep(0.5)  # b is gone: its rows expire, and the next reader takes them out
            page = await a.lobby_page()
            assert {r["id"] for r in page} == {r["id"] for r in changed[1:]}
            assert await a.redis.zcard(LOBBY) == 4
        finally:
            await close([a, b])

    asyncio.run(run())


def test_a_table_that_moved_is_not_unlisted_by_its_old_owner() -> None:
    url = redis_url()

    async def run() -> None:
        a, b = await nodes(url, 2)
        try:
            row = rows(0, 1)
            await a.list_rows(row, 10)
            moved = [dict(row[0], route="p1")]
            await b.list_rows(moved, 10)  # b took the table over and listed it
            await a.list_rows([], 10)  # a lets it go
            assert [r["route"] for r in await a.lobby_page()] == ["p1"]
            same = rows(0, 1)  # the same row, byte for byte, written by another owner: still kept
            c = Broker(url, "node2", lambda env: None)
            try:
                await c.list_rows(same, 10)
                await a.list_rows(same, 10)
                await a.list_rows([], 10)  # a deletes the row c wrote too (the same bytes) ...
                await c.list_rows(same, 10)  # ... and c finds it gone when giving it more time: written again
                await c.list_rows(same, 10)
                assert [r["id"] for r in await c.lobby_page()] == ["n0t000"]
            finally:
                await c.redis.aclose()
        finally:
            await close([a, b])

    asyncio.run(run())


@pytest.mark.parametrize("n", [2])
def test_usage_is_still_read_from_every_process(n: int) -> None:
    """The per-address counts (`listings`) come from every live node: the limits need all of them."""
    url = redis_url()

    async def run() -> None:
        brokers = await nodes(url, n)
        try:
            for i, b in enumerate(brokers):
                await b.heartbeat(5, {f"h{i}": [1, 0]})
            found = await brokers[0].listings(10)
            assert {k: v["usage"] for k, v in found.items()} == {f"node{i}": {f"h{i}": [1, 0]} for i in range(n)}
        finally:
            await close(brokers)

    asyncio.run(run())
