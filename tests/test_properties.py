"""Property tests over random legal play (Hypothesis).

Each example is a ruleset and a seed.  `play_random` plays a match with
``random.Random(seed)`` making every choice, chance included, so a failing
example shrinks to a single seed and replays exactly.

Where a property can be recomputed from the rules (RULES.md §0–1) it is:
legal cards, trick winners, the base scores of every deal and the settlement
of doubles are worked out here from the actions alone, not read back from the
engine's own bookkeeping.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Any, Callable

import pytest
from hypo import SCOTTISH, fast_and_slow

from barbu import CARDS, CHANCE, PASS, Business, Deal, Declare, Double, IllegalAction, Match, NameRank, NameTrump, Pass
from barbu.core.actions import NO_DOUBLE

FULL_DECK = (1 << 52) - 1
HEARTS = 1
KING, QUEEN, ACE = 11, 10, 12

# Contract table totals as RULES.md §1 states them (before doubles).
TOTALS = {
    False: {
        "no-tricks": -26,
        "no-hearts": -30,
        "no-queens": -24,
        "no-king": -20,
        "no-last-two": -30,
        "trumps": 65,
        "domino": 65,
    },
    True: {
        "no-tricks": -39,
        "no-hearts": -30,
        "no-queens": -32,
        "no-king": -21,
        "no-last-two": -30,
        "trumps": 91,
        "domino": 85,
        "ravage-city": -24,
    },
}


# ---------------------------------------------------------------------- the random player


def random_action(m: Match, rng: random.Random) -> Any:
    """A random legal action (a random outcome at chance nodes).

    In the doubling round a seat passes half the time when it may, so that
    undoubled deals (the "no doubles, no play" rule) come up too.
    """
    if m.to_act() == CHANCE:
        return m.sample_chance(rng)
    legal = m.legal_actions()
    assert legal, f"no legal action for seat {m.to_act()} in phase {m.phase_name}"
    if m.phase_name == "doubling" and NO_DOUBLE in legal and rng.random() < 0.5:
        return NO_DOUBLE
    return rng.choice(legal)


Hook = Callable[[Match, int, Any], None]


def play_random(
    rules: str,
    seed: int,
    *,
    deals: int | None = None,
    before: Hook | None = None,
    after: Hook | None = None,
    seeded: bool = True,
) -> Match:
    """Play a match (or its first ``deals`` deals) with random legal choices from ``Random(seed)``.

    ``before(m, actor, action)`` runs before each action is applied and
    ``after(m, actor, action)`` after it.  ``seeded=False`` builds the match
    without a seed of its own (its rng then lives in the match and is cloned).
    """
    rng = random.Random(seed)
    m = Match(rules, seed if seeded else None)
    while m.to_act() is not None and (deals is None or len(m.results) < deals):
        actor = m.to_act()
        action = random_action(m, rng)
        if before:
            before(m, actor, action)
        m.apply(action)
        if after:
            after(m, actor, action)
    return m


# ---------------------------------------------------------------------- independent rules


def suit(c: int) -> int:
    return c // 13


def rank(c: int) -> int:
    return c % 13


def cards(mask: int) -> set[int]:
    return {c for c in range(52) if mask >> c & 1}


def mask_of(cs) -> int:
    out = 0
    for c in cs:
        out |= 1 << c
    return out


def trick_winner(leader: int, trick: tuple[int, ...], trump: int | None, n: int = 4) -> int:
    """The highest trump wins, else the highest card of the suit led."""
    trumps = [c for c in trick if trump is not None and suit(c) == trump]
    pool = trumps or [c for c in trick if suit(c) == suit(trick[0])]
    best = max(pool, key=rank)
    return (leader + trick.index(best)) % n


def expected_trick_play(
    hand: set[int],
    trick: list[int],
    trump: int | None,
    heart_ban: bool,
    heart_lead: str,
    first_trick: bool,
    hearts_broken: bool,
    trump_rules: str,
) -> set[int]:
    """The cards RULES.md allows, from the hand and the trick so far."""
    if not trick:
        others = {c for c in hand if suit(c) != HEARTS}
        banned = (
            heart_ban
            and others
            and (
                heart_lead == "never_unless_only_hearts"
                or (heart_lead == "first_trick" and first_trick)
                or (heart_lead == "until_broken" and not hearts_broken)
            )
        )
        return others if banned else set(hand)
    led = suit(trick[0])
    follow = {c for c in hand if suit(c) == led}
    if trump is None:
        return follow or set(hand)
    my_trumps = {c for c in hand if suit(c) == trump}
    trick_trumps = [rank(c) for c in trick if suit(c) == trump]
    if led == trump:
        if not follow:
            return set(hand)
        if trump_rules == "classic":  # head the trick if able
            return {c for c in follow if rank(c) > max(trick_trumps)} or follow
        return follow
    if follow:
        return follow
    if not my_trumps:
        return set(hand)
    if not trick_trumps:
        return my_trumps  # must trump
    return {c for c in my_trumps if rank(c) > max(trick_trumps)} or set(hand)  # overtrump, else anything


def expected_domino_play(hand: set[int], start: int, placed: set[int]) -> set:
    """Domino (ace high, no wrap): a starting-rank card opens a suit; otherwise extend a row."""
    playable = set()
    for s in range(4):
        ranks = sorted(rank(c) for c in placed if suit(c) == s)
        if not ranks:
            playable.add(s * 13 + start)
            continue
        assert ranks == list(range(ranks[0], ranks[-1] + 1)) and ranks[0] <= start <= ranks[-1], (
            f"suit {s} row is not a run through the starting rank: {ranks}"
        )
        if ranks[0] > 0:
            playable.add(s * 13 + ranks[0] - 1)
        if ranks[-1] < 12:
            playable.add(s * 13 + ranks[-1] + 1)
    legal = hand & playable
    return legal or {PASS}


PENALTY_CARDS = {
    "no-hearts": {HEARTS * 13 + r for r in range(13)},
    "no-queens": {s * 13 + QUEEN for s in range(4)},
    "no-king": {HEARTS * 13 + KING},
}


def expected_base(
    key: str, ravage: bool, tricks: list[tuple[int, tuple[int, ...]]], trump: int | None, n: int = 4
) -> list[int]:
    """Base scores of a played trick-taking deal, from RULES.md §1."""
    base = [0] * n
    winners = [trick_winner(leader, t, trump if key == "trumps" else None, n) for leader, t in tricks]
    won: list[set[int]] = [set() for _ in range(n)]
    for w, (_, t) in zip(winners, tricks):
        won[w] |= set(t)
    if key == "no-tricks":
        for w in winners:
            base[w] += -3 if ravage else -2
    elif key == "trumps":
        for w in winners:
            base[w] += 7 if ravage else 5
    elif key == "no-hearts":
        for s in range(n):
            base[s] += sum(-6 if rank(c) == ACE else -2 for c in won[s] if suit(c) == HEARTS)
    elif key == "no-queens":
        for s in range(n):
            base[s] += (-8 if ravage else -6) * sum(1 for c in won[s] if rank(c) == QUEEN)
    elif key == "no-king":
        for s in range(n):
            if HEARTS * 13 + KING in won[s]:
                base[s] += -21 if ravage else -20
    elif key == "no-last-two":
        assert len(winners) == 13
        base[winners[-2]] += -10
        base[winners[-1]] += -20
    elif key == "ravage-city":
        most = [max(sum(1 for c in won[s] if suit(c) == x) for x in range(4)) for s in range(n)]
        losers = [s for s in range(n) if most[s] == max(most)]
        for s in losers:
            base[s] -= 24 // len(losers)
    else:
        raise AssertionError(f"unexpected trick contract {key}")
    return base


def expected_settlement(base: tuple[int, ...], doubles) -> list[int]:
    """For every pair with a double, the lower pays the higher the difference (twice if redoubled)."""
    scores = list(base)
    for b in doubles:
        stake = (base[b.doubler] - base[b.doubled]) * (2 if b.redoubled else 1)
        scores[b.doubler] += stake
        scores[b.doubled] -= stake
    return scores


class DoublingRound:
    """The doubling round of RULES.md §1, replayed from the Double actions alone.

    Turns go once round from the dealer's left, the dealer last; a non-dealer may double any player
    (only the dealer at Trumps and Domino) and redouble doubles received; the dealer only redoubles;
    then each seat that received a double after its own turn may redouble it, in seat order.  A double
    answered from the other side is a redouble.  A seat that owes the dealer as many doubles as deals
    are left must double him.  ("maximum" is only a way of saying "every seat I may double": doubling
    everyone leaves nobody who could double me later, so it needs no standing order.)
    """

    def __init__(self, tracker: "DealTracker", dealer: int, contract: str, n: int) -> None:
        self.t = tracker
        self.dealer = dealer
        self.n = n
        self.positive = bool(contract) and tracker.positive[contract]
        self.queue = [(dealer + i) % n for i in range(1, n + 1)] if n else []
        self.first_round = True
        self.taken: set[int] = set()
        self.business: dict[frozenset, list] = {}  # pair -> [doubler, doubled, redoubled, late]

    def _received(self, s: int, late_only: bool) -> list[int]:
        return [b[0] for b in self.business.values() if b[1] == s and not b[2] and (b[3] or not late_only)]

    def candidates(self, s: int) -> list[int]:
        if not self.first_round:
            return sorted(self._received(s, late_only=True))
        fresh = []
        if s != self.dealer:
            may = [self.dealer] if self.positive else [p for p in range(self.n) if p != s]
            fresh = [p for p in may if frozenset((s, p)) not in self.business]
        return sorted(set(fresh) | set(self._received(s, late_only=False)))

    def forced(self, s: int) -> bool:
        if not self.first_round or s == self.dealer:
            return False
        owed = self.t.rules.double_obligation - self.t.made[(self.dealer, s)]
        left = len(self.t.keys) - sum(1 for d, _ in self.t.declared if d == self.dealer) + 1
        return 0 < owed and left <= owed

    def expected_legal(self, s: int) -> set:
        assert self.queue and self.queue[0] == s
        cands = self.candidates(s)
        out = {Double(frozenset(c)) for k in range(len(cands) + 1) for c in combinations(cands, k)}
        if self.forced(s):
            out = {a for a in out if self.dealer in a.targets}
        return out

    def apply(self, s: int, action: Double) -> None:
        assert self.queue and self.queue[0] == s
        for p in action.targets:
            key = frozenset((s, p))
            b = self.business.get(key)
            if b is not None:
                assert b[1] == s and not b[2]
                b[2] = True
            else:
                self.business[key] = [s, p, False, p in self.taken]
        self.taken.add(s)
        self.queue.pop(0)
        if not self.queue and self.first_round:
            self.first_round = False
            self.queue = [
                p
                for p in ((self.dealer + i) % self.n for i in range(1, self.n + 1))
                if self._received(p, late_only=True)
            ]

    def businesses(self) -> list[Business]:
        return sorted((Business(b[0], b[1], b[2]) for b in self.business.values()), key=str)


class DealTracker:
    """Follows a match from its actions alone: hands, plays, tricks, contract, trump, rank."""

    def __init__(self, m: Match) -> None:
        self.rules = m.rules
        self.n = m.n
        self.ravage = m.rules.ravage_city
        self.dealt: list[int] = []
        self.declarer = -1
        self.results_seen = 0
        self.contract: str | None = None
        self.trump: int | None = None
        self.start: int | None = None
        self.plays: list[tuple[int, int]] = []  # (seat, card) of this deal, in order
        self.plays_turn = -1  # Domino: the seat to play next (-1: the declarer, first)
        self.tricks: list[tuple[int, tuple[int, ...]]] = []
        self.won = [0] * self.n
        self.tricks_won = [0] * self.n
        self.totals = [0] * self.n
        self.keys = tuple(m.contract_by_key)
        self.positive = {k: c.positive for k, c in m.contract_by_key.items()}
        self.declared: list[tuple[int, str]] = []  # (declarer, contract) of every deal so far
        self.made: Counter[tuple[int, int]] = Counter()  # (declarer, seat): doubles seat made on him
        self.doubling = DoublingRound(self, -1, "", 0)

    # -- derived
    def hand(self, seat: int) -> int:
        h = self.dealt[seat]
        for s, c in self.plays:
            if s == seat:
                h &= ~(1 << c)
        return h

    def played(self) -> int:
        return mask_of(c for _, c in self.plays)

    def current_trick(self) -> list[int]:
        k = len(self.plays) % self.n
        return [c for _, c in self.plays[len(self.plays) - k :]] if k else []

    def expected_legal(self, m: Match, seat: int) -> set:
        ph = m.phase_name
        if ph == "declare":
            done = {k for d, k in self.declared if d == self.declarer}
            return {Declare(k) for k in self.keys if k not in done}
        if ph == "trump":
            return {NameTrump(x) for x in range(4)} | ({NameTrump(None)} if self.rules.allow_no_trump else set())
        if ph == "rank":
            return {NameRank(r) for r in range(13)}
        if ph == "doubling":
            return self.doubling.expected_legal(seat)
        hand = cards(self.hand(seat))
        if ph == "domino":
            assert self.start is not None
            return expected_domino_play(hand, self.start, {c for _, c in self.plays})
        key = self.contract
        heart_ban = key in ("no-hearts", "no-king")
        broken = any(suit(c) == HEARTS for _, t in self.tricks for c in t)
        return expected_trick_play(
            hand,
            self.current_trick(),
            self.trump if key == "trumps" else None,
            heart_ban,
            self.rules.heart_lead,
            not self.tricks,
            broken,
            self.rules.trump_rules,
        )

    # -- following the actions
    def observe(self, m: Match, actor: int, action: Any) -> None:
        """Call after each action is applied; checks what can be checked at this point."""
        if isinstance(action, Deal):
            self.dealt = list(action.hands)
            self.declarer = m.declarer
            assert all(h.bit_count() == 13 for h in self.dealt)
            assert mask_of(c for h in self.dealt for c in cards(h)) == FULL_DECK
            self.contract = self.trump = self.start = None
            self.plays, self.tricks = [], []
            self.plays_turn = -1
            self.won, self.tricks_won = [0] * self.n, [0] * self.n
        elif isinstance(action, Declare):
            assert actor == self.declarer
            self.contract = action.contract
            self.declared.append((self.declarer, action.contract))
            if action.contract not in ("trumps", "domino"):
                self._start_doubling(m)
        elif isinstance(action, NameTrump):
            self.trump = action.suit
            self._start_doubling(m)
        elif isinstance(action, NameRank):
            self.start = action.rank
            self._start_doubling(m)
        elif isinstance(action, Double):
            self.doubling.apply(actor, action)
            if self.doubling.queue:
                assert m.phase_name == "doubling" and m.to_act() == self.doubling.queue[0], (
                    f"doubling: seat {m.to_act()} to act, expected {self.doubling.queue[0]}"
                )
            else:
                assert m.phase_name != "doubling", "the doubling round went on after every turn was taken"
        elif self.contract == "domino" and isinstance(action, (int, Pass)):
            # the declarer has the first turn; then the next seat that still holds cards
            expected = self.plays_turn if self.plays_turn >= 0 else self.declarer
            assert actor == expected, f"domino: seat {actor} played, expected seat {expected}"
            if isinstance(action, int):
                self.plays.append((actor, action))
                self.tricks.append((actor, (action,)))
            nxt = (actor + 1) % self.n
            while not self.hand(nxt) and nxt != actor:
                nxt = (nxt + 1) % self.n
            self.plays_turn = nxt
        elif isinstance(action, int):
            self.plays.append((actor, action))
            if len(self.plays) % self.n == 0:
                self._trick_done(m)
        if len(m.results) > self.results_seen:
            assert len(m.results) == self.results_seen + 1
            self.results_seen += 1
            self._deal_done(m, m.results[-1])

    def _start_doubling(self, m: Match) -> None:
        assert self.contract is not None
        self.doubling = DoublingRound(self, self.declarer, self.contract, m.n)
        assert m.phase_name == "doubling" and m.to_act() == self.doubling.queue[0]
        assert m.view(0).doubles_made == tuple(self.made[(self.declarer, s)] for s in range(m.n))

    def _trick_done(self, m: Match) -> None:
        last = self.plays[-self.n :]
        leader = last[0][0]
        seats = [s for s, _ in last]
        assert seats == [(leader + i) % self.n for i in range(self.n)], (
            f"trick not played in seat order from the leader: {seats}"
        )
        trick = tuple(c for _, c in last)
        assert len({suit(c) * 13 + rank(c) for c in trick}) == self.n
        if self.tricks:  # the winner of the previous trick led this one
            prev_leader, prev = self.tricks[-1]
            assert leader == trick_winner(prev_leader, prev, self.trump if self.contract == "trumps" else None)
        else:  # the declarer leads to the first trick
            assert leader == self.declarer, f"first trick led by {leader}, declarer is {self.declarer}"
        self.tricks.append((leader, trick))
        assert len(m.trick_log) == len(self.tricks) and m.trick_log[-1] == (leader, trick), (
            f"engine logged {m.trick_log[-1]}, expected {(leader, trick)}"
        )
        w = trick_winner(leader, trick, self.trump if self.contract == "trumps" else None)
        self.won[w] |= mask_of(trick)
        self.tricks_won[w] += 1
        assert m.winners[-1] == w, f"trick {trick} led by {leader}: engine says {m.winners[-1]} won, not {w}"
        if len(m.results) == self.results_seen:  # the deal goes on: the winner leads
            assert m.to_act() == w and m.leader == w
            v = m.view(0)
            assert list(v.won) == self.won and list(v.tricks_won) == self.tricks_won

    def _deal_done(self, m: Match, res) -> None:
        key = res.contract
        assert key == self.contract
        contract = m.contract_by_key[key]
        n = self.n
        total = contract.total(n, m.hand_size, m.deck)
        assert total == TOTALS[self.ravage][key], f"{key}: table total {total}"
        assert sum(res.base) == total, f"deal {res.number} ({key}) base {res.base} does not sum to {total}"
        assert sum(res.scores) == total, f"deal {res.number} ({key}) scores {res.scores} do not sum to {total}"
        assert res.hands == tuple(self.dealt)
        assert res.trump == (self.trump if key == "trumps" else None)
        assert res.rank == (self.start if key == "domino" else None)
        assert res.dealer == res.declarer
        # doubles: one business per pair, the dealer never doubles, positive contracts double only the dealer
        expected_doubles = self.doubling.businesses()
        assert sorted(res.doubles, key=str) == expected_doubles, (
            f"deal {res.number}: doubles {res.doubles}, expected {expected_doubles}"
        )
        for b in res.doubles:
            if b.doubled == res.declarer:
                self.made[(res.declarer, b.doubler)] += 1
        pairs = [frozenset((b.doubler, b.doubled)) for b in res.doubles]
        assert len(set(pairs)) == len(pairs) and all(len(p) == 2 for p in pairs)
        assert all(b.doubler != res.dealer for b in res.doubles), res.doubles
        if contract.positive:
            assert all(b.doubled == res.dealer for b in res.doubles), res.doubles
        unplayed = not res.doubles and not contract.positive and self.rules.undoubled_negative == "split"
        assert res.played == (not unplayed)
        if unplayed:
            each = -(-abs(total) // (n - 1)) * (1 if total >= 0 else -1)  # total/3 away from zero
            expected = [each] * n
            expected[res.dealer] = total - each * (n - 1)
            assert self.plays == [] and res.tricks == ()
        elif key == "domino":
            expected = self._domino_base(m, res)
        else:
            expected = self._trick_base(res)
        assert list(res.base) == expected, f"deal {res.number} {key}: base {res.base}, expected {expected}"
        assert list(res.scores) == expected_settlement(res.base, res.doubles), (
            f"deal {res.number} {key}: scores {res.scores} from base {res.base} and doubles {res.doubles}"
        )
        for s in range(n):
            self.totals[s] += res.scores[s]
        assert list(m.totals) == self.totals

    def _trick_base(self, res) -> list[int]:
        key = res.contract
        assert list(res.tricks) == self.tricks
        remaining = mask_of(c for h in self.dealt for c in cards(h)) & ~self.played()
        if self.rules.stop_when_decided and key in PENALTY_CARDS:
            # stops as soon as every penalty card is taken, not before, not after
            pen = PENALTY_CARDS[key]
            taken_by = [set().union(*(t for _, t in self.tricks[: i + 1])) for i in range(len(self.tricks))]
            first_done = next(i for i, tk in enumerate(taken_by) if pen <= tk)
            assert len(self.tricks) == first_done + 1, (
                f"{key}: deal stopped after {len(self.tricks)} tricks, all penalty cards out after {first_done + 1}"
            )
            assert not cards(remaining) & pen
        else:
            assert len(self.tricks) == 13 and remaining == 0, f"{key}: only {len(self.tricks)} tricks played"
        return expected_base(key, self.ravage, self.tricks, self.trump)

    def _domino_base(self, m: Match, res) -> list[int]:
        n = self.n
        left = [13] * n
        order = []
        for s, _ in self.plays:
            left[s] -= 1
            if left[s] == 0:
                order.append(s)
        if self.rules.stop_when_decided:
            assert len(order) == n - 1, f"domino went on after its order was decided: {order}"
            order += [s for s in range(n) if s not in order]
        else:
            assert len(order) == n and len(self.plays) == 52
        assert list(res.finishing) == order, f"finishing {res.finishing}, expected {order}"
        assert list(res.tricks) == self.tricks
        values = (50, 25, 10, 0) if self.ravage else (45, 20, 5, -5)
        base = [0] * n
        for place, s in enumerate(order):
            base[s] = values[place]
        return base


class TrackedPlay:
    """A random match played with a `DealTracker` checking every action as it goes."""

    def __init__(self, rules: str, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.m = Match(rules, seed)
        self.tracker = DealTracker(self.m)

    def run(self, before: Callable[["TrackedPlay", int, Any], None] | None = None, deals: int | None = None) -> Match:
        m = self.m
        while m.to_act() is not None and (deals is None or len(m.results) < deals):
            actor = m.to_act()
            action = random_action(m, self.rng)
            if before:
                before(self, actor, action)
            m.apply(action)
            self.tracker.observe(m, actor, action)
        return m


def in_play(m: Match) -> bool:
    return m.phase_name in ("play", "domino", "pass-on")


def snapshot(m: Match) -> dict[str, Any]:
    """Every slot of the match, frozen, for 'the state is unchanged' checks."""

    def freeze(v: Any) -> Any:
        if isinstance(v, (list, tuple)):  # the match's lists are homogeneous: look at the first item
            return tuple(map(freeze, v)) if v and isinstance(v[0], (list, set, dict)) else tuple(v)
        if isinstance(v, (set, frozenset)):
            return frozenset(v)
        if isinstance(v, dict):
            return tuple(sorted(((repr(k), freeze(x)) for k, x in v.items()), key=lambda kv: kv[0]))
        return v

    out = {}
    for name in m.slot_names():
        v = getattr(m, name)
        if name == "rng":
            out[name] = v.getstate()
        elif isinstance(v, Match):  # a snapshot the match keeps for itself
            out[name] = id(v)
        elif isinstance(v, tuple) and any(isinstance(x, Match) for x in v):
            out[name] = tuple(id(x) if isinstance(x, Match) else x for x in v)
        else:
            out[name] = freeze(v)
    return out


def fingerprint(m: Match) -> tuple:
    """What every seat sees, plus the record: two states with equal fingerprints are the same position."""
    return (
        tuple(m.view(s) for s in range(m.n)),
        tuple(m.history),
        tuple(m.results),
        m.to_act(),
        m.legal_actions(),
        tuple(m.totals),
    )


# ---------------------------------------------------------------------- play


@fast_and_slow(fast=20, slow=25)
def check_cards_conserved(rules: str, seed: int) -> None:
    """Hands + cards played this deal are the deck, disjointly; each hand is what was dealt less its plays."""

    def before(p: TrackedPlay, actor: int, action: Any) -> None:
        m = p.m
        if not in_play(m):
            return
        union = 0
        for h in m.hands:
            assert not union & h, "two hands share a card"
            union |= h
        played = mask_of(c for _, t in m.trick_log for c in t) | mask_of(m.trick)
        assert not played & union, "a played card is still in a hand"
        assert played | union == m.deck == FULL_DECK, "cards lost or created"
        assert played == p.tracker.played()
        for s in range(m.n):
            assert m.hands[s] == p.tracker.hand(s), f"seat {s} holds the wrong cards"
        assert m.view(actor).played == played

    TrackedPlay(rules, seed).run(before)


test_cards_conserved, test_cards_conserved_slow = check_cards_conserved


@fast_and_slow(fast=40, slow=60)
def check_tricks_and_winners(rules: str, seed: int) -> None:
    """Each trick: one card per seat in seat order from the leader; the winner is right and leads next.

    (The checks run in `DealTracker._trick_done` after every fourth card.)
    """
    p = TrackedPlay(rules, seed)
    m = p.run()
    assert m.is_over
    assert sum(len(r.tricks) for r in m.results if r.contract != "domino") > 0


test_tricks_and_winners, test_tricks_and_winners_slow = check_tricks_and_winners


@fast_and_slow(fast=40, slow=80)
def check_legal_actions_follow_the_rules(rules: str, seed: int) -> None:
    """The legal actions are exactly the ones RULES.md allows, recomputed from the actions so far:
    contracts not yet declared, trump suits, starting ranks, the doubling round (with the obligation),
    and the cards (follow suit, heart-lead ban, trump rules, Domino rows).  Also checks each deal's
    doubles against the doubling model."""

    def before(p: TrackedPlay, actor: int, action: Any) -> None:
        m = p.m
        if actor == CHANCE:
            return
        legal = m.legal_actions()
        assert len(set(legal)) == len(legal), f"duplicate legal actions {legal}"
        expected = p.tracker.expected_legal(m, actor)
        if m.phase_name == "doubling":
            assert set(legal) == expected, (
                f"doubling, seat {actor} (dealer {p.tracker.doubling.dealer}, {p.tracker.contract}): engine "
                f"allows {sorted(map(str, legal))}, rules allow {sorted(map(str, expected))}"
            )
        elif not in_play(m):
            assert set(legal) == expected, f"{m.phase_name}: engine allows {legal}, rules allow {expected}"
        else:
            assert set(legal) == expected, (
                f"{p.tracker.contract} trump={p.tracker.trump} trick={p.tracker.current_trick()} "
                f"hand={sorted(cards(m.hands[actor]))}: engine allows {sorted(legal, key=str)}, "
                f"rules allow {sorted(expected, key=str)}"
            )

    TrackedPlay(rules, seed).run(before)


test_legal_actions_follow_the_rules, test_legal_actions_follow_the_rules_slow = check_legal_actions_follow_the_rules


# ---------------------------------------------------------------------- scores


@fast_and_slow(fast=60, slow=100)
def check_deal_totals(rules: str, seed: int) -> None:
    """Each deal: base scores sum to the contract's total, scores after doubles sum to the same total,
    and both are what RULES.md gives for the tricks (or finishing order) and the doubles.

    (The checks run in `DealTracker._deal_done` after every deal.)
    """
    p = TrackedPlay(rules, seed)
    m = p.run()
    assert p.tracker.results_seen == len(m.results) == m.total_deals


test_deal_totals, test_deal_totals_slow = check_deal_totals


@fast_and_slow(fast=40, slow=100)
def check_series_sum_to_zero(rules: str, seed: int) -> None:
    """With ravage_value 24 the contract totals of each declarer's series sum to zero, so the match does."""
    m = play_random(rules, seed)
    assert m.rules.ravage_value == 24
    series: Counter[int] = Counter()
    for r in m.results:
        c = m.contract_by_key[r.contract]
        series[r.declarer] += c.total(m.n, m.hand_size, m.deck)
    assert set(series) == set(range(m.n))
    assert all(v == 0 for v in series.values()), dict(series)
    assert sum(m.totals) == 0
    assert list(m.totals) == [sum(r.scores[s] for r in m.results) for s in range(m.n)]


