"""Learned hand inference: where each unseen card lies, from a small network trained on rule players' self-play.

The expert's Markov chains (`barbu.agents.inference`) weigh every proposed deal by replaying the others'
choices with the rule player, which takes most of a decision's time.  This module instead reads the seat's
view once, scores every (unseen card, other seat) pair with a small network (`features`: the card, the
contract and doubles, what that seat has played, led, followed and discarded, its voids and cards left, and
at how many of its cards the rule player would have played this one instead had it held it), turns
the scores into each card's probabilities over the seats that may hold it, balances them so that each seat
expects exactly its number of unseen cards (`balance`), and draws deals card by card from them (`draw_hands`).
Every deal drawn fits the view: a card only goes to a seat that may hold it, and each seat gets exactly its
count; a draw that runs into a dead end is drawn again, and after a few such tries the deal is drawn blindly
(`sample_hands`) instead.

The weights (``inference_weights.npz`` beside this file, about 30 KB) come from ``tools/train_inference.py``
(classic and Italian self-play, four players).  Play needs numpy only: the network has some 8,000 weights and
scores up to 117 pairs at once, a matrix product numpy does in microseconds and pure Python would not.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..classic.contracts import CHINESE, DOMINO, TRICKS, Contract
from ..classic.sampler import determinize, own_match_class, sample_hands
from ..classic.view import NoConsistentDeal, View
from ..core.cards import HEARTS
from ..solver import fast
from ..solver.position import spec_of
from ..solver.pure import legal_mask
from .cardplay import choose_domino_card, choose_trick_card
from .inference import DealModel, between, deal_history
from .rule import rules_info

WEIGHTS = Path(__file__).with_name("inference_weights.npz")

#: The phases whose views the network reads (and was trained on).
PHASES = ("play", "doubling", "domino")
#: Contracts by key (the same key names the same game in every family); any other is "other".
CONTRACT_KEYS = (
    "no-tricks",
    "no-hearts",
    "no-queens",
    "no-king",
    "no-last-two",
    "no-last-trick",
    "trumps",
    "domino",
    "salad",
    "success",
    "ravage-city",
)
MAX_OTHERS = 5  # six players at most

_RANKS = np.arange(13)


def _feature_names() -> list[str]:
    names = [f"rank{r}" for r in range(13)]
    names += [
        "hearts",
        "trump",
        "penalty",
        "suit_penalty",
        "unseen_suit",
        "unseen_higher",
        "own_suit",
        "own_higher",
        "played_suit",
        "row_distance",
        "row_open",
        "row_next",
    ]
    names += [f"contract_{k}" for k in CONTRACT_KEYS] + ["contract_other"]
    names += [f"phase_{p}" for p in PHASES] + ["tricks_done", "own_cards"]
    names += [f"seat{k}" for k in range(1, MAX_OTHERS + 1)]
    names += [
        "declarer",
        "doubled_declarer",
        "declarer_doubled_it",
        "doubled_me",
        "i_doubled_it",
        "redoubled",
        "doubles",
        "need",
        "need_share",
        "voids",
        "tricks_won",
        "discards",
        "in_trick",
        "to_play_in_trick",
    ]
    names += ["partly_barred", "follows", "leads", "discards_suit"]
    names += [f"follow{k}" for k in range(16)] + ["lead_above", "lead_below", "discard_above", "discard_below"]
    names += ["rule_would_play_it", "rule_would_not", "could_play_it"]
    return names


FEATURES = tuple(_feature_names())
F = len(FEATURES)
_I = {name: i for i, name in enumerate(FEATURES)}


def supports(view: View) -> bool:
    """Whether the network can read this view: a Barbu-family deal in one of `PHASES`, with a contract that
    is not Chinese poker, at two to six players, and no Scottish pass-ons to explain (those stay with the
    chains)."""
    if view.phase not in PHASES or view.contract is None or view.passes:
        return False
    if own_match_class(view.rules) is not None or not 2 <= view.players <= MAX_OTHERS + 1:
        return False
    contract = rules_info(view.rules)[1].get(view.contract)
    return contract is not None and contract.kind != CHINESE


@dataclass
class Position:
    """A view's (card, seat) pairs: ``x[i, j]`` the features of card ``cards[i]`` in seat ``seats[j]``,
    ``allowed[i, j]`` whether that seat may hold it, and how many unseen cards each seat holds (``need``)."""

    cards: list[int]
    seats: list[int]
    x: np.ndarray  # (cards, seats, F) float32
    allowed: np.ndarray  # (cards, seats) bool
    need: np.ndarray  # (seats,) int


def _pos(rank: int, high_ace: bool) -> int:
    """A rank's place in a Domino row (the engine's `Match._pos`)."""
    return rank if high_ace else (0 if rank == 12 else rank + 1)


def features(view: View) -> Position:
    """The features of every (unseen card, other seat) pair of ``view`` (one that `supports`)."""
    rules, contracts, sign = rules_info(view.rules)
    contract: Contract = contracts[view.contract]  # type: ignore[index]
    n = view.players
    me = view.seat
    seats = [(me + k) % n for k in range(1, n)]
    private = view.private_cant_hold or (0,) * n
    full = (1 << 52) - 1
    unseen = view.unseen
    cards = [c for c in range(52) if unseen >> c & 1]
    need = np.array([view.hand_sizes[s] - view.known[s].bit_count() for s in seats], dtype=np.int64)
    allowed_mask = [full & ~view.cant_hold[s] & ~private[s] & ~view.known[s] for s in seats]
    ns, nc = len(seats), len(cards)
    x = np.zeros((nc, ns, F), dtype=np.float32)
    idx = np.array(cards, dtype=np.int64)
    if not nc:
        return Position(cards, seats, x, np.zeros((0, ns), dtype=bool), need)
    ranks, suits = idx % 13, idx // 13

    # The card.
    x[np.arange(nc), :, ranks] = 1.0
    x[:, :, _I["hearts"]] = (suits == HEARTS)[:, None]
    trump = view.trump if contract.trump and view.trump is not None else None
    if trump is not None:
        x[:, :, _I["trump"]] = (suits == trump)[:, None]
    values = contract.card_value
    scale = max((abs(v) for v in values.values()), default=0) or 1
    card_pen = np.array([sign * values.get(c, 0) / scale for c in range(52)], dtype=np.float32)
    deck = view.deck & ~view.set_aside
    in_deck = np.array([deck >> c & 1 for c in range(52)], dtype=np.float32)
    suit_pen = np.array([np.abs(card_pen[s * 13 : (s + 1) * 13]).sum() for s in range(4)], dtype=np.float32)
    x[:, :, _I["penalty"]] = card_pen[idx][:, None]
    x[:, :, _I["suit_penalty"]] = np.minimum(suit_pen[suits], 4.0)[:, None] / 4.0
    unseen_v = np.array([unseen >> c & 1 for c in range(52)], dtype=np.float32).reshape(4, 13)
    own_v = np.array([view.hand >> c & 1 for c in range(52)], dtype=np.float32).reshape(4, 13)
    played_v = np.array([view.played >> c & 1 for c in range(52)], dtype=np.float32).reshape(4, 13)
    above_u = np.cumsum(unseen_v[:, ::-1], axis=1)[:, ::-1] - unseen_v  # unseen cards above each rank
    above_o = np.cumsum(own_v[:, ::-1], axis=1)[:, ::-1] - own_v
    x[:, :, _I["unseen_suit"]] = (unseen_v.sum(1)[suits] / 13)[:, None]
    x[:, :, _I["unseen_higher"]] = (above_u[suits, ranks] / 13)[:, None]
    x[:, :, _I["own_suit"]] = (own_v.sum(1)[suits] / 13)[:, None]
    x[:, :, _I["own_higher"]] = (above_o[suits, ranks] / 13)[:, None]
    x[:, :, _I["played_suit"]] = (played_v.sum(1)[suits] / 13)[:, None]
    if contract.kind == DOMINO:
        high_ace = rules.domino_ace == "high"
        for i, c in enumerate(cards):
            s, r = divmod(c, 13)
            p = _pos(r, high_ace)
            span = view.layout[s] if s < len(view.layout) else None
            if span is None:
                start = view.rank if view.rank is not None else None
                d = abs(p - _pos(start, high_ace)) if start is not None else 6
                x[i, :, _I["row_next"]] = float(d == 0)
            else:
                d = span[0] - p if p < span[0] else p - span[1]
                x[i, :, _I["row_open"]] = 1.0
                x[i, :, _I["row_next"]] = float(d == 1)
            x[i, :, _I["row_distance"]] = d / 12

    # The deal.
    key = contract.key if contract.key in CONTRACT_KEYS else None
    x[:, :, _I[f"contract_{key}" if key else "contract_other"]] = 1.0
    x[:, :, _I[f"phase_{view.phase}"]] = 1.0
    x[:, :, _I["tricks_done"]] = len(view.tricks) / 13
    x[:, :, _I["own_cards"]] = view.hand.bit_count() / 13

    # The seat.
    total_need = max(int(need.sum()), 1)
    trick_seats = [(view.leader + i) % n for i in range(len(view.trick))] if view.phase == "play" else []
    doubles = view.doubles
    for j, s in enumerate(seats):
        x[:, j, _I[f"seat{j + 1}"]] = 1.0
        x[:, j, _I["declarer"]] = float(s == view.declarer)
        x[:, j, _I["doubled_declarer"]] = float(any(b.doubler == s and b.doubled == view.declarer for b in doubles))
        x[:, j, _I["declarer_doubled_it"]] = float(any(b.doubler == view.declarer and b.doubled == s for b in doubles))
        x[:, j, _I["doubled_me"]] = float(any(b.doubler == s and b.doubled == me for b in doubles))
        x[:, j, _I["i_doubled_it"]] = float(any(b.doubler == me and b.doubled == s for b in doubles))
        x[:, j, _I["redoubled"]] = float(any(b.redoubled and b.doubled == s for b in doubles))
        x[:, j, _I["doubles"]] = sum(1 for b in doubles if s in (b.doubler, b.doubled)) / 3
        x[:, j, _I["need"]] = need[j] / 13
        x[:, j, _I["need_share"]] = need[j] / total_need
        barred = view.cant_hold[s] | private[s]
        voids = sum(
            1
            for q in range(4)
            if (deck >> (13 * q)) & 0x1FFF and not (deck >> (13 * q)) & 0x1FFF & ~(barred >> (13 * q))
        )
        x[:, j, _I["voids"]] = voids / 4
        x[:, j, _I["tricks_won"]] = (view.tricks_won[s] if s < len(view.tricks_won) else 0) / 13
        x[:, j, _I["in_trick"]] = float(s in trick_seats)
        x[:, j, _I["to_play_in_trick"]] = float(bool(view.trick) and s not in trick_seats)
        suit_barred = np.array([(barred >> c & 1) for c in range(52)], dtype=bool).reshape(4, 13)
        # numpy's stubs type any(axis) as a scalar or an array; of this 4×13 array it is an array of 4
        x[:, j, _I["partly_barred"]] = (suit_barred & (in_deck.reshape(4, 13) > 0)).any(1)[suits]  # type: ignore[index]

    # What each seat played: per seat, per card of the deck, counts of how its plays relate to the card.
    base = _I["follows"]
    counts = np.zeros((ns, 52, F - base), dtype=np.float32)
    col = {s: j for j, s in enumerate(seats)}
    discards = np.zeros(ns, dtype=np.float32)
    tricks = (*view.tricks, (view.leader, view.trick)) if view.phase == "play" else view.tricks
    follows, leads, dsuit = _I["follows"] - base, _I["leads"] - base, _I["discards_suit"] - base
    f0 = _I["follow0"] - base
    lead_above, discard_above = _I["lead_above"] - base, _I["discard_above"] - base
    for leader, trick in tricks:
        if not trick:
            continue
        led_suit = trick[0] // 13
        best = trick[0]
        for i, p in enumerate(trick):
            s = (leader + i) % n
            ps, pr = divmod(p, 13)
            at = col.get(s)
            if at is not None:
                block = counts[at, ps * 13 : (ps + 1) * 13]
                if i == 0:
                    block[:, leads] += 1
                    block[:, lead_above] += _RANKS > pr
                    block[:, lead_above + 1] += _RANKS < pr
                elif ps == led_suit:
                    block[:, follows] += 1
                    last = i == n - 1
                    code = 8 * last + 4 * (p > best) + 2 * (_RANKS > pr) + (_RANKS > best % 13)
                    np.add.at(block, (_RANKS, f0 + code), 1)
                else:
                    discards[at] += 1
                    block[:, dsuit] += 1
                    block[:, discard_above] += _RANKS > pr
                    block[:, discard_above + 1] += _RANKS < pr
            if i and ps == led_suit and p > best:
                best = p
    for j in range(ns):
        x[:, j, base:] = counts[j, idx] / 3
        x[:, j, _I["discards"]] = discards[j] / 5
    if view.phase == "play" and contract.kind == TRICKS:
        _rule_choices(view, contract, rules, sign, cards, seats, x)
    elif view.phase == "domino" and view.tricks:
        _row_choices(view, rules, cards, seats, x)
    allowed = np.array([[bool(m >> c & 1) for m in allowed_mask] for c in cards], dtype=bool)
    return Position(cards, seats, x, allowed, need)


def _row_choices(view: View, rules, cards: list[int], seats: list[int], x: np.ndarray) -> None:
    """`_rule_choices` for the Domino and Success moves: would the rule player have laid the card instead."""
    try:
        history = deal_history(view, sample_hands(view, random.Random(0)))
    except (NoConsistentDeal, ValueError, AttributeError, KeyError):
        return
    high_ace = rules.domino_ace == "high"
    col = {s: j for j, s in enumerate(seats)}
    later = {s: 0 for s in seats}
    would, would_not, could = _I["rule_would_play_it"], _I["rule_would_not"], _I["could_play_it"]
    for seat, card, layout, playable, rank in reversed(history.rows):
        j = col.get(seat)
        if j is None or card < 0:
            continue
        later[seat] |= 1 << card
        for i, c in enumerate(cards):
            held = later[seat] | (1 << c)
            legal = held & playable
            if not legal >> c & 1:
                continue
            x[i, j, could] += 1 / 3
            choice = choose_domino_card(held, legal, list(layout), rank, high_ace, view.deck)
            if choice == c:
                x[i, j, would] += 1 / 3
            elif choice == card:
                x[i, j, would_not] += 1 / 3


def _rule_choices(
    view: View, contract: Contract, rules, sign: int, cards: list[int], seats: list[int], x: np.ndarray
) -> None:
    """For each (card, seat): at how many of that seat's cards this deal the rule player, had it held the card
    too (with the cards it played from then on, all it is known to have held), would have played the card
    instead (``rule_would_play_it``), or kept to the card it played (``rule_would_not``); and at how many the
    card would have been legal (``could_play_it``).  The chains ask the same of whole hands, deal by deal."""
    try:
        world = determinize(view, sample_hands(view, random.Random(0)))
        spec = spec_of(world)
    except (NoConsistentDeal, ValueError, AttributeError, KeyError):
        return
    model = DealModel(view, contract, {}, rules, spec, world.trump_mask, sign, 0.1, 0.7, 0.6, use_core=True)
    row = {c: i for i, c in enumerate(cards)}
    would, would_not, could = _I["rule_would_play_it"], _I["rule_would_not"], _I["could_play_it"]
    for j, s in enumerate(seats):
        ev = model.seats.get(s)
        if ev is None:
            continue
        size_now = view.hand_sizes[s]
        situations, asked = [], []
        for p in ev.plays:
            for c in cards:
                held = p.later | (1 << c)
                legal = legal_mask(spec, held, p.trick, p.tricks_done, p.broken)
                if not legal >> c & 1:
                    continue
                x[row[c], j, could] += 1 / 3
                situations.append((held, legal, p.trick, p.out & ~held, size_now + p.later.bit_count()))
                asked.append((c, p))
        if not situations:
            continue
        if model.core_spec is not None:
            rule_cards = fast.rule_cards
            assert rule_cards is not None  # core_spec: set only where the compiled core has rule_cards
            choices = rule_cards(model.core_spec, contract.penalty_mask, situations)
        else:
            choices = [
                choose_trick_card(contract, sign, held, legal, trick, world.trump_mask, others, view.players, size)
                for held, legal, trick, others, size in situations
            ]
        for choice, (c, p), (held, _, _, others, _) in zip(choices, asked, situations):
            if choice == c and (c // 13 != p.card // 13 or between(c, p.card) & others):
                x[row[c], j, would] += 1 / 3
            elif choice == p.card:
                x[row[c], j, would_not] += 1 / 3


@dataclass
class Network:
    """A small multilayer perceptron scoring a (card, seat) pair; the features are standardised first."""

    mean: np.ndarray
    scale: np.ndarray
    layers: list[tuple[np.ndarray, np.ndarray]]

    def scores(self, x: np.ndarray) -> np.ndarray:
        """The score of each pair of ``x`` (..., F): a card lies more likely where it scores higher."""
        h = (x - self.mean) / self.scale
        for k, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if k < len(self.layers) - 1:
                h = np.maximum(h, 0.0)
        return h[..., 0]

    def to_arrays(self) -> dict[str, np.ndarray]:
        out = {"mean": self.mean, "scale": self.scale, "features": np.array(FEATURES)}
        for k, (w, b) in enumerate(self.layers):
            out[f"w{k}"], out[f"b{k}"] = w, b
        return out

    @classmethod
    def from_arrays(cls, arrays: "np.lib.npyio.NpzFile | dict[str, np.ndarray]") -> "Network":
        names = [str(f) for f in arrays["features"]]
        if tuple(names) != FEATURES:
            raise ValueError(
                "the inference weights were trained on other features: retrain them (tools/train_inference.py)"
            )
        layers = []
        k = 0
        while f"w{k}" in arrays:
            layers.append(
                (np.asarray(arrays[f"w{k}"], dtype=np.float32), np.asarray(arrays[f"b{k}"], dtype=np.float32))
            )
            k += 1
        return cls(np.asarray(arrays["mean"], dtype=np.float32), np.asarray(arrays["scale"], dtype=np.float32), layers)


@lru_cache(maxsize=4)
def load_network(path: str | None = None) -> Network:
    """The trained network shipped with the package (or the one at ``path``)."""
    with np.load(path or WEIGHTS) as arrays:
        return Network.from_arrays(arrays)


def card_probabilities(pos: Position, net: Network) -> np.ndarray:
    """Each card's probability of lying in each seat (rows sum to 1 over the seats that may hold it)."""
    s = net.scores(pos.x)
    s = np.where(pos.allowed, s, -np.inf)
    s = s - s.max(axis=1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=1, keepdims=True)


