"""The training example: its gradients are the loss's (checked by finite differences), and it runs end to end."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")  # the rl extra (with gymnasium and numpy)

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from barbu.rl.policy import MaskedPolicy

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("train_masked", ROOT / "examples" / "train_masked.py")
train = importlib.util.module_from_spec(spec)
spec.loader.exec_module(train)


def policy_loss(policy, obs, mask, tokens, adv, entropy):
    """What `gradients` differentiates for the policy: −mean(adv · log π(token)) − entropy · mean(H)."""
    _, p = policy.forward(obs, mask)
    logp = np.log(np.where(mask, p, 1.0))
    n = len(tokens)
    return -(adv * logp[np.arange(n), tokens]).mean() + entropy * (p * logp).sum(axis=1).mean()


def test_gradients_match_finite_differences():
    rng = np.random.default_rng(0)
    policy = MaskedPolicy("besigue", hidden=6, seed=1)
    policy.w1 = policy.w1[:, :].astype(np.float64)
    for name in ("b1", "w2", "b2"):
        setattr(policy, name, getattr(policy, name).astype(np.float64))
    policy.w2 += rng.standard_normal(policy.w2.shape) * 0.5
    value = rng.standard_normal(7)
    obs = rng.random((5, policy.w1.shape[0]))
    mask = rng.random((5, policy.w2.shape[1])) < 0.2
    mask[:, 3] = True
    tokens = np.array([int(rng.choice(np.flatnonzero(m))) for m in mask])
    returns = rng.standard_normal(5)
    grads, grad_value = train.gradients(policy, value, obs, mask, tokens, returns, entropy=0.05)
    h, _ = policy.forward(obs, mask)
    adv = returns - (h @ value[:-1] + value[-1])
    adv = adv / (adv.std() + 1e-6)  # the advantage is a constant of the policy loss

    def numeric(param, index):
        old = param[index]
        param[index] = old + 1e-6
        up = policy_loss(policy, obs, mask, tokens, adv, 0.05)
        param[index] = old - 1e-6
        down = policy_loss(policy, obs, mask, tokens, adv, 0.05)
        param[index] = old
        return (up - down) / 2e-6

    for param, grad in zip(policy.params, grads):
        for index in [tuple(rng.integers(s) for s in param.shape) for _ in range(6)]:
            assert np.isclose(grad[index], numeric(param, index), rtol=1e-4, atol=1e-7)
    # the value head's gradient, with the hidden layer held (it does not train the shared layer)
    for i in range(7):
        v2 = value.copy()
        v2[i] += 1e-6
        up = 0.5 * ((h @ v2[:-1] + v2[-1] - returns) ** 2).mean()
        v2[i] -= 2e-6
        down = 0.5 * ((h @ v2[:-1] + v2[-1] - returns) ** 2).mean()
        assert np.isclose(grad_value[i], (up - down) / 2e-6, rtol=1e-4, atol=1e-7)


def test_the_example_trains_and_saves_a_playable_policy(tmp_path, plugin_path):
    out = tmp_path / "p.npz"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(plugin_path)]))
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "examples" / "train_masked.py"),
            "--rules",
            "salad(players=3)",
            "--minutes",
            "0.02",
            "--batch",
            "1",
            "--hidden",
            "16",
            "--out",
            str(out),
            "--arena",
            "3",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    assert "saved" in run.stdout and "duplicate arena, 3 boards" in run.stdout
    assert MaskedPolicy.load(out).rules == "salad(players=3)"
