"""WebSockets routed to the owner, and a rolling restart, through a real nginx (deploy/nginx-barbu.conf as
`webhelpers.Nginx` writes it for the test's processes) in front of three `barbu serve --broker` processes on
PostgreSQL and Redis.

The players behave like the page (static/js/net.js): before each connection they ask the table's route
(``GET /api/tables/<id>/route``) and open ``/ws/<id>?route=…``, which nginx sends to the owner's upstream; they
keep every command not answered yet and send it again, with its id, after each welcome
(`test_web_commands_cluster.PageSeat`).

- With the route, not one frame is relayed over the broker; without it (round robin), most are.
- A table's socket whose client stopped answering (not even the server's pings) is closed by the server
  within 12 s (1011), whether it reached the owner or was relayed by another process; the relay's ends let go.
- Rolling restart: each process in turn gets SIGTERM, exits, and starts again on its port, while the tables
  are played.  Each draining process hands its tables to the process started last, which starts them at
  once.  Then every table moves again within `BOUND` seconds, 0 acknowledged moves are lost, 0 commands are
  left unanswered, each player reconnects at most once per process restarted that played his table, and no
  process logged a traceback.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import struct
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Iterator

import pytest
from conftest import postgres_url, redis_url, reset_postgres
from pageseat import PageSeat, check_journal, owner_of
from webhelpers import Nginx, Server, http, person
from websockets.asyncio.client import connect
from websockets.typing import Origin

from barbu.web.cluster.node import route_of

LEASE = "2"
BOUND = 30.0  # seconds after the last restart by which every table has moved again (a few are usual here)
FAST: tuple[str, ...] = (
    "--bot-delay",
    "0",
    "--deal-pause",
    "0",
    "--grace",
    "1000",
    "--lease",
    LEASE,
    "--heartbeat",
    "2",
)
FAST += ("--tables-per-hour", "0", "--connections-per-address", "0", "--bot-tables-per-address", "0")
FAST += ("--open-tables-per-address", "0", "--seats-per-address", "0", "--forwarded-allow-ips", "127.0.0.1")


def table(base: str, rules: str, humans: int) -> tuple[str, list[str]]:
    """A table of four made and seated through nginx: ``humans`` guests, then computer players."""
    status, data = http("POST", base + "/api/tables", {"rules": rules})
    assert status == 201, data
    tid, creator, tokens = data["id"], data["creator"], []
    for seat in range(4):
        if seat < humans:
            status, got = http("POST", f"{base}/api/tables/{tid}/seats", {"seat": seat, "name": f"P{seat}"})
            tokens.append(got.get("token"))
        else:
            body = {"seat": seat, "strength": "random", "token": creator}
            status, got = http("POST", f"{base}/api/tables/{tid}/bots", body)
        assert status == 200, got
    return tid, tokens


class RoutedSeat(PageSeat):
    """`PageSeat` as the page plays now: the table's route asked before each connection, and given to nginx."""

    def __init__(self, base: str, tid: str, token: str, seed: int, routed: bool = True) -> None:
        super().__init__(base, tid, token, seed)
        self.routed = routed
        self.routes: list[str | None] = []  # the route each connection was opened with
        self.failures: list[Any] = []
        self.state: dict[str, Any] | None = None  # the last state seen, which the page keeps across reconnections
        self._route: str | None = None  # the route the connection being opened was given

    async def route(self) -> str | None:
        if not self.routed:
            return None
        try:
            status, body = await asyncio.to_thread(http, "GET", f"{self.base}/api/tables/{self.tid}/route")
        except OSError:
            return None
        if status != 200:
            self.failures.append((status, body))
        return body.get("route") if status == 200 and isinstance(body, dict) else None

    async def query(self) -> str:
        route = await self.route()
        self._route = route
        return f"?route={route}" if route else ""

    def opened(self, query: str) -> None:
        self.routes.append(self._route)

    def reading(self, ws: Any) -> Any:
        return Kept(ws, self)


class Kept:
    """A connection as the page reads it: "in_sync" (nothing missed) leaves the state the page already shows, so
    the person still sees that it is his turn."""

    def __init__(self, ws: Any, seat: RoutedSeat) -> None:
        self.ws, self.seat = ws, seat

    async def send(self, text: str) -> None:
        await self.ws.send(text)

    async def recv(self) -> str:
        raw = await self.ws.recv()
        msg = json.loads(raw)
        if isinstance(msg.get("state"), dict):
            self.seat.state = msg["state"]
        elif msg.get("type") == "in_sync" and self.seat.state is not None:
            if self.seat.state.get("version") == msg.get("version"):
                return json.dumps({**msg, "state": self.seat.state})
        return raw


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[Server], Nginx]]:
    """Three processes on one PostgreSQL schema and one Redis database, and nginx in front; all stopped after."""
    folder = tmp_path_factory.mktemp("routing")
    db = postgres_url()
    reset_postgres(db)
    broker = redis_url()
    servers = [Server(db, folder / f"server{i}.log", "--broker", broker, *FAST) for i in range(3)]
    proxy = Nginx(servers, folder)
    try:
        for s in servers:
            s.start(timeout=90)
        proxy.start()
        yield db, servers, proxy
    finally:
        proxy.stop()
        for s in servers:
            s.stop()


