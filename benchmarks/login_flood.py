"""Another visitor's request times, alone and while 4 addresses flood log-ins (issue 42).

Starts one ``barbu serve`` on a fresh SQLite database (it believes X-Forwarded-For from 127.0.0.1, so the
flooders can be 4 addresses), makes the accounts, then:

1. a visitor reads a player's profile (``GET /api/players/{name}``: a database read in the default thread
   pool) ``--requests`` times, one after another, alone;
2. the same while 4 addresses each keep ``--concurrency`` log-ins under way: each flooder logs in to its own
   account with its right password (Argon2 each time, never throttled: the worst case for the hashing pool)
   and, in between, guesses at a victim's password (throttled).

Prints the visitor's p50 and p99 both times and their ratio (the aim: p99 within 2x of alone), and what the
flood's log-ins were answered.  The visitor is this process's asyncio, the flood another process's (plain
HTTP/1.1, one connection a request), both on the same machine as the server: the flood's own processor time is
taken from the server's unless ``--flood-nice`` lowers its priority, as if it came from elsewhere.

    python benchmarks/login_flood.py
    python benchmarks/login_flood.py --requests 400 --concurrency 16 --hashing-threads 2 --hashing-queue 16
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "a flooder's own passphrase"
VISITED = "Visitor Vera"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def request(port: int, method: str, path: str, body: dict | None = None, address: str = "") -> tuple[int, dict]:
    """One HTTP/1.1 request on a connection of its own: (status, JSON body)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    data = json.dumps(body).encode() if body is not None else b""
    head = [f"{method} {path} HTTP/1.1", f"host: 127.0.0.1:{port}", "connection: close"]
    if address:
        head.append(f"x-forwarded-for: {address}")
    if body is not None:
        head += ["content-type: application/json", f"content-length: {len(data)}"]
    writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
    await writer.drain()
    raw = await reader.read()
    writer.close()
    status = int(raw.split(b" ", 2)[1])
    payload = raw.split(b"\r\n\r\n", 1)[1]
    try:
        return status, json.loads(payload or b"null") or {}
    except ValueError:
        return status, {}


async def visitor(port: int, n: int) -> list[float]:
    out = []
    path = "/api/players/" + VISITED.replace(" ", "%20")
    for _ in range(n):
        t = time.perf_counter()
        status, _ = await request(port, "GET", path, address="192.0.2.200")
        assert status == 200, status
        out.append((time.perf_counter() - t) * 1000)
    return out


async def flooder(port: int, address: str, own: str, stop: asyncio.Event, answers: Counter) -> None:
    i = 0
    while not stop.is_set():
        i += 1
        if i % 2:
            body = {"name": own, "password": PASSWORD}
        else:
            body = {"name": "Victim Victor", "password": f"guess {i}"}
        status, found = await request(port, "POST", "/api/account/login", body, address)
        answers[f"{status} {found.get('code', 'ok')}"] += 1


def pct(ms: list[float], p: float) -> float:
    ms = sorted(ms)
    return ms[min(len(ms) - 1, int(len(ms) * p))]


async def flood(port: int, concurrency: int, stop: Any) -> Counter:
    """4 addresses, ``concurrency`` log-ins under way each, until ``stop`` (a process's event) is set."""
    done, answers = asyncio.Event(), Counter()
    tasks = [
        asyncio.create_task(flooder(port, f"203.0.113.{k}", f"Flooder {k}", done, answers))
        for k in range(4)
        for _ in range(concurrency)
    ]
    while not stop.is_set():
        await asyncio.sleep(0.05)
    done.set()
    await asyncio.gather(*tasks)
    return answers


def flood_process(port: int, concurrency: int, stop: Any, out: Any, nice: int) -> None:
    os.nice(nice)
    out.put(dict(asyncio.run(flood(port, concurrency, stop))))


async def run(port: int, n: int, concurrency: int, nice: int) -> None:
    for name, address in [(VISITED, "192.0.2.1"), ("Victim Victor", "192.0.2.2")] + [
        (f"Flooder {k}", f"203.0.113.{k}") for k in range(4)
    ]:
        status, body = await request(port, "POST", "/api/account/signup", {"name": name, "password": PASSWORD}, address)
        assert status == 201, (status, body)
    await visitor(port, 20)  # warm up
    alone = await visitor(port, n)
    stop, out = multiprocessing.Event(), multiprocessing.Queue()
    flooding = multiprocessing.Process(target=flood_process, args=(port, concurrency, stop, out, nice))
    flooding.start()
    await asyncio.sleep(1.0)  # the flood under way
    t0 = time.perf_counter()
    during = await visitor(port, n)
    seconds = time.perf_counter() - t0
    stop.set()
    answers = Counter(out.get(timeout=120))
    flooding.join(30)
    print(
        f"visitor alone          p50 {statistics.median(alone):7.1f} ms   p99 {pct(alone, 0.99):7.1f} ms   ({n} reads)"
    )
    print(
        f"visitor during flood   p50 {statistics.median(during):7.1f} ms   p99 {pct(during, 0.99):7.1f} ms   "
        f"({n} reads in {seconds:.1f} s)"
    )
    print(f"p99 during / alone: {pct(during, 0.99) / pct(alone, 0.99):.2f}x (aim: within 2x)")
    total = sum(answers.values())
    print(f"flood: 4 addresses x {concurrency} log-ins under way, {total} answered:")
    for what, k in answers.most_common():
        print(f"    {k:6d}  {what}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=300, help="the visitor's reads, alone and during the flood")
    ap.add_argument("--concurrency", type=int, default=8, help="log-ins under way per flooding address")
    ap.add_argument(
        "--flood-nice",
        type=int,
        default=0,
        help="the flooding process's nice value (a flood from another machine costs this one no processor)",
    )
    ap.add_argument("--hashing-threads", type=int, default=None)
    ap.add_argument("--hashing-queue", type=int, default=None)
    args = ap.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        extra = []
        if args.hashing_threads is not None:
            extra += ["--hashing-threads", str(args.hashing_threads)]
        if args.hashing_queue is not None:
            extra += ["--hashing-queue", str(args.hashing_queue)]
        cmd = [sys.executable, "-m", "barbu", "serve", "--port", str(port), "--db", f"sqlite:///{tmp}/web.db"]
        cmd += ["--forwarded-allow-ips", "127.0.0.1", "--http-connections-per-address", "0"]
        cmd += ["--signups-per-hour", "0", *extra]
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
        log = open(Path(tmp) / "server.log", "wb")
        server = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=tmp)
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=2).read()
                    break
                except OSError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise SystemExit("the server did not start:\n" + (Path(tmp) / "server.log").read_text())
                    time.sleep(0.1)
            asyncio.run(run(port, args.requests, args.concurrency, args.flood_nice))
        finally:
            server.terminate()
            server.wait(10)
            log.close()
        tracebacks = (Path(tmp) / "server.log").read_text(errors="replace").count("Traceback")
        print(f"tracebacks in the server's log: {tracebacks}")


if __name__ == "__main__":
    main()
