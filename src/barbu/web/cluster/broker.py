"""The message broker between the processes of one server: Redis, through redis-py's asyncio client.

Each process (node) listens on a channel of its own, ``barbu:node:<id>``; the others publish to it what
is meant for it (a browser's frames for a table it owns, the frames back for a browser it holds, a
request for a table, its answer).  Redis keeps the order of what one connection publishes, and each
sender here awaits one publish before the next, so the frames of one connection arrive in order.

Besides the channels, a node keeps ``barbu:alive:<id>`` (set with a short expiry and renewed, so the others
can tell a lost node from a quiet one) and its field of the ``barbu:listing`` hash (what its tables count
against each address, for the per-address limits).

The lobby is one shared index, so that listing it costs each process the same however many processes there
are: each table's row is a key of its own, ``barbu:row:<table>``, written by its owner only when the row
changes and otherwise only given more time (it expires with an owner that is gone), and the sorted set
``barbu:lobby`` orders the tables newest first.  A process reads one page of it a round: the first
`PAGE` ids, then their rows.  Before, every process wrote all its rows into one hash every round and read
the whole hash back, which grew with the square of the processes.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Awaitable, Callable

import orjson

from ...core import safejson
from ..common import outages
from ..common.outages import is_unreachable

log = logging.getLogger("barbu.web")

PREFIX = "barbu:"
LISTING = PREFIX + "listing"
LOBBY = PREFIX + "lobby"  # the tables listed, scored by when they were first listed: newest first
PAGE = 200  # rows of the lobby read a round (the lobby shows at most this many)

#: Delete a row only if it is still the one this process wrote (the table may have moved to another since).
_UNLIST = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  redis.call('ZREM', KEYS[2], ARGV[2])
end
return 0
"""


def row_key(table_id: str) -> str:
    return f"{PREFIX}row:{table_id}"


def channel(node: str) -> str:
    return f"{PREFIX}node:{node}"


def alive_key(node: str) -> str:
    return f"{PREFIX}alive:{node}"


class BrokerError(Exception):
    """The broker cannot be reached: one line for the operator."""


