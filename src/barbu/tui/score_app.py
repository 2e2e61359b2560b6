"""``barbu score``: the scorekeeper in the terminal — kept games, a new game, the sheet, deals and corrections.

Every change is saved at once in the database (the same as ``barbu serve``),
naming the version it was made from: if the game was changed elsewhere (the
web page) the change is refused, the user told, and the game reloaded.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.markup import escape
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, DataTable, Footer, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from ..besigue.ruleset import is_besigue
from ..classic.ruleset import OPTIONS, Ruleset, preset, presets
from ..core.errors import BarbuError
from ..scorekeeper import AnyKeeper, BesigueKeeper, KeeperError, keeper_from_dict, new_keeper
from . import besigue_setup
from .dialogs import InfoDialog
from .labels import signed
from .score_entry import DealScreen
from .score_files import PRINT_FORMATS, export_text, file_name, printable
from .score_sheet import (chart_lines, contract_text, flag_lines, game_line, scottish_sheet_lines,
                          sheet_rows, standings_rows)
from .score_store import Scorebook, ScorebookError, ScoreStore

BLOCK_SHADE = "on #1b2530"


def side_panel(keeper: AnyKeeper) -> Group:
    """Standings, a chart of the totals, the flags and (Scottish game) the Set sheet with its glyphs."""
    lines = [Text.from_markup("[b]Standings[/b]" + (" (final)" if keeper.is_over else ""))]
    for place, name, total, behind in standings_rows(keeper):
        row = Text(f"{place}. {name:<10} {total!s:>6}")
        if behind:
            row.append(f" (-{behind})", style="dim")
        lines.append(row)
    lines += [Text(""), Text("Totals over the game", style="bold"), *chart_lines(keeper, 24)]
    flags = flag_lines(keeper)
    if flags:
        lines += [Text(""), Text("Flags", style="bold yellow"), *(Text(f"! {f}", style="yellow") for f in flags)]
    sheet = scottish_sheet_lines(keeper)
    if sheet:
        lines += [Text(""), Text("Set sheet (glyphs beside the points)", style="bold"),
                  Text("\n".join(sheet), no_wrap=True, overflow="ellipsis")]
    return Group(*lines)  # every other dealer's block (or Round) is shaded, as ruled paper


class ConfirmDialog(ModalScreen[bool]):
    """A yes-or-no question: Y or Enter says yes, N or Escape no."""

    BINDINGS = [Binding("y,enter", "answer(True)", "Yes"), Binding("n,escape", "answer(False)", "No")]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.question, id="dialog-text")
            yield Static("[@click=screen.answer(True)][reverse] Y: yes [/][/]   "
                         "[@click=screen.answer(False)][reverse] N / Esc: no [/][/]", id="dialog-close")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class ExportDialog(ModalScreen["str | None"]):
    """Which file to write: CSV, JSON, or the printable sheet (PDF, HTML)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    CHOICES = [("csv", "CSV — a spreadsheet opens it"), ("json", "JSON — barbu score import reads it back"),
               ("pdf", "PDF — the sheet, to print"), ("html", "HTML — the sheet, to print from a browser")]

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static("Write the game to a file in this folder", id="dialog-title")
            yield OptionList(*[Option(label, id=key) for key, label in self.CHOICES], id="export-choices")
            yield Static("[@click=screen.cancel()][reverse] Esc: cancel [/][/]", id="dialog-close")

    @on(OptionList.OptionSelected)
    def chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


# ---------------------------------------------------------------------- the kept games
class BooksScreen(Screen[None]):
    """The kept games in the database, the most recently changed first."""

    BINDINGS = [Binding("enter", "open", "Open", show=True), Binding("n", "new", "New game"),
                Binding("d,delete", "delete", "Delete"), Binding("q,escape", "app.quit", "Quit")]

    def __init__(self, store: ScoreStore) -> None:
        super().__init__()
        self.store = store
        self.books: list[Scorebook] = []

    def compose(self) -> ComposeResult:
        yield Static(f"[b]barbu score[/b] — games kept in {escape(self.store.shown_url)}", id="books-title")
        yield DataTable(id="books", cursor_type="row", zebra_stripes=True)
        yield Static(id="books-empty")
        yield Footer()

    def on_mount(self) -> None:
        t = self.query_one("#books", DataTable)
        t.add_columns("title", "game", "players", "deals", "changed")
        self.reload()

    def on_screen_resume(self) -> None:
        self.reload()

    def reload(self) -> None:
        try:
            self.books = self.store.list()
        except Exception as e:  # the database went away: say so, keep the screen
            self.notify(f"Cannot read the database: {e}", severity="error")
            return
        t = self.query_one("#books", DataTable)
        t.clear()
        for b in self.books:
            s = b.summary()
            t.add_row(b.title, b.rules, ", ".join(s["names"]), str(s["deals"]),
                      b.updated_at.strftime("%d %b %H:%M"), key=b.id)
        self.query_one("#books-empty", Static).update(
            "No kept game yet. Press [b]N[/b] to start one." if not self.books else
            "[dim]Enter opens the game under the cursor · N starts a new one · D deletes[/dim]")
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
            self.notify(f"Cannot open {book.title}: {e}", severity="error", timeout=8)
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
                self.notify(str(e), severity="error")
            else:
                self.notify(f"Deleted {book.title}.")
            self.reload()
        self.app.push_screen(ConfirmDialog(
            f"Delete [b]{escape(book.title)}[/b] ({escape(book.rules)}, {len(book.data.get('entries', []))} "
            "deal(s))? This cannot be undone."), answer)


