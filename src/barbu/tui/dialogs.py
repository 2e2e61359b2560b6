"""Pop-up screens over the table: help, tricks, scoresheet, end of deal and end of match.

Each shows text and closes on Enter or Escape; what is shown is built by the
table screen from the person's view.
"""

from __future__ import annotations

from typing import Any, Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ..core.words import N_
from ..i18n import _
from . import bindings
from .bindings import MODAL


class InfoDialog(ModalScreen[None]):
    """A titled text (markup or a Rich renderable) that closes on Enter or Escape."""

    BINDINGS = MODAL

    def __init__(self, title: str, body: Any, closing: str | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        bindings.translate(self)
        self.title_text = title
        self.body = body
        self.closing = closing or _("Enter or Esc: close")

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.title_text, id="dialog-title")
            with VerticalScroll(id="dialog-body"):
                yield Static(self.body, id="dialog-text")
            yield Static(f"[@click=screen.close()][reverse] {self.closing} [/][/]", id="dialog-close")

    def action_close(self) -> None:
        self.dismiss(None)


class ConfirmDialog(ModalScreen[bool]):
    """A yes-or-no question (deleting a saved match): Enter or Y says yes, Escape or N says no."""

    BINDINGS = [("y", "answer(True)", "Yes"), ("n", "answer(False)", "No"), ("escape", "answer(False)", "No")]

    def __init__(self, title: str, body: str, yes: str, no: str) -> None:
        super().__init__()
        self.title_text, self.body, self.yes, self.no = title, body, yes, no

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.title_text, id="dialog-title")
            yield Static(self.body, id="dialog-text")
            with Horizontal(id="dialog-buttons"):
                yield Button(self.yes, id="yes", variant="error")
                yield Button(self.no, id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()  # the safe answer is the one Enter gives at first

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class DealOverDialog(InfoDialog):
    """The scores of the deal just finished; the table waits here for the person.

    With a ``review`` (the Barbu table gives one), F4 or R shows what the person's decisions cost.
    """

    BINDINGS = bindings.DEAL_OVER

    def __init__(self, title: str, body: Any, review: Callable[[], None] | None = None) -> None:
        super().__init__(
            title, body, closing=_("Enter: next deal") + ("   " + _("F4: review your play") if review else "")
        )
        self.review = review

    def action_review(self) -> None:
        if self.review is not None:
            self.review()


class MatchOverDialog(InfoDialog):
    """Final standings; closing it leaves the game.  With ``puzzles`` (a match of tricks), P opens the person's
    costliest decisions of the match as puzzles (`barbu.tui.puzzle_match`)."""

    BINDINGS = InfoDialog.BINDINGS + [Binding("p", "puzzles", N_("Puzzles from this match"))]

    def __init__(self, title: str, body: Any, puzzles: Callable[[], None] | None = None) -> None:
        closing = _("Enter: leave the table") + ("   " + _("P: puzzles from this match") if puzzles else "")
        super().__init__(title, body, closing=closing)
        self.puzzles = puzzles

    def action_puzzles(self) -> None:
        if self.puzzles is not None:
            self.puzzles()
