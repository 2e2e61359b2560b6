"""A trained policy sits at any table as the computer player ``policy:PATH``."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")  # the rl extra (with gymnasium and numpy)

import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from barbu.agents import make_agent
from barbu.agents.besigue import make_besigue_agent
from barbu.agents.play import agent_for
from barbu.core.errors import AgentError
from barbu.games import open_game
from barbu.rl.policy import MaskedPolicy, PolicyAgent
from barbu.rl.vector import BarbuVectorEnv

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def policies(tmp_path_factory):
    folder = tmp_path_factory.mktemp("policies")
    out = {}
    for game in ("barbu", "besigue"):
        p = MaskedPolicy(game, hidden=16, seed=3)
        out[game] = folder / f"{game}.npz"
        p.save(out[game])
    return out


def test_save_and_load_give_the_same_choices(policies):
    p = MaskedPolicy.load(policies["barbu"])
    q = MaskedPolicy("barbu", hidden=16, seed=3)
    obs = np.random.default_rng(1).random((5, p.w1.shape[0]), dtype=np.float32)
    mask = np.random.default_rng(2).random((5, p.w2.shape[1])) < 0.3
    mask[:, 0] = True
    assert np.allclose(p.forward(obs, mask)[1], q.forward(obs, mask)[1])
    assert (p.forward(obs, mask)[1][~mask] == 0).all()


@pytest.mark.parametrize("rules", ["classic(chinese_poker=true)", "scottish", "french(players=3)", "besigue"])
def test_policy_player_plays_whole_deals(rules, policies, plugin_path):
    game = open_game(rules, 4)
    kind = "besigue" if rules == "besigue" else "barbu"
    agents = [agent_for(game, f"policy:{policies[kind]}", s) for s in range(game.n)]
    agents[1] = agent_for(game, "random", 1)
    deals = 0
    while not game.is_over and len(game.results) < 3:
        seat = game.to_act()
        if seat == -1:
            game.play_chance()
            continue
        game.apply(agents[seat].act(game.view(seat)))
        deals = len(game.results)
    assert deals == 3


def test_sampling_mode_and_wrong_game(policies, plugin_path):
    a = make_agent(f"policy:{policies['barbu']}@sample", 5)
    assert isinstance(a, PolicyAgent) and a.rng is not None
    with pytest.raises(AgentError, match="Bésigue"):
        make_besigue_agent(f"policy:{policies['barbu']}")
    with pytest.raises(AgentError, match="greedy or sample"):
        make_agent(f"policy:{policies['barbu']}@best")


def test_bad_files_are_refused_in_words(tmp_path, plugin_path):
    with pytest.raises(AgentError, match="no policy file"):
        make_agent(f"policy:{tmp_path / 'none.npz'}")
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a policy")
    with pytest.raises(AgentError, match="not a policy file"):
        make_agent(f"policy:{junk}")
    with pytest.raises(AgentError, match="unknown computer player 'magic'"):
        make_agent("magic:x")
    with pytest.raises(AgentError, match="argument"):
        make_agent("policy:")


def test_arena_on_the_command_line(policies, plugin_path, tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(plugin_path)]))
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "barbu",
            "arena",
            "--rules",
            "salad(players=3)",
            "--bots",
            f"policy:{policies['barbu']},random,rule",
            "--deals",
            "3",
            "--workers",
            "1",
            "--out",
            str(tmp_path / "arena"),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert "policy:" in out.stdout and "random" in out.stdout


def test_vector_env_steps_many_tables():
    env = BarbuVectorEnv("classic", num_envs=3, deals=1)
    obs, masks, seats = env.reset(7)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        tokens = [int(rng.choice(np.flatnonzero(m))) for m in masks]
        obs, masks, seats, rewards, done = env.step(np.array(tokens))
        finished += int(done.sum())
        assert masks.any(axis=1).all()
        assert all(env.tables[i].to_act == seats[i] for i in range(3))
    assert finished >= 3


def test_play_against_a_policy_and_a_bad_file_writes_nothing(policies, plugin_path, tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(plugin_path)]))

    def play(opponents: str, save: Path) -> subprocess.CompletedProcess:
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "barbu",
                "play",
                "--plain",
                "--rules",
                "classic",
                "--seed",
                "3",
                "--opponents",
                opponents,
                "--save",
                str(save),
            ],
            input="quit\n",
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
            cwd=tmp_path,
        )

    out = play(f"policy:{policies['barbu']}", tmp_path / "good.jsonl")
    assert out.returncode == 0, out.stderr
    assert "against 3 computer players" in out.stdout and "Nothing was played" in out.stdout  # quit at once
    out = play(f"policy:{tmp_path / 'missing.npz'}", tmp_path / "bad.jsonl")
    assert out.returncode != 0 and "no policy file" in out.stderr
    assert not (tmp_path / "bad.jsonl").exists()
