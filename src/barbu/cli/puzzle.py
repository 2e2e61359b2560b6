"""``barbu puzzle``: card puzzles from real deals, in the terminal.

Full-screen on the real table (`barbu.tui.puzzle_screen`), or line by line with ``--plain`` (or when not run in
a terminal, as ``barbu play`` does).  The modes: rated puzzles near your level (the default), ``--daily`` (the
day's puzzle), ``--streak`` (rising difficulty until the first mistake), ``--mine RECORD`` (your costliest
decisions of a match you played); ``--family``, ``--contract``, ``--theme`` and ``--kind`` choose among the
puzzles, ``--file`` reads a library made with ``barbu puzzles make`` instead of the one shipped with barbu.
Your rating, best streak, daily puzzles and history are kept in barbu's data folder (`barbu.tui.puzzle_store`).
"""

from __future__ import annotations

import argparse
import random
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from ..core.errors import BarbuError
from ..i18n import _, current, number, word_error
from ..i18n.typed import parse_typed
from ..puzzles import library
from ..puzzles.model import KINDS, OPEN, THEMES, Puzzle
from ..tui.puzzle_series import DailySeries, MineSeries, RatedSeries, Series, StreakSeries
from ..tui.puzzle_session import PuzzleSession
from ..tui.puzzle_store import PuzzleStore
from ..tui.puzzle_words import (
    action_words,
    cost_lines,
    kind_banner,
    mode_title,
    outcome_lines,
    standing_line,
    still_out_line,
    verdict,
)
from .textplay import command, describe
from .wording import hand, seat_names


def add_arguments(p: argparse.ArgumentParser) -> None:
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--daily", action="store_true", help=_("today's puzzle, the same for everyone"))
    mode.add_argument(
        "--streak", action="store_true", help=_("puzzles of rising difficulty until your first mistake (not rated)")
    )
    mode.add_argument(
        "--mine",
        metavar="RECORD",
        help=_("your own puzzles: the decisions that cost you most in a match you played (a record file)"),
    )
    p.add_argument("--seat", type=int, help=_("with --mine: your seat in the record (default: the one you played)"))
    p.add_argument("--file", metavar="LIBRARY", help=_("puzzles from this file (made with barbu puzzles make)"))
    p.add_argument("--family", help=_("only puzzles of this family of games (classic, french, italian, salad…)"))
    p.add_argument("--contract", help=_("only puzzles of this contract (no-queens, no-hearts, trumps…)"))
    p.add_argument("--theme", choices=THEMES, help=_("only puzzles of this theme"))
    p.add_argument(
        "--kind",
        choices=KINDS,
        help=_("open: every hand shown; single: only your hand and the cards played"),
    )
    p.add_argument("--date", help=_("with --daily: the day, YYYY-MM-DD (default today, UTC)"))
    p.add_argument("--seed", type=int, help=_("seed for choosing the puzzles"))
    p.add_argument(
        "--plain",
        action="store_true",
        help=_("the line-by-line puzzles instead of the full-screen ones (used when input is piped)"),
    )
    p.set_defaults(func=cmd_puzzle)


def cmd_puzzle(args: argparse.Namespace) -> int:
    series = series_from_args(args, PuzzleStore())
    if args.plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return play_plain(series)
    from ..tui.puzzle_app import PuzzleApp

    return PuzzleApp(series).run() or 0


def series_from_args(args: argparse.Namespace, store: PuzzleStore) -> Series:
    """The series the options ask for; `BarbuError` in plain words when it cannot be."""
    store.read()  # an unreadable puzzle file is said now, before any puzzle, and left as it is
    rng = random.Random(args.seed)
    filters = {k: getattr(args, k) for k in ("family", "contract", "theme", "kind") if getattr(args, k)}
    if args.mine:
        if filters or args.file:
            raise BarbuError(
                _(
                    "--mine takes its puzzles from your record: it takes no --file, --family, "
                    "--contract, --theme or --kind."
                )
            )
        return MineSeries(store, mine_puzzles(args.mine, args.seat), rng)
    puzzles = library.read(args.file) if args.file else library.load()
    if not puzzles:
        raise BarbuError(_("There are no puzzles in {where}.").format(where=args.file or _("barbu's library")))
    if args.daily:
        if filters:
            raise BarbuError(
                _(
                    "The puzzle of the day is the same for everyone: --daily takes no --family, "
                    "--contract, --theme or --kind."
                )
            )
        day = args.date or datetime.now(timezone.utc).date().isoformat()
        return DailySeries(store, library.daily(day, puzzles), day)
    chosen = library.choose(puzzles, **filters)
    if not chosen:
        raise BarbuError(no_match(puzzles, filters))
    if args.streak:
        return StreakSeries(store, chosen, rng)
    return RatedSeries(store, chosen, rng, mode="file" if args.file else "rated")


