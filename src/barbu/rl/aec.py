"""PettingZoo AEC environment for every game of the house (`barbu.rl.env`).

Agents are ``seat_0`` … ``seat_{n-1}``.  Each observation is a dict with
``observation`` (float32, built from that seat's view only; fields in
`barbu.rl.observe`) and ``action_mask`` (int8 over the family's fixed token
space, `barbu.rl.codec`).  A decision of several tokens (a doubling turn, a
pass-on, a Chinese poker arrangement) is several consecutive turns of the same
agent.  Rewards are each deal's points when it ends (``reward="match"``: the
totals once, at the end), negated in the lowest-wins French game.
"""

from __future__ import annotations

import secrets
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..core.errors import IllegalAction
from .rules import rules_text
from .table import Table


class BarbuAEC(AECEnv):
    """The raw AEC environment; `env()` wraps it in PettingZoo's order checks."""

    metadata = {"name": "barbu_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        rules: str = "classic",
        players: int | None = None,
        deals: int | None = None,
        reward: str = "deal",
        scale: float = 1.0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.table = Table(rules_text(rules, players), deals=deals, reward=reward, scale=scale)
        n = self.table.n
        self.possible_agents = [f"seat_{s}" for s in range(n)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        spec = self.table.spec
        obs = spaces.Box(-np.inf, np.inf, (spec.obs_size,), np.float32)
        mask = spaces.Box(0, 1, (spec.num_actions,), np.int8)
        self._obs_space = spaces.Dict({"observation": obs, "action_mask": mask})
        self._act_space = spaces.Discrete(spec.num_actions)

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_space

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.table.reset(secrets.randbits(62) if seed is None else seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        seat = self.table.to_act
        if seat is None:
            self.terminations = {a: True for a in self.agents}
        else:
            self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.agent_name_mapping[agent]
        mask = self.table.mask() if self.table.to_act == seat else np.zeros(self.table.spec.num_actions, np.int8)
        return {"observation": self.table.observe(seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            rewards = self.table.step(int(action))
        except IllegalAction as e:
            raise ValueError(f"{agent}: {e}; the legal tokens are {self.table.legal_tokens()}") from None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: rewards[s] for s, a in enumerate(self.possible_agents)}
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """A public summary (no hand is shown): deal, phase, contract, current trick, totals."""
        if self.render_mode is None:
            return None
        g = self.table.game
        seat = self.table.to_act
        v = g.view(0)
        trick = getattr(v, "trick", ())
        line = (
            f"deal {len(g.results) + 1}  phase {v.phase}  to act {seat}  contract {getattr(v, 'contract', '-')}"
            f"  trick {' '.join(str(c) for c in trick)}  totals {list(g.totals)}"
        )
        return line

    def close(self) -> None:
        pass


def env(
    rules: str = "classic",
    players: int | None = None,
    deals: int | None = None,
    reward: str = "deal",
    scale: float = 1.0,
    render_mode: str | None = None,
) -> AECEnv:
    """``env(rules="salad", players=5, deals=1)``: any preset, ruleset text or ``besigue``, wrapped like
    PettingZoo's own environments (order enforcement, actions checked against the space)."""
    e: AECEnv = BarbuAEC(rules, players, deals, reward, scale, render_mode)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


raw_env = BarbuAEC
