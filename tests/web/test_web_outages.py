"""Outages ridden out and told truthfully: three `barbu serve --broker` processes behind a real nginx (the
repository's deploy/nginx-barbu.conf), on PostgreSQL reached through a TCP proxy this test can cut, and a
redis-server of the test's own on a free port (never the shared one), played by clients that behave like the
page (`Player`: reconnection with the page's back-off, handshake and silence timeouts, unanswered commands
kept and sent again with the same id after every welcome, a move the server could not store sent again).

One cluster, three outages one after the other, each ending with every table moving again:

- **Redis stopped for 10 s**: the tables whose player is connected to their owner go on moving during it;
  readiness is 503 on every process during it and 200 after; every table moves again within `AFTER_BROKER`.
- **PostgreSQL cut for 10 s** (every connection through the proxy closed, new ones refused): readiness 503
  during it, 200 after; every table moves again within `AFTER_DATABASE`.
- **A process paused (SIGSTOP) past its lease**: its players are back at their tables (moving) within
  `AFTER_PAUSE` through nginx (its read timeout closes their sockets, its handshakes go to the others).
- **SIGTERM**: the process drains within `barbu.web.server.DRAIN_BOUND` and exits 0; its tables move on.

At the end: every acknowledged move is stored at its place (0 lost), no command is left unanswered, no
process logged a traceback, and each process told each outage in exactly one line when it began and one
when it ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any, Iterator, cast

import needs
import pytest
from conftest import postgres_url, reset_postgres
from test_web_cluster import FAST, LEASE, check_log
from webhelpers import Nginx, Server, free_port, http
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.typing import Origin

pytestmark = pytest.mark.slow

OUTAGE = 10.0  # seconds each dependency is away
AFTER_BROKER = 25.0  # every table moving again within this many seconds of Redis's return
AFTER_DATABASE = 25.0  # … of PostgreSQL's return (the leases all ended meanwhile: tables change owner)
#: A paused process's players moving again within this many seconds of the pause: its lease (2 s) ends and the
#: others take its tables; a socket through it is closed by nginx after 5 s without its pings (the sockets'
#: read timeout), its route lookups go to the next process after 2 s, and a new handshake that nginx sends it
#: waits those 5 s too until nginx has seen it fail twice and skips it.  7 s measured alone; the bound allows
#: a loaded machine (it was 40 s with a 10 s read timeout for everything, when players took 11-29 s).
AFTER_PAUSE = 20.0
HEARTBEAT = "4"  # the server's beat on an idle table connection; the page gives up after 2.5 of them


# ---------------------------------------------------------------------------- what the test controls
class RedisServer:
    """A redis-server of this test's own on a free port, in its folder; stopped and started again at will."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.port = folder, free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        log = open(self.folder / "redis.log", "ab")
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            cwd=self.folder,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 0.2) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


