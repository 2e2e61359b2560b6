"""Gymnasium single-agent wrapper: one seat learns, the other seats are the project's computer players.

``BarbuGymEnv("classic", opponents="rule")`` — observations are the seat's
arrays (`barbu.rl.observe`), actions the family's tokens (`barbu.rl.codec`),
and ``action_masks()`` the tokens allowed now (also in ``info["action_mask"]``),
as masked policy-gradient methods expect (sb3-contrib's MaskablePPO, for one).
The computer players see only their own seat's view, as everywhere else.
"""

from __future__ import annotations

from typing import Any, Sequence

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..agents.play import agent_for
from ..core.errors import IllegalAction
from .rules import rules_text
from .table import Table


class BarbuGymEnv(gym.Env):
    """``seat``: the learner's seat (None: a random seat each episode); ``opponents``: one computer player
    for every other seat (``random``, ``rule``, ``search(samples=…)``, ``policy:PATH``) or one per seat."""

    metadata = {"render_modes": []}

    def __init__(
        self,
        rules: str = "classic",
        players: int | None = None,
        seat: int | None = 0,
        opponents: "str | Sequence[str]" = "random",
        deals: int | None = 1,
        reward: str = "deal",
        scale: float = 1.0,
    ) -> None:
        self.table = Table(rules_text(rules, players), deals=deals, reward=reward, scale=scale)
        n = self.table.n
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"seat must be 0 to {n - 1}")
        specs = [opponents] * n if isinstance(opponents, str) else list(opponents)
        if len(specs) != n:
            raise ValueError(f"give one computer player for each of the {n} seats (the learner's is ignored)")
        for s, spec in enumerate(specs):
            if s != seat:  # an unknown player is refused now, in plain words (seat None: any seat may play)
                agent_for(self.table.game, spec, 0)
        self.specs = specs
        self.fixed_seat = seat
        self.seat = seat or 0
        self.opponents: list[Any] = []
        sizes = self.table.spec
        self.observation_space = spaces.Box(-np.inf, np.inf, (sizes.obs_size,), np.float32)
        self.action_space = spaces.Discrete(sizes.num_actions)
        self._seed_rng = np.random.default_rng()

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        if seed is not None:  # the deals and the computer players' choices follow from the seed
            self._seed_rng = np.random.default_rng(seed)
        game_seed = int(self._seed_rng.integers(2**62))
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(self._seed_rng.integers(self.table.n))
        self.table.reset(game_seed)
        self.opponents = [
            None if s == self.seat else agent_for(self.table.game, spec, game_seed % 10**9 * 10 + s)
            for s, spec in enumerate(self.specs)
        ]
        reward = self._others()
        return self._obs(), {"action_mask": self.action_masks(), "points": reward}

    def action_masks(self) -> np.ndarray:
        """The tokens the learner may choose now (all False once the episode is over)."""
        return (
            self.table.mask().astype(bool)
            if self.table.to_act == self.seat
            else np.zeros(self.table.spec.num_actions, bool)
        )

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        if self.table.to_act != self.seat:
            raise RuntimeError("the episode is over: call reset()")
        try:
            rewards = self.table.step(int(action))
        except IllegalAction as e:
            raise ValueError(f"{e}; the legal tokens are {self.table.legal_tokens()}") from None
        reward = rewards[self.seat] + self._others()
        done = self.table.to_act is None
        return self._obs(), reward, done, False, {"action_mask": self.action_masks()}

    def _others(self) -> float:
        """Let the computer players act until the learner's turn or the end; the learner's rewards meanwhile."""
        t = self.table
        reward = 0.0
        while t.to_act is not None and t.to_act != self.seat:
            seat = t.to_act
            reward += t.act(self.opponents[seat].act(t.game.view(seat)))[self.seat]
        return reward

    def _obs(self) -> np.ndarray:
        return self.table.observe(self.seat)
