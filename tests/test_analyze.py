"""barbu analyze: every real choice weighed from the seat's view and, late in a deal, with every hand shown."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any
import subprocess
import sys

from barbu.agents import make_agent
from barbu.analysis import review_match
from barbu.analysis.review import layout_values
from barbu.classic.match import CHANCE, PLAY, Match
from barbu.core.cards import CARDS
from barbu.records.barbu import write_record
from barbu.solver import fast
from barbu.solver.position import objective, spec_of, state_of


def play_one_deal(seed: int, worst_seat: int | None = None,
                  worst: Callable[[Match], list[tuple[Any, int]]] | None = None) -> tuple[Match, list[str], int]:
    """A deal of rule players; ``worst_seat`` plays the exactly worst action whenever ``worst`` (the exact
    value of each legal action, or none; by default the trick solver's late in the deal) can tell.

    Returns the match, the actions' texts and the points the worst seat's choices threw away.
    """
    m = Match("classic", seed)
    thrown = 0
    agents = [make_agent("rule", seed * 10 + s) for s in range(4)]
    rng = random.Random(seed)
    texts = []
    while not m.results:
        actor = m.to_act()
        if actor == CHANCE:
            action = m.sample_chance(rng)
            m.apply(action)
        else:
            action = agents[actor].act(m.view(actor))
            if actor == worst_seat:
                values = (worst or card_values)(m)
                if len(values) > 1:
                    action, low = min(values, key=lambda av: av[1])
                    thrown += max(v for _, v in values) - low
            m.apply(action, seat=actor)
        texts.append(str(action))
    return m, texts, thrown


def card_values(m: Match) -> list[tuple[Any, int]]:
    """Each legal card's exact value once every hand holds at most five cards (trick play), else none."""
    if m.phase != PLAY or max(h.bit_count() for h in m.hands) > 5:
        return []
    return [(CARDS[c], v) for c, v in fast.move_values(objective(spec_of(m), 1), [state_of(m)])[0]]


def trick_deal(seed: int, worst_seat: int | None = None) -> tuple[int, list[str], int]:
    """The first seed from ``seed`` on whose first deal is played in tricks (and, with a worst seat, costs it)."""
    while True:
        m, texts, thrown = play_one_deal(seed, worst_seat)
        if m.results[0].contract != "domino" and (worst_seat is None or thrown):
            return seed, texts, thrown
        seed += 1


def test_every_weighed_decision_is_consistent():
    seed, texts, _ = trick_deal(7)
    review = review_match("classic", seed, texts, samples=8, seconds=5, exact_cards=5)
    assert review.decisions and all(d.deal == 1 for d in review.decisions)
    exact = [d for d in review.decisions if d.exact_values]
    assert exact, "the last tricks are solved exactly"
    for d in exact:
        assert d.phase == "play" and d.exact_cost is not None and d.exact_cost >= 0
        assert d.exact_cost == d.exact_values[0][1] - dict(d.exact_values)[d.chosen]
    for d in review.decisions:
        assert d.cost is None or d.cost >= 0
        assert d.values and (d.best == d.values[0][0])


def test_throwing_points_away_shows_as_an_exact_cost_for_that_seat_only():
    seed, texts, thrown = trick_deal(11, worst_seat=2)
    review = review_match("classic", seed, texts, samples=4, seconds=5, exact_cards=5, seats={1, 2})
    assert {d.seat for d in review.decisions} <= {1, 2}
    assert review.total_exact_cost(2) == thrown > 0
    worst = review.costliest(2, 3)
    assert worst and all(d.seat == 2 for d in worst)


def test_the_command_line_lists_costs_and_each_players_costliest(tmp_path):
    m, _, _ = play_one_deal(5)
    path = tmp_path / "game.jsonl"
    write_record(m, path)
    out = subprocess.run([sys.executable, "-m", "barbu", "analyze", str(path), "--deal", "1", "--samples", "4",
                          "--all"], capture_output=True, text=True, timeout=600, env={"COLUMNS": "120", "PATH": ""})
    assert out.returncode == 0, out.stderr
    assert "what each decision cost" in out.stdout and "costliest decisions" in out.stdout
    bad = subprocess.run([sys.executable, "-m", "barbu", "analyze", str(tmp_path / "missing.jsonl")],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "cannot read" in bad.stderr


def domino_deal(seed: int, worst_seat: int) -> tuple[int, list[str], int]:
    """The first seed from ``seed`` whose first deal is a Domino in which ``worst_seat`` makes, whenever the
    layout solver can tell, the move it rates worst; with the points those moves threw away (max^n values)."""
    def layout(m: Match) -> list[tuple[Any, int]]:
        return layout_values(m, m.to_act()) if max(h.bit_count() for h in m.hands) <= 7 else []
    while True:
        m, texts, thrown = play_one_deal(seed, worst_seat, layout)
        if m.results[0].contract == "domino" and thrown:
            return seed, texts, thrown
        seed += 1


def test_domino_moves_get_exact_values_from_the_layout_solver():
    seed, texts, thrown = domino_deal(1, worst_seat=3)
    review = review_match("classic", seed, texts, samples=4, seconds=5, seats={0, 3})
    exact = [d for d in review.decisions if d.exact_values]
    assert exact and {d.seat for d in exact} == {0, 3}
    for d in exact:
        assert d.phase == "domino" and d.exact_cost is not None and d.exact_cost >= 0
        assert d.exact_cost == d.exact_values[0][1] - dict(d.exact_values)[d.chosen]
    assert review.total_exact_cost(3) == thrown > 0
