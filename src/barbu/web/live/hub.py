"""The account channel's hub: every open page of a logged-in account, on this process and (through the broker) on
the others, so that ``await live.send(account_id, message)`` reaches each of them wherever it is.

**One process.**  The hub holds each account's pages (`Page`: one ``/ws/me`` socket each) and writes the message
to them; nothing else is needed.

**Several processes.**  Each process keeps, in Redis, which accounts it holds pages of: its hash
``barbu:me:<node>`` maps each such account to its pages' state ("online" or "away") and the moment that word stops
being believed, and the sorted set ``barbu:me:nodes`` names the processes holding pages (scored the same way).  A
process renews its hash every `RENEW` seconds; one that died stops renewing, its words are not believed after
`TTL` and its hash expires.  To send to accounts, a process reads the list of processes (kept `NODES_KEPT` seconds)
and, in one pipeline, asks each process's hash about those accounts (one HMGET per process, however many
accounts); then it publishes the message once to each other process holding any of them, on that process's own
broker channel (``barbu:node:<id>``, the one the cluster already listens on: `barbu.web.cluster.broker`), as
``{"k": "live", "a": [accounts], "x": message}``.

*Why this and not one Redis channel per account*: with 10,000 accounts online, a channel per account would be
10,000 subscriptions held by the processes and matched by Redis on every publish, subscribed and unsubscribed as
pages open and close; here each process keeps the single subscription it already has, and a fan-out to many
accounts (a presence change told to 50 followers) costs one HMGET per process and then ONE publish per process
that holds any of them (`send_many`), whatever the number of accounts.  (A hash per account, tried first, cost one
command per follower: 50 a change.)  The hashes also answer "is this account online anywhere" (`connected`) and
what its pages say (`states`) without asking the other processes.

Presence (`barbu.web.social.presence`) hears every change of an account's pages on the process where it happens
(``on_change``: its first page opened, its last closed, all its pages away or one back), once that process's field
is written, and tells the account's followers wherever their pages are through `send_many`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any

import orjson

from ..common import outages
from ..common.outages import is_unreachable
from ..tables.sockets import WsConn

if TYPE_CHECKING:
    from ..cluster.node import Cluster

log = logging.getLogger("barbu.web")

PREFIX = "barbu:me:"
TTL = 30.0  # seconds a process's word about an account's pages is believed without being renewed
RENEW = 10.0  # seconds between a process's renewals of its accounts' fields
ONLINE, AWAY, OFFLINE = "online", "away", "offline"
MAX_PAGES = 16  # pages one account may hold open on one process; one more closes the oldest


NODES = PREFIX + "nodes"  # the processes holding pages, scored by when their word stops being believed
NODES_KEPT = 1.0  # seconds a process keeps the list of the others before reading it again


def key(node: str) -> str:
    """The hash of the accounts whose pages ``node`` holds: account -> "state:until"."""
    return f"{PREFIX}{node}"


class Page:
    """One open page of an account: its ``/ws/me`` socket, and whether the page says it is away (hidden or idle
    for a few minutes: the page tells, `static/js/live.js`)."""

    def __init__(self, conn: WsConn, account_id: int) -> None:
        self.conn, self.account, self.away = conn, account_id, False
        self.opened = time.monotonic()

    def send(self, text: str) -> None:
        self.conn.send(text)


#: Told an account's pages changed on this process (opened, closed, all away, one back): presence's hook.
ChangeHook = Callable[[int], None]


class Live:
    """The hub of one process (``services.live``)."""

    def __init__(self) -> None:
        self.pages: dict[int, list[Page]] = {}
        self.on_change: list[ChangeHook] = []  # called with an account whose pages' state changed here
        self.cluster: Cluster | None = None
        self._renewer: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.delivered = 0  # messages written to pages here
        self._known: tuple[float, list[str]] = (-1e9, [])  # when the processes holding pages were read, and them
        self.published = 0  # messages published to other processes

    # ------------------------------------------------------------------ life
    def attach(self, cluster: Cluster) -> None:
        """Several processes: messages for our pages come on this process's broker channel."""
        self.cluster = cluster
        cluster.handlers["live"] = self._from_broker

    def start(self) -> None:
        if self.cluster is not None and self._renewer is None:
            self._renewer = asyncio.get_running_loop().create_task(self._renew(), name="live-renewer")

    async def close(self) -> None:
        if self._renewer is not None:
            self._renewer.cancel()
        for pages in list(self.pages.values()):
            for p in pages:
                p.conn.close(1001, "the server is stopping")

    # ------------------------------------------------------------------ pages opening and closing
    def state_here(self, account_id: int) -> str:
        """What this process's pages of the account say: online (one is in use), away (all are away), offline."""
        pages = self.pages.get(account_id)
        if not pages:
            return OFFLINE
        return AWAY if all(p.away for p in pages) else ONLINE

    def open(self, page: Page) -> None:
        before = self.state_here(page.account)
        pages = self.pages.setdefault(page.account, [])
        pages.append(page)
        if len(pages) > MAX_PAGES:
            pages.pop(0).conn.close(1008, "too many pages open")
        self._changed(page.account, before)

    def close_page(self, page: Page) -> None:
        before = self.state_here(page.account)
        pages = self.pages.get(page.account, [])
        if page in pages:
            pages.remove(page)
        if not pages:
            self.pages.pop(page.account, None)
        self._changed(page.account, before)

    def set_away(self, page: Page, away: bool) -> None:
        before = self.state_here(page.account)
        page.away = away
        self._changed(page.account, before)

    def _changed(self, account_id: int, before: str) -> None:
        now = self.state_here(account_id)
        if now == before:
            return
        if self.cluster is not None:
            self._spawn(self._write_state(account_id, now))
        else:
            self._tell(account_id)

    def _tell(self, account_id: int) -> None:
        for hook in self.on_change:
            hook(account_id)

    async def _write_state(self, account_id: int, state: str) -> None:
        """Our field of the account's routing hash, then the hooks (presence reads the hash: it must be there)."""
        assert self.cluster is not None
        redis, node, until = self.cluster.broker.redis, self.cluster.node, time.time() + TTL
        pipe = redis.pipeline(transaction=False)
        if state == OFFLINE:
            pipe.hdel(key(node), str(account_id))
        else:
            pipe.hset(key(node), str(account_id), f"{state}:{until:.1f}")
            pipe.pexpire(key(node), int(TTL * 1000))
            pipe.zadd(NODES, {node: until})
        await pipe.execute()
        self._tell(account_id)

    async def _renew(self) -> None:
        """Every `RENEW` seconds, our fields of our accounts' hashes are believed `TTL` seconds more."""
        while True:
            await asyncio.sleep(RENEW)
            try:
                await self.renew()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the broker away: its outage is told once; renewed next round
                outages.failed_or_traced(e, "live: renewing the pages' routes failed")

    async def renew(self) -> None:
        assert self.cluster is not None
        redis, node, until = self.cluster.broker.redis, self.cluster.node, time.time() + TTL
        mapping: dict[Any, Any] = {str(a): f"{self.state_here(a)}:{until:.1f}" for a in list(self.pages)}
        pipe = redis.pipeline(transaction=False)
        if mapping:
            pipe.hset(key(node), mapping=mapping)
            pipe.pexpire(key(node), int(TTL * 1000))
            pipe.zadd(NODES, {node: until})
        pipe.zremrangebyscore(NODES, "-inf", time.time() - TTL)  # processes gone for a while
        await pipe.execute()

    # ------------------------------------------------------------------ sending
    def deliver(self, account_ids: Iterable[int], text: str) -> int:
        """Write ``text`` to every page of these accounts held here; how many pages were written to."""
        n = 0
        for a in account_ids:
            for p in self.pages.get(a, ()):
                p.send(text)
                n += 1
        self.delivered += n
        return n

    async def send(self, account_id: int, message: dict[str, Any]) -> None:
        """Deliver ``message`` to every open page of the account, on any process (nothing if none is open)."""
        await self.send_many((account_id,), message)

    async def send_many(self, account_ids: Iterable[int], message: dict[str, Any]) -> None:
        """Deliver ``message`` to every open page of each of these accounts, on any process: here directly, and one
        publish per other process holding any of them."""
        ids = list(dict.fromkeys(account_ids))
        text = orjson.dumps(message).decode()
        self.deliver(ids, text)
        if self.cluster is None or not ids:
            return
        by_node: dict[str, list[int]] = {}
        for a, fields in zip(ids, await self._routes(ids)):
            for node in fields:
                if node != self.cluster.node:
                    by_node.setdefault(node, []).append(a)
        for node, accounts in by_node.items():
            await self.cluster.broker.send(node, {"k": "live", "a": accounts, "x": text})
            self.published += 1

    async def _routes(self, ids: list[int]) -> list[dict[str, str]]:
        """For each account, the processes holding its pages now, with what they say (online or away)."""
        assert self.cluster is not None
        redis = self.cluster.broker.redis
        nodes = await self._nodes()
        out: list[dict[str, str]] = [{} for _ in ids]
        if not nodes:
            return out
        pipe = redis.pipeline(transaction=False)
        for node in nodes:
            pipe.hmget(key(node), [str(a) for a in ids])  # one command per process, however many accounts
        now = time.time()
        for node, values in zip(nodes, await pipe.execute()):
            for fields, value in zip(out, values):
                if value is None:
                    continue
                v = value.decode() if isinstance(value, bytes) else str(value)
                state, _, until = v.partition(":")
                try:
                    if float(until) >= now:
                        fields[node] = state
                except ValueError:
                    continue
        return out

    async def _nodes(self) -> list[str]:
        """The processes holding pages now (read at most every `NODES_KEPT` seconds)."""
        assert self.cluster is not None
        at, nodes = self._known
        if time.monotonic() - at > NODES_KEPT:
            raw = await self.cluster.broker.redis.zrangebyscore(NODES, time.time(), "+inf")
            nodes = [n.decode() if isinstance(n, bytes) else str(n) for n in raw]
            self._known = (time.monotonic(), nodes)
        return nodes

    async def states(self, account_ids: Iterable[int]) -> dict[int, str]:
        """What each account's pages say, on any process: online, away (every page away) or offline."""
        ids = list(dict.fromkeys(account_ids))
        if self.cluster is None:
            return {a: self.state_here(a) for a in ids}
        out: dict[int, str] = {}
        for a, fields in zip(ids, await self._routes(ids)):
            fields.pop(self.cluster.node, None)  # ours as they are now, not as last written
            seen = set(fields.values()) | {self.state_here(a)}
            out[a] = ONLINE if ONLINE in seen else AWAY if AWAY in seen else OFFLINE
        return out

    async def connected(self, account_id: int) -> bool:
        """Whether the account has a page open, on any process."""
        if self.state_here(account_id) != OFFLINE:
            return True
        return (await self.states((account_id,)))[account_id] != OFFLINE

    # ------------------------------------------------------------------ the broker's messages
    def _from_broker(self, env: dict[str, Any]) -> None:
        accounts, text = env.get("a"), env.get("x")
        if isinstance(accounts, list) and isinstance(text, str):
            self.deliver((a for a in accounts if isinstance(a, int)), text)

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled() or task.exception() is None:
            return
        exc = task.exception()
        if not is_unreachable(exc):  # type: ignore[arg-type]
            log.error("live: a task failed", exc_info=exc)
