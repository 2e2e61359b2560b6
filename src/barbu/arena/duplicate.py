"""Duplicate matches between computer players, with confidence intervals.

Every match seed is played once per rotation of the bots through the seats,
and every deal of it gives the same cards to the same seats in each
rotation: the cards come from a generator seeded by (seed, deal number), not
by the match's history, which differs between rotations.  A *board* is one
deal number of one match seed; comparing bots board by board cancels the
luck of the cards.  Confidence intervals are over boards.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import defaultdict
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from ..agents import make_agent
from ..agents.base import parse_agent_spec
from ..agents.expert import ExpertAgent
from ..agents.refusals import LINE_UP, NO_COMPLETE_DEAL
from ..classic.match import CHANCE, DRAW, Match
from ..classic.ruleset import Ruleset
from ..core.errors import AgentError
from ..records.barbu import record_lines, write_record
from ..records.lines import write_lines
from .runners import Runner, open_runner


def split_bots(text: str) -> list[str]:
    """Split ``search(samples=20, seconds=1),rule`` at the commas outside parentheses."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += (ch == "(") - (ch == ")")
        cur += ch
    out.append(cur.strip())
    for spec in out:
        parse_agent_spec(spec, measure=True)  # a clear error now rather than in a worker
    return out


@dataclass(frozen=True)
class DealRow:
    """One deal of one rotation: who sat where and what each seat scored."""

    seed: int
    rotation: int
    deal: int  # 0-based deal number in the match: with the seed, the board
    contract: str
    bots: tuple[str, ...]  # by seat
    points: tuple[float, ...]  # by seat: the deal's scores plus any series points it ended


def duplicate_chance(m: Match, seed: int, attempt: int) -> object:
    """The chance event of the current deal, the same in every rotation of this seed."""
    key = (seed * 1_000_003 + len(m.results)) * 101 + attempt * 2 + (m.phase == DRAW)
    return m.sample_chance(random.Random(key))


def play_rotation(
    rules: str,
    bots: list[str],
    seed: int,
    rotation: int,
    deals: int,
    out_dir: str | None,
    prepare: Callable[[Any], None] | None = None,
) -> list[DealRow]:
    """Play one rotation of one seed: seat s is played by ``bots[(s - rotation) % n]``; ``prepare`` sees each
    agent once made (a measurement's own settings).  With ``out_dir``, its record is written there."""
    m, by_seat, rows = _play(rules, bots, seed, rotation, deals, prepare)
    if out_dir:
        write_record(m, Path(out_dir) / record_name(seed, rotation), record_header(by_seat, seed, rotation))
    return rows


def rotation_job(
    rules: str,
    bots: list[str],
    seed: int,
    rotation: int,
    deals: int,
    keep_record: bool = False,
    prepare: Callable[[Any], None] | None = None,
) -> tuple[list[DealRow], list[dict[str, Any]] | None]:
    """`play_rotation` as a runner's job: the record comes back as its lines (with ``keep_record``), so the
    arena writes it where it was started, whichever process or machine played the rotation."""
    m, by_seat, rows = _play(rules, bots, seed, rotation, deals, prepare)
    return rows, record_lines(m, record_header(by_seat, seed, rotation)) if keep_record else None


def record_name(seed: int, rotation: int) -> str:
    return f"seed{seed}-rot{rotation}.jsonl"


def record_header(by_seat: tuple[str, ...], seed: int, rotation: int) -> dict[str, Any]:
    return {
        "players_names": [f"{spec} (seat {s})" for s, spec in enumerate(by_seat)],
        "arena": {"seed": seed, "rotation": rotation},
    }


def _play(
    rules: str, bots: list[str], seed: int, rotation: int, deals: int, prepare: Callable[[Any], None] | None
) -> tuple[Match, tuple[str, ...], list[DealRow]]:
    r = Ruleset.parse(rules)
    m = Match(r, seed)
    n = m.n
    by_seat = tuple(bots[(s - rotation) % n] for s in range(n))
    agents = [make_agent(spec, seed * 7919 + rotation * 101 + s, measure=True) for s, spec in enumerate(by_seat)]
    for agent in agents:
        if isinstance(agent, ExpertAgent) and agent.sees_all:  # the perfect-information player: the true match
            agent.match = m
        if prepare is not None:
            prepare(agent)
    attempt = 0
    limit = min(deals, m.total_deals)
    while not m.is_over and len(m.results) < limit:
        actor = m.to_act()
        if actor == CHANCE:
            phase = m.phase
            m.apply(duplicate_chance(m, seed, attempt))
            attempt = attempt + 1 if m.phase == phase else 0  # a tied draw or a redeal: draw again
            continue
        assert actor is not None
        m.apply(agents[actor].act(m.view(actor)), seat=actor)
    rows = [
        DealRow(seed, rotation, i, res.contract, by_seat, tuple(float(x) for x in res.added))
        for i, res in enumerate(m.results)
    ]
    return m, by_seat, rows


