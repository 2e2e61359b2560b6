"""How fast the ratings answer: one rated match's update, and a leaderboard of many players.

Prints the mean time of one `barbu.ratings.update` at 2 to 6 players (a rated match ending), and the
time to rank 100,000 players' ratings into a leaderboard in Python (`barbu.ratings.leaderboard`:
the shown figure of each, the minimum of matches, the sort and the shared places).

    python benchmarks/ratings.py [--updates 5000] [--players 100000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from barbu.ratings import Rating, leaderboard, placings, update


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--updates", type=int, default=5000, help="updates timed at each number of players")
    ap.add_argument("--players", type=int, default=100_000, help="players on the leaderboard")
    ap.add_argument("--repeat", type=int, default=5, help="leaderboards timed")
    args = ap.parse_args()
    rng = random.Random(1)

    print(f"{'players':>8}{'update µs':>12}")
    for n in range(2, 7):
        cases = []
        for _ in range(args.updates):
            ratings = [Rating(rng.gauss(25, 5), rng.uniform(1.5, 8.3), rng.randrange(50)) for _ in range(n)]
            cases.append((ratings, placings([rng.randrange(-100, 100) for _ in range(n)], True)))
        start = time.perf_counter()
        for ratings, places in cases:
            update(ratings, places)
        print(f"{n:>8}{(time.perf_counter() - start) / args.updates * 1e6:>12.1f}")

    players = [(i, Rating(rng.gauss(25, 5), rng.uniform(1.5, 8.3), rng.randrange(60))) for i in range(args.players)]
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        board = leaderboard(players)
        times.append(time.perf_counter() - start)
    print(
        f"leaderboard of {args.players:,} players ({len(board):,} with enough matches): "
        f"median {statistics.median(times) * 1000:.0f} ms, best {min(times) * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
