"""The ``barbu`` command line: rules, selfplay, replay, sheet, show, analyze, arena, play, serve, score, learn
and users.

Each command lives in a module of its own (`barbu.cli.rules`, `barbu.cli.serve`, …), imported only when the
command runs: its options are added to its parser when argparse meets its name (`Commands`), so ``barbu
--help`` loads no server, database, screen or array library, and a command that needs an extra the
installation lacks says which to install (`barbu.cli.extras`) instead of failing with a traceback.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Callable
from importlib import import_module
from typing import Sequence, cast

from ..core.errors import BarbuError, RecordError, UnreadableFile
from ..i18n import _, use
from .argwords import PLAYERS_HELP, RULES_HELP, Parser, route_argparse
from .lang import add_lang_options, lang_in


class Commands(argparse._SubParsersAction):
    """The subcommands, each filled in with its options only when it is the one given (`add_command`)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._fillers: dict[str, Callable[[argparse.ArgumentParser], None]] = {}

    def add_command(
        self, name: str, fill: str | Callable[[argparse.ArgumentParser], None], **kwargs
    ) -> argparse.ArgumentParser:
        """A command whose options ``fill`` adds: ``module:function`` of `barbu.cli`, or a function."""
        self._fillers[name] = fill if callable(fill) else _filler(fill)
        return self.add_parser(name, **kwargs)

    def fill(self, name: str) -> argparse.ArgumentParser:
        """The command's parser with all its options (added the first time)."""
        parser = self._name_parser_map[name]
        fill = self._fillers.pop(name, None)
        if fill is not None:
            fill(parser)
            add_lang_options(parser, top=False)  # to the command's own subcommands too
        return parser

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        if values and values[0] in self._fillers:
            self.fill(values[0])
        super().__call__(parser, namespace, values, option_string)


def _filler(target: str) -> Callable[[argparse.ArgumentParser], None]:
    module, _sep, function = target.partition(":")

    def fill(parser: argparse.ArgumentParser) -> None:
        getattr(import_module(f"{__package__}.{module}"), function)(parser)

    return fill


