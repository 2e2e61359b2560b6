"""Presence (issue 45): which of the players you follow are online, playing (with a link to watch), away, or
offline; told live to their followers over the account channel, and asked in one request for the friends list.

**What it is made of.**  An account's pages (`barbu.web.live.hub`: a page open is "online"; every page hidden or
idle for a few minutes, "away"; none, "offline"), and its seat at an unfinished table ("playing", from the
database's seats, so a table played by any process counts).  A player who hides his presence is "offline" to
everyone else.  The watch link is given only for a table anyone may watch (not private, not a club's).

**When it is told.**  The hub tells presence when an account's pages change on this process; the lobby's tables
owned here are looked at every `SCAN` seconds for accounts that sat down or left.  Either schedules a push of that
account's presence `DEBOUNCE` seconds later (a page reloaded, closed and opened again, is told once or not at
all), and the push goes to his followers' pages wherever they are (`Live.send_many`), only when it differs from
what this process last told.

With several processes the page states are read from Redis (the hub's routing hashes, renewed by the process
holding the pages, expiring with it), so a follower on process B sees a player whose pages are on process A.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from ..accounts.store import USERS
from ..common import outages
from ..common.outages import is_unreachable
from ..db.storage import SEATS, TABLES, Store
from ..live.hub import AWAY, OFFLINE, ONLINE, Live
from . import store as db

log = logging.getLogger("barbu.web")

PLAYING = "playing"
STATES = (ONLINE, PLAYING, AWAY, OFFLINE)
DEBOUNCE = 1.0  # seconds a change waits before it is told (changes meanwhile are told at once, as one)
SCAN = 1.0  # seconds between looks at the tables owned here for who sat down or left
FOLLOWERS_KEPT = 10.0  # seconds an account's followers are kept in memory (a follow made here forgets them)


@dataclass(frozen=True)
class Facts:
    """What the database says of an account for its presence."""

    name: str
    hidden: bool
    table: str | None  # the unfinished table he sits at
    watchable: bool  # anyone may watch it (not private, not a club's)


#: The facts of these accounts (the database's, or a benchmark's).
FactsOf = Callable[[list[int]], Awaitable[dict[int, Facts]]]
#: The accounts following this one.
FollowersOf = Callable[[int], Awaitable[list[int]]]


def facts_in(conn: Connection, ids: list[int]) -> dict[int, Facts]:
    """The facts of these accounts, in three indexed reads."""
    if not ids:
        return {}
    names = {r.id: r.name for r in conn.execute(select(USERS.c.id, USERS.c.name).where(USERS.c.id.in_(ids)))}
    hidden = db.hidden(conn, ids)
    q = (
        select(SEATS.c.user_id, SEATS.c.left, TABLES.c.id, TABLES.c.invite_hash, TABLES.c.club_id)
        .join(TABLES, TABLES.c.id == SEATS.c.table_id)
        .where(SEATS.c.user_id.in_(ids), SEATS.c.kind == "human", TABLES.c.status.in_(("open", "playing")))
        .order_by(TABLES.c.created_at)
    )
    tables: dict[int, tuple[str, bool]] = {}
    for r in conn.execute(q):
        if r.user_id is not None and not r.left:
            tables[r.user_id] = (r.id, r.invite_hash is None and r.club_id is None)  # the newest last: kept
    return {
        a: Facts(names[a], a in hidden, *(tables.get(a) or (None, False)))
        for a in ids
        if a in names  # an account deleted meanwhile is nobody
    }


def from_store(store: Callable[[], Store | None]) -> tuple[FactsOf, FollowersOf]:
    """The facts and the followers, read from the server's database (in a thread)."""

    async def facts(ids: list[int]) -> dict[int, Facts]:
        s = store()
        if s is None or not ids:
            return {}

        def read() -> dict[int, Facts]:
            with s.engine.connect() as conn:
                return facts_in(conn, ids)

        return await asyncio.to_thread(read)

    async def followers(account_id: int) -> list[int]:
        s = store()
        if s is None:
            return []

        def read() -> list[int]:
            with s.engine.connect() as conn:
                return db.followers_of(conn, account_id)

        return await asyncio.to_thread(read)

    return facts, followers


def shown(state: str, f: Facts | None, viewer_is_him: bool = False) -> dict[str, Any]:
    """An account's presence as the pages read it: ``{"name", "state", "watch"}`` (watch: the table's link)."""
    if f is None:
        return {"name": None, "state": OFFLINE, "watch": None}
    if f.hidden and not viewer_is_him:
        state = OFFLINE
    elif state != OFFLINE and f.table is not None:
        state = PLAYING
    watch = f"/t/{f.table}" if state == PLAYING and f.watchable else None
    return {"name": f.name, "state": state, "watch": watch}


