"""``barbu learn``: the guided first deal ("Learn to play"), full-screen, or line by line with ``--plain``."""

from __future__ import annotations

import argparse
import sys
from typing import Callable

from ..core.errors import BarbuError
from ..guide.lesson import KEYS, SEAT, start
from ..i18n import _, current, word_error, words
from ..i18n.typed import parse_typed
from .textplay import describe


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lesson", choices=KEYS, default=KEYS[0], help=_("the lesson to begin with"))
    p.add_argument(
        "--plain",
        action="store_true",
        help=_("the line-by-line lessons instead of the full-screen ones (used when input is piped)"),
    )
    p.set_defaults(func=cmd_learn)


def cmd_learn(args: argparse.Namespace) -> int:
    if args.plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return learn_plain(args.lesson)
    from ..tui.learn import LessonApp

    return LessonApp(key=args.lesson).run() or 0


def learn_plain(key: str, read: Callable[[str], str] = input, out: Callable[[str], None] = print) -> int:
    """The lessons from ``key`` on, as text: the table, the step's words, and a line typed for each step."""
    w = words()
    for key in KEYS[KEYS.index(key) :]:
        play = start(key)
        out(
            "\n== "
            + _("Lesson {n} of {total}").format(n=KEYS.index(key) + 1, total=len(KEYS))
            + " — "
            + _(play.lesson.title)
            + " =="
        )
        while not play.finished:
            out(describe(play.match, SEAT))
            out("\n" + play.message().worded(w))
            try:
                text = read("> ").strip()
            except EOFError:
                return 0
            if text in ("quit", "exit", "q"):
                return 0
            try:
                refusal = play.act(parse_typed(play.match, text, current()))
            except BarbuError as e:
                refusal = play.refuse(text, e)
            if refusal is not None:
                reason = word_error(refusal.error, current()) + " — " if refusal.error is not None else ""
                out(_("Not allowed: {reason}").format(reason=reason + refusal.lesson.worded(w)))
            play.advance()
        out("\n" + describe(play.match, SEAT) + "\n\n" + play.lesson.done.worded(w))
    out(_("Start a real match: barbu play"))
    return 0
