"""The perfect-information player (measurement only): legal, exact at the end of deals, minimising where fewest points win."""

from __future__ import annotations

import itertools
import random

import pytest
from test_solver import brute_force, ending, match_at

from barbu import CHANCE, Match
from barbu.agents import AGENT_KINDS
from barbu.agents.oracle import OracleAgent
from barbu.solver import fast, pure
from barbu.solver.position import objective
from barbu.solver.samples import random_deals


def test_the_oracle_is_not_offered_to_players():
    assert "oracle" not in AGENT_KINDS


@pytest.mark.parametrize("rules", ["classic", "french(players=3)"])
def test_the_oracle_plays_whole_deals_legally(rules):
    m = Match(rules, 3)
    rng = random.Random(3)
    agents = [OracleAgent(s, exact_cards=4, match=m) for s in range(m.n)]
    deals = 0
    while deals < 3:
        if m.to_act() == CHANCE:
            m.apply(m.sample_chance(rng))
            continue
        before = len(m.results)
        seat = m.to_act()
        action = agents[seat].act(m.view(seat))
        assert action in m.legal_actions()
        m.apply(action, seat=seat)
        deals += len(m.results) > before


@pytest.mark.parametrize("rules", ["classic", "french(players=4)", "salad(players=5)"])
def test_at_the_end_of_a_deal_the_oracle_takes_an_exact_best_card(rules):
    sign = 1 if Match(rules).rules.family_spec.highest_wins else -1
    checked = 0
    for d in itertools.islice(random_deals(rules, 31), 10):
        i = ending(d, 2)
        if i is None:
            continue
        m = match_at(d, i)
        seat = m.turn
        card = OracleAgent(0, match=m).act(m.view(seat))
        after = m.clone()
        after.apply(card)
        mine = brute_force(after, seat) if sign > 0 else -brute_force(after, seat, most=False)
        values = fast.move_values(objective(d.spec, sign), [d.positions[i]])[0]
        assert mine == max(v for _, v in values)
        checked += 1
    assert checked >= 3


def test_objective_turns_penalty_points_into_a_loss():
    d = next(random_deals("french(players=3, stop_when_decided=false)", 2))
    st = d.positions[-1]
    assert fast.solve(objective(d.spec, -1), st) == tuple(-v for v in d.base)
    assert pure.solve(objective(d.spec, -1), st) == tuple(-v for v in d.base)
