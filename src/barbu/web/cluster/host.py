"""What the cluster asks of its host, the process's holder of tables (`barbu.web.tables.lobby.Lobby`).

The cluster never knows the lobby: the application builds it with the lobby as its host, and this protocol
is all it relies on — the tables held here, the store and journal its leases are read and written through,
the per-hour counts it makes server-wide, the rows and counts it publishes, and how a claimed table starts.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable, Mapping, Protocol

from ..db.creations import Creations
from ..db.journal import Journal
from ..db.storage import Store
from ..tables.actor import Table


class Host(Protocol):
    """The tables of this process, as the cluster sees them."""

    @property
    def tables(self) -> Mapping[str, Table]:
        """The tables this process holds (owned ones among them), by id."""
        ...

    @property
    def store(self) -> Store | None:
        """The database (None until the host has started)."""
        ...

    @property
    def journal(self) -> Journal | None:
        """The writes' queue (None until the host has started)."""
        ...

    @property
    def creations(self) -> Creations:
        """The per-hour counts by address, which the cluster makes server-wide."""
        ...

    def own_listing(self) -> list[dict[str, Any]]:
        """This process's rows of the lobby, published every round."""
        ...

    def usage(self) -> dict[str, tuple[int, int]]:
        """This process's tables by the address HMAC they count against, published every round."""
        ...

    async def adopt(self, table_id: str, epoch: int) -> bool:
        """Start a table just claimed, rebuilt from its journal; False if there was nothing to start."""
        ...

    def drop(self, table_id: str) -> Table | None:
        """Let a table this process hands over leave the host (the process is draining)."""
        ...


#: An HTTP request about a table, run by its owner: (table, request, data, client address, language) ->
#: (status, JSON body); the application's (`barbu.web.tables.ops.operate`, with its lobby).
Operation = Callable[[Table, str, dict[str, Any], str, str], Awaitable[tuple[int, dict[str, Any]]]]
