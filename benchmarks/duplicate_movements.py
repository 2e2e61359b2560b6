"""How evenly the "rounds" movements spread opponents and comparisons, and how long they take to find.

For every number of players and rounds asked (default 4..40 players, 1..8 rounds, tables of 4), prints the
spread of meetings (most minus fewest times two players sat at the same table), of comparisons (held the
same cards from the same seat), the widest spread of one player's seat numbers, and the seconds taken.
One round is the "one-match" format's plan; two or more the "rounds" format (which needs two tables).

    python benchmarks/duplicate_movements.py [--seats 4] [--players 4-40] [--rounds 1-8] [--step 1]
"""

from __future__ import annotations

import argparse
import time

from barbu.duplicate.movements import comparisons, meetings, schedule, seat_counts, spread, tables_for


def span(text: str) -> range:
    low, _, high = text.partition("-")
    return range(int(low), int(high or low) + 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--players", type=span, default=span("4-40"))
    ap.add_argument("--rounds", type=span, default=span("1-8"))
    ap.add_argument("--step", type=int, default=1, help="take every step-th number of players")
    args = ap.parse_args()
    print(f"tables of {args.seats}: meetings spread / comparisons spread / seat spread (seconds)")
    print("players tables " + "".join(f"{f'{r} round' + ('s' if r > 1 else ''):>20}" for r in args.rounds))
    worst = [0, 0, 0]
    total = 0.0
    for players in args.players[:: args.step]:
        tables = tables_for(players, args.seats)
        cells = []
        for rounds in args.rounds:
            fmt = "one-match" if rounds == 1 else "rounds"
            if fmt == "rounds" and tables < 2:
                cells.append(f"{'-':>20}")
                continue
            start = time.perf_counter()
            plan = schedule(players, args.seats, fmt, rounds)
            took = time.perf_counter() - start
            total += took
            m, c = spread(meetings(plan), players), spread(comparisons(plan), players)
            k = max(max(row) - min(row) for row in seat_counts(plan, players))
            if rounds > 1:
                worst = [max(worst[0], m), max(worst[1], c), max(worst[2], k)]
            cells.append(f"{f'{m}/{c}/{k} ({took:.2f})':>20}")
        print(f"{players:>7}{tables:>7} " + "".join(cells))
    print(
        f"worst over the rounds plans: meetings {worst[0]}, comparisons {worst[1]}, seats {worst[2]}; "
        f"{total:.1f} s in all"
    )


if __name__ == "__main__":
    main()