test_series_sum_to_zero, test_series_sum_to_zero_slow = check_series_sum_to_zero


# ---------------------------------------------------------------------- the series and doubling


@fast_and_slow(fast=40, slow=100)
def check_doubling_obligation(rules: str, seed: int) -> None:
    """In a finished match every other seat doubled each declarer at least `double_obligation` times
    over that declarer's contracts."""
    m = play_random(rules, seed)
    assert m.is_over
    need = m.rules.double_obligation
    count: Counter[tuple[int, int]] = Counter()
    for r in m.results:
        for b in r.doubles:
            if b.doubled == r.declarer:
                count[(r.declarer, b.doubler)] += 1
    short = {(d, s): count[(d, s)] for d in range(m.n) for s in range(m.n) if s != d and count[(d, s)] < need}
    assert not short, f"(declarer, seat): doubles made, fewer than {need}: {short}"


test_doubling_obligation, test_doubling_obligation_slow = check_doubling_obligation


@fast_and_slow(fast=40, slow=100)
def check_each_contract_declared_once(rules: str, seed: int) -> None:
    """Every declarer declares each contract exactly once; declaration passes left as the rotation says."""
    m = play_random(rules, seed)
    keys = sorted(m.contract_by_key)
    k = len(keys)
    assert len(m.results) == m.n * k
    for d in range(m.n):
        declared = sorted(r.contract for r in m.results if r.declarer == d)
        assert declared == keys, f"seat {d} declared {declared}"
    first = m.results[0].declarer
    for i, r in enumerate(m.results):
        step = i if m.rules.rotation == "quick" else i // k
        assert r.declarer == r.dealer == (first + step) % m.n, f"deal {r.number} declared by {r.declarer}"
        assert r.number == i + 1


