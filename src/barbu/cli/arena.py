"""``barbu arena``: duplicate matches between computer players, with confidence intervals."""

from __future__ import annotations

import argparse

from ..arena.duplicate import split_bots
from ..games import game_kind
from ..i18n import _
from .argwords import PLAYERS_HELP, RULES_HELP
from .common import besigue_commands, console


def add_arguments(ar: argparse.ArgumentParser) -> None:
    ar.add_argument("--rules", default="classic", help=_(RULES_HELP))
    ar.add_argument("--players", type=int, help=_(PLAYERS_HELP))
    ar.add_argument(
        "--bots",
        default="rule",
        help=_(
            "one computer player per seat, comma-separated, e.g. search,rule,rule,rule or "
            "'search(samples=20),rule,rule,rule' (one name: all seats); a trained policy: policy:FILE.npz (docs/rl.md)"
        ),
    )
    ar.add_argument("--deals", type=int, default=100, help=_("duplicate deals (boards) to play (default 100)"))
    ar.add_argument("--seed", type=int, default=1, help=_("first match seed (default 1)"))
    ar.add_argument("--workers", type=int, default=0, help=_("worker processes (default: every core)"))
    ar.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help=_(
            "play on the workers of a Dask cluster instead, given its scheduler's address, e.g. tcp://host:8786 "
            "(the same results as here; every machine needs pip install 'barbu[cluster]': docs/cluster.md)"
        ),
    )
    ar.add_argument("--out", help=_("folder for the match records (default arena-PRESET-seedN)"))
    ar.set_defaults(func=cmd_arena)


def cmd_arena(args: argparse.Namespace) -> int:
    if game_kind(args.rules).name == "besigue":
        return besigue_commands().cmd_arena(args, console, split_bots(args.bots))
    from ..arena.report import cmd_arena as run

    return run(args, console)
