"""A vectorised self-play environment: many tables stepped together, observations written into one array.

Every seat of every table is played by the caller (self-play), so a batch of
tokens comes from one forward pass of a policy.  ``step(tokens)`` takes a token
for each table (for the seat to act there) and returns the next observations,
masks, the seat to act, each seat's rewards and which tables finished (those are
reset at once with the next seed, as Gymnasium's vector environments do).
"""

from __future__ import annotations

import numpy as np

from .rules import rules_text
from .table import Table


class BarbuVectorEnv:
    def __init__(
        self,
        rules: str = "classic",
        num_envs: int = 16,
        players: int | None = None,
        deals: int | None = 1,
        reward: str = "deal",
        scale: float = 1.0,
    ) -> None:
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        text = rules_text(rules, players)
        self.tables = [Table(text, deals=deals, reward=reward, scale=scale) for _ in range(num_envs)]
        spec = self.tables[0].spec
        self.num_envs, self.players = num_envs, spec.players
        self.obs = np.zeros((num_envs, spec.obs_size), np.float32)
        self.masks = np.zeros((num_envs, spec.num_actions), bool)
        self.seats = np.zeros(num_envs, np.int64)
        self._next_seed = 0

    def reset(self, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(observations, masks, seats to act), table i dealt from seed ``seed + i``."""
        self._next_seed = seed
        for i in range(self.num_envs):
            self._reset(i)
        return self.obs, self.masks, self.seats

    def _reset(self, i: int) -> None:
        self.tables[i].reset(self._next_seed)
        self._next_seed += 1
        self._read(i)

    def _read(self, i: int) -> None:
        t = self.tables[i]
        seat = t.to_act
        assert seat is not None  # a table is read at a decision (a finished one is reset first)
        self.seats[i] = seat
        t.observe(seat, self.obs[i])
        self.masks[i] = t.mask().astype(bool)

    def step(self, tokens: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(observations, masks, seats to act, rewards [table, seat], finished)."""
        rewards = np.zeros((self.num_envs, self.players), np.float32)
        done = np.zeros(self.num_envs, bool)
        for i, t in enumerate(self.tables):
            rewards[i] = t.step(int(tokens[i]))
            if t.to_act is None:
                done[i] = True
                self._reset(i)
            else:
                self._read(i)
        return self.obs, self.masks, self.seats, rewards, done
