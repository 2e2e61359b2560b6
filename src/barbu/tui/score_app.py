"""``barbu score``: the scorekeeper in the terminal — kept games, a new game, the sheet, deals and corrections.

Every change is saved at once in the database (the same as ``barbu serve``),
naming the version it was made from: if the game was changed elsewhere (the
web page) the change is refused, the user told, and the game reloaded.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.markup import escape
from rich.text import Text
from sqlalchemy.exc import SQLAlchemyError
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, ScrollableContainer, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, DataTable, Footer, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from ..besigue.ruleset import is_besigue
from ..classic.ruleset import OPTIONS, Ruleset, preset, presets
from ..core.errors import BarbuError
from ..core.words import N_
from ..i18n import _, current, ngettext, number, word_error
from ..play.labels import signed
from ..scorekeeper import AnyKeeper, BesigueKeeper, KeeperError, keeper_from_dict, new_keeper
from . import besigue_setup
from .dialogs import InfoDialog
from .score_entry import DealScreen
from .score_files import PRINT_FORMATS, export_text, file_name, import_text, printable
from .score_sheet import contract_text, flag_lines, game_line, has_doubles, sheet_rows, side_panel, standings_rows
from .score_store import Scorebook, ScorebookError, ScoreStore
from .score_widgets import word_bindings


def _total(x: Any) -> str:
    """A running total as the player's language writes it (an italian-six share like 25/2 as it is)."""
    return number(x) if isinstance(x, int) else str(x)


def said(e: BaseException) -> str:
    """An error in the language of the moment: the keeper's refusals are worded anew, the store's (English
    msgids shared with the web page) looked up in the catalogs."""
    if isinstance(e, ScorebookError):
        return _(str(e)) if str(e) else ""  # (gettext of "" is the catalog's header)
    return word_error(e, current())


BLOCK_SHADE = "on #1b2530"  # every other dealer's block (or Round) is shaded, as ruled paper


class ConfirmDialog(ModalScreen[bool]):
    """A yes-or-no question: Y or Enter says yes, N or Escape no."""

    BINDINGS = [Binding("y,enter", "answer(True)", N_("Yes")), Binding("n,escape", "answer(False)", N_("No"))]

    def __init__(self, question: str) -> None:
        super().__init__()
        word_bindings(self)
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.question, id="dialog-text")
            yes, no = _("Y: yes"), _("N / Esc: no")
            yield Static(
                f"[@click=screen.answer(True)][reverse] {yes} [/][/]   "
                f"[@click=screen.answer(False)][reverse] {no} [/][/]",
                id="dialog-close",
            )

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class SheetDialog(InfoDialog):
    """Standings, chart, flags and the Scottish Set sheet; wide lines scroll sideways instead of wrapping."""

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.title_text, id="dialog-title")
            with ScrollableContainer(id="dialog-body"):
                yield Static(self.body, id="sheet-text")
            yield Static(f"[@click=screen.close()][reverse] {self.closing} [/][/]", id="dialog-close")


class ImportDialog(ModalScreen["str | None"]):
    """The file to import: a kept game exported as JSON or CSV (by this app, the web page or a script)."""

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self) -> None:
        super().__init__()
        word_bindings(self)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(_("Import a kept game from a JSON or CSV file"), id="dialog-title")
            yield Input(placeholder=_("path, e.g. friday.csv"), id="import-path")
            cancel, enter = _("Esc: cancel"), _("Enter: import")
            yield Static(f"[@click=screen.cancel()][reverse] {cancel} [/][/]   {enter}", id="dialog-close")

    @on(Input.Submitted)
    def chosen(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ExportDialog(ModalScreen["str | None"]):
    """Which file to write: CSV, JSON, or the printable sheet (PDF, HTML)."""

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]
    CHOICES = [
        ("csv", N_("CSV — a spreadsheet opens it")),
        ("json", N_("JSON — barbu score import reads it back")),
        ("pdf", N_("PDF — the sheet, to print")),
        ("html", N_("HTML — the sheet, to print from a browser")),
    ]

    def __init__(self) -> None:
        super().__init__()
        word_bindings(self)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(_("Write the game to a file in this folder"), id="dialog-title")
            yield OptionList(*[Option(_(label), id=key) for key, label in self.CHOICES], id="export-choices")
            cancel = _("Esc: cancel")
            yield Static(f"[@click=screen.cancel()][reverse] {cancel} [/][/]", id="dialog-close")

    @on(OptionList.OptionSelected)
    def chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


