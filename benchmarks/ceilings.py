"""The next limits when the server grows over several machines: the database's fenced journal writes per second
and the broker's messages per second, measured on this machine.

    python benchmarks/ceilings.py --db postgresql://barbu:barbu@127.0.0.1:5432/barbu_bench \\
        --broker redis://127.0.0.1:6379/9
    python benchmarks/ceilings.py --only db --db postgresql://... --writers 1,2,4 --rates 2000,8000,32000
    python benchmarks/ceilings.py --only broker --broker redis://127.0.0.1:6379/9 --nodes 2,4 --sizes 1024,4096

Processes and machines add tables and CPU; what they share is the database every table's journal is written to
and the broker every relayed frame goes through.  This measures both the way the server uses them.

**The database.**  Each writer process stands for one server process: it makes ``--tables`` tables, each with
its lease (`barbu.web.db.leases.claim`, in the transaction that makes it, as `Lobby` does), and writes through its
own `barbu.web.db.journal.Journal` (one writer thread, group commit), every table through its `FencedJournal`: each
write carries the table's lease epoch and is checked in the transaction that commits it (the lease rows read
*for share* on PostgreSQL).  Each table writes at random times (a Poisson process), each write awaited before the
next as a table's actor does.  Each process renews its leases every third of ``--lease`` through its journal, as
`barbu.web.cluster.node` does; the slowest renewal is reported.  At the end every table's stored actions are counted
against the acknowledged ones, each with its table's epoch.  PostgreSQL (``--db``; the schema ``barbu_ceilings``
of that database, made anew for each ramp and dropped at the end), with ``--unfenced`` a ramp whose writes carry
no epoch (what fencing costs), and SQLite (a file in a temporary folder) for comparison.  On a local PostgreSQL
the CPU time of its processes is read from /proc (other users of the same server add to it).

**The broker.**  ``--nodes`` processes each run a `barbu.web.cluster.broker.Broker` (redis-py's asyncio client, one
pub/sub channel per node) and ``--senders`` relayed connections, each publishing at random times (a Poisson
process) to the other nodes in turn an envelope like a relayed state message (``{"k": "out", "c": ..., "x":
<the frame's text>}``, the text cut from real classic state messages to make the envelope ``--sizes`` bytes),
awaiting each publish before the next; the latency runs from the publish to the receiving node's handler.  At
most ``--window`` messages from one node to another are on their way at once, so Redis's buffers stay small.
Redis's own CPU time per message is read from ``INFO cpu`` (the Redis server is shared: others' commands add to
it), the nodes' (publishing and receiving) from their processes.  The Redis database given is emptied (FLUSHDB)
before and after.

**Ramps.**  The rate asked of all the writers (nodes) together rises through ``--rates`` (``--broker-rates``):
a rate is held if 90% of it is written (delivered) with a p99 under ``--target-ms``; the ramp stops after a rate
less than 90% written or with a p99 over ``--stop-ms`` (a single spike of a shared machine does not end it).

**What a move costs** (classic, four connections a table, counted through a real server): 1.02 journal writes
(the move; a deal's shuffle once every ~60 moves); and over the broker, when all four of its table's connections
are relayed, 10.1 messages: the command in, then its acknowledgement, four states and four clock messages out
(and the scores at a deal's end).  Behind a round-robin proxy over N processes a connection is relayed with
probability (N-1)/N: 5.0 messages a move at N = 2, 6.7 at 3, 7.6 at 4, towards 10.1.  A relayed state message is
0.6-1.1 KB, a clock message 0.2 KB, a full state sent at a (re)connection 2-3 KB (4.6 KB at most).

Measured on this project's 2-core machine, 2026-11-27, with the defaults (PostgreSQL, Redis and the benchmark's
processes on the same two cores while other jobs ran, load average 4-7: the latencies varied from run to run),
over several runs:

    PostgreSQL, 2 writers, 1,000 tables, fenced: 8,000 writes/s held (25-30 a commit, p50 11-13 ms, p99 27-52 ms),
        14,000-16,000 at most; PostgreSQL's CPU ~40 us a write (~20 us in larger commits; ~30 us unfenced)
    PostgreSQL unfenced: 8,000 held, 16,000-27,000 at most (a lone write commits in 0.45 ms, fenced 0.7 ms);
        SQLite, 2 writers: 14,000-28,000 writes/s at most
    Redis, 2 nodes, 1 KB: 8,000 msgs/s held in most runs (4,000-16,000), 10,000-16,000 at most; Redis's CPU
        14-20 us a message, the nodes' 80-200 us; 4 KB: 2,000 msgs/s held at best (the nodes' 230-290 us)
    the slowest lease renewal through a saturated journal: 0.1-0.3 s

docs/server.md, "How it grows over several machines", works out what they mean for a server over several machines.
"""

