"""The lobby's "My tables": the tables a browser holds a seat at or created, asked about by their credentials.

The browser keeps each table's seat credential and creator credential (localStorage) and sends them in
the body of ``POST /api/tables/mine``; the answer holds, for the tables they open, what the public lobby
lists about a table (`Table.summary`) and which seat is the caller's, never a hand or a credential.  A
table whose credentials open nothing (closed, or the seat was given up) is answered ``gone``: the
browser forgets it.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from ..common.errors import WebError
from ..db.storage import SEATS, TABLES, Store
from .actor import Table
from .refusals import MINE_CREDENTIAL, MINE_ENTRY, MINE_LIST, MINE_TOO_MANY

MINE_MAX = 50  # tables one request may ask about
MINE_BODY = 8192  # bytes: the request's body (50 tables of id and two credentials fit)


def wanted(data: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """The (table id, seat credential, creator credential) a request asks about, refused in words if malformed."""
    entries = data.get("tables")
    if not isinstance(entries, list):
        raise WebError(MINE_LIST, example='{"tables": [{"id": "…", "token": "…", "creator": "…"}]}')
    if len(entries) > MINE_MAX:
        raise WebError(MINE_TOO_MANY, n=MINE_MAX)
    out: dict[str, tuple[str, Any, Any]] = {}
    for e in entries:
        if not isinstance(e, dict) or not isinstance(e.get("id"), str) or not 0 < len(e["id"]) <= 32:
            raise WebError(MINE_ENTRY)
        for key in ("token", "creator"):
            if e.get(key) is not None and (not isinstance(e[key], str) or len(e[key]) > 200):
                raise WebError(MINE_CREDENTIAL)
        out[e["id"]] = (e["id"], e.get("token"), e.get("creator"))
    return list(out.values())


def status(t: Table | None, table_id: str, token: Any, creator: Any, user_id: int | None = None) -> dict[str, Any]:
    """One table as "My tables" shows it, or ``gone`` when these credentials (or the logged-in account's
    seat) open nothing there."""
    seat = (t.holder(token) or t.seat_of(user_id)) if t is not None else None
    made = t is not None and t.is_creator(creator)
    if t is None or (seat is None and not made):
        return {"id": table_id, "gone": True}
    return {
        **t.summary(),
        "seat": None if seat is None else seat.index,
        "creator": made,
        "people": t.people_besides(seat),
        "deals_done": t.web.deals_done(),
        "ended": t.status == "over" and not t.match.is_over,
    }


def held_by(store: Store, user_id: int) -> list[str]:
    """The unfinished tables an account holds a seat at, newest first ("My tables" on any browser)."""
    with store.engine.connect() as conn:
        q = (
            select(SEATS.c.table_id)
            .join(TABLES, TABLES.c.id == SEATS.c.table_id)
            .where(SEATS.c.user_id == user_id, SEATS.c.kind == "human", TABLES.c.status.in_(("open", "playing")))
            .order_by(TABLES.c.created_at.desc())
            .limit(50)
        )
        return [r.table_id for r in conn.execute(q)]
