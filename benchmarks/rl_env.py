"""Environment steps per second per core: the PettingZoo AEC env and the vectorised self-play env.

    python benchmarks/rl_env.py --rules classic --seconds 10

A step is one token (one card, one contract, one doubling target …) chosen
uniformly among the legal ones, observation and mask included; chance events
happen inside the steps.  Runs in one process, so the figures are per core.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import barbu.rl
from barbu.rl.vector import BarbuVectorEnv


def aec_steps(rules: str, seconds: float) -> float:
    env = barbu.rl.env(rules)
    rng = np.random.default_rng(0)
    steps, seed = 0, 0
    env.reset(seed=seed)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
            if steps % 256 == 0 and time.perf_counter() - start >= seconds:
                break
        else:
            seed += 1
            env.reset(seed=seed)
            continue
        break
    return steps / (time.perf_counter() - start)


def vector_steps(rules: str, seconds: float, num_envs: int) -> float:
    env = BarbuVectorEnv(rules, num_envs=num_envs, deals=None)
    rng = np.random.default_rng(0)
    obs, masks, seats = env.reset(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        # one random legal token per table, drawn in one go as a policy's batched sampling would be
        scores = rng.random(masks.shape) * masks
        obs, masks, seats, rewards, done = env.step(scores.argmax(axis=1))
        steps += num_envs
    return steps / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--rules", action="append", help="preset or ruleset (repeatable; default classic, scottish, besigue)"
    )
    ap.add_argument("--seconds", type=float, default=5.0, help="seconds per measurement (default 5)")
    ap.add_argument("--envs", type=int, default=64, help="tables in the vectorised env (default 64)")
    args = ap.parse_args()
    print(f"{'rules':<12} {'AEC steps/s':>12} {f'vector x{args.envs} steps/s':>22}")
    for rules in args.rules or ["classic", "scottish", "besigue"]:
        print(
            f"{rules:<12} {aec_steps(rules, args.seconds):>12,.0f} "
            f"{vector_steps(rules, args.seconds, args.envs):>22,.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
