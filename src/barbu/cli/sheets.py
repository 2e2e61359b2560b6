"""``barbu sheet`` (blank score sheets to print) and ``barbu replay RECORD --sheet FILE`` (a played match's).

The format follows the file's suffix: ``.pdf``, ``.html`` (print-ready page) or ``.txt``; without ``-o`` the
sheet is printed as text.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Sequence

from rich.console import Console

from ..besigue.ruleset import BesigueRules, is_besigue
from ..classic.ruleset import Ruleset
from ..core.errors import BarbuError
from ..games import record_kind
from ..i18n import _, current
from ..play.names import record_names
from ..records import barbu as barbu_records
from ..records import besigue as besigue_records
from ..scorekeeper.printhtml import render_html
from ..scorekeeper.sheet import Sheet, sheet_for
from ..scorekeeper.textsheet import render_text

FORMATS = {".pdf": "PDF", ".html": "HTML", ".htm": "HTML", ".txt": "text"}


def add_sheet_arguments(p: argparse.ArgumentParser, replay: bool = False) -> None:
    """The options ``barbu sheet`` and ``barbu replay --sheet`` share."""
    if replay:
        p.add_argument(
            "--sheet",
            metavar="FILE",
            help=_("write the match's score sheet here instead of the table (.pdf, .html or .txt)"),
        )
    p.add_argument(
        "--names", help=_("the players' names in seat order, comma-separated, e.g. Anna,Bernard,Carla,Dario")
    )
    p.add_argument("--paper", choices=("a4", "letter"), default="a4", help=_("paper size (default a4)"))


def parse_names(text: str | None, players: int) -> list[str] | None:
    """``Anna,Bernard`` as a list, one name per seat; a wrong count or an empty name is refused."""
    if text is None:
        return None
    names = [x.strip() for x in text.split(",")]
    if len(names) != players:
        raise BarbuError(
            _("--names: this game has {players} players; give {players} names separated by commas, not {given}").format(
                players=players, given=len(names)
            )
        )
    if any(not x for x in names):
        raise BarbuError(_("--names: a name is empty; write every player's name between the commas"))
    if any(len(x) > 40 for x in names):
        raise BarbuError(_("--names: a name is longer than 40 characters; shorten it to fit the sheet"))
    return names


def sheet_rules(text: str, players: int | None, sets: int | None = None) -> "Ruleset | BesigueRules":
    """A preset or ruleset text, with the player count (and the Scottish Sets) where the game lets you choose."""
    if is_besigue(text):
        if players not in (None, 2):
            raise BarbuError(_("Bésigue is played by 2 players, not {players}").format(players=players))
        if sets is not None:
            raise BarbuError(_("--sets is for the Scottish game; Bésigue has no Sets"))
        return BesigueRules.parse(text)
    rules = Ruleset.parse(text)
    if players is not None and players != rules.players:
        rules = rules.replace(players=players)
    if sets is not None and sets != rules.sets:
        if rules.family != "scottish":
            raise BarbuError(_("--sets is for the Scottish game; {preset} has no Sets").format(preset=rules.preset))
        rules = rules.replace(sets=sets)
    return rules


def write_sheet(sheet: Sheet, out: str | None, paper: str, console: Console) -> int:
    """Write the sheet in the format its file name asks for (text to the terminal without a file)."""
    if out is None:
        console.print(render_text(sheet), markup=False, highlight=False, end="", soft_wrap=True)
        return 0
    path = Path(out)
    kind = FORMATS.get(path.suffix.lower())
    if kind is None:
        raise BarbuError(
            _("cannot tell the format of {file}: name the file .pdf, .html or .txt").format(file=repr(out))
        )
    if kind == "PDF":
        from ..scorekeeper.pdf import render_pdf  # fpdf2, the sheets extra: HTML and text need nothing more

        data: Any = render_pdf(sheet, paper)
    elif kind == "HTML":
        data = render_html(sheet, paper)
    else:
        data = render_text(sheet)
    try:
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data, encoding="utf-8")
    except OSError as e:
        raise BarbuError(_("cannot write {file}: {error}").format(file=out, error=e.strerror or e)) from None
    said = {
        "PDF": _("wrote the PDF score sheet to {file}"),
        "HTML": _("wrote the HTML score sheet to {file}"),
        "text": _("wrote the text score sheet to {file}"),
    }
    console.print(said[kind].format(file=out), markup=False)
    return 0


def cmd_sheet(args: argparse.Namespace, console: Console) -> int:
    """A blank sheet for a preset and player count, names on top when given."""
    rules = sheet_rules(args.rules, args.players, args.sets)
    sheet = sheet_for(rules, parse_names(args.names, rules.players), lang=current())
    return write_sheet(sheet, args.out, args.paper, console)


def replay_sheet(args: argparse.Namespace, console: Console, err: Console) -> int:
    """The score sheet of a played match record (any game of the house); an inconsistent record is reported
    and the command fails, but the sheet of what the replay gives is still written."""
    problems: Sequence[str]
    if record_kind(args.record).name == "besigue":
        rep = besigue_records.read_record(args.record)
        rules: Any = rep.game.rules
        results: Sequence[Any] = rep.game.results
        header = rep.header
        problems = rep.inconsistencies
    else:
        record = barbu_records.read_record(args.record)
        rp = barbu_records.replay(record)
        rules, results, header, problems = rp.match.rules, rp.match.results, record.header, rp.inconsistencies
    names = parse_names(args.names, rules.players)
    if names is None:
        stated = header.get("names")
        if (
            isinstance(stated, list)
            and len(stated) == rules.players
            and all(isinstance(x, str) and x.strip() for x in stated)
        ):
            names = [x.strip()[:40] for x in stated]
        else:  # the players as the record names them, never seat numbers ("Alice", "West, good player")
            names = [x[:40] for x in record_names(header, rules.players)]
    code = write_sheet(sheet_for(rules, names, results, lang=current()), args.sheet, args.paper, console)
    for p in problems:
        err.print("[red]" + _("inconsistent:") + f"[/red] {p}")
    return 1 if problems else code


__all__ = ["add_sheet_arguments", "cmd_sheet", "replay_sheet", "parse_names", "sheet_rules", "write_sheet"]
