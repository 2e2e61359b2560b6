"""Duplicate events on the server: a director's event, its players, its rounds of tables and its standings.

A director (any account; a club's owner or admins for a club event) creates an event: the game, the format
(`barbu.duplicate.movements.FORMATS`), the rounds, the number of tables or an open registration, the
computer players' strength, the pace (the table clock, always on) and a start time or "when I say".
Accounts register; when the event starts the registered players are placed by
`barbu.duplicate.movements.schedule` and each round's tables are made at once, every table of a round dealt
by `barbu.core.chance.BoardChance` keyed by HMAC(event key, round), so deal k gives every table the same
cards from the same seats.  Empty seats, and the seats of players who left, are played by computer
players of the director's strength.  When every table of a round is over the next round's are made; when
the last is over the event is over and its key is published.

**Hidden information.**  A board's results (its traveller, and its part of the standings) are shown to
nobody until every table of its round has finished that deal: a player never learns what another table did
with cards he has still to play.  Other tables' addresses are given only once their round is over (they are
unlisted tables, like private ones, until then).

`Events` is what the routes and the application hold; the work is its collaborators', each in a module named
for it: the settings checked (`settings`), the director's part (`directing`), the players' (`registration`),
the rounds and their tables (`rounds`), what is shown (`pages`, over `results`), and the watcher that starts
events and moves rounds on (`watcher`).  Every refusal is a `WebError` with one of
`barbu.web.events.refusals`, worded in the reader's language; none changes anything.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any, Callable

from ..accounts.service import Voice, free_voice
from ..accounts.store import User
from ..common.settings import Settings
from ..db.storage import Store, now
from ..tables.actor import Table
from . import store as db
from .access import EventAccess
from .directing import Directing
from .formats import capacity, round_secret
from .pages import EventPages, iso, summary_json
from .pausing import Pausing
from .push import EventPush
from .registration import Registration
from .results import Played, deal_rows, results_json, shown_boards, stand_in_starts
from .rounds import Rounds
from .settings import FIELDS, EventSettings
from .watcher import Watcher

__all__ = [
    "Events",
    "FIELDS",
    "ROUND_REPAIR_AFTER",
    "Played",
    "deal_rows",
    "iso",
    "now",
    "results_json",
    "round_secret",
    "shown_boards",
    "stand_in_starts",
    "summary_json",
]

#: Seconds a round may stay short of its tables before another pass makes the missing ones (a round takes a
#: fraction of a second to make; more than this means the process making it was lost).
ROUND_REPAIR_AFTER = 30.0


def _watchers_clock() -> datetime:
    """Now, for the watcher: this module's ``now``, read at each round (the tests move it on)."""
    return now()


def _repair_after() -> float:
    """`ROUND_REPAIR_AFTER`, read at each round (the tests shorten it)."""
    return ROUND_REPAIR_AFTER


