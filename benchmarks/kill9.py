"""Kill -9 a real `barbu serve` many times during play and check nothing acknowledged is lost.

    python benchmarks/kill9.py --restarts 100 [--db URL] [--tables 5] [--besigue 2]
    python benchmarks/kill9.py --processes 3 --restarts 100 \\
        --db postgresql://barbu:barbu@127.0.0.1:5432/barbu_bench --broker redis://127.0.0.1:6379/9
    python benchmarks/kill9.py --nginx --processes 3 --restarts 4 \\
        --db postgresql://barbu:barbu@127.0.0.1:5432/barbu_bench --broker redis://127.0.0.1:6379/9

One process (the default): clients play random legal moves at several tables over real WebSockets and
note every acknowledged move; the server is killed with SIGKILL at a random moment, restarted, and the
database is checked after each kill: every acknowledged move stored at its place, at most one
unacknowledged move beyond them, and the restarted server at exactly the stored action.

Several processes (``--processes N``, on PostgreSQL and a Redis broker): N ``barbu serve --broker``
processes share the database; every seat is a person connecting to a random live process (another one each
time its socket closes, as behind nginx).  Each cycle a random process is killed with SIGKILL at a random
moment while the others play on; the tables it owned are taken over by the others once its lease ends;
play goes on until every table has had a move acknowledged since the kill (the acknowledgements of moves
relayed through the killed process die with it); then the journal is checked (every acknowledged move
stored once at its place, every stored move sent by its player at that place, at most one unacknowledged
move beyond the last acknowledged one, and along each table's log the lease epoch never goes down), and
the process is started again.
The time to takeover runs from the kill to the first player's move stored under a taken-over table's new
lease (it includes the client's reconnection).  The schema ``barbu_kill9`` of the database is made anew and
the broker's Redis database is emptied (FLUSHDB) at the start.

Prints a line per kill and a summary.

Measured on this project's 2-core machine (PostgreSQL and Redis on it, other jobs running), 2026-11-26:

    python benchmarks/kill9.py --processes 3 --restarts 100 \
        --db postgresql://barbu:barbu@127.0.0.1:5432/barbu_bench --broker redis://127.0.0.1:6379/9

    100 kill -9 of one of 3 processes in 454 s (lease 2.0 s): 14652 acknowledged moves checked after each
    kill, 0 lost, no epoch went down; 234 tables taken over
    time to takeover (kill -> first move under the new lease), s: min 1.06  median 2.34  p95 2.74  max 2.92

(59 of the 100 victims owned no table at that moment: a restarted process owns nothing until it makes or
takes a table, and the victim is drawn at random.)  The takeover waits for the lease to end (at most
``--lease`` after the last renewal, renewed every third of it), then for the next round of a survivor
(a third of the lease), then for the client to reconnect and move: about the lease's length.

Through nginx (``--nginx``, two processes or more, the default 5 s lease): the processes behind a real nginx
with the repository's deploy/nginx-barbu.conf, and players that behave like the page (tests/web/pageseat.py:
commands not answered yet sent again with their ids after every welcome, handshake and silence timeouts, the
page's back-off).  Each cycle kills with SIGKILL the process that owns the most tables, and measures for each of
its tables the time until a player SEES the table's next move (a state past what the killed process had
stored), besides the first move stored under the new lease; every command must be answered (acknowledged, or
refused: none was), and the journal is checked as above.  Measured 2026-11-29 (load 5-8, other jobs running):

    python benchmarks/kill9.py --nginx --processes 3 --restarts 4 --tables 8 --besigue 4 \
        --db postgresql://barbu:barbu@127.0.0.1:5432/barbu_test --broker redis://127.0.0.1:6379/9

    4 kill -9 of one of 3 processes behind nginx in 67 s (lease 5 s): 3295 moves acknowledged, 0 lost,
    0 commands unanswered or refused (40 sent again after a reconnection)
    kill -> a player sees the next move (31 tables), s: min 5.18  median 5.51  p95 6.75  max 6.76
    kill -> first move stored (31 tables), s: min 5.15  median 5.51  p95 6.74  max 6.75
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from datetime import UTC
from pathlib import Path

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests"), str(ROOT / "tests" / "web"), str(ROOT / "benchmarks")]

from benchcluster import (
    FAST,
    alive,
    flush_broker,
    fresh_schema,
    health,
    processes,
    stop_all,
)
from test_web_restart import check_after_kill, play_until_killed
from webhelpers import Nginx, Server, http, new_table

PLAYERS = {"classic": 4, "besigue": 2, "besigue-english": 2}


def rules_for(i: int, barbu_tables: int) -> str:
    return "classic" if i < barbu_tables else ("besigue", "besigue-english")[i % 2]


def one_process(args: argparse.Namespace) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="barbu-kill9-"))
    db = args.db or f"sqlite:///{tmp / 'kill9.db'}"
    server = Server(
        db,
        tmp / "server.log",
        "--grace",
        "100000",
        "--bot-delay",
        "0",
        "--deal-pause",
        "0",
        "--tables-per-hour",
        "0",
        "--connections-per-address",
        "0",
    )
    server.start()
    try:
        tables: dict[str, dict[int, str]] = {}
        rules_of: dict[str, str] = {}
        for i in range(args.tables + args.besigue):
            rules = rules_for(i, args.tables)
            tid, tokens = new_table(server.base, rules, seats={s: f"Player {i}.{s}" for s in range(PLAYERS[rules])})
            tables[tid] = tokens
            rules_of[tid] = rules
        acked: dict[str, list] = {tid: [] for tid in tables}
        rng = random.Random(args.seed)
        t0 = time.monotonic()
        active = dict(tables)
        for cycle in range(args.restarts):
            asyncio.run(play_until_killed(server, active, acked, rng.uniform(0.3, 1.2), cycle))
            counts = check_after_kill(db, tables, acked)  # raises AssertionError on any loss
            server.start()
            for tid, count in counts.items():
                status, data = http("GET", f"{server.base}/api/tables/{tid}")
                # a restarted server may deal at once (one chance event) before we ask
                assert status == 200 and count <= data["table"]["version"] <= count + 1, (tid, count, data)
                if tid in active and data["table"]["status"] == "over":  # a finished match: a new table
                    del active[tid]
                    rules = rules_of[tid]
                    new, tokens = new_table(
                        server.base, rules, seats={s: f"Player {cycle}.{s}" for s in range(PLAYERS[rules])}
                    )
                    tables[new] = active[new] = tokens
                    rules_of[new] = rules
                    acked[new] = []
            total = sum(len(a) for a in acked.values())
            print(
                f"restart {cycle + 1:3d}: {total} acknowledged moves so far, {sum(counts.values())} stored actions, "
                "none lost",
                flush=True,
            )
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    total = sum(len(a) for a in acked.values())
    print(
        f"\n{args.restarts} kill -9 restarts in {time.monotonic() - t0:.0f} s: {total} acknowledged moves, "
        f"0 lost, every table resumed at its stored action"
    )
    return 0


class Journal:
    """What the checks read from the shared database: leases, statuses, epochs, when a takeover moved."""

    def __init__(self, db: str) -> None:
        from barbu.web.db.storage import Store

        self.store = Store(db, run_migrations=False)

    def close(self) -> None:
        self.store.close()

    def _rows(self, sql: str, **params) -> list:
        from sqlalchemy import text

        with self.store.engine.connect() as conn:
            return list(conn.execute(text(sql), params))

    def owned_by(self, node: str) -> dict[str, int]:
        """The unfinished tables whose lease ``node`` holds, with their epochs."""
        rows = self._rows(
            "SELECT l.table_id, l.epoch FROM barbu_leases l JOIN barbu_tables t ON t.id = l.table_id "
            "WHERE l.owner = :node AND t.status IN ('open', 'playing')",
            node=node,
        )
        return {r.table_id: int(r.epoch) for r in rows}

    def first_move_after(self, table_id: str, epoch: int) -> float | None:
        """When the first player's move under a lease newer than ``epoch`` was stored (seconds since 1970)."""
        rows = self._rows(
            "SELECT min(created_at) AS at FROM barbu_events WHERE table_id = :t AND epoch > :e AND actor >= 0",
            t=table_id,
            e=epoch,
        )
        at = rows[0].at if rows else None
        if at is None:
            return None
        return (at if at.tzinfo else at.replace(tzinfo=UTC)).timestamp()

    def stored(self, table_id: str) -> int:
        """How many actions a table's journal holds."""
        return int(self._rows("SELECT count(*) AS n FROM barbu_events WHERE table_id = :t", t=table_id)[0].n)

    def finished(self, table_id: str) -> bool:
        rows = self._rows("SELECT status FROM barbu_tables WHERE id = :t", t=table_id)
        return bool(rows) and rows[0].status not in ("open", "playing")

    def check(
        self, table_id: str, seats: dict[int, str], acked: list[tuple[int, str]], sent: set[tuple[int, str]]
    ) -> int:
        """Every acknowledged move stored once at its place, every stored move sent by a player at that place,
        at most one player's move beyond the last one acknowledged, the lease epoch never going down along
        the log; the number of stored actions."""
        rows = self._rows(
            "SELECT seq, actor, action, epoch FROM barbu_events WHERE table_id = :t ORDER BY seq", t=table_id
        )
        where = f"table {table_id}"
        assert [r.seq for r in rows] == list(range(len(rows))), f"{where}: a gap or a repeat in the journal"
        for version, action in acked:
            assert version <= len(rows), f"{where}: acknowledged move {version} was lost"
            assert rows[version - 1].action == action, f"{where}: move {version} is {rows[version - 1]}, not {action}"
        phantom = [r for r in rows if r.actor in seats and (r.seq + 1, r.action) not in sent]
        assert not phantom, f"{where}: moves stored that no player sent there: {phantom}"
        last = max((v for v, _ in acked), default=0)
        beyond = [r for r in rows[last:] if r.actor in seats]
        assert len(beyond) <= 1, f"{where}: {len(beyond)} unacknowledged moves after move {last}: {beyond}"
        epochs = [r.epoch for r in rows]
        assert None not in epochs, f"{where}: a move was written without its lease's epoch"
        assert epochs == sorted(epochs), f"{where} was advanced by an older owner after a newer one: {epochs}"
        return len(rows)


