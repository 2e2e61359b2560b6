"""Rule-based judgement of a hand before the play: contract, trump, starting rank and doubles.

The estimates are rough on purpose: expected points of each contract for
this hand, from how many tricks its cards are likely to win.  They compare
contracts with each other and with an even share of the contract's total,
which is what contract choice and doubling need.
"""

from __future__ import annotations

from functools import lru_cache

from ..classic.contracts import CHINESE, DOMINO, Contract
from ..core.cards import ACE, SUIT_MASK, cards_of
from .cardplay import _ABOVE, _BELOW, domino_pos

_WIN_BY_HIGHER_OUT = (1.0, 0.55, 0.25, 0.1, 0.03)


def win_chance(card: int, hand: int, deck: int) -> float:
    """Rough chance that ``card`` takes a trick: fewer higher cards outside the hand, more chance."""
    higher_out = (deck & _ABOVE[card] & ~hand).bit_count()
    return _WIN_BY_HIGHER_OUT[higher_out] if higher_out < len(_WIN_BY_HIGHER_OUT) else 0.0


#: How often a player ends up taking his own high card, by how many lower cards of its suit he holds:
#: each small card is a chance to duck, and a void elsewhere a chance to throw it away (measured in
#: rule-player self-play at classic No King of hearts: 0.6, 0.27, 0.15, 0.04 with the ace out).
_KEEP_BY_GUARDS = (1.0, 0.45, 0.25, 0.08, 0.03)


def keeps_own(card: int, hand: int, deck: int) -> float:
    """Rough chance that the holder of ``card`` takes it himself in a trick."""
    guards = (hand & _BELOW[card]).bit_count()
    factor = _KEEP_BY_GUARDS[min(guards, len(_KEEP_BY_GUARDS) - 1)]
    return (0.35 + 0.5 * win_chance(card, hand, deck)) * factor


@lru_cache(maxsize=65536)
def _suit_terms(in_suit: int, deck: int, players: int, trump: int, suit: int) -> tuple[float, ...]:
    """The terms one suit adds to `expected_tricks` (``trump`` -2) or `trump_tricks` (``trump`` the trump suit,
    or -1 for none), in the order they are added: a hand's sum reads four cached suits instead of its cards,
    and comes out the same to the last bit."""
    hand = in_suit
    terms = []
    if trump == -2:
        if not in_suit:
            return ()
        for c in cards_of(in_suit):
            terms.append(win_chance(c, hand, deck))
        length = in_suit.bit_count()
        others = (deck & SUIT_MASK[suit] & ~hand).bit_count()
        # A long suit's small cards win once the others are out of it.
        if length > others / (players - 1) + 1:
            terms.append(0.35 * (length - others / (players - 1) - 1))
        return tuple(terms)
    length = in_suit.bit_count()
    if suit == trump:
        for c in cards_of(in_suit):
            terms.append(win_chance(c, hand, deck))
        share = (deck & SUIT_MASK[suit]).bit_count() / players
        terms.append(max(0.0, length - share) * 0.9)
    else:
        for i, c in enumerate(sorted(cards_of(in_suit), key=lambda c: -c)):
            if i < 2:  # side suits give at most their first rounds before someone trumps
                terms.append(win_chance(c, hand, deck) * (0.8 if trump >= 0 else 1.0))
    return tuple(terms)


def expected_tricks(hand: int, deck: int, players: int) -> float:
    """Tricks this hand is likely to take at a no-trump contract where nobody wants them."""
    t = 0.0
    for s in range(4):
        for term in _suit_terms(hand & SUIT_MASK[s], deck & SUIT_MASK[s], players, -2, s):
            t += term
    return t


def trump_tricks(hand: int, deck: int, trump: int | None, players: int) -> float:
    """Tricks this hand is likely to take with ``trump`` as trumps (or no trumps: None)."""
    t = 0.0
    code = -1 if trump is None else trump
    for s in range(4):
        for term in _suit_terms(hand & SUIT_MASK[s], deck & SUIT_MASK[s], players, code, s):
            t += term
    return t


