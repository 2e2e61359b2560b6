"""Trick play: following suit, trumping and overtrumping, the heart-lead ban, and the tricks won.

This is the engine's hot path (every playout spends most of its time here), so
it works on raw int bitmasks, checks the cheap cases first and keeps its
bookkeeping small.
"""

from __future__ import annotations

from ...core import refusals as C
from ...core.cards import HEARTS, SUIT_MASK
from ...core.errors import IllegalAction
from .. import refusals as R
from ..contracts import Contract
from ..state import PLAY
from .scoring import Scoring

HEARTS_MASK = SUIT_MASK[HEARTS]
_HEART_MODES = {"none": 0, "never_unless_only_hearts": 1, "first_trick": 2, "until_broken": 3}


class TrickPlay(Scoring):
    """Cards played to tricks until the hands are empty or no card left can change a score."""

    __slots__ = ()

    def _start_tricks(self, contract: Contract) -> None:
        """The duties of this contract: the heart-lead ban, trumps, and when the deal is decided early."""
        self.phase = PLAY
        self.heart_mode = _HEART_MODES[self.rules.heart_lead] if contract.heart_ban else 0
        self.trump_mask = SUIT_MASK[self.trump] if contract.trump and self.trump is not None else 0
        self.head_mask = self.trump_mask if self.rules.trump_rules == "classic" else 0
        self.stop_mask = contract.penalty_mask if self.rules.stop_when_decided and contract.decided_by_cards else 0

    def _play_mask(self) -> int:
        """The cards the seat to play may play to the trick, as a bitmask."""
        hand = self.hands[self.turn]
        if not self.trick:
            mode = self.heart_mode
            if mode:
                others = hand & ~HEARTS_MASK
                if others and (mode == 1 or (mode == 2 and not self.winners) or (mode == 3 and not self.hearts_broken)):
                    return others
            return hand
        follow = hand & self.led_mask
        tm = self.trump_mask
        if not tm:
            return follow or hand
        if self.led_mask == tm:  # trumps led
            if follow and self.rules.trump_rules == "classic":
                top = (self.trick_mask & tm).bit_length()
                higher = follow >> top << top
                return higher or follow
            return follow or hand
        if follow:
            return follow
        my_trumps = hand & tm
        if not my_trumps:
            return hand
        played = self.trick_mask & tm
        if not played:
            return my_trumps
        top = played.bit_length()
        over = my_trumps >> top << top
        return over or hand

    def _explain(self, card: int) -> IllegalAction:
        """Why a card the seat holds may not be played to this trick: the refusal, with its code."""
        hand = self.hands[self.turn]
        if not self.trick:
            return IllegalAction.of(
                R.NO_HEART_LEAD_UNTIL_DISCARD
                if self.heart_mode == 3
                else R.NO_HEART_LEAD_FIRST_TRICK
                if self.heart_mode == 2
                else R.NO_HEART_LEAD
            )
        led = (self.led_mask.bit_length() - 1) // 13
        if hand & self.led_mask and not (self.led_mask >> card & 1):
            return IllegalAction.of(R.FOLLOW_SUIT, suit=led)
        tm = self.trump_mask
        if self.led_mask == tm:
            return IllegalAction.of(R.MUST_OVERTRUMP_LED)
        if not self.trick_mask & tm:
            return IllegalAction.of(R.MUST_TRUMP, suit=led)
        return IllegalAction.of(R.MUST_OVERTRUMP)

    def _apply_card(self, card: int) -> None:
        turn = self.turn
        bit = 1 << card
        hand = self.hands[turn]
        if not hand & bit:
            raise IllegalAction.of(C.YOU_DO_NOT_HOLD, card=card)
        trick = self.trick
        # Cheap checks first; the full rule (_play_mask) only where trumps or the heart ban bite.
        if trick:
            led = self.led_mask
            if bit & led:
                if led == self.head_mask and not self._play_mask() & bit:
                    raise self._explain(card)
            elif hand & led or (self.trump_mask and not self._play_mask() & bit):
                raise self._explain(card)
        elif self.heart_mode and not self._play_mask() & bit:
            raise self._explain(card)
        self.hands[turn] = hand ^ bit
        in_hands = self.in_hands ^ bit
        self.in_hands = in_hands
        trick.append(card)
        tm = self.trick_mask | bit
        k = len(trick)
        if k == 1:
            self.led_mask = SUIT_MASK[card // 13]
        if k < self.n:
            self.trick_mask = tm
            self.turn = (turn + 1) % self.n
            return
        # The trick is complete.
        trumps = tm & self.trump_mask
        top = (trumps or (tm & self.led_mask)).bit_length() - 1
        leader = self.leader
        winner = (leader + trick.index(top)) % self.n
        self.won[winner] |= tm
        self.tricks_won[winner] += 1
        self.winners.append(winner)
        self.trick_log.append((leader, tuple(trick)))
        if tm & HEARTS_MASK:
            self.hearts_broken = True
        self.trick = []
        self.trick_mask = 0
        self.led_mask = 0
        self.leader = self.turn = winner
        stop = self.stop_mask
        if not in_hands or (stop and not in_hands & stop):
            self._finish_deal(played=True)
