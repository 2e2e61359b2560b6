"""Blocks as the other rooms ask about them: whether two accounts are kept apart, and the guards the application
wires into the tables (a seat refused next to a blocked or blocking player; his chat not delivered).

A block is one-way in the table (the blocker chose it) and two-way in effect: neither sits at a table where the
other sits, neither reads the other's chat, neither challenges the other, and the follows between them go.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from sqlalchemy.engine import Connection, Engine

from ..common.errors import WebError
from ..db.storage import Store
from . import store as db
from .refusals import BLOCKED_AT_TABLE


def _engine(where: Any) -> Engine:
    """The database's engine from a `Store`, an `Engine`, or the server's services (``services.lobby.store``)."""
    if isinstance(where, Engine):
        return where
    if isinstance(where, Store):
        return where.engine
    store = getattr(getattr(where, "lobby", None), "store", None)
    if isinstance(store, Store):
        return store.engine
    raise TypeError(f"no database in {type(where).__name__}")


def apart_now(conn: Connection, a: int, b: int) -> bool:
    """Whether ``a`` blocked ``b`` or ``b`` blocked ``a`` (on an open connection)."""
    return a != b and bool(db.apart(conn, a, (b,)))


async def blocked_between(where: Store | Engine | Any, a: int, b: int) -> bool:
    """Whether a block keeps accounts ``a`` and ``b`` apart, in either direction.  ``where``: the server's
    services, its `Store`, or an `Engine`."""
    engine = _engine(where)

    def read() -> bool:
        with engine.connect() as conn:
            return apart_now(conn, a, b)

    return await asyncio.to_thread(read)


def seat_guard(store: Any) -> Any:
    """The tables' seat guard (`barbu.web.tables.seats.SeatGuard`): a seat is refused to an account kept apart by
    a block from one already seated there.  ``store``: the lobby's store as it is when the guard runs."""

    async def guard(user_id: int, seated: Sequence[int]) -> None:
        others = [u for u in seated if u != user_id]
        s = store()
        if not others or s is None:
            return

        def read() -> bool:
            with s.engine.connect() as conn:
                return bool(db.apart(conn, user_id, others))

        if await asyncio.to_thread(read):
            raise WebError(BLOCKED_AT_TABLE)

    return guard


def chat_apart(conn: Connection, user_id: int) -> frozenset[int]:
    """The tables' chat filter (`barbu.web.tables.chat.Apart`): the accounts that must not read ``user_id``'s
    messages, nor he theirs."""
    return frozenset(db.apart(conn, user_id))