def best_trump(hand: int, deck: int, players: int, allow_none: bool) -> int | None:
    best = max(range(4), key=lambda s: (trump_tricks(hand, deck, s, players), s))
    if allow_none and trump_tricks(hand, deck, None, players) > trump_tricks(hand, deck, best, players):
        return None
    return best


def domino_cost(hand: int, rank: int, high_ace: bool) -> int:
    """How far the hand's cards are from a starting rank: far cards come out last."""
    return domino_costs(hand, high_ace)[rank]


@lru_cache(maxsize=8192)
def domino_costs(hand: int, high_ace: bool) -> tuple[int, ...]:
    """`domino_cost` at each starting rank, by rank: the same sums, from the hand's cards by row position
    (Domino's doubles and the expert's inference weigh many hands at every rank)."""
    at = [0] * 13  # the hand's cards at each row position
    for c in cards_of(hand):
        at[domino_pos(c, high_ace)] += 1
    # The cost from each position, in one sweep: one step up brings the cards at or below nearer by one and
    # takes the others one further.
    by_pos = [sum(p * k for p, k in enumerate(at))]
    below, above = 0, sum(at)
    for p in range(12):
        below += at[p]
        above -= at[p]
        by_pos.append(by_pos[-1] + below - above)
    return tuple(by_pos[domino_pos(r, high_ace)] for r in range(13))


def best_rank(hand: int, ranks: list[int], high_ace: bool) -> int:
    def key(r: int) -> tuple[int, int]:
        held = sum(1 for s in range(4) if hand >> (s * 13 + r) & 1)
        return (domino_cost(hand, r, high_ace), -held)

    return min(ranks, key=key)


def expected_points(contract: Contract, hand: int, deck: int, players: int, high_ace: bool = False) -> float:
    """Rough expected points (in the contract's own sign) of this hand at this contract."""
    hand_size = hand.bit_count()
    if contract.kind == CHINESE:
        return 0.0
    if contract.kind == DOMINO:
        fin = contract.finishing[:players]
        mean = sum(fin) / players
        costs = domino_costs(hand, high_ace)
        if contract.open_any:
            spread = min(costs)
        else:
            ranks = (deck | deck >> 13 | deck >> 26 | deck >> 39) & 0x1FFF  # the ranks in the pack
            spread = min(c for r, c in enumerate(costs) if ranks >> r & 1)
        # A typical hand is about 3 ranks from the start on average; fewer steps, earlier out.
        typical = 3.2 * hand_size
        swing = (max(fin) - min(fin)) / 2 if fin else 0
        return mean + swing * max(-1.0, min(1.0, (typical - spread) / typical * 2))
    if contract.trump:
        tricks = max(trump_tricks(hand, deck, s, players) for s in range(4))
        return contract.per_trick * tricks
    tricks = min(expected_tricks(hand, deck, players), hand_size)
    share = tricks / hand_size if hand_size else 0.0
    pts = contract.per_trick * tricks
    single = len(contract.card_points) == 1  # the King of hearts: the whole table plays around one card
    for card, value in contract.card_points:
        if not deck >> card & 1:
            continue
        if hand >> card & 1:
            if single:
                pts += value * keeps_own(card, hand, deck)
            else:
                guards = (hand & _BELOW[card]).bit_count()
                pts += value * max(0.1, 0.3 + 0.6 * win_chance(card, hand, deck) - 0.08 * min(guards, 3))
        elif single:  # the holder mostly gets rid of it: the others share it
            pts += value * min(1.0, share * players / (players - 1)) * 0.9
        else:
            pts += value * share * 0.9
    for v in contract.last_tricks:
        high = sum(1 for c in cards_of(hand) if c % 13 >= ACE - 2)
        pts += v * min(1.0, share * 0.6 + 0.08 * high)
    if contract.ravage:
        pts -= contract.ravage / players
    return pts


def contract_merit(contract: Contract, hand: int, deck: int, players: int, sign: int, high_ace: bool = False) -> float:
    """How much better than an even share this hand should do at the contract, in points (higher is better)."""
    if contract.kind == CHINESE:
        return 0.0
    total = contract.total(players, hand.bit_count(), deck)
    return sign * (expected_points(contract, hand, deck, players, high_ace) - total / players)