from __future__ import annotations

import argparse
import array
import asyncio
import multiprocessing as mp
import os
import queue
import random
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "benchmarks")]

from benchcluster import flush_broker, fresh_schema

SCHEMA = "barbu_ceilings"
WRITES_PER_MOVE = 1.02  # the move, and a deal's shuffle once every ~60 moves (classic)
MESSAGES_PER_RELAYED_MOVE = 10.1  # 1 in; ack, 4 states, 4 clocks (and the scores now and then) out
SETUP_TIMEOUT = 120.0  # seconds a child process may take to start and make its tables


# ---------------------------------------------------------------------------------------------- shared helpers
def run_loop(coro: Any) -> Any:
    """Run ``coro`` on uvloop when it is installed, as the server does."""
    try:
        import uvloop

        return uvloop.run(coro)
    except ImportError:
        return asyncio.run(coro)


def pct(values: Any, p: float) -> float:
    values = sorted(values)
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def postgres_cpu() -> float | None:
    """CPU seconds used so far by the processes named postgres on this machine (None: none found)."""
    tick = os.sysconf("SC_CLK_TCK")
    total, found = 0, False
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        if stat[stat.index("(") + 1 : stat.rindex(")")] != "postgres":
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
        found = True
    return total / tick if found else None


def redis_cpu(url: str) -> float:
    import redis

    client = redis.Redis.from_url(url)
    try:
        info = client.info("cpu")
    finally:
        client.close()
    return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])


def stop_children(procs: list[Any], at_once: bool = False) -> None:
    """Our own child processes: joined, or terminated if they do not end in time (``at_once``: a step that
    failed, nothing to wait for)."""
    for p in procs:
        p.join(timeout=0 if at_once else 15)
    for p in procs:
        if p.is_alive():
            p.terminate()
            p.join(timeout=5)
        if p.is_alive():
            p.kill()
            p.join(timeout=5)


def gather(q: Any, n: int, timeout: float, what: str) -> list[dict[str, Any]]:
    """``n`` answers from the children, each within ``timeout`` seconds; an error from any of them is raised."""
    out = []
    for _ in range(n):
        try:
            item = q.get(timeout=timeout)
        except queue.Empty:
            raise RuntimeError(f"{what}: a child process did not answer in {timeout:.0f} s") from None
        if "error" in item:
            raise RuntimeError(f"{what}: {item['error']}")
        out.append(item)
    return out


# ---------------------------------------------------------------------------------------------- the database
def db_writer(
    url: str,
    node: str,
    tables: int,
    fenced: bool,
    ttl: float,
    warmup: float,
    seconds: float,
    seed: int,
    ready: Any,
    commands: Any,
    out: Any,
) -> None:
    """One writer process (a server process's journal): its tables, its leases, its writes at the rates asked."""
    try:
        run_loop(_db_writer(url, node, tables, fenced, ttl, warmup, seconds, seed, ready, commands, out))
    except Exception as e:  # noqa: BLE001 - reported to the parent, which stops the run
        msg = f"{node}: {type(e).__name__}: {e}"
        ready.put({"error": msg})
        out.put({"error": msg})


