"""One server, many processes: real `barbu serve --broker` processes on one PostgreSQL and one Redis.

- Any process serves any table: seats taken and moves played through a process that does not own the
  table reach its owner over the broker, and come back as the leak oracle allows, every message checked
  against the true deal rebuilt from the journal.
- kill -9 of a process mid-deal: the others take its tables over from the journal; every acknowledged move
  is stored once at its place, and along each table's log the lease epoch never goes down (no table was
  ever advanced by two processes).
- A process paused (SIGSTOP) past its lease loses its tables to another; when it resumes, nothing it
  writes for them is stored, and it lets them go.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import time
import uuid
from typing import Any, Iterator

import pytest
from conftest import postgres_url, redis_url, reset_postgres
from leak_oracle import LeakOracle
from webhelpers import Server, http
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from barbu.games import open_game
from barbu.web.db.storage import Store

LEASE = "2"
FAST = (
    "--bot-delay",
    "0",
    "--deal-pause",
    "0",
    "--grace",
    "1000",
    "--tables-per-hour",
    "0",
    "--connections-per-address",
    "0",
    "--bot-tables-per-address",
    "0",
    "--open-tables-per-address",
    "0",
    "--seats-per-address",
    "0",
)


@pytest.fixture
def cluster_db() -> str:
    url = postgres_url()
    reset_postgres(url)
    return url


@contextlib.contextmanager
def running(servers: list[Server]) -> Iterator[list[Server]]:
    """Start the processes; stop those still running at the end (a paused one is woken first)."""
    try:
        for s in servers:
            s.start()
        yield servers
    finally:
        for s in servers:
            if s.proc is not None and s.proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(s.proc.pid, signal.SIGCONT)
                s.stop()


def processes(serve: Any, db: str, broker: str, n: int, *more: str) -> list[Server]:
    """``n`` server processes on one database and broker, not started yet (``running`` starts them)."""
    return [serve("--broker", broker, "--lease", LEASE, *FAST, *more, db=db, start=False) for _ in range(n)]


def health(server: Server) -> dict[str, Any]:
    status, body = http("GET", server.base + "/api/health")
    assert status == 200, body
    return body


class Seat:
    """One person: connects through one of the processes (another each time the socket closes), plays a
    random legal action at each turn, keeps every message and every acknowledged move."""

    def __init__(self, servers: list[Server], tid: str, token: str, seed: int) -> None:
        self.servers, self.tid, self.token = servers, tid, token
        self.rng = random.Random(seed)
        self.acked: list[tuple[int, str]] = []
        self.messages: list[tuple[int | None, int | None, str]] = []  # (seat, version, text)
        self.pending: dict[str, str] = {}
        self.seat: int | None = None
        self.version: int | None = None
        self.connections = 0

    def live(self) -> list[Server]:
        return [s for s in self.servers if s.proc is not None and s.proc.poll() is None]

    def done(self, version: int) -> bool:
        return self.version is not None and self.version >= version

    async def play(self, until: float, version: int) -> None:
        """Play until the table has had ``version`` actions (or the time is up)."""
        while time.monotonic() < until and not self.done(version):
            server = self.rng.choice(self.live())
            try:
                async with connect(f"{server.ws_base}/ws/{self.tid}", origin=server.base) as ws:
                    self.connections += 1
                    await ws.send(json.dumps({"type": "hello", "token": self.token}))  # a full state back
                    sent_for = None
                    while not self.done(version):
                        raw = await asyncio.wait_for(ws.recv(), max(0.1, until - time.monotonic()))
                        msg = json.loads(raw)
                        if msg["type"] == "welcome":
                            self.seat = msg["seat"]
                        st = msg.get("state")
                        if st is not None:
                            self.version = st["version"]
                        self.messages.append((self.seat, self.version, raw))
                        if msg["type"] == "ack" and msg.get("id") in self.pending:
                            self.acked.append((msg["version"], self.pending.pop(msg["id"])))
                        if st and st["to_act"] == st["seat"] and st["legal"] and sent_for != st["version"]:
                            sent_for = st["version"]
                            await asyncio.sleep(0.08)  # under the 15 messages a second a connection may send
                            cid = uuid.uuid4().hex
                            self.pending[cid] = self.rng.choice(st["legal"])
                            await ws.send(
                                json.dumps(
                                    {"type": "act", "action": self.pending[cid], "version": st["version"], "id": cid}
                                )
                            )
            except (ConnectionClosed, OSError, InvalidStatus, asyncio.TimeoutError):
                await asyncio.sleep(0.2)
            self.pending.clear()  # unacknowledged: the table may or may not have it; the next state tells


def new_table(
    via: Server, seats_via: list[Server], humans: int, rules: str = "classic", players: int = 4
) -> tuple[str, dict[int, str]]:
    """A table made through one process, its seats taken through others, computer players in the rest."""
    status, data = http("POST", via.base + "/api/tables", {"rules": rules})
    assert status == 201, data
    tid, creator = data["id"], data["creator"]
    tokens = {}
    for seat in range(players):
        server = seats_via[seat % len(seats_via)]
        if seat < humans:
            status, data = http("POST", f"{server.base}/api/tables/{tid}/seats", {"seat": seat, "name": f"P{seat}"})
            assert status == 200, data
            tokens[seat] = data["token"]
        else:
            status, data = http(
                "POST", f"{server.base}/api/tables/{tid}/bots", {"seat": seat, "strength": "random", "token": creator}
            )
            assert status == 200, data
    return tid, tokens


def check_log(db: str, seats: dict[str, list[Seat]]) -> dict[str, list[int | None]]:
    """Every acknowledged move stored once at its place; epochs never go down along a log."""
    store = Store(db, run_migrations=False)
    try:
        epochs = {}
        for tid, clients in seats.items():
            events = store.events(tid)
            assert [e[0] for e in events] == list(range(len(events)))
            for c in clients:
                for version, action in c.acked:
                    assert version <= len(events), f"table {tid}: acknowledged move {version} was lost"
                    assert events[version - 1][2] == action
            ep = store.epochs(tid)
            assert all(e is not None for e in ep), "a move was written without its lease's epoch"
            assert ep == sorted(ep), f"table {tid} was advanced by an older owner after a newer one: {ep}"
            epochs[tid] = ep
        return epochs
    finally:
        store.close()


def check_leaks(db: str, seats: list[Seat]) -> int:
    """Each message a seat was sent, against the true match at that message's version (from the journal)."""
    store = Store(db, run_migrations=False)
    oracle = LeakOracle()
    checked = 0
    try:
        cache: dict[tuple[str, int], Any] = {}
        for c in seats:
            rec = store.load_table(c.tid)
            assert rec is not None
            for seat, version, text in c.messages:
                if version is None:
                    continue
                key = (c.tid, version)
                if key not in cache:
                    m = open_game(rec.rules, rec.seed)
                    for _, _, action in rec.events[:version]:
                        m.apply(m.parse_action(action))
                    cache[key] = m
                oracle.check(cache[key], seat, text)
                checked += 1
    finally:
        store.close()
    return checked