# ---------------------------------------------------------------------- the kept games
class BooksScreen(Screen[None]):
    """The kept games in the database, the most recently changed first."""

    BINDINGS = [
        Binding("enter", "open", N_("Open"), show=True),
        Binding("n", "new", N_("New game")),
        Binding("i", "import", N_("Import")),
        Binding("d,delete", "delete", N_("Delete")),
        Binding("q", "app.quit", N_("Quit")),
    ]

    def __init__(self, store: ScoreStore) -> None:
        super().__init__()
        word_bindings(self)
        self.store = store
        self.books: list[Scorebook] = []

    def compose(self) -> ComposeResult:
        yield Static(
            _("[b]barbu score[/b] — games kept in {place}").format(place=escape(self.store.shown_url)), id="books-title"
        )
        yield DataTable(id="books", cursor_type="row", zebra_stripes=True)
        yield Static(id="books-empty")
        yield Footer()

    def on_mount(self) -> None:
        t = self.query_one("#books", DataTable)
        t.add_columns(_("title"), _("game"), _("players"), _("deals"), _("changed"))
        self.reload()

    def on_screen_resume(self) -> None:
        self.reload()

    def reload(self) -> None:
        try:
            self.books = self.store.list()
        except SQLAlchemyError as e:  # the database went away: say so, keep the screen
            self.notify(_("Cannot read the database: {error}").format(error=e), severity="error")
            return
        t = self.query_one("#books", DataTable)
        t.clear()
        for b in self.books:
            s = b.summary()
            t.add_row(
                b.title,
                b.rules,
                ", ".join(s["names"]),
                number(s["deals"]),
                b.updated_at.strftime("%d %b %H:%M"),
                key=b.id,
            )
        self.query_one("#books-empty", Static).update(
            _("No kept game yet. Press [b]N[/b] to start one, or [b]I[/b] to import a JSON or CSV file.")
            if not self.books
            else "[dim]"
            + _("Enter opens the game under the cursor · N starts a new one · I imports · D deletes")
            + "[/dim]"
        )
        t.focus()

    def _current(self) -> Scorebook | None:
        t = self.query_one("#books", DataTable)
        if not self.books or t.cursor_row is None or not 0 <= t.cursor_row < len(self.books):
            return None
        return self.books[t.cursor_row]

    @on(DataTable.RowSelected, "#books")
    def selected(self, _: DataTable.RowSelected) -> None:
        self.action_open()

    def action_open(self) -> None:
        book = self._current()
        if book is None:
            return
        try:
            book, keeper = self.store.open(book.id)
        except (KeeperError, ScorebookError) as e:
            self.notify(
                _("Cannot open {title}: {error}").format(title=book.title, error=said(e)), severity="error", timeout=8
            )
            return
        self.app.push_screen(GameScreen(self.store, book, keeper))

    def action_new(self) -> None:
        def made(result: tuple[AnyKeeper, str] | None) -> None:
            if result is None:
                return
            keeper, title = result
            book = self.store.create(keeper, title)
            self.app.push_screen(GameScreen(self.store, book, keeper))

        self.app.push_screen(NewGameScreen(), made)

    def action_import(self) -> None:
        def chosen(path: str | None) -> None:
            if not path:
                return
            file = Path(path).expanduser()
            try:
                keeper = import_text(file.read_text(encoding="utf-8"), file.name)
            except (OSError, UnicodeDecodeError) as e:
                self.notify(_("Cannot read {file}: {error}").format(file=file, error=e), severity="error", timeout=10)
                return
            except KeeperError as e:
                self.notify(_("Not imported: {error}").format(error=said(e)), severity="error", timeout=10)
                return
            self.store.create(keeper, file.stem)
            n = len(keeper.entries)
            self.notify(
                ngettext("Imported {file}: {rules}, {n} deal(s).", "Imported {file}: {rules}, {n} deal(s).", n).format(
                    file=file.name, rules=keeper.rules, n=number(n)
                )
            )
            self.reload()

        self.app.push_screen(ImportDialog(), chosen)

    def action_delete(self) -> None:
        book = self._current()
        if book is None:
            return

        def answer(yes: bool | None) -> None:
            if not yes:
                return
            try:
                self.store.delete(book.id)
            except ScorebookError as e:
                self.notify(said(e), severity="error")
            else:
                self.notify(_("Deleted {title}.").format(title=book.title))
            self.reload()

        n = len(book.data.get("entries", []))
        self.app.push_screen(
            ConfirmDialog(
                ngettext(
                    "Delete [b]{title}[/b] ({rules}, {n} deal(s))? This cannot be undone.",
                    "Delete [b]{title}[/b] ({rules}, {n} deal(s))? This cannot be undone.",
                    n,
                ).format(title=escape(book.title), rules=escape(book.rules), n=number(n))
            ),
            answer,
        )


