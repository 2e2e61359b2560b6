"""What the accounts cost: a rated match's results and ratings written, a profile read for a player with 1,000
matches, a leaderboard among 100,000 rated players, and a log-in (Argon2id).

    python benchmarks/accounts.py                       # SQLite in a temporary folder
    python benchmarks/accounts.py --postgres postgresql://barbu:barbu@127.0.0.1:5432/barbu_test

The same code the server runs (`barbu.web.profiles.history`, `barbu.web.accounts.service`) on the database given; the rows
are made directly (a match's results as a finished table writes them).  PostgreSQL works in a schema of its
own, dropped afterwards.  Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from barbu import ratings  # noqa: E402
from barbu.web.accounts import store as db
from barbu.web.accounts.service import Accounts, account_name  # noqa: E402
from barbu.web.db.storage import Store, now  # noqa: E402
from barbu.web.profiles import history

SCHEMA = "barbu_bench_accounts"


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def line(what: str, ms: list[float]) -> None:
    ms = sorted(ms)
    print(
        f"{what:<52} median {statistics.median(ms):8.2f} ms   p90 {ms[int(len(ms) * 0.9)]:8.2f} ms   ({len(ms)} runs)"
    )


def add_user(store: Store, name: str) -> int:
    shown, key, skel = account_name(name)
    with store.engine.begin() as conn:
        return db.add_user(conn, shown, key, skel, "not-a-hash")


def finished(table_id: str, seats: list[history.SeatResult], rng: random.Random) -> history.Finished:
    totals = [rng.randrange(-200, 200) for _ in seats]
    details = [
        {
            "contracts": {
                "no-tricks": {"declarer": [rng.randrange(-50, 0), 1], "other": [-10, 3]},
                "trumps": {"declarer": [40, 1], "other": [10, 3]},
            },
            "doubles": {"made": 2, "made_net": 10, "received": 1, "received_net": -5},
        }
        for _ in seats
    ]
    return history.Finished(table_id, "classic", "classic", totals, True, seats, True, details)


def run(url: str, matches: int, players: int) -> None:
    store = Store(url)
    rng = random.Random(7)
    me = add_user(store, "Benchmark Player")
    friends = [add_user(store, f"Friend {i}") for i in range(3)]

    # a rated match's results and ratings, as a finished table writes them (one transaction)
    count = 0

    def one_match() -> None:
        nonlocal count
        count += 1
        seats = [history.SeatResult("human", "Benchmark Player", None, me, False)]
        seats += [history.SeatResult("human", f"Friend {i}", None, friends[i], False) for i in range(2)]
        seats += [history.SeatResult("bot", "expert", "expert", None, False)]
        with store.engine.begin() as conn:
            history.record(conn, finished(f"m{count}", seats, rng))

    line("a rated match's results and ratings written", timed(one_match, 200))
    while count < matches:  # the rest of the 1,000 matches, untimed
        one_match()
    line(f"profile of a player with {count:,} matches", timed(lambda: history.profile(store, "benchmark player"), 20))
    line(
        f"download my data ({count:,} matches)",
        timed(lambda: history.download(store, db.User(me, "Benchmark Player", now())), 5),
    )

    # 100,000 rated players in one game, then the leaderboard
    t = now()
    batch = []
    with store.engine.begin() as conn:
        for i in range(players):
            batch.append(
                {
                    "name": f"p{i}",
                    "name_key": f"p{i}",
                    "skeleton": f"p{i}",
                    "password_hash": "x",
                    "created_at": t,
                    "banned": False,
                }
            )
            if len(batch) == 5000:
                conn.execute(db.USERS.insert(), batch)
                batch = []
        if batch:
            conn.execute(db.USERS.insert(), batch)
        ids = [r.id for r in conn.execute(db.select(db.USERS.c.id).where(db.USERS.c.name_key.like("p%")))]
        rows = []
        for uid in ids:
            r = ratings.Rating(rng.gauss(25, 4), rng.uniform(1.5, 8.3), rng.randrange(0, 60))
            rows.append(
                {
                    "subject": db.subject_of(uid),
                    "game": "salad",
                    "mu": r.mu,
                    "sigma": r.sigma,
                    "matches": r.matches,
                    "shown": ratings.shown(r),
                    "updated_at": t - timedelta(days=1),
                }
            )
            if len(rows) == 5000:
                conn.execute(db.RATINGS.insert(), rows)
                rows = []
        if rows:
            conn.execute(db.RATINGS.insert(), rows)
    line(
        f"leaderboard (top 100) among {len(ids):,} rated players",
        timed(lambda: history.leaderboard(store, "salad"), 20),
    )

    # a log-in: Argon2id's hash, the database's reads and writes
    accounts = Accounts(lambda: store, lambda a: a)

    async def logins() -> list[float]:
        await accounts.sign_up("Login Bench", "a long enough password")
        out = []
        for i in range(10):
            t0 = time.perf_counter()
            await accounts.log_in("Login Bench", "a long enough password", f"10.0.0.{i}")
            out.append((time.perf_counter() - t0) * 1000)
        return out

    line("a log-in (Argon2id verify, session written)", asyncio.run(logins()))
    store.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--postgres", help="a PostgreSQL URL (a schema of its own is made and dropped)")
    ap.add_argument("--matches", type=int, default=1000)
    ap.add_argument("--players", type=int, default=100_000)
    args = ap.parse_args()
    if args.postgres:
        from benchcluster import fresh_schema

        url = fresh_schema(args.postgres, SCHEMA)
        print(f"PostgreSQL (schema {SCHEMA})")
        try:
            run(url, args.matches, args.players)
        finally:
            fresh_schema(args.postgres, SCHEMA)
    else:
        with tempfile.TemporaryDirectory() as d:
            print("SQLite")
            run(f"sqlite:///{Path(d) / 'bench.db'}", args.matches, args.players)


if __name__ == "__main__":
    main()
