"""Challenges (issue 45): a logged-in player asks one to three others to a table, with the game, the clock and
rated or not; each is told (a notice of kind "challenge", pushed live and by Web Push); once every one has
accepted, the table is made with them seated (the challenger first, then the others in the order he named them;
the seats left to computer players if he chose so) and each is sent there.  A decline, the challenger's cancel or
the lapse of `EXPIRES` without every answer ends it, and everyone in it is told in words.

Safety: no guest challenges (the routes ask for an account); nobody challenges himself, a player twice, or a
player kept apart from him by a block (either way; the refusal says no more than "you cannot challenge him");
`OPEN_MAX` challenges open at once and `PER_HOUR` an hour per account, counted before the work in the same
transaction as the challenge is written: the hour's count by one atomic upsert (`db.mailbudget`), which also
holds the account's row of counts until the transaction ends, so the open challenges counted next are exact
whatever the processes sharing the database.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.engine import Connection

from ..accounts import store as accounts
from ..accounts.service import fold, open_store
from ..accounts.store import User
from ..common import outages
from ..common.errors import WebError
from ..db import mailbudget
from ..db.storage import Store, hash_token, now
from ..notices.service import Notices
from ..social.blocks import apart_now
from ..tables.actor import requested_clock
from ..tables.lobby import Lobby, parse_rules
from . import refusals as no
from . import store as db
from .store import Challenge

log = logging.getLogger("barbu.web")

EXPIRES = timedelta(minutes=10)  # an open challenge lapses without every answer
OPEN_MAX = 10  # challenges an account has open at once
PER_HOUR = 30  # challenges an account sends in an hour (the clock's hour, UTC)
INVITED_MAX = 3  # a table of four
SWEEP_EVERY = 30.0  # seconds between two sweeps of the lapsed challenges
DEFAULT_CLOCK = "normal"


def hour_key(user_id: int, at: datetime) -> str:
    return f"challenge:{user_id}:{at:%H}"


def link(cid: int) -> str:
    return f"/challenges/{cid}"


class Challenges:
    """The challenges of one server (its database work in threads)."""

    def __init__(self, lobby: Lobby, notices: Notices, store: Callable[[], Store | None] | None = None) -> None:
        self.lobby = lobby
        self.notices = notices
        self._store = store or (lambda: lobby.store)
        self.send: Callable[[int, dict[str, Any]], Any] | None = None  # the account channel's (`live.send`)
        self._task: asyncio.Task[None] | None = None

    @property
    def store(self) -> Store:
        return open_store(self._store)

    async def _run(self, fn: Callable[[Connection], Any]) -> Any:
        store = self.store

        def run() -> Any:
            with store.engine.begin() as conn:
                return fn(conn)

        return await asyncio.to_thread(run)

    # -- making one
    async def create(
        self,
        user: User,
        names: Any,
        rules_text: Any,
        players: Any = None,
        short: bool = False,
        clock: Any = DEFAULT_CLOCK,
        turn_based: bool = False,
        rated: bool = False,
        bots: bool = False,
    ) -> Challenge:
        """A new challenge from ``user`` to the players ``names`` names; everyone challenged is told."""
        if not isinstance(names, list) or not names or len(names) > INVITED_MAX:
            raise WebError(no.PLAYERS_NEEDED)
        if not all(isinstance(n, str) and n.strip() for n in names):
            raise WebError(no.PLAYERS_NEEDED)
        wanted = [n.strip()[:64] for n in names]
        keys = [fold(n) for n in wanted]
        if len(set(keys)) != len(keys):
            raise WebError(no.PLAYERS_DISTINCT)
        if fold(user.name) in keys:
            raise WebError(no.CHALLENGE_SELF)
        rules = parse_rules(rules_text, players, short)  # refused in the new-table form's words
        seats = int(getattr(rules, "players", 2))
        if len(wanted) + 1 > seats:
            raise WebError(no.TOO_MANY_PLAYERS, seats=seats, most=seats - 1)
        if len(wanted) + 1 < seats and not bots:
            raise WebError(no.SEATS_LEFT, seats=seats, missing=seats - 1 - len(wanted))
        stored_clock = requested_clock(clock, turn_based=turn_based)
        text = str(rules)
        at = now()

        def write(conn: Connection) -> int:
            ids: list[int] = []
            for name, key in zip(wanted, keys):
                found = accounts.user_by_key(conn, key)
                if found is None or found[0].banned:
                    raise WebError(no.NO_SUCH_PLAYER, name=name)
                # a block with him, or between two he names (they could not share the table), either way
                if any(apart_now(conn, other, found[0].id) for other in (user.id, *ids)):
                    raise WebError(no.CANNOT_CHALLENGE, name=found[0].name)
                ids.append(found[0].id)
            try:  # the hour's count first: its row stays held until this transaction ends
                mailbudget.reserve(conn, [(hour_key(user.id, at), PER_HOUR)])
            except mailbudget.BudgetSpent:
                raise WebError(no.TOO_MANY_HOUR, n=PER_HOUR) from None
            if db.open_count(conn, user.id, at) >= OPEN_MAX:
                raise WebError(no.TOO_MANY_OPEN, n=OPEN_MAX)  # the hour's count rolled back with it
            return db.add(conn, user.id, ids, text, stored_clock, turn_based, rated, bots, at, at + EXPIRES)

        cid = await self._run(write)
        found = await self._get(cid)
        for invited in found.invited:
            await self._tell(invited.user_id, found, "new", user.name)
        return found

    # -- reading one
    async def _get(self, cid: int) -> Challenge:
        found = await self._run(lambda conn: db.get(conn, cid))
        if found is None:
            raise WebError(no.NO_CHALLENGE)
        return found

    async def view(self, user: User, cid: int) -> Challenge:
        """The challenge as one of its players sees it (to anyone else: not there); lapsed now if its time ran out."""
        found = await self._get(cid)
        if user.id not in found.players():
            raise WebError(no.NO_CHALLENGE)
        if found.state == "open" and found.expires_at <= now():
            await self._expire(cid)
            found = await self._get(cid)
        return found

    # -- answering, cancelling
    async def answer(self, user: User, cid: int, accept: bool) -> Challenge:
        found = await self.view(user, cid)
        if user.id not in [i.user_id for i in found.invited]:
            raise WebError(no.NOT_ASKED)
        said = "accepted" if accept else "declined"
        at = now()

        def write(conn: Connection) -> str | None:
            if not db.answer(conn, cid, user.id, said, at):
                return None
            if not accept:
                return "declined" if db.end(conn, cid, "declined", by=user.id) else None
            if db.all_accepted(conn, cid):
                return "accepted" if db.end(conn, cid, "accepted") else None
            return "waiting"

        outcome = await self._run(write)
        if outcome is None:
            raise WebError(no.NOT_OPEN)
        found = await self._get(cid)
        if outcome == "declined":
            await self._tell_all(found, "declined", user.name, but=user.id)
        elif outcome == "accepted":
            try:
                found = await self._start(found)
            except WebError:  # no room for a table now (a limit, a busy server): his answer waits, said in words
                await self._run(lambda conn: db.reopen(conn, cid, user.id))
                raise
        else:
            await self._changed(found)
        return found

    async def cancel(self, user: User, cid: int) -> Challenge:
        found = await self.view(user, cid)
        if found.from_id != user.id:
            raise WebError(no.NOT_YOURS)
        if not await self._run(lambda conn: db.end(conn, cid, "cancelled", by=user.id)):
            raise WebError(no.NOT_OPEN)
        found = await self._get(cid)
        await self._tell_all(found, "cancelled", user.name, but=user.id)
        return found

    # -- the table
    async def _start(self, c: Challenge) -> Challenge:
        """The table of an accepted challenge: its players seated, the seats left to computer players."""
        rules = parse_rules(c.rules)
        creations = self.lobby.creations
        counted = creations.address_hash(f"user:{c.from_id}")  # its computer players count against the challenger
        t, creator = await self.lobby.create(
            rules,
            clock=c.clock,
            invite_hash=hash_token(secrets.token_hex(16)),  # not listed: only its players sit there
            rated=c.rated,
            turn_based=c.turn_based,
            reserved=True,
            counted_as=(counted, counted) if c.bots else None,
        )
        names = c.names()
        for seat in range(len(t.seats)):
            if seat < len(names):
                uid, name = names[seat]
                await t.call(t.take_seat, seat, name, None, None, creator, (uid, name))
            else:
                await t.call(t.add_bot, seat, self.lobby.settings.stand_in, creator, None)
        await self._run(lambda conn: db.set_table(conn, c.id, t.id))
        found = await self._get(c.id)
        await self._tell_all(found, "table", c.from_name)
        return found

    # -- lapsing
    async def _expire(self, cid: int) -> bool:
        if not await self._run(lambda conn: db.end(conn, cid, "expired")):
            return False  # another process (or request) lapsed or ended it first
        found = await self._get(cid)
        await self._tell_all(found, "expired", found.from_name)
        return True

    async def sweep(self) -> int:
        """Lapse the open challenges whose time ran out, each told once; how many."""
        ids = await self._run(lambda conn: db.lapsed(conn, now()))
        return sum([await self._expire(cid) for cid in ids])

    def start(self) -> None:
        self._task = asyncio.create_task(self._sweeping())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _sweeping(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            try:
                await self.sweep()
            except WebError:
                pass  # the server still starting: next time
            except Exception as e:  # the database away a moment: its outage is told once; swept next round
                outages.failed_or_traced(e, "challenges: the sweep failed")

    # -- telling
    async def _tell(self, account_id: int, c: Challenge, state: str, name: str) -> None:
        params: dict[str, Any] = {"name": name, "id": c.id}
        if state != "new":
            params["state"] = state
        try:
            await self.notices.notify(
                account_id, "challenge", params, c.table_link() if state == "table" else link(c.id)
            )
        except WebError as e:  # a notice that cannot be given does not undo the challenge
            log.info("challenge %s: account %s not told (%s)", c.id, account_id, e.code)

    async def _tell_all(self, c: Challenge, state: str, name: str, but: int | None = None) -> None:
        for uid in c.players():
            if uid != but:
                await self._tell(uid, c, state, name)
        await self._changed(c)

    async def _changed(self, c: Challenge) -> None:
        """Every open page of its players hears the challenge's new state (its page redraws, the table opens)."""
        if self.send is None:
            return
        message = {"type": "challenge", "id": c.id, "state": c.state, "table": c.table_link() or None}
        for uid in c.players():
            await self.send(uid, message)