# ---------------------------------------------------------------------- a new game
def game_choices() -> list[tuple[str, str]]:
    return [(f"{p.name} — {p.description}"[:70], p.name) for p in presets()] + besigue_setup.game_choices()


def players_of(name: str) -> list[int]:
    return [2] if is_besigue(name) else list(preset(name).ruleset.family_spec.players)


def default_players(name: str) -> int:
    return 2 if is_besigue(name) else preset(name).ruleset.players


class NewGameScreen(Screen["tuple[AnyKeeper, str] | None"]):
    """The game, its options, the players in seating order and the first dealer."""

    BINDINGS = [Binding("ctrl+s", "start", "Start"), Binding("escape", "cancel", "Back")]

    def __init__(self) -> None:
        super().__init__()
        self.game = "classic"
        self.count = default_players(self.game)
        self.names = ["", "", "", "", "", ""]

    def compose(self) -> ComposeResult:
        yield Static("[b]A new kept game[/b] — Tab moves between the fields, Ctrl+S starts.", id="new-title")
        with VerticalScroll(id="new-form"):
            with Horizontal(classes="setup-row"):
                yield Label("Title", classes="new-label")
                yield Input(placeholder="e.g. Friday at Ann's", id="title")
            with Horizontal(classes="setup-row"):
                yield Label("Game", classes="new-label")
                yield Select(game_choices(), value=self.game, allow_blank=False, id="game")
            with Horizontal(classes="setup-row"):
                yield Label("Options", classes="new-label")
                yield Input(placeholder="none: the preset as it is", id="options")
            yield Static(self._options_help(), id="options-help")
            with Horizontal(classes="setup-row"):
                yield Label("Players", classes="new-label")
                yield Select([(str(x), x) for x in players_of(self.game)], value=self.count, allow_blank=False,
                             id="count")
            yield Vertical(*self._name_rows(), id="names")
            with Horizontal(classes="setup-row"):
                yield Label("First dealer", classes="new-label")
                yield Select(self._dealer_choices(), value=0, allow_blank=False, id="first")
        yield Static(id="new-error")
        with Horizontal(id="new-buttons"):
            yield Button("Start", id="start", variant="primary")
            yield Button("Back", id="back")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#title", Input).focus()

    def _options_help(self) -> str:
        if is_besigue(self.game):
            return "[dim]Bésigue options as in besigue(target=1500): see barbu rules besigue[/dim]"
        fam = preset(self.game).ruleset.family_spec
        names = [o for o in fam.options if o != "players" and o in OPTIONS][:8]
        return ("[dim]Options as name=value, comma-separated, e.g. " + escape(", ".join(
            f"{o}={OPTIONS[o].format(getattr(preset(self.game).ruleset, o))}" for o in names[:2]))
                + f" — {escape(', '.join(names))} (barbu rules {self.game})[/dim]")

    def _name_rows(self) -> list:
        rows = []
        for s in range(self.count):
            rows.append(Horizontal(Label(f"Seat {s + 1}" + (" (deals first)" if s == 0 else ""), classes="new-label"),
                                   Input(value=self.names[s], placeholder=f"player {s + 1}'s name",
                                         id=f"name-{s}"), classes="setup-row"))
        return rows

    def _dealer_choices(self) -> list[tuple[str, int]]:
        return [(self.names[s] or f"seat {s + 1}", s) for s in range(self.count)]

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
        if (event.input.id or "").startswith("name-"):
            self.names[int(event.input.id.split("-")[1])] = event.value.strip()
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
            error.update(f"[b red]✗ Give every player a name (seat {', '.join(map(str, missing))}).[/]")
            return
        try:
            keeper = new_keeper(self.rules_text(), names, int(self.query_one("#first", Select).value))
        except KeeperError as e:
            error.update(f"[b red]✗ {escape(str(e))}[/]")
            return
        title = self.query_one("#title", Input).value.strip() or f"{keeper.rules} — {', '.join(names)}"
        self.dismiss((keeper, title))

    @on(Button.Pressed, "#back")
    def action_cancel(self) -> None:
        self.dismiss(None)


