"""The expert player: the search player's sampling, made to weigh which deals are likely and to solve the end exactly.

In trick play it draws several times more deals than it will search
(`sample_hands`: every deal fitting what the seat has seen) and weighs each by
how well it explains the cards the others have played this deal: every past
card of another seat is replayed from that seat's position in the sampled deal
(its hand then, the trick, the cards still out) and compared with what the rule
player, the playout policy, would have played there.  A card the policy would
have chosen (or one it cannot be told apart from: the same suit with no card
between them still out) keeps the deal's weight; another card multiplies it by
``surprise``.  The deals searched are then drawn by weight.  Each is played out
with the rule policy after each candidate card, or, once every hand holds at
most ``exact_cards`` cards, valued exactly for all candidates at once by the
compiled solver (`barbu.solver.fast.move_values`).

Every other decision (contracts, trumps, doubles, pass-ons, Domino rows) is
the search player's.
"""

from __future__ import annotations

import time
from typing import Any

from ..classic.match import PLAY, Match
from ..classic.sampler import determinize, sample_hands
from ..classic.view import NoConsistentDeal, View
from ..core.cards import SUIT_MASK
from ..solver import fast
from ..solver.position import Spec, objective, spec_of, state_of
from ..solver.pure import legal_mask
from .cardplay import choose_trick_card
from .rule import rules_info
from .search import DEFAULT_SECONDS, SearchAgent, rollout

DEFAULT_SAMPLES = 40
DEFAULT_POOL = 3  # deals drawn per deal searched, to weigh
DEFAULT_SURPRISE = 0.3
DEFAULT_EXACT_CARDS = 5


def between(a: int, b: int) -> int:
    """The cards of the same suit strictly between ``a`` and ``b``."""
    lo, hi = min(a, b), max(a, b)
    return ((1 << hi) - 1) & ~((1 << (lo + 1)) - 1)


class ExpertAgent(SearchAgent):
    """Search with inference from the others' cards and exact values at the end of each deal."""

    name = "expert"

    def __init__(self, seed: int | None = None, samples: int = DEFAULT_SAMPLES, seconds: float = DEFAULT_SECONDS,
                 pool: int = DEFAULT_POOL, surprise: float = DEFAULT_SURPRISE,
                 exact_cards: int = DEFAULT_EXACT_CARDS) -> None:
        super().__init__(seed, samples=samples, seconds=seconds)
        self.pool = pool
        self.surprise = surprise
        self.exact_cards = exact_cards

    def act(self, view: View) -> Any:
        if view.phase != "play" or len(view.legal) < 2:
            return super().act(view)
        self.last_values = []
        deadline = time.perf_counter() + self.seconds
        rules, contracts, sign = rules_info(view.rules)
        worlds = self.likely_worlds(view, sign, deadline)
        if not worlds:
            return super().act(view)
        legal = list(view.legal)
        seat = view.seat
        scores = [0.0] * len(legal)
        if max(view.hand_sizes) <= self.exact_cards:
            spec = objective(spec_of(worlds[0]), sign)
            for values in fast.move_values(spec, [state_of(w) for w in worlds]):
                points = dict(values)
                for i, a in enumerate(legal):
                    scores[i] += points[int(a)]
            done = len(worlds)
        else:
            done = 0
            for w in worlds:
                for i, a in enumerate(legal):
                    child = w.clone()
                    child.apply(a)
                    scores[i] += rollout(child, self.policy, sign)[seat]
                done += 1
                if time.perf_counter() > deadline:
                    break
        self.last_samples = done
        best = max(range(len(legal)), key=lambda i: scores[i])
        self.last_values = sorted(((legal[i], scores[i] / done) for i in range(len(legal))), key=lambda x: -x[1])
        return legal[best]

    def likely_worlds(self, view: View, sign: int, deadline: float) -> list[Match]:
        """Up to ``samples`` matches of deals fitting the view, drawn by how well they explain the others' play."""
        drawn: list[list[int]] = []
        for _ in range(self.samples * self.pool):
            try:
                drawn.append(sample_hands(view, self.rng))
            except NoConsistentDeal:
                continue
            if time.perf_counter() > deadline:
                break
        if not drawn:
            return []
        first = determinize(view, drawn[0])
        if first.phase != PLAY:
            return []
        spec = spec_of(first)
        weights = [self.likelihood(view, hands, spec, first, sign) for hands in drawn]
        total = sum(weights)
        if total <= 0:
            weights, total = [1.0] * len(drawn), float(len(drawn))
        # Drawn by weight without replacement (Efraimidis and Spirakis): a few likely deals must not crowd out
        # the rest, or the search would look at one deal many times over.
        keys = sorted(range(len(drawn)), key=lambda i: -(self.rng.random() ** (1.0 / weights[i])
                                                         if weights[i] > 0 else 0.0))
        picked = keys[:self.samples]
        return [first if i == 0 else determinize(view, drawn[i]) for i in picked]

    def likelihood(self, view: View, hands: list[int], spec: Spec, world: Match, sign: int) -> float:
        """How well the rule policy explains the others' cards this deal if they held ``hands``."""
        contract = world.contract
        trump_mask = world.trump_mask
        n = view.players
        me = view.seat
        # Replay the deal's tricks backwards to know each hand before each card.
        plays: list[tuple[int, int, tuple[int, ...], int]] = []  # (seat, card, trick so far, tricks done)
        for t, (leader, cards) in enumerate((*view.tricks, (view.leader, view.trick))):
            for i, c in enumerate(cards):
                plays.append(((leader + i) % n, c, tuple(cards[:i]), t))
        held = list(hands)
        out = 0  # cards still in some hand at this point, walking backwards
        for h in held:
            out |= h
        befores: list[tuple[int, int, int]] = []  # (hand before, cards out before) per play, backwards
        for seat, c, _, _ in reversed(plays):
            held[seat] |= 1 << c
            out |= 1 << c
            befores.append((held[seat], out))
        befores.reverse()
        weight = 1.0
        broken = 0
        for (seat, c, trick, t), (hand, out_before) in zip(plays, befores):
            if seat != me:
                legal = legal_mask(spec, hand, trick, t, broken)
                if legal & (legal - 1):
                    choice = choose_trick_card(contract, sign, hand, legal, trick, trump_mask, out_before & ~hand,
                                               n, hand.bit_count())
                    if choice != c and not (choice // 13 == c // 13 and not between(choice, c) & out_before & ~hand):
                        weight *= self.surprise
            if SUIT_MASK[1] >> c & 1:
                broken = 1
        return weight

