"""The terminal table's comparison with the expert: the final standings beside the expert's score on your cards.

The replays themselves and the lines the table shows are `barbu.play.shadow`'s (`ShadowWatch`), shared with
the line-by-line game; here is the end-of-match dialog, whose keys 1, 2, 3 open the deals where the person
lost most in the review of his play.
"""

from __future__ import annotations

from typing import Any, Callable

from rich.console import Group
from rich.text import Text
from textual.binding import Binding
from textual.widgets import Static

from ..core.words import N_
from ..i18n import _, ngettext, number
from ..play.shadow import ShadowWatch, final_line, worst_line
from .dialogs import MatchOverDialog


class ShadowMatchOverDialog(MatchOverDialog):
    """The final standings with the comparison with the expert; 1, 2, 3 review the deals where you lost most."""

    BINDINGS = MatchOverDialog.BINDINGS + [
        Binding("1", "review(0)", N_("Review"), show=False),
        Binding("2", "review(1)", N_("Review"), show=False),
        Binding("3", "review(2)", N_("Review"), show=False),
    ]

    def __init__(
        self,
        title: str,
        standings: Any,
        watch: ShadowWatch,
        label: Callable[[int], str],
        review: Callable[[int], None] | None,
        puzzles: Callable[[], None] | None = None,
    ) -> None:
        """``label(k)``: how deal ``k`` (0-based) is named beside its number (its contract); ``puzzles``: P opens
        the match's puzzles."""
        self.standings, self.shadow, self.label, self.review = standings, watch, label, review
        super().__init__(title, self.body_now(), puzzles)

    def on_mount(self) -> None:
        self._shown = self._known()
        if self.shadow.pending:
            self.set_interval(0.5, self.tick)

    def _known(self) -> tuple[int, int]:
        return len(self.shadow.results), len(self.shadow.pending)

    def tick(self) -> None:
        """Redraw when a replay came back (collected here or by the table behind)."""
        self.shadow.update()
        if self._known() != self._shown:
            self._shown = self._known()
            self.body = self.body_now()
            self.query_one("#dialog-text", Static).update(self.body)

    def body_now(self) -> Any:
        s = self.shadow.summary()
        parts: list[Any] = [self.standings]
        if s.deals:
            parts.append(Text("\n" + final_line(s, len(self.shadow.pending)), style="bold"))
        if self.shadow.pending:
            n = len(self.shadow.pending)
            parts.append(
                Text(
                    ngettext(
                        "Still replaying {n} deal with the expert…", "Still replaying {n} deals with the expert…", n
                    ).format(n=number(n)),
                    style="dim",
                )
            )
        if s.worst:
            parts.append(Text(_("The deals where you lost most to the expert:")))
            for i, r in enumerate(s.worst, start=1):
                parts.append(Text("  " + worst_line(number(i), r, self.label(r.deal))))
            if self.review is not None:
                parts.append(Text(_("Press 1, 2 or 3 to review your play in that deal."), style="dim"))
        return Group(*parts)

    def action_review(self, index: int) -> None:
        worst = self.shadow.summary().worst
        if self.review is not None and index < len(worst):
            self.review(worst[index].deal + 1)
