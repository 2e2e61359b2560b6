"""Deals of the unseen cards consistent with a seat's view, and full matches built from them.

The search players imagine the hidden hands with `sample_hands` and play them
out on `determinize`'s match.  A family with a state machine of its own (the
Scottish game) says through its match class which samples its pass-ons explain
and how to rebuild its match.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Protocol, cast

from ..core.actions import Deal
from .chinese import Arrangements
from .match import Match
from .ruleset import Ruleset
from .state import DEAL, DRAW, OVER
from .view import HIDDEN, NoConsistentDeal, View


class OwnMatchClass(Protocol):
    """A family's own match class as the sampler uses it: it says which deals its pass-ons explain, and
    rebuilds its match itself (`barbu.scottish.match.ScottishMatch`)."""

    def explains(self, v: View, hands: list[int]) -> bool: ...

    def determinize(self, v: View, hands: list[int]) -> Match: ...


@lru_cache(maxsize=64)
def own_match_class(rules: "str | Ruleset") -> OwnMatchClass | None:
    """The match class of a family with a state machine of its own (the Scottish game's), else None."""
    r = Ruleset.parse(rules) if isinstance(rules, str) else rules
    # The ruleset types it loosely (it stands below the match); a family's own class offers these hooks.
    return cast("OwnMatchClass | None", r.family_spec.match_class)


def sample_hands(view: View, rng: random.Random, tries: int = 200) -> list[int]:
    """Current hands for every seat, drawn at random among those consistent with the view."""
    n = view.players
    sizes = list(view.hand_sizes)
    hands = [view.known[s] for s in range(n)]
    hands[view.seat] = view.hand
    pool = view.unseen
    need = [sizes[s] - hands[s].bit_count() for s in range(n)]
    private = view.private_cant_hold or (0,) * n
    allowed = [((1 << 52) - 1) & ~view.cant_hold[s] & ~private[s] if s != view.seat else 0 for s in range(n)]
    cards = [c for c in range(52) if pool >> c & 1]
    if sum(need) != len(cards):
        raise NoConsistentDeal("hand sizes do not match the unseen cards")
    if view.passes:  # the Scottish pass-ons: only deals that some pass-on history explains
        own = own_match_class(view.rules)
        assert own is not None, "only a family with a match class of its own has pass-ons"
        for _ in range(tries):
            out = _sample_once(cards, need, allowed, hands, rng, tries)
            if own.explains(view, out):
                return out
        raise NoConsistentDeal("no deal of the unseen cards fits the pass-ons this seat saw")
    return _sample_once(cards, need, allowed, hands, rng, tries)


def _sample_once(
    cards: list[int], need: list[int], allowed: list[int], hands: list[int], rng: random.Random, tries: int
) -> list[int]:
    n = len(need)
    # Most constrained cards first; random order among equals.
    for _ in range(tries):
        rng.shuffle(cards)
        cards.sort(key=lambda c: sum(1 for s in range(n) if need[s] and allowed[s] >> c & 1))
        left = list(need)
        out = list(hands)
        ok = True
        for c in cards:
            seats = [s for s in range(n) if left[s] and allowed[s] >> c & 1]
            if not seats:
                ok = False
                break
            weights = [left[s] for s in seats]
            s = rng.choices(seats, weights)[0]
            out[s] |= 1 << c
            left[s] -= 1
        if ok:
            return out
    exact = _exact_assign(cards, list(need), allowed, list(hands), rng)
    if exact is None:
        raise NoConsistentDeal("no deal of the unseen cards fits what the view shows")
    return exact


def _exact_assign(
    cards: list[int], need: list[int], allowed: list[int], hands: list[int], rng: random.Random
) -> list[int] | None:
    """Backtracking fallback for tightly constrained views."""
    n = len(need)
    order = sorted(cards, key=lambda c: sum(1 for s in range(n) if allowed[s] >> c & 1))

    def go(i: int) -> bool:
        if i == len(order):
            return True
        c = order[i]
        seats = [s for s in range(n) if need[s] and allowed[s] >> c & 1]
        rng.shuffle(seats)
        for s in seats:
            need[s] -= 1
            hands[s] |= 1 << c
            if go(i + 1):
                return True
            need[s] += 1
            hands[s] ^= 1 << c
        return False

    return hands if go(0) else None


@lru_cache(maxsize=64)
def ruleset_of(rules: str) -> Ruleset:
    """A view's ruleset, read once: the searching players determinize thousands of times a decision, and a
    `Match` made from the text read it twice each time (a tenth of a sampler test's time).  A ruleset is frozen:
    every match may share it."""
    return Ruleset.parse(rules)


def determinize(v: View, hands: list[int], before: Callable[[Match, Any], None] | None = None) -> Match:
    """A full `Match` at the view's position in which the current hands are ``hands``.

    The deal's original hands are rebuilt from ``hands`` plus the cards each
    seat has played, then the deal's public actions are replayed (each shown
    first to ``before`` with the match it is applied to, for those who read the
    deal's history); an inconsistent sample raises `IllegalAction`.
    """
    own = own_match_class(v.rules)
    if own is not None:  # a family with a state machine of its own rebuilds its match itself
        return own.determinize(v, hands)
    m = Match(ruleset_of(v.rules))
    n = m.n
    m.phase = DEAL
    m.dealer = v.dealer
    m.declarer = v.declarer
    m.deal_no = v.deal_number - 1
    m.totals = list(v.totals)
    m.results = list(v.results)
    m.contracts_left = [set(s) for s in v.contracts_left]
    m.dbl_count = [list(r) for r in v.doubles_matrix]
    if v.phase in ("draw", "deal", "over"):  # no deal in progress: nothing to replay
        m.phase = {"draw": DRAW, "deal": DEAL, "over": OVER}[v.phase]
        return m
    if v.contract is not None:
        m.contracts_left[v.declarer].add(v.contract)
    for b in v.doubles:  # doubles already made this deal are replayed below
        if b.doubled == v.dealer:
            m.dbl_count[v.declarer][b.doubler] -= 1
    original = list(hands)
    for leader, cards in v.tricks:
        if v.contract and m.contract_by_key[v.contract].kind == "domino":
            original[leader] |= 1 << cards[0]
        else:
            for i, c in enumerate(cards):
                original[(leader + i) % n] |= 1 << c
    for i, c in enumerate(v.trick):
        original[(v.leader + i) % n] |= 1 << c
    m.apply(Deal(tuple(original)))
    for a in v.deal_actions:
        if a is HIDDEN:  # another seat's secret arrangement: any one of its hand will do
            a = Arrangements(m.hands[m.turn])[0]
        if before is not None:
            before(m, a)
        m.apply(a)
    return m


__all__ = ["sample_hands", "determinize"]