test_each_contract_declared_once, test_each_contract_declared_once_slow = check_each_contract_declared_once


# ---------------------------------------------------------------------- the API


def candidate_actions(m: Match) -> list[Any]:
    """Every action of the kind the phase expects (and a few of the wrong kind)."""
    ph = m.phase_name
    # cards both as `Card` (the engine's fast path) and as plain ints
    if ph == "play":
        return list(CARDS) + list(range(-1, 53)) + [PASS, Declare("no-tricks")]
    if ph == "domino":
        extra: list[Any] = []
        if m.rules.family == "scottish":  # Patience: every run and set of the hand, and groups that are not
            from barbu.core.actions import Lay
            from barbu.scottish.patience import lay_options

            hand = m.hands[m.to_act()]
            extra = [Lay(g) for g in lay_options(hand, m.layout, True)] + [Lay(hand), Lay(hand | 1), Lay(0)]
            extra += [Lay(x | y) for x in cards(hand) for y in cards(hand) if x < y]
            extra = [Lay(sum(1 << c for c in cs)) for cs in {tuple(sorted(cards(a.cards))) for a in extra}]
        return list(CARDS) + list(range(-1, 53)) + [PASS, NameRank(0)] + extra
    if ph == "pass-on":
        from barbu.core.actions import PassOn

        hand = sorted(cards(m.hands[m.to_act()]))
        out: list[Any] = [PassOn(sum(1 << c for c in trio)) for trio in combinations(hand, 3)]
        return out + [
            PassOn(sum(1 << c for c in hand[:2])),
            PassOn(sum(1 << c for c in hand[:4])),
            PassOn((1 << hand[0]) | (1 << hand[1]) | (1 << 0)),
            PassOn(0),
            PASS,
            Declare("aces"),
        ]
    if ph == "declare":
        return [Declare(k) for k in m.contract_by_key] + [Declare("salad"), NameTrump(0), 0]
    if ph == "trump":
        return [NameTrump(s) for s in (0, 1, 2, 3, None, 4)] + [NameRank(0), Declare("trumps")]
    if ph == "rank":
        return [NameRank(r) for r in range(-1, 14)] + [NameTrump(0), PASS]
    if ph == "doubling":
        seats = range(m.n)
        return [Double(frozenset(c)) for k in range(m.n + 1) for c in combinations(seats, k)] + [
            Double(frozenset({m.n})),
            Double(frozenset({-1})),
            PASS,
            0,
        ]
    raise AssertionError(f"no candidates at phase {ph}")


