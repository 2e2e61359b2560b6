"""``barbu play``: its options, and which game they open: the full-screen one (`barbu.tui`), the line-by-line
one (`barbu.cli.textplay`, `barbu.cli.besigue_plain`: no Textual needed) or the day's daily deals."""

from __future__ import annotations

import argparse
import sys

from ..agents import AGENT_KINDS
from ..core.errors import BarbuError
from ..games import game_kind, record_kind, short_rules
from ..i18n import _
from .argwords import PLAYERS_HELP, RULES_HELP, seconds


def add_arguments(pl: argparse.ArgumentParser) -> None:
    pl.add_argument("--rules", default="classic", help=_(RULES_HELP))
    pl.add_argument("--players", type=int, help=_(PLAYERS_HELP))
    pl.add_argument("--sets", type=int, help=_("Scottish game: the number of Sets to play"))
    pl.add_argument(
        "--short",
        action="store_true",
        help=_("a short match of some twenty minutes: two contracts each (8 deals at four), Bésigue to 500 points"),
    )
    pl.add_argument("--seat", type=int, default=None, help=_("your seat (default 0, or the record's when resuming)"))
    pl.add_argument("--seed", type=int, default=None, help=_("seed for the deal and the computer players"))
    pl.add_argument(
        "--save",
        help=_(
            "record file for a new match, saved after every deal and on quit (default: "
            "barbu-game.jsonl, or the next free name: a saved match is never overwritten)"
        ),
    )
    pl.add_argument("--resume", help=_("resume the match in this record file"))
    pl.add_argument(
        "--opponents",
        help=_(
            "strength of the computer players: one for all, or one per computer seat in order, comma-separated "
            "({kinds}, or a trained policy: policy:FILE.npz)"
        ).format(kinds=", ".join(AGENT_KINDS)),
    )
    pl.add_argument(
        "--delay",
        type=seconds,
        default=0.6,
        help=_("seconds between computer moves, so you can follow them (default 0.6; 0 for none)"),
    )
    pl.add_argument("--start", action="store_true", help=_("skip the setup screen and start at once"))
    pl.add_argument(
        "--plain",
        action="store_true",
        help=_("the line-by-line game instead of the full-screen one (used when input is piped)"),
    )
    pl.add_argument(
        "--no-compare",
        action="store_true",
        help=_(
            "do not replay each deal with the expert in your seat to compare your score with the expert's (for slow "
            "machines: the replays run in the background, a second or so a decision)"
        ),
    )
    pl.add_argument(
        "--compare-with",
        default=None,
        metavar="PLAYER",
        help=_("the computer player that replays each deal in your seat (default expert; search or rule are quicker)"),
    )
    pl.add_argument(
        "--confirm-forced",
        action="store_true",
        help=_(
            "wait for you even when you have only one possible choice (by default such a move, like a pass when "
            "no card fits, is made for you with a note)"
        ),
    )
    pl.add_argument(
        "--daily",
        action="store_true",
        help=_(
            "play the day's daily deals (the same as the local server's, from the daily secret in its database), "
            "compared with the computer players' own results on the same cards"
        ),
    )
    pl.add_argument("--date", help=_("with --daily: the day, YYYY-MM-DD (default today, UTC)"))
    pl.add_argument(
        "--db",
        help=_(
            "with --daily: the server's database holding the daily secret (default: barbu-web.db when this folder "
            "has one, else one in your data folder, made if missing)"
        ),
    )
    pl.set_defaults(func=cmd_play)


def cmd_play(args: argparse.Namespace) -> int:
    """The Textual game; the line-by-line one with --plain or when not run in a terminal (piped input)."""
    if getattr(args, "daily", False):  # the day's daily deals: the Textual table, or line by line (barbu.cli.daily)
        from .daily import play_daily, play_daily_table

        if args.plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
            return play_daily(args)
        return play_daily_table(args)
    if args.short and not args.resume:
        try:
            args.rules = short_rules(args.rules)
        except BarbuError:
            pass  # the game's own start says what is wrong with the rules
    if args.plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
        from .textplay import play_in_terminal

        if args.seat is None and not (args.resume and record_kind(args.resume).name == "besigue"):
            args.seat = 0
        if (record_kind(args.resume) if args.resume else game_kind(args.rules)).name == "besigue":
            from .besigue_plain import play_plain  # Bésigue's line-by-line game

            return play_plain(args)
        return play_in_terminal(args)
    from ..tui.launch import play

    return play(args)