# ---------------------------------------------------------------------- a new game
def game_choices() -> list[tuple[str, str]]:
    return [(p.name, p.name) for p in presets()] + besigue_setup.game_choices()


def game_description(name: str) -> str:
    return besigue_setup.description(name) if is_besigue(name) else _(preset(name).description)


def players_of(name: str) -> list[int]:
    return [2] if is_besigue(name) else list(preset(name).ruleset.family_spec.players)


def default_players(name: str) -> int:
    return 2 if is_besigue(name) else preset(name).ruleset.players


class NewGameScreen(Screen["tuple[AnyKeeper, str] | None"]):
    """The game, its options, the players in seating order and the first dealer."""

    BINDINGS = [Binding("ctrl+s", "start", N_("Start")), Binding("escape", "cancel", N_("Back"))]

    def __init__(self) -> None:
        super().__init__()
        word_bindings(self)
        self.game = "classic"
        self.count = default_players(self.game)
        self.names = ["", "", "", "", "", ""]

    def compose(self) -> ComposeResult:
        yield Static(_("[b]A new kept game[/b] — Tab moves between the fields, Ctrl+S starts."), id="new-title")
        with VerticalScroll(id="new-form"):
            with Horizontal(classes="setup-row"):
                yield Label(_("Title"), classes="new-label")
                yield Input(placeholder=_("e.g. Friday at Ann's"), id="title")
            with Horizontal(classes="setup-row"):
                yield Label(_("Game"), classes="new-label")
                yield Select(game_choices(), value=self.game, allow_blank=False, id="game")
            yield Static(self._options_help(), id="options-help")
            with Horizontal(classes="setup-row"):
                yield Label(_("Options"), classes="new-label")
                yield Input(placeholder=_("none: the preset as it is"), id="options")
            with Horizontal(classes="setup-row"):
                yield Label(_("Players"), classes="new-label")
                yield Select(
                    [(str(x), x) for x in players_of(self.game)], value=self.count, allow_blank=False, id="count"
                )
            yield Vertical(*self._name_rows(), id="names")
            with Horizontal(classes="setup-row"):
                yield Label(_("First dealer"), classes="new-label")
                yield Select(self._dealer_choices(), value=0, allow_blank=False, id="first")
        yield Static(id="new-error")
        with Horizontal(id="new-buttons"):
            yield Button(_("Start"), id="start", variant="primary")
            yield Button(_("Back"), id="back")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#title", Input).focus()

    def _options_help(self) -> str:
        about = escape(game_description(self.game))
        if is_besigue(self.game):
            return (
                "[dim]"
                + about
                + "\n"
                + _("Options as name=value, e.g. {example} (barbu rules {game}).").format(
                    example="target=1500", game=self.game
                )
                + "[/dim]"
            )
        r = preset(self.game).ruleset
        names = [o for o in r.family_spec.options if o != "players" and o in OPTIONS][:2]
        example = ", ".join(f"{o}={OPTIONS[o].format(getattr(r, o))}" for o in names)
        return (
            "[dim]"
            + about
            + "\n"
            + _("Options as name=value, e.g. {example} (all of them: barbu rules {game}).").format(
                example=escape(example), game=self.game
            )
            + "[/dim]"
        )

    def _name_rows(self) -> list:
        rows = []
        for s in range(self.count):
            rows.append(
                Horizontal(
                    Label(_("Player {n}").format(n=s + 1), classes="new-label"),
                    Input(value=self.names[s], placeholder=_("player {n}'s name").format(n=s + 1), id=f"name-{s}"),
                    classes="setup-row",
                )
            )
        return rows

    def _dealer_choices(self) -> list[tuple[str, int]]:
        return [(self.names[s] or _("player {n}").format(n=s + 1), s) for s in range(self.count)]

    @on(Select.Changed, "#game")
    def game_changed(self, event: Select.Changed) -> None:
        self.game = str(event.value)
        choices = players_of(self.game)
        self.count = default_players(self.game)
        count = self.query_one("#count", Select)
        count.set_options([(str(x), x) for x in choices])
        count.value = self.count
        self.query_one("#options-help", Static).update(self._options_help())
        self._rebuild_names()

    @on(Select.Changed, "#count")
    def count_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, int) and event.value != self.count:
            self.count = event.value
            self._rebuild_names()

    def _rebuild_names(self) -> None:
        box = self.query_one("#names", Vertical)
        box.remove_children()
        box.mount_all(self._name_rows())
        self._refresh_dealers()

    @on(Input.Changed)
    def typed(self, event: Input.Changed) -> None:
        wid = event.input.id or ""
        if wid.startswith("name-"):
            self.names[int(wid.split("-")[1])] = event.value.strip()
            self._refresh_dealers()

    def _refresh_dealers(self) -> None:
        first = self.query_one("#first", Select)
        value = first.value if isinstance(first.value, int) and first.value < self.count else 0
        first.set_options(self._dealer_choices())
        first.value = value

    def rules_text(self) -> str:
        """The ruleset text from the game, the options typed and the number of players."""
        options = self.query_one("#options", Input).value.strip().strip("()")
        text = f"{self.game}({options})" if options else self.game
        if is_besigue(self.game):
            return text
        try:
            r = Ruleset.parse(text)
        except BarbuError as e:
            raise KeeperError(str(e)) from None
        return str(r.replace(players=self.count)) if r.players != self.count else str(r)

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        names = [self.names[s] for s in range(self.count)]
        error = self.query_one("#new-error", Static)
        if not all(names):
            missing = [s + 1 for s, x in enumerate(names) if not x]
            error.update(
                "[b red]✗ "
                + ngettext(
                    "Give every player a name (player {seats}).",
                    "Give every player a name (players {seats}).",
                    len(missing),
                ).format(seats=", ".join(map(str, missing)))
                + "[/]"
            )
            return
        first = self.query_one("#first", Select).value
        assert isinstance(first, int)  # a seat: the list has no blank (allow_blank=False)
        try:
            keeper = new_keeper(self.rules_text(), names, first)
        except KeeperError as e:
            error.update(f"[b red]✗ {escape(said(e))}[/]")
            return
        title = self.query_one("#title", Input).value.strip() or f"{keeper.rules} — {', '.join(names)}"
        self.dismiss((keeper, title))

    @on(Button.Pressed, "#back")
    def action_cancel(self) -> None:
        self.dismiss(None)


