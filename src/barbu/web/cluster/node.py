"""One server, many processes: this process's part (its node) in a server of several sharing a database
and a Redis broker.

- **Ownership.** Every unfinished table is played by one process, the holder of its lease
  (`barbu.web.db.leases`), renewed here every third of its length; a table this process loses (it was
  paused or cut off past its lease and another took it) is stopped at once, and its journal refuses the
  old owner's writes by their epoch anyway.
- **Takeover.** Each round, unfinished tables whose lease has ended (their process died or stopped) are
  claimed, rebuilt from the journal at their last acknowledged move, and started: computer turns, deal
  pauses and grace periods go on from there.  A process stopped with SIGTERM releases its leases as it
  drains, so the others take its tables over within a round instead of a lease's length.
- **Any process serves any table.** A browser's WebSocket reaching a process that does not own its table
  is relayed (`relay`): its frames go to the owner over the broker, where the ordinary connection loop
  (`barbu.web.tables.sockets.serve_connection`) reads them from a `RemoteSocket`, and what the table sends that
  connection comes back the same way; so each seat is sent exactly what it would be sent directly.  When
  the owner's lease moves or ends, the relayed browser is told to reconnect (1012) and finds the new owner.
  HTTP requests about a table (its seats, its computer players) travel as one request and one answer
  (`request`).
- **The lobby** lists every process's tables from one shared index: each process writes its tables' rows
  when they change and reads one page of the index a round (`Broker.list_rows`, `Broker.lobby_page`).

The cluster knows the process's tables through its host (`barbu.web.cluster.host.Host`, the lobby, which the
application hands the cluster to), never the lobby itself.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Awaitable, Callable

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..common import metrics, outages
from ..common.mailbox import Mailbox
from ..common.outages import Outage, is_unreachable
from ..common.settings import Settings
from ..common.sharedlimits import WEBSOCKETS, SharedLimits
from ..db import leases
from ..db.journal import Journal
from ..db.leases import Lease
from ..db.storage import Store
from ..tables.actor import Table
from ..tables.sockets import RateLimit, WsConn, serve_connection
from .broker import Broker
from .host import Host, Operation

log = logging.getLogger("barbu.web")

MOVED = (1012, "the table moved to another server process; reconnecting")
RELEASED = 0.0  # a lease's end once its owner has let it go (`barbu.web.db.leases.release`)
#: A relayed browser while the broker cannot be reached: the page reconnects (to the owner, or here later).
UNREACHABLE = (1013, "the server's processes cannot reach each other for a moment; reconnecting")
REQUEST_TIMEOUT = 10.0  # seconds an HTTP request about a table waits for its owner's answer


def new_node_id(route: str | None = None) -> str:
    """A name for this process, unique among the server's: its route (`route_of`), its host, its pid and a random
    part.  The route rides in the name, so a table's lease tells which process to send its browsers to."""
    name = f"{socket.gethostname()[:24]}-{os.getpid()}-{secrets.token_hex(3)}"
    return f"{route}~{name}" if route else name


def route_of(node: str) -> str | None:
    """The route of the process named ``node`` (``barbu serve --route``); None for a process without one."""
    route, sep, _ = node.partition("~")
    return route if sep else None


class RemoteSocket:
    """A browser's WebSocket held by another process, as `serve_connection` reads it and `WsConn` writes it."""

    def __init__(self, cluster: Cluster, edge: str, conn_id: str, address: str) -> None:
        self.cluster, self.edge, self.conn_id = cluster, edge, conn_id
        self.client = SimpleNamespace(host=address)  # what `client_address` reads
        self.application_state = WebSocketState.CONNECTED
        self._inbox: Mailbox[dict[str, Any]] = Mailbox()

    async def receive(self) -> dict[str, Any]:
        return await self._inbox.get()

    def feed(self, text: str | None) -> None:
        self._inbox.put({"type": "websocket.receive", "text": text})

    def gone(self) -> None:
        if self.application_state != WebSocketState.DISCONNECTED:
            self.application_state = WebSocketState.DISCONNECTED
            self._inbox.put({"type": "websocket.disconnect", "code": 1006})

    async def send(self, message: dict[str, Any]) -> None:
        self.cluster.relayed += 1
        await self.cluster.broker.send(self.edge, {"k": "out", "c": self.conn_id, "x": message.get("text")})

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.gone()
        await self.cluster.broker.send(self.edge, {"k": "close", "c": self.conn_id, "code": code, "reason": reason})


