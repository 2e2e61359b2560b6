"""The single kind: a puzzle whose card is best in nearly every deal the seat could be looking at.

The seat sees its own hand and the cards played.  The other hands are drawn uniformly among the deals
consistent with that view (the unseen cards dealt at random to the other seats' hand sizes, a deal kept only
if no seat holds a card the play showed it cannot hold: a void it revealed), each solved exactly, and the
share of deals in which the solution is best is counted.  Small endings are counted exactly instead: every
consistent deal once (`consistent_deals`).  A position is a single puzzle when that share is at least `SHARE`.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from math import comb

from ..classic.match import Match
from ..classic.sampler import sample_hands
from ..solver import fast
from ..solver.position import Spec, State, objective

#: The least share of the deals consistent with the seat's view in which the solution must be best.
SHARE = 0.9
#: Deals sampled for a single puzzle; an ending with at most this many consistent deals is counted exactly.
SAMPLES = 80
#: Random deals tried for each one kept before the engine's sampler takes over (a view with many voids).
TRIES = 50


def _others(m: Match, seat: int) -> tuple[list[int], list[int], list[int], list[int]]:
    """The seat's view as the deals are drawn from it: the unseen cards, each seat's known cards, how many
    more cards each seat holds, and the cards each may hold."""
    v = m.view(seat)
    n = m.n
    hands = [v.known[s] for s in range(n)]
    hands[seat] = v.hand
    need = [v.hand_sizes[s] - hands[s].bit_count() for s in range(n)]
    need[seat] = 0
    private = v.private_cant_hold or (0,) * n
    allowed = [((1 << 52) - 1) & ~v.cant_hold[s] & ~private[s] for s in range(n)]
    cards = [c for c in range(52) if v.unseen >> c & 1]
    return cards, hands, need, allowed


def consistent_deals(m: Match, seat: int, limit: int) -> list[list[int]] | None:
    """Every deal of the others' hands consistent with the seat's view, or None if there are more than
    ``limit`` (counted before they are listed)."""
    cards, hands, need, allowed = _others(m, seat)
    total, left = 1, len(cards)
    for k in need:
        total *= comb(left, k)
        left -= k
    if total > limit * 20:  # far too many to list, even before the voids remove some
        return None
    out: list[list[int]] = []
    for deal in _assignments(cards, hands, need, allowed, 0):
        out.append(deal)
        if len(out) > limit:
            return None
    return out


def _assignments(
    cards: list[int], hands: list[int], need: list[int], allowed: list[int], s: int
) -> Iterator[list[int]]:
    """Each way to give the seats from ``s`` on their ``need`` cards out of ``cards`` within ``allowed``."""
    if s == len(need):
        if not cards:
            yield list(hands)
        return
    if not need[s]:
        yield from _assignments(cards, hands, need, allowed, s + 1)
        return
    mine = [c for c in cards if allowed[s] >> c & 1]
    for pick in itertools.combinations(mine, need[s]):
        mask = sum(1 << c for c in pick)
        rest = [c for c in cards if not mask >> c & 1]
        hands2 = list(hands)
        hands2[s] |= mask
        yield from _assignments(rest, hands2, need, allowed, s + 1)


def sample_deals(m: Match, seat: int, count: int, rng: random.Random) -> list[list[int]]:
    """``count`` deals of the others' hands drawn uniformly among those consistent with the seat's view (the
    engine's sampler where a random deal rarely fits)."""
    cards, hands, need, allowed = _others(m, seat)
    out: list[list[int]] = []
    view = None
    while len(out) < count:
        for _ in range(TRIES):
            rng.shuffle(cards)
            deal, i, ok = list(hands), 0, True
            for s, k in enumerate(need):
                mask = sum(1 << c for c in cards[i : i + k])
                i += k
                if mask & ~allowed[s]:
                    ok = False
                    break
                deal[s] |= mask
            if ok:
                out.append(deal)
                break
        else:
            view = view or m.view(seat)
            out.append(sample_hands(view, rng))
    return out


def share(spec: Spec, state: State, sign: int, solution: set[int], deals: list[list[int]]) -> float:
    """The share of ``deals`` (the others' hands) in which a card of ``solution`` is best for the seat."""
    if not deals:
        return 0.0
    states = [state._replace(hands=tuple(d)) for d in deals]
    good = 0
    for values in fast.move_values(objective(spec, sign), states):
        best = max(v for _, v in values)
        good += any(v == best for c, v in values if c in solution)
    return good / len(deals)


def single_share(
    m: Match, spec: Spec, state: State, seat: int, sign: int, solution: set[int], samples: int, rng: random.Random
) -> tuple[float, int]:
    """The share of the deals consistent with the seat's view in which the solution is best, and on how many
    deals: every one where there are at most ``samples``, else ``samples`` drawn at random."""
    deals = consistent_deals(m, seat, samples)
    if deals is None:
        deals = sample_deals(m, seat, samples, rng)
    return share(spec, state, sign, solution, deals), len(deals)
