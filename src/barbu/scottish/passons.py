"""What a seat knows after the Silly Round's pass-ons, and deals consistent with it.

A seat knows the cards it passed and the cards it received; nothing else of
the others' choices.  A card it passed is in the receiver's hand until the
receiver may have passed it on: `reach` follows, pass by pass, the set of
seats that may hold each such card (never the seat itself, which would have
seen it come back).  A card whose reach is one seat is *known* to be there;
a seat outside a card's reach *cannot hold* it.

`reconstruct` goes the other way for the search bots' sampler: given current
hands that respect those facts, it rebuilds, pass by pass backwards, the
choices of the other seats and the hands as dealt, so that replaying them
gives back the same hands and the same knowledge.  Each pass moves exactly
three cards from every seat to its target, which can make a sample impossible
to explain; the sampler then draws again.
"""

from __future__ import annotations

import random
from typing import Callable, NamedTuple, Sequence

from ..core.cards import card_indices


class PassSeen(NamedTuple):
    """One finished pass-on as the seat saw it."""

    offset: int  # target = seat + offset
    to: int
    frm: int
    gave: int  # card mask
    received: int


def seen_passes(seat: int, n: int, log: Sequence[tuple[int, Sequence[int]]]) -> tuple[PassSeen, ...]:
    """The seat's own view of each finished pass: where its cards went, what came back."""
    out = []
    for offset, gives in log:
        to, frm = (seat + offset) % n, (seat - offset) % n
        out.append(PassSeen(offset, to, frm, gives[seat], gives[frm]))
    return tuple(out)


def reach_history(seat: int, n: int, seen: Sequence[PassSeen]) -> list[dict[int, int]]:
    """For each point before pass 1, 2, … and after the last: card -> seats (bit mask) that may hold it,
    for every card the seat has passed and not seen again."""
    reach: dict[int, int] = {}
    out = [dict(reach)]
    for p in seen:
        moved: dict[int, int] = {}
        for card, holders in reach.items():
            grown = holders
            for y in range(n):
                if holders >> y & 1:
                    t = (y + p.offset) % n
                    if t != seat:
                        grown |= 1 << t
            moved[card] = grown
        for card in card_indices(p.received):
            moved.pop(card, None)
        for card in card_indices(p.gave):
            moved[card] = 1 << p.to
        reach = moved
        out.append(dict(reach))
    return out


def knowledge(seat: int, n: int, seen: Sequence[PassSeen], in_hands: int) -> tuple[list[int], list[int]]:
    """(known, cant): per seat, the cards the seat knows are in that hand, and the cards it knows are
    not (among cards still held by somebody)."""
    known = [0] * n
    cant = [0] * n
    reach = reach_history(seat, n, seen)[-1]
    for card, holders in reach.items():
        bit = 1 << card
        if not in_hands & bit:
            continue
        for y in range(n):
            if y == seat:
                continue
            if not holders >> y & 1:
                cant[y] |= bit
            elif holders == 1 << y:
                known[y] |= bit
    return known, cant


def reconstruct(
    seat: int,
    n: int,
    seen: Sequence[PassSeen],
    after: Sequence[int],
    rng: random.Random,
    tries: int = 12,
    prefer: Callable[[list[int]], list[int]] | None = None,
) -> tuple[list[int], list[tuple[int, ...]]] | None:
    """Hands as dealt and every seat's passes, consistent with what ``seat`` saw, given ``after``: each
    seat's cards after the last pass (cards it has played since included).  None if no attempt fits.

    Where a pass is not pinned down, its cards are drawn at random among those that fit, or, with
    ``prefer`` (the cards that fit, likeliest passed first), taken in that order on the first attempt."""
    reach = reach_history(seat, n, seen)
    for attempt in range(tries):
        hands = list(after)
        passes: list[tuple[int, ...]] = []
        ok = True
        for q in range(len(seen) - 1, -1, -1):
            p = seen[q]
            before = reach[q]
            tracked = 0
            for card in before:
                tracked |= 1 << card
            gives: list[int | None] = [None] * n
            gives[seat] = p.gave
            gives[p.frm] = p.received
            for y in range(n):
                t = (y + p.offset) % n
                forced = stay = 0
                for card in card_indices(hands[t] & tracked):
                    holders = before[card]
                    if not holders >> t & 1:  # it cannot have been there before: it came now, from y
                        if not holders >> y & 1 or y == seat:
                            ok = False
                            break
                        forced |= 1 << card
                    elif not holders >> y & 1:  # it was there already: it did not come from y
                        stay |= 1 << card
                if not ok:
                    break
                g = gives[y]
                if g is not None:
                    if g & ~hands[t] or forced & ~g or g & stay:
                        ok = False
                        break
                    continue
                need = 3 - forced.bit_count()
                free = card_indices(hands[t] & ~forced & ~stay)
                if need < 0 or len(free) < need:
                    ok = False
                    break
                chosen = forced
                for card in prefer(free)[:need] if prefer is not None and attempt == 0 else rng.sample(free, need):
                    chosen |= 1 << card
                gives[y] = chosen
            if not ok:
                break
            full = tuple(g or 0 for g in gives)
            hands = [(hands[y] & ~full[(y - p.offset) % n]) | full[y] for y in range(n)]
            passes.insert(0, full)
        if ok:
            return hands, passes
    return None


__all__ = ["PassSeen", "seen_passes", "reach_history", "knowledge", "reconstruct"]
