"""The other processes of a server, as the lobby sees them: what it asks of its cluster.

With many processes (`barbu.web.cluster.node.Cluster`, built by the application with the lobby as its host
and handed to it), each unfinished table is owned by one process through a lease; the lobby claims the
tables it creates or is asked for, finds where the others' are played, lists their rows and counts their
tables against the per-address limits.  The lobby knows the cluster by this protocol only.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..common.sharedlimits import SharedLimits
from ..db.leases import Lease


class Peers(Protocol):
    """This process's part in a server of several (`barbu.web.cluster.node.Cluster`)."""

    node: str  # this process's name among the server's
    epochs: dict[str, int]  # the tables this process owns, with their leases' epochs
    listed: list[dict[str, Any]]  # the lobby's first page, every process's tables, as read from the shared index
    others_usage: dict[str, dict[str, list[int]]]  # their tables by address HMAC (`TableLimits.usage`)
    limits: SharedLimits  # per-address limits, server-wide

    async def start(self) -> None: ...

    async def close(self) -> None: ...

    async def claim(self, table_id: str) -> int | None:
        """Take a table whose lease has ended (or that has none); its epoch, or None if another holds it."""
        ...

    def claim_new(self, conn: Any, table_id: str) -> int:
        """In the transaction that creates a table: it is this process's from its first write."""
        ...

    async def lease_of(self, table_id: str) -> tuple[Lease | None, float]:
        """A table's lease as the database has it, and the database's time."""
        ...

    async def request(
        self, owner: str, table_id: str, op: str, data: dict[str, Any], address: str, lang: str
    ) -> tuple[int, dict[str, Any]] | None:
        """Ask a table's owner to run a request about it (`barbu.web.tables.ops`); None if it did not answer."""
        ...

    def lost(self, table_id: str) -> None:
        """Another process took this table over."""
        ...
