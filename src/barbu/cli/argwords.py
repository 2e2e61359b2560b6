"""argparse's own words ("usage:", "options", its error messages) in the player's language.

argparse looks every word it prints up through the module globals ``argparse._`` and
``argparse.ngettext`` (the standard library's gettext, which knows no barbu catalog).
`route_argparse` points them at `barbu.i18n`, and the msgids are marked here so that
Babel puts them in the ``cli`` catalog.  They keep argparse's own ``%(name)s`` fields.
"""

from __future__ import annotations

import argparse
from typing import NoReturn

from ..core.words import N_, NN_
from ..i18n import _, ngettext

#: Every word of argparse a user of ``barbu`` may read (Python 3.11's msgids, word for word).
ARGPARSE_WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("subcommands"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("%(prog)s: error: %(message)s\n"),
)
ARGPARSE_PLURALS = (NN_("expected %s argument", "expected %s arguments"),)


def route_argparse() -> None:
    """Make argparse look its words up in barbu's catalogs, in the language of the moment."""
    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]


class Parser(argparse.ArgumentParser):
    """argparse, whose refusals are one line (``barbu serve: error: argument --port: …``) and a pointer to
    ``--help``, not the whole usage block, which buried the one line that said what was wrong."""

    def error(self, message: str) -> "NoReturn":
        line = _("%(prog)s: error: %(message)s\n") % {"prog": self.prog, "message": message}
        self.exit(2, line.rstrip("\n") + " " + _("(see {command} --help)").format(command=self.prog) + "\n")


def seconds(text: str) -> float:
    """A number of seconds given on the command line: a number, not negative."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("'{value}' is not a number of seconds").format(value=text)) from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(_("a number of seconds is 0 or more, not {value}").format(value=text))
    return value


#: Help lines several commands share.
RULES_HELP = N_("preset or ruleset text (default: classic)")
PLAYERS_HELP = N_("number of players, where the family allows a choice")
