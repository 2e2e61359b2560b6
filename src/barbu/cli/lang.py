"""``--lang`` on every command: the language the command line, the terminal game and the web default speak.

The language must be known before the parser is built, so that the help itself is
translated: `lang_in` finds ``--lang`` in the raw arguments first (wherever it stands:
``barbu --lang fr play`` and ``barbu play --lang fr`` alike), then `add_lang_options`
gives every parser and subparser the option, so argparse accepts, checks and documents it.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ..i18n import _, language


def lang_code(text: str) -> str:
    """A --lang value: en, fr, it or a code like fr_BE, it-IT, en_US.UTF-8 (argparse type)."""
    code = language(text)
    if code == "en" and not text.lower().startswith("en"):
        raise argparse.ArgumentTypeError(
            _("{text!r} is not a language barbu speaks: choose en, fr or it (a code like fr_BE works too)").format(
                text=text
            )
        )
    return code


def lang_in(argv: Sequence[str]) -> str | None:
    """The language asked for by ``--lang X`` or ``--lang=X`` in raw arguments (the last one wins); None if none.

    A value barbu does not speak is left to argparse, which refuses it in plain words."""
    found = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        value = (
            argv[i + 1]
            if arg == "--lang" and i + 1 < len(argv)
            else arg.partition("=")[2]
            if arg.startswith("--lang=")
            else None
        )
        if value is not None:
            try:
                found = lang_code(value)
            except argparse.ArgumentTypeError:
                pass
    return found


def add_lang_options(parser: argparse.ArgumentParser, top: bool = True) -> None:
    """Give ``--lang`` to the parser and every subparser under it (where it has none yet)."""
    if "--lang" not in parser._option_string_actions:
        parser.add_argument(
            "--lang",
            type=lang_code,
            metavar="LANG",
            default=None if top else argparse.SUPPRESS,
            help=_(
                "the language to speak: en, fr or it (default: the system's, from BARBU_LANG, LANGUAGE, "
                "LC_ALL, LC_MESSAGES or LANG)"
            ),
        )
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                add_lang_options(sub, top=False)
