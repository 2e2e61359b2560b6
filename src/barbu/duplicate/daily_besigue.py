"""Bésigue's daily deals: a few deals of a fresh game each, the same cards for everyone, against the same computer.

Board *k* of the set is the first deal of a fresh game of Bésigue: the draw for the dealer and the shuffle are
chance events drawn by `BoardChance` from the board's key (`barbu.core.daily_keys`), so everyone has the same
dealer, the same hands, the same stock and the same turn-up.  The person is the elder hand (he leads first) on
even boards and the dealer on odd ones, the same seat for everyone.  The other seat is played by the set's fixed
strength with no time budget, a fresh player for each decision seeded by HMAC(the game's key, board, seat, every
action so far), so the same moves get the same answers.  A board's score is the person's points on the deal less
the computer's (Bésigue is won on the difference): plus is good, and everyone who played the board from the same
seat is compared on it by matchpoints.  Nothing here does I/O.
"""

from __future__ import annotations

from typing import Any, Iterable

from ..agents.besigue import make_besigue_agent
from ..besigue.game import CHANCE, BesigueGame
from ..besigue.ruleset import BesigueRules
from ..core.daily_keys import seed_of
from .daily_base import Board

GAME = "besigue"  # the daily set's name among the games (`barbu.duplicate.daily.GAMES`)
BOARDS = 4  # deals in a set: two as the elder hand, two as the dealer
ELDER, DEALER = "elder", "dealer"


def besigue_rules() -> BesigueRules:
    return BesigueRules.parse(GAME)


def role_of(board: int) -> str:
    """The person's part on a board: the elder hand (he leads first) on even boards, the dealer on odd ones."""
    return ELDER if board % 2 == 0 else DEALER


class BesigueBoard(Board):
    """One Bésigue board being played by a person: the fresh game, his seat, the computer's answers.

    ``BoardPlay(dset, k)`` of a Bésigue set makes one: the same calls (``play``, ``to_move``, ``done``, ``score``,
    ``computer_move``, ``play_computer``, ``moves``, ``actors``), so the server, the terminal and the checks treat
    both alike; ``match`` is the `BesigueGame`."""

    n = 2
    contract = ""  # no contract: the board is the deal itself

    def __init__(
        self, dset: Any, board: int, moves: Iterable[str] = (), computer: bool = False, paced: bool = False
    ) -> None:
        self.role = role_of(board)
        super().__init__(dset, board, moves, computer, paced)

    def _new_game(self) -> BesigueGame:
        game = BesigueGame(self.dset.rules)
        game.keep_undo = False  # nothing is ever taken back here
        return game

    def _apply(self, action: Any, seat: int) -> None:
        self.match.apply(action)

    # -- what the board is
    @property
    def result(self) -> dict[str, Any] | None:
        """The finished deal's result (the game's own: scores, brisques, combinations); None while it is played."""
        return self.match.results[0] if self.match.results else None

    @property
    def scores(self) -> list[int] | None:
        """Each seat's points on the deal."""
        r = self.result
        return None if r is None else list(r["scores"])

    @property
    def score(self) -> int | None:
        """The person's points on the deal less the computer's."""
        s = self.scores
        return None if s is None else s[self.seat] - s[1 - self.seat]

    def note(self) -> str:
        """A traveller's line beside the score: the deal's points, the person's first ("210–120")."""
        s = self.scores
        return "" if s is None else f"{s[self.seat]}–{s[1 - self.seat]}"

    # -- playing
    def _advance(self) -> None:
        """Draw the dealer and shuffle from the board's key, then let the computer act until the person must."""
        g = self.match
        while not g.results:
            actor = g.to_act()
            if actor is None:
                return
            if actor == CHANCE:
                g.apply(self._chance(g))
                self.actors.append(CHANCE)
                if self.seat < 0 and g.phase != "first-dealer":  # the dealer is known: the person's seat
                    self.seat = 1 - g.dealer if self.role == ELDER else g.dealer
                continue
            if (actor == self.seat and not self.computer) or self.paced:
                return
            self._apply_computer(actor, self.computer_move(actor))

    def computer_move(self, seat: int) -> Any:
        """What the fixed strength plays now at ``seat`` (a fresh player seeded by everything so far)."""
        text = f"{self.board}|{seat}|" + " ".join(t for _, t in self.match.log)
        return make_besigue_agent(self.dset.strength, seed_of(self.dset.key, text)).act(self.match.view(seat))
