"""A duplicate event of many tables of computer players at a human pace, on this machine.

Accounts are written straight to the database (no password hashing: it is not what is measured), register for
one event of ``--tables`` tables of four, which starts; then every player leaves, so that the stand-in plays
every seat, each move ``--pace`` seconds after the one before it, as people play.  Measured:

- a move's lateness: how long after its due time (the previous move plus the pace) each computer move was made,
  over every move of every table (median, p99, worst): what the server's load adds to the pace;
- the server's time to score the event after each deal: `Events.page`, which reads every table's finished
  deals and computes the standings and travellers (median and worst over the calls made while the tables play);
- the push (`barbu.web.events.push`) to one page held open: how many checks of what the page shows the tables'
  deals caused (each a digest of the public page), their time, and how many "changed" notices the page got.

    PYTHONPATH=src python benchmarks/events.py --tables 50 --pace 1.0 --deals 1
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import select

from barbu.web import Settings
from barbu.web.accounts.store import USERS, _user, add_user
from barbu.web.app import create_app
from barbu.web.events.service import Events
from barbu.web.tables.actor import Table


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


async def run(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="barbu-events-"))
    settings = Settings(
        db_url=f"sqlite:///{folder / 'bench.db'}",
        bot_delay=args.pace,
        deal_pause=args.pace,
        stand_in=args.strength,
        max_tables=10_000,
        burst=10_000,
        rate=10_000.0,
    )
    app = create_app(settings)
    lobby = app.state.lobby
    await lobby.start()
    events: Events = app.state.events
    events.interval = 0.5
    moves: dict[str, float] = {}
    late: list[float] = []
    original = Table.after_move

    def timed(self: Table, actor: int, action: object) -> None:
        t = time.monotonic()
        before = moves.get(self.id)
        if before is not None and actor >= 0 and self.seats[actor].kind == "bot":
            late.append(max(0.0, t - before - args.pace))
        moves[self.id] = t
        original(self, actor, action)

    Table.after_move = timed  # type: ignore[method-assign]
    try:
        players = args.tables * 4
        with lobby.store.engine.begin() as conn:
            ids = [add_user(conn, f"p{i}", f"p{i}", f"p{i}", "-") for i in range(players)]
            director = ids[0]
            users = {r.id: _user(r) for r in conn.execute(select(USERS))}
        ev = await events.create(
            users[director],
            {
                "name": "Benchmark",
                "rules": "classic",
                "format": "one-match",
                "deals": args.deals,
                "clock": "relaxed",
                "strength": args.strength,
            },
        )
        for uid in ids:
            await events.register(ev.id, users[uid])
        t0 = time.perf_counter()
        await events.start(ev.id, users[director])
        made = time.perf_counter() - t0
        for uid in ids:
            await events.leave(ev.id, users[uid])
        print(
            f"{args.tables} tables of 4 made and seated in {made:.2f} s; pace {args.pace:g} s a move, "
            f"{args.deals} deal(s) a table, computer players '{args.strength}'"
        )
        scoring: list[float] = []
        checking: list[float] = []
        digest = events.push._digest

        async def timed_digest(event_id: int) -> str | None:
            t2 = time.perf_counter()
            try:
                return await digest(event_id)
            finally:
                checking.append(time.perf_counter() - t2)

        events.push._digest = timed_digest
        page_box = await events.push.watch(ev.id)
        notices = 0

        async def page_reads() -> None:
            nonlocal notices
            while await page_box.get() is not None:
                notices += 1

        reader = asyncio.get_running_loop().create_task(page_reads())
        events.start_watching()
        started = time.monotonic()
        while True:
            t1 = time.perf_counter()
            page = await events.page(ev.id, None)
            scoring.append(time.perf_counter() - t1)
            if page["status"] == "over":
                break
            if time.monotonic() - started > args.limit:
                print("the event did not finish within the limit", file=sys.stderr)
                break
            await asyncio.sleep(2.0)
        wall = time.monotonic() - started
        boards = len(page["travellers"])
        print(f"event over in {wall:.0f} s: {len(late)} computer moves, {boards} board(s) at {args.tables} tables")
        print(
            f"a move's lateness beyond the pace: median {1000 * statistics.median(late):.1f} ms, "
            f"p99 {1000 * pct(late, 0.99):.1f} ms, worst {1000 * max(late):.1f} ms"
        )
        print(
            f"scoring the event (standings + travellers, {len(scoring)} calls): median "
            f"{1000 * statistics.median(scoring):.1f} ms, worst {1000 * max(scoring):.1f} ms; per deal scored "
            f"{1000 * scoring[-1] / max(1, boards * args.tables):.2f} ms"
        )
        print(
            f"the push to one open page: {len(checking)} checks for {boards * args.tables} table-deals "
            f"(median {1000 * statistics.median(checking):.1f} ms, worst {1000 * max(checking):.1f} ms), "
            f"{notices} notices sent to the page"
        )
        reader.cancel()
    finally:
        Table.after_move = original  # type: ignore[method-assign]
        await events.stop()
        await lobby.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--pace", type=float, default=1.0, help="seconds between moves (a person's pace)")
    ap.add_argument("--deals", type=int, default=1, help="deals each table plays")
    ap.add_argument("--strength", default="rule", help="the computer players (the stand-in)")
    ap.add_argument("--limit", type=float, default=900.0, help="seconds before giving up")
    asyncio.run(run(ap.parse_args()))


if __name__ == "__main__":
    main()
