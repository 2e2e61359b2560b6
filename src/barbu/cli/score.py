"""``barbu score``: keep the score of a game played with real cards, in the terminal or from scripts.

Without a subcommand it opens the terminal scorekeeper; ``list``, ``show``,
``export``, ``import``, ``add`` and ``delete`` work on the same database
(default ``barbu-web.db`` here, as ``barbu serve``) for scripts.
Exit codes: 0 done, 1 refused (the rules, the deck or the database said no), 2 bad input.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

from ..core import safejson
from ..i18n import _, current, ngettext, number, word_error, words
from ..scorekeeper import KeeperError
from ..scorekeeper.refusals import word_note
from ..tui.score_files import PRINT_FORMATS, export_text, import_text, printable
from ..tui.score_sheet import full_sheet, game_line
from ..tui.score_store import ScorebookError, ScoreStore

console = Console(highlight=False)
err = Console(stderr=True, highlight=False)


def fail(message: str, code: int = 1) -> int:
    err.print(_("barbu score: error: {message}").format(message=message), soft_wrap=True, markup=False, highlight=False)
    return code


def _points(x: object) -> str:
    """A score as the player's language writes it (a share like 25/2 as it is)."""
    return number(x) if isinstance(x, int) else str(x)


def find(store: ScoreStore, book_id: str):
    """The book by its id, or by a unique start of it (ids are long; a scorer types a few characters)."""
    try:
        return store.open(book_id)
    except ScorebookError:
        matches = [b for b in store.list() if b.id.startswith(book_id)] if len(book_id) >= 3 else []
        if len(matches) != 1:
            raise
        return store.open(matches[0].id)


def cmd_list(store: ScoreStore, args: argparse.Namespace) -> int:
    books = store.list()
    if not books:
        console.print(
            _(
                "No kept game in {place} yet. Start one with [bold]barbu score[/bold] "
                "or [bold]barbu score import FILE[/bold]."
            ).format(place=store.shown_url)
        )
        return 0
    t = Table(title=_("Kept games in {place}").format(place=store.shown_url), title_justify="left")
    heads = {
        "id": _("id"),
        "title": _("title"),
        "rules": _("rules"),
        "players": _("players"),
        "deals": _("deals"),
        "changed": _("changed"),
    }
    for col, head in heads.items():
        t.add_column(head, justify="right" if col == "deals" else "left", no_wrap=col in ("id", "changed"))
    for b in books:
        s = b.summary()
        t.add_row(
            b.id, b.title, b.rules, ", ".join(s["names"]), number(s["deals"]), b.updated_at.strftime("%Y-%m-%d %H:%M")
        )
    console.print(t)
    return 0


def cmd_show(store: ScoreStore, args: argparse.Namespace) -> int:
    book, keeper = find(store, args.id)
    console.print(full_sheet(keeper, f"{book.title} — {game_line(keeper)}"))
    return 0


def cmd_export(store: ScoreStore, args: argparse.Namespace) -> int:
    book, keeper = find(store, args.id)
    text = export_text(keeper, args.format)
    if args.output and args.output != "-":
        Path(args.output).write_text(text, encoding="utf-8")
        n = len(keeper.entries)
        err.print(
            ngettext("{title}: {n} deal(s) written to {file}", "{title}: {n} deal(s) written to {file}", n).format(
                title=book.title, n=number(n), file=args.output
            ),
            markup=False,
        )
    else:
        sys.stdout.write(text)
    return 0


def cmd_print(store: ScoreStore, args: argparse.Namespace) -> int:
    book, keeper = find(store, args.id)
    data = printable(keeper, args.format, lang=current())
    if args.output and args.output != "-":
        Path(args.output).write_bytes(data)
        err.print(_("{title}: the sheet written to {file}").format(title=book.title, file=args.output), markup=False)
    else:
        sys.stdout.buffer.write(data)
    return 0


