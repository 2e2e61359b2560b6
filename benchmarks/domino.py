"""How well a player plays Domino alone: the same Domino deals, played on by each player in turn.

The arena deals whole matches, where Domino is one deal in seven and a player's
Domino score is lost in the spread of the others.  Here rule players play each
match seed and every Domino deal (the declarer's natural choice) is copied the
moment its contract is known, before the starting rank is named.  From each copy,
each seat in turn is handed to the player under test, the three others staying
rule players, and the deal is played to its end: the player names the rank when
it declared, doubles, and lays its cards.  A board is one Domino deal; two runs
on the same seeds compare board by board (``--compare``), the mean over the seats
of each board being one observation.

    python benchmarks/domino.py --rules classic --player expert --seeds 1-50 --out e.jsonl
    python benchmarks/domino.py --rules classic --player search --seeds 1-50 --out s.jsonl
    python benchmarks/domino.py --compare e.jsonl s.jsonl

Each row is one deal and seat: the player's points (in the French rules, points
saved: the sign is turned), its time, its decisions, its slowest decision's
time, and how many of them the time cap cut short (``capped``, the search
players' `SearchAgent.capped`).  A run that is stopped resumes where it stopped
(the rows already written are kept).  ``--player expert,search,rule,rule`` plays
that table instead, in every rotation, a row for each seat.  ``--contract``
measures another layout game of the family (``success``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict
from pathlib import Path

from barbu.agents.base import make_agent
from barbu.agents.rule import RuleAgent, rules_info
from barbu.arena.duplicate import split_bots
from barbu.classic.match import CHANCE
from barbu.games import open_game


def layout_deals(rules: str, seed: int, contract: str) -> dict:
    """The deals of the rule players' match of ``seed`` played at ``contract``, each as the match at the first
    decision once the contract is known, by deal number."""
    m = open_game(rules, seed)
    bots = [RuleAgent(seed + s) for s in range(m.n)]
    starts = {}
    while not m.is_over:
        s = m.to_act()
        if s == CHANCE:
            m.play_chance()
            continue
        view = m.view(s)
        if view.contract == contract and len(m.results) not in starts:
            starts[len(m.results)] = m.clone()
        m.apply(bots[s].act(view), seat=s)
    return starts


def play(rules: str, player: str, first: int, last: int, contract: str, out: Path) -> None:
    """Append a row for every deal at ``contract`` of seeds ``first`` to ``last``: with one ``player``, each seat
    in turn played by it against rule players; with a table (``expert,search,rule,rule``), every rotation of
    the table's players through the seats, a row for each seat."""
    sign = rules_info(rules)[2]
    players = split_bots(player)
    table = players if len(players) > 1 else None
    done = set()
    if out.exists():
        done = {(r["seed"], r["deal"], r["seat"], r.get("rotation", -1)) for r in map(json.loads, out.open())}
    with out.open("a") as f:
        for seed in range(first, last + 1):
            for deal, start in layout_deals(rules, seed, contract).items():
                n = start.n
                if table is None:
                    runs = [(seat, -1, [player if s == seat else "rule" for s in range(n)]) for seat in range(n)]
                else:
                    runs = [(-1, r, [table[(s - r) % n] for s in range(n)]) for r in range(n)]
                for seat, rotation, by_seat in runs:
                    seats = [seat] if seat >= 0 else list(range(n))
                    if all((seed, deal, s, rotation) in done for s in seats):
                        continue
                    points, stats = play_deal(start, deal, by_seat, seed)
                    for s in seats:
                        row = {
                            "seed": seed,
                            "deal": deal,
                            "seat": s,
                            "declarer": start.declarer,
                            "player": by_seat[s],
                            "points": sign * points[s],
                            **stats[s],
                        }
                        if rotation >= 0:
                            row["rotation"] = rotation
                        f.write(json.dumps(row) + "\n")
                    f.flush()