def balance(
    p: np.ndarray,
    need: np.ndarray,
    allowed: np.ndarray,
    rounds: int = 100,
    tolerance: float = 1e-3,
    floor: float = 1e-3,
) -> np.ndarray:
    """``p`` scaled (Sinkhorn) so that each card's row sums to 1 and each seat's column to its ``need``:
    the network reads each card alone, the deal holds exactly so many cards per seat.

    The cards forced first (the one seat that may hold a card; a seat that may hold no more cards than it
    needs takes them all) are settled outright, and no other seat that may hold a card is given less than
    ``floor`` of it: the network may be wrong, and the scaling converges (to within ``tolerance`` of each
    seat's count, or after ``rounds``: the draw makes the counts exact)."""
    allowed = allowed.copy()
    q = np.where(allowed, np.maximum(p, floor), 0.0)
    free = np.ones(len(q), dtype=bool)
    target = need.astype(np.float64).copy()
    changed = True
    while changed:
        changed = False
        for i in np.flatnonzero(free & (allowed.sum(axis=1) == 1)):
            j = int(np.flatnonzero(allowed[i])[0])
            free[i] = False
            target[j] -= 1
            changed = True
        for j in range(q.shape[1]):
            rows = free & allowed[:, j]
            if target[j] > 0 and rows.sum() == target[j]:
                free &= ~rows
                allowed[rows] = False
                allowed[rows, j] = True
                target[j] = 0
                changed = True
    q[~free] = allowed[~free]
    sub = q[free]
    for _ in range(rounds):
        col = sub.sum(axis=0)
        sub *= np.where(col > 0, target / np.where(col > 0, col, 1), 0.0)
        row = sub.sum(axis=1, keepdims=True)
        sub /= np.where(row > 0, row, 1)
        if np.abs(sub.sum(axis=0) - target).max() < tolerance:
            break
    q[free] = sub
    return q