def healths(servers: list[Server]) -> list[dict[str, Any]]:
    out = []
    for s in servers:
        status, body = http("GET", s.base + "/api/health")
        assert status == 200, body
        out.append(body["process"])
    return out


def relayed(servers: list[Server]) -> int:
    """Frames carried over the broker between processes, either way, since the processes started."""
    return sum(int(h["relayed_messages"]) for h in healths(servers))


async def play_until(seats: list[RoutedSeat], moves: int, most: float = 120.0) -> None:
    """Play until every table has had ``moves`` more actions (or ``most`` seconds), then settle."""
    start = {s.tid: s.version or 0 for s in seats}
    stop = asyncio.Event()
    players = [asyncio.create_task(s.play(stop)) for s in seats]
    deadline = time.monotonic() + most
    while time.monotonic() < deadline and not all((s.version or 0) >= start[s.tid] + moves for s in seats):
        await asyncio.sleep(0.2)
    stop.set()
    await asyncio.gather(*players)


def run(coro: Any) -> None:
    """``asyncio.run`` in a thread of its own: the module's browser (Playwright's sync API) keeps a loop in this one."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, coro).result()


def tracebacks(servers: list[Server]) -> list[str]:
    return [s.log()[-4000:] for s in servers if "Traceback" in s.log()]


@pytest.mark.slow
def test_a_table_socket_reaches_its_owner_through_nginx_and_is_not_relayed(site: Any) -> None:
    db, servers, proxy = site
    tables = [table(proxy.base, "classic", 2) for _ in range(3)]
    for tid, _ in tables:  # the route is the owner's, whichever process answers
        status, body = http("GET", f"{proxy.base}/api/tables/{tid}/route")
        assert status == 200 and body["route"] == route_of(owner_of(db, tid)), body
        assert body["route"] in {s.route for s in servers}
    status, body = http("GET", f"{proxy.base}/api/tables/nosuchtable/route")
    assert status == 404 and body["code"] == "no-table", body

    seats = [
        RoutedSeat(proxy.base, tid, tok, 10 * i + j)
        for i, (tid, toks) in enumerate(tables)
        for j, tok in enumerate(toks)
    ]
    before = relayed(servers)
    run(play_until(seats, 30))
    assert all(not s.pending for s in seats)
    assert relayed(servers) == before, "a frame was relayed though every socket reached its table's owner"
    assert all(r is not None for s in seats for r in s.routes)

    for s in seats:  # the same people, now as a page that does not ask the route: round robin
        s.routed = False
    before = relayed(servers)
    run(play_until(seats, 30))
    assert relayed(servers) > before, "round robin over three processes relays most sockets"
    check_journal(db, {tid: [s for s in seats if s.tid == tid] for tid, _ in tables})
    assert tracebacks(servers) == []


class Silent:
    """A table's WebSocket whose client says hello, then never answers again, not even the server's pings: a
    browser on a network that went away without a word (its packets still acknowledged, as by a hung proxy)."""

    def __init__(self, server: Server, tid: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET /ws/{tid} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nOrigin: {server.base}\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        self.data = b""
        while b"\r\n\r\n" not in self.data:
            self.data += self.sock.recv(4096)
        head, self.data = self.data.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101 "), head
        hello, mask = b'{"type": "hello"}', os.urandom(4)  # a client's frame is masked
        self.sock.sendall(bytes([0x81, 0x80 | len(hello)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(hello)))

    def until_closed(self, within: float) -> list[tuple[int, bytes]]:
        """Everything the server sent, as (opcode, payload) frames, read until it closed the connection."""
        deadline = time.monotonic() + within
        while chunk := self.sock.recv(65536):
            self.data += chunk
            assert time.monotonic() < deadline, "the server kept a connection whose client no longer answers"
        self.sock.close()
        frames, data = [], self.data
        while data:
            size, at = data[1] & 0x7F, 2
            if size == 126:
                size, at = struct.unpack("!H", data[2:4])[0], 4
            elif size == 127:
                size, at = struct.unpack("!Q", data[2:10])[0], 10
            frames.append((data[0] & 0x0F, data[at : at + size]))
            data = data[at + size :]
        return frames


@pytest.mark.slow
def test_a_socket_whose_client_stopped_answering_is_closed_direct_or_relayed(site: Any) -> None:
    """The server pings every WebSocket (web/server.py: every 4 s, 8 s for the pong): a client that stopped
    answering is closed within 12 s, whether it was connected to its table's owner or relayed to it by another
    process, and the relay's both ends are let go (counted no more in either process's health)."""
    db, servers, proxy = site
    status, made = http("POST", proxy.base + "/api/tables", {"rules": "classic"})  # open, waiting: it stays
    assert status == 201, made
    tid = made["id"]
    owner = next(s for s in servers if s.route == route_of(owner_of(db, tid)))
    other = next(s for s in servers if s is not owner)
    before = healths(servers)
    direct, relayed = Silent(owner, tid), Silent(other, tid)
    with ThreadPoolExecutor(2) as pool:
        answered = list(pool.map(lambda c: c.until_closed(within=40), (direct, relayed)))
    for frames in answered:
        assert frames[0][0] == 0x1 and json.loads(frames[0][1])["type"] == "welcome", frames[:1]
        assert 0x9 in [op for op, _ in frames], "no ping came"
        assert frames[-1][0] == 0x8 and struct.unpack("!H", frames[-1][1][:2])[0] == 1011, frames[-1]
    deadline = time.monotonic() + 30
    while [(h["relayed_here"], h["served_for_others"]) for h in healths(servers)] != [
        (h["relayed_here"], h["served_for_others"]) for h in before
    ]:
        assert time.monotonic() < deadline, (before, healths(servers))
        time.sleep(0.2)


@pytest.mark.slow
def test_a_table_handed_over_is_served_by_its_successor_before_the_word_to_start_it(site: Any) -> None:
    """A draining process writes a table's lease to its successor, then tells it over the broker to start it.  A
    browser the table's new route sends to the successor before that word (a slow broker, a lost message) is
    given the table there, not "there is no such table" (4404)."""
    from barbu.web.db import leases
    from barbu.web.db.storage import Store

    db, servers, _ = site
    first, successor = servers[0], servers[1]
    status, made = http("POST", first.base + "/api/tables", {"rules": "classic"})  # the maker owns it
    assert status == 201, made
    tid = made["id"]
    nodes = {s.route: h["node"] for s, h in zip(servers, healths(servers))}
    assert owner_of(db, tid) == nodes[first.route]
    store = Store(db, run_migrations=False)
    try:  # the hand-over's own write, without the broker's word that follows it
        with store.engine.begin() as conn:
            found, _ = leases.leases(conn, [tid])
            handed = leases.hand_over(conn, {tid: found[tid].epoch}, nodes[first.route], nodes[successor.route], 30)
        assert handed == {tid}
    finally:
        store.close()
    # asked of the successor at once (it starts a lease of its own it does not play by itself after two rounds;
    # the old owner, which a real hand-over has let go of the table first, would still answer with its own route)
    status, body = http("GET", f"{successor.base}/api/tables/{tid}/route")
    assert status == 200 and body["route"] == successor.route, body

    async def hello() -> dict[str, Any]:
        async with connect(f"{successor.ws_base}/ws/{tid}", origin=Origin(successor.base)) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            return dict(json.loads(await asyncio.wait_for(ws.recv(), 30)))

    first_answer = asyncio.run(hello())
    assert first_answer["type"] == "welcome", first_answer
    assert owner_of(db, tid) == nodes[successor.route]


def lease_released(db: str, tid: str) -> bool:
    from sqlalchemy import text

    from barbu.web.db.storage import Store

    store = Store(db, run_migrations=False)
    try:
        with store.engine.connect() as conn:
            expires = conn.execute(text("SELECT expires FROM barbu_leases WHERE table_id = :t"), {"t": tid}).scalar()
    finally:
        store.close()
    return expires == 0.0


@pytest.mark.slow
def test_a_relayed_watcher_stays_at_a_table_that_finishes(site: Any) -> None:
    """A finished table's lease is let go by its owner, which still serves the table: a browser relayed to it by
    another process stays connected (it was sent to reconnect, 1012 "the table moved", to find the same table)."""
    db, servers, _ = site
    owner, other = servers[0], servers[1]
    status, made = http("POST", owner.base + "/api/tables", {"rules": "salad(players=3)"})  # the maker owns it
    assert status == 201, made
    tid, creator = made["id"], made["creator"]

    async def watch() -> list[str]:
        async with connect(f"{other.ws_base}/ws/{tid}", origin=Origin(other.base)) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            heard: list[str] = []

            async def read() -> None:  # every message read as it comes (the pings answered meanwhile)
                async for raw in ws:
                    heard.append(json.loads(raw)["type"])

            reader = asyncio.create_task(read())
            while "welcome" not in heard:
                await asyncio.sleep(0.05)
            for seat in range(3):  # computer players: the match plays itself to its end
                body = {"seat": seat, "strength": "random", "token": creator}
                status, got = await asyncio.to_thread(http, "POST", f"{owner.base}/api/tables/{tid}/bots", body)
                assert status == 200, got
            deadline = time.monotonic() + 120
            while not await asyncio.to_thread(lease_released, db, tid):  # over: its owner let the lease go
                assert time.monotonic() < deadline and not reader.done(), "the match did not end"
                await asyncio.sleep(0.2)
            published = (await asyncio.to_thread(healths, [other]))[0]["broker_published"]
            while (await asyncio.to_thread(healths, [other]))[0]["broker_published"] < published + 6:
                await asyncio.sleep(0.2)  # a few of the relaying process's rounds pass
            await ws.send(json.dumps({"type": "ping"}))
            while "pong" not in heard:
                assert not reader.done(), heard[-5:]
                await asyncio.sleep(0.05)
            reader.cancel()
            return heard

    assert "pong" in asyncio.run(watch())


@pytest.mark.slow
@pytest.mark.browser
def test_the_page_opens_its_table_socket_with_the_owners_route(site: Any, browser: Any) -> None:
    """The table page in a real browser (static/js/net.js), through nginx: it asks the route and opens the socket
    with it, and what it watches is not relayed."""
    db, servers, proxy = site
    tid, _ = table(proxy.base, "classic", 0)  # four computer players: the page watches
    page = person(browser)
    sockets: list[str] = []
    frames: list[str] = []

    def opened(ws: Any) -> None:
        sockets.append(ws.url)
        ws.on("framereceived", lambda payload: frames.append(str(payload)))

    page.on("websocket", opened)
    before = relayed(servers)
    page.goto(f"{proxy.base}/t/{tid}")
    deadline = time.monotonic() + 30
    while sum('"state"' in f for f in frames) < 5:  # the welcome, then the computers' moves as they come
        assert time.monotonic() < deadline, (sockets, frames[:3])
        page.wait_for_timeout(100)
    owner = route_of(owner_of(db, tid))
    assert sockets and all(url.endswith(f"/ws/{tid}?route={owner}") for url in sockets), (sockets, owner)
    assert relayed(servers) == before
    assert page.errors == []
    page.context.close()


@pytest.mark.slow
def test_rolling_restart_loses_nothing_and_players_reconnect_once_per_restart(site: Any) -> None:
    db, servers, proxy = site
    tables = [table(proxy.base, "classic", 2) for _ in range(6)]
    seats = [
        RoutedSeat(proxy.base, tid, tok, 50 + 10 * i + j)
        for i, (tid, toks) in enumerate(tables)
        for j, tok in enumerate(toks)
    ]
    owners_seen: dict[str, list[str]] = {tid: [owner_of(db, tid)] for tid, _ in tables}
    restarted_at: list[float] = []

    def restart_all() -> None:
        for s in servers:
            assert s.proc is not None
            s.proc.send_signal(15)
            assert s.proc.wait(30) == 0, "a drained process exits 0"
            s.start(timeout=90)
            restarted_at.append(time.monotonic())
            for tid, _ in tables:
                owner = owner_of(db, tid)
                if owners_seen[tid][-1] != owner:
                    owners_seen[tid].append(owner)

    async def main() -> None:
        stop = asyncio.Event()
        players = [asyncio.create_task(s.play(stop)) for s in seats]
        while not all((s.version or 0) >= 8 for s in seats):  # every table under way
            await asyncio.sleep(0.2)
        await asyncio.to_thread(restart_all)
        last = restarted_at[-1]
        deadline = last + BOUND
        while time.monotonic() < deadline and not all(any(at > last + 1 for at, _ in s.seen) for s in seats):
            await asyncio.sleep(0.2)
        stop.set()
        await asyncio.gather(*players)

    run(main())
    moved = [s.tid for s in seats if not any(at > restarted_at[-1] + 1 for at, _ in s.seen)]
    assert moved == [], f"tables not moving {BOUND} s after the last restart: {moved}"
    check_journal(db, {tid: [s for s in seats if s.tid == tid] for tid, _ in tables})
    assert [s.pending for s in seats if s.pending] == [], "commands left unanswered"
    first = servers[0].route  # the first process restarted: its tables can only go to one restarted later
    for s in seats:  # one reconnection per move of his table, and one move per table (two for the first's)
        hops = len(owners_seen[s.tid]) - 1
        assert s.connections - 1 <= hops, (s.tid, s.connections, owners_seen[s.tid], s.routes, s.failures)
        assert hops <= (2 if route_of(owners_seen[s.tid][0]) == first else 1), (s.tid, owners_seen[s.tid])
    assert tracebacks(servers) == []