@dataclass(frozen=True)
class PerfectIn:
    """A ``prepare`` that lets the ``perfect`` player see the true hands in these phases only (it samples as
    the expert elsewhere); a class, not a closure, so that it travels to a pool's or a cluster's workers."""

    phases: frozenset[str]

    def __call__(self, agent: Any) -> None:
        if getattr(agent, "sees_all", False):
            agent.sees_in = self.phases


@dataclass
class Summary:
    """Mean points per deal per bot over boards, with 95% intervals, overall and per contract."""

    bots: list[str]
    boards: int
    sign: int  # +1 where points are good, -1 where the lowest total wins
    mean: dict[str, tuple[float, float]] = field(default_factory=dict)  # bot -> (mean, half-width)
    pairs: dict[tuple[str, str], tuple[float, float]] = field(default_factory=dict)  # (a, b) -> a minus b
    per_contract: dict[str, dict[str, tuple[float, float]]] = field(default_factory=dict)
    contract_deals: dict[str, int] = field(default_factory=dict)  # deals played at each contract


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval (normal approximation)."""
    if not values:
        return math.nan, math.nan
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def summarize(rows: Iterable[DealRow], bots: list[str], sign: int) -> Summary:
    names = list(dict.fromkeys(bots))
    per_board: dict[tuple[int, int], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    per_contract: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    rotations: dict[tuple[int, int], set[int]] = defaultdict(set)
    contract_deals: dict[str, int] = defaultdict(int)
    for row in rows:
        contract_deals[row.contract] += 1
        board = (row.seed, row.deal)
        rotations[board].add(row.rotation)
        for seat, bot in enumerate(row.bots):
            per_board[board][bot].append(row.points[seat])
            per_contract[row.contract][bot].append(row.points[seat])
    n = len(bots)
    complete = [b for b in per_board if len(rotations[b]) == n]  # a board counts once every rotation played it
    s = Summary(names, len(complete), sign)
    board_means = {b: {bot: statistics.fmean(v) for bot, v in per_board[b].items()} for b in complete}
    for bot in names:
        s.mean[bot] = interval([board_means[b][bot] for b in complete])
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            s.pairs[(a, b)] = interval([board_means[x][a] - board_means[x][b] for x in complete])
    for contract, by_bot in sorted(per_contract.items()):
        s.per_contract[contract] = {bot: interval(v) for bot, v in by_bot.items()}
    s.contract_deals = dict(contract_deals)
    return s


def run_arena(
    rules: str,
    bots: list[str],
    deals: int,
    seed: int = 1,
    workers: int = 1,
    out_dir: str | None = None,
    progress: Callable[[int], None] | None = None,
    runner: Runner | None = None,
) -> tuple[list[DealRow], Summary]:
    """Play at least ``deals`` boards (whole rotations of each seed) and summarize them.

    The rotations run on ``runner`` (kept open by the caller), else on a pool of ``workers`` processes;
    wherever they run, the rows (in seed, rotation, deal order) and the summary are the same."""
    r = Ruleset.parse(rules)
    n = r.players
    if len(bots) != n:
        raise AgentError.of(LINE_UP, rules=rules, n=n, given=len(bots))
    per_match = Match(r).total_deals  # an upper bound where matches can end early (the Scottish game)
    if out_dir:
        Path(out_dir).mkdir(parents=True, exist_ok=True)
    rows: list[DealRow] = []
    next_seed = seed
    boards = 0
    with nullcontext(runner) if runner is not None else open_runner(workers) as run:
        while boards < deals:
            jobs: list[tuple[str, list[str], int, int, int, bool]] = []
            left = deals - boards
            while left > 0:
                take = min(left, per_match)
                jobs.extend((str(r), bots, next_seed, rot, take, bool(out_dir)) for rot in range(n))
                left -= take
                next_seed += 1
            for i, (got, lines) in run.results(rotation_job, jobs):
                if out_dir and lines is not None:
                    write_lines(lines, Path(out_dir) / record_name(jobs[i][2], jobs[i][3]))
                rows.extend(got)
                if progress:
                    progress(len(got))
            now = summarize(rows, bots, 1).boards
            if now == boards:
                raise AgentError.of(NO_COMPLETE_DEAL)
            boards = now
    rows.sort(key=lambda x: (x.seed, x.rotation, x.deal))
    sign = 1 if r.family_spec.highest_wins else -1
    return rows, summarize(rows, bots, sign)
