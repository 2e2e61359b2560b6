""" "Puzzles from this match" at the end of a match in the terminal.

`open_match_puzzles` finds the person's costliest card decisions of the match just played
(`barbu.puzzles.mine.from_record`, off the screen's thread) and opens the puzzle screen on them over the
end-of-match dialog, which is there again when he leaves the puzzles (`BarbuApp.puzzles_from` calls it).
"""

from __future__ import annotations

import asyncio
import json

from textual.app import App

from ..classic.match import Match
from ..core.errors import BarbuError
from ..i18n import _, current, word_error
from ..puzzles.mine import from_record
from ..puzzles.model import Puzzle
from ..records.barbu import read_record, record_lines
from .puzzle_screen import PuzzleScreen
from .puzzle_series import MineSeries, Series
from .puzzle_store import PuzzleStore, PuzzleStoreError


def first_puzzle(series: Series) -> Puzzle:
    """The series' first puzzle; `BarbuError` in plain words when it has none."""
    p = series.next()
    if p is None:
        raise BarbuError(_("There is no puzzle to play here: no puzzle matches what you asked for."))
    return p


def match_puzzles(match: Match, seat: int, name: str = "match") -> list[Puzzle]:
    """The seat's costliest card decisions of ``match`` (played here, in memory) as puzzles."""
    record = read_record(json.dumps(line) for line in record_lines(match))
    return from_record(record, seat, name=name)


def open_match_puzzles(app: App, match: Match, seat: int, name: str = "match") -> None:
    """Find the person's own puzzles in the match just played, off the screen's thread, then open them."""
    app.run_worker(_find_and_open(app, match, seat, name), group="puzzles", exclusive=True)


async def _find_and_open(app: App, match: Match, seat: int, name: str) -> None:
    app.notify(_("Looking for your costliest decisions in this match…"), timeout=4)
    try:
        puzzles = await asyncio.to_thread(match_puzzles, match, seat, name)
    except BarbuError as e:
        app.notify(word_error(e, current()), severity="error", timeout=8, markup=False)
        return
    if not puzzles:
        app.notify(_("No puzzle in this match: none of your cards near the end of a deal cost you points."), timeout=8)
        return
    series = MineSeries(PuzzleStore(), puzzles)
    try:
        series.store.read()
    except PuzzleStoreError as e:
        app.notify(str(e), severity="error", timeout=10, markup=False)
        return
    app.push_screen(PuzzleScreen(series, first_puzzle(series), getattr(app, "delay", 0.6)))