def check_legal_actions_are_exactly_accepted(rules: str, seed: int) -> None:
    """apply() accepts every legal action, and rejects every other one with IllegalAction, state unchanged.

    Every bidding-phase decision is checked; card plays at random (one in eight).
    """
    pick = random.Random(seed ^ 0x5EED)

    def before(m: Match, actor: int, action: Any) -> None:
        if actor == CHANCE:
            return
        if in_play(m) and pick.random() > 1 / 8:
            return
        legal = m.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        cands = candidate_actions(m)
        assert set(legal) <= set(cands), f"unexpected legal actions {set(legal) - set(cands)}"
        before_state = snapshot(m)
        for a in cands:
            if a in legal:
                c = m.clone()
                c.apply(a)  # must not raise
                assert c.history[-1] == a
            else:
                with pytest.raises(IllegalAction):
                    m.apply(a)
                assert snapshot(m) == before_state, f"rejected {a!r} at {m.phase_name} changed the state"
        if in_play(m):  # a bool is not a card, even where True == 1 is a legal card
            with pytest.raises(IllegalAction):
                m.apply(True)
            assert snapshot(m) == before_state
        if m.phase_name == "play":  # in words: cards in hand that are not legal
            for c in cards(m.hands[actor]) - set(legal):
                with pytest.raises(IllegalAction, match=r"\w"):
                    m.apply(c)

    play_random(rules, seed, before=before)


