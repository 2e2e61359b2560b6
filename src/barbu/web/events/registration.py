"""The players' part: registering for an event, withdrawing before its start, and leaving it once it runs."""

from __future__ import annotations

import logging
from typing import Any

from ..accounts.store import User
from ..common.errors import WebError
from ..db.leases import Lease
from . import refusals as no
from . import store as db
from .access import Changed, EventAccess, club_role, directs, hidden
from .formats import capacity

log = logging.getLogger("barbu.web")


class Registration:
    """The registered players of the events: who comes, who withdraws, who leaves (the stand-in plays on)."""

    def __init__(self, access: EventAccess, changed: Changed) -> None:
        self.access = access
        self.lobby = access.lobby
        self.changed = changed

    async def register(self, raw: Any, user: User) -> None:
        ev = await self.access.find(raw)

        def write(conn: Any) -> None:
            found = db.event_by_id(conn, ev.id, lock=True)
            assert found is not None
            if hidden(*club_role(conn, found.club_id, user)):
                raise WebError(no.NOT_FOUND)
            if found.status == "over":
                raise WebError(no.OVER)
            if found.status == "cancelled":
                raise WebError(no.CANCELLED)
            if found.status != "registering":
                raise WebError(no.REGISTRATION_CLOSED)
            if db.registered(conn, found.id, user.id):
                raise WebError(no.REGISTERED_ALREADY)
            cap = capacity(found)
            if cap is not None and db.player_count(conn, found.id) >= cap:
                raise WebError(no.FULL, n=cap)
            if db.busy_elsewhere(conn, user.id, found.id):
                raise WebError(no.BUSY_ELSEWHERE)
            db.add_player(conn, found.id, user.id)

        try:
            await self.access.write(write)
        except WebError:
            raise
        except Exception as e:  # two registrations of one account at once: the primary key keeps one
            if "unique" in str(e).lower() or "duplicate" in str(e).lower():
                raise WebError(no.REGISTERED_ALREADY) from None
            raise
        self.changed(ev.id)

    async def leave(self, raw: Any, user: User) -> str:
        """Before the start: the registration is withdrawn ("withdrawn").  Once it runs: the player leaves for
        good, the stand-in plays his seat to the end of the round and computer players his later seats
        ("left"); his results stay his, marked."""
        ev = await self.access.find(raw)

        def write(conn: Any) -> str:
            found = db.event_by_id(conn, ev.id, lock=True)
            assert found is not None
            if not db.registered(conn, found.id, user.id):
                raise WebError(no.NOT_REGISTERED)
            if found.status == "cancelled":
                raise WebError(no.CANCELLED)
            if found.status == "over":
                raise WebError(no.OVER)
            if found.status == "registering":
                db.remove_player(conn, found.id, user.id)
                return "withdrawn"
            db.set_player(conn, found.id, user.id, left=True)
            return "left"

        done: str = await self.access.write(write)
        if done == "left":
            await self._hand_over(await self.access.find(ev.id), user.id, user.name)
        self.changed(ev.id)
        return done

    async def replace(self, raw: Any, director: User, name: Any) -> str:
        """The director, once the event runs, has a missing player's seat played by a computer for the rest of
        the event, as if he had left: his results stay his, the deals played for him marked.  His name."""
        if not isinstance(name, str) or not name.strip() or len(name) > 64:
            raise WebError(no.WHOSE_REPLACEMENT)
        ev = await self.access.find(raw)

        def write(conn: Any) -> db.Player:
            found = db.event_by_id(conn, ev.id, lock=True)
            assert found is not None
            directs(conn, found, director)
            if found.status != "running":
                raise WebError(no.OVER if found.status == "over" else no.REPLACE_WHILE_RUNNING)
            who = next((p for p in db.players(conn, found.id) if p.name.casefold() == name.strip().casefold()), None)
            if who is None:
                raise WebError(no.PLAYER_NOT_REGISTERED, name=name.strip()[:40])
            if who.left:
                raise WebError(no.REPLACED_ALREADY, name=who.name)
            db.set_player(conn, found.id, who.user_id, left=True)
            return who

        gone: db.Player = await self.access.write(write)
        await self._hand_over(await self.access.find(ev.id), gone.user_id, gone.name)
        self.changed(ev.id)
        return gone.name

    async def _hand_over(self, ev: db.Event, user_id: int, name: str) -> None:
        """The seat of a player who left, at his table of the current round, handed to the stand-in (by the
        process that plays it); and where he left kept: the deals his table had finished stay his."""
        finished = 0
        for r, _, tid in await self.access.read(db.tables, ev.id):
            if r != ev.round:
                continue
            found = await self.lobby.locate(tid)  # here, or another process's (its lease): it runs the request
            if found is None:
                continue
            if isinstance(found, Lease):
                copy_ = await self.lobby.get(tid)  # a copy read from the log: the deals finished so far
                if copy_ is not None and copy_.seat_of(user_id) is not None:
                    finished = len(copy_.match.results)
                if self.lobby.cluster is not None:
                    await self.lobby.cluster.request(found.owner, tid, "leave", {"_user": [user_id, name]}, "", "en")
                continue
            seat = found.seat_of(user_id)
            if seat is not None:
                finished = len(found.match.results)
            if found.status != "over" and seat is not None and not seat.left:
                try:
                    await found.call(found.give_up, None, None, user_id, True)
                except WebError:
                    log.info("event %s: table %s could not hand %s's seat to the stand-in", ev.id, tid, user_id)
        await self.access.write(
            lambda conn, r=ev.round: db.set_player(conn, ev.id, user_id, left_round=r, left_deal=finished)
        )
