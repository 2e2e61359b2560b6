"""Duplicate arena for Bésigue: each board is one deal, played twice with the seats swapped.

A board's seed fixes the first dealer and the shuffle, so both plays of a board
see the same cards in the same seats' hands; the board's score for a bot is
the mean of its two point differences.  Intervals are 95% over boards.
"""

from __future__ import annotations

import math
import statistics
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..agents.besigue import make_besigue_agent
from ..besigue.game import BesigueGame
from ..besigue.ruleset import BesigueRules
from ..records.besigue import record_lines
from ..records.lines import write_lines
from .runners import Runner, in_job_order, open_runner


@dataclass
class BoardResult:
    seed: int
    diffs: tuple[int, int]  # bot A's point difference in play 1 (A in seat 0) and play 2 (A in seat 1)
    decisions: list[float] = field(default_factory=list)  # search-side decision times, seconds
    playouts: int = 0
    search_time: float = 0.0


def _play(rules: BesigueRules, seed: int, specs: list[str]) -> tuple[BesigueGame, list[float], int, float]:
    """One deal with these bots by seat: the game, the timed decisions of 'search' bots, playouts, their time."""
    g = BesigueGame(rules, seed)
    g.keep_undo = False
    agents = [make_besigue_agent(spec, seed * 10 + s) for s, spec in enumerate(specs)]
    timed = [spec.startswith("search") for spec in specs]
    times: list[float] = []
    spent = 0.0
    g.play_chance()
    g.play_chance()
    while g.phase not in ("shuffle", "over"):
        seat = g.to_act()
        assert seat is not None and seat >= 0
        t = time.perf_counter()
        action = agents[seat].act(g.view(seat))
        if timed[seat]:
            dt = time.perf_counter() - t
            times.append(dt)
            spent += dt
        g.apply(action)
    playouts = sum(getattr(a, "playouts", 0) for a in agents)
    return g, times, playouts, spent


def board_job(
    rules_text: str, seed: int, a: str, b: str, keep_records: bool = False
) -> tuple[BoardResult, list[tuple[str, list[dict[str, Any]]]]]:
    """One board as a runner's job: both plays, and (with ``keep_records``) their records as (file name,
    lines), written by the arena where it was started, whichever machine played the board."""
    rules = BesigueRules.parse(rules_text)
    records = []
    plays = []
    for specs, tag in (([a, b], "a"), ([b, a], "b")):
        g, times, playouts, spent = _play(rules, seed, specs)
        plays.append((g.results[-1]["scores"], times, playouts, spent))
        if keep_records:
            records.append((f"board{seed}{tag}.jsonl", record_lines(g, {"players_names": specs})))
    (s1, t1, p1, w1), (s2, t2, p2, w2) = plays
    return BoardResult(seed, (s1[0] - s1[1], s2[1] - s2[0]), t1 + t2, p1 + p2, w1 + w2), records


@dataclass
class ArenaSummary:
    a: str
    b: str
    boards: int
    mean: float
    half_width: float
    wins: int
    losses: int
    decisions: int
    mean_decision: float
    max_decision: float
    playouts_per_second: float

    @property
    def significant(self) -> bool:
        return abs(self.mean) > self.half_width


def summarize(a: str, b: str, results: list[BoardResult]) -> ArenaSummary:
    scores = [(r.diffs[0] + r.diffs[1]) / 2 for r in results]
    mean = statistics.fmean(scores) if scores else 0.0
    half = 1.96 * statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else math.inf
    times = [t for r in results for t in r.decisions]
    spent = sum(r.search_time for r in results)
    playouts = sum(r.playouts for r in results)
    return ArenaSummary(
        a,
        b,
        len(results),
        mean,
        half,
        sum(s > 0 for s in scores),
        sum(s < 0 for s in scores),
        len(times),
        statistics.fmean(times) if times else 0.0,
        max(times, default=0.0),
        playouts / spent if spent else 0.0,
    )


def run_arena(
    rules_text: str,
    a: str,
    b: str,
    boards: int,
    seed: int = 1,
    workers: int = 1,
    out: str | None = None,
    progress: Any = None,
    runner: Runner | None = None,
) -> ArenaSummary:
    """Play ``boards`` boards from ``seed`` on ``runner`` (kept open by the caller), else on a pool of
    ``workers`` processes; ``progress(n, summary)`` after each board, in seed order wherever they ran."""
    jobs = [(rules_text, s, a, b, bool(out)) for s in range(seed, seed + boards)]
    results: list[BoardResult] = []
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
    with nullcontext(runner) if runner is not None else open_runner(workers) as run:
        for result, records in in_job_order(run.results(board_job, jobs)):
            for name, lines in records:
                assert out is not None  # a job returns records only when they are written
                write_lines(lines, Path(out) / name)
            results.append(result)
            if progress:
                progress(len(results), summarize(a, b, results))
    return summarize(a, b, results)
