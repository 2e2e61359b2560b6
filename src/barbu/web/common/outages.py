"""Outages of what a server process depends on (the database, the broker), told once each way.

An operator expects the database or Redis to go away now and then (a restart, a failover, a cut cable); a
log full of tracebacks for it hides the real bugs.  So every failure path that meets an unreachable
dependency reports it here, and this says so in ONE warning line when the outage starts and ONE info line
when it ends (with how long it lasted), never a traceback; the same object tells readiness whether the
dependency is up (`/health/ready`).

    from barbu.web.common import outages

    try:
        await redis.ping()
    except RedisError as exc:
        outages.broker.failed(exc)   # logs "broker unreachable: <reason>; tables whose players ... go on" once
    else:
        outages.broker.recovered()   # logs "broker reachable again after 9.8 s" once

A process has one database and at most one broker, so each has ONE object here, `database` and `broker`,
which every part of the process reports to (the journal's writes, the cluster's rounds, the relays, the
health checks): the lines are the process's, not each caller's.

A failure that is not an outage (a bug) keeps its ``log.exception``: `is_unreachable` tells them apart.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import Awaitable, Callable

log = logging.getLogger("barbu.web")

DATABASE = "database"
BROKER = "broker"
#: Seconds without a failure before an outage is over (see `Outage.recovered`).
SETTLE = 2.0


def short_reason(reason: BaseException | str, most: int = 160) -> str:
    """One short line for a failure: its first line, its type when it has no words, cut to ``most`` characters."""
    if isinstance(reason, BaseException):
        inner = getattr(reason, "orig", None)  # SQLAlchemy wraps the driver's error, whose words are better
        text = str(inner if inner is not None else reason).strip()
        name = type(inner if inner is not None else reason).__name__
        text = text.splitlines()[0].strip() if text else name
    else:
        text = reason.strip().splitlines()[0].strip() if reason.strip() else "no reason given"
    return text if len(text) <= most else text[: most - 1] + "…"


def is_unreachable(exc: BaseException) -> bool:
    """Whether ``exc`` means a dependency could not be reached (an outage), rather than a bug.

    Redis: its connection and timeout errors (and "loading", "read only" while it restarts or fails over);
    the database: SQLAlchemy's operational and interface errors and invalidated connections; both: the
    operating system's socket errors and timeouts."""
    if isinstance(exc, (ConnectionError, TimeoutError)):  # OSError's socket family, asyncio's timeouts
        return True
    try:
        from redis import exceptions as redis_errors

        if isinstance(
            exc,
            (
                redis_errors.ConnectionError,
                redis_errors.TimeoutError,
                redis_errors.BusyLoadingError,
                redis_errors.ReadOnlyError,
            ),
        ):
            return True
    except ImportError:  # no broker client: one process alone
        pass
    from sqlalchemy import exc as sa

    if isinstance(exc, sa.DBAPIError) and exc.connection_invalidated:
        return True
    if isinstance(exc, (sa.OperationalError, sa.InterfaceError, sa.DisconnectionError)):
        return True
    if isinstance(exc, sa.TimeoutError):  # no connection free in the pool in time
        return True
    return isinstance(exc, OSError) and not isinstance(exc, (FileNotFoundError, PermissionError))


def outage_of(exc: BaseException) -> "Outage | None":
    """The outage ``exc`` means: the broker's for Redis's errors, the database's for the database driver's (as
    SQLAlchemy gives them); None for anything else, a bug or a socket error that may be a client's own."""
    if not is_unreachable(exc):
        return None
    module = type(exc).__module__
    if module.startswith("redis"):
        return broker
    if module.startswith(("sqlalchemy", "psycopg", "sqlite3")):
        return database
    return None


def failed_or_traced(exc: BaseException, what: str, logger: logging.Logger | None = None) -> None:
    """A background task's failure told as it deserves: an unreachable dependency to its outage (one line each
    way), anything else as the bug it is, with its traceback under ``what``."""
    outage = outage_of(exc)
    if outage is not None:
        outage.failed(exc)
    elif not is_unreachable(exc):
        (logger or log).error(what, exc_info=exc)