class Broker:
    """One node's connection to Redis: its channel, its liveness key, the shared listing."""

    def __init__(self, url: str, node: str, on_message: Callable[[dict[str, Any]], Awaitable[None] | None]) -> None:
        import redis.asyncio as redis

        self.url, self.node, self.on_message = url, node, on_message
        # A bounded pool that waits for a free connection: redis-py's default pool (100 connections) raises
        # MaxConnectionsError when a burst of WebSocket handshakes each checks its address's count at once.
        self.redis = redis.Redis.from_pool(
            redis.BlockingConnectionPool.from_url(
                url, max_connections=100, timeout=10, socket_connect_timeout=5, health_check_interval=10
            )
        )
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        self._listener: asyncio.Task[None] | None = None
        self.on_lost: Callable[[], None] | None = None  # what the node gives up when the broker goes away
        self.resubscribed = 0  # subscriptions made again after the broker came back
        self.published = 0
        self.received = 0
        self.rows: dict[str, bytes] = {}  # the lobby rows this node last wrote, by table
        self.started_at = time.time()  # kept in its liveness key: a draining node hands its tables to the newest
        self.listing_bytes = 0  # bytes of lobby rows and usage written and read, counted since the start

    async def start(self) -> None:
        await self.redis.ping()
        await self.pubsub.subscribe(channel(self.node))
        self._listener = asyncio.get_running_loop().create_task(self._listen(), name="broker-listener")

    async def _listen(self) -> None:
        while True:
            try:
                async for message in self.pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    self.received += 1
                    try:
                        envelope = safejson.loads(message["data"])
                        result = self.on_message(envelope)
                        if result is not None:
                            await result
                    except Exception:  # one bad message must not stop the listener
                        log.exception("broker: a message could not be handled")
            except asyncio.CancelledError:
                raise
            except Exception as e:  # Redis went away: one line, and listen again once it is back
                if not is_unreachable(e):
                    log.exception("broker: listening failed")
                self.lost(e)
                await self._subscribe_again()

    def lost(self, reason: BaseException | str) -> None:
        """The broker could not be reached: the outage is told once, and what was carried through it (relays,
        connections served for other processes) is given up by the node (``on_lost``)."""
        if outages.broker.failed(reason) and self.on_lost is not None:
            self.on_lost()

    async def _subscribe_again(self) -> None:
        """A new subscription to this node's channel on a new connection, tried every half second until Redis
        answers: redis-py subscribes a pub/sub connection again when it reconnects, but a fresh one is sure."""
        while True:
            await asyncio.sleep(0.5)
            old, self.pubsub = self.pubsub, self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await old.aclose()
            except Exception:  # the old connection is already broken
                pass
            try:
                await self.pubsub.subscribe(channel(self.node))
                self.resubscribed += 1
                return
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self.lost(e)

    def restart_listener(self) -> None:
        """Subscribe again from scratch (the channel went silent though Redis answers)."""
        if self._listener is not None:
            self._listener.cancel()
        self._listener = asyncio.get_running_loop().create_task(self._listen_again(), name="broker-listener")

    async def _listen_again(self) -> None:
        await self._subscribe_again()
        await self._listen()

    async def send(self, node: str, envelope: dict[str, Any]) -> None:
        """Publish to one node's channel (nothing is kept if that node is gone)."""
        await self.redis.publish(channel(node), orjson.dumps(envelope))
        self.published += 1

    async def heartbeat(self, ttl: float, usage: dict[str, Any]) -> None:
        """Say this node is alive for ``ttl`` seconds more, and publish what its tables count against each
        address (by its HMAC only) for the per-address limits."""
        data = orjson.dumps({"at": time.time(), "usage": usage})
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(alive_key(self.node), str(self.started_at), px=int(ttl * 1000))
        pipe.hset(LISTING, self.node, data)
        await pipe.execute()
        self.listing_bytes += len(data)

    async def list_rows(self, rows: list[dict[str, Any]], ttl: float) -> None:
        """Publish this node's lobby rows as changes: a row written when it differs from the last one written,
        otherwise only given ``ttl`` seconds more; a row no longer listed here is taken out."""
        px = int(ttl * 1000)
        now = time.time()
        fresh = {str(r["id"]): orjson.dumps(r) for r in rows}
        pipe = self.redis.pipeline(transaction=False)
        kept: set[str] = set()
        for order, (table_id, data) in enumerate(fresh.items()):
            if self.rows.get(table_id) == data:
                pipe.pexpire(row_key(table_id), px)
                kept.add(table_id)
                self.listing_bytes += len(table_id)
            else:
                pipe.set(row_key(table_id), data, px=px)
                # its place is where it was first listed (``rows`` come newest first)
                pipe.zadd(LOBBY, {table_id: now - order / 1e6}, nx=True)
                self.listing_bytes += len(data) + len(table_id)
        for table_id in set(self.rows) - set(fresh):
            pipe.eval(_UNLIST, 2, row_key(table_id), LOBBY, self.rows[table_id], table_id)
        results = await pipe.execute()
        # a row given more time that was not there any more (it expired, or was taken out meanwhile): written
        # again next round
        it = iter(results)
        self.rows = {}
        for table_id, data in fresh.items():
            if table_id in kept:
                if next(it):  # PEXPIRE found the row
                    self.rows[table_id] = data
            else:
                next(it), next(it)  # SET, ZADD
                self.rows[table_id] = data

    async def lobby_page(self, count: int = PAGE) -> list[dict[str, Any]]:
        """The first ``count`` rows of the lobby, newest first; ids whose row has expired (their owner is gone
        and nobody took the table over yet) are taken out of the index."""
        ids = [i.decode() if isinstance(i, bytes) else str(i) for i in await self.redis.zrevrange(LOBBY, 0, count - 1)]
        if not ids:
            return []
        found = await self.redis.mget([row_key(i) for i in ids])
        out: list[dict[str, Any]] = []
        gone: list[str] = []
        for table_id, data in zip(ids, found):
            if data is None:
                gone.append(table_id)
                continue
            self.listing_bytes += len(data)
            try:
                out.append(safejson.loads(data))
            except safejson.JsonError:
                gone.append(table_id)
        if gone:
            await self.redis.zrem(LOBBY, *gone)
        return out

    async def alive(self, nodes: list[str]) -> set[str]:
        """Which of these nodes have said they are alive within their expiry."""
        if not nodes:
            return set()
        found = await self.redis.mget([alive_key(n) for n in nodes])
        return {n for n, v in zip(nodes, found) if v is not None}

    async def started(self, nodes: list[str]) -> dict[str, float]:
        """When each of these nodes that is alive started (seconds since 1970, its own clock)."""
        if not nodes:
            return {}
        found = await self.redis.mget([alive_key(n) for n in nodes])
        out: dict[str, float] = {}
        for node, value in zip(nodes, found):
            try:
                out[node] = float(value) if value is not None else -1.0
            except ValueError:
                continue
        return {n: at for n, at in out.items() if at >= 0}

    async def listings(self, fresh: float) -> dict[str, dict[str, Any]]:
        """What every node published within ``fresh`` seconds (its "usage"); older entries are dropped from the
        hash."""
        raw = await self.redis.hgetall(LISTING)
        out: dict[str, dict[str, Any]] = {}
        stale: list[bytes | str] = []  # the hash's fields, as the client gives them (bytes unless decoded)
        for node, data in raw.items():
            self.listing_bytes += len(data)
            try:
                entry = safejson.loads(data)
            except safejson.JsonError:
                stale.append(node)
                continue
            if time.time() - float(entry.get("at", 0)) > fresh:
                stale.append(node)
                continue
            out[node.decode() if isinstance(node, bytes) else node] = entry
        if stale:
            await self.redis.hdel(LISTING, *stale)
        return out

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
        try:
            pipe = self.redis.pipeline(transaction=False)
            pipe.delete(alive_key(self.node))
            pipe.hdel(LISTING, self.node)
            await pipe.execute()
            await self.pubsub.aclose()
            await self.redis.aclose()
        except Exception:  # already gone: nothing to tidy
            pass
