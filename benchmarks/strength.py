"""How much of what seeing the cards is worth a player captures, in duplicate matches.

Plays `barbu arena`'s duplicate boards (the same seeds, the same cards, every
rotation of the players through the seats) one match rotation at a time and
appends each deal's row to a JSON Lines file, so a long run can be stopped and
resumed, or split over several processes with different ``--seed`` ranges
writing to different files.  Then it reads every file given and prints, over
the boards complete in all of them:

- each pair's mean difference per deal with its 95% interval (as the arena);
- the fraction of the gap between the ``--floor`` player (``rule``) and the
  ``--ceiling`` player (``perfect``: the expert handed the true hands) that each
  other player captures, ``(X - floor) / (ceiling - floor)``, with a 95%
  bootstrap interval over boards.

    python benchmarks/strength.py --rules classic --bots expert,search,perfect,rule --seeds 11 --out q1.jsonl
    python benchmarks/strength.py --rules classic --bots expert,search,perfect,rule --seed 101 --seeds 11 --out q2.jsonl
    python benchmarks/strength.py --rules classic --read q1.jsonl q2.jsonl     # the figures only

The issue's own measure plays each player alone against three ``rule`` players, on the same seeds, and
compares the runs board by board (``--gap-of`` the player's rows, ``--gap-to`` the ceiling's):

    python benchmarks/strength.py --rules classic --bots expert,rule,rule,rule --seeds 11 --out e.jsonl
    python benchmarks/strength.py --rules classic --bots perfect,rule,rule,rule --seeds 11 --out p.jsonl
    python benchmarks/strength.py --rules classic --gap-of e.jsonl --gap-to p.jsonl

It also prints the two runs' difference board by board, so two players of the same kind of run compare
directly (here the expert against the search player, each alone against three ``rule`` players):

    python benchmarks/strength.py --rules classic --bots search,rule,rule,rule --seeds 11 --out s.jsonl
    python benchmarks/strength.py --rules classic --gap-of e.jsonl --gap-to s.jsonl

Where the gap lies: ``--perfect-in`` lets ``perfect`` see the true hands in some phases only (it samples as
the expert elsewhere; with ``steps=0,end_cards=0`` about as the search player does), to be compared board
by board with the search player's run:

    python benchmarks/strength.py --rules classic --bots "perfect(steps=0,end_cards=0),rule,rule,rule" \
        --perfect-in play+domino --seeds 11 --out play.jsonl
    python benchmarks/strength.py --rules classic --gap-of play.jsonl --gap-to p.jsonl

The rotations run one after the other, or on ``--workers N`` processes of this machine, or on the workers of
a Dask cluster (``--cluster tcp://host:8786``, docs/cluster.md); the rows are the same wherever they were
played.  They are appended as each rotation ends (the file's lines in the order they ended), and read back
in seed, rotation, deal order.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from collections import defaultdict
from pathlib import Path

from barbu.arena.duplicate import DealRow, PerfectIn, rotation_job, split_bots, summarize
from barbu.arena.runners import Runner, open_runner, timed
from barbu.classic.match import Match
from barbu.classic.ruleset import Ruleset
from barbu.classic.state import PHASE_NAMES
from barbu.core.errors import BarbuError


def play(
    rules: str,
    bots: list[str],
    first_seed: int,
    seeds: int,
    out: Path,
    perfect_in: frozenset[str] | None = None,
    runner: Runner | None = None,
) -> None:
    """Play every rotation of ``seeds`` match seeds from ``first_seed`` on ``runner`` (else here), appending
    each one's rows as it ends; skip those done.  With ``perfect_in``, the ``perfect`` player sees the true
    hands only in those phases."""
    r = Ruleset.parse(rules)
    per_match = Match(r).total_deals
    done = {(row.seed, row.rotation) for row in read([out])} if out.exists() else set()
    prepare = PerfectIn(perfect_in) if perfect_in is not None else None
    jobs = [
        (rotation_job, str(r), bots, seed, rotation, per_match, False, prepare)
        for seed in range(first_seed, first_seed + seeds)
        for rotation in range(r.players)
        if (seed, rotation) not in done
    ]
    for i, ((rows, _record), seconds) in (runner or open_runner()).results(timed, jobs):
        with out.open("a") as f:
            for x in rows:
                f.write(
                    json.dumps(
                        {
                            "seed": x.seed,
                            "rotation": x.rotation,
                            "deal": x.deal,
                            "contract": x.contract,
                            "bots": list(x.bots),
                            "points": list(x.points),
                        }
                    )
                    + "\n"
                )
        print(f"seed {jobs[i][3]} rotation {jobs[i][4]}: {len(rows)} deals in {seconds:.0f} s", flush=True)


def read(paths: list[Path]) -> list[DealRow]:
    rows = []
    for p in paths:
        for line in p.read_text().splitlines():
            d = json.loads(line)
            rows.append(
                DealRow(d["seed"], d["rotation"], d["deal"], d["contract"], tuple(d["bots"]), tuple(d["points"]))
            )
    rows.sort(key=lambda x: (x.seed, x.rotation, x.deal))  # however the rotations ended, the same figures
    return rows


def board_means(rows: list[DealRow], n: int) -> list[dict[str, float]]:
    """Each complete board's mean points per deal of each player (over its seats and rotations)."""
    per: dict[tuple[int, int], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    rotations: dict[tuple[int, int], set[int]] = defaultdict(set)
    for row in rows:
        rotations[(row.seed, row.deal)].add(row.rotation)
        for seat, bot in enumerate(row.bots):
            per[(row.seed, row.deal)][bot].append(row.points[seat])
    return [{bot: statistics.fmean(v) for bot, v in per[b].items()} for b in sorted(per) if len(rotations[b]) == n]


def gap_fraction(
    boards: list[dict[str, float]],
    player: str,
    floor: str,
    ceiling: str,
    sign: int,
    resamples: int = 4000,
    seed: int = 1,
) -> tuple[float, float, float]:
    """(fraction, low, high): the share of the floor-to-ceiling gap ``player`` captures, 95% bootstrap interval."""

    def fraction(sample: list[dict[str, float]]) -> float:
        gained = sum(sign * (b[player] - b[floor]) for b in sample)
        gap = sum(sign * (b[ceiling] - b[floor]) for b in sample)
        return gained / gap if gap else float("nan")

    rng = random.Random(seed)
    draws = sorted(fraction([boards[rng.randrange(len(boards))] for _ in boards]) for _ in range(resamples))
    return fraction(boards), draws[int(0.025 * resamples)], draws[int(0.975 * resamples) - 1]


def edge_by_board(rows: list[DealRow], n: int, floor: str) -> dict[tuple[int, int], float]:
    """Per complete board, the other player's mean points per deal minus the floor player's."""
    per: dict[tuple[int, int], dict[bool, list[float]]] = defaultdict(lambda: defaultdict(list))
    rotations: dict[tuple[int, int], set[int]] = defaultdict(set)
    for row in rows:
        rotations[(row.seed, row.deal)].add(row.rotation)
        for seat, bot in enumerate(row.bots):
            per[(row.seed, row.deal)][bot == floor].append(row.points[seat])
    return {b: statistics.fmean(v[False]) - statistics.fmean(v[True]) for b, v in per.items() if len(rotations[b]) == n}


def separate_gap(
    rules: str, player_rows: list[DealRow], ceiling_rows: list[DealRow], floor: str, resamples: int = 4000
) -> None:
    """The share of the ceiling's edge over the floor that the player's edge makes, over the boards both
    runs completed, with a 95% bootstrap interval (boards resampled in pairs)."""
    r = Ruleset.parse(rules)
    sign = 1 if r.family_spec.highest_wins else -1
    mine = edge_by_board(player_rows, r.players, floor)
    top = edge_by_board(ceiling_rows, r.players, floor)
    both = sorted(set(mine) & set(top))
    if not both:
        print("no board completed in both runs")
        return
    pairs = [(sign * mine[b], sign * top[b]) for b in both]

    def fraction(sample: list[tuple[float, float]]) -> float:
        gap = sum(t for _, t in sample)
        return sum(m for m, _ in sample) / gap if gap else float("nan")

    rng = random.Random(1)
    draws = sorted(fraction([pairs[rng.randrange(len(pairs))] for _ in pairs]) for _ in range(resamples))
    me, half_me = mean_half([m for m, _ in pairs])
    up, half_up = mean_half([t for _, t in pairs])
    print(
        f"{rules}: {len(both)} boards in both runs; edge over {floor} per deal: player {me:+.2f} ± {half_me:.2f}, "
        f"ceiling {up:+.2f} ± {half_up:.2f}"
    )
    print(
        f"  the player captures {fraction(pairs):.2f} (95% interval {draws[int(0.025 * resamples)]:.2f} to "
        f"{draws[int(0.975 * resamples) - 1]:.2f}) of the ceiling's edge"
    )
    diff, half_diff = mean_half([m - t for m, t in pairs])
    print(
        f"  player - ceiling, board by board: {diff:+.2f} ± {half_diff:.2f} per deal"
        + ("" if sign > 0 else " (in points saved)")
    )


def mean_half(values: list[float]) -> tuple[float, float]:
    m = statistics.fmean(values)
    return m, (1.96 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else float("inf"))


def report(rules: str, rows: list[DealRow], floor: str, ceiling: str) -> None:
    r = Ruleset.parse(rules)
    sign = 1 if r.family_spec.highest_wins else -1
    bots = list(dict.fromkeys(bot for row in rows for bot in row.bots))
    summary = summarize(rows, rows[0].bots if rows else bots, sign)
    print(
        f"{rules}: {summary.boards} boards"
        + ("" if sign > 0 else " (lowest total wins: differences are a minus b in points, lower is better)")
    )
    for (a, b), (mean, half) in summary.pairs.items():
        print(f"  {a} - {b}: {mean:+.2f} ± {half:.2f} per deal")
    boards = board_means(rows, r.players)
    if floor in bots and ceiling in bots and boards:
        for player in bots:
            if player in (floor, ceiling):
                continue
            f, lo, hi = gap_fraction(boards, player, floor, ceiling, sign)
            print(
                f"  {player} captures {f:.2f} (95% interval {lo:.2f} to {hi:.2f}) of the gap from {floor} to {ceiling}"
            )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rules", default="classic")
    p.add_argument("--bots", default="expert,search,perfect,rule")
    p.add_argument("--seed", type=int, default=1, help="the first match seed")
    p.add_argument("--seeds", type=int, default=0, help="match seeds to play (each: every deal of a match)")
    p.add_argument("--out", type=Path, help="the rows file to append to (and to read)")
    p.add_argument("--read", type=Path, nargs="*", default=[], help="more rows files to read")
    p.add_argument(
        "--perfect-in",
        help="the phases in which `perfect` sees the true hands, e.g. play+domino "
        "(it samples elsewhere): what seeing the cards is worth in each kind of decision",
    )
    p.add_argument("--workers", type=int, default=1, help="processes of this machine playing rotations at once")
    p.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="play the rotations on a Dask cluster's workers, "
        "e.g. tcp://host:8786 (pip install 'barbu[cluster]' on every machine; docs/cluster.md)",
    )
    p.add_argument("--floor", default="rule")
    p.add_argument("--ceiling", default="perfect")
    p.add_argument("--gap-of", type=Path, nargs="*", default=[], help="rows of a player alone against the floor")
    p.add_argument("--gap-to", type=Path, nargs="*", default=[], help="rows of the ceiling alone against the floor")
    args = p.parse_args()
    if args.gap_of or args.gap_to:
        if not (args.gap_of and args.gap_to):
            p.error("--gap-of and --gap-to go together")
        separate_gap(args.rules, read(args.gap_of), read(args.gap_to), args.floor)
        return
    if args.seeds:
        if not args.out:
            p.error("--seeds needs --out")
        phases = frozenset(args.perfect_in.split("+")) if args.perfect_in else None
        if phases is not None and not phases <= set(PHASE_NAMES):
            p.error(f"--perfect-in: phases are among {', '.join(PHASE_NAMES)}")
        if args.cluster and args.workers != 1:
            p.error("--workers is for this machine, --cluster for a cluster's workers: give one or the other")
        try:
            with open_runner(args.workers, args.cluster) as runner:
                if runner.address:
                    print(
                        f"cluster {runner.address}: {runner.workers} worker(s), each with barbu {runner.version}",
                        flush=True,
                    )
                play(args.rules, split_bots(args.bots), args.seed, args.seeds, args.out, phases, runner)
        except BarbuError as e:
            raise SystemExit(f"strength.py: error: {e}") from None
    paths = ([args.out] if args.out and args.out.exists() else []) + list(args.read)
    if not paths:
        p.error("nothing to read: give --out with --seeds, or --read FILES")
    report(args.rules, read(paths), args.floor, args.ceiling)


if __name__ == "__main__":
    main()
