"""The lobby's limits: tables one address may create in an hour, unfinished tables per address and on the
server, computer tables per address, WebSockets per address (docs/server.md, "Limits").

A new table is checked against the per-hour count, then the per-address cap on unfinished tables, then the
server's limit, and counted, with no ``await`` in between: tables still being written count too, so no
number of concurrent requests creates one table more than the limits allow.  With many processes the other
processes' tables count as each last published them (`Peers.others_usage`), and the per-hour and WebSocket
counts are the server's (`barbu.web.common.sharedlimits`).
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from typing import Callable, Iterator, Mapping

from ..common.errors import WebError
from ..common.settings import Settings
from ..common.sharedlimits import WEBSOCKETS
from ..db.creations import TABLE, Creations
from .actor import Table
from .peers import Peers
from .refusals import COMPUTER_TABLES, SERVER_FULL, SERVER_FULL_LISTED, TABLES_PER_HOUR, UNFINISHED_TABLES

#: The code a per-address limit on tables is answered with: the lobby's page then points to "My tables"
#: (static/js/lobby.js).  Both such refusals are sent with it rather than with their own codes.
MY_TABLES = "my_tables"


def pointing_to_my_tables(e: WebError) -> WebError:
    """A per-address limit's refusal as the lobby's page reads it (`MY_TABLES`)."""
    e.code = MY_TABLES
    return e


class TableLimits:
    """What one process counts against the limits, and the checks made before a table is created."""

    def __init__(
        self, settings: Settings, creations: Creations, tables: Mapping[str, Table], peers: Callable[[], Peers | None]
    ) -> None:
        self.settings = settings
        self.creations = creations  # per-hour counts by address, kept in the database
        self.tables = tables  # this process's tables (the lobby's)
        self.peers = peers  # the other processes, with many (the lobby's cluster)
        self.pending = 0  # tables being written: counted against the limits before they are in the lobby
        self.pending_by: Counter[str] = Counter()  # the same, by creating address
        self.pending_bots: Counter[str] = Counter()  # an event's tables with computer players being made, by HMAC
        self.connections: Counter[str] = Counter()  # address -> open WebSocket connections

    # ------------------------------------------------------------------ new tables
    def check_create(self, address: str) -> None:
        """Refuse a new table to an address that made too many this hour (counts kept in the database)."""
        wait = self.creations.wait(address, TABLE, self.settings.tables_per_hour)
        if wait:
            raise self.too_many(wait)

    def too_many(self, wait: int) -> WebError:
        return WebError(TABLES_PER_HOUR, limit=self.settings.tables_per_hour, n=wait)

    @contextlib.contextmanager
    def counting(self, address: str | None) -> Iterator[None]:
        """A table being created by ``address``: it counts against the limits until it is in the lobby."""
        if address is not None:
            self.pending_by[address] += 1
        self.pending += 1
        try:
            yield
        finally:
            self.pending -= 1
            if address is not None:
                self.pending_by[address] -= 1
                if self.pending_by[address] <= 0:
                    del self.pending_by[address]

    def in_use_by(self, address: str) -> int:
        """Unfinished tables ``address`` created that are still waiting for players or being played.

        A match against the computer left for over an hour does not count: its player walked away.  With many
        processes, the others' tables count as each last published them (`usage`, a round ago)."""
        h = self.creations.address_hash(address)
        return self.pending_by[address] + self.usage().get(h, (0, 0))[0] + self._others_usage(h)[0]

    def usage(self) -> dict[str, tuple[int, int]]:
        """This process's tables by the address HMAC they count against: (unfinished tables in use that it
        created, unfinished tables where it seated computer players)."""
        recent = time.monotonic() - 3600
        out: dict[str, list[int]] = {}
        for t in self.tables.values():
            if t.status not in ("open", "playing"):
                continue
            if t.creator_addr and (t.status == "open" or t.last_activity > recent or t.humans_connected()):
                out.setdefault(t.creator_addr, [0, 0])[0] += 1
            if t.bots_addr:
                out.setdefault(t.bots_addr, [0, 0])[1] += 1
        return {h: (a, b) for h, (a, b) in out.items()}

    def _others_usage(self, h: str) -> tuple[int, int]:
        peers = self.peers()
        if peers is None:
            return 0, 0
        rows = [u.get(h) for u in peers.others_usage.values()]
        return sum(r[0] for r in rows if r), sum(r[1] for r in rows if r)

    def check_room(self, address: str | None, reserved: bool) -> None:
        """The limits on unfinished tables, per address first, then the server's; the caller counts the
        new table before its next ``await``, so no burst of creations passes between the check and the count.

        ``reserved``: "Play against the computer" or a rematch, which may use the share of the server's
        limit kept for them (``play_reserve``); a table made in the lobby may not."""
        per_address = self.settings.open_tables_per_address
        if address is not None and per_address > 0 and self.in_use_by(address) >= per_address:
            raise pointing_to_my_tables(WebError(UNFINISHED_TABLES, limit=per_address))
        limit = self.settings.max_tables
        held = self.pending + sum(1 for t in self.tables.values() if t.status != "over")
        if held >= limit:
            raise WebError(SERVER_FULL)
        if not reserved and held >= limit - self.play_reserve():
            raise WebError(SERVER_FULL_LISTED)

    def play_reserve(self) -> int:
        """Tables of the server's limit only "Play against the computer" and rematches may use."""
        limit = self.settings.max_tables
        return min(limit - 1, int(limit * self.settings.play_reserve + 0.999)) if limit > 1 else 0

    def check_bots(self, table: Table, address: str) -> None:
        """Refuse computer players to an address already running as many computer tables as allowed."""
        limit = self.settings.bot_tables_per_address
        h = self.creations.address_hash(address)
        if limit <= 0 or table.bots_addr == h:
            return
        running = self.usage().get(h, (0, 0))[1] + self._others_usage(h)[1] + self.pending_bots[h]
        if running >= limit:
            raise pointing_to_my_tables(WebError(COMPUTER_TABLES, limit=limit))

    # ------------------------------------------------------------------ an event's tables
    def event_load(self, account_h: str, address_h: str) -> int:
        """Unfinished tables with computer players an event's director runs: the most of those counted against his
        account (as their ``creator_addr``: `Lobby.create`'s ``counted_as``) and against his address (tables
        and events set up from it, as ``bots_addr``), with those being made."""
        mine = self.usage().get(account_h, (0, 0))[0] + self._others_usage(account_h)[0]
        here = self.usage().get(address_h, (0, 0))[1] + self._others_usage(address_h)[1]
        return max(mine + self.pending_bots[account_h], here + self.pending_bots[address_h])

    @contextlib.contextmanager
    def making_bots(self, keys: tuple[str, ...], n: int) -> Iterator[None]:
        """``n`` tables with computer players being made for an event: counted against ``keys`` (`event_load`)
        until they are in the lobby; the caller checks and enters this with no ``await`` between."""
        for k in keys:
            self.pending_bots[k] += n
        try:
            yield
        finally:
            for k in keys:
                self.pending_bots[k] -= n
                if self.pending_bots[k] <= 0:
                    del self.pending_bots[k]

    # ------------------------------------------------------------------ WebSockets
    async def connect(self, address: str) -> bool:
        """Count a new WebSocket from `address`; False when it already has as many as allowed.

        With many processes the server's count decides (`SharedLimits`), this process's is kept too."""
        limit = self.settings.connections_per_address
        if limit > 0 and self.connections[address] >= limit:
            return False
        self.connections[address] += 1
        peers = self.peers()
        if peers is not None and not await peers.limits.acquire(
            WEBSOCKETS, self.creations.address_hash(address), limit
        ):
            self._drop(address)
            return False
        return True

    async def disconnect(self, address: str) -> None:
        self._drop(address)
        peers = self.peers()
        if peers is not None:
            await peers.limits.release(WEBSOCKETS, self.creations.address_hash(address))

    def _drop(self, address: str) -> None:
        self.connections[address] -= 1
        if self.connections[address] <= 0:
            del self.connections[address]
