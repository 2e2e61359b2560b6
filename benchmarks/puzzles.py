"""Puzzles found per hour of one core from self-play records, by contract and kind (issue 46).

    python benchmarks/puzzles.py                         # 3 matches of each main preset
    python benchmarks/puzzles.py --matches 10 --rules classic,french

The records are played first by rule players (not timed).  Then each record is mined twice in this process: for
open puzzles only, and for single ones only (every open puzzle's position is drawn `SAMPLES` times for the
single kind), each timed in processor seconds (`time.process_time`: what one core spent, whatever else the
machine runs).  A position can be a puzzle of both kinds here (`barbu puzzles make --kind both` keeps the single
one only), so the two rows are rates, not a split.  Prints a table; asserts nothing.

Measured on this project's 2-core machine, 2026-11-29 (shared, load about 9), 3 matches of each preset, see
docs/puzzles.md for the figures.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from barbu.agents.play import agent_for, play_out
from barbu.classic.match import Match
from barbu.puzzles.find import Tally, find
from barbu.puzzles.model import OPEN, SINGLE
from barbu.puzzles.single import SAMPLES


def records(rules: list[str], matches: int, seed: int) -> list[tuple[str, list[str]]]:
    out = []
    for r in rules:
        for i in range(matches):
            m = Match(r, seed + i)
            play_out(m, [agent_for(m, "rule", (seed + i) * 1000 + s) for s in range(m.n)])
            out.append((str(m.rules), [str(a) for a in m.history]))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="classic,italian,salad,french")
    ap.add_argument("--matches", type=int, default=3, help="matches of each preset")
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--samples", type=int, default=SAMPLES)
    args = ap.parse_args()
    played = records(args.rules.split(","), args.matches, args.seed)
    found: Counter[tuple[str, str, str]] = Counter()  # (family, contract, kind)
    seconds: Counter[tuple[str, str]] = Counter()  # (family, kind)
    positions = 0
    for rules, actions in played:
        family = Match(rules, None).rules.family
        for kind in (OPEN, SINGLE):
            tally = Tally()
            start = time.process_time()
            got = find(rules, actions, "bench", (kind,), tally, samples=args.samples)
            seconds[(family, kind)] += time.process_time() - start
            positions += tally.positions if kind == OPEN else 0
            for p in got:
                found[(family, p.contract, kind)] += 1
    print(f"{len(played)} matches, {positions} positions weighed; puzzles found and per hour of one core")
    print(f"{'family':10} {'contract':16} {'open':>6} {'/hour':>8} {'single':>7} {'/hour':>8}")
    for family, contract in sorted({(f, c) for f, c, _ in found}):
        row = [found[(family, contract, k)] for k in (OPEN, SINGLE)]
        rate = [3600 * n / seconds[(family, k)] if seconds[(family, k)] else 0 for n, k in zip(row, (OPEN, SINGLE))]
        print(f"{family:10} {contract:16} {row[0]:6} {rate[0]:8.0f} {row[1]:7} {rate[1]:8.0f}")
    for family in sorted({f for f, _ in seconds}):
        n = [sum(v for (f, _c, k), v in found.items() if f == family and k == kind) for kind in (OPEN, SINGLE)]
        s = [seconds[(family, k)] for k in (OPEN, SINGLE)]
        print(
            f"{family:10} {'all':16} {n[0]:6} {3600 * n[0] / s[0]:8.0f} {n[1]:7} {3600 * n[1] / s[1]:8.0f}"
            f"   ({s[0]:.1f} s and {s[1]:.1f} s of processor)"
        )


if __name__ == "__main__":
    main()
