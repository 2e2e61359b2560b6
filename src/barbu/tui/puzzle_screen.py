"""``barbu puzzle`` on the real table: one card to find, then the answer with what every other card costs.

The puzzle screen is the Barbu table (`TableScreen`, the loop of `CardTableScreen`) with a puzzle behind it
instead of a match (`PuzzleSession`): the position is set up from the puzzle's actions, the person finds his
card from the keyboard (or a click, or typed) as in ``barbu play``; an "open" puzzle shows every hand in the
other seats' boxes, a "single" one only his own, and the decision box says which kind it is.  A line of
several decisions has the others' best replies played at the table's pace between them.  After the answer a
dialog says right or wrong, the solution, the cost of every other card, the theme, the source, the share of
deals for a "single" puzzle and the rating's move; Enter gives the next puzzle of the series
(`barbu.tui.puzzle_series`), Escape leaves.  No hint, no take-back: that is the puzzle.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Static

from ..classic.contracts import DOMINO
from ..classic.view import View
from ..core.cards import SUIT_SYMBOLS
from ..core.words import N_
from ..guide.ruleset_words import game_name
from ..i18n import _, ngettext, number, words
from ..play.labels import rules_info
from ..puzzles import rating
from ..puzzles.model import OPEN, Puzzle
from . import bindings
from .labels import taken_text
from .puzzle_series import Outcome, Series
from .puzzle_session import PuzzleSession
from .puzzle_store import PuzzleRecord, PuzzleStoreError
from .puzzle_words import (
    action_words,
    cost_lines,
    kind_banner,
    kind_short,
    mode_title,
    outcome_lines,
    still_out_line,
    suit_ranks,
    theme_name,
    verdict,
)
from .table import TableScreen, tricks_text
from .table_base import sentence
from .widgets import CommandInput, SeatBox


def hand_lines(mask: int, width: int) -> list[str]:
    """A hand shown in another seat's box, high to low: ♠ and ♥ on one line, ♦ and ♣ on the next, where both
    pairs fit the box's ``width``; else a suit a line."""
    suits = []
    for s, ranks in suit_ranks(mask):
        style = "red" if s in (1, 2) else "bold"
        suits.append((f"[{style}]{SUIT_SYMBOLS[s]}[/] {escape(ranks)}", len(ranks) + 2))
    if all(suits[k][1] + 2 + suits[k + 1][1] <= width for k in (0, 2)):
        return [suits[k][0] + "  " + suits[k + 1][0] for k in (0, 2)]
    return [text for text, _size in suits]


class PuzzleAnswer(ModalScreen[str]):
    """The answer: right or wrong, every card's cost, the theme, the source, the rating (the look of the table's
    other dialogs); dismissed with "next" (Enter, when there is a next puzzle) or "leave"."""

    DEFAULT_CSS = "PuzzleAnswer { align: center middle; }"

    BINDINGS = [
        Binding("enter", "choose('next')", N_("Next puzzle")),
        Binding("escape", "choose('leave')", N_("Leave")),
    ]

    def __init__(self, title: str, body: Any, has_next: bool) -> None:
        super().__init__()
        bindings.translate(self)
        self.title_text, self.body, self.has_next = title, body, has_next

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.title_text, id="dialog-title")
            with VerticalScroll(id="dialog-body"):
                yield Static(self.body, id="dialog-text")
            if self.has_next:
                nxt, leave = escape(_("Enter: next puzzle")), escape(_("Esc: leave"))
                keys = (
                    f"[@click=screen.choose('next')][reverse] {nxt} [/][/]   "
                    f"[@click=screen.choose('leave')][reverse] {leave} [/][/]"
                )
            else:
                leave = escape(_("Enter: leave"))
                keys = f"[@click=screen.choose('leave')][reverse] {leave} [/][/]"
            yield Static(keys, id="dialog-close")

    def action_choose(self, what: str) -> None:
        self.dismiss(what if self.has_next else "leave")


