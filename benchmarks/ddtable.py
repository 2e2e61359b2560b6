"""Exact tables where players look (issue 46): the time to open a daily deal's double-dummy table, stored
(solved in the background when the day began) against solved on demand, and a classic deal's table solved on
one core against every core.

    python benchmarks/ddtable.py                        # today's first classic daily board, budgets as served
    python benchmarks/ddtable.py --background 1 --web 0.5 --parallel 0.2   # shorter

A daily set's first classic board is dealt as the server deals it (`barbu.duplicate.daily`, a fixed secret) and
played to its end by the daily computer player in every seat, giving the record a finisher's replay reads.  Its
table is solved the way `barbu serve` does it in the background (`barbu.web.replay.solved.SolvedTables`: a
low-priority pool of ``--workers`` processes, ``--background`` seconds a cell) into a SQLite database in a
temporary folder; then the replay opens it as a player's request does (`barbu.web.replay.service.solve_dd`: the
record replayed, the stored cells read and checked, the page's JSON made), timed over ``--repeat`` openings;
then the same table solved on demand at the replay's budget (``--web`` seconds a cell) on every core, as it was
before.  Last, one classic deal's table at ``--parallel`` seconds a cell with one worker and with one a core
(the same cells: a budget counts positions).  Prints figures; asserts nothing.

Measured on this project's 2-core machine, 2026-11-29, shared with five other people's tests (load 13 to 16):
``--background 2 --web 2 --parallel 0.1``: background 817 s on one low-priority worker, 18 of 36 cells exact;
opening the stored table 91 ms (median of 20, worst 250 ms); on demand 323 s on 2 cores, 18 of 36 exact; a
classic deal's table at 0.1 s a cell 17.2 s on one worker, 14.8 s on two, the same cells.
``--background 0.5 --web 0.2 --parallel 0.05 --repeat 5``: 109 s, 16 of 36 exact; 38 ms (worst 43 ms); 40 s,
13 of 36; 14.7 s against 8.3 s (1.77x).  See docs/server.md ("Tables solved in the background").
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from io import StringIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from barbu.analysis.ddtable import DEFAULT_CELL_SECONDS, dd_table  # noqa: E402
from barbu.duplicate.daily import BoardPlay, daily_set  # noqa: E402
from barbu.records.barbu import write_record  # noqa: E402
from barbu.web.db.storage import Store  # noqa: E402
from barbu.web.replay.service import solve_dd, upload_source  # noqa: E402
from barbu.web.replay.solved import SolvedTables, daily_start, solving_pool  # noqa: E402


def cells(table: dict) -> tuple[int, int]:
    """(exact cells, cells) of a table as the page gets it."""
    every = [c for r in table["rows"] for c in r["cells"]]
    return sum(c["exact"] for c in every), len(every)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--background", type=float, default=6.0, help="seconds a cell in the background (serve's)")
    ap.add_argument("--web", type=float, default=DEFAULT_CELL_SECONDS, help="seconds a cell on demand (the replay's)")
    ap.add_argument("--parallel", type=float, default=0.2, help="seconds a cell, serial against parallel")
    ap.add_argument("--workers", type=int, default=max(1, (os.cpu_count() or 2) // 2), help="background workers")
    ap.add_argument("--repeat", type=int, default=20, help="openings of the stored table timed")
    ap.add_argument("--day", default="2026-11-29")
    args = ap.parse_args()
    cores = os.cpu_count() or 1

    dset = daily_set(b"benchmark" * 4, args.day, "classic", "rule")
    play = BoardPlay(dset, 0, computer=True)
    out = StringIO()
    write_record(play.match, out, {"daily": {"day": args.day, "game": "classic", "board": 0, "seat": play.seat}})
    src = upload_source(out.getvalue())
    print(f"daily board: classic, {args.day}, board 1; {cores} cores")

    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{folder}/bench.db")  # the schema made as `barbu serve` makes it
        engine = store.engine
        solved = SolvedTables(lambda: store, workers=args.workers, seconds=args.background)
        solved.add_daily(dset.__class__(dset.day, dset.game, dset.rules, dset.strength, dset.key, 1))
        t = time.perf_counter()
        assert solved.solve_waiting() == 1
        background = time.perf_counter() - t
        solved._pool.shutdown()  # type: ignore[union-attr]
        times = []
        for _ in range(args.repeat):
            t = time.perf_counter()
            stored = solve_dd(src, 1, args.web, store=store, only_stored=True)
            times.append(time.perf_counter() - t)
        assert stored is not None and stored["stored"]
        exact, total = cells(stored)
        print(
            f"background: solved in {background:.1f} s on {args.workers} low-priority worker(s) at {args.background:g} s "
            f"a cell; {exact} of {total} cells exact"
        )
        print(
            f"open the stored table: median {statistics.median(times) * 1000:.0f} ms, "
            f"worst {max(times) * 1000:.0f} ms over {args.repeat} openings"
        )
        with solving_pool(cores) as pool:
            t = time.perf_counter()
            demand = solve_dd(src, 1, args.web, pool=pool)
            took = time.perf_counter() - t
        assert demand is not None
        exact, total = cells(demand)
        print(f"on demand: {took:.1f} s on {cores} cores at {args.web:g} s a cell; {exact} of {total} cells exact")
        engine.dispose()

    start = daily_start(dset, 1)
    t = time.perf_counter()
    serial = dd_table(start, seconds=args.parallel, workers=1)
    one = time.perf_counter() - t
    t = time.perf_counter()
    parallel = dd_table(start, seconds=args.parallel, workers=cores)
    every = time.perf_counter() - t
    same = "the same cells" if serial.rows == parallel.rows else "DIFFERENT CELLS"
    n = sum(len(r.cells) for r in serial.rows)
    print(
        f"a classic deal's table ({n} cells at {args.parallel:g} s): one worker {one:.1f} s, "
        f"{cores} workers {every:.1f} s ({one / every:.2f}x), {same}"
    )


if __name__ == "__main__":
    main()