# ---------------------------------------------------------------------- the sheet of one game
class GameScreen(Screen[None]):
    """One kept game: the sheet (a row per deal, a block per dealer), standings, chart, flags."""

    BINDINGS = [Binding("a,n", "add", "Add deal"), Binding("e,enter", "edit", "Edit"),
                Binding("d,delete", "delete", "Delete deal"), Binding("ctrl+z", "undo", "Undo"),
                Binding("s", "sheet", "Standings"), Binding("x", "export", "Export"), Binding("r", "reload", "Reload", show=False),
                Binding("escape,q", "back", "Games")]

    def __init__(self, store: ScoreStore, book: Scorebook, keeper: AnyKeeper) -> None:
        super().__init__()
        self.store = store
        self.book = book
        self.keeper = keeper

    def compose(self) -> ComposeResult:
        yield Static(id="game-title")
        with Horizontal(id="game-body"):
            yield DataTable(id="sheet", cursor_type="row", cell_padding=0,
                            cursor_background_priority="css")
            with VerticalScroll(id="side"):
                yield Static(id="side-body")
        yield Static(id="game-line")
        yield Footer()

    def on_mount(self) -> None:
        self.set_class(self.app.size.width < 110, "-narrow")
        self.redraw()
        self.query_one("#sheet", DataTable).focus()

    def on_resize(self, event) -> None:
        narrow = event.size.width < 110
        if narrow != self.has_class("-narrow"):
            self.set_class(narrow, "-narrow")
            self.redraw()

    # ---------------------------------------------------------------- drawing
    def _compact(self) -> bool:
        """At 80 columns with five or six players, each player's column shows the running total only."""
        return self.app.size.width < 110 and self.keeper.n > 4

    def redraw(self, cursor: int | None = None) -> None:
        k = self.keeper
        besigue = isinstance(k, BesigueKeeper)
        narrow = self.app.size.width < 110
        compact = self._compact()
        self.query_one("#game-title", Static).update(
            f"[b]{escape(self.book.title)}[/b] — {escape(game_line(k))}")
        t = self.query_one("#sheet", DataTable)
        old = t.cursor_row
        t.clear(columns=True)
        rows = sheet_rows(k)
        dealer_w = min(8, max([6] + [len(x) for x in k.names]))
        contract_w = max([8] + [len(r.contract) for r in rows])
        contract_w = min(contract_w, 17 if narrow else 30)
        dbl_w = min(9, max([3] + [len(r.doubles) for r in rows]))
        cell_w = 6 if compact else 10
        t.add_column(" #", key="n")
        t.add_column(f" {'dealer':<{dealer_w}}", key="dealer")
        t.add_column(f" {'contract':<{contract_w}}", key="contract")
        if not besigue:
            t.add_column(f" {'dbl':<{dbl_w}}", key="dbl")
        for s, name in enumerate(k.names):
            t.add_column(Text(f"{name[:cell_w - 1]:>{cell_w}}"), key=f"p{s}")
        last_block = None
        for row in rows:
            shade = BLOCK_SHADE if row.block % 2 else ""
            first = row.block != last_block
            last_block = row.block
            contract = row.contract if len(row.contract) <= contract_w else row.contract[:contract_w - 1] + "…"
            cells: list[Any] = [Text(f"{row.number:>2}" + ("!" if row.flagged else " "),
                                     style=("bold yellow " if row.flagged else "") + shade),
                                Text(f" {(row.dealer if first else '')[:dealer_w]:<{dealer_w}}", style=shade),
                                Text(f" {contract:<{contract_w}}", style=shade)]
            if not besigue:
                cells.append(Text(f" {row.doubles[:dbl_w]:<{dbl_w}}", style=shade))
            for x, tot in zip(row.scores, row.totals):
                cell = Text(style=shade)
                if not compact:
                    cell.append(f"{signed(x):>5}", style="dim" if x == 0 else ("green" if x > 0 else "red"))
                cell.append(f"{tot!s:>{5 if not compact else 6}}", style="bold")
                cells.append(cell)
            t.add_row(*cells)
        if not k.results:
            t.add_row(Text(" —"), Text(""), Text(" no deal yet: press A", style="dim"),
                      *([Text("")] * (len(k.names) + (0 if besigue else 1))))
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
        if flags:
            line += f"   [yellow]{len(flags)} flag(s): S[/yellow]"
        self.query_one("#game-line", Static).update(line)

    def _next_text(self) -> str:
        try:
            need = self.keeper.needs()
        except KeeperError:
            return ""
        if need.dealer is None:
            return f"next: deal {need.number}"
        return f"next: deal {need.number}, {self.keeper.names[need.dealer]} deals"

    # ---------------------------------------------------------------- saving
    def persist(self, what: str) -> bool:
        """Save the keeper over the version opened; if it changed elsewhere, say so and reload it."""
        try:
            self.book = self.store.save(self.book, self.keeper)
        except ScorebookError as e:
            if e.status == 409:
                self.notify(f"Not saved: {e}. It has been reloaded; enter your change again if it is still "
                            "missing.", severity="error", timeout=12)
                self.action_reload()
            else:
                self.notify(f"Not saved: {e}", severity="error", timeout=12)
                self.keeper.undo()
                self.redraw()
            return False
        except Exception as e:  # the database went away: keep the game as it was
            self.notify(f"Not saved: the database said {e}", severity="error", timeout=12)
            self.keeper.undo()
            self.redraw()
            return False
        self.notify(what, timeout=3)
        return True

    def action_reload(self) -> None:
        try:
            self.book, self.keeper = self.store.open(self.book.id)
        except (KeeperError, ScorebookError) as e:
            self.notify(f"Cannot reload: {e}", severity="error")
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
            self.notify("The game is over: every deal has been entered.", timeout=5)
            return

        def commit(entry: dict) -> None:
            self.keeper.add(entry)

        def back(saved: bool | None) -> None:
            if saved:
                n = len(self.keeper.results)
                self.persist(f"Deal {n} saved.")
                self.redraw(cursor=len(self.keeper.results) - 1)
        self.app.push_screen(DealScreen(self._prefix(len(self.keeper.entries)), commit, None, self.book.title),
                             back)

    def action_edit(self) -> None:
        i = self._selected()
        if i is None:
            return

        def commit(entry: dict) -> None:
            self.keeper.replace(i, entry)

        def back(saved: bool | None) -> None:
            if saved:
                self.persist(f"Deal {i + 1} corrected; every later deal scored again.")
                self.redraw(cursor=i)
        self.app.push_screen(DealScreen(self._prefix(i), commit, self.keeper.entries[i],
                                        f"{self.book.title} — correcting"), back)

    @on(DataTable.RowSelected, "#sheet")
    def row_chosen(self, _: DataTable.RowSelected) -> None:
        self.action_edit()

    def action_delete(self) -> None:
        i = self._selected()
        if i is None:
            return
        r = self.keeper.results[i]
        label = f"deal {i + 1}" + ("" if isinstance(r, dict) else f" ({contract_text(self.keeper, r)})")

        def answer(yes: bool | None) -> None:
            if not yes:
                return
            try:
                self.keeper.delete(i)
            except KeeperError as e:
                self.notify(f"Cannot delete {label}: {e}", severity="error", timeout=10)
                return
            self.persist(f"Deleted {label}; the deals after it moved up. Ctrl+Z brings it back.")
            self.redraw(cursor=i)
        self.app.push_screen(ConfirmDialog(f"Delete {escape(label)}? The deals after it move up and are scored "
                                           "again."), answer)

    def action_undo(self) -> None:
        try:
            self.keeper.undo()
        except KeeperError as e:
            self.notify(f"{str(e).capitalize()}.", timeout=4)
            return
        if self.persist("The last change was taken back."):
            self.redraw()

    def action_sheet(self) -> None:
        """Standings, the chart, the flags (and the Scottish Set sheet): the side panel, for a narrow screen."""
        self.app.push_screen(InfoDialog(f"{self.book.title} — {game_line(self.keeper)}", side_panel(self.keeper)))

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
                self.notify(f"Not written: {e}", severity="error", timeout=10)
                return
            self.notify(f"Written to {path.resolve()}", timeout=8)
        self.app.push_screen(ExportDialog(), write)

    def action_back(self) -> None:
        self.dismiss(None)


class ScoreApp(App[int]):
    """The scorekeeper: kept games → a game's sheet → a deal's form."""

    CSS_PATH = ["barbu.tcss", "score.tcss"]
    TITLE = "barbu score"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True, show=False)]

    def __init__(self, store: ScoreStore) -> None:
        super().__init__()
        self.store = store

    def on_mount(self) -> None:
        self.push_screen(BooksScreen(self.store))

    async def action_quit(self) -> None:
        self.exit(0)  # every change is already saved


__all__ = ["BooksScreen", "ConfirmDialog", "GameScreen", "NewGameScreen", "ScoreApp", "scottish_sheet_lines"]
