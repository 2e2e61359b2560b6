"""The layout solver (Domino, Success, Patience): its rules are the engine's, its values are a brute
force's through the engine, and its lines replayed in the engine score what it said."""

from __future__ import annotations

import random

import pytest

from barbu.classic.match import Match
from barbu.core.actions import PASS, Lay
from barbu.core.cards import CARDS, CardSet
from barbu.solver.layout import (
    PASS_MOVE,
    LayoutSolver,
    LayoutSpec,
    LayoutState,
    better,
    layout_spec_of,
    layout_state_of,
    legal_moves,
    play,
    solve,
)
from barbu.solver.layout_samples import layout_positions
from barbu.solver.samples import random_deals

CASES = [
    "classic",
    "italian",
    "classic(domino_ace=low)",
    "classic(stop_when_decided=false)",
    "french",
    "french(players=3)",
    "french(players=5)",
    "scottish",
]


def action(move: int):
    """The engine's action for a solver move."""
    if move == PASS_MOVE:
        return PASS
    if move & (move - 1):
        return Lay(move)
    return CARDS[move.bit_length() - 1]


def brute_force(m: Match, sign: int) -> tuple[int, ...]:
    """Plain max^n through the engine's clones (no table, no reduction), ties broken as the solver does."""
    deals = len(m.results)

    def value(x: Match) -> tuple[int, ...]:
        if len(x.results) > deals:
            return tuple(x.results[-1].scores)
        best = None
        for a in x.legal_actions():
            y = x.clone()
            y.apply(a)
            v = value(y)
            if better(v, best, x.turn, sign):
                best = v
        assert best is not None
        return best

    return value(m)


def positions(rules: str, cards: int, count: int, seed: int = 1, groups: int | None = None) -> list[Match]:
    gen = layout_positions(rules, seed, cards)
    out = []
    for m in gen:
        if groups is None or layout_spec_of(m).groups == groups:
            out.append(m)
        if len(out) == count:
            return out
    return out


@pytest.mark.parametrize("rules", CASES)
def test_moves_and_positions_are_the_engines(rules):
    """Along random lines the solver's legal moves are the engine's, in its order, and its next
    position is the engine's."""
    rng = random.Random(3)
    for m in positions(rules, 30, 4, seed=2):
        spec = layout_spec_of(m)
        deals = len(m.results)
        while len(m.results) == deals:
            st = layout_state_of(m)
            moves = legal_moves(spec, st)
            assert [action(x) for x in moves] == list(m.legal_actions())
            move = moves[int(rng.random() * len(moves))]
            nxt = play(spec, st, move)
            m.apply(action(move))
            if nxt is None:
                assert len(m.results) > deals
            else:
                assert len(m.results) == deals and nxt == layout_state_of(m)


@pytest.mark.parametrize("rules", CASES)
def test_solver_matches_brute_force_through_the_engine(rules):
    for m in positions(rules, 9, 3):
        spec, st = layout_spec_of(m), layout_state_of(m)
        assert solve(spec, st) == brute_force(m, spec.sign), rules


@pytest.mark.parametrize("groups", [1, 2])
def test_patience_runs_and_sets(groups):
    """Patience in the Player Rounds (a group only to go out) and in the Silly Round (at any time),
    single and double."""
    for m in positions("scottish", 10, 3, seed=5, groups=groups):
        spec, st = layout_spec_of(m), layout_state_of(m)
        assert spec.groups == groups
        assert solve(spec, st) == brute_force(m, spec.sign)


@pytest.mark.parametrize("rules", ["classic", "french", "scottish"])
def test_solver_lines_score_what_it_said_in_the_engine(rules):
    """Every seat plays the solver's best move to the end of the deal: the engine's scores are the
    solver's values, and each position on the way has the same value."""
    for m in positions(rules, 16, 3, seed=7):
        spec, st = layout_spec_of(m), layout_state_of(m)
        solver = LayoutSolver(spec)
        value = solver.solve(st)
        deals = len(m.results)
        while len(m.results) == deals:
            st = layout_state_of(m)
            assert solver.solve(st) == value
            best = solver.best_move(st)
            assert dict(solver.move_values(st))[best] == value
            m.apply(action(best))
        assert tuple(m.results[-1].scores) == value


def test_table_and_equivalent_cards_save_work():
    """The same positions searched with the table and the reduction visit fewer positions than there are
    paths to them (a plain max^n visits every path)."""
    m = positions("classic", 14, 1, seed=11)[0]
    spec, st = layout_spec_of(m), layout_state_of(m)
    solver = LayoutSolver(spec)
    solver.solve(st)

    def paths(s: LayoutState) -> int:
        total = 1
        for move in legal_moves(spec, s):
            nxt = play(spec, s, move)
            if nxt is not None:
                total += paths(nxt)
        return total

    assert solver.nodes < paths(st)


def test_a_worked_domino_ending():
    """Classic Domino from the 7s, ace high: North holds 8♠ 9♠, East 10♠, South J♠ and West 6♠.

    The spade row is 7♠ alone.  North must lay 8♠ (he cannot pass with a card that fits), East
    cannot lay 10♠ before the 9♠, South passes, West goes out with 6♠ first (45), North then lays
    9♠ and goes out second (20), and East and South take the last places (5 and −5 in this order:
    East lays 10♠ and is out, South is left alone)."""
    m = Match("classic")
    c = m.contract_by_key["domino"]
    spec = LayoutSpec(4, m.deck, True, tuple(c.finishing), c.ends_after, True, False, 0, True, (), 1)
    hands = tuple(CardSet(h.split()).mask for h in ("8S 9S", "TS", "JS", "6S"))
    seven = 5  # the rank index of a 7
    playable = (1 << seven + 1) | (1 << seven - 1) | sum(1 << (s * 13 + seven) for s in range(1, 4))
    st = LayoutState(hands, ((seven, seven), None, None, None), playable, seven, 0, False, 0, ())
    assert solve(spec, st) == (20, 5, -5, 45)


def test_only_layout_deals_are_solved():
    m = next(random_deals("classic", 1)).match  # a trick-taking deal at its opening lead
    with pytest.raises(ValueError, match="layout solver"):
        layout_spec_of(m)
    with pytest.raises(ValueError, match="layout solver"):
        layout_state_of(m)
