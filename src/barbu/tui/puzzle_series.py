"""Which puzzle comes next, and what an answer changes: the modes of ``barbu puzzle``, without any screen.

- rated (the default, and ``--file``): puzzles near your level (`barbu.puzzles.rating.near`), those you have not
  tried first; each answer moves your rating and the puzzle's (`rating.meet`).
- daily: the day's puzzle (`library.daily`), the same for everyone with the same library; rated the first
  time it is played that day.
- streak: puzzles of rising difficulty until the first mistake; not rated, the best streak kept.
- mine: the puzzles found in your own match (`barbu.puzzles.mine.from_record`), in order; not rated.

Every change goes through the store's lock (`PuzzleStore.change`), read afresh each time, so two ``barbu
puzzle`` at once each add their attempts to the other's.  The full-screen puzzles (`barbu.tui.puzzle_screen`)
and the line-by-line ones (`barbu.cli.puzzle`) share this.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timezone

from ..i18n import _
from ..puzzles import rating
from ..puzzles.model import SINGLE, Puzzle
from ..ratings.rating import Rating
from .puzzle_store import Attempt, PuzzleRecord, PuzzleStore

#: Modes whose answers move the ratings.
RATED = ("rated", "file", "daily")
#: How many bands of difficulty a streak climbs through (a pool of 300 puzzles: ten in each band).
BANDS = 30


@dataclass(frozen=True)
class Outcome:
    """What one answer did: right or wrong, what it cost, how the rating and the streak moved."""

    mode: str
    puzzle: Puzzle
    answer: str  # the action chosen, as the engine writes it ("QH")
    solved: bool
    cost: int  # points the answer lost against the solution (0 when solved)
    rated: bool
    before: int  # the shown rating before and after the answer
    after: int
    streak: int = 0  # the streak after this answer (streak mode)
    best_streak: int = 0
    note: str = ""  # a word more (the day's puzzle played again, not rated)


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def difficulty(p: Puzzle, r: Rating) -> tuple:
    """How hard a puzzle looks, for a streak's order: its rating first, then a hidden hand, a longer line,
    more cards to choose among, a thinner margin."""
    return (round(r.mu, 1), p.kind == SINGLE, len(p.line), len(p.costs), -p.best_cost, p.id)


class Series:
    """The puzzles of one mode, one after the other; `answer` records each attempt in the store."""

    mode = "rated"

    def __init__(self, store: PuzzleStore, puzzles: list[Puzzle], rng: random.Random | None = None) -> None:
        self.store = store
        self.puzzles = list(puzzles)
        self.rng = rng or random.Random()
        self.done: list[str] = []  # the ids offered in this series
        self.streak = 0
        self.over = False

    @property
    def rated(self) -> bool:
        return self.mode in RATED

    def next(self) -> Puzzle | None:
        """The next puzzle, or None when the series is over."""
        raise NotImplementedError

    def offered(self, p: Puzzle | None) -> Puzzle | None:
        if p is not None:
            self.done.append(p.id)
        return p

    def answer(self, p: Puzzle, action: str, solved: bool, cost: int) -> Outcome:
        """Record an attempt: the rating moves (when rated), the history grows, the streak counts."""
        return self.store.change(lambda rec: self._record(rec, p, action, solved, cost))

    def _record(self, rec: PuzzleRecord, p: Puzzle, action: str, solved: bool, cost: int) -> Outcome:
        before = rating.shown(rec.rating)
        rated, note = self.counts(rec, p)
        if rated:
            rec.rating, rec.puzzles[p.id] = rating.meet(rec.rating, rec.puzzle_rating(p.id), solved)
        after = rating.shown(rec.rating)
        self.streak = self.streak + 1 if solved else self.streak
        self.after_answer(rec, p, solved)
        rec.history.append(Attempt(now(), p.id, self.mode, action, solved, rated, before, after))
        return Outcome(self.mode, p, action, solved, cost, rated, before, after, self.streak, rec.best_streak, note)

    def counts(self, rec: PuzzleRecord, p: Puzzle) -> tuple[bool, str]:
        """Whether this attempt is rated, and why not when that needs saying."""
        return self.rated, ""

    def after_answer(self, rec: PuzzleRecord, p: Puzzle, solved: bool) -> None:
        """What the mode keeps besides the history."""


class RatedSeries(Series):
    """Puzzles near your level, those you never tried first; a file of your own (``--file``) is rated alike."""

    def __init__(
        self, store: PuzzleStore, puzzles: list[Puzzle], rng: random.Random | None = None, mode: str = "rated"
    ) -> None:
        super().__init__(store, puzzles, rng)
        self.mode = mode

    def next(self) -> Puzzle | None:
        if not self.puzzles:
            return None
        rec = self.store.read()
        tried = {a.puzzle for a in rec.history} | set(self.done)
        # those never tried here; once all were, those not yet offered in this series; then any
        pool = (
            [p for p in self.puzzles if p.id not in tried]
            or [p for p in self.puzzles if p.id not in self.done]
            or self.puzzles
        )
        return self.offered(rating.near([(p, rec.puzzle_rating(p.id)) for p in pool], rec.rating, self.rng))


class DailySeries(Series):
    """The day's puzzle: one, rated the first time it is played that day."""

    mode = "daily"

    def __init__(self, store: PuzzleStore, puzzle: Puzzle, day: str) -> None:
        super().__init__(store, [puzzle])
        self.day = day

    def next(self) -> Puzzle | None:
        return None if self.done else self.offered(self.puzzles[0])

    def counts(self, rec: PuzzleRecord, p: Puzzle) -> tuple[bool, str]:
        played = rec.daily.get(self.day)
        if played is not None:
            return False, _("You played the puzzle of {day} before: only the first answer is rated.").format(
                day=self.day
            )
        return True, ""

    def after_answer(self, rec: PuzzleRecord, p: Puzzle, solved: bool) -> None:
        rec.daily.setdefault(self.day, {"puzzle": p.id, "solved": solved})


class StreakSeries(Series):
    """Puzzles of rising difficulty until the first mistake; the best streak is kept."""

    mode = "streak"

    def __init__(self, store: PuzzleStore, puzzles: list[Puzzle], rng: random.Random | None = None) -> None:
        super().__init__(store, puzzles, rng)
        rec = store.read()
        self.ladder = sorted(self.puzzles, key=lambda p: difficulty(p, rec.puzzle_rating(p.id)))

    def next(self) -> Puzzle | None:
        if self.over or not self.ladder:
            return None
        size = max(1, len(self.ladder) // BANDS)
        band = min(len(self.done), (len(self.ladder) - 1) // size)
        for start in range(band * size, -1, -size):  # the band of this step; easier ones once it is used up
            left = [p for p in self.ladder[start : start + size] if p.id not in self.done]
            if left:
                return self.offered(self.rng.choice(left))
        left = [p for p in self.ladder if p.id not in self.done]
        return self.offered(left[0]) if left else None

    def after_answer(self, rec: PuzzleRecord, p: Puzzle, solved: bool) -> None:
        if not solved:
            self.over = True
        rec.best_streak = max(rec.best_streak, self.streak)


class MineSeries(Series):
    """The puzzles found in your own match, costliest first, once each; not rated."""

    mode = "mine"

    def next(self) -> Puzzle | None:
        left = [p for p in self.puzzles if p.id not in self.done]
        return self.offered(left[0]) if left else None
