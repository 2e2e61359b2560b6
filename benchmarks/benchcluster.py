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
