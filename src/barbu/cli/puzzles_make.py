"""``barbu puzzles``: make puzzle files from records and self-play (``make``), print puzzles as text (``show``)
and prove them again with the pure solver (``check``).  docs/puzzles.md says what a puzzle is."""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..arena.runners import open_runner
from ..classic.match import Match
from ..classic.state import DOMINO_PLAY
from ..core.cards import SUIT_SYMBOLS
from ..core.errors import BarbuError
from ..core.words import N_, message
from ..i18n import _, number
from ..puzzles.check import verify
from ..puzzles.find import EXACT_CARDS, REASONS, margin
from ..puzzles.layout_find import layout_margin
from ..puzzles.library import read, write
from ..puzzles.make import Made, jobs_for, make, record_paths
from ..puzzles.model import KINDS, OPEN, SINGLE, Puzzle
from ..puzzles.single import SAMPLES, SHARE
from ..solver.layout import layout_spec_of
from ..solver.position import spec_of, state_of
from ..solver.pure import accrued
from .common import console, err
from .textplay import _pos_label
from .wording import card, contract, hand, seat

#: The presets ``--selfplay`` plays unless ``--rules`` says otherwise: the main families' trick play.
DEFAULT_RULES = "classic,italian,salad,french"

EXISTS = message("puzzles-out-exists", N_("{path} exists: give --force to write over it, or another --out"))
NOTHING = message("puzzles-nothing-to-do", N_("nothing to mine: give --from RECORD… or --selfplay N"))
NO_ID = message("puzzles-no-such-id", N_("{path} has no puzzle {id}"))