async def _db_writer(
    url: str,
    node: str,
    tables: int,
    fenced: bool,
    ttl: float,
    warmup: float,
    seconds: float,
    seed: int,
    ready: Any,
    commands: Any,
    out: Any,
) -> None:
    from barbu.web.db import leases
    from barbu.web.db.journal import Journal
    from barbu.web.db.storage import Store

    journal = Journal(Store(url, run_migrations=False))
    ids = [f"{node}-{i}" for i in range(tables)]

    def create(conn: Any) -> dict[str, int]:  # a table and its lease in one transaction, as Lobby._create
        epochs = {}
        for i, tid in enumerate(ids):
            Store.create_table(conn, tid, "classic", i)
            epoch = leases.claim(conn, tid, node, ttl)
            assert epoch is not None
            epochs[tid] = epoch
        return epochs

    epochs = await journal.run(create)
    views = {tid: journal.fenced(tid, epochs[tid] if fenced else None) for tid in ids}
    ready.put({"node": node})

    loop = asyncio.get_running_loop()
    rate = 0.0  # writes/s of each table
    measuring, stopping = False, False
    latencies = array.array("d")
    acked = dict.fromkeys(ids, 0)
    busy: set[str] = set()  # tables with a write on its way
    problems = {"refused": 0, "failed": 0, "lost_leases": 0}
    renewals: list[float] = []
    gaps: list[float] = []

    async def table(tid: str, rng: random.Random) -> None:
        """Writes at random times (a Poisson process at ``rate``), one at a time: each awaited before the next."""
        view, seq, next_at = views[tid], 0, loop.time()
        while not stopping:
            next_at = max(next_at + rng.expovariate(rate), loop.time() - 1.0)  # late: catch up, but not in a burst
            delay = next_at - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            busy.add(tid)
            sent = time.perf_counter()
            try:
                await view.append(tid, seq, seq % 4, "QS")
            except leases.Fenced:
                problems["refused"] += 1
                return
            except Exception:  # noqa: BLE001 - counted and reported: a write the database refused
                problems["failed"] += 1
                return
            finally:
                busy.discard(tid)
            seq += 1
            acked[tid] = seq
            if measuring:
                latencies.append(time.perf_counter() - sent)

    async def renew() -> None:  # every third of the lease, through the journal, as Cluster._round
        last = None
        while not stopping:
            asked = time.perf_counter()
            held = await journal.run(lambda conn: leases.renew(conn, node, ttl))
            done = time.perf_counter()
            if measuring:
                renewals.append(done - asked)
                if last is not None:
                    gaps.append(done - last)
            last = done
            problems["lost_leases"] += sum(1 for tid in ids if held.get(tid) != epochs[tid])
            await asyncio.sleep(ttl / 3)

    rngs = random.Random(seed)
    tasks: dict[str, asyncio.Future] = {}
    renewing = asyncio.ensure_future(renew())
    while True:
        wanted = await asyncio.to_thread(commands.get, True, SETUP_TIMEOUT)  # this writer's writes/s; None: stop
        if wanted is None:
            break
        rate = wanted / tables
        if not tasks:
            tasks = {tid: asyncio.ensure_future(table(tid, random.Random(rngs.random()))) for tid in ids}
        await asyncio.sleep(warmup)
        commits0, writes0, cpu0 = journal.commits, sum(acked.values()), time.process_time()
        del latencies[:], renewals[:], gaps[:]
        measuring, started = True, time.perf_counter()
        await asyncio.sleep(seconds)
        measuring = False
        elapsed = time.perf_counter() - started
        out.put(
            {
                "node": node,
                "writes": sum(acked.values()) - writes0,
                "commits": journal.commits - commits0,
                "elapsed": elapsed,
                "cpu": time.process_time() - cpu0,
                "latencies": latencies.tobytes(),
                "renew_max": max(renewals, default=0.0),
                "gap_max": max(gaps, default=0.0),
                **problems,
            }
        )
    stopping = True
    for tid, task in tasks.items():  # a table waiting for its next write stops now; one writing finishes it
        if tid not in busy:
            task.cancel()
    renewing.cancel()
    _, late = await asyncio.wait([*tasks.values(), renewing], timeout=60)
    await journal.close()
    out.put({"node": node, "final": True, "acked": acked, "epochs": epochs, "late": len(late)})


@dataclass
class DbResult:
    database: str
    writers: int
    tables: int
    fenced: bool
    offered: float  # writes/s asked of all the writers together
    writes_per_s: float
    commits_per_s: float
    p50_ms: float
    p99_ms: float
    renew_max_ms: float
    db_cpu_us: float | None  # the database's CPU time per write (local PostgreSQL only)
    app_cpu_us: float  # the writer processes' CPU time per write
    problems: str = ""

    def held(self, target_ms: float) -> bool:
        return not self.problems and self.writes_per_s >= 0.9 * self.offered and self.p99_ms < target_ms


def check_journal(url: str, finals: list[dict[str, Any]], fenced: bool) -> str:
    """Every acknowledged write stored once, at its place, with its table's epoch; '' if so."""
    from sqlalchemy import text

    from barbu.web.db.storage import Store

    store = Store(url, run_migrations=False)
    try:
        with store.engine.connect() as conn:
            rows = {
                r.table_id: r
                for r in conn.execute(
                    text(
                        "SELECT table_id, count(*) AS n, max(seq) AS last, min(epoch) AS lo, max(epoch) AS hi "
                        "FROM barbu_events GROUP BY table_id"
                    )
                )
            }
    finally:
        store.close()
    wrong = 0
    for res in finals:
        for tid, n in res["acked"].items():
            r = rows.get(tid)
            stored, last = (r.n, r.last) if r is not None else (0, -1)
            epoch = res["epochs"][tid] if fenced else None
            if stored != n or last != n - 1 or (r is not None and not (r.lo == r.hi == epoch)):
                wrong += 1
    return f"{wrong} tables' journals differ from what was acknowledged" if wrong else ""


