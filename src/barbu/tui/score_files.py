"""A kept game to and from files: JSON and CSV (``barbu.scorekeeper.exchange``) and the printable sheet.

Shared by ``barbu score``'s subcommands and its terminal app, so both write
the same files.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..i18n import current
from ..scorekeeper import AnyKeeper, exchange

FORMATS = ("json", "csv")
PRINT_FORMATS = ("pdf", "html")


def export_text(keeper: AnyKeeper, fmt: str) -> str:
    return exchange.to_csv(keeper) if fmt == "csv" else exchange.to_json(keeper) + "\n"


def import_text(text: str, name: str = "") -> AnyKeeper:
    """A kept game from an exported file (CSV when it looks like one, else JSON) or from a played match
    record (``.jsonl``).  Raises `KeeperError`."""
    if exchange.is_record(text):
        return exchange.from_record(text)
    if name.lower().endswith(".csv") or text.lstrip().startswith("barbu-scorekeeper,"):
        return exchange.from_csv(text)
    return exchange.from_json(text)


def printable(keeper: AnyKeeper, fmt: str, lang: str | None = None) -> bytes:
    """The game's printable sheet as PDF or print-ready HTML, in ``lang`` (None: the language of the moment).
    The printing (fpdf2, a third of a second to import) is loaded only when a sheet is printed."""
    from ..scorekeeper.printing import printable as print_sheet

    return print_sheet(keeper, fmt, lang=lang or current())


def file_name(title: str, suffix: str, folder: Path = Path(".")) -> Path:
    """A free file name from the game's title: ``friday-at-ann-s.csv``, ``friday-at-ann-s-2.csv``…"""
    stem = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "game"
    path = folder / f"{stem}.{suffix}"
    i = 2
    while path.exists():
        path = folder / f"{stem}-{i}.{suffix}"
        i += 1
    return path