#: What each theme and kind is called, for the summary and ``show``.
THEME_WORDS = {
    "duck": N_("duck under the winning card"),
    "unblock": N_("unblock a suit"),
    "take": N_("take the trick"),
    "lead-away": N_("give the lead away"),
    "cash": N_("cash a winner"),
    "guard": N_("keep a guard"),
    "shed": N_("choose the discard"),
    "ruff": N_("trump in"),
    "block": N_("block the layout"),
    "lay": N_("lay the right card on the layout"),
}
KIND_WORDS = {
    OPEN: N_("open: every hand shown"),
    SINGLE: N_("single: only your own hand and the cards played shown"),
}
REASON_WORDS = {
    "forced": N_("a forced card"),
    "last-trick": N_("the last two tricks"),
    "pass": N_("a pass among the moves (Success, after an ace): the tables take cards only"),
    "all-equal": N_("every card as good as another"),
    "two-best": N_("two different best cards"),
    "small-margin": N_("a wrong card costs less than the contract's margin"),
    "obvious": N_("the rule player finds it: a rule of thumb solves it"),
    "rebuild": N_("does not rebuild in a fresh match"),
    "single-share": N_("not best in enough of the deals the player could be looking at"),
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = _(
        "Card puzzles from real deals: positions where one card is best by a clear margin, proved by the exact "
        "solver (docs/puzzles.md)."
    )
    sub = p.add_subparsers(dest="puzzles_command", metavar="COMMAND", required=True)
    mk = sub.add_parser("make", help=_("find puzzles in records or in self-play matches and write them to a file"))
    mk.add_argument(
        "--from", dest="records", nargs="+", default=[], metavar="RECORD", help=_("records (.jsonl) or folders of them")
    )
    mk.add_argument(
        "--selfplay",
        type=int,
        default=0,
        metavar="N",
        help=_("play N matches of each ruleset between computer players and mine them"),
    )
    mk.add_argument(
        "--rules",
        default=DEFAULT_RULES,
        help=_("the rulesets of --selfplay, comma-separated (default {rules})").format(rules=DEFAULT_RULES),
    )
    mk.add_argument("--bots", default="rule", help=_("the computer players of --selfplay (default rule)"))
    mk.add_argument("--seed", type=int, default=1, help=_("the first self-play seed (default 1)"))
    mk.add_argument(
        "--kind", choices=("open", "single", "both"), default="both", help=_("which kind of puzzles (default both)")
    )
    mk.add_argument(
        "--samples",
        type=int,
        default=SAMPLES,
        help=_("deals sampled for a single puzzle (default {n})").format(n=SAMPLES),
    )
    mk.add_argument(
        "--exact-cards",
        type=int,
        default=EXACT_CARDS,
        help=_("positions solved once each hand holds at most this many cards (default {n})").format(n=EXACT_CARDS),
    )
    mk.add_argument(
        "--keep-obvious", action="store_true", help=_("keep positions whose best card the rule player finds too")
    )
    mk.add_argument("--workers", type=int, default=0, help=_("worker processes (default: every core)"))
    mk.add_argument(
        "--dask",
        metavar="ADDRESS",
        help=_("run on the workers of a Dask cluster instead, given its scheduler's address (docs/cluster.md)"),
    )
    mk.add_argument("--out", required=True, help=_("the puzzle file to write (JSON Lines, .gz to compress)"))
    mk.add_argument("--force", action="store_true", help=_("write over an existing file"))
    mk.set_defaults(func=cmd_make)
    sh = sub.add_parser("show", help=_("print puzzles of a file as text: hands, trick, solution, costs, theme"))
    sh.add_argument("file", help=_("a puzzle file"))
    sh.add_argument("id", nargs="?", help=_("one puzzle's id (default: every puzzle)"))
    sh.add_argument("--count", type=int, help=_("at most this many puzzles"))
    sh.set_defaults(func=cmd_show)
    mg = sub.add_parser("merge", help=_("put puzzle files together into one, each puzzle once"))
    mg.add_argument("files", nargs="+", metavar="FILE", help=_("puzzle files"))
    mg.add_argument("--out", required=True, help=_("the puzzle file to write (JSON Lines, .gz to compress)"))
    mg.add_argument("--force", action="store_true", help=_("write over an existing file"))
    mg.set_defaults(func=cmd_merge)
    ck = sub.add_parser("check", help=_("prove every puzzle of a file again with the pure-Python solver"))
    ck.add_argument("file", help=_("a puzzle file"))
    ck.set_defaults(func=cmd_check)


def cmd_make(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if out.exists() and not args.force:
        raise BarbuError.of(EXISTS, path=str(out))
    kinds = (OPEN, SINGLE) if args.kind == "both" else (args.kind,)
    rules = [r.strip() for r in args.rules.split(",") if r.strip()]
    for r in rules:
        Match(r, None)  # an unknown preset is refused here, in plain words, before any work
    made = Made()
    jobs = jobs_for(
        record_paths(args.records),
        args.selfplay,
        rules,
        args.bots,
        args.seed,
        kinds,
        args.samples,
        args.exact_cards,
        made,
    )
    for path, why in made.unread:
        err.print(_("skipped {path}: {reason}").format(path=path, reason=why), markup=False, soft_wrap=True)
    if not jobs:
        raise BarbuError.of(NOTHING)
    workers = args.workers or os.cpu_count() or 1
    start = time.monotonic()
    with (
        open_runner(workers, args.dask) as runner,
        Progress(
            TextColumn(_("matches")),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[found]}"),
            TimeElapsedColumn(),
            console=err,
            transient=True,
            disable=not err.is_terminal,
        ) as progress,
    ):
        task = progress.add_task("matches", total=len(jobs), found="")

        def step(done: int, total: int, found: int) -> None:
            progress.update(task, completed=done, found=_("{n} puzzles").format(n=number(found)))

        make(jobs, runner, made, step)
    out.parent.mkdir(parents=True, exist_ok=True)
    write(out, made.puzzles)
    print_summary(made, time.monotonic() - start)
    console.print(_("{n} puzzles written to {path}").format(n=number(len(made.puzzles)), path=str(out)), markup=False)
    return 0


def print_summary(made: Made, seconds: float) -> None:
    """Found by contract and kind, and the positions rejected by reason."""
    console.print(
        _("{matches} matches, {positions} positions weighed in {seconds} s").format(
            matches=number(made.matches), positions=number(made.tally.positions), seconds=number(round(seconds))
        ),
        markup=False,
    )
    t = Table(title=_("Puzzles found"))
    t.add_column(_("contract"))
    for k in KINDS:
        t.add_column(k, justify="right")
    contracts = sorted({c for c, _k in made.tally.found})
    for c in contracts:
        t.add_row(c, *(number(made.tally.found[(c, k)]) for k in KINDS))
    console.print(t)
    r = Table(title=_("Positions rejected"))
    r.add_column(_("reason"))
    r.add_column(_("positions"), justify="right")
    for reason in REASONS:
        if made.tally.rejected[reason]:
            r.add_row(_(REASON_WORDS[reason]), number(made.tally.rejected[reason]))
    if made.duplicates:
        r.add_row(_("found twice"), number(made.duplicates))
    console.print(r)


def cmd_merge(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if out.exists() and not args.force:
        raise BarbuError.of(EXISTS, path=str(out))
    merged: dict[str, Puzzle] = {}
    for path in args.files:
        for p in read(path):
            merged.setdefault(p.id, p)
    write(out, merged.values())
    console.print(_("{n} puzzles written to {path}").format(n=number(len(merged)), path=str(out)), markup=False)
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    puzzles = read(args.file)
    if args.id:
        puzzles = [p for p in puzzles if p.id == args.id]
        if not puzzles:
            raise BarbuError.of(NO_ID, path=args.file, id=args.id)
    if args.count is not None:
        puzzles = puzzles[: args.count]
    for i, p in enumerate(puzzles):
        if i:
            console.print()
        for line in puzzle_text(p):
            console.print(line, markup=False, highlight=False, soft_wrap=True)
    return 0


def puzzle_text(p: Puzzle) -> list[str]:
    """A puzzle as lines of text: what it is, the hands, the trick, the solution and what each other card costs."""
    m = p.match()
    lines = [
        _("Puzzle {id} — {kind}").format(id=p.id, kind=_(KIND_WORDS[p.kind])),
        _("{rules}, {contract}, theme: {theme}").format(
            rules=p.rules,
            contract=contract(m.contract.name) if m.contract else p.contract,
            theme=_(THEME_WORDS[p.theme]),
        )
        + ("" if p.trump is None else ", " + _("trumps: {suit}").format(suit=SUIT_SYMBOLS[p.trump])),
        _("from {source}, deal {deal}").format(source=p.source, deal=number(p.source_deal)),
    ]
    if m.phase == DOMINO_PLAY:
        return lines + layout_text(p, m)
    spec, state = spec_of(m), state_of(m)
    so_far = accrued(spec, state)
    for s in range(m.n):
        mark = "→" if s == p.seat else " "
        hidden = p.kind == SINGLE and s != p.seat
        lines.append(
            f"{mark} "
            + _("{seat}: {hand}   tricks: {tricks}, points: {points}").format(
                seat=seat(s), hand=hand(m.hands[s]), tricks=number(m.tricks_won[s]), points=number(so_far[s])
            )
            + ("  " + _("(hidden in this kind)") if hidden else "")
        )
    if m.trick:
        played = ", ".join(f"{seat(s)} {card(int(c))}" for s, c in m.current_trick())
        lines.append(_("Trick so far: {cards}").format(cards=played))
    else:
        lines.append(_("{seat} leads.").format(seat=seat(p.seat)))
    lines.append(
        _("Solution: {cards} (the deal ends at {value} points for {seat})").format(
            cards=", ".join(card(m.parse_action(a)) for a in p.solution), value=number(p.value), seat=seat(p.seat)
        )
    )
    costs = ", ".join(f"{card(m.parse_action(a))} {number(c)}" for a, c in p.costs)
    lines.append(_("Each other card costs: {costs} (margin {margin})").format(costs=costs, margin=number(margin(spec))))
    if p.kind == SINGLE and p.share is not None:
        lines.append(
            _("Best in {share}% of {n} deals consistent with what the player saw (at least {least}% needed)").format(
                share=number(round(100 * p.share)), n=number(p.samples), least=number(round(100 * SHARE))
            )
        )
    return lines


def layout_text(p: Puzzle, m: Match) -> list[str]:
    """A Domino or Success puzzle's hands, rows, solution and costs (every hand shown: the open kind)."""
    lines = [f"{'→' if s == p.seat else ' '} {seat(s)}: {hand(m.hands[s])}" for s in range(m.n)]
    rows = [f"{SUIT_SYMBOLS[s]} {_pos_label(m, a)}…{_pos_label(m, b)}" for s, (a, b) in row_spans(m)]
    lines.append(_("Layout: {rows}").format(rows="  ".join(rows) or "—"))

    def move(a: str) -> str:
        return _("pass") if a == "pass" else card(m.parse_action(a))

    lines.append(
        _("Solution: {cards} (the deal ends at {value} points for {seat})").format(
            cards=", ".join(move(a) for a in p.solution), value=number(p.value), seat=seat(p.seat)
        )
    )
    costs = ", ".join(f"{move(a)} {number(c)}" for a, c in p.costs)
    margin_ = layout_margin(layout_spec_of(m))
    lines.append(_("Each other card costs: {costs} (margin {margin})").format(costs=costs, margin=number(margin_)))
    return lines


def row_spans(m: Match) -> list[tuple[int, tuple[int, int]]]:
    return [(s, span) for s, span in enumerate(m.layout) if span]


def cmd_check(args: argparse.Namespace) -> int:
    puzzles = read(args.file)
    bad = 0
    for p in puzzles:
        problems = verify(p)
        if problems:
            bad += 1
            console.print(_("{id}: {problems}").format(id=p.id, problems="; ".join(problems)), markup=False)
    console.print(
        _("{good} of {n} puzzles proved again by the pure solver").format(
            good=number(len(puzzles) - bad), n=number(len(puzzles))
        ),
        markup=False,
    )
    return 1 if bad else 0