def db_ramp(
    args: argparse.Namespace, database: str, url: str, writers: int, fenced: bool, local_postgres: bool
) -> list[DbResult]:
    """``writers`` processes on one database, at each of ``--rates`` in turn until one is not held."""
    ctx = mp.get_context("spawn")
    ready, out = ctx.Queue(), ctx.Queue()
    commands = [ctx.Queue() for _ in range(writers)]
    procs = [
        ctx.Process(
            target=db_writer,
            args=(url, f"w{i}", args.tables, fenced, args.lease, args.warmup, args.seconds, i, ready, commands[i], out),
            daemon=True,
        )
        for i in range(writers)
    ]
    results: list[DbResult] = []
    done = False
    try:
        for p in procs:
            p.start()
        gather(ready, writers, SETUP_TIMEOUT, "making the tables")
        for rate in args.rates:
            for q in commands:
                q.put(rate / writers)
            time.sleep(args.warmup)
            cpu0 = postgres_cpu() if local_postgres else None
            time.sleep(args.seconds)
            cpu1 = postgres_cpu() if local_postgres else None
            step = gather(out, writers, args.warmup + args.seconds + 60, "writing")
            writes = sum(r["writes"] for r in step)
            elapsed = statistics.fmean(r["elapsed"] for r in step)
            lat = array.array("d")
            for r in step:
                lat.frombytes(r["latencies"])
            lat_ms = [x * 1000 for x in lat]
            problems = [
                f"{k} {sum(r[k] for r in step)}"
                for k in ("refused", "failed", "lost_leases")
                if sum(r[k] for r in step)
            ]
            db_cpu = (cpu1 - cpu0) / writes * 1e6 if cpu0 is not None and cpu1 is not None and writes else None
            r = DbResult(
                database,
                writers,
                writers * args.tables,
                fenced,
                rate,
                writes / elapsed,
                sum(x["commits"] for x in step) / elapsed,
                pct(lat_ms, 50),
                pct(lat_ms, 99),
                max(x["renew_max"] for x in step) * 1000,
                db_cpu,
                sum(x["cpu"] for x in step) / max(writes, 1) * 1e6,
                "; ".join(problems),
            )
            results.append(r)
            print(
                f"  asked {rate:,.0f} writes/s: {r.writes_per_s:,.0f} in {r.commits_per_s:,.0f} commits/s, "
                f"p99 {r.p99_ms:.1f} ms{'; ' + r.problems if r.problems else ''}",
                flush=True,
            )
            if r.problems or r.writes_per_s < 0.9 * rate or r.p99_ms > args.stop_ms:
                break
        for q in commands:
            q.put(None)
        finals = gather(out, writers, 90, "stopping")
        done = True
    finally:
        stop_children(procs, at_once=not done)
    bad = check_journal(url, finals, fenced)
    late = sum(f["late"] for f in finals)
    if bad or late:
        last = results[-1]
        last.problems = "; ".join(x for x in (last.problems, bad, f"{late} tables did not stop" if late else "") if x)
    return results


def database_steps(args: argparse.Namespace, folder: Path) -> list[DbResult]:
    from barbu.web.db.storage import Store

    plan: list[tuple[str, int, bool]] = []
    if args.db:
        plan += [("postgresql", w, True) for w in args.writers]
        if args.unfenced:
            plan.append(("postgresql", args.writers[0], False))
    plan += [("sqlite", w, True) for w in args.sqlite_writers]
    local = bool(args.db) and any(h in args.db for h in ("@127.0.0.1", "@localhost", "@[::1]"))
    results = []
    try:
        for n, (database, writers, fenced) in enumerate(plan):
            if database == "postgresql":
                url = fresh_schema(args.db, SCHEMA)
            else:
                url = f"sqlite:///{folder / f'ceilings{n}.db'}"
            Store(url).close()  # the schema, migrated once before the writers start
            print(
                f"database: {database}, {writers} writer process(es) x {args.tables} tables, "
                f"{'fenced' if fenced else 'unfenced'}",
                flush=True,
            )
            results += db_ramp(args, database, url, writers, fenced, local and database == "postgresql")
    finally:
        if args.db:
            drop_schema(args.db)
    return results


