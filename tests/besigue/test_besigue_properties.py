"""Property tests over random play: cards conserved, melds from cards held, views and the sampler agree."""

from __future__ import annotations

import random

import pytest
from bhelpers import play_until
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from barbu.agents.besigue import RandomAgent, RuleAgent
from barbu.besigue import BesigueGame
from barbu.besigue.actions import Declare
from barbu.besigue.sampler import sample_game

RULES = st.sampled_from(
    [
        "besigue",
        "besigue-english",
        "besigue(hand=8)",
        "besigue(seven=exchange)",
        "besigue(endgame=must_win, brisques=aces_and_tens)",
    ]
)


def where(g: BesigueGame) -> list[int]:
    return (
        [c for h in g.hands for c in h]
        + [c for t in g.table for c in t]
        + g.stock
        + [c for w in g.won for c in w]
        + [c for _, c in g.trick]
    )


def comparable(view) -> tuple:  # type: ignore[no-untyped-def]
    return (
        view.hand,
        view.opponent_hand_size,
        view.opponent_known,
        view.table,
        view.melds,
        view.trick,
        view.played,
        view.won,
        view.shown,
        view.scores,
        view.turn_up,
        view.stock_size,
        view.phase,
        tuple(str(a) for a in view.legal),
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=RULES, seed=st.integers(0, 2**32 - 1), rule_bots=st.booleans())
def test_random_play_keeps_every_invariant(rules: str, seed: int, rule_bots: bool) -> None:
    g = BesigueGame(rules, seed)
    rng = random.Random(seed)
    bots = [RuleAgent(seed), RandomAgent(seed + 1)] if rule_bots else [RandomAgent(seed), RandomAgent(seed + 1)]
    while g.deal_no < 2 and not g.is_over:
        seat = g.to_act()
        if seat == -1:
            g.play_chance()
            continue
        assert seat is not None
        if g.phase not in ("shuffle", "first-dealer"):
            cards = where(g)
            assert sorted(cards) == list(range(64)), "64 cards, each in exactly one place"
            view = g.view(seat)
            other = g.view(1 - seat)
            assert not set(view.hand) & set(other.hand)
            assert set(view.opponent_known) <= g.hands[1 - seat]
            assert other.legal == ()
            hidden = g.hands[1 - seat] - g.revealed[1 - seat]
            shown_to_seat = set(view.hand) | set(view.opponent_known) | {c for _, c in view.played}
            assert not hidden & shown_to_seat, "the opponent's unrevealed cards stay hidden"
            assert view.turn_up is None or view.turn_up == g.stock[-1]
            # the sampler agrees with the view, and keeps the seat's own cards
            sample = sample_game(view, rng)
            assert comparable(sample.view(seat)) == comparable(view)
            assert sorted(where(sample)) == list(range(64))
            if not g.stock:
                assert sample.hands == g.hands, "after the stock every card is known"
        action = bots[seat].act(g.view(seat))
        if isinstance(action, Declare):
            in_hand, on_table = set(g.hands[seat]), set(g.table[seat])
            g.apply(action)
            declared = set(g.melds[seat][-1][1])
            assert declared <= in_hand | on_table, "a combination only from cards held or on the table"
            assert declared & in_hand, "at least one card from the hand"
        else:
            g.apply(action)
    totals = [0, 0]
    for r in g.results:
        totals = [totals[s] + r["scores"][s] for s in (0, 1)]
        assert r["totals"] == totals


@pytest.mark.slow
def test_a_game_to_1000_across_several_deals() -> None:
    g = BesigueGame("besigue", 2024)
    play_until(g)
    assert len(g.results) >= 2
    assert max(g.totals) >= 1000 and g.totals[0] != g.totals[1]
    assert all(max(r["totals"]) < 1000 or r is g.results[-1] or r["totals"][0] == r["totals"][1] for r in g.results)
    assert g.totals == [sum(r["scores"][s] for r in g.results) for s in (0, 1)]
    assert g.winner == (0 if g.totals[0] > g.totals[1] else 1)


def test_a_short_game_ends_at_the_target() -> None:
    g = BesigueGame("besigue(target=200)", 5)
    play_until(g)
    assert max(g.totals) >= 200 and g.to_act() is None and g.legal_actions() == []
