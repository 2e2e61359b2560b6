"""Property tests for views and the sampler of unseen cards (Hypothesis).

At random points of random matches (every choice, chance included, drawn
from ``random.Random(seed)``) each seat's view must hide the other hands, and
`sample_hands` must deal the unseen cards consistently with the view: a
`determinize`d match built from the sample shows the observing seat exactly
the view it was built from.  The true hands must always satisfy the public
inferences (`cant_hold`).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, Callable

from helpers import played_this_deal
from hypo import RULESETS, SCOTTISH, fast_and_slow

from barbu import CHANCE, Match
from barbu.classic.sampler import determinize, sample_hands
from barbu.classic.view import View, infer_cant_hold
from barbu.core.actions import NO_DOUBLE


def random_action(m: Match, rng: random.Random) -> Any:
    """A random legal action (a random outcome at chance nodes); half the doubling turns pass."""
    if m.to_act() == CHANCE:
        return m.sample_chance(rng)
    legal = m.legal_actions()
    if m.phase_name == "doubling" and NO_DOUBLE in legal and rng.random() < 0.5:
        return NO_DOUBLE
    return rng.choice(legal)


def play_random(rules: str, seed: int, before: Callable[[Match], None]) -> Match:
    """Play a whole match with ``Random(seed)``; ``before(m)`` sees every position before its action."""
    rng = random.Random(seed)
    m = Match(rules, seed)
    while m.to_act() is not None:
        before(m)
        m.apply(random_action(m, rng))
    before(m)
    return m


def in_deal(m: Match) -> bool:
    """A deal is on: cards are held (the declaration, doubling and play phases)."""
    return m.phase_name in ("declare", "trump", "rank", "doubling", "play", "domino", "cut", "pass-on")


# ---------------------------------------------------------------------- the checks


def check_private(m: Match, seat: int, v: View) -> None:
    """The view holds the seat's own hand and nothing of the others' (no card is exposed, except the cards a
    seat passed on in the Scottish Silly Round, which it knows where they are, and which must be true)."""
    assert v.seat == seat
    if in_deal(m):
        assert v.hand == m.hands[seat]
    else:  # no deal in progress: at most what is left of the seat's own last hand
        assert not v.hand & ~m.hands[seat]
    assert v.known[seat] == v.hand
    passed = 0
    for p in v.passes:
        passed |= p.gave
    for o in range(m.n):
        if o != seat:
            assert not v.known[o] & ~(m.hands[o] & passed), (
                f"seat {seat}'s view knows cards of seat {o}: {v.known[o]:#x}"
            )
            if v.private_cant_hold:
                assert not m.hands[o] & v.private_cant_hold[o], f"seat {o} holds a card seat {seat} thinks it cannot"
    if v.scottish is not None:
        from barbu.classic.view import HIDDEN
        from barbu.core.actions import PassOn

        order = [(m.dealer + 1 + i) % m.n for i in range(m.n)]
        k = 0
        for a in v.deal_actions:  # another seat's pass-on choice is never shown, one's own always
            if a is HIDDEN or isinstance(a, PassOn):
                assert (a is HIDDEN) == (order[k % m.n] != seat)
                k += 1
    for r in v.results:
        assert r.hands == (), f"deal {r.number} in seat {seat}'s view keeps the hands"
    assert v.legal == (m.legal_actions() if m.to_act() == seat else ())
    if in_deal(m):
        assert v.played == played_this_deal(m)
        others = 0
        for o in range(m.n):
            if o != seat:
                others |= m.hands[o]
        known = 0
        for o in range(m.n):
            if o != seat:
                known |= v.known[o]
        assert v.unseen == others & ~known, "the unseen cards are not exactly the other hands"
        assert v.hand_sizes == tuple(h.bit_count() for h in m.hands)


def check_cant_hold_true(m: Match) -> None:
    """No public inference is wrong: no seat holds a card it 'cannot hold'."""
    cant = infer_cant_hold(m)
    for s in range(m.n):
        assert not m.hands[s] & cant[s], f"seat {s} holds {m.hands[s] & cant[s]:#x} it supposedly cannot"
    assert tuple(cant) == m.view(0).cant_hold


def compare_views(got: View, want: View, what: str) -> None:
    for field in (
        "hand",
        "trick",
        "tricks",
        "legal",
        "totals",
        "to_act",
        "phase",
        "hand_sizes",
        "cant_hold",
        "doubles",
        "contracts_left",
        "doubles_made",
        "results",
    ):
        assert getattr(got, field) == getattr(want, field), (
            f"{what}: {field} differs: {getattr(got, field)!r} != {getattr(want, field)!r}"
        )
    assert got == want, f"{what}: the views differ"


def check_sampler(m: Match, seat: int, v: View, rng: random.Random, samples: int = 2) -> None:
    """sample_hands keeps the own hand, fills every hand to size with exactly the unseen cards, respects
    cant_hold, and determinize replays the deal to the same view."""
    n = m.n
    for _ in range(samples):
        hands = sample_hands(v, rng)
        assert len(hands) == n
        assert hands[seat] == v.hand, "the sample changed the seat's own hand"
        assert tuple(h.bit_count() for h in hands) == v.hand_sizes
        union = 0
        for h in hands:
            assert not union & h, "two sampled hands share a card"
            union |= h
        assert not union & v.played, "a sampled hand holds a played card"
        assert union | v.played == v.deck == m.deck
        for s in range(n):
            assert not hands[s] & v.cant_hold[s], f"sampled seat {s} holds a card it cannot hold"
        d = determinize(v, hands)
        assert list(d.hands) == list(hands)
        compare_views(d.view(seat), v, f"seat {seat}, determinized from a sample")


def check_determinize_true_hands(m: Match) -> None:
    """Determinizing with the true hands rebuilds the position: every seat sees what it saw.  (Where other
    seats made hidden choices, the Scottish pass-ons, seat 0 cannot know them: the rebuilt ones may differ,
    so the other seats' own pass-on knowledge is left out of the comparison.)"""
    import dataclasses

    from barbu.classic.view import HIDDEN

    v0 = m.view(0)
    d = determinize(v0, list(m.hands))
    hidden = any(a is HIDDEN for a in v0.deal_actions)
    for s in range(m.n):
        got, want = d.view(s), m.view(s)
        if s != 0 and hidden:
            private = dict(known=(), deal_actions=(), passes=(), private_cant_hold=())
            got, want = dataclasses.replace(got, **private), dataclasses.replace(want, **private)
        compare_views(got, want, f"seat {s}, determinized from the true hands")


# ---------------------------------------------------------------------- the tests


def check_views_and_sampler(rules: str, seed: int) -> None:
    """At random points of a match (any phase): every seat's view is private; inside a deal every seat's
    sample is consistent and determinizes to the same view, and the true hands rebuild every view.
    At every position inside a deal the true hands satisfy cant_hold."""
    pick = random.Random(seed ^ 0x51EE)
    srng = random.Random(seed ^ 0x5A3)

    def before(m: Match) -> None:
        if in_deal(m):
            check_cant_hold_true(m)
        if pick.random() > 0.04:
            return
        for seat in range(m.n):
            v = m.view(seat)
            check_private(m, seat, v)
            if in_deal(m):
                check_sampler(m, seat, v, srng)
        if in_deal(m):
            check_determinize_true_hands(m)

    play_random(rules, seed, before)


test_views_and_sampler, test_views_and_sampler_slow = fast_and_slow(20, 25)(check_views_and_sampler)
test_views_and_sampler_scottish, test_views_and_sampler_scottish_slow = fast_and_slow(8, 25, SCOTTISH)(
    check_views_and_sampler
)


def check_sampler_in_play(rules: str, seed: int) -> None:
    """The same, concentrated where the inferences bite: late in the play of a deal."""
    pick = random.Random(seed ^ 0x1A7E)
    srng = random.Random(seed ^ 0x5A4)

    def before(m: Match) -> None:
        if m.phase_name not in ("play", "domino"):
            return
        big = m.hand_size == 13  # the 52-card games; the Scottish deals are 8 tricks, 32 cards
        late = len(m.trick_log) >= ((8 if big else 4) if m.phase_name == "play" else (25 if big else 12))
        if pick.random() > (0.08 if late else 0.005):
            return
        for seat in range(m.n):
            v = m.view(seat)
            check_private(m, seat, v)
            check_sampler(m, seat, v, srng, samples=3)

    play_random(rules, seed, before)


test_sampler_in_play, test_sampler_in_play_slow = fast_and_slow(20, 25)(check_sampler_in_play)
test_sampler_in_play_scottish, test_sampler_in_play_scottish_slow = fast_and_slow(8, 25, SCOTTISH)(
    check_sampler_in_play
)


def check_views_private_at_match_end(rules: str, seed: int) -> None:
    """At the end of the match the views still hide the hands (the last deal's unplayed cards included)."""
    m = play_random(rules, seed, lambda m: None)
    assert m.is_over
    for seat in range(m.n):
        check_private(m, seat, m.view(seat))


test_views_private_at_match_end, test_views_private_at_match_end_slow = fast_and_slow(5, 20)(
    check_views_private_at_match_end
)
test_views_private_at_match_end_scottish, test_views_private_at_match_end_scottish_slow = fast_and_slow(
    3, 10, SCOTTISH
)(check_views_private_at_match_end)


def check_sampler_outside_deals(rules: str, seed: int) -> None:
    """Where no deal is in progress (the draw, between deals, the end) nobody holds a card: the sample is
    empty hands, and determinize rebuilds the same view."""
    srng = random.Random(seed)

    def before(m: Match) -> None:
        if in_deal(m):
            return
        for seat in range(m.n):
            v = m.view(seat)
            check_private(m, seat, v)
            assert v.hand_sizes == (0,) * m.n and v.hand == 0
            hands = sample_hands(v, srng)
            assert hands == [0] * m.n
            compare_views(determinize(v, hands).view(seat), v, f"seat {seat} at {m.phase_name}, determinized")

    play_random(rules, seed, before)


def test_sampler_outside_deals() -> None:
    for rules in RULESETS + SCOTTISH:
        for seed in range(2):
            check_sampler_outside_deals(rules, seed)


def test_all_views_at_once_match_one_at_a_time() -> None:
    """`Match.views()` shares the public work between seats and must give each seat its own view."""
    from barbu.classic.ruleset import presets

    names = {f.name for f in dataclasses.fields(View)}
    cases = [(p.name, n) for p in presets() for n in p.ruleset.family_spec.players]
    cases.append(("classic(chinese_poker=true)", 4))
    for name, players in cases:
        rules = name if players == 4 or "(" in name else f"{name}(players={players})"
        rng = random.Random(players)
        m = Match(rules, 7)
        steps = 0
        while m.to_act() is not None and steps < 400:
            views = m.views()
            assert views == [m.view(s) for s in range(m.n)], f"{rules} after {len(m.history)} actions"
            for v in views:  # views are built without View.__init__: each must be a complete, valid View
                assert set(vars(v)) <= names
                assert View(**{name: getattr(v, name) for name in names}) == v
            m.apply(random_action(m, rng))
            steps += 1
        assert m.views() == [m.view(s) for s in range(m.n)]
