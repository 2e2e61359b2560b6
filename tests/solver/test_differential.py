"""The compiled core, its pure twin and the engine agree: legal cards, trick winners, scores, playouts.

Positions come from random legal play in the real engine (every preset and
player count, Ravage City, Trumps with both trump rules).  The quick run is part
of every test run; the slow one checks a million positions of each rule family.
"""

from __future__ import annotations

import itertools
import time

import pytest

from barbu.classic.match import Match
from barbu.classic.ruleset import presets
from barbu.core.cards import CARDS
from barbu.solver import pure
from barbu.solver.samples import random_deals

fast = pytest.importorskip("barbu.solver._fast", reason="the C core is not built")

CASES = [p.name if n == 4 else f"{p.name}(players={n})" for p in presets() for n in p.ruleset.family_spec.players]
CASES += [
    "classic(ravage_city=true)",
    "classic(heart_lead=until_broken)",
    "classic(heart_lead=first_trick)",
    "classic(stop_when_decided=false)",
    "italian(heart_lead=none)",
]


def check_deals(rules: str, deals: int, seed: int) -> int:
    """Hold both cores to the engine on ``deals`` random deals; returns the positions checked."""
    positions = 0
    for d in itertools.islice(random_deals(rules, seed), deals):
        sp = d.spec
        assert pure.legal_moves(sp, d.positions) == d.legal, rules
        assert fast.legal_moves(sp, d.positions) == d.legal, rules
        assert pure.trick_winners(sp, d.tricks) == d.trick_winners, rules
        assert fast.trick_winners(sp, d.tricks) == d.trick_winners, rules
        assert pure.deal_scores(sp, [d.outcome]) == [d.base], rules
        assert fast.deal_scores(sp, [d.outcome]) == [d.base], rules
        positions += len(d.positions)
    return positions


@pytest.mark.parametrize("rules", CASES)
def test_cores_give_the_engines_answers(rules):
    assert check_deals(rules, 12, seed=7) > 100


@pytest.mark.parametrize(
    "rules", ["classic", "italian", "salad(players=5)", "french(players=3)", "scottish", "classic(ravage_city=true)"]
)
def test_playouts_agree_card_for_card(rules):
    deals = list(itertools.islice(random_deals(rules, 3), 10))
    for d in deals:
        states = d.positions[::5]
        assert pure.playouts(d.spec, states, 12345) == fast.playouts(d.spec, states, 12345)


def engine_playout(match: Match, seed: int) -> tuple[int, ...]:
    """The engine playing, from the opening lead, the cards the playout generator picks."""
    m = match.clone()
    rng = pure.playout_seed(seed, 0)
    deals = len(m.results)
    while len(m.results) == deals:
        legal = m.legal_mask()
        rng, r = pure.splitmix64(rng)
        m.apply(CARDS[pure.nth_card(legal, r % legal.bit_count())])
    return tuple(m.results[-1].base)


@pytest.mark.parametrize(
    "rules", ["classic", "italian", "salad(players=6)", "french(players=3)", "scottish", "classic(ravage_city=true)"]
)
def test_playouts_follow_the_engine(rules):
    """A playout from the opening lead, replayed in the engine with the same choices, scores the same."""
    for i, d in enumerate(itertools.islice(random_deals(rules, 11), 10)):
        seed = 1000 + i
        expected = engine_playout(d.match, seed)
        assert fast.playouts(d.spec, [d.start], seed) == [expected]
        assert pure.playouts(d.spec, [d.start], seed) == [expected]


def test_bad_input_is_refused_in_plain_words():
    d = next(random_deals("classic", 1))
    with pytest.raises(ValueError, match="card mask"):
        fast.legal_moves(d.spec, [d.start._replace(hands=(1 << 60,) + d.start.hands[1:])])
    bad = d.start._replace(hands=(d.start.hands[0] | d.start.hands[1],) + d.start.hands[1:])
    for core in (fast, pure):
        with pytest.raises(ValueError, match="do not fit the trick"):
            core.solve(d.spec, bad)
        with pytest.raises(ValueError, match="do not fit the trick"):
            core.playouts(d.spec, [d.start._replace(hands=(0,) + d.start.hands[1:])], 1)
    with pytest.raises(ValueError, match="leader"):
        fast.legal_moves(d.spec, [d.start._replace(leader=9)])
    with pytest.raises(TypeError, match="spec"):
        fast.legal_moves((4, -1), [d.start])
    with pytest.raises(ValueError, match="players"):
        fast.legal_moves(d.spec._replace(n=9), [d.start])


# The rule families of the seeds: each case belongs to one, and the slow run checks a million positions of each.
FAMILIES = {
    "classic": "classic",
    "italian": "italian",
    "italian-six": "italian",
    "salad": "french",
    "french": "french",
    "scottish": "scottish",
}


def family_of(case: str) -> str:
    return FAMILIES[case.split("(")[0]]


def test_every_case_belongs_to_a_family():
    assert {family_of(c) for c in CASES} == set(FAMILIES.values())


@pytest.mark.slow
def test_a_million_positions_of_every_family():
    """At least a million engine positions of each rule family, shared among its cases (how long it takes is
    printed, never asserted)."""
    t0 = time.perf_counter()
    checked: dict[str, int] = {}
    for family in dict.fromkeys(FAMILIES.values()):
        cases = [c for c in CASES if family_of(c) == family]
        per_case = 1_000_000 // len(cases) + 1
        for rules in cases:
            done, seed = 0, 1000 + CASES.index(rules)
            while done < per_case:
                done += check_deals(rules, 50, seed)
                seed += 100
            checked[family] = checked.get(family, 0) + done
    print(f"\n{checked} positions in {time.perf_counter() - t0:.0f} s")
    assert all(n >= 1_000_000 for n in checked.values()) and len(checked) == 4