class PuzzleScreen(TableScreen):
    """The table of a series of puzzles; dismissed when the person leaves (or the series ends)."""

    session: PuzzleSession

    BINDINGS = [
        Binding("f3", "scoresheet", N_("Scoresheet"), show=False),
        Binding("f4", "hint", N_("Hint"), show=False),
        Binding("ctrl+z", "take_back", N_("Take back"), show=False),
        Binding("ctrl+s", "save", N_("Save"), show=False),
    ]

    def __init__(self, series: Series, first: Puzzle, delay: float = 0.6) -> None:
        super().__init__(PuzzleSession(first), delay, confirm_forced=True)  # every card is the person's answer
        self.series = series
        self.number = 1
        self.outcome: Outcome | None = None
        self.record = self._read()  # what the side panel shows, read again after each answer

    def _read(self) -> PuzzleRecord | None:
        try:
            return self.series.store.read()
        except PuzzleStoreError:  # said when an answer cannot be kept; the panel shows no rating meanwhile
            return None

    def on_mount(self) -> None:
        super().on_mount()
        self.add_class("puzzle")
        self.query_one(CommandInput).placeholder = _("type a card (qh, 10s), or help")
        # drawn again once laid out: a screen pushed over another gets no resize, and its first drawing was made
        # before its size classes (-short: the doubles as arrows) were set
        self.call_after_refresh(self.redraw)

    def redraw(self) -> None:
        super().redraw()
        self.query_one("#seats").border_title = _("Puzzle")
        self.query_one("#decision").border_title = _("Find the best card")

    # ---------------------------------------------------------------- drawing
    def _draw_title(self, v: View, ended: Any) -> None:
        p = self.session.puzzle
        parts = [
            mode_title(self.series.mode),
            _("puzzle {n}").format(n=number(self.number)),
            game_name(v.rules, words()),
            kind_short(p),
        ]
        room = self.size.width - 2 - len("barbu — ")
        # the game's name goes first where the line is too long, then the mode: the kind always stays
        for kept in (parts, parts[:2] + parts[3:], parts[1:2] + parts[3:]):
            line = " · ".join(kept)
            if len(line) <= room:
                break
        self.query_one("#title", Static).update(f"[b]barbu[/b] — {escape(line)}")

    def _scores(self, v: View) -> Any:
        """The puzzle's side panel: your rating, the puzzle's, the streak; the theme once answered."""
        rec = self.record
        p = self.session.puzzle
        t = RichTable(box=None, padding=(0, 1), expand=True, show_header=False)
        t.add_column("")  # the words wrap where the side of an 80-column table is narrow, never cut short;
        t.add_column("", justify="right", no_wrap=True)  # the figures stay whole
        if rec is not None:
            mine = number(rating.shown(rec.rating))
            if self.outcome is not None and self.outcome.rated:
                mine = f"{number(self.outcome.before)} → {number(self.outcome.after)}"
            t.add_row(_("your rating"), mine, style="bold")
            if self.series.rated:
                t.add_row(_("this puzzle"), number(rating.shown(rec.puzzle_rating(p.id))))
                if rec.history:
                    solved = sum(a.solved for a in rec.history)
                    t.add_row(_("solved"), f"{number(solved)} / {number(len(rec.history))}")
            if self.series.mode == "streak":
                t.add_row(
                    _("streak"), f"{number(self.series.streak)} · " + _("best {n}").format(n=number(rec.best_streak))
                )
        if self.session.finished:
            t.add_row(_("theme"), theme_name(p.theme))
        return t

    def _draw_seats(self, v: View, ended: Any) -> None:
        """Each other seat: its cards and tricks, what it took, and its whole hand in an "open" puzzle."""
        s = self.session
        c = self.info.contract(v.contract)
        in_tricks = c is not None and c.kind != DOMINO  # Domino's rows take no tricks
        for seat_box in self.query(SeatBox):
            seat = int((seat_box.id or "seat-0")[5:])
            facts = [ngettext("{n} card", "{n} cards", v.hand_sizes[seat]).format(n=number(v.hand_sizes[seat]))]
            if in_tricks:
                facts.append(tricks_text(v.tricks_won[seat]))
            lines = [" · ".join(facts)] if self.size.width >= 110 else facts
            taken = taken_text(v, self.info, seat)
            if taken:
                lines.append(taken)
            if s.puzzle.kind == OPEN:
                # the box's room as barbu.tcss gives it (19 or 24 columns, less border and padding): its own
                # size lags behind a change of the screen's width
                width = 15 if self.size.width < 110 else 20
                lines += hand_lines(s.hand_of(seat), width)
            to_play = v.to_act == seat and not self.paused
            seat_box.show(self.seat_cap(seat), lines, to_play, v.dealer == seat)

    def _draw_me(self, v: View, ended: Any) -> None:
        super()._draw_me(v, ended)
        hand = self.query_one("#hand")
        title = str(hand.border_title or "")
        cut = title.rfind(" · ")
        hand.border_title = title[:cut] if cut > 0 else title  # no running total: a puzzle is one position

    def _draw_decision(self, v: View) -> None:
        """The decision box: find the best card, and which kind of puzzle this is."""
        super()._draw_decision(v)
        s = self.session
        if s.finished:
            text = "[b]" + escape(_("Answered: Enter for the next puzzle.")) + "[/b]"
        elif self.thinking is not None:
            text = "[dim]" + escape(_("{who} replies…").format(who=self.seat_cap(self.thinking))) + "[/]"
        else:
            step = ""
            if len(s.steps) > 1:
                step = " " + _("(card {n} of {total})").format(n=number(s.step + 1), total=number(len(s.steps)))
            text = "[b]" + escape(_("Find the best card.") + step) + "[/b] " + escape(kind_banner(s.puzzle))
            c = self.info.contract(v.contract)
            if s.puzzle.kind != OPEN and c is not None and c.kind != DOMINO:  # Domino's rows show every card laid
                text += "\n[dim]" + escape(still_out_line(v)) + "[/]"
        self.query_one("#prompt", Static).update(text)

    def after_move(self, seat: int, action: Any, before: Any, chosen: bool = False) -> None:
        """As at the table; a right card in a line is said, before the others' replies."""
        super().after_move(seat, action, before, chosen)
        s = self.session
        if chosen and not s.finished and s.step > 0:
            self.say(_("Right: {card}. Now your next card.").format(card=action_words(s.match, str(action))))

    def keys_help(self) -> str:
        return _("""\
[b]Keys[/b]
  ← →            move along your hand
  Enter          play the card the cursor is on (on an empty command line)
  type + Enter   a card (qh, 10s, A♠)
  mouse          click a card
  F1 help   F2 tricks   Ctrl+Q quit
  A puzzle gives no hints and takes nothing back: your first card is your answer.""")

    # ---------------------------------------------------------------- what a puzzle does not allow
    def action_hint(self) -> None:
        self.notify(_("No hints in a puzzle: finding the card is the puzzle."), timeout=4)

    def action_take_back(self) -> None:
        self.notify(_("A puzzle takes nothing back: your first card is your answer."), timeout=4)

    def action_save(self) -> None:
        self.notify(_("Nothing to save: your answers and rating are kept as you go."), timeout=4)

    def action_scoresheet(self) -> None:
        self.notify(_("A puzzle is one position: there is no scoresheet."), timeout=4)

    # ---------------------------------------------------------------- the answer
    def _show_match_over(self) -> None:
        """The answer is given: record it, then say right or wrong and what every card costs."""
        self.paused = True
        s = self.session
        p = s.puzzle
        at = s.at_decision()
        answer = action_words(at, s.answer)
        error = ""
        try:
            self.outcome = self.series.answer(p, s.answer, s.solved, s.cost)
        except PuzzleStoreError as e:
            self.outcome, error = None, str(e)
        self.record = self._read()
        self.redraw()
        _replies, solution, costs = s.steps[min(s.step, len(s.steps) - 1)]
        parts: list[Any] = [Text(verdict(s.solved, answer, s.cost), style="bold green" if s.solved else "bold red")]
        parts += [Text("  " + line) for line in cost_lines(at, solution, costs)]
        parts.append(Text(""))
        if self.outcome is not None:
            parts += [Text(line) for line in outcome_lines(self.outcome)]
        else:
            parts.append(Text(sentence(error), style="bold red"))
        if p.replay:
            parts.append(Text(_("Its deal on the server: {path}").format(path=p.replay), style="dim"))
        nxt = self.series.next()
        title = (_("Puzzle {n}: solved") if s.solved else _("Puzzle {n}: missed")).format(n=number(self.number))

        def chosen(what: str | None) -> None:
            if what == "next" and nxt is not None:
                self.call_later(self.load, nxt)
            else:
                self.leave()

        self.app.push_screen(PuzzleAnswer(title, Group(*parts), nxt is not None), chosen)

    async def load(self, p: Puzzle) -> None:
        """The next puzzle at the same table (the seats turned round to the new one's)."""
        self.session = PuzzleSession(p)
        self.info = rules_info(str(self.session.match.rules))
        self.number += 1
        self.outcome = None
        self.record = self._read()
        self.ended = []
        self.recent.clear()
        self.decision_at = -1
        await self.recompose()
        self.say("")
        self.paused = False
        self.on_mount()

    def leave(self) -> None:
        self.dismiss(None)
