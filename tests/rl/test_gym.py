"""The Gymnasium wrapper: one learner among computer players, masks for masked policy gradients."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")  # the rl extra (with gymnasium and numpy)

import numpy as np
from gymnasium.utils.env_checker import data_equivalence

from barbu.core.errors import AgentError
from barbu.rl.gym_env import BarbuGymEnv


def run(env, seed, pick=0):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(pick)
    trace, total, done = [obs], 0.0, False
    while not done:
        mask = env.action_masks()
        assert mask.any() and (info["action_mask"] == mask).all()
        assert env.observation_space.contains(obs)
        obs, r, done, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert not trunc
        trace.append(obs)
        total += r
    assert not env.action_masks().any()
    return trace, total


@pytest.mark.parametrize("rules", ["classic", "salad", "scottish", "besigue", "french"])
def test_episode_pays_the_learners_points(rules):
    env = BarbuGymEnv(rules, seat=1, opponents="rule", deals=2)
    _, total = run(env, 4)
    sign = -1 if rules == "french" else 1
    assert total == sign * env.table.totals()[1]


def test_same_seed_same_episode():
    a, b = (BarbuGymEnv("classic", opponents="random", deals=1) for _ in range(2))
    ta, ra = run(a, 12)
    tb, rb = run(b, 12)
    assert ra == rb and len(ta) == len(tb) and all(data_equivalence(x, y) for x, y in zip(ta, tb))


def test_random_seat_and_mixed_opponents():
    env = BarbuGymEnv(
        "salad", players=3, seat=None, opponents=["random", "rule", "search(samples=2, seconds=0.05)"], deals=1
    )
    seats = set()
    for seed in range(6):
        run(env, seed)
        seats.add(env.seat)
    assert len(seats) > 1


def test_bad_settings_are_refused():
    with pytest.raises(AgentError):
        BarbuGymEnv("classic", opponents="genius")
    with pytest.raises(ValueError, match="seat"):
        BarbuGymEnv("classic", seat=4)
    env = BarbuGymEnv("classic", deals=1)
    env.reset(seed=1)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(bad)


def test_the_learners_own_entry_is_ignored_when_its_seat_is_fixed():
    env = BarbuGymEnv("salad", players=3, seat=1, opponents=["rule", "learner", "random"], deals=1)
    run(env, 2)
    assert env.opponents[1] is None and env.opponents[0].name != env.opponents[2].name
    with pytest.raises(AgentError, match="learner"):  # with a random seat, every entry may play
        BarbuGymEnv("salad", players=3, seat=None, opponents=["rule", "learner", "random"], deals=1)
