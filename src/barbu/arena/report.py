"""`barbu arena` on the terminal: a progress bar while the matches run, then Rich tables."""

from __future__ import annotations

import argparse
import os

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ..agents.refusals import DEALS_AT_LEAST_ONE, LINE_UP
from ..classic.match import Match
from ..classic.ruleset import Ruleset
from ..core.errors import AgentError, BarbuError
from ..core.words import N_, message
from ..i18n import _, current, number, words
from ..i18n.formats import format_number
from .duplicate import Summary, run_arena, split_bots
from .runners import Runner, open_runner

WORKERS_OR_CLUSTER = message(
    "arena-workers-or-cluster",
    N_(
        "--workers sets this machine's processes and --cluster sends the games to a cluster's workers: give one or "
        "the other"
    ),
)
WORKERS_AT_LEAST_ONE = message("arena-workers-at-least-one", N_("--workers must be at least 1 (0: every core)"))


def decimal(x: float, places: int = 2, sign: bool = False) -> str:
    """A measured number as the player's language writes it: ``+1.25`` (``+1,25`` in French and Italian)."""
    return format_number(x, current(), places, grouped=False, sign=sign)


def fmt(mean: float, half: float) -> str:
    return f"{decimal(mean, sign=True)} ± {decimal(half)}"


def contract_names(rules: str) -> dict[str, str]:
    """Contract keys -> what the table shows: the key itself in English (the notation players type there),
    the contract's name in the player's language otherwise."""
    if current() == "en":
        return {}

    return {key: words().contract(k.name) for key, k in Match(Ruleset.parse(rules)).contract_by_key.items()}


def print_summary(console: Console, rules: str, s: Summary) -> None:
    title = (
        _("{rules}: mean points per deal over {n} duplicate deals (95% interval; higher is better)")
        if s.sign > 0
        else _("{rules}: mean points per deal over {n} duplicate deals (95% interval; lower is better)")
    )
    t = Table(title=title.format(rules=rules, n=number(s.boards)))
    t.add_column(_("bot"))
    t.add_column(_("points per deal"), justify="right")
    for bot in s.bots:
        t.add_row(bot, fmt(*s.mean[bot]))
    console.print(t)
    if s.pairs:
        d = Table(title=_("Differences, board by board (a minus b, in the family's sense: positive means a is better)"))
        d.add_column("a")
        d.add_column("b")
        d.add_column(_("a - b per deal"), justify="right")
        d.add_column(_("verdict"))
        for (a, b), (mean, half) in s.pairs.items():
            mean *= s.sign
            verdict = (
                _("a is better")
                if mean - half > 0
                else _("b is better")
                if mean + half < 0
                else _("no clear difference")
            )
            d.add_row(a, b, fmt(mean, half), verdict)
        console.print(d)
    c = Table(title=_("Per contract (mean points per deal of each bot at the deals played at that contract)"))
    c.add_column(_("contract"))
    c.add_column(_("deals"), justify="right")
    for bot in s.bots:
        c.add_column(bot, justify="right")
    names = contract_names(rules)
    for contract, by_bot in s.per_contract.items():
        c.add_row(
            names.get(contract, contract),
            number(s.contract_deals[contract]),
            *(fmt(*by_bot[bot]) if bot in by_bot else "-" for bot in s.bots),
        )
    console.print(c)


def cmd_arena(args: argparse.Namespace, console: Console) -> int:
    rules = Ruleset.parse(args.rules)
    if args.players is not None and args.players != rules.players:
        rules = rules.replace(players=args.players)
    bots = split_bots(args.bots)
    if len(bots) == 1:
        bots = bots * rules.players
    if len(bots) != rules.players:
        raise AgentError.of(LINE_UP, rules=str(rules), n=rules.players, given=len(bots))
    if args.deals < 1:
        raise AgentError.of(DEALS_AT_LEAST_ONE)
    out = args.out or f"arena-{rules.preset}-seed{args.seed}"
    with open_arena_runner(args, console) as runner:
        console.print(
            _(
                "{rules}: {bots}; {deals} duplicate deals x {rotations} rotations on {workers} worker(s); "
                "records in {out}/"
            ).format(
                rules=rules,
                bots=", ".join(bots),
                deals=number(args.deals),
                rotations=len(bots),
                workers=runner.workers,
                out=out,
            )
        )
        with Progress(
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=console,
        ) as progress:
            task = progress.add_task(_("deals played"), total=args.deals * len(bots))

            def advance(k: int) -> None:
                progress.advance(task, k)
                done = progress.tasks[0].completed
                if done >= (progress.tasks[0].total or 0):  # matches that end early need more seeds than planned
                    progress.update(task, total=done + k)

            _runs, summary = run_arena(
                str(rules), bots, args.deals, seed=args.seed, out_dir=out, progress=advance, runner=runner
            )
            # Matches can end before the planned number of deals: the bar ends full at what was played.
            progress.update(task, total=progress.tasks[0].completed)
    print_summary(console, str(rules), summary)
    return 0


def open_arena_runner(args: argparse.Namespace, console: Console) -> Runner:
    """Where ``barbu arena`` plays (every family): ``--cluster ADDRESS`` (said on the console with its workers),
    else ``--workers`` processes of this machine (default: every core)."""
    cluster = getattr(args, "cluster", None)
    if cluster and args.workers:
        raise BarbuError.of(WORKERS_OR_CLUSTER)
    if args.workers < 0:
        raise BarbuError.of(WORKERS_AT_LEAST_ONE)
    runner = open_runner(args.workers or os.cpu_count() or 1, cluster)
    if runner.address:
        console.print(
            _("cluster {address}: {n} worker(s), each with barbu {version}").format(
                address=runner.address, n=number(runner.workers), version=runner.version
            )
        )
    return runner
