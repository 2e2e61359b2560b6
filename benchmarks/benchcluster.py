"""What the many-process benchmarks share: a fresh schema on PostgreSQL, an emptied Redis database, the
server processes (tests/web/webhelpers.py's Server), and a process's health.

Each benchmark works in a schema of its own in the database it is given (dropped and made anew), and
empties only the Redis database number it is given (FLUSHDB, never FLUSHALL): others may share the machine.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for _p in (ROOT / "src", ROOT / "tests", ROOT / "tests" / "web"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from webhelpers import Server, http

#: No per-address limits (every client comes from 127.0.0.1), computer players and deals at once.
NO_LIMITS = (
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
    "--http-connections-per-address",
    "0",
)
FAST = ("--bot-delay", "0", "--deal-pause", "0", *NO_LIMITS)


def fresh_schema(url: str, schema: str) -> str:
    """Drop and make ``schema`` in the PostgreSQL database ``url``; the URL that works in it."""
    from sqlalchemy import create_engine, text

    from barbu.web.db.storage import database_url

    engine = create_engine(database_url(url))
    with engine.begin() as conn:
        conn.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    engine.dispose()
    return f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"


def flush_broker(url: str) -> None:
    """Empty this Redis database (only this one) so no process of an earlier run is taken for alive."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()


def processes(n: int, db: str, broker: str | None, folder: Path, *args: str) -> list[Server]:
    """``n`` server processes on one database (and one broker when there are several), not started."""
    extra = ("--broker", broker) if broker else ()
    return [Server(db, folder / f"server{i}.log", *extra, *args) for i in range(n)]


def health(server: Server) -> dict[str, Any]:
    status, body = http("GET", server.base + "/api/health")
    if status != 200:
        raise RuntimeError(f"{server.base}/api/health answered {status}: {body}")
    return body


def alive(server: Server) -> bool:
    return server.proc is not None and server.proc.poll() is None


def stop_all(servers: list[Server]) -> None:
    """Stop every process of ours still running (SIGTERM, then SIGKILL after 10 s)."""
    for s in servers:
        if alive(s):
            s.stop()


# ---------------------------------------------------------------------------- the lobby listing's cost
def listing_rows(node: int, n: int) -> list[dict[str, Any]]:
    """``n`` lobby rows as a process publishes them (the shape of `Table.summary`, four seats)."""
    seat = {"kind": "guest", "name": "Player", "strength": None, "account": False, "rating": None}
    return [
        {
            "id": f"n{node:02d}t{i:04d}",
            "rules": "classic",
            "players": 4,
            "status": "playing",
            "private": False,
            "rated": False,
            "club_id": None,
            "turn_based": False,
            "seats": [seat] * 4,
            "open_seats": 0,
            "spectators": 0,
            "game": "barbu",
            "deal": i % 28,
        }
        for i in range(n)
    ]


async def listing_cost(broker: str, nodes: int, tables: int, rounds: int, changed: float) -> tuple[float, float]:
    """Bytes of lobby listing one process writes and reads a round, with ``nodes`` processes of ``tables`` listed
    tables each, ``changed`` of whose rows change every round: (before, after).  Before: each process wrote all
    its rows into one hash and read the whole hash (the code before issue 44, run here as it was); after: the
    shared index (`Broker.list_rows`, `Broker.lobby_page`).  The per-address counts, published apart, are left
    out of both."""
    import orjson
    import redis.asyncio as redis

    from barbu.web.cluster.broker import LISTING, Broker

    client = redis.Redis.from_url(broker)
    await client.flushdb()
    rows = {n: listing_rows(n, tables) for n in range(nodes)}

    def churn(r: int) -> None:  # a share of the rows changes each round (a move, a seat taken)
        for n in range(nodes):
            for i in range(int(tables * changed)):
                rows[n][(r * 7 + i) % tables]["deal"] += 1

    before = 0
    for r in range(rounds):
        churn(r)
        for n in range(nodes):
            data = orjson.dumps({"at": 0, "tables": rows[n]})
            await client.hset(LISTING, f"node{n}", data)
            read = await client.hgetall(LISTING)
            if r > 0:
                before += len(data) + sum(len(v) for v in read.values())
    await client.flushdb()
    brokers = [Broker(broker, f"node{n}", lambda env: None) for n in range(nodes)]
    for r in range(rounds):
        churn(r)
        for n, b in enumerate(brokers):
            if r == 1:
                b.listing_bytes = 0  # the first round writes every row once: counted from the second
            await b.list_rows(rows[n], 60)
            await b.lobby_page()
    after = sum(b.listing_bytes for b in brokers)
    for b in brokers:
        await b.redis.aclose()
    await client.flushdb()
    await client.aclose()
    per = nodes * (rounds - 1)
    return before / per, after / per


def main() -> int:
    import argparse
    import asyncio

    p = argparse.ArgumentParser(description="The lobby listing's bytes per process per round, before and after.")
    p.add_argument("--broker", default="redis://127.0.0.1:6379/9", help="a Redis database this may empty")
    p.add_argument("--nodes", default="2,4,8")
    p.add_argument("--tables", type=int, default=100, help="listed tables per process")
    p.add_argument("--rounds", type=int, default=6)
    p.add_argument("--changed", type=float, default=0.3, help="share of each process's rows changed a round")
    args = p.parse_args()
    print(f"{args.tables} listed tables a process, {args.changed:.0%} of the rows changed a round")
    print(f"{'processes':>9} {'before B/round':>15} {'after B/round':>14}")
    for n in (int(x) for x in args.nodes.split(",")):
        before, after = asyncio.run(listing_cost(args.broker, n, args.tables, args.rounds, args.changed))
        print(f"{n:>9} {before:>15,.0f} {after:>14,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