class CuttableProxy:
    """A TCP proxy between the server processes and PostgreSQL: ``cut()`` closes every connection through it
    and refuses new ones (accepted, then closed at once) until ``restore()``."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.cut_off = False
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.lock = threading.Lock()
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.cut_off:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, 5)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.pairs.append((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        self.cut_off = True
        with self.lock:
            pairs, self.pairs = self.pairs, []
        for pair in pairs:
            for s in pair:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()

    def restore(self) -> None:
        self.cut_off = False

    def close(self) -> None:
        self.closed = True
        self.cut()
        self.listener.close()


# ---------------------------------------------------------------------------- a player like the page
class Player:
    """One person at one table, through one address (nginx, or one process), acting like the page: reconnects
    after 0.5 s doubling to 8 s (back to 0.5 s after a welcome), gives a handshake up after 6 s and a silent
    connection after 2.5 heartbeats, keeps each command until it is answered and sends it again with the same
    id after every welcome (and 3 s after a "storage" refusal), plays a random legal action at each turn."""

    def __init__(self, base: str, tid: str, token: str, seed: int) -> None:
        import random

        self.base, self.tid, self.token = base, tid, token
        self.rng = random.Random(seed)
        self.acked: list[tuple[int, str]] = []
        self.pending: dict[str, dict[str, Any]] = {}  # id -> the command, until answered
        self.moves: list[tuple[float, int]] = []  # (when, version) each time the table moved
        self.version: int | None = None
        self.welcomes = 0
        self.playing = True
        self.refused: list[str] = []  # codes of refusals other than "storage"

    def version_at(self, t: float) -> int:
        return max([v for at, v in self.moves if at <= t], default=0)

    async def run(self, until: float) -> None:
        delay = 0.5
        while time.monotonic() < until and (self.playing or self.pending):
            ws_url = self.base.replace("http://", "ws://") + f"/ws/{self.tid}"
            try:
                async with asyncio.timeout(6 + delay):  # the page's handshake timeout: open and welcomed
                    ws = await connect(ws_url, origin=Origin(self.base), open_timeout=None, ping_interval=None)
                    await ws.send(json.dumps({"type": "hello", "token": self.token, "since": self.version}))
                    heartbeat = await self._welcomed(ws)
                delay = 0.5
                async with ws:
                    await self._converse(ws, heartbeat, until)
            except (TimeoutError, ConnectionClosed, OSError, InvalidHandshake, InvalidStatus):
                pass
            await asyncio.sleep(delay)
            delay = min(delay * 2, 8.0)

    async def _welcomed(self, ws: Any) -> float:
        while True:
            msg = self._read(await ws.recv())
            if msg["type"] == "welcome":
                self.welcomes += 1
                for command in self.pending.values():  # the page sends its unanswered commands again
                    await ws.send(json.dumps(command))
                return float(msg.get("heartbeat") or 15)

    async def _converse(self, ws: Any, heartbeat: float, until: float) -> None:
        await self._maybe_act(ws)
        while time.monotonic() < until and (self.playing or self.pending):
            try:
                raw = await asyncio.wait_for(ws.recv(), min(heartbeat * 2.5, max(0.1, until - time.monotonic())))
            except TimeoutError:
                if time.monotonic() >= until:
                    return
                raise  # silence: given up, as the page does
            msg = self._read(raw)
            if msg["type"] == "error" and msg.get("code") == "storage" and msg.get("id") in self.pending:
                asyncio.get_running_loop().call_later(3, self._resend, ws, msg["id"])
            await self._maybe_act(ws)

    def _resend(self, ws: Any, cid: str) -> None:
        if cid in self.pending:
            asyncio.ensure_future(self._send_quietly(ws, self.pending[cid]))

    @staticmethod
    async def _send_quietly(ws: Any, command: dict[str, Any]) -> None:
        with contextlib.suppress(ConnectionClosed, OSError):
            await ws.send(json.dumps(command))

    def _read(self, raw: str | bytes) -> dict[str, Any]:
        msg = json.loads(raw)
        st = msg.get("state")
        if st is not None and st.get("version") is not None:
            if self.version is None or st["version"] > self.version:
                self.moves.append((time.monotonic(), st["version"]))
            self.version = st["version"]
            self.state = st
        cid = msg.get("id")
        if msg["type"] == "ack" and cid in self.pending:
            self.acked.append((msg["version"], self.pending.pop(cid)["action"]))
        elif msg["type"] == "error" and cid in self.pending and msg.get("code") != "storage":
            self.refused.append(str(msg.get("code")))
            self.pending.pop(cid)  # refused (stale, not your turn): the page drops it, the player acts again
        return msg

    async def _maybe_act(self, ws: Any) -> None:
        st = getattr(self, "state", None)
        if not self.playing or self.pending or not st or st.get("to_act") != st.get("seat") or not st.get("legal"):
            return
        await asyncio.sleep(0.05)  # under the messages a second a connection may send
        cid = uuid.uuid4().hex
        command = {"type": "act", "action": self.rng.choice(st["legal"]), "version": st["version"], "id": cid}
        self.pending[cid] = command
        await ws.send(json.dumps(command))


# ---------------------------------------------------------------------------- the cluster
def ready(server: Server) -> int:
    try:
        with urllib.request.urlopen(server.base + "/health/ready", timeout=5) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code
    except OSError:
        return 0


def wait_for(what: str, cond: Any, within: float) -> float:
    """Wait until ``cond()`` holds (polled), failing after ``within`` seconds; how long it took."""
    start = time.monotonic()
    while not cond():
        assert time.monotonic() - start < within, f"{what}: not within {within:.0f} s"
        time.sleep(0.2)
    return time.monotonic() - start


class Cluster:
    def __init__(self, servers: list[Server], nginx: Nginx, redis: RedisServer, pg: CuttableProxy, db: str) -> None:
        self.servers, self.nginx, self.redis, self.pg, self.db = servers, nginx, redis, pg, db
        self.paused: Server | None = None  # the process the pause test stopped
        self.players: list[Player] = []
        self.direct: list[Player] = []  # connected straight to their table's owner (not through nginx)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.tasks: list[Any] = []

    def play(self, player: Player) -> None:
        self.tasks.append(asyncio.run_coroutine_threadsafe(player.run(time.monotonic() + 600), self.loop))

    def close(self) -> None:
        """The players leave: their tasks cancelled and finished (their sockets closed) before the loop stops."""
        for p in self.all():
            p.playing = False

        async def cancel() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(cancel(), self.loop).result(15)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)

    def all(self) -> list[Player]:
        return self.players + self.direct

    def moving(self, players: list[Player], since: float, moves: int = 2) -> bool:
        """Every one of these tables has moved ``moves`` times since ``since``."""
        return all(p.version_at(time.monotonic()) - p.version_at(since) >= moves for p in players)

    def node_ports(self) -> dict[str, Server]:
        return {http("GET", s.base + "/api/health")[1]["process"]["node"]: s for s in self.servers}


@pytest.fixture(scope="module")
def cluster(serve_module: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    from sqlalchemy.engine import make_url

    needs.tool("redis-server", "apt-get install redis-server")
    db = postgres_url()
    reset_postgres(db)
    url = make_url(db)
    pg = CuttableProxy(url.host or "127.0.0.1", url.port or 5432)
    through_proxy = url.set(host="127.0.0.1", port=pg.port).render_as_string(hide_password=False)
    redis = RedisServer(tmp_path_factory.mktemp("redis"))
    redis.start()
    options = ("--broker", redis.url, "--lease", LEASE, *FAST, "--heartbeat", HEARTBEAT)
    servers = [serve_module(*options, db=through_proxy, start=False) for _ in range(3)]
    nginx: Nginx | None = None
    c: Cluster | None = None
    try:
        for s in servers:
            s.start(timeout=60)
        nginx = Nginx(servers, tmp_path_factory.mktemp("nginx")).start()
        c = Cluster(servers, nginx, redis, pg, db)
        yield c
    finally:
        if c is not None:
            c.close()
        for s in servers:
            if s.proc is not None and s.proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(s.proc.pid, signal.SIGCONT)
        if nginx is not None:
            nginx.stop()
        for s in servers:
            s.stop()
        redis.stop()
        pg.close()


def new_table(via: Server) -> tuple[str, str]:
    """A table made through one process: one person and three computer players; (its id, his token)."""
    status, data = http("POST", via.base + "/api/tables", {"rules": "classic"})
    assert status == 201, data
    tid, creator = data["id"], data["creator"]
    status, seat = http("POST", f"{via.base}/api/tables/{tid}/seats", {"seat": 0, "name": "P"})
    assert status == 200, seat
    for s in (1, 2, 3):
        status, body = http(
            "POST", f"{via.base}/api/tables/{tid}/bots", {"seat": s, "strength": "random", "token": creator}
        )
        assert status == 200, body
    return tid, seat["token"]


def owner_of(c: Cluster, tid: str) -> Server:
    from barbu.web.db import leases
    from barbu.web.db.storage import Store

    store = Store(c.db, run_migrations=False)
    try:
        with store.engine.connect() as conn:
            found, _ = leases.leases(conn, [tid])
    finally:
        store.close()
    return c.node_ports()[found[tid].owner]


async def first_answers(base: str, tids: list[str], n: int) -> list[str]:
    """What ``n`` new WebSockets (as a watcher: no token) are answered first: "welcome", or "closed <code>"."""
    answers = []
    for i in range(n):
        try:
            async with connect(
                f"{base.replace('http://', 'ws://')}/ws/{tids[i % len(tids)]}", origin=Origin(base)
            ) as ws:
                await ws.send(json.dumps({"type": "hello"}))
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if msg["type"] in ("welcome", "error"):
                        answers.append(msg["type"] if msg["type"] == "welcome" else f"error {msg.get('code')}")
                        break
        except ConnectionClosed as e:
            answers.append(f"closed {e.rcvd.code if e.rcvd else None}")
        except InvalidStatus as e:
            answers.append(f"HTTP {e.response.status_code}")
    return answers


def outage_lines(server: Server, name: str) -> tuple[int, int]:
    log = server.log()
    return len(re.findall(rf"WARNING barbu\.web: {name} unreachable: ", log)), len(
        re.findall(rf"INFO barbu\.web: {name} reachable again after ", log)
    )


# ---------------------------------------------------------------------------- the outages, in order
def players_through_nginx_and_on_their_owner_play(cluster: Cluster) -> None:
    c = cluster
    for i in range(6):  # through nginx: round robin puts most players on a process that relays them
        tid, token = new_table(c.servers[i % 3])
        c.players.append(Player(c.nginx.base, tid, token, i))
    for i in range(2):  # straight to the owner: such tables need nobody else
        tid, token = new_table(c.servers[i])
        c.direct.append(Player(owner_of(c, tid).base, tid, token, 100 + i))
    for p in c.all():
        c.play(p)
    start = time.monotonic()
    wait_for("every table moving", lambda: c.moving(c.all(), start, 5), 40)
    assert all(ready(s) == 200 for s in c.servers)


def redis_stopped_for_10_s(cluster: Cluster) -> None:
    c = cluster
    c.redis.stop()
    stopped = time.monotonic()
    try:
        wait_for("readiness 503 on every process", lambda: all(ready(s) == 503 for s in c.servers), OUTAGE - 2)
        body = json.loads(urllib.request.urlopen(c.servers[0].base + "/api/health", timeout=5).read())
        assert body["status"] == "unavailable" and any("broker" in r for r in body["reasons"]), body
        # new WebSockets through nginx get a clean answer (a welcome, or a close the page reconnects after),
        # never an HTTP 500
        answers = asyncio.run(first_answers(c.nginx.base, [p.tid for p in c.players], 9))
        assert all(a == "welcome" or a.startswith("closed 101") for a in answers), answers
        time.sleep(max(0.0, stopped + OUTAGE - time.monotonic()))
        during = {p.tid: p.version_at(time.monotonic()) - p.version_at(stopped + 2) for p in c.direct}
    finally:
        c.redis.start()
    back = time.monotonic()
    assert all(n >= 5 for n in during.values()), f"tables whose player is on their owner stopped: {during}"
    took = wait_for("every table moving again", lambda: c.moving(c.all(), back, 2), AFTER_BROKER)
    wait_for("readiness 200 again", lambda: all(ready(s) == 200 for s in c.servers), 10)
    # each process's channel is subscribed again: the pings it sends itself through Redis every round arrive
    processes = [http("GET", s.base + "/api/health")[1]["process"] for s in c.servers]
    assert all(p["broker_resubscribed"] >= 1 for p in processes), processes
    heard = [p["broker_received"] for p in processes]
    wait_for(
        "each process hearing its own channel again",
        lambda: all(
            http("GET", s.base + "/api/health")[1]["process"]["broker_received"] >= n + 3
            for s, n in zip(c.servers, heard)
        ),
        10,
    )
    print(f"broker back: every table moving again {took:.1f} s later; moves during it on owners: {during}")


def postgresql_cut_for_10_s(cluster: Cluster) -> None:
    c = cluster
    c.pg.cut()
    cut = time.monotonic()
    try:
        wait_for("readiness 503 on every process", lambda: all(ready(s) == 503 for s in c.servers), OUTAGE - 2)
        # a request that needs the database is answered 503 with a coded refusal in the client's words
        req = urllib.request.Request(
            c.servers[0].base + "/api/tables",
            data=b'{"rules": "classic"}',
            method="POST",
            headers={"content-type": "application/json", "accept-language": "fr"},
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(req, timeout=30)
        body = json.loads(refused.value.read())
        assert refused.value.code == 503 and body["code"] == "out-of-reach", body
        assert "le serveur ne peut pas joindre son stockage" in body["error"], body
        time.sleep(max(0.0, cut + OUTAGE - time.monotonic()))
    finally:
        c.pg.restore()
    back = time.monotonic()
    took = wait_for("every table moving again", lambda: c.moving(c.all(), back, 2), AFTER_DATABASE)
    wait_for("readiness 200 again", lambda: all(ready(s) == 200 for s in c.servers), 10)
    print(f"database back: every table moving again {took:.1f} s later")


def a_paused_process_loses_its_players_to_the_others_within_seconds(cluster: Cluster) -> None:
    c = cluster
    owners = [owner_of(c, p.tid) for p in c.players]
    victim = max(c.servers, key=owners.count)  # the process that plays most of the tables of players through nginx
    assert owners.count(victim) >= 1 and victim.proc is not None
    os.kill(victim.proc.pid, signal.SIGSTOP)
    c.paused = victim
    paused = time.monotonic()
    try:
        took = wait_for("every player through nginx moving again", lambda: c.moving(c.players, paused, 3), AFTER_PAUSE)
        assert all(ready(s) == 200 for s in c.servers if s is not victim)
    finally:
        os.kill(victim.proc.pid, signal.SIGCONT)
    print(f"paused process (it owned {owners.count(victim)} of 6 tables): players moving again {took:.1f} s later")
    # the direct players of the paused process reconnect to it: their tables moved to the others meanwhile
    for p in c.direct:
        p.base = c.nginx.base
    back = time.monotonic()
    wait_for("every table moving after the pause", lambda: c.moving(c.all(), back, 2), AFTER_PAUSE)


def sigterm_hands_tables_over_and_exits_0_within_its_bound(cluster: Cluster) -> None:
    from barbu.web.server import DRAIN_BOUND

    c = cluster
    owners = [owner_of(c, p.tid) for p in c.all()]
    victim = max(c.servers, key=owners.count)
    assert owners.count(victim) >= 1 and victim.proc is not None
    for p in c.direct:
        p.base = c.nginx.base
    victim.proc.send_signal(signal.SIGTERM)
    stopped = time.monotonic()
    code = victim.proc.wait(DRAIN_BOUND + 5)
    drained = time.monotonic() - stopped
    assert code == 0, f"exited with {code}"
    assert "stopping: draining for at most" in victim.log()
    took = wait_for("every table moving after the hand-over", lambda: c.moving(c.all(), stopped, 2), AFTER_PAUSE)
    print(f"SIGTERM: exit 0 after {drained:.1f} s (bound {DRAIN_BOUND:.0f} s); every table moving {took:.1f} s later")


def nothing_lost_nothing_unanswered_and_one_line_each_way(cluster: Cluster) -> None:
    c = cluster
    for p in c.all():
        p.playing = False  # no new commands: every one sent must be answered
    wait_for("every command answered", lambda: not any(p.pending for p in c.all()), 30)
    check_log(c.db, {p.tid: [cast(Any, p)] for p in c.all()})  # a Player keeps its acknowledged moves as a Seat does
    assert sum(len(p.acked) for p in c.all()) > 100
    for s in c.servers:
        log = s.log()
        assert "Traceback" not in log, log[-4000:]
        assert " ERROR " not in log, [line for line in log.splitlines() if " ERROR " in line][:5]
        said = "\n".join(line for line in log.splitlines() if "unreachable" in line or "reachable again" in line)
        # the paused process may find, as it wakes, that PostgreSQL closed the connection it held in a
        # transaction past the idle timeout, or Redis the one it held ("Connection closed by server"): a second
        # outage of its own, told once each way too
        for dependency in ("broker", "database"):
            lines = outage_lines(s, dependency)
            assert lines == (1, 1) or (s is c.paused and lines == (2, 2)), said
    assert "no live upstreams" not in (c.nginx.folder / "nginx-error.log").read_text(errors="replace")


def test_players_ride_out_redis_postgresql_a_paused_process_and_sigterm_losing_nothing(cluster: Cluster) -> None:
    """The phases in order on one cluster, each building on the one before (the players seated, Redis away,
    PostgreSQL cut, a process paused, one stopped, then the count of what was lost), so one test: a parallel
    run (``--dist worksteal``) may hand a module's later tests to another test process, where the cluster
    would be a new one with no players and no outage behind it."""
    for phase in (
        players_through_nginx_and_on_their_owner_play,
        redis_stopped_for_10_s,
        postgresql_cut_for_10_s,
        a_paused_process_loses_its_players_to_the_others_within_seconds,
        sigterm_hands_tables_over_and_exits_0_within_its_bound,
        nothing_lost_nothing_unanswered_and_one_line_each_way,
    ):
        phase(cluster)