def play_deal(start, deal: int, by_seat: list[str], seed: int) -> tuple[tuple, list[dict]]:
    """Play the deal from ``start`` with the players by seat (``rule`` seats seeded as the match's); each seat's
    points added and its time, decisions and decisions the time cap cut short."""
    w = start.clone()
    agents = [
        RuleAgent(seed + s) if p == "rule" else make_agent(p, seed * 100 + s, measure=True)
        for s, p in enumerate(by_seat)
    ]
    stats = [{"seconds": 0.0, "decisions": 0, "slowest": 0.0} for _ in by_seat]
    while len(w.results) == deal:
        s = w.to_act()
        if s == CHANCE:
            w.play_chance()
            continue
        if by_seat[s].startswith("perfect"):
            agents[s].match = w
        t0 = time.perf_counter()
        action = agents[s].act(w.view(s))
        took = time.perf_counter() - t0
        stats[s]["seconds"] += took
        stats[s]["slowest"] = max(stats[s]["slowest"], took)
        stats[s]["decisions"] += 1
        w.apply(action, seat=s)
    for s, st in enumerate(stats):
        st["seconds"] = round(st["seconds"], 3)
        st["slowest"] = round(st["slowest"], 3)
        st["capped"] = getattr(agents[s], "capped", 0)
    return w.results[deal].added, stats


def interval(values: list[float]) -> str:
    if len(values) < 2:
        return f"{statistics.fmean(values):+.2f}" if values else "-"
    return f"{statistics.fmean(values):+.2f} ± {1.96 * statistics.stdev(values) / len(values) ** 0.5:.2f}"


def compare(files: list[Path]) -> None:
    """Each pair of runs of one player: its mean difference per deal, board by board (a board: one deal, the
    mean over its seats), with its 95% interval over the boards both runs played in full, and the same for
    the declarer's seat alone.  A table's run (rows with a rotation): each pair of its players, board by board."""
    runs, tables = {}, {}
    for path in files:
        rows = [json.loads(line) for line in path.open()]
        if rows and "rotation" in rows[0]:
            tables[path.name] = rows
        else:
            runs[path.name] = {(r["seed"], r["deal"], r["seat"]): r for r in rows}
    names = list(runs)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            keys = set(runs[a]) & set(runs[b])
            boards = defaultdict(list)
            declaring = []
            for k in keys:
                d = runs[a][k]["points"] - runs[b][k]["points"]
                boards[k[:2]].append(d)
                if runs[a][k]["declarer"] == k[2]:
                    declaring.append(d)
            means = [statistics.fmean(v) for v in boards.values()]
            print(
                f"{a} - {b}: {interval(means)} points a deal over {len(means)} boards "
                f"({len(keys)} deals and seats); as declarer {interval(declaring)} over {len(declaring)}"
            )
    for name, rows in tables.items():
        by_board: dict = defaultdict(lambda: defaultdict(list))
        for r in rows:
            by_board[(r["seed"], r["deal"])][r["player"]].append(r["points"])
        players = list(dict.fromkeys(r["player"] for r in rows))
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                if a == b:
                    continue
                d = [statistics.fmean(p[a]) - statistics.fmean(p[b]) for p in by_board.values() if a in p and b in p]
                print(f"{name}: {a} - {b}: {interval(d)} points a deal over {len(d)} boards")
    for name, rows in [*((k, list(v.values())) for k, v in runs.items()), *tables.items()]:
        by_player = defaultdict(list)
        for r in rows:
            by_player[r.get("player", "")].append(r)
        for player, mine in by_player.items():
            decisions = sum(r["decisions"] for r in mine)
            seconds = sum(r["seconds"] for r in mine)
            capped = sum(r.get("capped", 0) for r in mine)
            slowest = max((r.get("slowest", 0) for r in mine), default=0)
            print(
                f"{name} {player}: {statistics.fmean(r['points'] for r in mine):+.2f} points a deal over "
                f"{len(mine)} deals and seats, {1000 * seconds / max(1, decisions):.0f} ms a decision "
                f"(slowest {1000 * slowest:.0f} ms), {capped} of {decisions} decisions cut short by the time cap"
            )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rules", default="classic")
    p.add_argument("--player", default="expert", help="the player under test, e.g. expert or 'search(samples=80)'")
    p.add_argument("--seeds", default="1-10", help="match seeds, first-last")
    p.add_argument("--contract", default="domino", help="the layout contract measured (its key)")
    p.add_argument("--out", type=Path)
    p.add_argument("--compare", type=Path, nargs="*", default=[])
    args = p.parse_args()
    if args.compare:
        compare(args.compare)
        return
    if not args.out:
        p.error("--out is needed to play")
    first, _, last = args.seeds.partition("-")
    play(args.rules, args.player, int(first), int(last or first), args.contract, args.out)


if __name__ == "__main__":
    main()
