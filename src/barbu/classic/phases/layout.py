"""Domino and Success: cards laid out in suit rows from a starting rank, passes, and the finishing order.

A row grows one card at either end; `playable` holds exactly the cards that
fit somewhere, so the legal cards are one mask away.  The Scottish game's
Patience lays its rows with the same fields.
"""

from __future__ import annotations

from ...core import refusals as C
from ...core.actions import PASS, Pass
from ...core.cards import ACE, Card, cards_of
from ...core.errors import IllegalAction
from .. import refusals as R
from ..contracts import Contract
from ..state import DOMINO_PLAY
from .scoring import Scoring


class LayoutPlay(Scoring):
    """Cards laid in rows, one at a time, until the contract's finishing order is known."""

    __slots__ = ()

    def _start_layout(self, contract: Contract) -> None:
        """The first cards that may be laid: those of the named rank, or any card in Success."""
        self.phase = DOMINO_PLAY
        if contract.open_any:  # Success: the first card is free and fixes the rank
            self.playable = self.deck
        else:
            r = self.rank if self.rank is not None else 0
            self.playable = sum(1 << (s * 13 + r) for s in range(4)) & self.deck

    def _layout_actions(self) -> tuple[Card | Pass, ...]:
        """The cards that fit, or a pass when none does (and always after an ace in Success)."""
        m = self.hands[self.turn] & self.playable
        if self.bonus_turn:
            return cards_of(m) + (PASS,)
        return cards_of(m) if m else (PASS,)

    def _explain_row(self, card: int) -> IllegalAction:
        """Why a card the seat holds does not fit the rows: the refusal, with its code."""
        s = card // 13
        if self.layout[s] is None:
            return IllegalAction.of(R.DOMINO_ROW_NOT_STARTED, card=card, suit=s, rank=self.rank or 0)
        return IllegalAction.of(R.DOMINO_NOT_NEXT, card=card)

    def _apply_domino(self, action: int | Pass) -> None:
        turn = self.turn
        contract = self.contract
        assert contract is not None
        if isinstance(action, Pass):
            if self.bonus_turn:  # declining the extra card after an ace says nothing about the hand
                self.bonus_turn = False
            else:
                if self.hands[turn] & self.playable:
                    raise IllegalAction.of(R.DOMINO_PASS_WITH_CARD)
                self.domino_passes.append((turn, self.playable))
                self.passes_in_row += 1
                if self.passes_in_row >= sum(1 for h in self.hands if h):
                    # Nobody can lay a card any more (cards set aside block the rows): the deal ends.
                    self._finish_deal(played=True)
                    return
        else:
            card = int(action)
            bit = 1 << card
            if not self.hands[turn] & bit:
                raise IllegalAction.of(C.YOU_DO_NOT_HOLD, card=card)
            if not self.playable & bit:
                raise self._explain_row(card)
            self.bonus_turn = False
            self.passes_in_row = 0
            self.hands[turn] ^= bit
            self.in_hands ^= bit
            self.playable ^= bit
            s, r = divmod(card, 13)
            if contract.open_any and self.rank is None:
                self.rank = r
                self.playable = sum(1 << (x * 13 + r) for x in range(4)) & self.deck & ~bit
            high_ace = self.rules.domino_ace == "high"
            pos = self._pos(r, high_ace)
            span = self.layout[s]
            if span is None:
                self.layout[s] = (pos, pos)
                for p in (pos - 1, pos + 1):
                    self._add_playable(s, p, high_ace)
            elif pos < span[0]:
                self.layout[s] = (pos, span[1])
                self._add_playable(s, pos - 1, high_ace)
            else:
                self.layout[s] = (span[0], pos)
                self._add_playable(s, pos + 1, high_ace)
            self.trick_log.append((turn, (card,)))
            if not self.hands[turn]:
                self.finished.append(turn)
                left = [p for p in range(self.n) if self.hands[p]]
                if contract.ends_after and len(self.finished) >= contract.ends_after:
                    self._finish_deal(played=True)
                    return
                if not left or (len(left) == 1 and self.rules.stop_when_decided):
                    self.finished.extend(left)
                    self._finish_deal(played=True)
                    return
            elif contract.ace_again and r == ACE:
                # The same player may lay one more card, or pass.  Offered even when nothing fits, so
                # that the offer itself tells the table nothing about his hand.
                self.bonus_turn = True
                return
        n = self.n
        nxt = (turn + 1) % n
        while not self.hands[nxt]:
            nxt = (nxt + 1) % n
        self.turn = nxt

    @staticmethod
    def _pos(rank: int, high_ace: bool) -> int:
        """A rank's place in a row: the ace at the top, or below the two."""
        if high_ace:
            return rank
        return 0 if rank == ACE else rank + 1

    def _add_playable(self, suit: int, pos: int, high_ace: bool) -> None:
        """The card at ``pos`` in the suit's row fits now, if the deck has it."""
        if not 0 <= pos <= 12:
            return
        rank = pos if high_ace else (ACE if pos == 0 else pos - 1)
        card = suit * 13 + rank
        if self.deck >> card & 1:
            self.playable |= 1 << card
