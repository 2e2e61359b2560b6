"""Rule-based card play on raw bitmasks, fast enough to drive the search bot's playouts.

Every function here sees only what the seat to play may know: its own hand,
the legal cards, the trick so far, the cards still held by the other seats
(public: the deck minus what has been played or set aside) and the contract.
The same code serves the rule-based agent (fed from a `View`) and the search
bot's playouts (fed from a `Match`), so the playout policy is the rule bot.
"""

from __future__ import annotations

from ..classic.contracts import Contract
from ..core.cards import ACE, SUIT_MASK, cards_of

_SUIT_OF = tuple(c // 13 for c in range(52))
_RANK_OF = tuple(c % 13 for c in range(52))
# Cards of the same suit strictly below / above each card.
_BELOW = tuple(SUIT_MASK[c // 13] & ((1 << c) - 1) for c in range(52))
_ABOVE = tuple(SUIT_MASK[c // 13] & ~((1 << (c + 1)) - 1) for c in range(52))


def low(mask: int) -> int:
    """The lowest card of a mask (lowest suit first, then rank)."""
    return (mask & -mask).bit_length() - 1


def high(mask: int) -> int:
    return mask.bit_length() - 1


def lowest_rank(mask: int) -> int:
    """The card of lowest rank in the mask, whatever its suit."""
    best = -1
    best_rank = 99
    while mask:
        b = mask & -mask
        c = b.bit_length() - 1
        r = c % 13
        if r < best_rank:
            best, best_rank = c, r
        mask ^= b
    return best


def highest_rank(mask: int) -> int:
    best = -1
    best_rank = -1
    while mask:
        b = mask & -mask
        c = b.bit_length() - 1
        r = c % 13
        if r >= best_rank:
            best, best_rank = c, r
        mask ^= b
    return best


def trick_winner_card(trick: list[int] | tuple[int, ...], trump_mask: int) -> int:
    """The card winning the trick so far."""
    led = SUIT_MASK[trick[0] // 13]
    m = 0
    for c in trick:
        m |= 1 << c
    return ((m & trump_mask) or (m & led)).bit_length() - 1


def _penalty(contract: Contract, card: int) -> int:
    """How much taking this card costs (a positive number), in the contract's own points."""
    v = contract.card_value.get(card, 0)
    return -v if v < 0 else 0


def choose_trick_card(
    contract: Contract,
    sign: int,
    hand: int,
    legal: int,
    trick: list[int] | tuple[int, ...],
    trump_mask: int,
    others: int,
    players: int,
    tricks_left: int,
) -> int:
    """A sensible card for a trick-taking contract.

    ``sign`` is +1 where points are good for the player (most families), -1
    where they are bad (the French penalty points); ``others`` is the cards
    still held by the other seats; ``tricks_left`` counts the current trick.
    """
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    if contract.per_trick * sign > 0:  # each trick is worth having (Trumps)
        return _take_tricks(hand, legal, trick, trump_mask, others, players)
    return _avoid_tricks(contract, sign, hand, legal, trick, trump_mask, others, players, tricks_left)


def _costs(contract: Contract, sign: int, tricks_left: int) -> tuple[bool, int]:
    """(whether taking this trick can cost anything by itself, cost of the trick as such)."""
    per = -contract.per_trick * sign if contract.per_trick * sign < 0 else 0
    k = len(contract.last_tricks)
    last = 0
    if k and tricks_left <= k:
        v = contract.last_tricks[k - tricks_left]
        last = -v * sign if v * sign < 0 else 0
    return bool(per or last or contract.penalty_mask), per + last


def _avoid_tricks(
    contract: Contract,
    sign: int,
    hand: int,
    legal: int,
    trick,
    trump_mask: int,
    others: int,
    players: int,
    tricks_left: int,
) -> int:
    pm = contract.penalty_mask
    values = contract.card_value

    def pen(c: int) -> int:
        v = values.get(c, 0) * sign
        return -v if v < 0 else 0

    costly, trick_cost = _costs(contract, sign, tricks_left)
    if not costly:
        # Taking this trick costs nothing: shed high cards now, keep low ones for the tricks that cost.
        return highest_rank(legal)
    if not trick and not trick_cost:
        cash = _cash(legal, pm, others, players)
        if cash >= 0:
            return cash
    if trick:
        led = SUIT_MASK[trick[0] // 13]
        top = trick_winner_card(trick, trump_mask)
        last_to_play = len(trick) == players - 1
        follow = legal & led
        if follow and not trick_cost and top // 13 == trick[0] // 13:
            cash = _cash_on(trick, follow, pm, others & led, players - 1 - len(trick))
            if cash >= 0:
                return cash
        if follow:
            if top // 13 != trick[0] // 13:  # trumped: anything in the led suit loses
                under = follow
            else:
                under = follow & _BELOW[top]
            if under:
                # Safe: the highest card that stays under the winner, a penalty card first.
                bad = under & pm
                if bad:
                    return max(cards_of(bad), key=lambda c: (pen(c), c))
                return high(under)
            # Every card wins so far.
            if last_to_play:
                safe = follow & ~pm
                return high(safe) if safe else min(cards_of(follow), key=lambda c: (pen(c), -c))
            safe = follow & ~pm
            return low(safe) if safe else low(follow)
        # Void: discard (or trump, where trumps are in play) the most dangerous card.
        return _discard(legal, pen, pm, hand, others)
    return _lead(legal, pen, pm, others, trump_mask)


def _discard(legal: int, pen, pm: int, hand: int, others: int) -> int:
    bad = legal & pm
    if bad:
        return max(cards_of(bad), key=lambda c: (pen(c), _RANK_OF[c]))

    def danger(c: int) -> tuple[int, int]:
        s = SUIT_MASK[_SUIT_OF[c]]
        below_others = (others & _BELOW[c]).bit_count()
        # High cards that others can get under are the ones that will take tricks later.
        return (below_others - (hand & s).bit_count(), _RANK_OF[c])

    return max(cards_of(legal), key=danger)


def _cash(legal: int, pm: int, others: int, players: int) -> int:
    """A master card to lead while everybody still follows its suit, or -1.

    A card nobody can beat takes a trick sooner or later.  Taken now, while the others
    hold plenty of its suit and none of its penalty cards, the trick carries nothing;
    kept to the end, it takes the tricks the others load with penalty cards.
    """
    best, best_left = -1, 0
    for c in cards_of(legal & ~pm):
        in_suit = others & SUIT_MASK[_SUIT_OF[c]]
        left = in_suit.bit_count()
        if in_suit & _ABOVE[c] or in_suit & pm or left < 3 * (players - 1):
            continue
        if left > best_left:
            best, best_left = c, left
    return best


def _cash_on(trick, follow: int, pm: int, others_in_suit: int, to_play: int) -> int:
    """A master card to win a clean trick with (the same reasoning as `_cash`), or -1."""
    if any(pm >> c & 1 for c in trick) or others_in_suit & pm:
        return -1
    if to_play and others_in_suit.bit_count() < 3 * to_play:
        return -1
    clean = follow & ~pm
    masters = [c for c in cards_of(clean) if not others_in_suit & _ABOVE[c]]
    return max(masters) if masters else -1


def _lead(legal: int, pen, pm: int, others: int, trump_mask: int) -> int:
    """Lead the card least likely to win its trick, and not a penalty card."""
    best = -1
    best_key: tuple = ()
    for c in cards_of(legal):
        s = SUIT_MASK[_SUIT_OF[c]]
        in_suit = others & s
        if not in_suit:
            risk = 100.0  # nobody can follow: it wins for sure
        else:
            lower = (in_suit & _BELOW[c]).bit_count()
            higher = (in_suit & _ABOVE[c]).bit_count()
            risk = lower / (higher + 1.0)
            if not higher:
                risk += 10.0
            risk += (in_suit & pm).bit_count() * 0.5 * (lower > 0)
        key = (risk + pen(c) * 2.0, _RANK_OF[c])
        if best < 0 or key < best_key:
            best, best_key = c, key
    return best


def _take_tricks(hand: int, legal: int, trick, trump_mask: int, others: int, players: int) -> int:
    """Positive trick contracts: win what can be won cheaply, throw low otherwise."""
    if trick:
        top = trick_winner_card(trick, trump_mask)
        winners = legal & _ABOVE[top]
        if not trump_mask >> top & 1:
            winners |= legal & trump_mask  # a void player's trump wins an untrumped trick
        if winners:
            if len(trick) == players - 1:
                return lowest_rank(winners)
            # Not last: a master card if there is one, else the highest winner.
            for c in sorted(cards_of(winners), key=lambda c: _RANK_OF[c]):
                if not others & _ABOVE[c]:
                    return c
            return highest_rank(winners)
        # Cannot win: throw the lowest card, keeping trumps.
        side = legal & ~trump_mask
        return lowest_rank(side or legal)
    # Leading: a master card, trumps first when we hold several.
    masters = [c for c in cards_of(legal) if not others & _ABOVE[c] and others & SUIT_MASK[_SUIT_OF[c]]]
    if masters:
        trumps = [c for c in masters if (1 << c) & trump_mask]
        return trumps[0] if trumps else max(masters, key=lambda c: _RANK_OF[c])
    # Else the lowest card of the shortest side suit, to make a void for trumping.
    side = legal & ~trump_mask
    if side:
        return min(cards_of(side), key=lambda c: ((hand & SUIT_MASK[_SUIT_OF[c]]).bit_count(), _RANK_OF[c]))
    return lowest_rank(legal)


# ---------------------------------------------------------------------- Domino and Success


def domino_pos(card: int, high_ace: bool) -> int:
    r = card % 13
    if high_ace:
        return r
    return 0 if r == ACE else r + 1


def choose_domino_card(hand: int, legal: int, layout, rank: int | None, high_ace: bool, deck: int) -> int:
    """A sensible Domino/Success card from ``legal`` (non-empty).

    Prefer the card that opens the way to more of one's own cards and to
    fewer of the others'; keep cards that block the others when there is a
    choice; with no row rank yet (Success), open at the rank one holds most of.
    """
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    if rank is None:  # Success: the first card sets the rank of every row

        def opening(c: int) -> tuple[int, int]:
            r = c % 13
            same = sum(1 for s in range(4) if hand >> (s * 13 + r) & 1)
            return (same, -abs(domino_pos(c, high_ace) - 6))

        return max(cards_of(legal), key=opening)
    best = -1
    best_key: tuple = ()
    for c in cards_of(legal):
        s = c // 13
        p = domino_pos(c, high_ace)
        span = layout[s]
        directions = (-1, 1) if span is None else ((-1,) if span is not None and p < span[0] else (1,))
        own = 0
        foreign = 0
        for d in directions:
            q = p + d
            # Walk the row beyond this card: own cards it frees, and whether the next is someone else's.
            first = True
            while 0 <= q <= 12:
                card = s * 13 + (q if high_ace else (ACE if q == 0 else q - 1))
                if not deck >> card & 1:
                    q += d
                    continue
                if hand >> card & 1:
                    own += 1
                else:
                    if first:
                        foreign += 1
                    break
                first = False
                q += d
        reach = max(p, 12 - p)  # cards far from the rank take longest to get rid of
        key = (own * 3 - foreign * 2, reach)
        if best < 0 or key > best_key:
            best, best_key = c, key
    return best