def draw_hands(view: View, pos: Position, q: np.ndarray, rng: random.Random, tries: int = 8) -> list[int]:
    """One deal of the unseen cards fitting ``view``, card by card from the balanced probabilities ``q``.

    The most constrained cards go first.  A card goes to a seat with probability proportional to ``q`` times
    how far that seat is behind what it should still get (its cards left over its expected share of the
    cards left), so that no seat fills up early.  After ``tries`` dead ends the deal is drawn blindly."""
    n = view.players
    base = [view.known[s] for s in range(n)]
    base[view.seat] = view.hand
    nc, ns = q.shape
    order_key = pos.allowed.sum(axis=1)
    qs = q.tolist()
    allowed = pos.allowed.tolist()
    for _ in range(tries):
        order = sorted(range(nc), key=lambda i: (order_key[i], rng.random()))
        left = [int(v) for v in pos.need]
        expect = q.sum(axis=0).tolist()
        hands = list(base)
        ok = True
        for i in order:
            row = qs[i]
            weights = [
                row[j] * left[j] / expect[j] if left[j] and allowed[i][j] and expect[j] > 1e-12 else 0.0
                for j in range(ns)
            ]
            total = sum(weights)
            if total > 0:
                r = rng.random() * total
                j = next(
                    (k for k in range(ns) if weights[k] > 0 and (r := r - weights[k]) < 0),
                    max(k for k in range(ns) if weights[k] > 0),
                )
            else:  # the network rules out every seat still short of cards: any of them
                choices = [k for k in range(ns) if left[k] and allowed[i][k]]
                if not choices:
                    ok = False
                    break
                j = rng.choice(choices)
            for k in range(ns):
                expect[k] -= row[k]
            left[j] -= 1
            hands[pos.seats[j]] |= 1 << pos.cards[i]
        if ok and not any(left):
            return hands
    return sample_hands(view, rng)


def learned_hands(view: View, count: int, rng: random.Random, net: Network | None = None) -> list[list[int]]:
    """``count`` deals fitting ``view`` drawn from the network's card probabilities (`draw_hands`)."""
    pos = features(view)
    if not pos.cards:
        try:
            return [sample_hands(view, rng) for _ in range(count)]
        except NoConsistentDeal:
            return []
    q = balance(card_probabilities(pos, net or load_network()), pos.need, pos.allowed)
    out = []
    for _ in range(count):
        try:
            out.append(draw_hands(view, pos, q, rng))
        except NoConsistentDeal:
            continue
    return out
