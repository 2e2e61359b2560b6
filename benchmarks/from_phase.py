"""What a player is worth in one part of a deal only: the same positions, played on by each player in turn.

Rule players play each match seed; at the first decision of the chosen phase in
every deal (``play``: the first card, once the contract and the doubles are
settled; ``domino``: the first move of a Domino, Success or Patience deal) the
match is copied.  From each copy, each seat in turn is handed to the player
under test, the others staying rule players, and the deal is played to its end.
So two runs differ only in how that one phase is played, position by position:
compare them with ``--compare``.

    python benchmarks/from_phase.py --rules classic --player expert --seeds 1-4 --out e.jsonl
    python benchmarks/from_phase.py --rules classic --player search --seeds 1-4 --out s.jsonl
    python benchmarks/from_phase.py --compare e.jsonl s.jsonl

``perfect`` is the expert handed the true match.  Each row is one deal and seat:
the player's points (in the French rules, points saved: the sign is turned),
its time and its decisions.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from barbu.agents.base import make_agent
from barbu.agents.rule import RuleAgent, rules_info
from barbu.classic.match import CHANCE
from barbu.games import open_game


def play(rules: str, player: str, first: int, last: int, phase: str, out: Path) -> None:
    """Append a row for every deal and seat of seeds ``first`` to ``last`` (both included)."""
    sign = rules_info(rules)[2]
    perfect = player.startswith("perfect")
    with out.open("a") as f:
        for seed in range(first, last + 1):
            m = open_game(rules, seed)
            bots = [RuleAgent(seed + s) for s in range(m.n)]
            starts = {}
            while not m.is_over:
                s = m.to_act()
                if s == CHANCE:
                    m.play_chance()
                    continue
                view = m.view(s)
                if view.phase == phase and len(m.results) not in starts:
                    starts[len(m.results)] = m.clone()
                m.apply(bots[s].act(view), seat=s)
            for deal, start in starts.items():
                for seat in range(start.n):
                    w = start.clone()
                    agents = [RuleAgent(seed + s) for s in range(w.n)]
                    agents[seat] = make_agent(player, seed * 100 + seat, measure=True)
                    t0, decisions = time.perf_counter(), 0
                    while len(w.results) == deal:
                        s = w.to_act()
                        if s == CHANCE:
                            w.play_chance()
                            continue
                        if s == seat:
                            decisions += 1
                            if perfect:
                                agents[s].match = w
                        w.apply(agents[s].act(w.view(s)), seat=s)
                    row = {
                        "seed": seed,
                        "deal": deal,
                        "seat": seat,
                        "contract": start.contract.key,
                        "points": sign * w.results[deal].added[seat],
                        "seconds": round(time.perf_counter() - t0, 3),
                        "decisions": decisions,
                    }
                    f.write(json.dumps(row) + "\n")
                    f.flush()


def compare(files: list[Path]) -> None:
    """Each pair's mean difference per deal and seat, with its 95% interval, over the rows in both."""
    runs = {}
    for path in files:
        rows = (json.loads(line) for line in path.open())
        runs[path.name] = {(r["seed"], r["deal"], r["seat"]): r for r in rows}
    names = list(runs)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            keys = set(runs[a]) & set(runs[b])
            d = [runs[a][k]["points"] - runs[b][k]["points"] for k in keys]
            if len(d) > 1:
                half = 1.96 * statistics.stdev(d) / len(d) ** 0.5
                print(f"{a} - {b}: {statistics.fmean(d):+.2f} ± {half:.2f} over {len(d)} deals and seats")
    for name, rows in runs.items():
        decisions = sum(r.get("decisions", 0) for r in rows.values())
        seconds = sum(r.get("seconds", 0) for r in rows.values())
        print(
            f"{name}: {statistics.fmean(r['points'] for r in rows.values()):+.2f} points a deal, "
            f"{1000 * seconds / max(1, decisions):.0f} ms a decision"
        )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rules", default="classic")
    p.add_argument("--player", default="expert", help="the player under test, e.g. expert or 'search(samples=80)'")
    p.add_argument("--seeds", default="1-4", help="match seeds, first-last")
    p.add_argument("--phase", default="play", choices=["play", "domino"])
    p.add_argument("--out", type=Path)
    p.add_argument("--compare", type=Path, nargs="*", default=[])
    args = p.parse_args()
    if args.compare:
        compare(args.compare)
        return
    if not args.out:
        p.error("--out is needed to play")
    first, _, last = args.seeds.partition("-")
    play(args.rules, args.player, int(first), int(last or first), args.phase, args.out)


if __name__ == "__main__":
    main()
