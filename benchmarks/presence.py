"""Presence's fan-out (issue 45): 10,000 accounts online, each followed by 50 others, each changing its presence
(away, then back); how many presence updates a second the hub tells, and how long from a change to the last of
its followers' pages being written (p50, p99).

    python benchmarks/presence.py                                   # one process, in memory
    python benchmarks/presence.py --redis redis://127.0.0.1:6379/0  # two hubs on two broker channels, half the
                                                                    # pages on each: routing hashes, publishes

The hub's and presence's own code (`barbu.web.live.hub.Live`, `barbu.web.social.presence.Presence`): pages opened
with `Live.open`, changes made with `Live.set_away`, pushes through `Presence.push` and `Live.send_many`.  The
database is left out: the followers and an account's facts come from memory (their reads are one indexed query
each, measured by the server's own tests), so the figures are the fan-out's.  Each page's socket is a stand-in
that notes when it was written to.  Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from barbu.web.live.hub import Live, Page  # noqa: E402
from barbu.web.social.presence import Facts, Presence  # noqa: E402


class Socket:
    """A page's socket: counts what it is sent, and when the last message came."""

    def __init__(self, deliveries: list[float]) -> None:
        self.deliveries = deliveries
        self.closing = None

    def send(self, text: str) -> None:
        self.deliveries.append(time.perf_counter())

    def close(self, code: int = 1000, reason: str = "") -> None:
        pass


async def hubs(redis_url: str | None) -> list[Live]:
    if redis_url is None:
        return [Live()]
    from barbu.web.cluster.broker import Broker

    out = []
    for i in range(2):
        live = Live()
        node = f"bench-{i}-{random.getrandbits(24):x}"
        handlers: dict[str, Any] = {}
        broker = Broker(redis_url, node, lambda env, h=handlers: h[env["k"]](env) if env.get("k") in h else None)
        await broker.start()
        live.attach(SimpleNamespace(broker=broker, node=node, handlers=handlers))  # type: ignore[arg-type]
        out.append(live)
    return out


async def run(accounts: int, follows: int, redis_url: str | None, concurrency: int, wait: float = 120) -> None:
    rng = random.Random(45)
    followers = {a: rng.sample(range(accounts), follows) for a in range(accounts)}
    facts = {a: Facts(f"p{a}", False, None, False) for a in range(accounts)}

    async def facts_of(ids: list[int]) -> dict[int, Facts]:
        return {a: facts[a] for a in ids}

    async def followers_of(a: int) -> list[int]:
        return followers[a]

    lives = await hubs(redis_url)
    deliveries: list[float] = []
    presences = [Presence(live, facts_of, followers_of, debounce=0.0) for live in lives]
    for p in presences:  # the benchmark calls push itself: the hub's hook would schedule it too
        p.live.on_change.clear()
    pages: dict[int, Page] = {}
    for a in range(accounts):
        live = lives[a % len(lives)]
        page = Page(Socket(deliveries), a)  # type: ignore[arg-type]
        pages[a] = page
        live.open(page)
    if redis_url is not None:
        for live in lives:
            await live.renew()  # every account's routing hash written
    deliveries.clear()

    latencies: list[float] = []
    sem = asyncio.Semaphore(concurrency)

    async def change(a: int, away: bool) -> None:
        async with sem:
            live = lives[a % len(lives)]
            at = time.perf_counter()
            live.set_away(pages[a], away)
            await presences[a % len(lives)].push(a)
            latencies.append(time.perf_counter() - at)  # written here, or published for the other hub's pages

    expected = accounts * 2 * follows
    start = time.perf_counter()
    for away in (True, False):
        await asyncio.gather(*(change(a, away) for a in range(accounts)))
    while len(deliveries) < expected and time.perf_counter() - start < wait:
        await asyncio.sleep(0.01)
    took = time.perf_counter() - start
    updates = sum(p.pushes for p in presences)
    lat = sorted(latencies)
    p99 = lat[int(len(lat) * 0.99) - 1] if lat else 0.0
    mode = "two hubs over Redis" if redis_url else "one process"
    print(f"presence fan-out, {mode}: {accounts} accounts online, {follows} followers each")
    print(f"  {updates} presence updates told in {took:.2f} s: {updates / took:,.0f} updates/s")
    print(f"  {len(deliveries):,} page deliveries of {expected:,}: {len(deliveries) / took:,.0f} deliveries/s")
    if redis_url is not None and deliveries:
        print(f"  last delivery {deliveries[-1] - start:.2f} s after the first change")
    print(
        f"  change to its push written (all followers here, or published): p50 {statistics.median(lat) * 1000:.2f} ms, "
        f"p99 {p99 * 1000:.2f} ms (with {concurrency} changes at once)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--accounts", type=int, default=10_000)
    ap.add_argument("--follows", type=int, default=50)
    ap.add_argument("--redis", default=None, help="two hubs through this Redis (the several-process path)")
    ap.add_argument("--concurrency", type=int, default=100, help="changes in flight at once")
    ap.add_argument("--wait", type=float, default=120, help="seconds to wait at most for the deliveries")
    args = ap.parse_args()
    asyncio.run(run(args.accounts, args.follows, args.redis, args.concurrency, args.wait))


if __name__ == "__main__":
    main()
