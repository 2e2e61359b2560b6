"""The director's part: creating an event, and before its start changing it, cancelling it, removing a player.

A director is any account; a club's owner or admins for a club's event.  Creating and changing check the
settings alike (`settings.event_settings`); a refusal changes nothing.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from ...core.chance import new_secret
from ..accounts.store import User
from ..clubs import store as clubstore
from ..clubs.refusals import NOT_FOUND as NO_CLUB
from ..common.errors import WebError
from ..db.creations import EVENT
from . import refusals as no
from . import store as db
from .access import Changed, EventAccess, before_start, directs
from .formats import players_at
from .settings import FIELDS, EventSettings, event_settings, form_of


class Directing:
    """What the director does: an event made, then changed, cancelled or a registration removed before the start."""

    def __init__(self, access: EventAccess, changed: Changed) -> None:
        self.access = access
        self.changed = changed

    def settings_of(self, data: dict[str, Any]) -> EventSettings:
        """An event's settings from a director's form: the one check of creating and of changing."""
        return event_settings(data, self.access.settings)

    async def create(self, user: User, data: dict[str, Any], address: str | None = None) -> db.Event:
        """A new event, once the form is checked and the event counted against the day's limits of its director's
        account and address (`reserve`)."""
        settings = self.settings_of(data)
        club_slug = data.get("club")
        await self.reserve(user, address)
        creations = self.access.lobby.creations
        director_addr = creations.address_hash(address) if address is not None else None

        def write(conn: Any) -> db.Event:
            self.access.voice(conn, user.id)  # a muted director makes no event
            club_id = None
            if club_slug is not None:
                club = clubstore.club_by_slug(conn, club_slug) if isinstance(club_slug, str) else None
                role = clubstore.role_of(conn, club.id, user.id) if club is not None else None
                if club is None or (not club.public and role is None):
                    raise WebError(NO_CLUB)
                if role not in ("owner", "admin"):
                    raise WebError(no.CLUB_OWNER_OR_ADMIN)
                club_id = club.id
            event_id = db.add_event(
                conn,
                director_id=user.id,
                club_id=club_id,
                secret=new_secret().hex(),
                plan=None,
                director_addr=director_addr,
                **settings.columns(),
            )
            found = db.event_by_id(conn, event_id)
            assert found is not None
            return found

        return await self.access.write(write)

    async def reserve(self, user: User, address: str | None) -> None:
        """Count one more event against the account and the address (`Settings.events_per_day` each, in any 24
        hours), before it is made: checked and counted in one step (`Creations.take_each`), so no burst passes."""
        limit = self.access.settings.events_per_day
        keys = [(f"user:{user.id}", limit)] + ([(address, limit)] if address is not None else [])
        wait, full = await self.access.lobby.creations.take_each(keys, EVENT)
        if wait:
            hours = max(1, math.ceil(wait / 60))
            raise WebError(no.EVENTS_PER_DAY if full == 0 else no.EVENTS_PER_ADDRESS, limit=limit, n=hours)

    async def _directed(self, raw: Any, user: User, change: Callable[[Any, db.Event], Any]) -> Any:
        """Run ``change`` in one transaction on the locked event, once the director and the time are checked."""
        ev = await self.access.find(raw)

        def write(conn: Any) -> Any:
            found = db.event_by_id(conn, ev.id, lock=True)
            assert found is not None
            directs(conn, found, user)
            before_start(found)
            return change(conn, found)

        done = await self.access.write(write)
        self.changed(ev.id)
        return done

    async def cancel(self, raw: Any, user: User) -> None:
        """The director calls the event off before its start: its players see it cancelled, nothing is played."""
        await self._directed(raw, user, lambda conn, ev: db.set_event(conn, ev.id, status="cancelled"))

    async def edit(self, raw: Any, user: User, data: dict[str, Any]) -> tuple[db.Event, list[str]]:
        """The director changes the event before the start: any of `FIELDS` (and ``players``, the players a
        table), only those given.  The event's other facts fill in the rest and the whole is checked as at its
        creation (`settings_of`); then against the players registered (room for them all).  A refusal changes
        nothing.  The changed fields (by their name in `FIELDS`), recorded for the registered players."""
        given = {k: data[k] for k in (*FIELDS, "players") if k in data}
        if not given:
            raise WebError(no.NOTHING_TO_CHANGE)
        ev = await self.access.find(raw)
        wanted = self.settings_of(form_of(ev) | given)  # outside the transaction: the schedule may take a moment
        if "start" not in given:
            wanted = wanted.starting(ev.start_at)  # kept as it is, even if its time has passed

        def change(conn: Any, found: db.Event) -> tuple[db.Event, list[str]]:
            if form_of(found) != form_of(ev) or found.start_at != ev.start_at:  # changed meanwhile: look again
                raise WebError(no.CHANGED_MEANWHILE)
            seats = players_at(wanted.rules)
            registered = db.player_count(conn, found.id)
            if wanted.tables is not None and registered > wanted.tables * seats:
                raise WebError(no.TOO_MANY_REGISTERED, n=registered, room=wanted.tables * seats)
            changed = [f for f, column in FIELDS.items() if getattr(wanted, column) != getattr(found, column)]
            if "name" in changed:
                self.access.voice(conn, user.id)  # a muted director names nothing anew
            if changed:
                db.set_event(conn, found.id, **wanted.columns(), changes=db.changes_text(found, changed))
            edited = db.event_by_id(conn, found.id)
            assert edited is not None
            return edited, changed

        edited, changed = await self._directed(ev.id, user, change)
        return edited, changed

    async def remove(self, raw: Any, user: User, name: Any) -> None:
        """The director removes a player's registration before the start."""
        if not isinstance(name, str) or not name.strip() or len(name) > 64:
            raise WebError(no.WHOSE_REGISTRATION)

        def change(conn: Any, ev: db.Event) -> None:
            who = next((p for p in db.players(conn, ev.id) if p.name.casefold() == name.strip().casefold()), None)
            if who is None:
                raise WebError(no.PLAYER_NOT_REGISTERED, name=name.strip()[:40])
            db.remove_player(conn, ev.id, who.user_id)

        await self._directed(raw, user, change)
