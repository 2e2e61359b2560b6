"""Chinese poker: each seat in turn, from the declarer, lays out its 13 cards in three rows face down.

The rows are scored together once every seat has laid them (`Scoring`); the
72,072 ways to arrange a hand are offered lazily (`Arrangements`).
"""

from __future__ import annotations

from ...core.errors import IllegalAction
from .. import refusals as R
from ..chinese import Arrange, Arrangements
from .scoring import Scoring


class Arranging(Scoring):
    """The rows laid so far, in turn from the declarer."""

    __slots__ = ()

    def _arrange_actions(self) -> Arrangements:
        """Every arrangement of the hand of the seat to act."""
        return Arrangements(self.hands[self.turn])

    def _apply_arrange(self, action: object) -> None:
        """Chinese poker: each seat in turn, from the declarer, lays out its rows face down."""
        if not isinstance(action, Arrange):
            raise IllegalAction.of(R.TIME_TO_ARRANGE, action=str(action))
        hand = self.hands[self.turn]
        if action not in Arrangements(hand):
            rows = (action.back.bit_count(), action.middle.bit_count(), action.front.bit_count())
            if rows != (5, 5, 3):
                raise IllegalAction.of(R.ROW_SIZES, back=rows[0], middle=rows[1], front=rows[2])
            raise IllegalAction.of(R.ROWS_NOT_HAND)
        self.arranged.append(action)
        if len(self.arranged) == self.n:
            self._finish_deal(played=True)
            return
        self.turn = (self.turn + 1) % self.n