# ---------------------------------------------------------------------- the sheet of one game
class GameScreen(Screen[None]):
    """One kept game: the sheet (a row per deal, a block per dealer), standings, chart, flags."""

    BINDINGS = [
        Binding("a,n", "add", N_("Add deal")),
        Binding("e,enter", "edit", N_("Edit")),
        Binding("d,delete", "delete", N_("Delete deal")),
        Binding("ctrl+z", "undo", N_("Undo")),
        Binding("s", "sheet", N_("Standings")),
        Binding("x", "export", N_("Export")),
        Binding("r", "reload", N_("Reload"), show=False),
        Binding("escape,q", "back", N_("Games")),
    ]

    def __init__(self, store: ScoreStore, book: Scorebook, keeper: AnyKeeper) -> None:
        super().__init__()
        word_bindings(self)
        self.store = store
        self.book = book
        self.keeper = keeper

    def compose(self) -> ComposeResult:
        yield Static(id="game-title")
        with Horizontal(id="game-body"):
            yield DataTable(id="sheet", cursor_type="row", cell_padding=0, cursor_background_priority="css")
            with VerticalScroll(id="side"):
                yield Static(id="side-body")
        yield Static(id="game-line")
        yield Footer()

    def on_mount(self) -> None:
        self.set_class(self.app.size.width < 110, "-narrow")
        self.redraw()
        self.query_one("#sheet", DataTable).focus()

    def on_resize(self, event) -> None:
        self.set_class(event.size.width < 110, "-narrow")
        self.redraw()  # the columns' widths follow the terminal's

    # ---------------------------------------------------------------- drawing
    def _widths(self, fixed: int, longest: int) -> tuple[int, int]:
        """(contract column, player column): the deal's points beside each total when they fit, and the
        contract as wide as the room left allows (at least 12 characters, at most 34)."""
        room = self.app.size.width - (0 if self.app.size.width < 110 else 40) - 3 - fixed
        for cell in (10, 6):
            width = min(longest, 34, room - cell * self.keeper.n)
            if width >= min(longest, 12):
                return width, cell
        return min(longest, 12), 6

    def redraw(self, cursor: int | None = None) -> None:
        k = self.keeper
        doubles = has_doubles(k)
        self.query_one("#game-title", Static).update(f"[b]{escape(self.book.title)}[/b] — {escape(game_line(k))}")
        t = self.query_one("#sheet", DataTable)
        old = t.cursor_row
        t.clear(columns=True)
        rows = sheet_rows(k)
        dealer_w = min(8, max([6] + [len(x) for x in k.names]))
        dbl_w = min(9, max([3] + [len(r.doubles) for r in rows]))
        empty = _("no deal yet: press A")
        contract_w, cell_w = self._widths(
            3 + dealer_w + 1 + 1 + (dbl_w + 1 if doubles else 0),
            max([8] + [len(r.contract) for r in rows] + ([] if k.results else [len(empty) + 1])),
        )
        compact = cell_w < 10
        t.add_column(" #", key="n")
        dealer, contract, dbl = _("dealer"), _("contract"), _("dbl")
        t.add_column(f" {dealer:<{dealer_w}}", key="dealer")
        t.add_column(f" {contract:<{contract_w}}", key="contract")
        if doubles:
            t.add_column(f" {dbl:<{dbl_w}}", key="dbl")
        for s, name in enumerate(k.names):
            t.add_column(Text(f"{name[: cell_w - 1]:>{cell_w}}"), key=f"p{s}")
        last_block = None
        for row in rows:
            shade = BLOCK_SHADE if row.block % 2 else ""
            first = row.block != last_block
            last_block = row.block
            contract = row.contract if len(row.contract) <= contract_w else row.contract[: contract_w - 1] + "…"
            cells: list[Any] = [
                Text(
                    f"{row.number:>2}" + ("!" if row.flagged else " "),
                    style=("bold yellow " if row.flagged else "") + shade,
                ),
                Text(f" {(row.dealer if first else '')[:dealer_w]:<{dealer_w}}", style=shade),
                Text(f" {contract:<{contract_w}}", style=shade),
            ]
            if doubles:
                cells.append(Text(f" {row.doubles[:dbl_w]:<{dbl_w}}", style=shade))
            for x, tot in zip(row.scores, row.totals):
                cell = Text(style=shade)
                if not compact:
                    cell.append(f"{signed(x):>5}", style="dim" if x == 0 else ("green" if x > 0 else "red"))
                cell.append(f"{_total(tot):>{5 if not compact else 6}}", style="bold")
                cells.append(cell)
            t.add_row(*cells)
        if not k.results:
            t.add_row(
                Text(" —"),
                Text(""),
                Text(" " + empty, style="dim"),
                *([Text("")] * (len(k.names) + (1 if doubles else 0))),
            )
        if rows:
            target = cursor if cursor is not None else (old if old is not None and old < len(rows) else len(rows) - 1)
            t.move_cursor(row=min(target, len(rows) - 1))
        self._side()

    def _side(self) -> None:
        k = self.keeper
        self.query_one("#side-body", Static).update(side_panel(k))
        st = standings_rows(k)
        flags = flag_lines(k)
        line = "  ".join(f"{place}. {escape(name)} {total}" for place, name, total, _ in st)
        nxt = "" if k.is_over else self._next_text()
        if nxt and self.app.size.width >= 110:
            line += f"   [dim]{escape(nxt)}[/dim]"
        if flags and self.app.size.width < 110:  # on a wide screen they are beside the sheet
            line += (
                "   [yellow]"
                + ngettext("{n} flag(s): S", "{n} flag(s): S", len(flags)).format(n=number(len(flags)))
                + "[/yellow]"
            )
        self.query_one("#game-line", Static).update(line)

    def _next_text(self) -> str:
        try:
            need = self.keeper.needs()
        except KeeperError:
            return ""
        if need.dealer is None:
            return _("next: deal {n}").format(n=need.number)
        return _("next: deal {n}, {name} deals").format(n=need.number, name=self.keeper.names[need.dealer])

    # ---------------------------------------------------------------- saving
    def persist(self, what: str) -> bool:
        """Save the keeper over the version opened; if it changed elsewhere, say so and reload it."""
        try:
            self.book = self.store.save(self.book, self.keeper)
        except ScorebookError as e:
            if e.status == 409:
                self.notify(
                    _(
                        "Not saved: {error}. It has been reloaded; enter your change again if it is still missing."
                    ).format(error=said(e)),
                    severity="error",
                    timeout=12,
                )
                self.action_reload()
            else:
                self.notify(_("Not saved: {error}").format(error=said(e)), severity="error", timeout=12)
                self.keeper.undo()
                self.redraw()
            return False
        except SQLAlchemyError as e:  # the database went away: keep the game as it was
            self.notify(_("Not saved: the database said {error}").format(error=e), severity="error", timeout=12)
            self.keeper.undo()
            self.redraw()
            return False
        self.notify(what, timeout=3)
        return True

    def action_reload(self) -> None:
        try:
            self.book, self.keeper = self.store.open(self.book.id)
        except (KeeperError, ScorebookError) as e:
            self.notify(_("Cannot reload: {error}").format(error=said(e)), severity="error")
            return
        self.redraw()

    # ---------------------------------------------------------------- actions
    def _selected(self) -> int | None:
        t = self.query_one("#sheet", DataTable)
        if not self.keeper.results or t.cursor_row is None or not 0 <= t.cursor_row < len(self.keeper.results):
            return None
        return t.cursor_row

    def _prefix(self, index: int) -> AnyKeeper:
        """The game as it stood before deal ``index`` (0-based): what a correction of that deal is checked on."""
        data = self.keeper.to_dict()
        data["entries"] = data["entries"][:index]
        return keeper_from_dict(data)

    def action_add(self) -> None:
        if self.keeper.is_over:
            self.notify(_("The game is over: every deal has been entered."), timeout=5)
            return

        def commit(entry: dict) -> None:
            self.keeper.add(entry)

        def back(saved: bool | None) -> None:
            if saved:
                n = len(self.keeper.results)
                self.persist(_("Deal {n} saved.").format(n=n))
                self.redraw(cursor=len(self.keeper.results) - 1)

        self.app.push_screen(DealScreen(self._prefix(len(self.keeper.entries)), commit, None, self.book.title), back)

    def action_edit(self) -> None:
        i = self._selected()
        if i is None:
            return

        def commit(entry: dict) -> None:
            self.keeper.replace(i, entry)

        def back(saved: bool | None) -> None:
            if saved:
                self.persist(_("Deal {n} corrected; every later deal scored again.").format(n=i + 1))
                self.redraw(cursor=i)

        self.app.push_screen(
            DealScreen(
                self._prefix(i), commit, self.keeper.entries[i], _("{title} — correcting").format(title=self.book.title)
            ),
            back,
        )

    @on(DataTable.RowSelected, "#sheet")
    def row_chosen(self, _: DataTable.RowSelected) -> None:
        self.action_edit()

    def action_delete(self) -> None:
        i = self._selected()
        if i is None:
            return
        r = self.keeper.results[i]
        label = (
            _("deal {n}").format(n=i + 1)
            if isinstance(self.keeper, BesigueKeeper)
            else _("deal {n} ({contract})").format(n=i + 1, contract=contract_text(self.keeper, r))
        )

        def answer(yes: bool | None) -> None:
            if not yes:
                return
            try:
                self.keeper.delete(i)
            except KeeperError as e:
                self.notify(
                    _("Cannot delete {deal}: {error}").format(deal=label, error=said(e)), severity="error", timeout=10
                )
                return
            self.persist(_("Deleted {deal}; the deals after it moved up. Ctrl+Z brings it back.").format(deal=label))
            self.redraw(cursor=i)

        self.app.push_screen(
            ConfirmDialog(
                _("Delete {deal}? The deals after it move up and are scored again.").format(deal=escape(label))
            ),
            answer,
        )

    def action_undo(self) -> None:
        try:
            self.keeper.undo()
        except KeeperError as e:
            text = said(e)
            self.notify(f"{text[:1].upper()}{text[1:]}.", timeout=4)
            return
        if self.persist(_("The last change was taken back.")):
            self.redraw()

    def action_sheet(self) -> None:
        """Standings, the chart, the flags (and the Scottish Set sheet): the side panel, for a narrow screen."""
        self.app.push_screen(
            SheetDialog(f"{self.book.title} — {game_line(self.keeper)}", side_panel(self.keeper, with_sheet=True))
        )

    def action_export(self) -> None:
        def write(fmt: str | None) -> None:
            if fmt is None:
                return
            path = file_name(self.book.title, fmt)
            try:
                if fmt in PRINT_FORMATS:
                    path.write_bytes(printable(self.keeper, fmt))
                else:
                    path.write_text(export_text(self.keeper, fmt), encoding="utf-8")
            except (KeeperError, OSError) as e:
                self.notify(_("Not written: {error}").format(error=said(e)), severity="error", timeout=10)
                return
            self.notify(_("Written to {file}").format(file=path.resolve()), timeout=8)

        self.app.push_screen(ExportDialog(), write)

    def action_back(self) -> None:
        self.dismiss(None)


class ScoreApp(App[int]):
    """The scorekeeper: kept games → a game's sheet → a deal's form."""

    CSS_PATH = ["barbu.tcss", "score.tcss"]
    TITLE = "barbu score"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", N_("Quit"), priority=True, show=False)]

    def __init__(self, store: ScoreStore) -> None:
        super().__init__()
        word_bindings(self)
        self.store = store

    def on_mount(self) -> None:
        self.push_screen(BooksScreen(self.store))

    async def action_quit(self) -> None:
        self.exit(0)  # every change is already saved


__all__ = ["BooksScreen", "ConfirmDialog", "GameScreen", "NewGameScreen", "ScoreApp"]
