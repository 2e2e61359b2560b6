"""The HTTP requests about one table (its seats, computer players, leaving, ending), as its owner runs them.

With one process the app runs them directly; with many (`barbu.web.cluster.node`), the process a request
reached may not own the table, and sends the request to the owner, which runs the same function.  So a
request gets the same answer whichever process it reached.
"""

from __future__ import annotations

from typing import Any, Protocol

from ...agents import AGENT_KINDS
from ..common.errors import WebError
from ..common.wording import error_json
from .actor import Table

NO_STORE = {"cache-control": "no-store"}  # answers that carry a credential or a player's own standing
#: The requests `operate` runs.
OPERATIONS = ("info", "seat", "remove", "bot", "leave", "end", "pause", "chat")


class Desk(Protocol):
    """What a table's requests ask of the lobby that holds it (`barbu.web.tables.lobby.Lobby`)."""

    def show_ratings(self, t: Table) -> None: ...

    def check_bots(self, table: Table, address: str) -> None: ...

    async def end(self, t: Table, token: Any, creator: Any, user_id: int | None = None) -> bool: ...


async def operate(
    lobby: Desk, t: Table, op: str, data: dict[str, Any], address: str, lang: str
) -> tuple[int, dict[str, Any]]:
    """Run request ``op`` (one of `OPERATIONS`) on table ``t`` (owned here): (HTTP status, JSON body), a refusal
    worded in ``lang``."""
    if op not in OPERATIONS:  # the routes name them: another one is a bug, never a client's doing
        raise ValueError(f"unknown request about a table: {op[:40]!r}")
    try:
        return 200, await _run(lobby, t, op, data, address)
    except WebError as e:
        return e.status, error_json(e, lang)


async def _run(lobby: Desk, t: Table, op: str, data: dict[str, Any], address: str) -> dict[str, Any]:
    if op == "info":
        return {"table": t.info()}
    user = data.get("_user")  # put there by the process the request reached, from the session cookie
    account = (int(user[0]), str(user[1])) if isinstance(user, list) and len(user) == 2 else None
    user_id = account[0] if account else None
    if op == "seat":
        token = await t.call(
            t.take_seat, data.get("seat"), data.get("name"), data.get("invite"), address, data.get("creator"), account
        )
        lobby.show_ratings(t)
        return {"seat": data.get("seat"), "token": token, "table": t.info()}
    if op == "remove":  # before the match starts, the table's creator frees a seat
        await t.call(t.remove_player, data.get("seat"), data.get("token"))
        return {"seat": data.get("seat"), "table": t.info()}
    if op == "bot":
        if not t.started:
            lobby.check_bots(t, address)
        await t.call(t.add_bot, data.get("seat"), data.get("strength", AGENT_KINDS[0]), data.get("token"), address)
        lobby.show_ratings(t)
        return {"seat": data.get("seat"), "table": t.info()}
    if op == "leave":  # a player leaves a table with other people for good
        # at a duplicate event's table the stand-in plays on for a player who leaves, even alone (`web.events`)
        outcome = await t.call(t.give_up, data.get("token"), data.get("creator"), user_id, t.boards is not None)
        return {"outcome": outcome, "table": t.info()}
    if op == "chat":  # a moderator removed or restored a message of its chat (`Lobby.chat_changed`)
        await t.call(t.chat.refresh)
        return {}
    if op == "pause":  # an event's director paused ({"at", "reason"}) or resumed (None) the event
        paused = data.get("paused")
        await t.call(t.pause_event, paused if isinstance(paused, dict) else None)
        return {"table": t.info()}
    # "end": the only person at a table of computer players ends it
    kept = await lobby.end(t, data.get("token"), data.get("creator"), user_id)
    return {"kept": kept, "replay": f"/t/{t.id}/replay" if kept else None}