@dataclass
class Link:
    """A browser's WebSocket held here whose table another process owns."""

    table_id: str
    owner: str
    epoch: int
    out: WsConn  # written to the browser in order, as for any connection


@dataclass
class Cluster:
    settings: Settings
    host: Host  # the tables of this process (the lobby), given by the application
    operation: Operation | None = None  # set by the app: how the owner answers a relayed HTTP request
    node: str = ""

    def __post_init__(self) -> None:
        assert self.settings.broker_url
        self.node = self.node or new_node_id(self.settings.route)
        self.broker = Broker(self.settings.broker_url, self.node, self._on_message)
        self.limits = SharedLimits(self.broker.redis, self.node)  # per-address limits, server-wide
        self.broker.on_lost = self._broker_lost
        self._unanswered = 0  # pings to this node's own channel not heard back (its subscription is checked)
        self.epochs: dict[str, int] = {}  # the tables this process owns, with their leases' epochs
        self.remote: dict[str, RemoteSocket] = {}  # connections of other processes' browsers served here
        self.links: dict[str, Link] = {}  # browsers held here, relayed to their tables' owners
        self._requests: dict[str, asyncio.Future[tuple[int, dict[str, Any]]]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._keeper: asyncio.Task[None] | None = None
        self.listed: list[dict[str, Any]] = []  # the lobby's first page, newest first, as read this round
        self.others_usage: dict[str, dict[str, list[int]]] = {}  # their tables by address HMAC (`Lobby.usage`)
        self.lag_ms: float | None = None  # the broker's round trip, measured every round
        self.taken_over = 0  # tables claimed after their owner's lease ended
        self.relayed = 0  # a browser's frames carried over the broker, either way, by this process
        self.draining = False
        self._claiming: set[str] = set()  # tables being claimed now: a round's reading of the leases misses them
        self._unplayed: dict[str, int] = {}  # leases of ours found not played here last round (`_round_leases`)
        # what the rooms above hand the broker's other kinds of message to ("live": the account channel's hub)
        self.handlers: dict[str, Callable[[dict[str, Any]], None]] = {}

    @property
    def route(self) -> str | None:
        """Where nginx sends a browser for a table this process owns (`route_of`)."""
        return route_of(self.node)

    @property
    def ttl(self) -> float:
        return self.settings.lease_ttl

    @property
    def journal(self) -> Journal:
        journal = self.host.journal
        assert journal is not None, "the cluster starts after its host's store is open"
        return journal

    @property
    def store(self) -> Store:
        store = self.host.store
        assert store is not None, "the cluster starts after its host's store is open"
        return store

    async def _release(self, table_id: str, epoch: int) -> None:
        await self.journal.run(lambda conn: leases.release(conn, table_id, self.node, epoch))

    # ------------------------------------------------------------------ life
    async def start(self) -> None:
        await self.broker.start()
        self.host.creations.shared = self.limits
        await self._round()  # claim what nobody owns before serving
        self._keeper = asyncio.get_running_loop().create_task(self._keep(), name="cluster-keeper")
        log.info("cluster: node %s started", self.node)

    async def hand_over(self) -> None:
        """Drain's first step (SIGTERM, before the server closes its sockets): every table this process owns is
        stopped and its lease given to the process started last (`_successor`), told to start it at once; only
        then are its browsers sent to reconnect (1012), and their page, asking the table's route again, reaches
        the successor straight away.  So in a rolling restart a table goes to a process already restarted (the
        newest) rather than to one restarted next.  A table not handed over is released, for any process to take
        (and a successor that does not start it lets it go after two rounds, `_round_leases`)."""
        self.draining = True
        if self._keeper is not None:
            self._keeper.cancel()
        stopped: dict[str, int] = {}
        conns = []
        for table_id in list(self.epochs):
            t = self.host.drop(table_id)
            epoch = self.epochs.pop(table_id)
            if t is not None:
                conns.extend(t.connections())
                await t.stop()
            stopped[table_id] = epoch
        successor = await self._successor() if stopped else None
        handed: set[str] = set()
        if successor is not None:
            try:
                handed = await self.journal.run(
                    lambda conn: leases.hand_over(conn, stopped, self.node, successor, self.ttl)
                )
                for table_id in sorted(handed):
                    await self.broker.send(successor, {"k": "adopt", "t": table_id, "epoch": stopped[table_id] + 1})
            except Exception as exc:
                log.warning("cluster: could not hand tables over to %s (%s); releasing them", successor, exc)
        for table_id, epoch in stopped.items():
            if table_id in handed:
                continue
            try:
                await self._release(table_id, epoch)
            except Exception:
                log.warning("cluster: could not release the lease of table %s", table_id)
        for c in conns:
            c.close(*MOVED)
        if stopped:
            log.info(
                "cluster: %d table(s) handed over to %s, %d released",
                len(handed),
                successor,
                len(stopped) - len(handed),
            )

    async def _successor(self) -> str | None:
        """The other live process started last: it will not be restarted before this one comes back.  Read afresh
        (a process started a moment ago, in a rolling restart, is not in the last round's reading yet)."""
        try:
            published = await self.broker.listings(self.ttl * 2)
            started = await self.broker.started([n for n in published if n != self.node])
        except Exception:  # the broker is away: the tables are released instead
            return None
        return max(started, key=lambda n: started[n]) if started else None

    async def _take(self, table_id: str, epoch: int) -> None:
        """A table a draining process handed to this one (its lease is ours already): started at once."""
        if self.draining or table_id in self.epochs or table_id in self.host.tables:
            return
        lease, _ = await self.lease_of(table_id)
        if lease is None or lease.owner != self.node or lease.epoch != epoch:
            return
        if table_id in self.epochs or table_id in self.host.tables:  # claimed meanwhile
            return
        self.epochs[table_id] = epoch
        if await self.host.adopt(table_id, epoch):  # no await between: a browser arriving now waits for it
            self.taken_over += 1
            log.info("cluster: took table %s over from a draining process (epoch %d)", table_id, epoch)
        else:
            self.epochs.pop(table_id, None)

    async def close(self) -> None:
        """Drain: the tables handed over (`hand_over`, if the server has not done so yet), the relays ended."""
        await self.hand_over()
        for link in list(self.links.values()):
            link.out.close(*MOVED)
        for rs in list(self.remote.values()):
            await rs.close(*MOVED)
        for task in list(self._tasks):
            task.cancel()
        await self.broker.close()

    # ------------------------------------------------------------------ leases
    async def claim(self, table_id: str) -> int | None:
        """Take a table whose lease has ended (or that has none); its epoch, or None if another holds it.

        A table a draining process has just handed to this one is ours already, though not started yet: a browser
        sent here by its new route may come before the word to start it (`_take`), and is given the table then,
        not "there is no such table"."""
        self._claiming.add(table_id)
        try:
            epoch: int | None = await self.journal.run(lambda conn: leases.claim(conn, table_id, self.node, self.ttl))
            if epoch is None and not self.draining:
                lease, at = await self.lease_of(table_id)
                started = table_id in self.epochs or table_id in self.host.tables  # by `_take`, meanwhile
                if lease is not None and lease.owner == self.node and lease.alive(at) and not started:
                    epoch = lease.epoch
        finally:
            self._claiming.discard(table_id)
        if epoch is not None:
            self.epochs[table_id] = epoch
        return epoch

    def claim_new(self, conn: Any, table_id: str) -> int:
        """In the transaction that creates a table: it is this process's from its first write."""
        epoch = leases.claim(conn, table_id, self.node, self.ttl)
        assert epoch is not None
        return epoch

    async def lease_of(self, table_id: str) -> tuple[Lease | None, float]:
        store = self.store

        def read() -> tuple[Lease | None, float]:
            with store.engine.connect() as conn:
                found, at = leases.leases(conn, [table_id])
                return found.get(table_id), at

        return await asyncio.to_thread(read)

    async def _renew(self) -> dict[str, int]:
        """Extend this process's leases in a transaction of their own, off the journal's queue (a long queue
        must not let them lapse), run again if it meets a deadlock (`leases.transaction`)."""
        engine = self.store.engine
        return await asyncio.to_thread(leases.transaction, engine, lambda conn: leases.renew(conn, self.node, self.ttl))

    def lost(self, table_id: str) -> None:
        self.epochs.pop(table_id, None)

    async def _keep(self) -> None:
        interval = self.ttl / 3
        while True:
            await asyncio.sleep(interval)
            await self._guarded(self._round_leases, outages.database)
            await self._guarded(self._round_broker, outages.broker)

    async def _guarded(self, step: Callable[[], Awaitable[None]], outage: Outage) -> None:
        """One part of a round.  The database or the broker out of reach is an outage, told once each way and
        never with a traceback; the part runs again next round.  Anything else is a bug, and traced."""
        try:
            await step()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if not is_unreachable(exc):
                log.exception("cluster: a round failed")
            elif outage is outages.broker:
                self.broker.lost(exc)
            else:
                outage.failed(exc)
        else:
            outage.recovered()

    async def _round(self) -> None:
        await self._round_leases()
        await self._round_broker()

    async def _round_leases(self) -> None:
        """The database's part of a round: leases renewed, tables lost or finished let go, orphans adopted, relayed
        browsers whose owner's lease moved sent to reconnect."""
        # Only what was claimed before the renewal is judged by it: a table claimed while it ran (a browser asked
        # for it) is neither "owned by another" (its row was read before) nor "no longer played" (not yet started).
        before = dict(self.epochs)
        held = await self._renew()
        for table_id, epoch in list(self.epochs.items()):
            if before.get(table_id) != epoch:
                continue
            t = self.host.tables.get(table_id)
            if held.get(table_id) != epoch:  # taken over while this process was away: let it go
                log.warning("cluster: table %s is owned by another process now", table_id)
                self.epochs.pop(table_id, None)
                if t is not None:
                    t.fenced()
            elif t is None or t.status in ("over", "expired"):  # finished or unloaded: nobody needs to own it
                self.epochs.pop(table_id, None)
                await self._release(table_id, epoch)
        unplayed: dict[str, int] = {}
        for table_id, epoch in held.items():  # a lease of ours this process does not play
            if table_id not in self.epochs and table_id not in self.host.tables and table_id not in self._claiming:
                if self._unplayed.get(table_id) != epoch:  # perhaps handed over a moment ago: its message follows
                    unplayed[table_id] = epoch
                    continue
                await self._take(table_id, epoch)  # handed over, and its message lost: started now
                if table_id not in self.epochs:  # finished, or this process drains: for any process to take
                    await self._release(table_id, epoch)
        self._unplayed = unplayed
        if not self.draining:
            await self._adopt()
        await self._check_links()

    async def _round_broker(self) -> None:
        """The broker's part: this node said alive, the lobby and the per-address counts published and read,
        relays to or from a process that stopped saying it is alive ended, this node's own channel checked."""
        await self.limits.pay_back()
        await self.broker.heartbeat(self.ttl, self.host.usage())
        await self.broker.list_rows(self.host.own_listing(), self.ttl * 3)
        self.listed = await self.broker.lobby_page()
        published = await self.broker.listings(self.ttl * 2)
        self.others_usage = {n: entry.get("usage", {}) for n, entry in published.items() if n != self.node}
        await self._check_edges()
        await self._check_owners()
        await self._forget_lost()
        sent = time.perf_counter()
        await self.broker.send(self.node, {"k": "ping", "at": sent})
        self._unanswered += 1
        if self._unanswered > 5 and outages.broker.up:  # Redis answers but this node's channel is silent
            log.warning("broker: this process's channel went silent; subscribing again")
            self._unanswered = 0
            self.broker.restart_listener()

    async def _adopt(self, most: int = 50) -> None:
        """Claim unfinished tables nobody owns (their process is gone), rebuild them from the journal, start them."""
        store = self.store

        def read() -> list[str]:
            with store.engine.connect() as conn:
                return leases.orphans(conn, most)

        for table_id in await asyncio.to_thread(read):
            if table_id in self.host.tables:
                continue
            epoch = await self.claim(table_id)
            if epoch is None:
                continue
            if await self.host.adopt(table_id, epoch):
                self.taken_over += 1
                log.info("cluster: took table %s over (epoch %d)", table_id, epoch)
            else:
                self.epochs.pop(table_id, None)

    async def _check_links(self) -> None:
        """Browsers relayed to an owner whose lease has moved or ended are sent to reconnect.

        Only the links there were when the leases were read are judged: a browser relayed while they were being
        read (its table's lease was just found alive by `Lobby.locate`) is not among them, and its table would
        look as if it had no lease at all."""
        links = list(self.links.items())
        if not links:
            return
        store = self.store
        ids = {link.table_id for _, link in links}

        def read() -> tuple[dict[str, Lease], float]:
            with store.engine.connect() as conn:
                return leases.leases(conn, ids)

        found, at = await asyncio.to_thread(read)
        for conn_id, link in links:
            if self.links.get(conn_id) is not link:  # gone meanwhile
                continue
            lease = found.get(link.table_id)
            if lease is None or lease.owner != link.owner or lease.epoch != link.epoch:
                link.out.close(*MOVED)
            elif not lease.alive(at) and lease.expires != RELEASED:
                link.out.close(*MOVED)  # lapsed: its owner is lost
            # released by its owner (the table finished, or the owner drains and ends its connections itself):
            # the owner still serves it, and a browser sent to reconnect would only find the same table again

    async def _forget_lost(self) -> None:
        """The WebSockets a lost process held count no more against their addresses."""
        holders = [n for n in await self.limits.holders(WEBSOCKETS) if n != self.node]
        alive = await self.broker.alive(holders)
        for node in holders:
            if node not in alive:
                await self.limits.forget(WEBSOCKETS, node)

    async def _check_owners(self) -> None:
        """Browsers relayed to an owner that stopped saying it is alive (paused, cut off, hung) are sent to
        reconnect at once, without waiting for its lease to end or the database to tell."""
        links = list(self.links.items())
        owners = sorted({link.owner for _, link in links})
        if not owners:
            return
        alive = await self.broker.alive(owners)
        for conn_id, link in links:
            if link.owner not in alive and self.links.get(conn_id) is link:
                link.out.close(*MOVED)

    def _broker_lost(self) -> None:
        """The broker went away: nothing relayed can be carried.  Browsers relayed from here are sent to
        reconnect (to their table's owner, or here again once the broker is back), and the connections served
        here for other processes end as if their browsers had left, as their edges close them too: no seat is
        left behind a relay that died silently."""
        for link in list(self.links.values()):
            link.out.close(*UNREACHABLE)
        for rs in list(self.remote.values()):
            rs.gone()
        self._unanswered = 0

    async def _check_edges(self) -> None:
        """Connections relayed from a process that is gone are closed, as a browser that went away."""
        remote = list(self.remote.values())  # as for the links: not one attached while the broker is asked
        edges = sorted({rs.edge for rs in remote})
        if not edges:
            return
        alive = await self.broker.alive(edges)
        for rs in remote:
            if rs.edge not in alive:
                rs.gone()

    # ------------------------------------------------------------------ the broker's messages
    async def _on_message(self, env: dict[str, Any]) -> None:
        kind = env.get("k")
        if kind == "out":
            link = self.links.get(env.get("c", ""))
            if link is not None and isinstance(env.get("x"), str):
                link.out.send(env["x"])
        elif kind == "close":
            link = self.links.get(env.get("c", ""))
            if link is not None:
                link.out.close(int(env.get("code", 1000)), str(env.get("reason", ""))[:120])
        elif kind == "in":
            rs = self.remote.get(env.get("c", ""))
            if rs is not None:
                rs.feed(env.get("x"))
        elif kind == "attach":
            self._attach(env)
        elif kind == "detach":
            rs = self.remote.get(env.get("c", ""))
            if rs is not None:
                rs.gone()
        elif kind == "request":
            self._spawn(self._answer(env))
        elif kind == "answer":
            fut = self._requests.pop(env.get("id", ""), None)
            if fut is not None and not fut.done():
                fut.set_result((int(env.get("status", 500)), env.get("body") or {}))
        elif kind == "adopt":  # a draining process handed this one a table
            table_id, epoch = env.get("t"), env.get("epoch")
            if isinstance(table_id, str) and isinstance(epoch, int):
                self._spawn(self._take(table_id, epoch))
        elif isinstance(kind, str) and kind in self.handlers:
            self.handlers[kind](env)
        elif kind == "ping":
            self._unanswered = 0
            self.lag_ms = round((time.perf_counter() - float(env.get("at", 0))) * 1000, 2)
            metrics.BROKER_ROUND_TRIP.observe(self.lag_ms / 1000)

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        """A spawned task's end: a broker out of reach is its outage (one line); anything else is traced."""
        self._tasks.discard(task)
        if task.cancelled() or task.exception() is None:
            return
        exc = task.exception()
        assert exc is not None
        if is_unreachable(exc):
            self.broker.lost(exc)
        else:
            log.error("cluster: a task failed", exc_info=exc)

    def _owned(self, table_id: Any) -> Table | None:
        t = self.host.tables.get(table_id) if isinstance(table_id, str) else None
        return t if t is not None and table_id in self.epochs and not t.closed else None

    def _attach(self, env: dict[str, Any]) -> None:
        edge, conn_id = str(env.get("e", "")), str(env.get("c", ""))
        t = self._owned(env.get("t"))
        if t is None:  # not ours (any more): the browser reconnects and finds the owner
            self._spawn(self.broker.send(edge, {"k": "close", "c": conn_id, "code": MOVED[0], "reason": MOVED[1]}))
            return
        rs = RemoteSocket(self, edge, conn_id, str(env.get("a", "unknown")))
        self.remote[conn_id] = rs
        user = env.get("u")  # the account the relaying process found logged in (None: a guest)
        self._spawn(
            self._serve_remote(
                rs, t, str(env.get("l", "en")), user if isinstance(user, int) and not isinstance(user, bool) else None
            )
        )

    async def _serve_remote(self, rs: RemoteSocket, table: Table, lang: str, user_id: int | None = None) -> None:
        conn = WsConn(rs, lang, user_id)  # type: ignore[arg-type]
        try:
            await serve_connection(rs, conn, table, self.settings)  # type: ignore[arg-type]
        finally:
            table.tell(table.disconnect, conn)
            await conn.finish()
            self.remote.pop(rs.conn_id, None)

    async def _answer(self, env: dict[str, Any]) -> None:
        edge, rid = str(env.get("e", "")), str(env.get("id", ""))
        t = self._owned(env.get("t"))
        status: int
        body: dict[str, Any]
        if t is None:
            status, body = 409, {"moved": True}
        else:
            assert self.operation is not None
            d = env.get("d")
            data: dict[str, Any] = d if isinstance(d, dict) else {}
            try:
                status, body = await self.operation(
                    t, str(env.get("op", "")), data, str(env.get("a", "unknown")), str(env.get("l", "en"))
                )
            except Exception:  # a bug: the asker gets a 500, the table carries on
                log.exception("cluster: a request about table %s failed", t.id)
                status, body = 500, {"error": "the server could not handle that request"}
        await self.broker.send(edge, {"k": "answer", "id": rid, "status": status, "body": body})

    # ------------------------------------------------------------------ this process's side of a relay
    async def request(
        self, owner: str, table_id: str, op: str, data: dict[str, Any], address: str, lang: str
    ) -> tuple[int, dict[str, Any]] | None:
        """Ask a table's owner to run an HTTP request about it; None if it did not answer or has moved."""
        rid = secrets.token_hex(8)
        fut: asyncio.Future[tuple[int, dict[str, Any]]] = asyncio.get_running_loop().create_future()
        self._requests[rid] = fut
        envelope = {"k": "request", "id": rid, "e": self.node, "t": table_id, "op": op, "d": data, "a": address}
        try:
            await self.broker.send(owner, {**envelope, "l": lang})
            status, body = await asyncio.wait_for(fut, REQUEST_TIMEOUT)
        except asyncio.TimeoutError:
            return None
        except Exception as exc:  # the broker is away: as an owner that did not answer
            if not is_unreachable(exc):
                raise
            self.broker.lost(exc)
            return None
        finally:
            self._requests.pop(rid, None)
        return None if body.get("moved") else (status, body)

    async def relay(self, ws: WebSocket, lease: Lease, lang: str, address: str, user_id: int | None = None) -> None:
        """Carry a browser's WebSocket to its table's owner and back, until either side closes it, or the broker
        goes away (the browser is then sent to reconnect)."""
        if not outages.broker.up:  # nothing can be carried now: the page tries again in a moment
            await ws.close(*UNREACHABLE)
            return
        conn_id = secrets.token_urlsafe(12)
        out = WsConn(ws, lang)
        self.links[conn_id] = Link(lease.table_id, lease.owner, lease.epoch, out)
        limit = RateLimit(self.settings.burst, self.settings.rate)
        try:
            await self.broker.send(
                lease.owner,
                {
                    "k": "attach",
                    "c": conn_id,
                    "e": self.node,
                    "t": lease.table_id,
                    "l": lang,
                    "a": address,
                    "u": user_id,
                },
            )
            while True:
                try:
                    message = await ws.receive()
                except (WebSocketDisconnect, RuntimeError):
                    return
                if message["type"] == "websocket.disconnect" or out.closing:
                    return
                if not limit.allow():  # the owner would cut it off too; this process spares the broker
                    out.close(1008, "too many messages")
                    return
                self.relayed += 1
                await self.broker.send(lease.owner, {"k": "in", "c": conn_id, "x": message.get("text")})
        except Exception as exc:
            if not is_unreachable(exc):
                raise
            self.broker.lost(exc)
            out.close(*UNREACHABLE)
        finally:
            self.links.pop(conn_id, None)
            try:
                await self.broker.send(lease.owner, {"k": "detach", "c": conn_id})
            except Exception:  # the broker is away: the owner notices this process's silence instead
                pass
            await out.finish()

    async def server_health(self) -> dict[str, Any]:
        """The whole server: each process's live leases (tables owned), and which processes are alive."""
        store = self.store

        def read() -> dict[str, int]:
            with store.engine.connect() as conn:
                return leases.held(conn)[0]

        owned = await asyncio.to_thread(read)
        nodes = sorted(set(owned) | set(self.others_usage) | {self.node})
        alive = await self.broker.alive(nodes)
        return {
            "processes": [{"node": n, "tables": owned.get(n, 0), "alive": n in alive} for n in nodes],
            "tables_owned": sum(owned.values()),
        }

    def health(self) -> dict[str, Any]:
        return {
            "node": self.node,
            "leases": len(self.epochs),
            "relayed_here": len(self.links),
            "served_for_others": len(self.remote),
            "broker_lag_ms": self.lag_ms,
            "taken_over": self.taken_over,
            "broker_published": self.broker.published,
            "broker_received": self.broker.received,
            "broker_resubscribed": self.broker.resubscribed,  # its channel subscribed again after an outage
            "listing_bytes": self.broker.listing_bytes,
            "relayed_messages": self.relayed,
            "route": self.route,
        }
