"""What the commands share: the two consoles (standard output, errors on standard error), the one-line
refusal, and Bésigue's commands (`barbu.cli.besigue`, imported when a command turns out to be Bésigue's)."""

from __future__ import annotations

import argparse
import os
from types import ModuleType

from rich.console import Console

from ..i18n import _

console = Console(highlight=False)
err = Console(stderr=True, highlight=False)


def error(message: str) -> None:
    """A refusal of the command line, on stderr: ``barbu: error: …`` in the player's language."""
    err.print(_("barbu: error: {message}").format(message=message), soft_wrap=True, markup=False, highlight=False)


def besigue_commands() -> ModuleType:
    """Bésigue's commands live in their own module; the registry says when a command is Bésigue's."""
    from . import besigue

    return besigue


def add_database_argument(p: argparse.ArgumentParser) -> None:
    """``--db``, the web server's database, for the operator's commands over it (``barbu users``, ``barbu daily``)."""
    p.add_argument(
        "--db",
        default=os.environ.get("BARBU_DB") or None,
        help=_(
            "the server's database: a SQLite file path or URL, or postgresql://user:password@host/dbname "
            "(default: the environment's BARBU_DB; else barbu-web.db here)"
        ),
    )