class Events:
    """The events of one server, over its database and its lobby: each request handed to its collaborator."""

    def __init__(self, lobby: Any, settings: Settings, voice: Voice = free_voice) -> None:
        """``voice``: refuses a director who may not write for others now (muted: the application wires it)."""
        self.lobby = lobby
        self.settings = settings
        self.access = EventAccess(lobby, settings, voice)
        self.pages = EventPages(self.access)
        # The event pages held here, told at once when what they show changes (`barbu.web.events.push`): a deal
        # finished at an event's table is heard from the table itself, in the process that plays it.
        self.push = EventPush(self.digest)
        self.directing = Directing(self.access, self.changed)
        self.registration = Registration(self.access, self.changed)
        self.rounds = Rounds(self.access, self.changed)
        self.watcher = Watcher(self.access, self.rounds, self.push, self.changed, _watchers_clock, _repair_after)
        lobby.on_deal = self.watcher.deal_ended
        self.pausing = Pausing(self.access, self.changed)
        lobby.paused_of = self.pausing.of_table  # an event's table built here reads whether its event is paused

    # -- the database --
    @property
    def store(self) -> Store:
        return self.access.store

    async def _read(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self.access.read(fn, *args)

    async def _write(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self.access.write(fn, *args)

    async def find(self, raw: Any) -> db.Event:
        return await self.access.find(raw)

    # -- the watcher: due starts, finished rounds --
    @property
    def interval(self) -> float:
        """Seconds between two rounds of the watcher."""
        return self.watcher.interval

    @interval.setter
    def interval(self, seconds: float) -> None:
        self.watcher.interval = seconds

    @property
    def _task(self) -> asyncio.Task | None:
        return self.watcher.task

    @property
    def _advancing(self) -> set[int]:
        return self.watcher.advancing

    @property
    def _background(self) -> set[asyncio.Task]:
        return self.watcher.background

    def start_watching(self) -> None:
        self.watcher.start()

    async def stop(self) -> None:
        await self.watcher.stop()

    async def tick(self) -> None:
        """Start the events whose time has come; move every running event whose round is over on."""
        await self.watcher.tick()

    async def advance(self, event_id: int) -> None:
        """If every table of the current round is over, make the next round's tables, or end the event."""
        await self.watcher.advance(event_id)

    def _deal_ended(self, t: Table) -> None:
        self.watcher.deal_ended(t)

    # -- changes, told to the pages at once --
    def changed(self, event_id: int) -> None:
        """Something about the event may have changed: its pages (in every process) are told if what they show did."""
        self.push.changed(event_id)

    # -- reading --
    async def replay_withheld(self, table_id: str) -> bool:
        return await self.pages.replay_withheld(table_id)

    async def listing(self, user: User | None, club_id: int | None = None, page: int = 0) -> dict[str, Any]:
        return await self.pages.listing(user, club_id, page)

    async def visible(self, raw: Any, user: User | None) -> db.Event:
        return await self.pages.visible(raw, user)

    async def of_table(self, table_id: Any, user: User | None) -> dict[str, Any]:
        return await self.pages.of_table(table_id, user)

    async def page(self, raw: Any, user: User | None) -> dict[str, Any]:
        return await self.pages.page(raw, user)

    async def digest(self, event_id: int) -> str | None:
        return await self.pages.digest(event_id)

    def capacity(self, ev: db.Event) -> int | None:
        return capacity(ev)

    # -- the director --
    def settings_of(self, data: dict[str, Any]) -> EventSettings:
        """An event's settings from a director's form (`settings.event_settings`): the one check of creating
        and of changing."""
        return self.directing.settings_of(data)

    async def create(self, user: User, data: dict[str, Any], address: str | None = None) -> db.Event:
        return await self.directing.create(user, data, address)

    async def cancel(self, raw: Any, user: User) -> None:
        await self.directing.cancel(raw, user)

    async def edit(self, raw: Any, user: User, data: dict[str, Any]) -> tuple[db.Event, list[str]]:
        edited, changed = await self.directing.edit(raw, user, data)
        self.watcher.unstarted.discard(edited.id)  # a new start time: said again if it cannot start then
        return edited, changed

    async def remove(self, raw: Any, user: User, name: Any) -> None:
        await self.directing.remove(raw, user, name)

    async def start(self, raw: Any, user: User | None) -> None:
        """Seat the registered players by the schedule and make the first round's tables ("start now", or
        the event's time has come: ``user`` None)."""
        await self.rounds.start(raw, user)

    # -- the players --
    async def register(self, raw: Any, user: User) -> None:
        await self.registration.register(raw, user)

    async def replace(self, raw: Any, director: User, name: Any) -> str:
        return await self.registration.replace(raw, director, name)

    async def pause(self, raw: Any, director: User, reason: Any = None) -> dict[str, Any]:
        return await self.pausing.pause(raw, director, reason)

    async def resume(self, raw: Any, director: User) -> None:
        await self.pausing.resume(raw, director)

    async def leave(self, raw: Any, user: User) -> str:
        return await self.registration.leave(raw, user)
