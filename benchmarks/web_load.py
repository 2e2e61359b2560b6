"""Load benchmark for the web server: N tables of computer players over real WebSocket connections.

Starts ``barbu serve`` in its own process (or uses --url), creates N tables,
seats four clients at each, and lets every client play a random legal action
at each of its turns, after an optional think time.  The clients run here, in
a separate process from the server.  Prints moves per second and the
round-trip time from sending a command to receiving the resulting state
(p50, p99, max), then checks in the database that every acknowledged move was
stored exactly once: no lost and no duplicated moves.

    python benchmarks/web_load.py --tables 125 --seconds 30
    python benchmarks/web_load.py --tables 125 --seconds 30 --think 1.0
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from barbu.web.storage import Store  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def post(base: str, path: str, body: dict) -> dict:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


class Stats:
    def __init__(self) -> None:
        self.rtts: list[float] = []
        self.moves = 0
        self.errors: dict[str, int] = {}
        self.measuring = False
        self.sending = True


class SeatClient:
    """One seat: at each of its turns, waits its think time and plays a random legal action."""

    def __init__(self, url: str, token: str, think: float, stats: Stats, rng: random.Random,
                 acked: list[tuple[int, str]]) -> None:
        self.url, self.token, self.think, self.stats, self.rng, self.acked = url, token, think, stats, rng, acked
        self.acted_on: int | None = None
        self.pending: dict[str, tuple[str, float, int]] = {}  # id -> (action, sent at, version)
        self.waiting_state: tuple[int, float, bool] | None = None  # version expected, sent at, measured

    async def run(self, ready: asyncio.Event) -> None:
        async with connect(self.url, max_size=2 ** 20) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            ready.set()
            async for raw in ws:
                msg = json.loads(raw)
                kind = msg["type"]
                if kind == "ack":
                    action, sent, _ = self.pending.pop(msg["id"])
                    self.acked.append((msg["version"], action))
                    if self.stats.measuring:
                        self.stats.moves += 1
                elif kind == "error":
                    self.stats.errors[msg["code"]] = self.stats.errors.get(msg["code"], 0) + 1
                st = msg.get("state")
                if not st:
                    continue
                if self.waiting_state and st["version"] >= self.waiting_state[0]:
                    version, sent, measured = self.waiting_state
                    if measured:
                        self.stats.rtts.append(time.perf_counter() - sent)
                    self.waiting_state = None
                if st["to_act"] == st["seat"] and st["legal"] and self.acted_on != st["version"] \
                        and self.stats.sending:
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
        await ws.send(json.dumps({"type": "act", "action": action, "version": st["version"], "id": cid}))


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


async def run(args: argparse.Namespace, base: str, db: str | None) -> int:
    ws_base = base.replace("http://", "ws://")
    rng = random.Random(args.seed)
    t0 = time.perf_counter()
    tables: dict[str, dict[int, str]] = {}
    for i in range(args.tables):
        tid = post(base, "/api/tables", {"rules": args.rules})["id"]
        tables[tid] = {s: post(base, f"/api/tables/{tid}/seats", {"seat": s, "name": f"load {i}.{s}"})["token"]
                       for s in range(4)}
    print(f"{args.tables} tables created and seated in {time.perf_counter() - t0:.1f}s")
    stats = Stats()
    acked: dict[str, list[tuple[int, str]]] = {tid: [] for tid in tables}
    clients = [SeatClient(f"{ws_base}/ws/{tid}", tok, args.think, stats, random.Random(rng.random()), acked[tid])
               for tid, toks in tables.items() for tok in toks.values()]
    readies = [asyncio.Event() for _ in clients]
    tasks = []
    for c, r in zip(clients, readies):
        tasks.append(asyncio.create_task(c.run(r)))
    await asyncio.gather(*(r.wait() for r in readies))
    print(f"{len(clients)} WebSocket connections open; warming up {args.warmup}s")
    await asyncio.sleep(args.warmup)
    # The 500 clients share this one process: keep its own collector pauses out of the round trips.
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 10)
    stats.measuring = True
    start = time.perf_counter()
    await asyncio.sleep(args.seconds)
    stats.measuring = False
    elapsed = time.perf_counter() - start
    stats.sending = False
    await asyncio.sleep(2)  # let the commands in flight be answered
    in_flight = sum(len(c.pending) for c in clients)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    rtts_ms = [x * 1000 for x in stats.rtts]
    print(f"rules {args.rules}, think time {args.think}s (uniform 0..{2 * args.think}s)")
    print(f"moves: {stats.moves} in {elapsed:.1f}s = {stats.moves / elapsed:.0f} moves/s "
          f"over {args.tables} tables / {len(clients)} connections")
    print(f"round trip (command sent -> new state received), ms: p50 {pct(rtts_ms, 50):.1f}  "
          f"p99 {pct(rtts_ms, 99):.1f}  max {max(rtts_ms, default=float('nan')):.1f}  "
          f"mean {statistics.fmean(rtts_ms) if rtts_ms else float('nan'):.1f}")
    print(f"errors from the server: {stats.errors or 'none'}; unanswered commands at the end: {in_flight}")
    if db is None:
        print("no database given: stored moves not checked")
        return 0
    store = Store(db, run_migrations=False)
    lost = duplicated = total = 0
    for tid, toks in tables.items():
        events = store.events(tid)
        seats = set(toks)
        stored = [(e[0] + 1, e[2]) for e in events if e[1] in seats]
        total += len(stored)
        stored_set = set(stored)
        lost += sum(1 for a in acked[tid] if a not in stored_set)
        duplicated += len(stored) - len(stored_set)
        extra = len(stored_set - set(acked[tid]))
        duplicated += max(0, extra - in_flight)  # a stored move nobody acknowledged (beyond those in flight)
    store.close()
    acked_total = sum(len(a) for a in acked.values())
    print(f"stored player moves: {total}; acknowledged: {acked_total}; lost: {lost}; duplicated: {duplicated}")
    return 1 if lost or duplicated else 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=125)
    p.add_argument("--seconds", type=float, default=30)
    p.add_argument("--warmup", type=float, default=3)
    p.add_argument("--think", type=float, default=0.0, help="mean seconds a client waits before acting")
    p.add_argument("--rules", default="classic")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--db", help="database URL for the server it starts (default: SQLite in a temporary folder)")
    p.add_argument("--url", help="use a running server instead of starting one (its database is not checked)")
    args = p.parse_args()
    try:
        import uvloop
        uvloop.install()
    except ImportError:
        pass
    if args.url:
        return asyncio.run(run(args, args.url.rstrip("/"), None))
    tmp = tempfile.mkdtemp(prefix="barbu-load-")
    db = args.db or f"sqlite:///{Path(tmp) / 'load.db'}"
    port = free_port()
    log = open(Path(tmp) / "server.log", "wb")
    server = subprocess.Popen([sys.executable, "-m", "barbu", "serve", "--port", str(port), "--db", db,
                               "--bot-delay", "0", "--deal-pause", "0", "--grace", "3600",
                               "--tables-per-hour", "0", "--connections-per-address", "0",
                               "--log-level", "warning"], stdout=log, stderr=subprocess.STDOUT,
                              env=dict(os.environ, PYTHONPATH=str(ROOT / "src")))
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(base + "/api/tables", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        print(f"server pid {server.pid} on {base}, database {db.split('@')[-1]}")
        return asyncio.run(run(args, base, db))
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


if __name__ == "__main__":
    sys.exit(main())
