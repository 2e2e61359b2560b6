"""The director pauses a running event, and resumes it (issue 43).

Paused, no table of the event's round takes a move (a player is told "the event is paused by its director", and
why if the director said), the computer players and the stand-in wait, every clock stands still and nothing is
dealt; resumed, each table goes on from exactly where it stood, the decision awaited keeping what was left of its
time.  The pause is kept with the event (`barbu_duplicate_events.paused_at`, ``pause_reason``, migration 0017):
each table of the round is told by the process that plays it (relayed there on a many-process server, as a
player's leaving is), and a table built later (after a restart, or taken over by another process) reads it from
the event before it plays anything (`Pausing.of_table`, the lobby's ``paused_of``).  The event's page and every
table's page say so as soon as it happens (the event's push; the table's own message).
"""

from __future__ import annotations

import logging
from typing import Any

from ..accounts.store import User
from ..common.errors import WebError
from ..db.leases import Lease
from ..db.storage import now
from . import refusals as no
from . import store as db
from .access import Changed, EventAccess, directs

log = logging.getLogger("barbu.web")

REASON_MAX = 200  # characters of the director's word on why (the column's width)


def paused_json(ev: db.Event) -> dict[str, Any] | None:
    """What the event's page and its tables show of a pause: since when (ISO), and why if the director said."""
    if ev.paused_at is None or ev.status != "running":
        return None
    return {"at": ev.paused_at.isoformat(timespec="seconds"), "reason": ev.pause_reason}


def clean_reason(reason: Any) -> str | None:
    """The director's word on why, trimmed; none is fine, too long or not text is refused."""
    if reason is None:
        return None
    if not isinstance(reason, str) or len(reason) > REASON_MAX or not reason.isprintable():
        raise WebError(no.PAUSE_REASON, most=REASON_MAX)
    return " ".join(reason.split()) or None


class Pausing:
    """Pausing and resuming the running events, and telling their tables."""

    def __init__(self, access: EventAccess, changed: Changed) -> None:
        self.access = access
        self.lobby = access.lobby
        self.changed = changed

    async def pause(self, raw: Any, director: User, reason: Any = None) -> dict[str, Any]:
        """The director pauses the event: its pause as the pages show it."""
        words = clean_reason(reason)
        ev = await self.access.find(raw)

        def write(conn: Any) -> db.Event:
            found = self._running(conn, ev.id, director)
            if found.paused_at is not None:
                raise WebError(no.PAUSED_ALREADY)
            if words is not None:
                self.access.voice(conn, director.id)  # a muted director may pause without a word, not with one
            db.set_event(conn, found.id, paused_at=now(), pause_reason=words)
            paused = db.event_by_id(conn, found.id)
            assert paused is not None
            return paused

        paused: db.Event = await self.access.write(write)
        shown = paused_json(paused)
        await self._tell_tables(paused, shown)
        self.changed(paused.id)
        assert shown is not None
        return shown

    async def resume(self, raw: Any, director: User) -> None:
        """The director resumes the event: every table goes on from where it stood."""
        ev = await self.access.find(raw)

        def write(conn: Any) -> db.Event:
            found = self._running(conn, ev.id, director)
            if found.paused_at is None:
                raise WebError(no.NOT_PAUSED)
            db.set_event(conn, found.id, paused_at=None, pause_reason=None)
            return found

        found: db.Event = await self.access.write(write)
        await self._tell_tables(found, None)
        self.changed(found.id)

    async def of_table(self, table_id: str) -> dict[str, Any] | None:
        """The pause of the event a table belongs to (None: not paused, or not an event's table)."""

        def read(conn: Any) -> db.Event | None:
            event_id = db.event_of_table(conn, table_id)
            return None if event_id is None else db.event_by_id(conn, event_id)

        ev = await self.access.read(read)
        return None if ev is None else paused_json(ev)

    @staticmethod
    def _running(conn: Any, event_id: int, director: User) -> db.Event:
        found = db.event_by_id(conn, event_id, lock=True)
        assert found is not None
        directs(conn, found, director)
        if found.status == "over":
            raise WebError(no.OVER)
        if found.status != "running":
            raise WebError(no.PAUSE_WHILE_RUNNING)
        return found

    async def _tell_tables(self, ev: db.Event, paused: dict[str, Any] | None) -> None:
        """Each table of the round, by the process that plays it; one not played anywhere now reads the event
        when it is built."""
        for r, _, tid in await self.access.read(db.tables, ev.id):
            if r != ev.round:
                continue
            try:
                found = await self.lobby.locate(tid)  # here, or another process's (its lease): it runs the request
                if isinstance(found, Lease):
                    if self.lobby.cluster is not None:
                        await self.lobby.cluster.request(found.owner, tid, "pause", {"paused": paused}, "", "en")
                elif found is not None and found.status != "over":
                    await found.call(found.pause_event, paused)
            except Exception:  # that table reads the pause from the event when it is built again
                log.warning("event %s: table %s was not told of the pause or the resumption", ev.id, tid)
