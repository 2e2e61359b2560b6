"""The outage helper: one warning line when an outage starts, one info line when it ends, never a traceback."""

from __future__ import annotations

import logging
from typing import Any

import needs
import pytest

from barbu.web.common import outages
from barbu.web.common.outages import Outage, Probe, is_unreachable, short_reason


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "barbu.web"]


def test_one_line_each_way_with_its_length(caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    broker = Outage("broker", "tables whose players are all here go on", clock=clock)
    caplog.set_level(logging.INFO, logger="barbu.web")
    assert broker.up and broker.state() == {"up": True}
    assert broker.recovered() is False  # nothing to end
    assert broker.failed(ConnectionError("Error 111 connecting to 127.0.0.1:6390. Connection refused.")) is True
    for _ in range(50):  # every later failure of the same outage is silent
        clock.now += 0.2
        assert broker.failed(OSError("again")) is False
    assert not broker.up
    assert broker.state() == {
        "up": False,
        "reason": "Error 111 connecting to 127.0.0.1:6390. Connection refused.",
        "down_seconds": 10.0,
    }
    assert broker.recovered() is False  # it failed a moment ago: not steady yet
    clock.now += 2.0
    assert broker.recovered() is True
    assert broker.recovered() is False
    lines = records(caplog)
    assert [(r.levelno, r.getMessage()) for r in lines] == [
        (
            logging.WARNING,
            "broker unreachable: Error 111 connecting to 127.0.0.1:6390. Connection refused.; "
            "tables whose players are all here go on",
        ),
        (logging.INFO, "broker reachable again after 12.0 s"),
    ]
    assert all(r.exc_info is None and r.stack_info is None for r in lines)
    assert broker.outages == 1 and broker.seconds_down == pytest.approx(12.0)
    # a second outage is told again
    broker.failed("timeout")
    clock.now += 3
    assert broker.recovered()
    assert [r.getMessage() for r in records(caplog)[2:]] == [
        "broker unreachable: timeout; tables whose players are all here go on",
        "broker reachable again after 3.0 s",
    ]
    assert broker.outages == 2


def test_reasons_are_one_short_line() -> None:
    from sqlalchemy.exc import OperationalError

    wrapped = OperationalError("SELECT 1", {}, Exception("server closed the connection unexpectedly\n\tThis probably"))
    assert short_reason(wrapped) == "server closed the connection unexpectedly"
    assert short_reason(TimeoutError()) == "TimeoutError"
    assert short_reason("x" * 500).endswith("…") and len(short_reason("x" * 500)) == 160
    assert short_reason("  ") == "no reason given"


def test_outages_are_told_from_bugs() -> None:
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import ResponseError
    from redis.exceptions import TimeoutError as RedisTimeout
    from sqlalchemy.exc import IntegrityError, InterfaceError, OperationalError

    assert is_unreachable(RedisConnectionError("Connection refused"))
    assert is_unreachable(RedisTimeout("Timeout reading from socket"))
    assert is_unreachable(OperationalError("SELECT 1", {}, Exception("terminating connection")))
    assert is_unreachable(InterfaceError("SELECT 1", {}, Exception("connection already closed")))
    assert is_unreachable(ConnectionRefusedError())
    assert is_unreachable(TimeoutError())
    assert not is_unreachable(ResponseError("WRONGTYPE"))  # a bug in a command, not an outage
    assert not is_unreachable(IntegrityError("INSERT", {}, Exception("duplicate key")))
    assert not is_unreachable(KeyError("x"))
    assert not is_unreachable(FileNotFoundError("x"))


def test_a_process_has_one_of_each() -> None:
    assert (outages.database.name, outages.broker.name) == ("database", "broker")


def test_answers_in_between_cuts_are_one_outage(caplog: pytest.LogCaptureFixture) -> None:
    """A database whose connections are cut every few tenths of a second answers now and then: one outage."""
    clock = Clock()
    database = Outage("database", clock=clock)
    caplog.set_level(logging.INFO, logger="barbu.web")
    for _ in range(20):
        database.failed("server closed the connection unexpectedly")
        clock.now += 0.3
        assert database.recovered() is False
        clock.now += 0.2
    clock.now += 2
    assert database.recovered() is True
    assert [r.getMessage() for r in records(caplog)] == [
        "database unreachable: server closed the connection unexpectedly",
        "database reachable again after 12.0 s",
    ]


def test_a_probe_checks_at_most_once_a_second_and_tells_its_outage(caplog: pytest.LogCaptureFixture) -> None:
    import asyncio

    outage = Outage("broker", settle=0)
    calls: list[int] = []
    answer: dict[str, BaseException | None] = {"error": None}

    async def check() -> None:
        calls.append(1)
        await asyncio.sleep(0.01)
        if answer["error"] is not None:
            raise answer["error"]

    async def run() -> None:
        probe = Probe(outage, check, timeout=0.5, every=60)
        assert await asyncio.gather(*(probe.up() for _ in range(5))) == [True] * 5
        assert len(calls) == 1  # one check shared by five askers
        answer["error"] = ConnectionError("Connection refused")
        assert await probe.up() is True and len(calls) == 1  # within `every`: the last answer
        probe.every = 0
        assert await probe.up() is False and not outage.up
        answer["error"] = None
        assert await probe.up() is True and outage.up

        async def hangs() -> None:
            await asyncio.sleep(5)

        slow = Probe(outage, hangs, timeout=0.05, every=0)
        assert await slow.up() is False and outage.reason == "no answer within 0.05 s"

    caplog.set_level(logging.INFO, logger="barbu.web")
    asyncio.run(run())
    assert [r.levelno for r in records(caplog)] == [logging.WARNING, logging.INFO, logging.WARNING]


def test_the_outage_an_error_means() -> None:
    from redis.exceptions import ConnectionError as RedisConnectionError
    from sqlalchemy.exc import IntegrityError, OperationalError

    assert outages.outage_of(RedisConnectionError("Connection refused")) is outages.broker
    assert outages.outage_of(OperationalError("SELECT 1", {}, Exception("terminating connection"))) is outages.database
    assert outages.outage_of(IntegrityError("INSERT", {}, Exception("duplicate key"))) is None  # a bug
    assert outages.outage_of(ConnectionResetError()) is None  # maybe a client's: not said to be an outage
    assert outages.outage_of(KeyError("x")) is None


def test_per_address_counts_without_the_broker_and_after(tmp_path: Any) -> None:
    """While Redis does not answer, a WebSocket count is taken on this process alone (never refused, never an
    error); once it answers, this process's counts there are set to what it holds, whatever ran meanwhile
    (commands that timed out may have run after all) or was lost (a Redis restarted empty)."""
    import asyncio
    import os
    import signal

    import redis.asyncio as aioredis
    from test_web_outages import RedisServer

    from barbu.web.common.sharedlimits import WEBSOCKETS, SharedLimits

    needs.tool("redis-server", "apt-get install redis-server")
    server = RedisServer(tmp_path)
    server.start()
    assert server.proc is not None
    pid = server.proc.pid

    async def run() -> None:
        client = aioredis.from_url(server.url, socket_timeout=0.5, socket_connect_timeout=0.5)
        limits = SharedLimits(client, "n1")

        async def counted() -> tuple[Any, Any]:
            return await client.hget("barbu:limit:ws:all", "h"), await client.hget("barbu:limit:ws:node:n1", "h")

        try:
            assert await limits.acquire(WEBSOCKETS, "h", 2) and await limits.acquire(WEBSOCKETS, "g", 2)
            assert await counted() == (b"1", b"1")
            os.kill(pid, signal.SIGSTOP)  # Redis stops answering
            try:
                assert await limits.acquire(WEBSOCKETS, "h", 2)  # taken here alone: not refused, no error
                assert await limits.acquire(WEBSOCKETS, "h", 2)
                assert not outages.broker.up
                await limits.release(WEBSOCKETS, "h")
                await limits.release(WEBSOCKETS, "g")
            finally:
                os.kill(pid, signal.SIGCONT)
            assert limits.held == {(WEBSOCKETS, "h"): 2}
            outages.broker.last_failure -= 10  # as if Redis had answered for a while
            assert outages.broker.recovered()
            await limits.pay_back()
            assert await counted() == (b"2", b"2")
            assert await client.hget("barbu:limit:ws:all", "g") is None
            await client.flushdb()  # a Redis restarted empty learns this process's share again
            outages.broker.failed("restarted")
            outages.broker.last_failure -= 10
            assert outages.broker.recovered()
            await limits.pay_back()
            assert await counted() == (b"2", b"2")
        finally:
            await client.aclose()

    try:
        asyncio.run(run())
    finally:
        server.stop()
