"""Patience, the Scottish game's positive call (seed 004).

Rows are built in suit from the Jacks: a row opens with its Jack, then grows
one card at a time up (Q K A) or down (10 9 8 7).  A player who cannot play
chaps (passes).  Besides single cards a player may lay several at once:

* a *run*: consecutive cards of one suit, placeable one after another now
  (9 8 7 of hearts under the 10 of hearts, or Q J 10 of an unopened suit);
* a *set*: cards of one rank, each placeable now (two 7s, three Aces, Jacks).

In the Player Rounds a group may only be laid to go out (it must be the whole
hand); in the Silly Round, at any time.  The layout is the engine's: for each
suit None or the (lowest, highest) rank index on the table.
"""

from __future__ import annotations

from typing import Sequence

from ..core.cards import JACK, SUIT_MASK, card_indices

Layout = Sequence["tuple[int, int] | None"]


def fits(card: int, layout: Layout) -> bool:
    """Whether one card can be laid now."""
    suit, rank = divmod(card, 13)
    row = layout[suit]
    if row is None:
        return rank == JACK
    return rank == row[0] - 1 or rank == row[1] + 1


def _ranks(mask: int, suit: int) -> list[int]:
    bits = (mask >> (13 * suit)) & 0x1FFF
    return [r for r in range(13) if bits >> r & 1]


def run_fits(suit: int, low: int, high: int, layout: Layout) -> bool:
    """Whether ranks low..high of one suit can be laid one after another now."""
    row = layout[suit]
    if row is None:
        return low <= JACK <= high
    return high == row[0] - 1 or low == row[1] + 1


def _run_mask(suit: int, low: int, high: int) -> int:
    return sum(1 << (suit * 13 + r) for r in range(low, high + 1))


def group_fits(group: int, layout: Layout) -> bool:
    """Whether ``group`` (2+ cards) is a run or a set that can be laid now, card after card."""
    if group.bit_count() < 2:
        return False
    suits = [s for s in range(4) if group & SUIT_MASK[s]]
    if len(suits) == 1:
        ranks = _ranks(group, suits[0])
        if ranks == list(range(ranks[0], ranks[-1] + 1)):
            return run_fits(suits[0], ranks[0], ranks[-1], layout)
        return False
    rank_set = {c % 13 for c in card_indices(group)}
    if len(rank_set) == 1:
        return all(fits(c, layout) for c in card_indices(group))
    return False


def lay_options(hand: int, layout: Layout, anytime: bool, playable: int | None = None) -> list[int]:
    """Every group of 2+ cards the hand may lay now, as masks.

    ``anytime`` (the Silly Round) allows any run or set; otherwise only the whole
    hand, to go out.  ``playable`` (the cards that fit now) saves recomputing it.
    """
    if hand.bit_count() < 2:
        return []
    if not anytime:
        if playable is not None and not hand & playable:
            return []
        return [hand] if group_fits(hand, layout) else []
    if playable is None:
        playable = sum(1 << c for c in card_indices(hand) if fits(c, layout))
    fit = hand & playable
    if not fit:
        return []
    out: list[int] = []
    by_rank: dict[int, list[int]] = {}
    for c in card_indices(fit):
        suit, r = divmod(c, 13)
        by_rank.setdefault(r, []).append(c)
        base = suit * 13
        row = layout[suit]
        if row is None or r == row[1] + 1:  # runs going up from c (through the Jack of an unopened suit)
            hi = r
            while hi < 12 and hand >> (base + hi + 1) & 1:
                hi += 1
        else:
            hi = r
        if row is None or r == row[0] - 1:  # runs going down from c
            lo = r
            while lo > 0 and hand >> (base + lo - 1) & 1:
                lo -= 1
        else:
            lo = r
        for a in range(lo, r + 1):
            for b in range(max(r, a + 1), hi + 1):
                out.append(_run_mask(suit, a, b))
    for same in by_rank.values():
        k = len(same)
        if k >= 2:
            for subset in range(1, 1 << k):
                if subset & (subset - 1):  # two or more cards
                    out.append(sum(1 << same[i] for i in range(k) if subset >> i & 1))
    return out


def laying_order(group: int, layout: Layout) -> list[int]:
    """The cards of a group in an order in which each can be laid (the group must fit)."""
    rows = list(layout)
    left = card_indices(group)
    order: list[int] = []
    while left:
        for c in left:
            if fits(c, rows):
                order.append(c)
                left.remove(c)
                suit, rank = divmod(c, 13)
                row = rows[suit]
                rows[suit] = (rank, rank) if row is None else (min(row[0], rank), max(row[1], rank))
                break
        else:
            raise ValueError("the group cannot be laid card after card")
    return order


__all__ = ["fits", "run_fits", "group_fits", "lay_options", "laying_order"]
