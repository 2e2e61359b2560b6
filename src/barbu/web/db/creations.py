"""Counts of what each address (or account) made in the last hour or day (tables, kept games, events, clubs),
kept in the database.

An address is never stored as it is: only HMAC-SHA256 of it under a key made on the server's first start
and kept in the database (`Store.creations_key`), so a restart hashes it alike and its counts hold.  The
live counts are in memory, loaded from the database at start-up: checking a count and adding to it is
one step with no ``await`` between them, so no burst of requests slips past a limit.  Each creation is
written through the journal; rows older than an hour are swept.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import time
from collections import defaultdict, deque
from datetime import datetime, timedelta, timezone
from typing import Any

from .storage import Store

log = logging.getLogger("barbu.web")

WINDOW = 3600.0  # seconds: the limits are per hour, but for the kinds in `WINDOWS`
DAY = 86400.0
TABLE = "table"
KEPT_GAME = "kept_game"
EVENT = "event"  # duplicate events, per address and per account ("user:<id>"), per day
CLUB = "club"  # clubs, likewise
#: The kinds counted over another window than the hour, in seconds.
WINDOWS: dict[str, float] = {EVENT: DAY, CLUB: DAY}


def window_of(kind: str) -> float:
    """The seconds ``kind`` is counted over (an hour unless `WINDOWS` says otherwise)."""
    return WINDOWS.get(kind, WINDOW)


class Creations:
    """How many tables and kept games each address made in the last hour."""

    def __init__(self) -> None:
        self.key = secrets.token_bytes(32)  # replaced by the database's own key at start-up
        self.journal: Any = None  # a `barbu.web.db.journal.Journal` once the store is open: rows are written
        self._times: defaultdict[tuple[str, str], deque[float]] = defaultdict(deque)  # (kind, hash) -> times
        self.shared: Any = None  # a `barbu.web.common.sharedlimits.SharedLimits` when the server has many processes

    def load(self, store: Store) -> None:
        """The database's key and the creations still counted (blocking: run it in a thread)."""
        self.key = store.creations_key()
        since = datetime.now(timezone.utc) - timedelta(seconds=max(WINDOW, *WINDOWS.values()))
        self._times.clear()
        for address_hash, kind, at in store.creations_since(since):
            self._times[(kind, address_hash)].append(at.timestamp())

    def address_hash(self, address: str) -> str:
        return hmac.new(self.key, address.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()

    def wait(self, address: str, kind: str, limit: int) -> int:
        """0 when ``address`` may make another ``kind`` now, else the minutes until it may."""
        if limit <= 0:
            return 0
        times = self._recent(kind, self.address_hash(address))
        if len(times) < limit:
            return 0
        return int((times[0] + window_of(kind) - time.time()) // 60) + 1

    async def take(self, address: str, kind: str, limit: int) -> int:
        """Check and count one ``kind`` made by ``address``: 0 when counted, else the minutes to wait.

        Alone, nothing here awaits, so checking and counting are one step.  With many processes
        (``shared``), the server-wide count in the broker decides, in one step of its own."""
        wait = self.wait(address, kind, limit)
        if wait:
            return wait
        if self.shared is not None and limit > 0:
            wait = await self.shared.per_hour(kind, self.address_hash(address), limit, window_of(kind))
            if wait:
                return wait
        self.note(address, kind)
        return 0

    async def take_each(self, limits: list[tuple[str, int]], kind: str) -> tuple[int, int]:
        """`take` against every one of ``limits``' keys (an address, an account as "user:<id>"), each with its own
        limit: (0, -1) when counted against all, else (minutes to wait, the index of the key that is full).  Alone,
        none is counted unless all have room; with many processes the broker counts them one after the other, so
        a refusal on a later key leaves the earlier ones counted."""
        for i, (k, limit) in enumerate(limits):
            wait = self.wait(k, kind, limit)
            if wait:
                return wait, i
        if self.shared is not None:
            for i, (k, limit) in enumerate(limits):
                if limit > 0:
                    wait = await self.shared.per_hour(kind, self.address_hash(k), limit, window_of(kind))
                    if wait:
                        return wait, i
        for k, _ in limits:
            self.note(k, kind)
        return 0, -1

    def note(self, address: str, kind: str) -> None:
        """Count one ``kind`` made by ``address`` now, in memory at once and in the database soon after."""
        h = self.address_hash(address)
        t = time.time()
        self._times[(kind, h)].append(t)
        if self.journal is not None:
            at = datetime.fromtimestamp(t, timezone.utc)
            fut = self.journal.run(lambda conn: Store.add_creation(conn, h, kind, at))
            fut.add_done_callback(_logged)

    def sweep(self) -> None:
        """Forget what is older than its window, here and in the database (rows: older than the longest)."""
        for k in [k for k in self._times if not self._recent(*k)]:
            del self._times[k]
        if self.journal is not None:
            before = datetime.fromtimestamp(time.time() - max(WINDOW, *WINDOWS.values()), timezone.utc)
            self.journal.run(lambda conn: Store.sweep_creations(conn, before)).add_done_callback(_logged)

    def _recent(self, kind: str, address_hash: str, cutoff: float | None = None) -> deque[float]:
        times = self._times[(kind, address_hash)]
        cutoff = time.time() - window_of(kind) if cutoff is None else cutoff
        while times and times[0] < cutoff:
            times.popleft()
        return times


def _logged(fut: Any) -> None:
    """A count that could not be written is a log line; the limit still holds in memory."""
    if not fut.cancelled() and fut.exception() is not None:
        log.warning("per-hour counts: a row could not be written (%s)", type(fut.exception()).__name__)
