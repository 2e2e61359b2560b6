"""Chance: the draw for the first dealer, the deal, and the random outcomes the match samples for them.

Chance outcomes are actions like any other, so a record is the ruleset, the
seed and the list of actions.  A match with a seed samples each event from
that seed and its place in the history, so a match resumed from its record
deals the same future cards.
"""

from __future__ import annotations

import random

from ...core import refusals as C
from ...core.actions import Deal, Draw
from ...core.cards import cards_of
from ...core.errors import IllegalAction
from .. import refusals as R
from ..state import DEAL, DECLARE, DRAW
from .declaring import Declaring

_BIT = tuple(1 << c for c in range(52))


class Dealing(Declaring):
    """The first dealer drawn, each deal dealt, and the chance outcomes sampled."""

    __slots__ = ()

    def _apply_draw(self, action: object) -> None:
        if not isinstance(action, Draw):
            raise IllegalAction.of(R.NOT_A_DRAW, action=str(action))
        cards = action.cards
        if len(cards) != self.n or len(set(cards)) != self.n or any(not self.deck >> c & 1 for c in cards):
            raise IllegalAction.of(R.DRAW_SHAPE, n=self.n)
        ranks = [c % 13 for c in cards]
        top = max(ranks)
        if ranks.count(top) == 1:
            self.dealer = self.declarer = ranks.index(top)
            self.phase = DEAL

    def _apply_deal(self, action: object) -> None:
        if not isinstance(action, Deal):
            raise IllegalAction.of(R.NOT_A_DEAL, action=str(action))
        hands = action.hands
        if len(hands) != self.n:
            raise IllegalAction.of(R.DEAL_HANDS, n=self.n)
        union = 0
        for h in hands:
            if h.bit_count() != self.hand_size or union & h:
                raise IllegalAction.of(R.DEAL_HAND_SIZE, n=self.hand_size)
            union |= h
        if union & ~self.deck:
            raise IllegalAction.of(R.DEAL_OUTSIDE_DECK)
        self.deal_start = len(self.history)
        self._reset_deal()
        self.hands = list(hands)
        self.dealt = tuple(hands)
        self.set_aside = self.deck & ~union
        self._after_deal()

    def _after_deal(self) -> None:
        """What follows the deal: the declaration (families with cuts and pass-ons extend it)."""
        # A declarer left only with contracts the set-aside cards forbid gets a new deal.
        self.phase = DECLARE if self._choosable() else DEAL

    def sample_chance(self, rng: random.Random | None = None) -> object:
        """A random outcome for the chance node (from the match's own seeded rng by default)."""
        if rng is None:
            # Seeded per event: a match resumed from its record deals the same future cards.
            rng = self.rng if self.seed is None else random.Random(self.seed * 1_000_003 + len(self.history))
        if self.phase == DRAW:
            return Draw(tuple(rng.sample(cards_of(self.deck), self.n)))
        if self.phase == DEAL:
            # Sorting by random keys is a uniform shuffle, and faster than random.shuffle.
            rand = rng.random
            cards = sorted(self._deck_list, key=lambda _: rand())
            k = self.hand_size
            hands = []
            for i in range(0, k * self.n, k):  # any cards beyond n hands stay set aside
                m = 0
                for c in cards[i : i + k]:
                    m |= _BIT[c]
                hands.append(m)
            return Deal(tuple(hands))
        raise IllegalAction.of(C.NO_CHANCE_DUE)
