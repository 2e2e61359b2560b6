"""``barbu selfplay``: a whole match between computer players, its record and its final standings."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from ..agents.play import agent_for, play_out
from ..arena.duplicate import split_bots
from ..classic.match import Match
from ..classic.ruleset import Ruleset
from ..core.errors import BarbuError
from ..games import game_kind
from ..i18n import _, number
from ..play.labels import computer_name, table_place
from .argwords import PLAYERS_HELP, RULES_HELP
from .common import besigue_commands, console, err
from .wording import deals_count, seat, seat_names


def add_arguments(s: argparse.ArgumentParser) -> None:
    s.add_argument("--rules", default="classic", help=_(RULES_HELP))
    s.add_argument("--players", type=int, help=_(PLAYERS_HELP))
    s.add_argument("--seed", type=int, default=None, help=_("seed for the deal and the players"))
    s.add_argument(
        "--bots",
        default="random",
        help=_(
            "computer players by seat, comma-separated (one name: all seats), from: random, rule, search, expert, "
            "e.g. rule,random,random,random; a trained policy: policy:FILE.npz (docs/rl.md)"
        ),
    )
    s.add_argument("--out", help=_("write the match record (JSON Lines) here"))
    s.add_argument("--text", help=_("also write the readable text form here"))
    s.add_argument("--sets", type=int, help=_("Scottish game: the number of Sets to play"))
    s.set_defaults(func=cmd_selfplay)


def parse_rules(text: str, players: int | None, sets: int | None = None) -> Ruleset:
    r = Ruleset.parse(text)
    if players is not None and players != r.players:
        r = r.replace(players=players)
    if sets is not None and sets != r.sets:
        if r.family != "scottish":
            raise BarbuError(_("--sets is for the Scottish game; {preset} has no Sets").format(preset=r.preset))
        r = r.replace(sets=sets)
    return r


def cmd_selfplay(args: argparse.Namespace) -> int:
    kind = game_kind(args.rules)
    if kind.name == "besigue":
        besigue_commands().check_players(args)
        game: Any = kind.open(args.rules, args.seed)
    else:
        game = Match(parse_rules(args.rules, args.players, args.sets), args.seed)
    specs = split_bots(args.bots)
    if len(specs) == 1:
        specs = specs * game.n
    if len(specs) != game.n:
        raise BarbuError(
            _("{rules} is played by {n} players: give {n} computer players, not {given}").format(
                rules=game.rules, n=game.n, given=len(specs)
            )
        )
    agents = [
        agent_for(game, spec, None if args.seed is None else args.seed * 1000 + s) for s, spec in enumerate(specs)
    ]
    # A progress bar on a terminal (search players take a minute for a match); nothing when piped.
    total = getattr(game, "total_deals", None)  # a Bésigue game has no fixed number of deals
    with Progress(
        TextColumn(_("deals")),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    ) as progress:
        task = progress.add_task("deals", total=total)

        def deal_done() -> None:
            done = len(game.results)
            progress.update(task, completed=done, total=None if total is None else max(game.total_deals, done))

        play_out(game, agents, deal_done)
    # people read "South, good player"; machines read the specs ("agents")
    n = len(specs)
    names = [computer_name(table_place(s, 0, n), spec, english=True) for s, spec in enumerate(specs)]
    if args.out:
        kind.write_record(game, args.out, {"players_names": names, "agents": list(specs)})
        console.print(_("record written to {path}").format(path=args.out))
    if args.text:
        Path(args.text).write_text(kind.text_form(game, names=names), encoding="utf-8")
        console.print(_("text form written to {path}").format(path=args.text))
    if kind.name == "besigue":
        besigue_commands().print_deals(console, game, f"Bésigue — {game.rules}")
    else:
        with seat_names([computer_name(table_place(s, 0, game.n), spec) for s, spec in enumerate(specs)]):
            print_final(game)
    return 0


def print_final(m: Match) -> None:
    # The title on a line of its own: as the table's title it wrapped to the narrow table's width.
    console.print(
        Text(
            _("Final standings — {rules}, {deals}").format(rules=m.rules, deals=deals_count(len(m.results))),
            style="bold",
        )
    )
    t = Table()
    t.add_column(_("place"), justify="right")
    t.add_column(_("player"))
    t.add_column(_("total"), justify="right")
    for place, (s, total) in enumerate(m.standings(), start=1):
        t.add_row(str(place), seat(s), number(total))
    console.print(t)
