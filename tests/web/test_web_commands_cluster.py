"""Every command answered across a kill -9, through a real nginx (deploy/nginx-barbu.conf) in front of three
`barbu serve --broker` processes on PostgreSQL and Redis.

The players behave like the page (static/js/net.js; `pageseat.PageSeat`): they keep each command not answered
yet and send it again, with its id, after every welcome; they give a connection up when no welcome comes within a few
seconds or when nothing (not even a beat) came for 2.5 heartbeats, and reconnect through nginx.  Mid-play the
process that owns a table with a clock is killed with SIGKILL while that table waits for a person who is
thinking.  Then:

- every table moves again: each has a move acknowledged within `BOUND` seconds of the kill;
- 0 acknowledged moves lost (each stored once at its place; along each log the lease epoch never goes down);
- 0 commands left unanswered, none refused: each was acknowledged, the lost ones found again after the
  reconnection (acknowledged by the new owner from the journal, or applied there once);
- the thinking player's clock went on from what it had left, not a full allowance;
- 0 tracebacks in the surviving processes' logs.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import postgres_url, redis_url, reset_postgres
from pageseat import PageSeat, check_journal, events, owner_of
from webhelpers import Nginx, Server, http

LEASE = "2"
BOUND = 30.0  # seconds after the kill by which every table has moved again (about 4 s is usual here)
FAST = ("--bot-delay", "0", "--deal-pause", "0", "--grace", "1000", "--lease", LEASE, "--heartbeat", "2")
FAST += ("--tables-per-hour", "0", "--connections-per-address", "0", "--bot-tables-per-address", "0")
FAST += ("--open-tables-per-address", "0", "--seats-per-address", "0", "--forwarded-allow-ips", "127.0.0.1")


def table(base: str, rules: str, humans: int, clock: str | None = None) -> tuple[str, list[str]]:
    """A table made and seated through nginx: ``humans`` guests, then computer players."""
    players = 2 if rules.startswith("besigue") else 4
    status, data = http("POST", base + "/api/tables", {"rules": rules, **({"clock": clock} if clock else {})})
    assert status == 201, data
    tid, creator = data["id"], data["creator"]
    tokens = []
    for seat in range(players):
        if seat < humans:
            status, got = http("POST", f"{base}/api/tables/{tid}/seats", {"seat": seat, "name": f"P{seat}"})
            tokens.append(got["token"])
        else:
            body = {"seat": seat, "strength": "random", "token": creator}
            status, got = http("POST", f"{base}/api/tables/{tid}/bots", body)
        assert status == 200, got
    return tid, tokens


@pytest.mark.slow
def test_kill_9_through_nginx_every_command_answered_and_the_clock_carried(serve: Any, tmp_path: Path) -> None:
    db = postgres_url()
    reset_postgres(db)
    broker = redis_url()
    servers: list[Server] = [serve("--broker", broker, *FAST, db=db, start=False) for _ in range(3)]
    for s in servers:
        s.start()
    lb = Nginx(servers, tmp_path).start()
    try:
        seats: dict[str, list[PageSeat]] = {}
        for i, (rules, humans) in enumerate([("classic", 2)] * 3 + [("classic", 4), ("besigue", 2)] * 2):
            tid, tokens = table(lb.base, rules, humans)
            seats[tid] = [PageSeat(lb.base, tid, tok, 100 * i + n) for n, tok in enumerate(tokens)]
        # A Bésigue table with a minute a move: its first player thinks across the kill.
        clocked, tokens = table(lb.base, "besigue", 2, clock="60+0")
        seats[clocked] = [PageSeat(lb.base, clocked, tok, 7 + n) for n, tok in enumerate(tokens)]
        nodes = {http("GET", s.base + "/api/health")[1]["process"]["node"]: s for s in servers}
        victim = nodes[owner_of(db, clocked)]

        async def run() -> tuple[float, dict[str, int]]:
            stop = asyncio.Event()
            every = [c for cs in seats.values() for c in cs]
            for c in seats[clocked]:
                c.hold = True  # both think: whoever's turn it is waits across the kill
            tasks = [asyncio.create_task(c.play(stop)) for c in every]
            try:
                return await watch(stop)
            finally:  # the seats stop when told (after the answers they wait for), never by cancellation
                stop.set()
                _, late = await asyncio.wait(tasks, timeout=40)
                for t in late:
                    t.cancel()
                assert not late, f"{len(late)} seats did not stop"

        async def watch(stop: asyncio.Event) -> tuple[float, dict[str, int]]:
            deadline = time.monotonic() + 60
            while any(len(c.acked) < 2 for tid, cs in seats.items() if tid != clocked for c in cs):
                assert time.monotonic() < deadline, "play did not start"
                await asyncio.sleep(0.1)
            before = {tid: max(c.version or 0 for c in cs) for tid, cs in seats.items()}
            killed = time.monotonic()
            await asyncio.to_thread(victim.kill9)
            # Every table moves again: a move acknowledged since the kill, the clocked one once its player acts.
            while True:
                late = [tid for tid, cs in seats.items() if tid != clocked and max(c.acked_at for c in cs) < killed]
                welcomed = any(at > killed for c in seats[clocked] for at, _ in c.welcomes)
                if not late and welcomed:
                    break
                assert time.monotonic() < killed + BOUND, f"tables that did not move again: {late}"
                await asyncio.sleep(0.1)
            for c in seats[clocked]:
                c.hold = False
            while max(c.acked_at for c in seats[clocked]) < killed:
                assert time.monotonic() < killed + BOUND, json.dumps([c.report() for c in seats[clocked]])
                await asyncio.sleep(0.1)
            await asyncio.sleep(0.5)
            stop.set()
            return killed, before

        killed, before = asyncio.run(run())
        every = [c for cs in seats.values() for c in cs]
        assert sum(len(c.pending) for c in every) == 0, "commands left unanswered"
        refused = [m for c in every for m in c.refused]
        assert not refused, json.dumps(refused) + json.dumps({m["table"]: events(db, m["table"])[-6:] for m in refused})
        epochs = check_journal(db, seats)
        assert len(set(epochs[clocked])) > 1, "the clocked table was not taken over"
        # The clock went on from what was left: the thinker's turn after the takeover had less than a minute.
        turns = [
            m["table"]["clock"]["turn"]
            for c in seats[clocked]
            for at, m in c.welcomes
            if at > killed and m["table"]["clock"]["turn"] is not None
        ]
        assert turns and all(t["version"] == before[clocked] for t in turns), turns
        assert all(t["move_left"] <= 59 for t in turns), turns
        for s in servers:
            if s is not victim:
                assert "Traceback" not in s.log(), s.log()[-3000:]
        moved = [min(at for c in cs for at, v in c.seen if v > before[tid]) - killed for tid, cs in seats.items()]
        print(
            f"kill -9: every table moved again {max(moved):.1f} s after it at most (median "
            f"{sorted(moved)[len(moved) // 2]:.1f} s); {sum(c.resent for c in every)} commands sent again, "
            f"{sum(c.duplicates for c in every)} found applied; {sum(c.connections for c in every)} connections"
        )
    finally:
        lb.stop()