def cmd_import(store: ScoreStore, args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        text = sys.stdin.read() if args.file == "-" else path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        return fail(_("cannot read {file}: {error}").format(file=args.file, error=e), 2)
    keeper = import_text(text, args.file)
    title = args.title or (path.stem if args.file != "-" else _("Imported game"))
    book = store.create(keeper, title)
    n = len(keeper.entries)
    console.print(
        ngettext(
            "imported {title} ({rules}, {n} deal(s)) as {id}", "imported {title} ({rules}, {n} deal(s)) as {id}", n
        ).format(title=repr(title), rules=keeper.rules, n=number(n), id=book.id),
        markup=False,
    )
    return 0


def cmd_add(store: ScoreStore, args: argparse.Namespace) -> int:
    try:
        entry = safejson.loads(args.entry)
    except safejson.JsonError as e:  # nested, cut short, not text: one line in the reader's language
        return fail(_("--entry: {error}").format(error=word_error(e, current())), 2)
    book, keeper = find(store, args.id)
    keeper.add(entry)
    store.save(book, keeper)
    r = keeper.results[-1]
    deal = r["deal"] if isinstance(r, dict) else r.number
    scores = r["scores"] if isinstance(r, dict) else r.added
    console.print(
        _("deal {n} added: {scores}; totals {totals}").format(
            n=deal,
            scores=", ".join(f"{n} {_points(x)}" for n, x in zip(keeper.names, scores)),
            totals=", ".join(f"{n} {_points(x)}" for n, x in zip(keeper.names, keeper.totals)),
        ),
        markup=False,
    )
    for note in keeper.flags.get(deal, []):
        console.print(_("flag: {note}").format(note=word_note(note, words())), markup=False)
    return 0


def cmd_claim(store: ScoreStore, args: argparse.Namespace) -> int:
    book = store.claim(args.id, args.key)
    console.print(
        _("{title} ({rules}) is kept here too: barbu score shows and changes it").format(
            title=repr(book.title), rules=book.rules
        ),
        markup=False,
    )
    return 0


def cmd_delete(store: ScoreStore, args: argparse.Namespace) -> int:
    book, _keeper = find(store, args.id)
    if not args.yes:
        return fail(_("deleting {title} cannot be undone: add --yes to delete it").format(title=repr(book.title)), 2)
    store.delete(book.id)
    console.print(_("deleted {title}").format(title=repr(book.title)), markup=False)
    return 0


def cmd_app(store: ScoreStore, args: argparse.Namespace) -> int:
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        return fail(_("the scorekeeper needs a terminal; for scripts use barbu score list|show|export|import|add"), 2)
    from ..tui.score_app import ScoreApp

    return ScoreApp(store).run() or 0


COMMANDS = {
    "list": cmd_list,
    "show": cmd_show,
    "export": cmd_export,
    "import": cmd_import,
    "add": cmd_add,
    "print": cmd_print,
    "claim": cmd_claim,
    "delete": cmd_delete,
}


def cmd_score(args: argparse.Namespace) -> int:
    try:
        store = ScoreStore(args.db)
    except Exception as e:  # a database that cannot be opened: say which, in plain words
        return fail(_("cannot open the database {db}: {error}").format(db=args.db or "barbu-web.db", error=e), 1)
    func = COMMANDS.get(args.score_command, cmd_app)
    try:
        return func(store, args)
    except KeeperError as e:
        return fail(word_error(e, current()), 1)
    except ScorebookError as e:  # the store's refusals are English msgids, shared with the web page
        return fail(_(str(e)) if str(e) else "", 1)


def add_arguments(sc: argparse.ArgumentParser) -> None:
    sc.description = _(
        "Keep the score of a game played with real cards. Without a subcommand, opens the "
        "scorekeeper in the terminal: your kept games, a new game (N), each deal entered as the "
        "table counts it. The subcommands are for scripts."
    )
    sc.add_argument(
        "--db",
        help=_(
            "database: a SQLite file path or URL (default barbu-web.db here, as barbu serve), "
            "or postgresql://user:password@host/dbname"
        ),
    )
    ss = sc.add_subparsers(dest="score_command", metavar="SUBCOMMAND")
    ss.add_parser("list", help=_("the kept games, newest first"))
    p = ss.add_parser("show", help=_("a kept game's sheet, standings and totals as text"))
    p.add_argument("id", help=_("the game's id (or the start of it)"))
    p = ss.add_parser("export", help=_("write a kept game as JSON or CSV"))
    p.add_argument("id")
    p.add_argument("--format", choices=("json", "csv"), default="json")
    p.add_argument("-o", "--output", help=_("file to write (default: standard output)"))
    p = ss.add_parser("print", help=_("the printable sheet of a kept game, as PDF or print-ready HTML"))
    p.add_argument("id")
    p.add_argument("--format", choices=PRINT_FORMATS, default="pdf")
    p.add_argument("-o", "--output", help=_("file to write (default: standard output)"))
    p = ss.add_parser(
        "import", help=_("keep a game from an exported JSON or CSV file, or from a played match record (.jsonl)")
    )
    p.add_argument("file", help=_("the file (- for standard input)"))
    p.add_argument("--title", help=_("the game's title (default: the file's name)"))
    p = ss.add_parser("add", help=_("enter the next deal, given as a JSON entry"))
    p.add_argument("id")
    p.add_argument(
        "--entry",
        required=True,
        help=_("the deal, e.g. {example}").format(
            example='\'{"contract": "no-king", "doubles": [], "outcome": {"KH": 2}}\''
        ),
    )
    p = ss.add_parser("claim", help=_("keep here a game started elsewhere (the web page), with its edit key"))
    p.add_argument("id")
    p.add_argument("key", help=_("the game's edit key (the private part of its edit link)"))
    p = ss.add_parser("delete", help=_("delete a kept game"))
    p.add_argument("id")
    p.add_argument("--yes", action="store_true", help=_("really delete it"))
    sc.set_defaults(func=cmd_score, score_command=None)
