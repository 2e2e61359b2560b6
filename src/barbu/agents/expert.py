"""The expert player: the search player's sampling, with likely deals weighed and the ends of deals solved exactly.

Two things make it stronger than `search`, which it otherwise is:

- **Better playouts.**  Each sampled deal is played out by the rule player until
  the hands are small, then every seat plays the card the exact solver rates best
  for itself (`rollout` with ``end_cards``): the end of a deal, where rule-based
  play misjudges most, is played as it should be, and the engine still scores
  the deal (doubles included).  Contract and doubling choices use the same
  playouts, and so do the contracts' baselines.
- **Inference in trick play.**  It draws several times more deals than it will
  search (every deal fitting what the seat has seen) and weighs each by how
  well it explains the cards the others have played this deal: every past card
  of another seat is replayed from that seat's position in the sampled deal
  (its hand then, the trick, the cards still out) and compared with what the
  rule player would have played there.  A card the rule player would have
  chosen (or one it cannot be told apart from: the same suit with no card
  between them still out) keeps the deal's weight; another card multiplies it
  by ``surprise``.  The deals searched are then drawn by weight.

Handed the true match (`sees_all`), the same code is the perfect-information
player the expert is measured against: its only world is the real deal.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from ..classic.contracts import CHINESE, Contract
from ..classic.match import PLAY, Match
from ..classic.sampler import determinize, sample_hands
from ..classic.view import NoConsistentDeal, View
from ..core.cards import SUIT_MASK
from ..solver.position import spec_of
from ..solver.pure import legal_mask
from .bidding import contract_merit
from .cardplay import choose_trick_card
from .rule import rules_info
from .search import DEFAULT_SECONDS, SearchAgent

DEFAULT_SAMPLES = 40
DEFAULT_POOL = 3  # deals drawn per deal searched, to weigh
DEFAULT_SURPRISE = 0.3
#: From how many cards a hand the playouts are solved, by players: the solver's time grows with the cards
#: left in all hands, so about twenty cards in all.
END_CARDS_BY_PLAYERS = {3: 6, 4: 5, 5: 4, 6: 3}
DEFAULT_BID_SURPRISE = 0.7  # per contract open to the declarer that its hand suits better than the one chosen
DEFAULT_DOUBLE_SURPRISE = 0.6  # per seat whose doubles differ from what its hand calls for
#: The contract and the doubles are weighed until this many tricks are played; by then the cards say more
#: (and weighing them costs a hand estimate per contract per deal drawn).
BIDDING_TRICKS = 4


def between(a: int, b: int) -> int:
    """The cards of the same suit strictly between ``a`` and ``b``."""
    lo, hi = min(a, b), max(a, b)
    return ((1 << hi) - 1) & ~((1 << (lo + 1)) - 1)


class ExpertAgent(SearchAgent):
    """Search with solved deal ends and inference from the others' cards."""

    name = "expert"
    sees_all = False  # True for the perfect-information twin, whose ``match`` the arena sets

    def __init__(self, seed: int | None = None, samples: int = DEFAULT_SAMPLES, seconds: float = DEFAULT_SECONDS,
                 pool: int = DEFAULT_POOL, surprise: float = DEFAULT_SURPRISE,
                 end_cards: int | None = None) -> None:
        super().__init__(seed, samples=samples, seconds=seconds, exact_tricks=0)
        self.pool = pool
        self.surprise = surprise
        self.end_cards = end_cards  # type: ignore[assignment]  # None: by the number of players
        self.match: Match | None = None  # the true match, for the perfect-information twin only
        self.bid_surprise = DEFAULT_BID_SURPRISE
        self.double_surprise = DEFAULT_DOUBLE_SURPRISE

    def solved_end(self, players: int) -> int:
        return self.end_cards if self.end_cards is not None else END_CARDS_BY_PLAYERS.get(players, 3)

    def worlds(self, view: View, sign: int, deadline: float) -> Iterator[Match]:
        if self.match is not None:  # perfect information: the real deal is the only world
            yield self.match.clone()
            return
        if view.phase not in ("play", "doubling") or self.pool <= 1:
            yield from super().worlds(view, sign, deadline)
            return
        yield from self.likely_worlds(view, sign, deadline)

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
        spec = None
        if first.phase == PLAY:
            try:
                spec = spec_of(first)
            except (ValueError, AttributeError, KeyError):
                spec = None
        rules, contracts, _ = rules_info(view.rules)
        contract = contracts.get(view.contract or "")
        weights = []
        for hands in drawn:
            w = 1.0
            if contract is not None and contract.kind != CHINESE and len(view.tricks) < BIDDING_TRICKS \
                    and view.scottish is None:  # the Scottish calls are weighed by the cards alone
                w *= self.bidding_likelihood(view, self.dealt_hands(view, hands), contract, contracts, rules, sign)
            if spec is not None:
                w *= self.likelihood(view, hands, spec.n, spec, first, sign)
            weights.append(w)
        # Drawn by weight without replacement (Efraimidis and Spirakis): a few likely deals must not crowd out
        # the rest, or the search would look at one deal many times over.
        keys = sorted(range(len(drawn)), key=lambda i: -(self.rng.random() ** (1.0 / weights[i])))
        picked = keys[:self.samples]
        return [first if i == 0 else determinize(view, drawn[i]) for i in picked]

    @staticmethod
    def dealt_hands(view: View, hands: list[int]) -> list[int]:
        """Each seat's hand at the start of trick play: its hand now plus the cards it has played this deal."""
        dealt = list(hands)
        for leader, cards in (*view.tricks, (view.leader, view.trick)):
            for i, c in enumerate(cards):
                dealt[(leader + i) % view.players] |= 1 << c
        return dealt

    def bidding_likelihood(self, view: View, dealt: list[int], contract: Contract, contracts: dict[str, Contract],
                           rules: Any, sign: int) -> float:
        """How well the declarer's contract and the others' doubles fit the hands ``dealt`` (1 at best).

        The declarer is expected to have chosen a contract its hand suits (each contract still open to it
        that the rule player's estimate rates higher costs ``bid_surprise``), and every other seat to have
        doubled as the rule player would have with that hand (once trick play has begun and every double
        is known).
        """
        n = view.players
        deck = view.deck & ~view.set_aside
        high_ace = rules.domino_ace == "high"
        weight = 1.0
        declarer = view.declarer
        if declarer != view.seat:
            hand = dealt[declarer]
            chosen = contract_merit(contract, hand, deck, n, sign, high_ace)
            for key in view.contracts_left[declarer]:
                other = contracts.get(key)
                if other is not None and other.kind != CHINESE and \
                        contract_merit(other, hand, deck, n, sign, high_ace) > chosen:
                    weight *= self.bid_surprise
        if view.phase != "play":
            return weight
        total = abs(contract.total(n, dealt[view.seat].bit_count(), deck)) or 20
        for s in range(n):
            if s in (view.seat, declarer):
                continue
            rel = contract_merit(contract, dealt[s], deck, n, sign, high_ace) / (total / n)
            doubled_me = {b.doubler for b in view.doubles if b.doubled == s}
            want = {t for t in range(n) if t != s and rel > (0.35 if t in doubled_me else 0.3 if t == declarer
                                                            else 0.12)}
            made = {b.doubled for b in view.doubles if b.doubler == s}
            if made != want:
                weight *= self.double_surprise
        return weight

    def likelihood(self, view: View, hands: list[int], n: int, spec: Any, world: Match, sign: int) -> float:
        """How well the rule player explains the others' cards this deal if they held ``hands`` (1 at best)."""
        contract = world.contract
        trump_mask = world.trump_mask
        me = view.seat
        plays: list[tuple[int, int, tuple[int, ...], int]] = []  # (seat, card, trick so far, tricks done)
        for t, (leader, cards) in enumerate((*view.tricks, (view.leader, view.trick))):
            for i, c in enumerate(cards):
                plays.append(((leader + i) % n, c, tuple(cards[:i]), t))
        # Walk the deal backwards to know each hand, and the cards still out, before each card.
        held = list(hands)
        out = 0
        for h in held:
            out |= h
        befores: list[tuple[int, int]] = []
        for seat, c, _, _ in reversed(plays):
            held[seat] |= 1 << c
            out |= 1 << c
            befores.append((held[seat], out))
        befores.reverse()
        broken = [0]  # whether hearts were broken before each trick: a finished trick held a heart
        for _, cards in view.tricks:
            broken.append(broken[-1] or int(any(SUIT_MASK[1] >> c & 1 for c in cards)))
        weight = 1.0
        for (seat, c, trick, t), (hand, out_before) in zip(plays, befores):
            if seat != me:
                legal = legal_mask(spec, hand, trick, t, broken[t])
                if legal & (legal - 1):
                    choice = choose_trick_card(contract, sign, hand, legal, trick, trump_mask, out_before & ~hand,
                                               n, hand.bit_count())
                    if choice != c and not (choice // 13 == c // 13 and not between(choice, c) & out_before & ~hand):
                        weight *= self.surprise
        return weight
