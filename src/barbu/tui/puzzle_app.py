"""``barbu puzzle``'s application: the puzzle screen (`barbu.tui.puzzle_screen`) alone, opened at once; leaving
it leaves the program."""

from __future__ import annotations

from textual import events

from .app import BarbuApp
from .puzzle_match import first_puzzle
from .puzzle_screen import PuzzleScreen
from .puzzle_series import Series


class PuzzleApp(BarbuApp):
    """``barbu puzzle``: the puzzle screen alone; leaving it leaves the program."""

    def __init__(self, series: Series, delay: float = 0.6) -> None:
        super().__init__(setup=False, delay=delay)
        self.series = series
        self.first = first_puzzle(series)

    def on_mount(self, event: events.Mount) -> None:
        event.prevent_default()  # not BarbuApp's setup screen: the puzzle at once
        self.push_screen(PuzzleScreen(self.series, self.first, self.delay), lambda _result=None: self.exit(0))