class Version(argparse._VersionAction):
    """``--version``: the installed distribution's version, read only when asked for."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        from importlib.metadata import version

        self.version = f"barbu {version('barbu')}"
        super().__call__(parser, namespace, values, option_string)


def add_sheet_command(sht: argparse.ArgumentParser) -> None:
    """``barbu sheet``'s options (the sheet itself is `barbu.cli.sheets`')."""
    from .common import console
    from .sheets import add_sheet_arguments, cmd_sheet

    sht.add_argument("--rules", default="classic", help=_(RULES_HELP))
    sht.add_argument("--players", type=int, help=_(PLAYERS_HELP))
    sht.add_argument("--sets", type=int, help=_("Scottish game: the number of Sets on the sheet"))
    sht.add_argument("-o", "--out", help=_("the file to write: .pdf, .html or .txt (default: text on the terminal)"))
    add_sheet_arguments(sht)
    sht.set_defaults(func=lambda a: cmd_sheet(a, console))


def build_parser() -> argparse.ArgumentParser:
    """Every command, worded in the language of the moment (use() it first); a command's options are added
    when it is parsed (`Commands.fill`)."""
    p = Parser(prog="barbu", description=_("Barbu and its family of card games."))
    p.add_argument("--version", action=Version, help=_("show program's version number and exit"))
    add_lang_options(p)  # here only; each command's parser gets it after its own options (Commands.fill)
    sub = cast(Commands, p.add_subparsers(dest="command", metavar="COMMAND", action=Commands))
    sub.add_command("rules", "rules:add_arguments", help=_("list presets, or show one preset's options and contracts"))
    sub.add_command("selfplay", "selfplay:add_arguments", help=_("play a whole match between computer players"))
    sub.add_command(
        "replay", "replay:add_replay_arguments", help=_("replay a record: deal-by-deal scores, totals, consistency")
    )
    sub.add_command(
        "sheet", add_sheet_command, help=_("print a blank score sheet (PDF, print-ready HTML or text) for a preset")
    )
    sub.add_command(
        "show", "replay:add_show_arguments", help=_("show one deal of a record, or the whole record as text")
    )
    sub.add_command(
        "analyze",
        "analyze:add_arguments",
        help=_("what each decision of a recorded game cost, and each player's costliest"),
    )
    sub.add_command(
        "arena", "arena:add_arguments", help=_("duplicate matches between computer players, with confidence intervals")
    )
    sub.add_command("play", "play:add_arguments", help=_("play against computer players in the terminal"))
    sub.add_command("serve", "serve:add_arguments", help=_("run the multiplayer web server (lobby and browser tables)"))
    sub.add_command(
        "score",
        "score:add_arguments",
        help=_(
            "keep the score of a game played with real cards (terminal app, or list/show/export/import/add for scripts)"
        ),
    )
    sub.add_command(
        "learn", "learn:add_arguments", help=_("learn to play: a short guided deal of each kind of contract")
    )
    sub.add_command(
        "puzzle", "puzzle:add_arguments", help=_("card puzzles from real deals: rated, daily, streak, or your own")
    )
    sub.add_command(
        "users", "users:add_arguments", help=_("the web server's accounts: list, reset a password, delete, ban")
    )
    sub.add_command(
        "puzzles",
        "puzzles_make:add_arguments",
        help=_("make card puzzles from records or self-play, show them, prove them again"),
    )
    sub.add_command(
        "daily", "daily:add_arguments", help=_("the web server's daily deals: who finished them from one address")
    )
    sub.add_command(
        "backup", "backup:add_backup_arguments", help=_("copy the web server's database into a file, while it runs")
    )
    sub.add_command(
        "restore", "backup:add_restore_arguments", help=_("put a backup back into the web server's database")
    )
    sub.add_command(
        "migrate", "backup:add_migrate_arguments", help=_("create or upgrade the web server's database schema")
    )
    return p


def complain(text: str, markup: bool = True, soft_wrap: bool = False) -> None:
    """A refusal on stderr, through Rich when it is there (the command line's own console), else plainly."""
    try:
        from .common import err
    except ImportError:
        print(text, file=sys.stderr)
        return
    err.print(text, markup=markup, soft_wrap=soft_wrap)


_shown: list[Callable] = []  # warnings.showwarning as it was before tell_missing_extras


def tell_missing_extras() -> None:
    """A part that plays on without a missing extra says so once, as a plain line on stderr (not as a
    warning with its file and line)."""
    if not _shown:
        _shown.append(warnings.showwarning)
        warnings.showwarning = _show


def _show(message, category, filename, lineno, file=None, line=None) -> None:
    from ..agents.refusals import MissingExtraWarning

    if issubclass(category, MissingExtraWarning):
        print(_("barbu: note: {message}").format(message=message), file=file or sys.stderr)
    else:
        _shown[0](message, category, filename, lineno, file, line)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    use(lang_in(argv))  # before the parser is built, so that its help is in the language asked for
    route_argparse()
    parser = build_parser()
    command = None
    try:
        args = parser.parse_args(argv)
        command = getattr(args, "command", None)
        if not getattr(args, "func", None):
            parser.print_help()
            return 0
        tell_missing_extras()
        return int(args.func(args) or 0)
    except ImportError as e:  # a library of an extra that is not installed: which extra, in plain words
        from .extras import missing_extra

        needed = missing_extra(e, command or next((a for a in argv if a in _commands(parser)), None))
        if needed is None:
            raise
        complain(_("barbu: error: {message}").format(message=needed), markup=False, soft_wrap=True)
        return 2
    except UnreadableFile as e:
        from .wording import error_text

        complain(_("barbu: error: {message}").format(message=error_text(e)), markup=False, soft_wrap=True)
        return 2
    except RecordError as e:
        from .wording import error_text

        complain(_("barbu: error: malformed record: {message}").format(message=error_text(e)))
        return 2
    except BarbuError as e:
        from .wording import error_text

        complain(_("barbu: error: {message}").format(message=error_text(e)), markup=False)
        return 2
    except KeyboardInterrupt:
        complain(_("interrupted"))
        return 130


def _commands(parser: argparse.ArgumentParser) -> set[str]:
    return {name for action in parser._actions if isinstance(action, Commands) for name in action.choices}


if __name__ == "__main__":
    sys.exit(main())
