"""A puzzle behind a table: the position set up, the person's card judged against the solution, the others'
best replies played between the decisions of a line.

`PuzzleSession` answers the calls the terminal table makes of a match's `Session` (`barbu.tui.table.
TableSession`), so the puzzle screen is the real table (`barbu.tui.puzzle_screen`); the line-by-line puzzles
(`barbu.cli.puzzle`) drive it the same way.  No Textual here.
"""

from __future__ import annotations

from typing import Any

from ..classic.match import Match
from ..classic.view import View
from ..core.errors import BarbuError
from ..i18n import _, current
from ..i18n.typed import parse_typed
from ..puzzles.model import OPEN, Puzzle
from .one_deal import OneDealSession


class PuzzleSession(OneDealSession):
    """A puzzle behind the table, with the calls the table makes of a `Session`; nothing is saved."""

    save_path = None
    compare = None  # no expert replays a puzzle

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.match: Match = puzzle.match()
        self.seat = puzzle.seat
        # each decision: the others' replies before it, the best actions, what the others cost
        self.steps = [((), puzzle.solution, puzzle.costs)] + [(s.replies, s.solution, s.costs) for s in puzzle.line]
        self.step = 0
        self.replies: list[str] = []  # the others' replies still to play before the next decision
        self.position = len(self.match.history)  # the history's length at the decision being asked
        self.finished = False
        self.solved = False
        self.answer = ""  # the action chosen at the last decision, as the engine writes it
        self.cost = 0
        self.agents = {s: _Reply(self) for s in range(self.match.n) if s != self.seat}

    @property
    def players(self) -> int:
        return self.match.n

    @property
    def moves(self) -> int:
        return len(self.match.history)

    @property
    def is_over(self) -> bool:
        return self.finished

    def view(self) -> View:
        return self.match.view(self.seat)

    def hand_of(self, seat: int) -> int:
        """A seat's hand: for an "open" puzzle only (a "single" one never shows another hand)."""
        if self.puzzle.kind != OPEN:
            raise PermissionError("a single-dummy puzzle shows no other hand")
        return self.match.view(seat).hand

    def at_decision(self) -> Match:
        """The position of the decision asked now (or last asked), rebuilt: for wording its cards."""
        m = Match(self.match.rules, self.match.seed)
        for a in self.match.history[: self.position]:
            m.apply(a)
        return m

    def to_act(self) -> int | None:
        """None once the answer is given: the table then shows it (`PuzzleScreen._show_match_over`)."""
        return None if self.finished else self.match.to_act()

    def human_to_act(self) -> bool:
        return not self.finished and self.match.to_act() == self.seat

    def bot_view(self, seat: int) -> View:
        return self.match.view(seat)

    def apply_bot(self, seat: int, action: Any) -> None:
        self.match.apply(action)
        if not self.replies:
            self.position = len(self.match.history)

    def apply_human(self, choice: Any) -> Any:
        """The person's card (typed in his language, or picked): played, and judged against the solution."""
        m = self.match
        action = parse_typed(m, choice, current()) if isinstance(choice, str) else choice
        _replies, solution, costs = self.steps[self.step]
        best = {m.parse_action(a) for a in solution}
        cost_of = {m.parse_action(a): c for a, c in costs}
        m.apply(action)  # an illegal card is refused here, with the engine's reason; nothing is judged
        self.answer = str(action)
        if action in best:
            self.step += 1
            if self.step < len(self.steps):
                self.replies = list(self.steps[self.step][0])
                if not self.replies:
                    self.position = len(m.history)
                return action
            self.solved, self.finished = True, True
            return action
        self.cost = cost_of.get(action, max((c for _a, c in costs), default=1))
        self.finished = True
        return action

    def next_reply(self) -> Any:
        return self.match.parse_action(self.replies.pop(0))

    def play_chance(self) -> Any:
        raise NotImplementedError("a puzzle is dealt by its actions")  # the table never asks: no seat is chance

    def take_back(self, skip_forced: bool = False) -> int:
        raise BarbuError(_("a puzzle takes nothing back: your first card is your answer"))


class _Reply:
    """The others' best replies in a line, asked for the way the table asks a computer player."""

    def __init__(self, session: PuzzleSession) -> None:
        self.session = session

    def act(self, view: View) -> Any:
        return self.session.next_reply()