test_legal_actions_are_exactly_accepted, test_legal_actions_are_exactly_accepted_slow = fast_and_slow(5, 7)(
    check_legal_actions_are_exactly_accepted
)
test_legal_actions_are_exactly_accepted_scottish, test_legal_actions_are_exactly_accepted_scottish_slow = fast_and_slow(
    3, 5, SCOTTISH
)(check_legal_actions_are_exactly_accepted)


def check_undo_then_reapply(rules: str, seed: int) -> None:
    """undo() takes back exactly the last action; re-applying it gives an identical state.

    One step at random points (every chance event included), and a few longer take-backs
    that cross deal boundaries.
    """
    pick = random.Random(seed ^ 0x0DD)
    pending: dict[str, Any] = {}
    long_undo: dict[str, Any] = {}

    def before(m: Match, actor: int, action: Any) -> None:
        if actor == CHANCE or pick.random() < 0.05:
            pre = fingerprint(m)
            m.apply(action)
            pending["post"] = fingerprint(m)
            assert m.undo() == action
            assert fingerprint(m) == pre, f"undo of {action} did not restore the state"
        if "start" not in long_undo and pick.random() < 0.004:
            long_undo.update(start=fingerprint(m), actions=[], length=pick.randint(1, 120))

    def after(m: Match, actor: int, action: Any) -> None:
        if "post" in pending:
            assert fingerprint(m) == pending.pop("post"), f"re-applying {action} gave another state"
        if "start" in long_undo:
            long_undo["actions"].append(action)
            if len(long_undo["actions"]) >= long_undo["length"] or m.is_over:
                end = fingerprint(m)
                actions = long_undo["actions"]
                for a in reversed(actions):
                    assert m.undo() == a
                assert fingerprint(m) == long_undo["start"], f"{len(actions)} undos did not restore the state"
                for a in actions:
                    m.apply(a)
                assert fingerprint(m) == end
                long_undo.clear()

    m = play_random(rules, seed, before=before, after=after, seeded=seed % 2 == 0)
    assert m.is_over
    # take back the last deal entirely and replay it
    n_done = len(m.results)
    n_back = len(m.history) - next(i for i in range(len(m.history) - 1, -1, -1) if isinstance(m.history[i], Deal))
    end = fingerprint(m)
    tail = m.history[-n_back:]
    for a in reversed(tail):
        assert m.undo() == a
    assert len(m.results) == n_done - 1 and m.to_act() == CHANCE
    for a in tail:
        m.apply(a)
    assert fingerprint(m) == end