def no_match(puzzles: list[Puzzle], filters: dict[str, str]) -> str:
    """Why nothing was chosen: what the library holds for each choice made."""
    held = []
    for key in filters:
        values = sorted({getattr(p, key) for p in puzzles})
        held.append(f"{key}: {', '.join(values)}")
    return _("No puzzle matches what you asked for. The puzzles here have {choices}.").format(choices="; ".join(held))


def mine_puzzles(path: str, seat: int | None) -> list[Puzzle]:
    """Your costliest card decisions in the match recorded at ``path`` (the seat you played by default)."""
    from ..puzzles.mine import from_record
    from ..records.barbu import read_record
    from ..records.besigue import is_besigue_record

    if is_besigue_record(path):
        raise BarbuError(
            _("Puzzles come from matches of the Barbu family: {path} is a Bésigue game.").format(path=path)
        )
    record = read_record(path)
    if record.rules.family == "scottish":
        raise BarbuError(_("Puzzles come from deals of tricks: {path} is a Scottish game.").format(path=path))
    if seat is None:
        tui = record.header.get("tui")
        saved = tui.get("seat") if isinstance(tui, dict) else None
        seat = saved if isinstance(saved, int) and not isinstance(saved, bool) else 0
    players = record.header.get("players")
    if isinstance(players, int) and not 0 <= seat < players:
        raise BarbuError(_("--seat runs from 0 to {last} in this record.").format(last=players - 1))
    print(_("Looking for your costliest decisions in {path}…").format(path=path), file=sys.stderr)
    found = from_record(record, seat, name=Path(path).stem)
    if not found:
        raise BarbuError(
            _(
                "No puzzle in {path}: the solver found no card decision of yours that cost points "
                "in the ends of the deals it solves exactly."
            ).format(path=path)
        )
    return found


# ---------------------------------------------------------------- line by line
def play_plain(series: Series, read: Callable[[str], str] = input, out: Callable[[str], None] = print) -> int:
    """The series as text: each position, a card typed for each decision, the answer and what it moved."""
    p = series.next()
    if p is None:
        out(_("There is no puzzle to play here: no puzzle matches what you asked for."))
        return 2
    out(standing_line(series.store.read()))
    n = 0
    while p is not None:
        n += 1
        s = PuzzleSession(p)
        out("\n== " + mode_title(series.mode) + " · " + _("puzzle {n}").format(n=number(n)) + " ==")
        out(kind_banner(p))
        if not solve_plain(s, read, out):
            return 0
        at = s.at_decision()
        outcome = series.answer(p, s.answer, s.solved, s.cost)
        _replies, solution, costs = s.steps[min(s.step, len(s.steps) - 1)]
        out("")
        out(verdict(s.solved, action_words(at, s.answer), s.cost))
        for line in cost_lines(at, solution, costs):
            out("  " + line)
        for line in outcome_lines(outcome):
            out(line)
        p = series.next()
        if p is None:
            break
        try:
            again = read(_("Enter for the next puzzle, q to stop: "))
        except EOFError:
            return 0
        if command(again) == "quit":
            return 0
    out(_("No more puzzles here."))
    return 0


def solve_plain(s: PuzzleSession, read: Callable[[str], str], out: Callable[[str], None]) -> bool:
    """Ask for the card (and the cards of a line) until the answer is given; False when the person stopped."""
    m, me = s.match, s.seat
    from ..play.labels import seat_name

    with seat_names([seat_name(x, me, m.n) for x in range(m.n)]):
        shown = -1  # the decision whose position was printed
        while not s.finished:
            actor = m.to_act()
            assert actor is not None  # a puzzle's position is mid-deal: somebody is to play
            if actor != me:
                action = s.next_reply()
                s.apply_bot(actor, action)
                out(_("{who} plays {card}").format(who=seat_name(actor, me, m.n), card=action_words(m, str(action))))
                continue
            if shown != s.moves:
                shown = s.moves
                out("")
                out(describe(m, me).split("\n", 1)[-1])  # not its first line: a puzzle is no deal of a match
                if s.puzzle.kind != OPEN:
                    out(still_out_line(m.view(me)))
                if s.puzzle.kind == OPEN:
                    for k in range(1, m.n):
                        x = (me + k) % m.n
                        out(_("{who} holds: {cards}").format(who=seat_name(x, me, m.n), cards=hand(s.hand_of(x))))
                if len(s.steps) > 1:
                    out(_("Card {n} of {total} to find.").format(n=number(s.step + 1), total=number(len(s.steps))))
            try:
                text = read(_("Your card: "))
            except EOFError:
                return False
            cmd = command(text)
            if cmd == "quit":
                return False
            if cmd is not None or not text.strip():
                out(_("Type a card (qh, 10s, A♠), or q to stop."))
                continue
            try:
                action = s.apply_human(parse_typed(m, text, current()))
            except BarbuError as e:
                out(_("Not allowed: {reason}").format(reason=word_error(e, current())))
                continue
            if not s.finished:  # a right card of a line: the others reply, then the next card
                out(_("Right: {card}. Now your next card.").format(card=action_words(m, str(action))))
    return True
