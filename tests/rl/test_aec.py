"""The PettingZoo environment passes PettingZoo's own API and seeding tests, for every game."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")  # the rl extra (with gymnasium and numpy)

from pettingzoo.test import api_test, seed_test

import barbu.rl
from barbu.core.errors import RulesetError

QUICK = [
    ("classic", None),
    ("italian", None),
    ("italian-six", None),
    ("salad", 3),
    ("french", 6),
    ("scottish", None),
    ("besigue", None),
    ("classic(chinese_poker=true, ravage_city=true)", None),
]
EVERY = [
    (p, n)
    for p, ns in (
        ("classic", (4,)),
        ("italian", (4,)),
        ("italian-six", (4,)),
        ("salad", (3, 4, 5, 6)),
        ("french", (3, 4, 5, 6)),
        ("scottish", (4,)),
        ("besigue", (2,)),
    )
    for n in ns
]


@pytest.mark.parametrize("rules,players", QUICK)
def test_api(rules, players):
    api_test(barbu.rl.env(rules, players, deals=1), num_cycles=200)


@pytest.mark.parametrize("rules,players", QUICK[:3] + QUICK[-2:])
def test_seeding(rules, players):
    seed_test(lambda: barbu.rl.env(rules, players, deals=2), num_cycles=200)


@pytest.mark.slow
@pytest.mark.parametrize("rules,players", EVERY)
def test_api_every_preset_and_player_count(rules, players):
    api_test(barbu.rl.env(rules, players, deals=3), num_cycles=1000)


@pytest.mark.slow
@pytest.mark.parametrize(
    "rules,players",
    EVERY + [("classic(allow_no_trump=true, domino_ace=low, rotation=quick)", 4), ("besigue(seven=exchange)", 2)],
)
def test_seeding_every_preset_and_player_count(rules, players):
    seed_test(lambda: barbu.rl.env(rules, players, deals=2), num_cycles=300)


def play(env, seed=0):
    """Play an episode with the first legal token each turn; each agent's summed rewards."""
    env.reset(seed=seed)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        env.step(None if term or trunc else int(obs["action_mask"].argmax()))
    return total


def test_rewards_are_the_deal_points():
    e = barbu.rl.env("classic", deals=2)
    total = play(e, 5)
    table = e.unwrapped.table
    assert [total[f"seat_{s}"] for s in range(4)] == table.totals()
    assert table.totals() == list(table.game.totals) and any(total.values())


def test_lowest_wins_is_negated():
    e = barbu.rl.env("french", 4, deals=2)
    total = play(e, 5)
    assert [total[f"seat_{s}"] for s in range(4)] == [-x for x in e.unwrapped.table.totals()]
    assert any(total.values())


def test_match_reward_pays_once_at_the_end():
    e = barbu.rl.env("classic", deals=3, reward="match")
    total = play(e, 9)
    assert [total[f"seat_{s}"] for s in range(4)] == e.unwrapped.table.totals()


def test_bad_rules_and_illegal_tokens_are_refused():
    with pytest.raises(RulesetError):
        barbu.rl.env("classic", players=5)
    with pytest.raises(RulesetError):
        barbu.rl.env("besigue", players=3)
    e = barbu.rl.env("classic", deals=1)
    e.reset(seed=1)
    obs = e.observe(e.agent_selection)
    bad = int(obs["action_mask"].argmin())
    with pytest.raises(ValueError, match="legal tokens"):
        e.step(bad)
    assert (e.observe(e.agent_selection)["action_mask"] == obs["action_mask"]).all()
