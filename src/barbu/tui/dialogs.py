"""Pop-up screens over the table: help, tricks, scoresheet, end of deal and end of match.

Each shows text and closes on Enter or Escape; what is shown is built by the
table screen from the person's view.
"""

from __future__ import annotations

from typing import Any, Callable

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

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


class DealOverDialog(InfoDialog):
    """The scores of the deal just finished; the table waits here for the person.

    With a ``review`` (the Barbu table gives one), F4 or R shows what the person's decisions cost.
    """

    BINDINGS = bindings.DEAL_OVER

    def __init__(self, title: str, body: Any, review: Callable[[], None] | None = None) -> None:
        super().__init__(title, body, closing=_("Enter: next deal") + (
            "   " + _("F4: review your play") if review else ""))
        self.review = review

    def action_review(self) -> None:
        if self.review is not None:
            self.review()


class MatchOverDialog(InfoDialog):
    """Final standings; closing it leaves the game."""

    def __init__(self, title: str, body: Any) -> None:
        super().__init__(title, body, closing=_("Enter: leave the table"))
