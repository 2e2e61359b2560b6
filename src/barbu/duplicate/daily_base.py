"""What the daily deals' modules share below them all (`barbu.duplicate.daily`, `barbu.duplicate.daily_besigue`):
the error, and the mechanics of one board being played, whatever the game."""

from __future__ import annotations

from typing import Any, Iterable

from ..core.chance import BoardChance
from ..core.daily_keys import board_key


class DailyError(ValueError):
    """A daily set that cannot be made as asked (an unknown game, a strength that thinks against the clock), or a
    board asked for or played wrongly (out of range, over, not the person's turn)."""


class Board:
    """One board being played by a person: the game, his seat, the computer's answers.

    Built from the person's moves so far (``moves``, as text), it replays them, so a board is resumed on any
    device from what was stored.  `play` takes his next move; the computer players answer at once.  A game's
    board says how a fresh game starts (`_new_game`), how a move is applied (`_apply`), how chance and any fixed
    choice lead up to the next decision (`_advance`) and what its computer plays (`computer_move`)."""

    def __init__(
        self, dset: Any, board: int, moves: Iterable[str] = (), computer: bool = False, paced: bool = False
    ) -> None:
        """``computer``: the fixed strength plays the person's seat too (the computer's own result).
        ``paced``: the board stops at each computer player's turn too, for a table that shows its moves one by
        one (`computer_move`, `play_computer`); the moves are the same."""
        if not 0 <= board < dset.size:
            raise DailyError(f"there is no board {board + 1} in this set")
        self.dset = dset
        self.board = board
        self.computer = computer
        self.paced = paced
        self.match: Any = self._new_game()
        self.actors: list[int] = []
        self.moves: list[str] = []
        self._chance = BoardChance(board_key(dset.key, board))
        self.seat = -1
        self._advance()
        for move in moves:
            self.play(move)

    # -- what each game says
    def _new_game(self) -> Any:
        raise NotImplementedError

    def _apply(self, action: Any, seat: int) -> None:
        raise NotImplementedError

    def _advance(self) -> None:
        raise NotImplementedError

    def computer_move(self, seat: int) -> Any:
        """What the fixed strength plays now at ``seat`` (a fresh player seeded by everything so far)."""
        raise NotImplementedError

    # -- what the board is
    @property
    def done(self) -> bool:
        return bool(self.match.results)

    def to_move(self) -> bool:
        return not self.done and self.match.to_act() == self.seat

    # -- playing
    def play(self, text: Any) -> None:
        """The person's move (as typed or sent: "QH", "double 0", "play QS"); refused with the rule's reason,
        changing nothing."""
        if self.done:
            raise DailyError("this board is over")
        if self.match.to_act() != self.seat:
            raise DailyError("it is not your turn")
        action = self.match.parse_action(text) if isinstance(text, str) else text
        self._apply(action, self.seat)
        self.actors.append(self.seat)
        self.moves.append(str(action))
        self._advance()

    def play_computer(self, seat: int, action: Any = None) -> None:
        """A paced board: the computer player's move at ``seat`` (``computer_move``'s, worked out beforehand
        or now), then chance and any fixed choice up to the next decision."""
        if self.done or self.match.to_act() != seat or (seat == self.seat and not self.computer):
            raise DailyError("it is not a computer player's turn")
        self._apply_computer(seat, self.computer_move(seat) if action is None else action)
        self._advance()

    def _apply_computer(self, seat: int, action: Any) -> None:
        self._apply(action, seat)
        self.actors.append(seat)