class Seat:
    """One person (as tests/web/test_web_cluster.py's Seat): connects to a random live process, another one
    each time the socket closes, plays a random legal action at each turn, keeps every acknowledged move.

    It stops when told (``stop``), never by cancellation: every wait is short, so it notices at once."""

    def __init__(self, servers: list[Server], tid: str, token: str, seed: int) -> None:
        self.servers, self.tid, self.token = servers, tid, token
        self.rng = random.Random(seed)
        self.acked: list[tuple[int, str]] = []
        self.sent: set[tuple[int, str]] = set()  # (the table's version after it, action) of every move sent
        self.acked_at = 0.0  # when the last acknowledgement came (time.monotonic)
        self.pending: dict[str, str] = {}

    async def play(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            live = [s for s in self.servers if alive(s)]
            if not live:
                await asyncio.sleep(0.2)
                continue
            server = self.rng.choice(live)
            try:
                async with connect(
                    f"{server.ws_base}/ws/{self.tid}", origin=server.base, open_timeout=5, close_timeout=1
                ) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": self.token}))
                    sent_for = None
                    while not stop.is_set():
                        try:
                            raw = await asyncio.wait_for(ws.recv(), 0.5)
                        except TimeoutError:
                            continue
                        msg = json.loads(raw)
                        if msg["type"] == "ack" and msg.get("id") in self.pending:
                            self.acked.append((msg["version"], self.pending.pop(msg["id"])))
                            self.acked_at = time.monotonic()
                        st = msg.get("state")
                        if st and st["to_act"] == st["seat"] and st["legal"] and sent_for != st["version"]:
                            sent_for = st["version"]
                            await asyncio.sleep(0.08)  # under the 15 messages a second a connection may send
                            if stop.is_set():  # nothing sent once told to stop: one move in flight at most
                                break
                            cid = uuid.uuid4().hex
                            self.pending[cid] = self.rng.choice(st["legal"])
                            self.sent.add((st["version"] + 1, self.pending[cid]))
                            await ws.send(
                                json.dumps(
                                    {"type": "act", "action": self.pending[cid], "version": st["version"], "id": cid}
                                )
                            )
            except (TimeoutError, ConnectionClosed, OSError, InvalidHandshake):
                await asyncio.sleep(0.2)
            self.pending.clear()  # unacknowledged: the table may or may not have it; the next state tells


def many_processes(args: argparse.Namespace) -> int:
    if not (args.db and args.db.startswith("postgresql")) or not args.broker:
        sys.exit("--processes N (N > 1) needs --db postgresql://... and --broker redis://...")
    folder = Path(tempfile.mkdtemp(prefix="barbu-kill9-"))
    db = fresh_schema(args.db, "barbu_kill9")
    flush_broker(args.broker)
    servers = processes(
        args.processes,
        db,
        args.broker,
        folder,
        "--lease",
        str(args.lease),
        "--grace",
        "100000",
        *FAST,
        "--log-level",
        "warning",
    )
    journal: Journal | None = None
    rng = random.Random(args.seed)
    nodes: dict[int, str] = {}
    seats: dict[str, list[Seat]] = {}
    tokens_of: dict[str, dict[int, str]] = {}
    rules_of: dict[str, str] = {}
    takeover_times: list[float] = []
    takeovers = 0
    kills = 0
    retired = 0  # acknowledged moves of finished tables, checked until they finished
    t0 = time.monotonic()

    def start(s: Server) -> None:
        s.start()
        nodes[s.port] = health(s)["process"]["node"]

    def add_table(i: int, rules: str) -> None:
        via = rng.choice([s for s in servers if alive(s)])
        tid, tokens = new_table(via.base, rules, seats={s: f"Player {i}.{s}" for s in range(PLAYERS[rules])})
        tokens_of[tid], rules_of[tid] = tokens, rules
        seats[tid] = [Seat(servers, tid, tok, rng.randrange(2**32)) for tok in tokens.values()]

    async def cycle(number: int) -> tuple[Server, dict[str, int], float]:
        """Play, kill a random process at a random moment, play on until its tables moved again."""
        assert journal is not None
        live = {tid: cs for tid, cs in seats.items() if not journal.finished(tid)}
        stop = asyncio.Event()
        tasks = [asyncio.create_task(c.play(stop)) for cs in live.values() for c in cs]
        try:
            await asyncio.sleep(rng.uniform(0.5, 2.0))
            victim = rng.choice(servers)
            owned = await asyncio.to_thread(journal.owned_by, nodes[victim.port])
            killed_at = time.time()
            await asyncio.to_thread(victim.kill9)
            waiting = dict(owned)
            killed = time.monotonic()
            deadline = killed + 3 * args.lease + 20
            # Until the killed process's tables moved under a new lease, and every table had a move acknowledged
            # since the kill: the acknowledgements lost with the process (moves relayed through it) are behind.
            while (
                waiting
                or any(max(c.acked_at for c in cs) < killed for tid, cs in live.items() if not journal.finished(tid))
            ) and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
                for tid, epoch in list(waiting.items()):
                    at = await asyncio.to_thread(journal.first_move_after, tid, epoch)
                    if at is not None:
                        takeover_times.append(at - killed_at)
                        del waiting[tid]
                    elif await asyncio.to_thread(journal.finished, tid):
                        del waiting[tid]
            if waiting:
                raise AssertionError(
                    f"kill {number}: tables of the killed process never moved again: {sorted(waiting)}"
                )
            stuck = [
                tid for tid, cs in live.items() if max(c.acked_at for c in cs) < killed and not journal.finished(tid)
            ]
            if stuck:
                raise AssertionError(f"kill {number}: tables with no acknowledged move since the kill: {stuck}")
            await asyncio.sleep(0.3)  # a few moves more under the new owners
            return victim, owned, killed_at
        finally:
            stop.set()
            _, late = await asyncio.wait(tasks, timeout=15)
            for t in late:  # never seen: each wait of a seat is short
                t.cancel()
            if late:
                await asyncio.wait(late, timeout=5)
                raise RuntimeError(f"{len(late)} clients did not stop")

    try:
        for s in servers:
            start(s)
        journal = Journal(db)
        for i in range(args.tables + args.besigue):
            add_table(i, rules_for(i, args.tables))
        for number in range(1, args.restarts + 1):
            before = len(takeover_times)
            victim, owned, _ = asyncio.run(cycle(number))
            kills += 1
            acked = {tid: [a for c in cs for a in c.acked] for tid, cs in seats.items()}
            counts = {
                tid: journal.check(tid, tokens_of[tid], acked[tid], {m for c in seats[tid] for m in c.sent})
                for tid in seats
            }
            takeovers += len(takeover_times) - before
            start(victim)
            for tid in [t for t in seats if journal.finished(t)]:  # a finished match: a new table in its place
                rules = rules_of.pop(tid)
                retired += sum(len(c.acked) for c in seats.pop(tid))
                add_table(number, rules)
            new = takeover_times[before:]
            took = f"first move after {min(new):.2f} s (last {max(new):.2f} s)" if new else "no table to take over"
            print(
                f"kill {number:3d}: process {servers.index(victim)} with {len(owned)} tables; {len(new)} taken over, "
                f"{took}; {sum(len(a) for a in acked.values())} acknowledged moves checked at "
                f"{len(acked)} tables ({sum(counts.values())} stored actions), none lost, epochs rising",
                flush=True,
            )
    except BaseException:
        print(f"server logs kept in {folder}", file=sys.stderr)
        raise
    else:
        shutil.rmtree(folder, ignore_errors=True)
    finally:
        stop_all(servers)
        if journal is not None:
            journal.close()
    elapsed = time.monotonic() - t0
    checked = retired + sum(len(c.acked) for cs in seats.values() for c in cs)
    print(
        f"\n{kills} kill -9 of one of {args.processes} processes in {elapsed:.0f} s (lease {args.lease} s): "
        f"{checked} acknowledged moves checked after each kill, 0 lost, no epoch went down; "
        f"{takeovers} tables taken over"
    )
    if takeover_times:
        q = statistics.quantiles(takeover_times, n=20) if len(takeover_times) > 1 else takeover_times * 19
        print(
            f"time to takeover (kill -> first move under the new lease), s: min {min(takeover_times):.2f}  "
            f"median {statistics.median(takeover_times):.2f}  p95 {q[18]:.2f}  max {max(takeover_times):.2f}"
        )
    return 0


def through_nginx(args: argparse.Namespace) -> int:
    """Kill -9 behind nginx, with players that behave like the page: the time until each player SEES the next
    move of his table (not only until a move is stored), and every command answered."""
    from pageseat import PageSeat, check_journal, owner_of

    if not (args.db and args.db.startswith("postgresql")) or not args.broker:
        sys.exit("--nginx needs --db postgresql://... and --broker redis://...")
    folder = Path(tempfile.mkdtemp(prefix="barbu-kill9-nginx-"))
    db = fresh_schema(args.db, "barbu_kill9")
    flush_broker(args.broker)
    lease = args.lease if args.lease is not None else 5.0
    servers = processes(
        max(2, args.processes),
        db,
        args.broker,
        folder,
        *("--lease", str(lease), "--grace", "100000", "--forwarded-allow-ips", "127.0.0.1", *FAST),
        *("--log-level", "warning"),
    )
    lb: Nginx | None = None
    rng = random.Random(args.seed)
    seats: dict[str, list[PageSeat]] = {}
    seen_after: list[float] = []  # kill -> a player of a table of the killed process sees its next move, s
    stored_after: list[float] = []  # kill -> its first move stored under the new lease, s
    answered = resent = 0
    t0 = time.monotonic()

    def add_table(i: int) -> None:
        assert lb is not None
        rules = rules_for(i, args.tables)
        tid, tokens = new_table(lb.base, rules, seats={s: f"Player {i}.{s}" for s in range(PLAYERS[rules])})
        seats[tid] = [PageSeat(lb.base, tid, tok, rng.randrange(2**32)) for tok in tokens.values()]

    async def cycle(number: int) -> None:
        journal = Journal(db)
        live = {tid: cs for tid, cs in seats.items() if not journal.finished(tid)}
        stop = asyncio.Event()
        tasks = [asyncio.create_task(c.play(stop)) for cs in live.values() for c in cs]
        try:
            await asyncio.sleep(rng.uniform(1.0, 3.0))
            owners = {tid: owner_of(db, tid) for tid in live}
            nodes = {health(s)["process"]["node"]: s for s in servers if alive(s)}
            victim = max(nodes.values(), key=lambda s: sum(nodes.get(o) is s for o in owners.values()))
            owned = {tid for tid, o in owners.items() if nodes.get(o) is victim}
            epochs = journal.owned_by([n for n, s in nodes.items() if s is victim][0])
            killed, killed_at = time.monotonic(), time.time()
            await asyncio.to_thread(victim.kill9)
            # The moves the killed process stored (it stores no more): the next one is the new owner's.
            version = {tid: await asyncio.to_thread(journal.stored, tid) for tid in owned}
            waiting = set(owned)
            while waiting and time.monotonic() < killed + 6 * lease + 30:
                await asyncio.sleep(0.05)
                for tid in list(waiting):
                    seen = [at for c in live[tid] for at, v in c.seen if v > version[tid] and at > killed]
                    if seen:
                        seen_after.append(min(seen) - killed)
                        at = await asyncio.to_thread(journal.first_move_after, tid, epochs.get(tid, 0))
                        if at is not None:
                            stored_after.append(at - killed_at)
                        waiting.discard(tid)
                    elif journal.finished(tid):
                        waiting.discard(tid)
            if waiting:
                raise AssertionError(f"kill {number}: tables no player saw move again: {sorted(waiting)}")
            new = seen_after[len(seen_after) - len(owned) :]
            shown = f"seen moving after {min(new):.2f}-{max(new):.2f} s" if new else "none to take over"
            print(f"kill {number:3d}: {len(owned)} tables of the killed process {shown}", flush=True)
            await asyncio.sleep(0.5)
            await asyncio.to_thread(victim.start)
        finally:
            stop.set()
            _, late = await asyncio.wait(tasks, timeout=60)
            for t in late:
                t.cancel()
            journal.close()

    try:
        for s in servers:
            s.start()
        lb = Nginx(servers, folder).start()
        for i in range(args.tables + args.besigue):
            add_table(i)
        for number in range(1, args.restarts + 1):
            asyncio.run(cycle(number))
            every = [c for cs in seats.values() for c in cs]
            unanswered = sum(len(c.pending) for c in every)
            refused = [m for c in every for m in c.refused]
            assert not unanswered and not refused, (unanswered, refused)
            check_journal(db, seats)
            journal = Journal(db)
            try:
                for tid in [t for t in seats if journal.finished(t)]:  # a finished match: a new table in its place
                    gone = seats.pop(tid)
                    answered += sum(len(c.acked) for c in gone)
                    resent += sum(c.resent for c in gone)
                    add_table(number)
            finally:
                journal.close()
    except BaseException:
        print(f"server logs kept in {folder}", file=sys.stderr)
        raise
    else:
        shutil.rmtree(folder, ignore_errors=True)
    finally:
        if lb is not None:
            lb.stop()
        stop_all(servers)
    every = [c for cs in seats.values() for c in cs]
    answered += sum(len(c.acked) for c in every)
    resent += sum(c.resent for c in every)
    print(
        f"\n{args.restarts} kill -9 of one of {len(servers)} processes behind nginx in {time.monotonic() - t0:.0f} s "
        f"(lease {lease:g} s): {answered} moves acknowledged, 0 lost, 0 commands unanswered or refused "
        f"({resent} sent again after a reconnection)"
    )
    for name, xs in (("a player sees the next move", seen_after), ("first move stored", stored_after)):
        if xs:
            q = statistics.quantiles(xs, n=20) if len(xs) > 1 else xs * 19
            print(
                f"kill -> {name} ({len(xs)} tables), s: min {min(xs):.2f}  median {statistics.median(xs):.2f}  "
                f"p95 {q[18]:.2f}  max {max(xs):.2f}"
            )
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--restarts", type=int, default=100, help="kills (each followed by a restart)")
    p.add_argument("--tables", type=int, default=5)
    p.add_argument("--besigue", type=int, default=2, help="Bésigue tables besides the Barbu ones")
    p.add_argument(
        "--db", help="database URL (default: a SQLite file in a temporary folder; PostgreSQL needed with --processes)"
    )
    p.add_argument("--processes", type=int, default=1, help="server processes sharing the database (default 1)")
    p.add_argument(
        "--broker", help="Redis URL of a database number of your own, emptied at the start (with --processes)"
    )
    p.add_argument(
        "--lease", type=float, default=None, help="seconds of a table's lease (default 2, 5 with --nginx: the server's)"
    )
    p.add_argument(
        "--nginx",
        action="store_true",
        help="through nginx with players that behave like the page: time until a player sees the next move",
    )
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    if args.nginx:
        return through_nginx(args)
    if args.lease is None:
        args.lease = 2.0
    return many_processes(args) if args.processes > 1 else one_process(args)


if __name__ == "__main__":
    sys.exit(main())
