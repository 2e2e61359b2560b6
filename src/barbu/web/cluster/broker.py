"""The message broker between the processes of one server: Redis, through redis-py's asyncio client.

Each process (node) listens on a channel of its own, ``barbu:node:<id>``; the others publish to it what
is meant for it (a browser's frames for a table it owns, the frames back for a browser it holds, a
request for a table, its answer).  Redis keeps the order of what one connection publishes, and each
sender here awaits one publish before the next, so the frames of one connection arrive in order.

Besides the channels, a node keeps two keys: ``barbu:alive:<id>`` (set with a short expiry and renewed,
so the others can tell a lost node from a quiet one) and its field of the ``barbu:listing`` hash (the
lobby's rows of the tables it owns, so any process can list every table).
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

    async def heartbeat(self, ttl: float, listing: list[dict[str, Any]], usage: dict[str, Any]) -> None:
        """Say this node is alive for ``ttl`` seconds more, and publish its tables' lobby rows and what they
        count against each address (by its HMAC only) for the per-address limits."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(alive_key(self.node), str(time.time()), px=int(ttl * 1000))
        pipe.hset(LISTING, self.node, orjson.dumps({"at": time.time(), "tables": listing, "usage": usage}))
        await pipe.execute()

    async def alive(self, nodes: list[str]) -> set[str]:
        """Which of these nodes have said they are alive within their expiry."""
        if not nodes:
            return set()
        found = await self.redis.mget([alive_key(n) for n in nodes])
        return {n for n, v in zip(nodes, found) if v is not None}

    async def listings(self, fresh: float) -> dict[str, dict[str, Any]]:
        """What every node published within ``fresh`` seconds (its "tables" and "usage"); older entries are
        dropped from the hash."""
        raw = await self.redis.hgetall(LISTING)
        out: dict[str, dict[str, Any]] = {}
        stale: list[bytes | str] = []  # the hash's fields, as the client gives them (bytes unless decoded)
        for node, data in raw.items():
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
