"""How fast the scorekeeper answers: a kept game is replayed through the engine on every change.

Prints, for a finished game of each kind: the time to rebuild it from its entries (every change does
this), to ask what the next deal needs, and to render its printable sheet as PDF and HTML.

    python benchmarks/scorekeeper.py [--repeat 20]
"""

from __future__ import annotations

import argparse
import time

from barbu.agents.play import agent_for, play_out
from barbu.classic.match import Match
from barbu.scorekeeper import Keeper
from barbu.scorekeeper.fromplay import entries_from_actions
from barbu.scorekeeper.printing import printable


def timed(fn, repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    print(f"{'game':<46}{'deals':>6}{'rebuild ms':>12}{'needs ms':>10}{'PDF ms':>9}{'HTML ms':>9}")
    for rules in (
        "classic",
        "italian-six",
        "french(players=6)",
        "classic(ravage_city=true,chinese_poker=true)",
        "scottish(sets=2)",
    ):
        m = Match(rules, seed=1)
        play_out(m, [agent_for(m, "random", seed=s) for s in range(m.n)])
        first, entries = entries_from_actions(m.rules, m.history)
        names = [f"Player {s + 1}" for s in range(m.n)]
        k = Keeper(m.rules, names, first, entries)
        rebuild = timed(lambda: Keeper(m.rules, names, first, entries), args.repeat)
        half = Keeper(m.rules, names, first, entries[: len(entries) // 2])
        needs = timed(lambda: half.needs(), args.repeat)
        pdf = timed(lambda: printable(k, "pdf"), max(1, args.repeat // 4))
        html = timed(lambda: printable(k, "html"), max(1, args.repeat // 4))
        print(f"{rules:<46}{len(entries):>6}{rebuild:>12.1f}{needs:>10.2f}{pdf:>9.0f}{html:>9.1f}")


if __name__ == "__main__":
    main()