class Outage:
    """One dependency's state (up or down since when, and why), reported once each way."""

    def __init__(
        self,
        name: str,
        consequence: str = "",
        logger: logging.Logger | None = None,
        clock: Callable[[], float] = time.monotonic,
        settle: float = SETTLE,
    ) -> None:
        self.name, self.consequence, self.settle = name, consequence, settle
        self.log = logger or log
        self.clock = clock
        self.down_since: float | None = None
        self.last_failure = float("-inf")
        self.reason = ""
        self.outages = 0  # how many began since the process started
        self.seconds_down = 0.0  # their total length, the current one excluded
        self._lock = threading.Lock()  # told from the event loop and from the journal's writer thread

    @property
    def up(self) -> bool:
        return self.down_since is None

    def failed(self, reason: BaseException | str) -> bool:
        """The dependency could not be reached; True if this starts an outage (and was logged)."""
        with self._lock:
            self.last_failure = self.clock()
            if self.down_since is not None:
                return False
            self.down_since = self.last_failure
            self.reason = short_reason(reason)
            self.outages += 1
        tail = f"; {self.consequence}" if self.consequence else ""
        self.log.warning("%s unreachable: %s%s", self.name, self.reason, tail)
        return True

    def recovered(self) -> bool:
        """The dependency answered; True if this ends an outage (and was logged).

        An outage ends only once the dependency has not failed for `settle` seconds: a database whose
        connections are being cut answers now and then in between, and that is still one outage."""
        with self._lock:
            if self.down_since is None or self.clock() - self.last_failure < self.settle:
                return False
            lasted = max(0.0, self.clock() - self.down_since)
            self.down_since, self.reason = None, ""
            self.seconds_down += lasted
        self.log.info("%s reachable again after %.1f s", self.name, lasted)
        return True

    def down_for(self) -> float:
        """Seconds since the current outage began (0 when up)."""
        return 0.0 if self.down_since is None else max(0.0, self.clock() - self.down_since)

    def state(self) -> dict[str, object]:
        """What readiness and health show of it."""
        if self.down_since is None:
            return {"up": True}
        return {"up": False, "reason": self.reason, "down_seconds": round(self.down_for(), 1)}


#: The process's database and broker: every failure path reports to these.
database = Outage(DATABASE, "moves wait to be saved")
broker = Outage(BROKER, "tables whose players are all here go on")


class Probe:
    """A check that a dependency answers (``SELECT 1``, a Redis ``PING``), run at most once every ``every``
    seconds however often readiness is asked, within ``timeout`` seconds; its result is told to the outage."""

    def __init__(
        self, outage: Outage, check: Callable[[], Awaitable[object]], timeout: float = 2.0, every: float = 1.0
    ) -> None:
        self.outage, self.check, self.timeout, self.every = outage, check, timeout, every
        self._at = float("-inf")
        self._running: asyncio.Future[bool] | None = None

    async def up(self) -> bool:
        """Whether the dependency is up (after a fresh check, unless one ran within ``every`` seconds)."""
        if self._running is not None:  # a check under way: share its answer
            return await asyncio.shield(self._running)
        if time.monotonic() - self._at < self.every:
            return self.outage.up
        self._running = asyncio.ensure_future(self._run())
        try:
            return await asyncio.shield(self._running)
        finally:
            self._at = time.monotonic()
            self._running = None

    async def _run(self) -> bool:
        for attempt in range(2):  # a connection the dependency closed while it sat in the pool fails once
            try:
                await asyncio.wait_for(self.check(), self.timeout)
            except asyncio.CancelledError:
                raise
            except asyncio.TimeoutError:
                if attempt:
                    self.outage.failed(f"no answer within {self.timeout:g} s")
            except Exception as exc:  # any failure of a trivial check is the dependency's, never a bug to trace
                if attempt:
                    self.outage.failed(exc)
            else:
                self.outage.recovered()
                break
        return self.outage.up