@pytest.mark.slow
def test_any_process_serves_any_table_and_sends_only_what_a_seat_may_see(cluster_db: str, serve: Any) -> None:
    broker = redis_url()
    a, b = servers = processes(serve, cluster_db, broker, 2)
    with running(servers):
        tid, tokens = new_table(a, [b], humans=4)  # made through A, every seat taken through B
        listed = [http("GET", s.base + "/api/tables")[1] for s in servers]
        deadline = time.monotonic() + 10
        while not all(any(t["id"] == tid for t in rows.get("tables", rows) if isinstance(t, dict)) for rows in listed):
            assert time.monotonic() < deadline, f"the table is not listed by every process: {listed}"
            time.sleep(0.3)
            listed = [http("GET", s.base + "/api/tables")[1] for s in servers]
        seats = [Seat([s], tid, tokens[i], i) for i, s in enumerate([a, b, a, b])]  # two through each

        async def run() -> None:
            until = time.monotonic() + 90
            await asyncio.gather(*(c.play(until, 150) for c in seats))

        asyncio.run(run())
        assert all(c.done(150) and len(c.acked) >= 20 for c in seats), [(c.version, len(c.acked)) for c in seats]
        epochs = check_log(cluster_db, {tid: seats})
        assert set(epochs[tid]) == {1}, "one owner from the first move to the last"
        assert check_leaks(cluster_db, seats) > 500
        procs = [health(s)["process"] for s in servers]
        assert sorted(p["leases"] for p in procs) == [0, 1]
        whole = health(b)["server"]
        assert whole["tables_owned"] == 1 and all(p["alive"] for p in whole["processes"])
        for s in servers:
            assert "Traceback" not in s.log() and " ERROR " not in s.log(), s.log()[-3000:]


