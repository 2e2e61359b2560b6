"""The OpenSpiel games: registered in pyspiel, OpenSpiel's own random-simulation test, chance nodes, ISMCTS."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")  # the rl extra (with gymnasium and numpy)

import random

import numpy as np

pyspiel = pytest.importorskip("pyspiel")

from barbu.rl import openspiel as rl_spiel  # noqa: E402  (registers the games)
from barbu.rl.chance import chance_event, chance_outcomes  # noqa: E402
from barbu.rl.table import Table  # noqa: E402


@pytest.mark.parametrize(
    "name,rules",
    [
        ("python_barbu", "classic"),
        ("python_barbu", "salad(players=3)"),
        ("python_barbu", "scottish"),
        ("python_besigue", "besigue"),
    ],
)
def test_random_simulation(name, rules):
    game = pyspiel.load_game(name, {"rules": rules, "deals": 1})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize(
    "rules", ["italian", "italian-six", "french(players=6)", "classic(chinese_poker=true)", "salad(players=6)"]
)
def test_random_simulation_more_presets(rules):
    game = pyspiel.load_game("python_barbu", {"rules": rules, "deals": 2})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_deal_is_52_chance_nodes_and_tensors_have_their_sizes():
    game = pyspiel.load_game("python_barbu", {"rules": "classic", "deals": 1})
    assert game.num_players() == 4 and game.num_distinct_actions() == rl_spiel.Table("classic").spec.num_actions
    state = game.new_initial_state()
    chance = 0
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        state.apply_action(outcomes[0][0])
        chance += 1
    assert chance >= 4 + 52  # the draw for the first dealer (one card a seat), then 52 cards
    seat = state.current_player()
    assert len(state.information_state_tensor(seat)) == game.information_state_tensor_size()
    assert len(state.observation_tensor(seat)) == game.observation_tensor_size()
    assert state.legal_actions() == sorted(state.legal_actions()) and state.legal_actions()
    assert "hand" in state.observation_string(seat)


def test_chance_steps_have_the_engines_distribution():
    t = Table("scottish", auto_chance=False)
    t.reset(0)
    outcomes = dict(chance_outcomes(t.game, []))  # the draw from the Unused Pack: the Joker is there twice
    assert outcomes[20] == pytest.approx(2 / 23) and outcomes[0] == pytest.approx(1 / 23)
    assert chance_event(t.game, [0, 1, 2]) is None
    t = Table("besigue", auto_chance=False)
    t.reset(0)
    assert chance_outcomes(t.game, []) == [(0, 0.5), (1, 0.5)]


def test_resample_keeps_the_players_information():
    game = pyspiel.load_game("python_barbu", {"rules": "classic", "deals": 1})
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal() and len(state.history()) < 120:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    for player in range(4):
        other = state.resample_from_infostate(player, rng.random)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert np.array_equal(other.information_state_tensor(player), state.information_state_tensor(player))
        assert other.current_player() == seat


@pytest.mark.slow
def test_ismcts_plays_a_deal():
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_barbu", {"rules": "classic", "deals": 1})
    rs = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 5, random_state=rs)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rs.choice(outcomes, p=probs)))
        else:
            state.apply_action(bot.step(state))
    assert any(state.returns())


def test_openspiel_algorithms_run_on_them():
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = pyspiel.load_game("python_barbu", {"rules": "salad(players=3)", "deals": 1})
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(3):
        solver.iteration()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    probs = solver.average_policy().action_probabilities(state)
    assert set(probs) == set(state.legal_actions()) and sum(probs.values()) == pytest.approx(1.0)
    env = rl_environment.Environment(game)
    ts = env.reset()
    rng = np.random.default_rng(0)
    returns = np.zeros(3)
    while not ts.last():
        player = ts.observations["current_player"]
        ts = env.step([int(rng.choice(ts.observations["legal_actions"][player]))])
        returns += ts.rewards
    assert len(ts.observations["info_state"][0]) == game.information_state_tensor_size()
    assert any(returns)


def test_the_player_count_is_a_parameter_of_the_game_string():
    """OpenSpiel's game strings cannot hold ``salad(players=5)``: ``players`` says it, and serialization works."""
    game = pyspiel.load_game("python_barbu(rules=salad,players=5,deals=1)")
    assert game.num_players() == 5 and game.get_parameters()["players"] == 5
    assert pyspiel.load_game("python_barbu", {"rules": "french", "players": 3}).num_players() == 3
    assert pyspiel.load_game("python_barbu(rules=scottish)").num_players() == 4  # 0: the ruleset's own
    state = game.new_initial_state()
    rng = random.Random(0)
    for _ in range(120):
        state.apply_action(
            rng.choice([a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions())
        )
    _, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert again.information_state_string(1) == state.information_state_string(1)
    with pytest.raises(Exception, match="classic is played by 4 players"):
        pyspiel.load_game("python_barbu(rules=classic,players=5)")


def test_a_public_only_observer_is_refused_not_given_the_hand():
    game = pyspiel.load_game("python_barbu", {"rules": "classic", "deals": 1})
    public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    with pytest.raises(ValueError, match="one seat only"):
        game.make_py_observer(public)
    own = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER
    )
    assert game.make_py_observer(own).tensor.shape == (game.observation_tensor_size(),)
    from open_spiel.python.observation import make_observation

    assert make_observation(game).tensor.shape == (game.observation_tensor_size(),)  # None: the observation
    recall = pyspiel.IIGObservationType(perfect_recall=True)
    assert make_observation(game, recall).tensor.shape == (game.information_state_tensor_size(),)
