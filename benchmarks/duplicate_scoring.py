"""How long scoring a daily set takes: matchpoints and standings for 1,000 to 100,000 players.

Each player has played the same boards (default 8, one deal per contract of the classic game) from the same
seat; the scores are drawn like the contracts' (penalties in steps, Trumps and Domino positive), so many tie.
Prints the seconds `barbu.duplicate.matchpoints.standings` takes for each number of players (the best of
``--repeat`` runs), and, as the reference in the same run, the pair-by-pair definition (O(n²) a board) at
1,000 players, which is how the matchpoints were first counted.

    python benchmarks/duplicate_scoring.py [--boards 8] [--players 1000,10000,100000] [--repeat 3]

With ``--db URL`` (an SQLite file or a PostgreSQL database, emptied of its daily deals first) it also times what
the server does for a large pool of the daily deals: the finished results read from the database and scored
(`barbu.web.daily.service.Scored`), with Python's cyclic collector paused as the server pauses it and, as the reference
in the same run, left on:

    python benchmarks/duplicate_scoring.py --db sqlite:////tmp/daily.db --players 100000 --boards 7
"""

from __future__ import annotations

import argparse
import random
import time

from barbu.duplicate.matchpoints import Entry, pairwise, standings

#: How one deal of each contract scores for the seat (steps and ranges of the classic game).
CONTRACTS = [(-2, 13), (-2, 15), (-6, 4), (-20, 1), (-10, 3), (5, 13), (5, 13), (-6, 4)]


def daily_set(players: int, boards: int, rng: random.Random) -> list[Entry]:
    out = []
    for b in range(boards):
        step, most = CONTRACTS[b % len(CONTRACTS)]
        out.extend(Entry(f"r1-d{b + 1}", 0, f"player{i}", step * rng.randint(0, most)) for i in range(players))
    return out


def best_of(repeat: int, run) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=8)
    ap.add_argument("--players", default="1000,10000,100000", help="numbers of players, comma-separated")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--db", help="also time reading and scoring a daily pool from this database")
    args = ap.parse_args()
    if args.db:
        for players in (int(x) for x in args.players.split(",")):
            through_database(args.db, players, args.boards)
        return
    rng = random.Random(33)
    print(f"{args.boards} boards, every player from the same seat")
    print(f"{'players':>9}{'results':>10}{'seconds':>10}{'µs a result':>13}")
    for players in (int(x) for x in args.players.split(",")):
        entries = daily_set(players, args.boards, rng)
        took = best_of(args.repeat, lambda entries=entries: standings(entries))
        print(f"{players:>9}{len(entries):>10}{took:>10.3f}{took / len(entries) * 1e6:>13.2f}")
    entries = daily_set(1000, args.boards, rng)
    start = time.perf_counter()
    reference = pairwise_totals(entries)
    print(f"pair by pair (the reference), 1000 players: {time.perf_counter() - start:.3f} s")
    assert {s.player: s.matchpoints for s in standings(entries)} == reference


def through_database(url: str, players: int, boards: int) -> None:
    """A daily pool of ``players`` finished attempts stored, then read and scored as the server does it."""
    from datetime import datetime, timezone

    from sqlalchemy import insert

    from barbu.web.daily import store as db
    from barbu.web.daily.service import Scored, collector_paused
    from barbu.web.db.storage import Store

    engine = Store(url).engine
    rng, now, day = random.Random(7), datetime.now(timezone.utc), "2026-11-27"
    with engine.begin() as conn:
        conn.execute(db.BOARDS.delete())
        conn.execute(db.ATTEMPTS.delete())
        conn.execute(
            insert(db.ATTEMPTS),
            [
                dict(
                    id=i + 1,
                    day=day,
                    game="classic",
                    who=f"u:{i}",
                    pool="account",
                    name=f"player{i}",
                    started_at=now,
                    finished_at=now,
                )
                for i in range(players)
            ],
        )
        for b in range(boards):
            step, most = CONTRACTS[b % len(CONTRACTS)]
            conn.execute(
                insert(db.BOARDS),
                [
                    dict(attempt_id=i + 1, board=b, moves="", doubles="", score=step * rng.randint(0, most))
                    for i in range(players)
                ],
            )
    for paused in (True, False):
        start = time.perf_counter()
        with collector_paused(paused), engine.connect() as conn:
            rows = db.finished_results(conn, day, "classic", "account")
        read = time.perf_counter() - start
        with collector_paused(paused):
            Scored.of(rows, players, False)
        took = time.perf_counter() - start
        what = "collector paused (the server)" if paused else "collector on (the reference)"
        print(
            f"{players} players x {boards} boards, {what}: read {read:.2f} s, scored {took - read:.2f} s, "
            f"in all {took:.2f} s"
        )


def pairwise_totals(entries: list[Entry]) -> dict[str, float]:
    """Each player's matchpoints counted the first way: every pair of results on a board compared."""
    boards: dict[object, list[Entry]] = {}
    for e in entries:
        boards.setdefault((e.board, e.seat), []).append(e)
    totals: dict[str, float] = {}
    for group in boards.values():
        for e, points in zip(group, pairwise([e.score for e in group])):
            totals[e.player] = totals.get(e.player, 0.0) + points
    return totals


if __name__ == "__main__":
    main()
