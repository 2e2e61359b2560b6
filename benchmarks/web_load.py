"""Load benchmark for the web server: N tables of four clients each over real WebSocket connections.

Starts ``barbu serve`` (one process, or ``--processes N`` sharing a PostgreSQL database and a Redis broker;
or uses --url), creates the tables, seats four clients at each, and lets every client play a random legal
action at each of its turns, after a think time drawn uniformly from 0 to twice ``--think``.  The clients
run here, in a separate process from the servers.  Prints moves per second, the round trip from sending a
command to receiving the resulting state (p50, p99, max), the servers' memory (RSS) per table, then checks
in the database that every acknowledged move was stored exactly once: no lost and no duplicated moves.

Connections open in waves (``--wave`` at a time, each bounded by ``--connect-timeout``), every wait is
bounded, and the servers and the temporary folder are removed whatever happens.  With several processes
the tables are made through each process in turn (the maker owns the table) and the connections are spread
over the processes round robin, so most of them are relayed to the table's owner over the broker, as
behind a plain round-robin proxy (``--spread owner`` sends each connection to its table's owner instead).
``--nginx`` puts nginx in front with deploy/nginx-barbu.conf (tests/web/webhelpers.py's ``Nginx``), and
``--spread route`` then connects as the page does: the table's route asked first (``GET
/api/tables/<id>/route``), the socket opened with ``?route=``, which nginx sends to the owner.  With a broker
each step also prints the frames relayed over the broker per acknowledged move and the lobby listing's
bytes per process per round (from each process's /api/health).  Measured through nginx on 2026-11-29: see
docs/server.md, "The site's limits and how they grow".

``--curve 250,500,...`` runs one step per number of tables, each on fresh servers and a fresh database,
and prints the curve (tables -> p99, moves/s) and the largest number of tables held with a p99 under
``--target-ms``; it stops after the first step over the target.

    python benchmarks/web_load.py --tables 125 --seconds 30
    python benchmarks/web_load.py --tables 125 --seconds 30 --think 1.0
    python benchmarks/web_load.py --db postgresql://barbu:barbu@127.0.0.1:5432/barbu_bench \\
        --think 3 --seconds 30 --curve 500,1000,1500,2000,2500
    python benchmarks/web_load.py --db postgresql://barbu:barbu@127.0.0.1:5432/barbu_bench \\
        --processes 2 --broker redis://127.0.0.1:6379/9 --think 3 --seconds 30 --curve 500,1000,1500,2000,2500

With PostgreSQL the schema ``barbu_load`` of the given database is made anew at each step; with a broker,
its Redis database is emptied (FLUSHDB).

Measured on this project's 2-core machine, 2026-11-26 (load generator, PostgreSQL, Redis and the servers
on the same two cores, other people's test runs too: load average 2-5), a mean think time of 3 s, four
connections a table, 20 s measured at each step after 5 s of warm-up, connections spread round robin
over the processes (no nginx):

    python benchmarks/web_load.py --db postgresql://barbu:barbu@127.0.0.1:5432/barbu_bench \
        --think 3 --seconds 20 --warmup 5 --curve 250,500,750,1000,1250,1500,2000,2500
     tables  conns failed  p50 ms  p99 ms  moves/s  RSS MB KB/table
        250   1000      0     2.1    52.2       83     184      752
        500   2000      0     2.5    80.1      169     227      466
        750   3000      0     2.4   627.4      251     278      380
    largest number of tables with a p99 under 100 ms: 500 (169 moves/s, 466 KB RSS per table)

    python benchmarks/web_load.py --db postgresql://barbu:barbu@127.0.0.1:5432/barbu_bench \
        --processes 2 --broker redis://127.0.0.1:6379/9 \
        --think 3 --seconds 20 --warmup 5 --curve 250,500,750,1000,1250,1500,2000,2500
     tables  conns failed  p50 ms  p99 ms  moves/s  RSS MB KB/table
        250   1000      0     2.9     7.5       82     346     1418
        500   2000      0     2.9    14.7      168     397      814
        750   3000      0     3.0    19.0      253     450      614
       1000   4000      0     3.3    20.0      332     507      519
       1250   5000      0     3.9    47.6      422     569      467
       1500   6000      0     5.4   994.6      497     634      433
    largest number of tables with a p99 under 100 ms: 1250 (422 moves/s, 467 KB RSS per table)

No move lost or duplicated in either.  Two processes held 2.5 times the tables of one; one process's p99
is made of rare stalls of a few hundred ms (its p50 stays at 2-3 ms), which halve with the tables split
over two processes; an earlier one-process run gave p99 124 ms at 500 tables, so its figure is noisy.
RSS per table includes each idle process's ~140 MB.  That run saw about 30 relayed connections told the
table moved (1012) with no process dead: a browser relayed while the leases were being checked was judged
by a lease read before it came (fixed in `Cluster._check_links`; the same run now sees none).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import statistics
import sys
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "benchmarks")]

from benchcluster import FAST, flush_broker, fresh_schema, processes, stop_all
from webhelpers import Nginx, Server, http

from barbu.web.db.storage import Store

PLAYERS = 4


class Stats:
    def __init__(self) -> None:
        self.rtts: list[float] = []
        self.moves = 0
        self.errors: dict[str, int] = {}
        self.closed = 0  # connections the server closed during the run
        self.closed_codes: dict[str, int] = {}  # why, by close code and reason
        self.moved = 0  # reconnections after the server said the table moved (1012)
        self.measuring = False
        self.sending = True


class SeatClient:
    """One seat: at each of its turns, waits its think time and plays a random legal action."""

    def __init__(
        self, url: str, token: str, think: float, stats: Stats, rng: random.Random, acked: list[tuple[int, str]]
    ) -> None:
        self.url, self.token, self.think, self.stats, self.rng, self.acked = url, token, think, stats, rng, acked
        self.acted_on: int | None = None
        self.pending: dict[str, tuple[str, float, int]] = {}  # id -> (action, sent at, version)
        self.waiting_state: tuple[int, float, bool] | None = None  # version expected, sent at, measured
        self.opened = asyncio.Event()
        self.failed: str | None = None  # why the connection could not be opened
        self.route_of: str | None = None  # as the page does (--spread route): GET this, then ?route= in the URL

    async def where(self) -> str:
        if self.route_of is None:
            return self.url
        status, body = await asyncio.to_thread(http, "GET", self.route_of)
        route = body.get("route") if status == 200 and isinstance(body, dict) else None
        return f"{self.url}?route={route}" if route else self.url

    async def run(self, connect_timeout: float) -> None:
        """Play until cancelled; reconnect (as a browser does) when told the table moved to another process."""
        for _ in range(10):
            try:
                url = await self.where()
                async with connect(url, max_size=2**20, open_timeout=connect_timeout, close_timeout=2) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": self.token}))
                    self.opened.set()
                    self.acted_on = None  # the welcome state again: act on it if it is this seat's turn
                    async for raw in ws:
                        self.receive(ws, raw)
            except (TimeoutError, OSError, InvalidHandshake) as e:
                if not self.opened.is_set():
                    self.failed = type(e).__name__
            except ConnectionClosed as e:
                if self.stats.sending:
                    code = f"{e.rcvd.code} {e.rcvd.reason}" if e.rcvd else "no close frame"
                    self.stats.closed_codes[code] = self.stats.closed_codes.get(code, 0) + 1
                    if e.rcvd is not None and e.rcvd.code == 1012:  # the table moved: reconnect
                        self.stats.moved += 1
                        self.pending.clear()
                        self.waiting_state = None
                        continue
            break
        if self.opened.is_set() and self.stats.sending:
            self.stats.closed += 1
        self.opened.set()  # whoever waits for it is not kept waiting

    def receive(self, ws, raw: str) -> None:
        msg = json.loads(raw)
        kind = msg["type"]
        if kind == "ack":
            entry = self.pending.pop(msg["id"], None)
            if entry is not None:
                self.acked.append((msg["version"], entry[0]))
                if self.stats.measuring:
                    self.stats.moves += 1
        elif kind == "error":
            self.stats.errors[msg["code"]] = self.stats.errors.get(msg["code"], 0) + 1
        st = msg.get("state")
        if not st:
            return
        if self.waiting_state and st["version"] >= self.waiting_state[0]:
            _, sent, measured = self.waiting_state
            if measured:
                self.stats.rtts.append(time.perf_counter() - sent)
            self.waiting_state = None
        if st["to_act"] == st["seat"] and st["legal"] and self.acted_on != st["version"] and self.stats.sending:
            self.acted_on = st["version"]
            asyncio.get_running_loop().create_task(self.act(ws, st))

    async def act(self, ws, st: dict) -> None:
        if self.think:
            await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
        if not self.stats.sending:
            return
        action = self.rng.choice(st["legal"])
        cid = uuid.uuid4().hex
        sent = time.perf_counter()
        self.pending[cid] = (action, sent, st["version"])
        self.waiting_state = (st["version"] + 1, sent, self.stats.measuring)
        try:
            await ws.send(json.dumps({"type": "act", "action": action, "version": st["version"], "id": cid}))
        except ConnectionClosed:
            pass


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def rss_mb(servers: list[Server]) -> float:
    """Resident memory of the server processes (and their children), in MB, from /proc."""
    total = 0
    for s in servers:
        if s.proc is None or s.proc.poll() is not None:
            continue
        pids = [s.proc.pid]
        try:
            pids += [int(c) for c in Path(f"/proc/{s.proc.pid}/task/{s.proc.pid}/children").read_text().split()]
        except OSError:
            pass
        for pid in pids:
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
            except OSError:
                pass
    return total / 1024


@dataclass
class Result:
    tables: int
    connections: int
    failed: int = 0  # connections that could not be opened, over the whole run so far
    moves_per_s: float = 0.0
    rtts_ms: list[float] = field(default_factory=list)
    rss_mb: float = 0.0
    closed: int = 0  # connections the server closed, over the whole run so far
    errors: dict[str, int] = field(default_factory=dict)
    closed_codes: dict[str, int] = field(default_factory=dict)
    relayed_per_move: float = float("nan")  # frames carried over the broker per acknowledged move
    listing_bytes: float = float("nan")  # lobby listing bytes one process writes and reads a round

    @property
    def p99(self) -> float:
        return pct(self.rtts_ms, 99)

    def ok(self, target_ms: float) -> bool:
        return not self.failed and not self.closed and bool(self.rtts_ms) and self.p99 < target_ms


def create_tables(
    args: argparse.Namespace, bases: list[str], first: int, count: int
) -> dict[str, tuple[int, dict[int, str]]]:
    """Tables ``first``..``first + count - 1``, each made and seated through one process in turn:
    id -> (that process, tokens by seat)."""

    def make(i: int) -> tuple[str, tuple[int, dict[int, str]]]:
        via = i % len(bases)
        base = bases[via]
        status, data = http("POST", base + "/api/tables", {"rules": args.rules})
        if status != 201:
            raise RuntimeError(f"creating a table: {status} {data}")
        tid, tokens = data["id"], {}
        for s in range(PLAYERS):
            status, data = http("POST", f"{base}/api/tables/{tid}/seats", {"seat": s, "name": f"load {i}.{s}"})
            if status != 200:
                raise RuntimeError(f"taking a seat: {status} {data}")
            tokens[s] = data["token"]
        return tid, (via, tokens)

    with ThreadPoolExecutor(16) as pool:
        return dict(pool.map(make, range(first, first + count)))


async def run(
    args: argparse.Namespace, counts: list[int], bases: list[str], db: str | None, servers: list[Server]
) -> tuple[list[Result], bool]:
    """Ramp up through ``counts`` tables, every table still playing, one measurement at each;
    then check the journal.  The results, and whether every acknowledged move was stored once."""
    rng = random.Random(args.seed)
    stats = Stats()
    tables: dict[str, tuple[int, dict[int, str]]] = {}
    acked: dict[str, list[tuple[int, str]]] = {}
    ws_bases = [b.replace("http://", "ws://") for b in bases]
    clients: list[SeatClient] = []
    tasks: list[asyncio.Task] = []
    results: list[Result] = []
    in_flight = 0
    try:
        for n in counts:
            if n <= len(tables):
                continue
            print(f"\n=== {n} tables, {n * PLAYERS} connections, {max(1, len(servers))} process(es) ===", flush=True)
            t0 = time.perf_counter()
            new = await asyncio.to_thread(create_tables, args, bases, len(tables), n - len(tables))
            print(f"{len(new)} tables created and seated in {time.perf_counter() - t0:.1f}s", flush=True)
            opening = []
            for tid, (owner, toks) in new.items():
                tables[tid] = (owner, toks)
                acked[tid] = []
                for tok in toks.values():
                    where = owner if args.spread == "owner" else len(clients) % len(bases)
                    opening.append(
                        SeatClient(
                            f"{ws_bases[where]}/ws/{tid}",
                            tok,
                            args.think,
                            stats,
                            random.Random(rng.random()),
                            acked[tid],
                        )
                    )
                    if args.spread == "route":
                        opening[-1].route_of = f"{bases[where]}/api/tables/{tid}/route"
                    clients.append(opening[-1])
            t0 = time.perf_counter()
            for start in range(0, len(opening), args.wave):  # in waves: a burst of handshakes times out
                wave = opening[start : start + args.wave]
                tasks += [asyncio.create_task(c.run(args.connect_timeout)) for c in wave]
                waiters = [asyncio.create_task(c.opened.wait()) for c in wave]
                await asyncio.wait(waiters, timeout=args.connect_timeout + 5)
                for w in waiters:
                    w.cancel()
            failed = sum(1 for c in clients if c.failed or not c.opened.is_set())
            reasons: dict[str, int] = {}
            for c in clients:
                if c.failed:
                    reasons[c.failed] = reasons.get(c.failed, 0) + 1
            print(
                f"{len(opening)} WebSocket connections opened in {time.perf_counter() - t0:.1f}s "
                f"(waves of {args.wave}); {failed} failed so far {reasons or ''}; warming up {args.warmup}s",
                flush=True,
            )
            await asyncio.sleep(args.warmup)
            # The clients share this one process: keep its own collector pauses out of the round trips.
            gc.collect()
            gc.freeze()
            gc.set_threshold(20_000, 20, 10)
            stats.rtts, stats.moves, stats.errors = [], 0, {}
            counted = await asyncio.to_thread(cluster_counts, servers)
            stats.measuring = True
            start_at = time.perf_counter()
            await asyncio.sleep(args.seconds)
            stats.measuring = False
            elapsed = time.perf_counter() - start_at
            relayed, listing = (b - a for a, b in zip(counted, await asyncio.to_thread(cluster_counts, servers)))
            result = Result(
                n,
                len(clients),
                failed,
                stats.moves / elapsed,
                [x * 1000 for x in stats.rtts],
                rss_mb(servers),
                stats.closed,
                dict(stats.errors),
                dict(stats.closed_codes),
            )
            if args.broker and servers:
                result.relayed_per_move = relayed / max(1, stats.moves)
                result.listing_bytes = listing / len(servers) / (elapsed / (args.lease / 3))
            results.append(result)
            report(args, result, elapsed, stats.moves, len(servers))
            if result.failed or result.closed or not result.rtts_ms or result.p99 > args.stop_ms:
                break
    finally:
        stats.sending = False
        deadline = time.monotonic() + 5  # let the commands in flight be answered, for a bounded time
        while any(c.pending for c in clients) and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        in_flight = sum(len(c.pending) for c in clients)
        for t in tasks:
            t.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=15)
        gc.unfreeze()
    print(f"\nunanswered commands at the end: {in_flight}")
    if db is None:
        print("no database given: stored moves not checked")
        return results, True
    return results, check_journal(db, tables, acked, in_flight)


def cluster_counts(servers: list[Server]) -> tuple[int, int]:
    """Frames relayed over the broker and lobby listing bytes, summed over the processes (0, 0 for one alone)."""
    relayed = listing = 0
    for s in servers:
        status, body = http("GET", s.base + "/api/health")
        cluster = body.get("process") if status == 200 and isinstance(body, dict) else None
        if isinstance(cluster, dict):
            relayed += int(cluster.get("relayed_messages", 0))
            listing += int(cluster.get("listing_bytes", 0))
    return relayed, listing


def report(args: argparse.Namespace, r: Result, elapsed: float, moves: int, processes: int) -> None:
    print(f"rules {args.rules}, think time {args.think}s (uniform 0..{2 * args.think}s)")
    print(
        f"moves: {moves} in {elapsed:.1f}s = {r.moves_per_s:.0f} moves/s "
        f"over {r.tables} tables / {r.connections} connections"
    )
    print(
        f"round trip (command sent -> new state received), ms: p50 {pct(r.rtts_ms, 50):.1f}  "
        f"p99 {r.p99:.1f}  max {max(r.rtts_ms, default=float('nan')):.1f}  "
        f"mean {statistics.fmean(r.rtts_ms) if r.rtts_ms else float('nan'):.1f}"
    )
    if processes:
        print(
            f"server memory: {r.rss_mb:.0f} MB RSS over {processes} process(es) = "
            f"{r.rss_mb * 1024 / r.tables:.0f} KB per table"
        )
    if args.broker:
        print(
            f"relayed over the broker: {r.relayed_per_move:.2f} frames a move; lobby listing: "
            f"{r.listing_bytes / 1024:.1f} KB a process a round"
        )
    print(
        f"errors from the server: {r.errors or 'none'}; connections closed by the server: {r.closed} "
        f"{r.closed_codes or ''}",
        flush=True,
    )


def check_journal(
    db: str, tables: dict[str, tuple[int, dict[int, str]]], acked: dict[str, list[tuple[int, str]]], in_flight: int
) -> bool:
    """Every acknowledged move stored, none twice, none stored that nobody sent (beyond those in flight)."""
    store = Store(db, run_migrations=False)
    lost = duplicated = total = 0
    try:
        for tid, (_, toks) in tables.items():
            events = store.events(tid)
            seats = set(toks)
            stored = [(e[0] + 1, e[2]) for e in events if e[1] in seats]
            total += len(stored)
            stored_set = set(stored)
            lost += sum(1 for a in acked[tid] if a not in stored_set)
            duplicated += len(stored) - len(stored_set)
            extra = len(stored_set - set(acked[tid]))
            duplicated += max(0, extra - in_flight)  # a stored move nobody acknowledged (beyond those in flight)
    finally:
        store.close()
    acked_total = sum(len(a) for a in acked.values())
    print(
        f"stored player moves: {total}; acknowledged: {acked_total}; lost: {lost}; duplicated: {duplicated}", flush=True
    )
    return not (lost or duplicated)


def serve_and_run(args: argparse.Namespace, counts: list[int], folder: Path) -> tuple[list[Result], bool]:
    """Fresh servers on a fresh database, stopped whatever happens."""
    if args.db and args.db.startswith("postgresql"):
        db = fresh_schema(args.db, "barbu_load")
    else:
        db = args.db or f"sqlite:///{folder / 'load.db'}"
    if args.broker:
        flush_broker(args.broker)
    cluster = ("--lease", str(args.lease)) if args.broker else ()
    servers = processes(
        args.processes,
        db,
        args.broker,
        folder,
        "--grace",
        "3600",
        *FAST,
        *cluster,
        "--max-tables",
        str(max(5000, 2 * max(counts))),
        "--log-level",
        "warning",
    )
    try:
        servers[0].start(60)  # alone first: it migrates the fresh schema (two at once race on CREATE TABLE)
        with ThreadPoolExecutor(len(servers)) as pool:
            list(pool.map(lambda s: s.start(60), servers[1:]))
        print(
            f"{len(servers)} server process(es) {[s.proc.pid for s in servers if s.proc]} on "
            f"{', '.join(s.base for s in servers)}, database {db.split('@')[-1]}"
            f"{', broker ' + args.broker if args.broker else ''}; idle: {rss_mb(servers):.0f} MB RSS",
            flush=True,
        )
        if args.nginx:
            proxy = Nginx(servers, folder).start()
            try:
                return asyncio.run(run(args, counts, [proxy.base], db, servers))
            finally:
                proxy.stop()
        return asyncio.run(run(args, counts, [s.base for s in servers], db, servers))
    finally:
        stop_all(servers)
        for s in servers:  # the first error of each process in full, then how many
            lines = s.log().splitlines()
            errors = [i for i, line in enumerate(lines) if "Traceback" in line or " ERROR " in line]
            if errors:
                print(f"server log {s.log_path.name}: {len(errors)} errors; the first:")
                print("\n".join(lines[errors[0] : errors[0] + 80]))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=125)
    p.add_argument("--seconds", type=float, default=30)
    p.add_argument("--warmup", type=float, default=3)
    p.add_argument("--think", type=float, default=0.0, help="mean seconds a client waits before acting")
    p.add_argument("--rules", default="classic")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--db",
        help="database URL for the servers it starts (default: SQLite in a temporary folder; "
        "PostgreSQL needed with --processes)",
    )
    p.add_argument("--url", help="use a running server instead of starting one (its database is not checked)")
    p.add_argument("--processes", type=int, default=1, help="server processes sharing the database (default 1)")
    p.add_argument(
        "--broker", help="Redis URL of a database number of your own, emptied at the start (needed with --processes)"
    )
    p.add_argument("--lease", type=float, default=5.0, help="seconds of a table's lease (with --broker)")
    p.add_argument(
        "--spread",
        choices=("round-robin", "owner", "route"),
        default="round-robin",
        help="which process each connection goes to (several processes); route: through nginx, with the route "
        "the page asks for (GET /api/tables/<id>/route)",
    )
    p.add_argument("--nginx", action="store_true", help="nginx in front (deploy/nginx-barbu.conf), as a site has")
    p.add_argument("--wave", type=int, default=250, help="connections opened at once (default 250)")
    p.add_argument("--connect-timeout", type=float, default=20, help="seconds a connection may take to open")
    p.add_argument(
        "--curve", help="rising numbers of tables, comma-separated: a ramp measured at each (overrides --tables)"
    )
    p.add_argument("--target-ms", type=float, default=100, help="the p99 a number of tables must stay under")
    p.add_argument(
        "--stop-ms",
        type=float,
        default=300,
        help="the ramp stops after a step whose p99 is over this (one spike may pass the target)",
    )
    args = p.parse_args()
    if args.processes > 1 and not (args.db and args.db.startswith("postgresql") and args.broker):
        p.error("--processes N (N > 1) needs --db postgresql://... and --broker redis://...")
    if args.spread == "route" and not args.nginx:
        p.error("--spread route needs --nginx (nginx sends each socket to its route's process)")
    counts = sorted(int(n) for n in args.curve.split(",")) if args.curve else [args.tables]
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    if args.url:
        results, stored = asyncio.run(run(args, counts, [args.url.rstrip("/")], None, []))
    else:
        with tempfile.TemporaryDirectory(prefix="barbu-load-") as tmp:
            results, stored = serve_and_run(args, counts, Path(tmp))
    if args.curve:
        print_curve(args, results)
    return 0 if stored and results and not results[-1].failed else 1


def print_curve(args: argparse.Namespace, results: list[Result]) -> None:
    print(
        f"\ncurve: {args.processes} process(es), think time {args.think}s (mean), {PLAYERS} connections a table, "
        f"{args.spread}"
    )
    print(
        f"{'tables':>7} {'conns':>6} {'failed':>6} {'p50 ms':>7} {'p99 ms':>7} {'moves/s':>8} "
        f"{'RSS MB':>7} {'KB/table':>8} {'relay/move':>10} {'list KB/rnd':>11}"
    )
    for r in results:
        print(
            f"{r.tables:>7} {r.connections:>6} {r.failed:>6} {pct(r.rtts_ms, 50):>7.1f} {r.p99:>7.1f} "
            f"{r.moves_per_s:>8.0f} {r.rss_mb:>7.0f} {r.rss_mb * 1024 / r.tables:>8.0f} "
            f"{r.relayed_per_move:>10.2f} {r.listing_bytes / 1024:>11.1f}"
        )
    held = [r for r in results if r.ok(args.target_ms)]
    if held:
        best = max(held, key=lambda r: r.tables)
        print(
            f"largest number of tables with a p99 under {args.target_ms:.0f} ms: {best.tables} "
            f"({best.moves_per_s:.0f} moves/s, {best.rss_mb * 1024 / best.tables:.0f} KB RSS per table)"
        )
    else:
        print(f"no step held a p99 under {args.target_ms:.0f} ms")


if __name__ == "__main__":
    sys.exit(main())