class Presence:
    """The presence of the accounts, told to their followers (one per process: ``services.presence``)."""

    def __init__(self, live: Live, facts: FactsOf, followers: FollowersOf, debounce: float = DEBOUNCE) -> None:
        self.live, self.facts, self._followers_of, self.debounce = live, facts, followers, debounce
        live.on_change.append(self.changed)
        self._due: dict[int, asyncio.TimerHandle] = {}
        self._told: dict[int, tuple[str, str | None]] = {}  # what this process last told of each account
        self._followers: dict[int, tuple[float, list[int]]] = {}
        self._seated: dict[int, str] = {}
        self._scanner: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.pushes = 0  # presence changes told to followers
        self.latency: list[float] = []  # (a benchmark's) seconds from a change to its push's delivery, kept if asked
        self.keep_latency = False

    # ------------------------------------------------------------------ what it is now
    async def of(self, account_ids: Iterable[int], viewer: int | None = None) -> dict[int, dict[str, Any]]:
        """The presence of these accounts, in one read of the pages' states and one of the database."""
        ids = list(dict.fromkeys(account_ids))
        states = await self.live.states(ids)
        facts = await self.facts(ids)
        return {a: shown(states.get(a, OFFLINE), facts.get(a), viewer == a) for a in ids}

    # ------------------------------------------------------------------ telling it
    def changed(self, account_id: int) -> None:
        """The account's pages or seat changed: its presence is told `debounce` seconds from now."""
        if account_id in self._due:
            return
        loop = asyncio.get_running_loop()
        at = time.perf_counter()
        self._due[account_id] = loop.call_later(self.debounce, self._spawn_push, account_id, at)

    def _spawn_push(self, account_id: int, at: float) -> None:
        self._due.pop(account_id, None)
        task = asyncio.ensure_future(self.push(account_id, at))
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled() or task.exception() is None:
            return
        exc = task.exception()
        if not is_unreachable(exc):  # type: ignore[arg-type]
            log.error("presence: telling a change failed", exc_info=exc)

    async def push(self, account_id: int, at: float | None = None) -> None:
        """Tell the account's followers its presence, if it is not what this process last told."""
        now = (await self.of((account_id,)))[account_id]
        if now["name"] is None:
            return
        told = (now["state"], now["watch"])
        if self._told.get(account_id) == told:
            return
        if now["state"] == OFFLINE:
            self._told.pop(account_id, None)
        else:
            self._told[account_id] = told
        followers = await self.followers(account_id)
        if followers:
            await self.live.send_many(followers, {"type": "presence", **now})
            self.pushes += 1
            if self.keep_latency and at is not None:
                self.latency.append(time.perf_counter() - at)

    async def followers(self, account_id: int) -> list[int]:
        kept = self._followers.get(account_id)
        if kept is not None and time.monotonic() - kept[0] < FOLLOWERS_KEPT:
            return kept[1]
        found = await self._followers_of(account_id)
        self._followers[account_id] = (time.monotonic(), found)
        if len(self._followers) > 50_000:  # never more than a busy server's online accounts
            self._followers.clear()
        return found

    def follows_changed(self, follower: int, followed: int) -> None:
        """A follow made or undone here: the followed account's followers are read again at its next change (the
        follower's friends page asks for the presence of those he follows when it loads)."""
        self._followers.pop(followed, None)
        self._told.pop(followed, None)

    # ------------------------------------------------------------------ the tables owned here
    def start(self, seated: Callable[[], dict[int, str]]) -> None:
        """Look at the tables owned here every `SCAN` seconds (``seated``: account -> the table he sits at)."""
        if self._scanner is None:
            self._scanner = asyncio.get_running_loop().create_task(self._scan(seated), name="presence-scanner")

    async def _scan(self, seated: Callable[[], dict[int, str]]) -> None:
        while True:
            await asyncio.sleep(SCAN)
            try:
                self.look(seated())
            except Exception as e:  # a table changing under the look, the database away: looked at again next round
                outages.failed_or_traced(e, "presence: looking at the tables failed")

    def look(self, now: dict[int, str]) -> None:
        """The accounts seated here now: those who sat down, moved or left are told."""
        before, self._seated = self._seated, now
        for a in set(before) | set(now):
            if before.get(a) != now.get(a):
                self.changed(a)

    async def close(self) -> None:
        if self._scanner is not None:
            self._scanner.cancel()
        for handle in self._due.values():
            handle.cancel()
