"""The start of play, whichever kind the contract asks for: tricks, rows (Domino, Success) or Chinese poker."""

from __future__ import annotations

from ..contracts import CHINESE, DOMINO
from ..state import ARRANGE, DOMINO_PLAY, PLAY
from .arranging import Arranging
from .layout import LayoutPlay
from .tricks import TrickPlay


class Play(TrickPlay, LayoutPlay, Arranging):
    """The three kinds of play, and the step into the one the contract asks for."""

    __slots__ = ()

    def _start_play(self) -> None:
        """The declarer leads (or lays, or arranges) first (families with a leader of their own override it)."""
        contract = self.contract
        assert contract is not None
        self.turn = self.declarer
        self.leader = self.declarer
        self.in_hands = 0
        for h in self.hands:
            self.in_hands |= h
        if contract.kind == CHINESE:
            self.phase = ARRANGE
            return
        if contract.kind == DOMINO:
            self._start_layout(contract)
            return
        self._start_tricks(contract)

    def legal_mask(self) -> int:
        """The legal cards as a bitmask (play phases only): the bots' fast path."""
        if self.phase == PLAY:
            return self._play_mask()
        if self.phase == DOMINO_PLAY:
            return self.hands[self.turn] & self.playable
        return 0
