"""``barbu play``'s flags as the game's settings: the computer players, the comparison with the expert, the
record file; shared by the full-screen game (`barbu.tui.launch`) and the line-by-line one (`barbu.cli.textplay`).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from importlib.util import find_spec
from pathlib import Path

from ..agents.base import parse_agent_spec
from ..agents.expert import learned_inference
from ..arena.duplicate import split_bots
from ..besigue import is_besigue
from ..classic.ruleset import Ruleset
from ..core.errors import RulesetError
from ..i18n import _
from ..records.savefiles import DEFAULT_SAVE, SaveError
from . import besigue_session
from .session import Settings


def parse_opponents(text: str | None, players: int, seat: int) -> dict[int, str]:
    """``rule`` (every computer seat) or ``random,rule,search`` (the computer seats in order)."""
    if not text:
        return {}
    # names, with settings such as search(samples=20); a kind:argument player keeps its argument as written
    kinds = [k if ":" in k else k.lower() for k in split_bots(text) if k]
    others = [s for s in range(players) if s != seat]
    if len(kinds) == 1:
        return {s: kinds[0] for s in others}
    if len(kinds) != len(others):
        raise RulesetError(
            _("--opponents lists {n} computer players; give one for all, or one for each of seats {seats}").format(
                n=len(kinds), seats=", ".join(str(s) for s in others)
            )
        )
    return dict(zip(others, kinds))


def compare_from_args(args: argparse.Namespace, default: str | None) -> str | None:
    """The player that replays your deals to compare: ``--compare-with``, none with ``--no-compare``."""
    if getattr(args, "no_compare", False):
        return None
    return getattr(args, "compare_with", None) or default


def settings_from_args(args: argparse.Namespace) -> Settings:
    if is_besigue(args.rules):
        settings = besigue_session.settings_from_args(args)
        settings.compare = compare_from_args(args, settings.compare)
        if settings.compare:
            parse_agent_spec(settings.compare)  # AgentError says what is wrong with the player to compare with
        return settings
    rules = Ruleset.parse(args.rules)
    if args.players is not None and args.players != rules.players:
        rules = rules.replace(players=args.players)
    sets = getattr(args, "sets", None)  # the Scottish game's --sets, where the CLI has it
    if sets is not None and sets != getattr(rules, "sets", None):
        rules = rules.replace(sets=sets)
    seat = 0 if args.seat is None else args.seat
    save = Path(args.save) if args.save else Path(DEFAULT_SAVE)
    if args.save and save.exists():  # said before the game opens; never overwritten
        raise SaveError(
            _(
                "{file} already exists: resume it with barbu play --resume {file}, or choose another file with --save"
            ).format(file=save)
        )
    settings = Settings(
        rules=rules,
        seat=seat,
        opponents=parse_opponents(args.opponents, rules.players, seat),
        seed=args.seed,
        delay=args.delay,
        save=save,
        save_exact=bool(args.save),
        confirm_forced=bool(getattr(args, "confirm_forced", False)),
    )
    settings.compare = compare_from_args(args, settings.compare)
    settings.check()
    return settings


def tell_if_the_expert_lacks_numpy(kinds: Iterable[str | None]) -> None:
    """When the expert plays with its learned inference by default and numpy is not installed, say so now, in
    the person's process (once: `learned_inference`): its replays in a worker process of their own would
    otherwise play on without it unsaid."""
    if any(k and k.split("(")[0].strip().lower() == "expert" and "learned" not in k for k in kinds):
        try:
            there = find_spec("numpy") is not None  # not imported here: only the expert's process needs it
        except ImportError:
            there = False
        if not there:
            learned_inference()