@pytest.mark.slow
def test_kill_9_of_a_process_loses_nothing_and_its_tables_go_on(cluster_db: str, serve: Any) -> None:
    broker = redis_url()
    servers = processes(serve, cluster_db, broker, 3)
    with running(servers):
        tables: dict[str, list[Seat]] = {}
        for i in range(6):  # two tables made through each process; one or two people each
            via = servers[i % 3]
            tid, tokens = new_table(via, servers, humans=1 + i % 2)
            tables[tid] = [Seat(servers, tid, tok, 10 * i + seat) for seat, tok in tokens.items()]
        victim = servers[0]
        owned_before = health(victim)["process"]["leases"]
        assert owned_before >= 2

        async def run() -> None:
            until = time.monotonic() + 120
            play = [asyncio.create_task(c.play(until, 250)) for cs in tables.values() for c in cs]
            await asyncio.sleep(3)
            victim.kill9()  # mid-deal: every table has moves in flight
            await asyncio.gather(*play)

        asyncio.run(run())
        every = [c for cs in tables.values() for c in cs]
        assert all(c.done(250) for c in every), [c.version for c in every]
        epochs = check_log(cluster_db, tables)
        moved = [tid for tid, ep in epochs.items() if len(set(ep)) > 1]
        assert len(moved) >= owned_before, f"the dead process's tables were not taken over: {epochs}"
        survivors = servers[1:]
        assert sum(health(s)["process"]["taken_over"] for s in survivors) >= owned_before
        for s in survivors:
            assert "Traceback" not in s.log(), s.log()[-3000:]


@pytest.mark.slow
def test_a_paused_process_cannot_write_over_its_successor(cluster_db: str, serve: Any) -> None:
    broker = redis_url()
    a, b = servers = processes(serve, cluster_db, broker, 2)
    with running(servers):
        tid, tokens = new_table(a, [a], humans=1)
        assert health(a)["process"]["leases"] == 1
        direct = Seat([a], tid, tokens[0], 1)  # connected to the owner itself
        moved = Seat([b], tid, tokens[0], 2)

        async def run() -> None:
            await direct.play(time.monotonic() + 20, 60)
            assert a.proc is not None
            os.kill(a.proc.pid, signal.SIGSTOP)  # paused past its lease: B takes the table over
            try:
                await moved.play(time.monotonic() + 30, 120)
            finally:
                os.kill(a.proc.pid, signal.SIGCONT)

        asyncio.run(run())
        assert direct.done(60) and moved.done(120) and moved.acked
        deadline = time.monotonic() + 15
        while health(a)["process"]["leases"] != 0:  # A renews, sees the table is B's, and lets it go
            assert time.monotonic() < deadline, "the paused process kept a table it lost"
            time.sleep(0.3)
        epochs = check_log(cluster_db, {tid: [direct, moved]})[tid]
        assert epochs[0] == 1 and epochs[-1] >= 2 and epochs == sorted(epochs)
        assert health(b)["process"]["leases"] == 1
        assert "owned by another process" in a.log() or "refused, another process owns" in a.log()


@pytest.mark.slow
def test_a_process_stopped_with_sigterm_hands_its_tables_over_at_once(cluster_db: str, serve: Any) -> None:
    broker = redis_url()
    a, b = servers = processes(serve, cluster_db, broker, 2)
    a.args = (*a.args, "--lease", "30")  # not the lease's end: the hand-over is what moves the table
    with running(servers):
        tid, tokens = new_table(a, [a], humans=1)
        seat = Seat([b], tid, tokens[0], 3)  # relayed through B to A

        async def run() -> float:
            await seat.play(time.monotonic() + 20, 40)
            stopped = time.monotonic()
            a.stop()  # SIGTERM: A drains and releases its lease
            await seat.play(time.monotonic() + 20, 80)
            return time.monotonic() - stopped

        took = asyncio.run(run())
        assert seat.done(80) and took < 15
        assert health(b)["process"]["leases"] == 1
        epochs = check_log(cluster_db, {tid: [seat]})[tid]
        assert epochs[0] == 1 and epochs[-1] == 2


@pytest.mark.slow
def test_workers_share_one_port_and_a_lost_worker_is_started_again(cluster_db: str, serve: Any) -> None:
    server = serve("--workers", "2", "--broker", redis_url(), "--lease", LEASE, *FAST, db=cluster_db)
    try:

        def nodes() -> set[str]:
            return {p["node"] for p in health(server)["server"]["processes"] if p["alive"]}

        deadline = time.monotonic() + 20
        while len(nodes()) < 2:
            assert time.monotonic() < deadline, server.log()[-2000:]
            time.sleep(0.3)
        seen = {health(server)["process"]["node"] for _ in range(30)}
        assert len(seen) == 2, "the kernel hands connections to both workers"
        first = nodes()
        victim = health(server)["process"]["node"]  # a worker that answers now
        os.kill(int(victim.split("-")[-2]), signal.SIGKILL)
        deadline = time.monotonic() + 30
        while victim in nodes() or not nodes() - first:  # gone, and a new worker in its place
            assert time.monotonic() < deadline, server.log()[-2000:]
            time.sleep(0.3)
    finally:
        server.stop()
    assert server.proc is not None and server.proc.returncode == 0


