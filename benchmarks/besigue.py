"""Bésigue computer players: decisions per second, mean/max decision time, playouts per second.

    PYTHONPATH=src python benchmarks/besigue.py [--deals 10] [--bot search] [--rules besigue]

Plays whole deals of the bot against the rule player (seats alternating) and
times every decision of the bot; for ``search`` it also splits the times into
the stock phase (PIMC) and the last tricks (exact solver).
"""

from __future__ import annotations

import argparse
import statistics
import time

from barbu.agents.besigue import RuleAgent, make_besigue_agent
from barbu.besigue import BesigueGame


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--deals", type=int, default=10)
    p.add_argument("--bot", default="search")
    p.add_argument("--rules", default="besigue")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    times: dict[str, list[float]] = {"stock": [], "endgame": [], "declare": []}
    playouts = 0
    for d in range(args.deals):
        seed = args.seed + d
        bot = make_besigue_agent(args.bot, seed)
        me = d % 2
        agents = [bot, RuleAgent(seed)] if me == 0 else [RuleAgent(seed), bot]
        g = BesigueGame(args.rules, seed)
        g.keep_undo = False
        g.play_chance()
        g.play_chance()
        while g.phase not in ("shuffle", "over"):
            seat = g.to_act()
            assert seat is not None and seat >= 0
            view = g.view(seat)
            t = time.perf_counter()
            action = agents[seat].act(view)
            dt = time.perf_counter() - t
            if seat == me:
                kind = "declare" if view.phase != "play" else ("stock" if view.stock_size else "endgame")
                times[kind].append(dt)
            g.apply(action)
        playouts += getattr(bot, "playouts", 0)
    every = [t for v in times.values() for t in v]
    total = sum(every)
    print(
        f"{args.bot} on {args.rules}: {args.deals} deals, {len(every)} decisions in {total:.2f} s "
        f"= {len(every) / total:.1f} decisions/s"
    )
    print(f"decision time: mean {statistics.fmean(every) * 1000:.1f} ms, max {max(every) * 1000:.0f} ms")
    for kind, v in times.items():
        if v:
            print(
                f"  {kind:8s}: {len(v):5d} decisions, mean {statistics.fmean(v) * 1000:7.1f} ms, "
                f"max {max(v) * 1000:6.0f} ms"
            )
    pimc = sum(times["stock"])
    if playouts:
        print(f"playouts: {playouts} in {pimc:.2f} s of stock-phase decisions = {playouts / pimc:.0f} playouts/s")


if __name__ == "__main__":
    main()
