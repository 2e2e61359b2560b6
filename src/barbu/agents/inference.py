"""Which hidden deals are likely: each other seat's actions this deal, weighed seat by seat, and a Markov chain
that moves the sampled deals towards the likely ones.

A seat's actions this deal (the declarer's contract, its doubles, its cards, its Domino or Success moves)
depend on its own hand and on what is public, never on another hidden hand.  So the likelihood of a deal is a
product over seats of a factor that reads one hand only (`DealModel.weight`), and swapping two unseen cards between two seats changes two
factors.  `likely_hands` starts from deals drawn at random among those fitting the view and proposes such swaps
(Metropolis: a swap to a deal twice as likely is always taken, one to a deal half as likely half the time).
After a few steps a chain's deal is drawn, near enough, in proportion to how well it explains the play.

The model of the others is the rule player: a card it would have chosen (or one it cannot be told apart from:
the same suit, no card between them still out) keeps a deal's weight, another card multiplies it by
``surprise``; the declarer's contract and each seat's doubles are weighed the same way (`bid_surprise`,
`double_surprise` per departure from what the rule player would have done with that hand).  The Scottish
pass-ons, which tie several hands together, are a factor of the whole deal (`passon_inference`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..classic.contracts import CHINESE, Contract
from ..classic.sampler import determinize
from ..classic.state import DOMINO_PLAY, DOUBLING
from ..classic.view import View
from ..core.actions import Double
from ..core.cards import SUIT_MASK
from ..solver import fast
from ..solver.position import objective
from ..solver.pure import legal_mask
from .bidding import contract_merit
from .cardplay import choose_domino_card, choose_trick_card
from .rule import double_choice

#: The contract and the doubles are weighed until this many tricks are played; by then the cards say more
#: (and weighing them costs a hand estimate per contract per deal).
BIDDING_TRICKS = 4


def between(a: int, b: int) -> int:
    """The cards of the same suit strictly between ``a`` and ``b``."""
    lo, hi = min(a, b), max(a, b)
    return ((1 << hi) - 1) & ~((1 << (lo + 1)) - 1)


@dataclass
class Play:
    """One card a seat played this deal, with what was public when it chose it."""

    card: int
    trick: tuple[int, ...]  # the trick so far
    tricks_done: int
    broken: int  # hearts broken before this trick
    out: int  # every card still in a hand just before (public)
    later: int  # this card and the ones the seat played after it: its hand then is its hand now plus these


@dataclass
class RowMove:
    """One move a seat made in Domino or Success (a card, or -1 for a pass), with the public rows then."""

    card: int
    layout: tuple[Any, ...]
    playable: int
    rank: int | None
    later: int = 0  # the cards the seat laid from then on, this one included


@dataclass
class SeatEvidence:
    """What one seat did this deal, ready to be weighed against any hand it might hold."""

    seat: int
    plays: list[Play] = field(default_factory=list)
    rows: list[RowMove] = field(default_factory=list)
    played: int = 0  # every card it played this deal
    declared: bool = False  # it chose the contract
    doubles: list[tuple[frozenset[int], tuple[Any, ...], set[int]]] = field(default_factory=list)
    # ^ each doubling turn: (the seats it doubled, its choices then, the seats that had doubled it)
    cache: dict[int, float] = field(default_factory=dict)


class DealModel:
    """The others' evidence this deal for the seat ``view.seat``, and the weight of any hand of theirs."""

    def __init__(
        self,
        view: View,
        contract: Contract | None,
        contracts: dict[str, Contract],
        rules: Any,
        spec: Any,
        trump_mask: int,
        sign: int,
        surprise: float,
        bid_surprise: float,
        double_surprise: float,
        history: "DealHistory | None" = None,
        use_core: bool = True,
    ) -> None:
        """``spec`` is the solver's picture of the deal in trick play (None otherwise); ``history`` the deal's
        doubling turns and Domino or Success moves (`deal_history`)."""
        self.view = view
        self.contract = contract
        self.contracts = contracts
        self.spec = spec
        self.trump_mask = trump_mask
        self.sign = sign
        self.surprise = surprise
        self.bid_surprise = bid_surprise
        self.double_surprise = double_surprise
        self.deck = view.deck & ~view.set_aside
        #: The rule player's cards come from the compiled core where it is built (the same cards, faster).
        self.core_spec = (
            objective(spec, sign) if spec is not None and getattr(fast, "rule_cards", None) and use_core else None
        )
        self.high_ace = rules.domino_ace == "high"
        n = view.players
        self.seats = {s: SeatEvidence(s) for s in range(n) if s != view.seat}
        weigh_bids = (
            contract is not None
            and contract.kind != CHINESE
            and len(view.tricks) < BIDDING_TRICKS
            and view.scottish is None
        )  # the Scottish calls are weighed by the cards alone
        history = history or DealHistory()
        if weigh_bids:
            if view.declarer in self.seats:
                self.seats[view.declarer].declared = True
            for seat, targets, legal, doubled_me in history.doubles:
                if seat in self.seats and seat != view.declarer:
                    self.seats[seat].doubles.append((targets, legal, doubled_me))
        if spec is not None:
            self._read_plays()
        for seat, card, layout, playable, rank in history.rows:
            ev = self.seats.get(seat)
            if ev is not None:
                ev.rows.append(RowMove(card, layout, playable, rank))
                if card >= 0:
                    ev.played |= 1 << card
        for ev in self.seats.values():
            later = 0
            for r in reversed(ev.rows):
                if r.card >= 0:
                    later |= 1 << r.card
                r.later = later
        self.my_cards = view.hand.bit_count() + self.seats_played(view.seat)

    def seats_played(self, seat: int) -> int:
        n = self.view.players
        count = 0
        for leader, cards in (*self.view.tricks, (self.view.leader, self.view.trick)):
            count += sum(1 for i in range(len(cards)) if (leader + i) % n == seat)
        return count

    def _read_plays(self) -> None:
        view = self.view
        n = view.players
        out = self.deck
        broken = 0
        tricks = (*view.tricks, (view.leader, view.trick))
        for t, (leader, cards) in enumerate(tricks):
            for i, c in enumerate(cards):
                seat = (leader + i) % n
                ev = self.seats.get(seat)
                if ev is not None:
                    ev.plays.append(Play(c, tuple(cards[:i]), t, broken, out, 0))
                    ev.played |= 1 << c
                out &= ~(1 << c)
            if t < len(view.tricks) and any(SUIT_MASK[1] >> c & 1 for c in cards):
                broken = 1
        for ev in self.seats.values():  # each play's cards from then on
            later = 0
            for p in reversed(ev.plays):
                later |= 1 << p.card
                p.later = later

    def weight(self, seat: int, hand: int) -> float:
        """How well the rule player explains ``seat``'s actions this deal if it holds ``hand`` now (1 at best)."""
        ev = self.seats[seat]
        w = ev.cache.get(hand)
        if w is None:
            w = self._bid_weight(ev, hand | ev.played) * self.card_weight(ev, hand)
            ev.cache[hand] = w
        return w

    def card_weight(self, ev: SeatEvidence, hand: int) -> float:
        """The cards ``ev``'s seat played this deal, against its hand now."""
        w = 1.0
        for r in ev.rows:
            held = hand | r.later
            legal = held & r.playable
            if r.card < 0:  # a pass with a card to lay: only a bonus turn allows it, and the rule player lays
                if legal:
                    w *= self.surprise
            elif legal & (legal - 1):
                choice = choose_domino_card(held, legal, list(r.layout), r.rank, self.high_ace, self.view.deck)
                if choice != r.card:
                    w *= self.surprise
        if self.core_spec is not None:
            return w * self._core_card_weight(ev, hand)
        for p in ev.plays:
            held = hand | p.later
            legal = legal_mask(self.spec, held, p.trick, p.tricks_done, p.broken)
            if legal & (legal - 1):
                others = p.out & ~held
                choice = choose_trick_card(
                    self.contract,  # type: ignore[arg-type]
                    self.sign,
                    held,
                    legal,
                    p.trick,
                    self.trump_mask,
                    others,
                    self.view.players,
                    held.bit_count(),
                )
                if choice != p.card and (choice // 13 != p.card // 13 or between(choice, p.card) & others):
                    w *= self.surprise
        return w

    def _core_card_weight(self, ev: SeatEvidence, hand: int) -> float:
        """`card_weight`'s trick play with the rule player's cards from the compiled core, in one call."""
        situations, played = [], []
        for p in ev.plays:
            held = hand | p.later
            legal = legal_mask(self.spec, held, p.trick, p.tricks_done, p.broken)
            if legal & (legal - 1):
                situations.append((held, legal, p.trick, p.out & ~held, held.bit_count()))
                played.append(p)
        w = 1.0
        if situations:
            rule_cards, spec = fast.rule_cards, self.core_spec
            assert rule_cards is not None and spec is not None and self.contract is not None  # core_spec: the core's
            for choice, p, (held, _, _, others, _) in zip(
                rule_cards(spec, self.contract.penalty_mask, situations), played, situations
            ):
                if choice != p.card and (choice // 13 != p.card // 13 or between(choice, p.card) & others):
                    w *= self.surprise
        return w

    def _bid_weight(self, ev: SeatEvidence, dealt: int) -> float:
        """The declarer's contract and a doubler's doubles, against the hand it was dealt."""
        contract = self.contract
        if contract is None or (not ev.declared and not ev.doubles):
            return 1.0
        view = self.view
        n = view.players
        merit = contract_merit(contract, dealt, self.deck, n, self.sign, self.high_ace)
        w = 1.0
        if ev.declared:
            for key in view.contracts_left[ev.seat]:
                other = self.contracts.get(key)
                if (
                    other is not None
                    and other.kind != CHINESE
                    and contract_merit(other, dealt, self.deck, n, self.sign, self.high_ace) > merit
                ):
                    w *= self.bid_surprise
            return w
        total = abs(contract.total(n, self.my_cards, self.deck)) or 20
        rel = merit / (total / n)
        for targets, legal, doubled_me in ev.doubles:
            if double_choice(rel, legal, ev.seat, view.declarer, doubled_me, n).targets != targets:
                w *= self.double_surprise
        return w


@dataclass
class DealHistory:
    """What the others did this deal that the seat saw, with the choices they had."""

    doubles: list[tuple[int, frozenset[int], tuple[Any, ...], set[int]]] = field(default_factory=list)
    # ^ (seat, seats doubled, its doubling choices then, the seats that had doubled it)
    rows: list[tuple[int, int, tuple[Any, ...], int, int | None]] = field(default_factory=list)
    # ^ Domino and Success moves: (seat, card or -1 for a pass, layout, playable cards, rank)


def deal_history(view: View, hands: list[int]) -> DealHistory:
    """The deal's doubling turns and Domino or Success moves so far, with the public state each was made in;
    ``hands`` is any deal fitting the view (the choices open to a seat then do not depend on it)."""
    out = DealHistory()

    def record(m: Any, action: Any) -> None:
        if m.phase == DOUBLING and isinstance(action, Double):
            seat = m.dbl_queue[0]
            doubled_me = {b.doubler for b in m.business.values() if b.doubled == seat}
            out.doubles.append((seat, action.targets, tuple(m.legal_actions()), doubled_me))
        elif m.phase == DOMINO_PLAY:
            card = action if isinstance(action, int) else -1
            out.rows.append((m.turn, card, tuple(m.layout), m.playable, m.rank))

    determinize(view, hands, before=record)
    return out


def likely_hands(
    model: DealModel,
    start: list[list[int]],
    steps: int,
    rng: random.Random,
    deal_weight: Callable[[list[int]], float] | None = None,
    until: float | None = None,
) -> list[list[int]]:
    """Run one Metropolis chain from each deal of ``start`` for ``steps`` proposed swaps; the deals they end on.

    A swap exchanges one unseen card of one other seat with one of another's, where both may hold them
    (the voids shown, the cards known to be elsewhere stay respected: ``allowed``).  ``deal_weight`` is a
    factor of the whole deal's weight that does not split by seat (the Scottish pass-ons: 0 for a deal no
    pass-on history explains), weighed for the swaps the seats' weights take.  The chains take
    their steps in turn, so that past the time ``until`` (`time.perf_counter`) all have moved alike.
    """
    view = model.view
    n = view.players
    private = view.private_cant_hold or (0,) * n
    full = (1 << 52) - 1
    allowed = [full & ~view.cant_hold[s] & ~private[s] for s in range(n)]
    movable = [view.unseen & ~view.known[s] for s in range(n)]
    seats = [s for s in model.seats if movable[s]]
    chains = [list(hands) for hands in start]
    if len(seats) < 2:
        return chains
    weights = [{s: model.weight(s, hands[s]) for s in seats} for hands in chains]
    whole = [deal_weight(hands) if deal_weight else 1.0 for hands in chains]
    for _ in range(steps):
        if until is not None and time.perf_counter() > until:
            break
        for k, (hands, w) in enumerate(zip(chains, weights)):
            s, t = rng.sample(seats, 2)
            from_s = hands[s] & movable[s] & allowed[t]
            from_t = hands[t] & movable[t] & allowed[s]
            if not from_s or not from_t:
                continue
            a = _pick(from_s, rng)
            b = _pick(from_t, rng)
            hs = hands[s] ^ a ^ b
            ht = hands[t] ^ a ^ b
            ws, wt = model.weight(s, hs), model.weight(t, ht)
            # Metropolis in two stages: the seats' weights, then (only for a swap they accept) the whole deal's.
            old, new = w[s] * w[t], ws * wt
            if new < old and rng.random() * old >= new:
                continue
            if deal_weight is not None:
                moved = list(hands)
                moved[s], moved[t] = hs, ht
                factor = deal_weight(moved)
                if factor < whole[k] and rng.random() * whole[k] >= factor:
                    continue
                whole[k] = factor
            hands[s], hands[t] = hs, ht
            w[s], w[t] = ws, wt
    return chains


def _pick(mask: int, rng: random.Random) -> int:
    """One card of ``mask`` at random, as a one-bit mask."""
    k = rng.randrange(mask.bit_count())
    for _ in range(k):
        mask &= mask - 1
    return mask & -mask
