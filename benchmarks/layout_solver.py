"""The layout solver's time (Domino, Success, Patience) by cards left in all hands together.

Positions come from random legal play in the real engine (`barbu.solver.layout_samples`):
the first decision of each layout deal with at most that many cards left.  Each
solve starts from an empty table (as the first solve of a playout does); the
moves after it along the solver's own line are then found in its table.  Run on
one core:

    python benchmarks/layout_solver.py                                  # classic, french, scottish
    python benchmarks/layout_solver.py --rules scottish --cards 8 12 16 20 --solves 30
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time

from barbu.solver.layout import LayoutSolver, cards_left, layout_spec_of, layout_state_of
from barbu.solver.layout_samples import layout_positions


def bench(rules: str, cards: list[int], solves: int, limit_ms: float) -> None:
    print(f"{rules}: exact solves of layout deals (max^n, every seat's points)")
    print(f"  {'cards left':>10} {'solves':>6} {'mean ms':>9} {'median':>9} {'max':>9} {'positions':>10}")
    for k in cards:
        times, nodes = [], []
        for m in itertools.islice(layout_positions(rules, 7, k), solves):
            spec, st = layout_spec_of(m), layout_state_of(m)
            assert cards_left(st) <= k
            solver = LayoutSolver(spec)
            start = time.perf_counter()
            solver.solve(st)
            times.append((time.perf_counter() - start) * 1000)
            nodes.append(solver.nodes)
        print(
            f"  {k:>10} {len(times):>6} {statistics.mean(times):>9.2f} {statistics.median(times):>9.2f} "
            f"{max(times):>9.2f} {statistics.mean(nodes):>10.0f}",
            flush=True,
        )
        if statistics.mean(times) > limit_ms:
            print(f"  (stopping: more than {limit_ms:g} ms a solve)")
            break


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", nargs="+", default=["classic", "french", "scottish"])
    ap.add_argument("--cards", nargs="+", type=int, default=[8, 12, 16, 20, 24, 28])
    ap.add_argument("--solves", type=int, default=20)
    ap.add_argument("--limit", type=float, default=500.0, help="stop a family once the mean passes this (ms)")
    args = ap.parse_args()
    for rules in args.rules:
        bench(rules, args.cards, args.solves, args.limit)


if __name__ == "__main__":
    main()
