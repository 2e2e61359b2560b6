"""Whose turn it is and what he may do, in every phase: what bots, views and front ends ask first.

It stands on all the phases and answers from the phase the match is in; the
seats' views (`barbu.classic.view`) read a match through it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.cards import cards_of
from ...core.game import CHANCE
from ..state import ARRANGE, DEAL, DECLARE, DOMINO_PLAY, DOUBLING, DRAW, OVER, PHASE_NAMES, PLAY, RANK, TRUMP
from .dealing import Dealing


class Turns(Dealing):
    """The seat to act and its legal actions, whatever the phase."""

    __slots__ = ()

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def to_act(self) -> int | None:
        """The seat to act, `CHANCE` for a random event, or None when the match is over."""
        ph = self.phase
        if ph == PLAY or ph == DOMINO_PLAY or ph == ARRANGE:
            return self.turn
        if ph == DRAW or ph == DEAL:
            return CHANCE
        if ph == DOUBLING:
            return self.dbl_queue[0]
        if ph == OVER:
            return None
        return self.declarer

    def legal_actions(self) -> Sequence[Any]:
        """Exactly the actions the seat to act may take (empty at chance nodes and at the end)."""
        ph = self.phase
        if ph == PLAY:
            return cards_of(self._play_mask())
        if ph == DOMINO_PLAY:
            return self._layout_actions()
        if ph == DECLARE:
            return self._contract_actions()
        if ph == ARRANGE:
            return self._arrange_actions()
        if ph == TRUMP:
            return self._trump_actions()
        if ph == RANK:
            return self._rank_actions()
        if ph == DOUBLING:
            return self._doubling_actions(self.dbl_queue[0])
        return ()
