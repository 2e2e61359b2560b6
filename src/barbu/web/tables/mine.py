"""The lobby's "My tables": the tables a browser holds a seat at or created, asked about by their credentials.

The browser keeps each table's seat credential and creator credential (localStorage) and sends them in
the body of ``POST /api/tables/mine``; the answer holds, for the tables they open, what the public lobby
lists about a table (`Table.summary`) and which seat is the caller's, never a hand or a credential.  A
table whose credentials open nothing (closed, or the seat was given up) is answered ``gone``: the
browser forgets it.
"""

from __future__ import annotations

from typing import Any

from ...core.words import N_
from .actor import Table, TableError

MINE_MAX = 50  # tables one request may ask about
MINE_BODY = 8192  # bytes: the request's body (50 tables of id and two credentials fit)


def wanted(data: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """The (table id, seat credential, creator credential) a request asks about, refused in words if malformed."""
    entries = data.get("tables")
    if not isinstance(entries, list):
        raise TableError(N_("send the tables as a list: {example}"),
                         example='{"tables": [{"id": "…", "token": "…", "creator": "…"}]}')
    if len(entries) > MINE_MAX:
        raise TableError(N_("ask about at most {n} tables at once"), n=MINE_MAX)
    out: dict[str, tuple[str, Any, Any]] = {}
    for e in entries:
        if not isinstance(e, dict) or not isinstance(e.get("id"), str) or not 0 < len(e["id"]) <= 32:
            raise TableError(N_("each table is an object with its \"id\" and the credentials this browser holds"))
        for key in ("token", "creator"):
            if e.get(key) is not None and (not isinstance(e[key], str) or len(e[key]) > 200):
                raise TableError(N_("a credential is a short text"))
        out[e["id"]] = (e["id"], e.get("token"), e.get("creator"))
    return list(out.values())


def status(t: Table | None, table_id: str, token: Any, creator: Any, user_id: int | None = None) -> dict[str, Any]:
    """One table as "My tables" shows it, or ``gone`` when these credentials (or the logged-in account's
    seat) open nothing there."""
    seat = (t.holder(token) or t.seat_of(user_id)) if t is not None else None
    made = t is not None and t.is_creator(creator)
    if t is None or (seat is None and not made):
        return {"id": table_id, "gone": True}
    return {**t.summary(), "seat": None if seat is None else seat.index, "creator": made,
            "people": t.people_besides(seat), "deals_done": t.web.deals_done(),
            "ended": t.status == "over" and not t.match.is_over}