@pytest.mark.slow
def test_per_address_limits_hold_across_processes(cluster_db: str, serve: Any) -> None:
    from concurrent.futures import ThreadPoolExecutor

    broker = redis_url()
    limits = ("--tables-per-hour", "4", "--connections-per-address", "2", "--kept-games-per-hour", "2")
    servers = processes(serve, cluster_db, broker, 2, *limits)
    with running(servers):
        # A burst of creations spread over both processes: exactly the hour's limit is made.
        with ThreadPoolExecutor(16) as pool:
            answers = list(
                pool.map(lambda i: http("POST", servers[i % 2].base + "/api/tables", {"rules": "classic"}), range(16))
            )
        made = [body["id"] for status, body in answers if status == 201]
        refused = [body for status, body in answers if status == 429]
        assert len(made) == 4 and len(refused) == 12, answers
        assert "4 tables this hour" in refused[0]["error"]
        kept = [
            http("POST", servers[i % 2].base + "/api/score", {"rules": "classic", "names": ["A", "B", "C", "D"]})[0]
            for i in range(3)
        ]
        assert kept.count(429) == 1, kept

        async def sockets() -> None:
            async def opened(server: Server) -> Any:
                ws = await connect(f"{server.ws_base}/ws/{made[0]}", origin=server.base)
                try:  # a refused connection is told at once, before any hello
                    return ws, json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                except asyncio.TimeoutError:
                    pass
                await ws.send(json.dumps({"type": "hello"}))
                return ws, json.loads(await ws.recv())

            one, first = await opened(servers[0])
            two, second = await opened(servers[1])
            assert first["type"] == "welcome" and second["type"] == "welcome"
            three, refused = await opened(servers[0])
            assert refused["code"] == "too_many_connections", refused
            await two.close()
            await asyncio.sleep(0.3)
            four, again = await opened(servers[0])
            assert again["type"] == "welcome"
            await one.close()
            await four.close()

        asyncio.run(sockets())


@pytest.mark.slow
def test_tables_count_against_their_maker_on_every_process_and_after_a_takeover(cluster_db: str, serve: Any) -> None:
    broker = redis_url()
    limits = ("--open-tables-per-address", "2", "--bot-tables-per-address", "1")
    a, b = servers = processes(serve, cluster_db, broker, 2, *limits)
    with running(servers):
        status, body = http("POST", a.base + "/api/play", {"rules": "classic", "name": "Ann", "strength": "random"})
        assert status == 201, body  # a table with computer players, on A
        status, body = http("POST", a.base + "/api/tables", {"rules": "classic"})
        assert status == 201, body
        second, creator = body["id"], body["creator"]
        time.sleep(1.5)  # a round: B has seen what A published
        status, body = http("POST", b.base + "/api/tables", {"rules": "classic"})
        assert status == 429 and body.get("code") == "my_tables", body
        status, body = http(
            "POST", f"{b.base}/api/tables/{second}/bots", {"seat": 1, "strength": "random", "token": creator}
        )
        assert status == 429 and body.get("code") == "my_tables", body
        a.kill9()  # B takes both tables over; they still count against their maker
        deadline = time.monotonic() + 15
        while health(b)["process"]["leases"] < 2:
            assert time.monotonic() < deadline, b.log()[-2000:]
            time.sleep(0.3)
        status, body = http("POST", b.base + "/api/tables", {"rules": "classic"})
        assert status == 429 and body.get("code") == "my_tables", body


def test_processes_started_at_once_on_an_empty_database_all_come_up(cluster_db: str) -> None:
    """Several processes migrating one empty PostgreSQL at once take turns (an advisory lock): none fails
    on a half-made schema, and the schema ends at the newest revision once."""
    from concurrent.futures import ThreadPoolExecutor

    from sqlalchemy import text

    def start(_: int) -> None:
        Store(cluster_db).close()

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(start, range(4)))
    store = Store(cluster_db, run_migrations=False)
    with store.engine.connect() as conn:
        versions = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    store.close()
    assert len(versions) == 1