def drop_schema(url: str) -> None:
    from sqlalchemy import create_engine, text

    from barbu.web.db.storage import database_url

    engine = create_engine(database_url(url))
    try:
        with engine.begin() as conn:
            conn.execute(text(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE"))
    finally:
        engine.dispose()


# ---------------------------------------------------------------------------------------------- the broker
def state_text(seed: int = 1) -> str:
    """The text of a real state message of a classic table, a few deals in (the frame a relay carries)."""
    import orjson

    from barbu.core.game import CHANCE
    from barbu.games import open_game
    from barbu.web.tables.games import web_game

    m = open_game("classic", seed)
    web, rng, texts = web_game(m), random.Random(seed), []
    for _ in range(400):
        actor = m.to_act()
        if actor == CHANCE:
            action = m.sample_chance()
            m.apply(action)
        else:
            action = rng.choice(list(m.legal_actions()))
            web.apply(action, actor)
        texts.append(orjson.dumps(web.messages(actor, action, [0], False)[0]).decode())
    return "".join(texts)


def envelope_text(base: str, size: int) -> str:
    """A frame's text cut from ``base`` so that the envelope carrying it is about ``size`` bytes."""
    import orjson

    text = base[:size]
    while text and len(orjson.dumps({"k": "out", "c": "x" * 16, "x": text, "f": 0, "t": 0.0})) > size:
        text = text[: -max(1, len(text) // 50)]
    return text


def broker_node(
    url: str,
    index: int,
    nodes: int,
    text: str,
    senders: int,
    window: int,
    warmup: float,
    seconds: float,
    sent: Any,
    received: Any,
    ready: Any,
    commands: Any,
    out: Any,
) -> None:
    """One node (a server process's broker): relayed connections publishing at the rates asked, and its channel."""
    try:
        run_loop(
            _broker_node(
                url, index, nodes, text, senders, window, warmup, seconds, sent, received, ready, commands, out
            )
        )
    except Exception as e:  # noqa: BLE001 - reported to the parent, which stops the run
        msg = f"node {index}: {type(e).__name__}: {e}"
        ready.put({"error": msg})
        out.put({"error": msg})


async def _broker_node(
    url: str,
    index: int,
    nodes: int,
    text: str,
    senders: int,
    window: int,
    warmup: float,
    seconds: float,
    sent: Any,
    received: Any,
    ready: Any,
    commands: Any,
    out: Any,
) -> None:
    import orjson

    from barbu.web.cluster.broker import Broker

    loop = asyncio.get_running_loop()
    rate = 0.0  # messages/s of each connection
    measuring, stopping = False, False
    latencies = array.array("d")
    counts = {"received": 0, "sent": 0, "waited": 0}
    busy: set[int] = set()  # connections with a publish on its way

    def on_message(env: dict[str, Any]) -> None:  # as Cluster._on_message finds an "out" for a relayed browser
        if env.get("k") != "out" or not isinstance(env.get("x"), str):
            return
        received[env["f"] * nodes + index] += 1  # only this node writes its column
        if measuring:
            counts["received"] += 1
            latencies.append(time.time() - env["t"])

    broker = Broker(url, f"ceilings{index}", on_message)
    await broker.start()
    others = [n for n in range(nodes) if n != index]
    ready.put({"node": index})
    size = len(orjson.dumps({"k": "out", "c": "x" * 16, "x": text, "f": index, "t": time.time()}))

    async def connection(c: int, rng: random.Random) -> None:
        """Frames at random times (a Poisson process at ``rate``) to the other nodes in turn, each publish
        awaited before the next, as a relayed connection sends them."""
        conn_id, k, next_at = f"c{index:03d}{c:012d}", c, loop.time()
        while not stopping:
            next_at = max(next_at + rng.expovariate(rate), loop.time() - 1.0)
            delay = next_at - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            dest = others[k % len(others)]
            k += 1
            pair = index * nodes + dest
            while sent[pair] - received[pair] >= window and not stopping:  # the receiver is that far behind
                counts["waited"] += measuring
                await asyncio.sleep(0.005)
            if stopping:
                return
            busy.add(c)
            try:
                await broker.send(
                    f"ceilings{dest}", {"k": "out", "c": conn_id, "x": text, "f": index, "t": time.time()}
                )
            finally:
                busy.discard(c)
            sent[pair] += 1
            if measuring:
                counts["sent"] += 1

    rngs = random.Random(index)
    tasks: list[asyncio.Future] = []
    while True:
        wanted = await asyncio.to_thread(commands.get, True, SETUP_TIMEOUT)  # this node's messages/s; None: stop
        if wanted is None:
            break
        rate = wanted / senders
        if not tasks:
            tasks = [asyncio.ensure_future(connection(c, random.Random(rngs.random()))) for c in range(senders)]
        await asyncio.sleep(warmup)
        del latencies[:]
        counts.update(received=0, sent=0, waited=0)
        cpu0, measuring, started = time.process_time(), True, time.perf_counter()
        await asyncio.sleep(seconds)
        measuring = False
        out.put(
            {
                "node": index,
                "elapsed": time.perf_counter() - started,
                "cpu": time.process_time() - cpu0,
                "latencies": latencies.tobytes(),
                "size": size,
                **counts,
            }
        )
    stopping = True
    for c, t in enumerate(tasks):  # one waiting stops now; one publishing finishes and counts its message
        if c not in busy:
            t.cancel()
    if tasks:
        await asyncio.wait(tasks, timeout=30)
    deadline = time.monotonic() + 10  # what the others published to this node arrives before it unsubscribes
    column = [s * nodes + index for s in others]
    while time.monotonic() < deadline:
        before = sum(received[i] for i in column)
        await asyncio.sleep(0.3)
        if all(received[i] >= sent[i] for i in column) and sum(received[i] for i in column) == before:
            break
    await broker.close()
    out.put({"node": index, "final": True})


@dataclass
class BrokerResult:
    nodes: int
    size: int
    offered: float  # messages/s asked of all the nodes together
    msgs_per_s: float  # delivered to the receiving nodes' handlers
    mb_per_s: float
    p50_ms: float
    p99_ms: float
    redis_cpu_us: float  # Redis's CPU time per message delivered
    node_cpu_us: float  # the nodes' CPU time per message (publishing it and receiving it)
    problems: str = ""

    def held(self, target_ms: float) -> bool:
        return not self.problems and self.msgs_per_s >= 0.9 * self.offered and self.p99_ms < target_ms


def broker_ramp(args: argparse.Namespace, nodes: int, size: int, text: str) -> list[BrokerResult]:
    """``nodes`` processes on one Redis, at each of ``--broker-rates`` in turn until one is not held."""
    ctx = mp.get_context("spawn")
    ready, out = ctx.Queue(), ctx.Queue()
    commands = [ctx.Queue() for _ in range(nodes)]
    sent, received = ctx.RawArray("q", nodes * nodes), ctx.RawArray("q", nodes * nodes)
    procs = [
        ctx.Process(
            target=broker_node,
            args=(
                args.broker,
                i,
                nodes,
                text,
                args.senders,
                args.window,
                args.warmup,
                args.seconds,
                sent,
                received,
                ready,
                commands[i],
                out,
            ),
            daemon=True,
        )
        for i in range(nodes)
    ]
    results: list[BrokerResult] = []
    done = False
    try:
        for p in procs:
            p.start()
        gather(ready, nodes, SETUP_TIMEOUT, "starting the nodes")
        for rate in args.broker_rates:
            for q in commands:
                q.put(rate / nodes)
            time.sleep(args.warmup)
            cpu0 = redis_cpu(args.broker)
            time.sleep(args.seconds)
            cpu1 = redis_cpu(args.broker)
            step = gather(out, nodes, args.warmup + args.seconds + 60, "publishing")
            delivered = sum(r["received"] for r in step)
            elapsed = statistics.fmean(r["elapsed"] for r in step)
            lat = array.array("d")
            for r in step:
                lat.frombytes(r["latencies"])
            lat_ms = [x * 1000 for x in lat]
            r = BrokerResult(
                nodes,
                size,
                rate,
                delivered / elapsed,
                delivered * step[0]["size"] / elapsed / 1e6,
                pct(lat_ms, 50),
                pct(lat_ms, 99),
                (cpu1 - cpu0) / max(delivered, 1) * 1e6,
                sum(x["cpu"] for x in step) / max(delivered, 1) * 1e6,
            )
            results.append(r)
            print(f"  asked {rate:,.0f} msgs/s: {r.msgs_per_s:,.0f} delivered, p99 {r.p99_ms:.1f} ms", flush=True)
            if r.msgs_per_s < 0.9 * rate or r.p99_ms > args.stop_ms:
                break
        for q in commands:
            q.put(None)
        gather(out, nodes, 90, "stopping")
        done = True
    finally:
        stop_children(procs, at_once=not done)
    lost = sum(sent[:]) - sum(received[:])
    if lost > 0:
        results[-1].problems = f"{lost} messages published and never received"
    return results


def broker_steps(args: argparse.Namespace) -> list[BrokerResult]:
    base = state_text()
    results = []
    flush_broker(args.broker)
    try:
        for nodes in args.nodes:
            for size in args.sizes:
                print(
                    f"broker: {nodes} nodes, envelopes of {size} bytes, {args.senders} connections a node", flush=True
                )
                results += broker_ramp(args, nodes, size, envelope_text(base, size))
    finally:
        flush_broker(args.broker)
    return results


# ---------------------------------------------------------------------------------------------- the report
def report(args: argparse.Namespace, db: list[DbResult], broker: list[BrokerResult]) -> None:
    m = args.moves_per_process
    if db:
        print(
            f"\nfenced journal writes: tables writing at random times at the rate asked "
            f"({args.seconds:.0f} s measured at each rate)"
        )
        print(
            f"{'database':<11} {'writers':>7} {'tables':>6} {'fenced':>6} {'asked/s':>8} {'writes/s':>9} "
            f"{'commits/s':>9} {'w/commit':>8} {'p50 ms':>7} {'p99 ms':>7} {'renew ms':>8} {'db us/w':>7} "
            f"{'app us/w':>8}"
        )
        for r in db:
            db_cpu = f"{r.db_cpu_us:.0f}" if r.db_cpu_us is not None else "-"
            print(
                f"{r.database:<11} {r.writers:>7} {r.tables:>6} {'yes' if r.fenced else 'no':>6} {r.offered:>8,.0f} "
                f"{r.writes_per_s:>9,.0f} {r.commits_per_s:>9,.0f} {r.writes_per_s / max(r.commits_per_s, 1):>8.1f} "
                f"{r.p50_ms:>7.1f} {r.p99_ms:>7.1f} {r.renew_max_ms:>8.0f} {db_cpu:>7} {r.app_cpu_us:>8.0f}"
                f"{'  ' + r.problems if r.problems else ''}"
            )
        print(
            "renew ms: the slowest lease renewal (asked -> committed); us/w: CPU microseconds a write, of the "
            "database's processes and of the writers'"
        )
        for database, writers, fenced in dict.fromkeys((r.database, r.writers, r.fenced) for r in db):
            steps = [r for r in db if (r.database, r.writers, r.fenced) == (database, writers, fenced)]
            held = [r for r in steps if r.held(args.target_ms)]
            what = f"{max(r.writes_per_s for r in held):,.0f} writes/s held" if held else "no rate held"
            print(
                f"  {database}, {writers} writers{'' if fenced else ', unfenced'}: {what} "
                f"(a write's p99 under {args.target_ms:.0f} ms)"
            )
    if broker:
        print(
            f"\nbroker messages through Redis pub/sub: {args.senders} connections a node publishing at random "
            f"times at the rate asked ({args.seconds:.0f} s measured at each rate)"
        )
        print(
            f"{'nodes':>5} {'bytes':>6} {'asked/s':>8} {'msgs/s':>8} {'MB/s':>6} {'p50 ms':>7} {'p99 ms':>7} "
            f"{'redis us/msg':>12} {'node us/msg':>11}"
        )
        for r in broker:
            print(
                f"{r.nodes:>5} {r.size:>6} {r.offered:>8,.0f} {r.msgs_per_s:>8,.0f} {r.mb_per_s:>6.1f} {r.p50_ms:>7.1f} "
                f"{r.p99_ms:>7.1f} {r.redis_cpu_us:>12.1f} {r.node_cpu_us:>11.0f}"
                f"{'  ' + r.problems if r.problems else ''}"
            )
        print(
            "redis us/msg: CPU microseconds of Redis's thread a message; node us/msg: of the nodes (publishing "
            "and receiving it)"
        )
        for nodes, size in dict.fromkeys((r.nodes, r.size) for r in broker):
            held = [r for r in broker if (r.nodes, r.size) == (nodes, size) and r.held(args.target_ms)]
            what = f"{max(r.msgs_per_s for r in held):,.0f} msgs/s held" if held else "no rate held"
            print(f"  {nodes} nodes, {size} bytes: {what} (a message's p99 under {args.target_ms:.0f} ms)")
    print(
        f"\na move (classic, 4 connections a table): {WRITES_PER_MOVE} journal writes; "
        f"{MESSAGES_PER_RELAYED_MOVE} broker messages if all its table's connections are relayed, "
        f"x (N-1)/N behind round robin over N processes; a process plays {m:.0f} moves/s (--moves-per-process)"
    )
    pg = [r for r in db if r.database == "postgresql" and r.fenced and r.held(args.target_ms)]
    if pg:
        best = max(pg, key=lambda r: r.writes_per_s)
        moves = best.writes_per_s / WRITES_PER_MOVE
        print(
            f"database: {best.writes_per_s:,.0f} fenced writes/s held on PostgreSQL here = {moves:,.0f} moves/s = "
            f"the writes of {moves / m:.0f} processes"
        )
        if best.db_cpu_us:
            core = 1e6 / best.db_cpu_us
            print(
                f"  PostgreSQL spent {best.db_cpu_us:.0f} us of CPU a write: {core:,.0f} writes/s a core of its own = "
                f"{core / WRITES_PER_MOVE / m:.0f} processes a core"
            )
    held = [r for r in broker if r.held(args.target_ms)]
    if held:
        best = max(held, key=lambda r: r.msgs_per_s)
        per = m * MESSAGES_PER_RELAYED_MOVE  # N processes x m moves x 10.1 x (N-1)/N = m x 10.1 x (N-1)
        print(
            f"broker: {best.msgs_per_s:,.0f} msgs/s held here ({best.nodes} nodes, {best.size} bytes); N processes "
            f"behind round robin send {per:,.0f} x (N-1) msgs/s: N = {1 + best.msgs_per_s / per:.1f}"
        )
        if best.redis_cpu_us > 0:
            core = 1e6 / best.redis_cpu_us
            print(
                f"  Redis spent {best.redis_cpu_us:.1f} us of its one thread a message: {core:,.0f} msgs/s with a "
                f"core of its own: N = {1 + core / per:.0f}"
            )


def numbers(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "--db", help="PostgreSQL URL: its schema barbu_ceilings is made anew and dropped (without it: SQLite only)"
    )
    p.add_argument("--broker", help="Redis URL of a database number of your own, emptied before and after")
    p.add_argument("--only", choices=("db", "broker"), help="measure only one of the two")
    p.add_argument("--writers", type=numbers, default=[2, 4], help="writer processes on PostgreSQL, a ramp each")
    p.add_argument("--sqlite-writers", type=numbers, default=[2], help="writer processes on SQLite, a ramp each")
    p.add_argument("--tables", type=int, default=500, help="tables of each writer process")
    p.add_argument(
        "--rates",
        type=numbers,
        default=[1000, 2000, 4000, 8000, 16000, 32000],
        help="writes/s asked of all the writers together, in turn, until one is not held",
    )
    p.add_argument(
        "--target-ms",
        type=float,
        default=50.0,
        help="a rate is held if 90%% of it is written (delivered) and the p99 of a write (a message) stays under this",
    )
    p.add_argument(
        "--stop-ms",
        type=float,
        default=200.0,
        help="a ramp goes on past a rate over --target-ms (one spike of a shared machine) unless its p99 is over this",
    )
    p.add_argument(
        "--unfenced",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="a ramp on PostgreSQL with writes that carry no lease epoch, for comparison (default: yes)",
    )
    p.add_argument("--lease", type=float, default=5.0, help="seconds of a lease; renewed every third of it")
    p.add_argument("--nodes", type=numbers, default=[2, 4], help="broker nodes (processes), one step each")
    p.add_argument("--sizes", type=numbers, default=[1024, 4096], help="bytes of an envelope, one step each")
    p.add_argument(
        "--broker-rates",
        type=numbers,
        default=[2000, 4000, 8000, 16000, 32000],
        help="messages/s asked of all the nodes together, in turn, until one is not held",
    )
    p.add_argument("--senders", type=int, default=32, help="relayed connections publishing in each node")
    p.add_argument(
        "--window",
        type=int,
        default=1000,
        help="messages on their way from one node to another at most (Redis's buffers stay small)",
    )
    p.add_argument("--seconds", type=float, default=5.0, help="seconds measured at each step")
    p.add_argument("--warmup", type=float, default=1.0, help="seconds before measuring at each step")
    p.add_argument(
        "--moves-per-process",
        type=float,
        default=211.0,
        help="moves/s one server process plays with a p99 under 100 ms (docs/server.md: two processes, 422 moves/s)",
    )
    args = p.parse_args()
    if args.only == "broker" and not args.broker:
        p.error("--only broker needs --broker redis://...")
    if args.db and not args.db.startswith(("postgresql://", "postgres://")):
        p.error("--db is a PostgreSQL URL (SQLite is measured anyway)")
    folder = Path(tempfile.mkdtemp(prefix="barbu-ceilings-"))
    db: list[DbResult] = []
    broker: list[BrokerResult] = []
    try:
        if args.only != "broker":
            db = database_steps(args, folder)
        if args.only != "db":
            if args.broker:
                broker = broker_steps(args)
            else:
                print("no --broker given: the broker is not measured")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    report(args, db, broker)
    return 0 if all(not r.problems for r in [*db, *broker]) else 1


if __name__ == "__main__":
    sys.exit(main())
