"""Kill -9 a real `barbu serve` many times during play and check nothing acknowledged is lost.

    python benchmarks/kill9.py --restarts 100 [--db URL] [--tables 5] [--besigue 2]

Clients play random legal moves at several tables over real WebSockets and
note every acknowledged move; the server is killed with SIGKILL at a random
moment, restarted, and the database is checked after each kill: every
acknowledged move stored at its place, at most one unacknowledged move beyond
them, and the restarted server at exactly the stored action.  Prints a line
per restart and a summary.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests"), str(ROOT / "tests" / "web")]

from test_web_restart import check_after_kill, play_until_killed  # noqa: E402
from webhelpers import Server, http, new_table  # noqa: E402

PLAYERS = {"classic": 4, "besigue": 2, "besigue-english": 2}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--restarts", type=int, default=100)
    p.add_argument("--tables", type=int, default=5)
    p.add_argument("--besigue", type=int, default=2, help="Bésigue tables besides the Barbu ones")
    p.add_argument("--db", help="database URL (default: a SQLite file in a temporary folder)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="barbu-kill9-"))
    db = args.db or f"sqlite:///{tmp / 'kill9.db'}"
    server = Server(db, tmp / "server.log", "--grace", "100000", "--bot-delay", "0", "--deal-pause", "0",
                    "--tables-per-hour", "0", "--connections-per-address", "0")
    server.start()
    try:
        tables: dict[str, dict[int, str]] = {}
        rules_of: dict[str, str] = {}
        for i in range(args.tables + args.besigue):
            rules = "classic" if i < args.tables else ("besigue", "besigue-english")[i % 2]
            tid, tokens = new_table(server.base, rules, seats={s: f"Player {i}.{s}" for s in range(PLAYERS[rules])})
            tables[tid] = tokens
            rules_of[tid] = rules
        acked: dict[str, list] = {tid: [] for tid in tables}
        rng = random.Random(args.seed)
        t0 = time.monotonic()
        active = dict(tables)
        for cycle in range(args.restarts):
            asyncio.run(play_until_killed(server, active, acked, rng.uniform(0.3, 1.2), cycle))
            counts = check_after_kill(db, tables, acked)  # raises AssertionError on any loss
            server.start()
            for tid, count in counts.items():
                status, data = http("GET", f"{server.base}/api/tables/{tid}")
                # a restarted server may deal at once (one chance event) before we ask
                assert status == 200 and count <= data["table"]["version"] <= count + 1, (tid, count, data)
                if tid in active and data["table"]["status"] == "over":  # a finished match: a new table
                    del active[tid]
                    rules = rules_of[tid]
                    new, tokens = new_table(server.base, rules,
                                            seats={s: f"Player {cycle}.{s}" for s in range(PLAYERS[rules])})
                    tables[new] = active[new] = tokens
                    rules_of[new] = rules
                    acked[new] = []
            total = sum(len(a) for a in acked.values())
            print(f"restart {cycle + 1:3d}: {total} acknowledged moves so far, {sum(counts.values())} stored actions, "
                  "none lost", flush=True)
    finally:
        server.stop()
    total = sum(len(a) for a in acked.values())
    print(f"\n{args.restarts} kill -9 restarts in {time.monotonic() - t0:.0f} s: {total} acknowledged moves, "
          f"0 lost, every table resumed at its stored action")
    return 0


if __name__ == "__main__":
    sys.exit(main())
