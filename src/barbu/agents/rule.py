"""The rule-based computer player: sensible play of every decision from the seat's view alone."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from ..classic.chinese import Arrangements
from ..classic.contracts import Contract
from ..classic.ruleset import Ruleset
from ..classic.view import View
from ..core.actions import Declare, Double, Lay, NameRank, NameTrump, Pass, PassOn
from ..core.cards import ACE, CARDS, HEARTS, JACK, KING, QUEEN, cards_of
from .bidding import best_rank, best_trump, contract_merit
from .cardplay import choose_domino_card, choose_trick_card


@lru_cache(maxsize=64)
def rules_info(rules: str) -> tuple[Ruleset, dict[str, Contract], int]:
    """The ruleset, its contracts by key and the sign of good points (+1, or -1 where lowest wins)."""
    r = Ruleset.parse(rules)
    contracts = {c.key: c for c in r.family_spec.contracts(r)}
    return r, contracts, 1 if r.family_spec.highest_wins else -1


def row_move(hand: int, legal, layout, rank: int | None, contract: Contract, high_ace: bool, deck: int) -> Any:
    """A Domino/Success/Patience move from the legal ones (cards, runs and sets, or pass)."""
    lays = [a for a in legal if isinstance(a, Lay)]
    if lays:
        return max(lays, key=lambda a: (a.cards.bit_count(), a.cards))
    cards = mask_of(a for a in legal if isinstance(a, int))
    if not cards:
        return next(a for a in legal if isinstance(a, Pass))
    if rank is None and not contract.open_any:
        rank = JACK  # Patience rows open with the Jacks
    return CARDS[choose_domino_card(hand, cards, layout, rank, high_ace, deck)]


def double_choice(rel: float, legal, me: int, declarer: int, doubled_me: set[int], players: int) -> Double:
    """The doubles of a hand whose merit at the contract is ``rel`` times an even share: double whoever it
    should beat, redouble (those in ``doubled_me``) only with a clearly good hand; of the ``legal`` ones the
    nearest to that."""
    want = set()
    for target in range(players):
        if target == me:
            continue
        if target in doubled_me:
            if rel > 0.35:
                want.add(target)
        elif target == declarer:
            if rel > 0.3:  # he chose the contract: expect him to do well
                want.add(target)
        elif rel > 0.12:
            want.add(target)
    return min(legal, key=lambda a: (len(a.targets ^ want), len(a.targets), sorted(a.targets)))


def pass_danger(c: int, contract: Contract | None, sign: int) -> float:
    """How much a card is worth passing on (the call, when known): most for the cards likely to cost points."""
    rank = c % 13
    d = rank / 2.0  # high cards win the tricks nobody wants
    if contract is not None:
        if contract.kind == "domino":
            return abs(rank - JACK) + 0.0  # far from the Jacks comes out last
        d -= sign * contract.card_value.get(c, 0) / 5.0
    else:
        d += {ACE: 4.0, KING: 2.0, QUEEN: 2.0}.get(rank, 0.0) + (1.0 if c // 13 == HEARTS else 0.0)
        if c == HEARTS * 13 + KING:
            d += 8.0
    return d


def best_pass_on(hand: int, contract: Contract | None, sign: int) -> int:
    """The three cards the rule player passes on from ``hand`` (a mask)."""
    cards = sorted(cards_of(hand), key=lambda c: pass_danger(c, contract, sign), reverse=True)
    return sum(1 << c for c in cards[:3])


def mask_of(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _in_play(view: View, contracts: dict[str, Contract]) -> Contract:
    """The contract of the deal in play (a view past the declaration names it)."""
    assert view.contract is not None
    return contracts[view.contract]


class RuleAgent:
    """Per-contract card play, hand judgement for contracts and doubles; seeded for the odd random choice."""

    name = "rule"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: View) -> Any:
        legal = view.legal
        if not legal:
            raise ValueError("the agent was asked to act with no legal action")
        if len(legal) == 1:
            return legal[0]
        first = legal[0]
        rules, contracts, sign = rules_info(view.rules)
        if view.phase == "play":
            return CARDS[self.trick_card(view, _in_play(view, contracts), sign)]
        if view.phase == "domino":
            return self.row_move(view, legal, _in_play(view, contracts), rules.domino_ace == "high")
        if isinstance(first, Declare):
            return self.declare(view, legal, contracts, sign, rules)
        if isinstance(first, NameTrump):
            choice = best_trump(view.hand, view.deck, view.players, rules.allow_no_trump)
            return next((a for a in legal if a.suit == choice), legal[0])
        if isinstance(first, NameRank):
            r = best_rank(view.hand, [a.rank for a in legal], rules.domino_ace == "high")
            return next(a for a in legal if a.rank == r)
        if isinstance(first, Double):
            return self.double(view, legal, _in_play(view, contracts), sign, rules)
        if isinstance(legal, Arrangements):
            return legal.sensible()
        if isinstance(first, PassOn):
            return self.pass_on_ranking(view, legal, contracts, sign)[0]
        return self.rng.choice(legal)  # a decision this bot has no rule for yet

    @staticmethod
    def row_move(view: View, legal, contract: Contract, high_ace: bool) -> Any:
        """Domino, Success, Patience: the biggest run or set one may lay, else the best single card."""
        return row_move(view.hand, legal, view.layout, view.rank, contract, high_ace, view.deck)

    @staticmethod
    def pass_on_ranking(view: View, legal, contracts: dict[str, Contract], sign: int) -> list[PassOn]:
        """Pass-on choices, best first: pass the cards most likely to cost points (the call, when known)."""
        contract = contracts.get(view.contract) if view.contract else None

        def danger(c: int) -> float:
            return pass_danger(c, contract, sign)

        best = PassOn(best_pass_on(view.hand, contract, sign))
        others = [a for a in legal if a != best]
        others.sort(key=lambda a: -sum(danger(c) for c in cards_of(a.cards)))
        return ([best] if best in legal else []) + others

    @staticmethod
    def trick_card(view: View, contract: Contract, sign: int) -> int:
        legal = mask_of(view.legal)
        others = view.deck & ~view.out_of_play & ~view.hand
        trump_mask = 0
        if contract.trump and view.trump is not None:
            trump_mask = 0x1FFF << (13 * view.trump)
        return choose_trick_card(
            contract, sign, view.hand, legal, view.trick, trump_mask, others, view.players, view.hand.bit_count()
        )

    @staticmethod
    def declare(view: View, legal, contracts: dict[str, Contract], sign: int, rules: Ruleset) -> Declare:
        deck = view.deck & ~view.set_aside
        high_ace = rules.domino_ace == "high"
        return max(
            legal,
            key=lambda a: (
                contract_merit(contracts[a.contract], view.hand, deck, view.players, sign, high_ace),
                a.contract,
            ),
        )

    @staticmethod
    def double(view: View, legal, contract: Contract, sign: int, rules: Ruleset) -> Double:
        """Double whoever this hand should beat; redouble only with a clearly good hand."""
        deck = view.deck & ~view.set_aside
        merit = contract_merit(contract, view.hand, deck, view.players, sign, rules.domino_ace == "high")
        total = abs(contract.total(view.players, view.hand.bit_count(), deck)) or 20
        doubled_me = {b.doubler for b in view.doubles if b.doubled == view.seat}
        return double_choice(merit / (total / view.players), legal, view.seat, view.declarer, doubled_me, view.players)