test_undo_then_reapply, test_undo_then_reapply_slow = fast_and_slow(6, 8)(check_undo_then_reapply)
test_undo_then_reapply_scottish, test_undo_then_reapply_scottish_slow = fast_and_slow(3, 6, SCOTTISH)(
    check_undo_then_reapply
)


def check_clone_is_independent(rules: str, seed: int) -> None:
    """A clone is an exact copy; playing, undoing or drawing chance on either side leaves the other as it was."""
    pick = random.Random(seed ^ 0xC10)
    pending: dict[str, Any] = {}

    def before(m: Match, actor: int, action: Any) -> None:
        if not (actor == CHANCE or pick.random() < 0.03):
            return
        fp = fingerprint(m)
        rng_state = m.rng.getstate() if hasattr(m, "rng") else None
        # a clone is a faithful copy: same position, same chance stream
        c = m.clone()
        assert fingerprint(c) == fp
        if actor == CHANCE:
            assert c.clone().sample_chance() == c.clone().sample_chance() == m.clone().sample_chance()
        # play the clone on (own rng for choices, the clone's rng for chance), then undo a bit of it
        r = random.Random(pick.random())
        for _ in range(pick.randint(1, 80)):
            if c.to_act() is None:
                break
            if c.to_act() == CHANCE and r.random() < 0.5:
                c.play_chance()
            else:
                c.apply(random_action(c, r))
        for _ in range(pick.randint(0, 3)):
            if c.history:
                c.undo()
        assert fingerprint(m) == fp, "playing a clone changed the original"
        if rng_state is not None:
            assert m.rng.getstate() == rng_state, "playing a clone moved the original's rng"
        # and the other way round: the original moves on, the clone stays
        pending["clone"], pending["clone_fp"] = c, fingerprint(c)
        twin = m.clone()
        twin.apply(action)
        pending["twin_fp"] = fingerprint(twin)

    def after(m: Match, actor: int, action: Any) -> None:
        if "clone" in pending:
            assert fingerprint(pending["clone"]) == pending["clone_fp"], "applying to the original changed a clone"
            assert fingerprint(m) == pending["twin_fp"], "a clone and its original diverged on the same action"
            pending.clear()

    play_random(rules, seed, before=before, after=after, seeded=seed % 2 == 0)


test_clone_is_independent, test_clone_is_independent_slow = fast_and_slow(8, 10)(check_clone_is_independent)
test_clone_is_independent_scottish, test_clone_is_independent_scottish_slow = fast_and_slow(4, 8, SCOTTISH)(
    check_clone_is_independent
)
