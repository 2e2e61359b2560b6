"""Property tests over random Scottish matches (Hypothesis), against a model written from RULES.md §5.

`Model` follows a match from its actions alone and checks, at every step, who
acts and exactly which actions are legal (the Caller's groups by an exhaustive
search, pass-ons, trick play, Patience singles, runs and sets by brute force
over the hand's subsets), how each call cut resolves, where pass-on cards go,
and each deal's points call by call.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import pytest
from helpers import played_this_deal
from hypo import SLOW_SCALE
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_scottish_rules import offered_by_brute_force

from barbu import CHANCE, Declare, Match
from barbu.core.actions import PASS, Deal, Lay, Pass, PassOn
from barbu.core.cards import PIQUET_DECK
from barbu.scottish.pack import Cut, PackDraw

NEG = ("aces", "king", "queens", "hearts", "tricks")
NUMBER = {2: "aces", 3: "king", 4: "queens", 5: "hearts", 6: "tricks"}
JACK = 9
DIRECTION = {1: [1, 1, 1], 2: [3, 3, 3], 3: [2, 1, 2], 4: [1, 1, 1], 5: [3, 3, 3], 6: [2, 3, 2]}
VALUE = {
    "aces": lambda c: -20 if c % 13 == 12 else 0,
    "king": lambda c: -100 if c == 13 + 11 else 0,
    "queens": lambda c: -15 if c % 13 == 10 else 0,
    "hearts": lambda c: (-30 if c % 13 == JACK else -10) if c // 13 == 1 else 0,
}


def bits(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def cut_number(card: int) -> int | None:
    return card // 4 + 2 if card < 20 else None


def model_calls(cuts: list[int], left: set[str], first: bool) -> tuple[str, ...] | None:
    """The calls that a sequence of cuts settles (None while more cuts are needed), from RULES.md §5."""
    pats = [p for p in ("patience-1", "patience-2") if p in left]
    negs = {n for n, c in NUMBER.items() if c in left}
    group: list[int] = []
    for i, card in enumerate(cuts):
        n = cut_number(card)
        if not group:
            if card == 21:  # Bridge
                if pats:
                    return tuple(pats) if len(pats) == 2 else (pats[0],)
                continue
            if card == 20:  # Joker
                if negs:
                    return tuple(NUMBER[x] for x in sorted(negs))
                continue
            if n not in negs:
                if pats:
                    return (pats[0],)
                continue
            group = [n]
        elif first and len(group) == 1 and i == 1 and n == group[0]:
            return (pats[0],)
        elif card == 20:
            return tuple(NUMBER[x] for x in sorted(negs))
        elif n in negs and n not in group and any((n - g) % 5 in (1, 4) for g in group):
            group.append(n)
        else:
            return tuple(NUMBER[x] for x in sorted(group))
        if set(group) == negs:
            return tuple(NUMBER[x] for x in sorted(group))
    return None


def placeable_in_turn(group: list[int], rows: dict[int, tuple[int, int] | None]) -> bool:
    rows = dict(rows)
    left = list(group)
    while left:
        for c in left:
            s, r = divmod(c, 13)
            row = rows[s]
            if (row is None and r == JACK) or (row is not None and r in (row[0] - 1, row[1] + 1)):
                rows[s] = (r, r) if row is None else (min(row[0], r), max(row[1], r))
                left.remove(c)
                break
        else:
            return False
    return True


def expected_patience(hand: int, played: list[int], anytime: bool) -> set[Any]:
    rows: dict[int, tuple[int, int] | None] = {s: None for s in range(4)}
    for c in played:
        s, r = divmod(c, 13)
        rows[s] = (r, r) if rows[s] is None else (min(rows[s][0], r), max(rows[s][1], r))
    cards = bits(hand)
    singles = {c for c in cards if placeable_in_turn([c], rows)}
    out: set[Any] = set(singles)
    for k in range(2, len(cards) + 1):
        for g in combinations(cards, k):
            if not anytime and k != len(cards):
                continue
            suits = {c // 13 for c in g}
            ranks = sorted(c % 13 for c in g)
            run = len(suits) == 1 and ranks == list(range(ranks[0], ranks[0] + k))
            same = len(set(ranks)) == 1
            if (run or same) and placeable_in_turn(list(g), rows):
                out.add(Lay(sum(1 << c for c in g)))
    return out if singles else {PASS}


class Model:
    """The match as the rules describe it, rebuilt from the actions."""

    def __init__(self, sets: int) -> None:
        self.sets = sets
        self.set_no = 0
        self.round_no = 0  # 0..3 Player Rounds, 4 Silly
        self.first_caller = -1
        self.dealer = -1
        self.left: set[str] = set()
        self.groups: list[int] = []
        self.deal_in_round = 0
        self.phase = "draw"
        self.totals = [0] * 4

    # -- what must be legal now
    def check_position(self, m: Match) -> None:
        actor = m.to_act()
        assert m.phase_name == self.phase or (
            self.phase == "stages" and m.phase_name in ("cut", "pass-on", "play", "domino")
        )
        legal = m.legal_actions()
        if actor == CHANCE:
            assert m.phase_name in ("draw", "deal", "cut") and not legal
            return
        ph = m.phase_name
        if ph == "declare":
            assert actor == self.dealer == self.caller
            negs = frozenset(c for c in NEG if c in self.left)
            pats = sum(1 for p in ("patience-1", "patience-2") if p in self.left)
            big = sum(1 for g in self.groups if g >= 2)
            treble = any(g >= 3 for g in self.groups)
            assert {a.contract for a in legal} == offered_by_brute_force(negs, pats, big, treble)
        elif ph == "pass-on":
            assert actor == self.pass_order[len(self.pending)]
            assert set(legal) == {PassOn(sum(1 << c for c in t)) for t in combinations(bits(self.hands[actor]), 3)}
            assert len(legal) == 56
        elif ph == "play":
            hand = self.hands[actor]
            trick = self.trick
            if not trick:
                assert actor == self.leader
                want = set(bits(hand))
            else:
                assert actor == (self.leader + len(trick)) % 4
                follow = {c for c in bits(hand) if c // 13 == trick[0] // 13}
                want = follow or set(bits(hand))
            assert set(legal) == want
        elif ph == "domino":
            assert m.hands[actor] == self.hands[actor]
            assert set(legal) == expected_patience(self.hands[actor], self.patience_played, self.silly)
        else:
            raise AssertionError(f"unexpected phase {ph}")

    @property
    def silly(self) -> bool:
        return self.round_no == 4

    @property
    def caller(self) -> int:
        return (self.first_caller + self.round_no) % 4

    # -- following the actions
    def observe(self, m: Match, actor: Any, a: Any) -> None:
        if isinstance(a, PackDraw):
            values = [{20: 7, 21: 8}.get(c, c // 4 + 2) for c in a.cards]
            top = max(values)
            if values.count(top) == 1:
                if self.first_caller < 0:
                    self.first_caller = self.dealer = values.index(top)
                    self.left = set(NEG) | {"patience-1", "patience-2"}
                else:
                    self.dealer = values.index(top)
                self.phase = "deal"
            assert m.phase_name == self.phase
        elif isinstance(a, Deal):
            assert a.hands and all(h.bit_count() == 8 for h in a.hands)
            assert sum(a.hands) == PIQUET_DECK
            self.hands = list(a.hands)
            self.calls: tuple[str, ...] = ()
            self.call_cuts: list[int] = []
            self.trick: list[int] = []
            self.tricks: list[tuple[int, list[int]]] = []
            self.patience_played: list[int] = []
            self.finished: list[int] = []
            self.passes = 0
            self.leader = (self.dealer + 1) % 4
            if self.silly:
                k = self.deal_in_round + 1
                self.stages = ["calls", "passes"] if k <= 3 else ["passes", "calls"]
                self.phase = "stages"
                self.next_stage(m)
            else:
                self.phase = "declare"
        elif isinstance(a, Declare):
            if a.contract == "patience":
                calls = ("patience-1",) if "patience-1" in self.left else ("patience-2",)
            elif a.contract == "double-patience":
                calls = ("patience-1", "patience-2")
            else:
                calls = tuple(a.contract.split("+"))
            self.groups.append(len(calls))
            self.settle(m, calls)
            self.start_play(m)
        elif isinstance(a, Cut):
            assert actor == CHANCE and self.phase == "stages"
            if self.cutting == "calls":
                self.call_cuts.append(a.card)
                calls = model_calls(self.call_cuts, self.left, first=self.deal_in_round == 0)
                if calls is not None:
                    assert m.calls == calls, f"cuts {self.call_cuts}: engine {m.calls}, rules {calls}"
                    self.settle(m, calls)
                    self.next_stage(m)
                else:
                    assert m.phase_name == "cut" and not m.calls
            else:
                if a.card < 20 and a.card % 4 in (0, 3):  # black: a pass-on
                    self.pass_order = [(self.dealer + 1 + i) % 4 for i in range(4)]
                    self.pending: dict[int, int] = {}
                    assert m.phase_name == "pass-on"
                elif a.card < 20:
                    self.next_stage(m)
                else:
                    assert m.phase_name == "cut"
        elif isinstance(a, PassOn):
            self.pending[actor] = a.cards
            if len(self.pending) == 4:
                d = DIRECTION[self.deal_in_round + 1][self.passes]
                self.hands = [(self.hands[s] & ~self.pending[s]) | self.pending[(s - d) % 4] for s in range(4)]
                assert list(m.hands) == self.hands, "pass-on cards went the wrong way"
                assert m.pass_log[-1][0] == d
                self.passes += 1
                if self.passes == 3:
                    self.next_stage(m)
                else:
                    assert m.phase_name == "cut"
        elif m.results and len(m.results) > getattr(self, "seen", 0) or isinstance(a, (int, Pass, Lay)):
            self.play(m, actor, a)

    def next_stage(self, m: Match) -> None:
        while self.stages:
            stage = self.stages.pop(0)
            if stage == "calls":
                if len(self.left) == 1:
                    self.settle(m, tuple(self.left))
                    continue
                self.cutting = "calls"
                assert m.phase_name == "cut" and m.cut_for == "calls"
                return
            known_last = not self.left if self.calls else len(self.left) == 1
            if known_last:
                continue
            self.cutting = "passes"
            assert m.phase_name == "cut" and m.cut_for == "passes"
            return
        self.start_play(m)

    def settle(self, m: Match, calls: tuple[str, ...]) -> None:
        assert not set(calls) - self.left
        self.calls = calls
        self.left -= set(calls)

    def start_play(self, m: Match) -> None:
        self.phase = "domino" if self.calls[0].startswith("patience") else "play"
        self.turn = self.leader
        assert m.phase_name == self.phase and m.to_act() == self.leader

    def play(self, m: Match, actor: int, a: Any) -> None:
        if self.phase == "domino":
            assert actor == self.turn
            if isinstance(a, Lay):
                laid = bits(a.cards)
            elif isinstance(a, Pass):
                laid = []
            else:
                laid = [int(a)]
            for c in laid:
                self.hands[actor] &= ~(1 << c)
                self.patience_played.append(c)
            if laid and not self.hands[actor]:
                self.finished.append(actor)
            nxt = (actor + 1) % 4
            while not self.hands[nxt] and nxt != actor:
                nxt = (nxt + 1) % 4
            self.turn = nxt
            if len(self.finished) == 3:
                self.finished += [s for s in range(4) if self.hands[s]]
                self.end_deal(m)
            return
        self.trick.append(int(a))
        self.hands[actor] &= ~(1 << int(a))
        if len(self.trick) == 4:
            led = self.trick[0] // 13
            best = max(c for c in self.trick if c // 13 == led)
            winner = (self.leader + self.trick.index(best)) % 4
            self.tricks.append((winner, list(self.trick)))
            self.trick = []
            self.leader = winner
            left = 0
            for h in self.hands:
                left |= h
            decided = (
                m.rules.stop_when_decided
                and "tricks" not in self.calls
                and not any(VALUE[c](x) for c in self.calls for x in bits(left))
            )
            if not left or decided:
                self.end_deal(m)

    def end_deal(self, m: Match) -> None:
        r = m.results[-1]
        info = r.scottish
        parts = []
        for call in self.calls:
            pts = [0] * 4
            if call.startswith("patience"):
                for place, s in enumerate(self.finished):
                    pts[s] = (120, 60, 30, 0)[place]
            elif call == "tricks":
                for w, _ in self.tricks:
                    pts[w] -= 10
            else:
                for w, cards in self.tricks:
                    pts[w] += sum(VALUE[call](c) for c in cards)
            parts.append(tuple(pts))
        assert info.calls == self.calls and info.parts == tuple(parts), f"deal {r.number}: {info.parts} != {parts}"
        assert list(r.scores) == [sum(p[s] for p in parts) for s in range(4)]
        assert info.set_no == self.set_no + 1 and info.round_no == self.round_no + 1
        assert info.caller == (None if self.silly else self.caller) and r.dealer == self.dealer
        for g in info.glyphs:  # glyphs are consistent with the points they sit beside
            if g.name in ("spider", "egg"):
                pts = parts[self.calls.index(g.call)]
                assert sum(pts) == pts[g.seat] and (g.name == "spider") == (g.seat == info.caller)
            if g.name in (
                "fc",
                "sc",
                "tc",
                "banana",
                "beef-tomato",
                "cherry-tomato",
                "constipatience",
                "dangly-spider",
            ):
                assert g.seat == info.caller is not None
        for s in range(4):
            self.totals[s] += r.scores[s]
        assert list(m.totals) == self.totals
        self.deal_in_round += 1
        self.seen = len(m.results)
        if self.left:
            if self.silly:
                self.dealer = (self.dealer + 1) % 4
            self.phase = "deal"
        elif self.silly:
            self.set_no += 1
            self.round_no = 0
            self.dealer = self.first_caller
            self.phase = "over" if self.set_no == self.sets else "deal"
            self.left = set(NEG) | {"patience-1", "patience-2"}
            self.groups, self.deal_in_round = [], 0
        else:
            self.round_no += 1
            self.left = set(NEG) | {"patience-1", "patience-2"}
            self.groups, self.deal_in_round = [], 0
            if self.silly:
                self.phase = "draw"
            else:
                self.dealer = self.caller
                self.phase = "deal"
        assert m.phase_name == self.phase


def run(rules: str, seed: int) -> Match:
    rng = random.Random(seed)
    m = Match(rules, seed)
    model = Model(m.rules.sets)
    while not m.is_over:
        actor = m.to_act()
        model.check_position(m)
        a = m.sample_chance(rng) if actor == CHANCE else rng.choice(m.legal_actions())
        m.apply(a)
        model.observe(m, actor, a)
        if m.phase_name not in ("draw", "deal", "over"):  # the cards are all somewhere
            union = 0
            for h in m.hands:
                assert not union & h
                union |= h
            played = played_this_deal(m)
            assert not union & played and union | played == PIQUET_DECK
    assert model.phase == "over"
    return m


SCOTTISH_RULES = st.sampled_from(["scottish", "scottish(stop_when_decided=false)", "scottish(sets=2)"])


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=SCOTTISH_RULES, seed=st.integers(0, 2**32 - 1))
def test_random_scottish_matches_follow_the_rules(rules, seed):
    run(rules, seed)


@pytest.mark.slow
@settings(max_examples=60 * SLOW_SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=SCOTTISH_RULES, seed=st.integers(0, 2**32 - 1))
def test_random_scottish_matches_follow_the_rules_slow(rules, seed):
    run(rules, seed)


def test_the_cut_model_agrees_with_the_worked_example():
    full = set(NEG) | {"patience-1", "patience-2"}
    c = lambda n: (n - 2) * 4  # noqa: E731  (the spade of each number)
    assert model_calls([c(3), c(4)], full, True) is None
    assert model_calls([c(3), c(4), c(6)], full, True) == ("king", "queens")
    left = full - {"king", "queens"}
    assert model_calls([c(3)], left, False) == ("patience-1",)
    assert model_calls([21], left - {"patience-1"}, False) == ("patience-2",)
    assert model_calls([c(6), c(3)], {"aces", "hearts", "tricks"}, False) == ("tricks",)
    assert model_calls([20], {"aces", "hearts"}, False) == ("aces", "hearts")
