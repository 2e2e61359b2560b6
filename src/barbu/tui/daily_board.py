"""What the daily deals' two tables ask of a board alike (the Barbu family's `barbu.tui.daily_screen` and Bésigue's
`barbu.tui.daily_besigue`): the calls a table makes of its session, answered by the board being played, and the
set's fixed strength asked the way a table asks a computer player.  The daily deals allow no hint, no taking back
and no saving: those calls answer in plain words and change nothing."""

from __future__ import annotations

from typing import Any

from ..core.errors import IllegalAction
from ..duplicate.daily_base import Board
from ..i18n import _
from ..play.labels import typed_action


class DailyBoardCalls:
    """Mixed into a table's session class, before it: ``self.board`` is the board being played (a `BoardPlay`,
    a `BesigueBoard`)."""

    board: Board

    @property
    def is_over(self) -> bool:
        return self.board.done

    def to_act(self) -> int | None:
        """None once the board is over: the table then shows its end."""
        return None if self.board.done else self.board.match.to_act()

    def human_to_act(self) -> bool:
        return self.board.to_move()

    def apply_human(self, choice: Any) -> Any:
        if isinstance(choice, str):  # "double west north": the players by their places, whatever the seat numbers
            choice = typed_action(self.board.match, choice, self.board.seat, self.board.match.n)
        action = choice
        self.board.play(action)
        return action

    def apply_bot(self, seat: int, action: Any) -> None:
        self.board.play_computer(seat, action)

    def play_chance(self) -> Any:
        raise NotImplementedError("a daily board deals its cards itself")  # the table never asks: no seat is chance

    def take_back(self, skip_forced: bool = False) -> int:
        raise IllegalAction(_("the daily deals take nothing back: everyone is compared on his first decisions"))

    def hint(self) -> Any:
        raise IllegalAction(_("No hints in the daily deals: everyone plays them on his own."))

    def save(self) -> None:
        return None


class BoardComputer:
    """The set's fixed strength at one seat, asked the way the table asks a computer player."""

    def __init__(self, board: Board, seat: int) -> None:
        self.board, self.seat = board, seat
        self.name: str = board.dset.strength

    def act(self, view: Any) -> Any:
        return self.board.computer_move(self.seat)
