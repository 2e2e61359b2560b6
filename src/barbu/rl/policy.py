"""A trained masked policy, saved as one ``.npz`` file, and the computer player that plays it (``policy:PATH``).

The network is small and numpy-only: the observation, one hidden layer
(tanh), a logit per token; illegal tokens are masked out before the softmax.
A decision of several tokens is spelled out one token at a time, each from
the observation with the tokens chosen so far, exactly as in the environments.
The file records which game it plays and the sizes it expects, and is refused
in plain words when they do not match.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np

from ..besigue.view import BesigueView
from ..core import safejson
from ..core.errors import AgentError
from .codec import BARBU_ACTIONS, BESIGUE_ACTIONS, Decision, encode_barbu, encode_besigue
from .observe import BARBU_SIZE, BESIGUE_SIZE, observe_barbu, observe_besigue

SIZES = {"barbu": (BARBU_SIZE, BARBU_ACTIONS), "besigue": (BESIGUE_SIZE, BESIGUE_ACTIONS)}


class MaskedPolicy:
    """logits = W2 · tanh(W1 · obs + b1) + b2, masked to the legal tokens."""

    def __init__(self, game: str = "barbu", hidden: int = 128, seed: int = 0, rules: str = "") -> None:
        if game not in SIZES:
            raise ValueError(f"game is 'barbu' or 'besigue', not {game!r}")
        obs, acts = SIZES[game]
        rng = np.random.default_rng(seed)
        self.game, self.rules = game, rules
        self.w1 = (rng.standard_normal((obs, hidden)) / np.sqrt(obs)).astype(np.float32)
        self.b1 = np.zeros(hidden, np.float32)
        self.w2 = (rng.standard_normal((hidden, acts)) * 0.01).astype(np.float32)
        self.b2 = np.zeros(acts, np.float32)

    @property
    def params(self) -> list[np.ndarray]:
        return [self.w1, self.b1, self.w2, self.b2]

    def forward(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(hidden activations, token probabilities) for a batch of observations and boolean masks."""
        h = np.tanh(obs @ self.w1 + self.b1)
        logits = h @ self.w2 + self.b2
        logits = np.where(mask, logits, -1e9)
        logits -= logits.max(axis=-1, keepdims=True)
        p = np.exp(logits) * mask
        return h, p / p.sum(axis=-1, keepdims=True)

    def choose(self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None = None) -> int:
        """The most likely legal token (greedy), or one drawn from the policy when given a generator."""
        _, p = self.forward(obs[None], mask[None])
        if rng is None:
            return int(np.argmax(p[0]))
        return int(rng.choice(len(p[0]), p=p[0]))

    def save(self, path: "str | Path") -> None:
        meta = {
            "format": "barbu-masked-policy-1",
            "game": self.game,
            "rules": self.rules,
            "observation": int(self.w1.shape[0]),
            "actions": int(self.w2.shape[1]),
        }
        with open(path, "wb") as f:
            np.savez(f, w1=self.w1, b1=self.b1, w2=self.w2, b2=self.b2, meta=np.array(json.dumps(meta)))

    @classmethod
    def load(cls, path: "str | Path") -> "MaskedPolicy":
        try:
            data = np.load(path, allow_pickle=False)
            meta = safejson.loads(str(data["meta"]))
        except FileNotFoundError:
            raise AgentError(f"no policy file {str(path)!r}") from None
        except (OSError, ValueError, KeyError):
            raise AgentError(f"{str(path)!r} is not a policy file saved by barbu.rl") from None
        game = meta.get("game") if isinstance(meta, dict) else None
        if not isinstance(meta, dict) or meta.get("format") != "barbu-masked-policy-1" or game not in SIZES:
            raise AgentError(f"{str(path)!r} is not a policy file saved by barbu.rl")
        if (meta["observation"], meta["actions"]) != SIZES[game]:
            raise AgentError(
                f"{str(path)!r} was trained on another observation layout "
                f"({meta['observation']} inputs, {meta['actions']} actions; this version has "
                f"{SIZES[game][0]} and {SIZES[game][1]}): train it again"
            )
        p = cls.__new__(cls)
        p.game, p.rules = game, meta.get("rules", "")
        p.w1, p.b1, p.w2, p.b2 = (data[k].astype(np.float32) for k in ("w1", "b1", "w2", "b2"))
        return p


class PolicyAgent:
    """A computer player that plays a trained policy from its seat's view, like every other player."""

    def __init__(
        self, policy: MaskedPolicy, name: str = "policy", seed: int | None = None, greedy: bool = True
    ) -> None:
        self.policy = policy
        self.name = name
        self.rng = None if greedy else np.random.default_rng(seed)
        self.besigue = policy.game == "besigue"

    def act(self, view: Any) -> Any:
        if isinstance(view, BesigueView) != self.besigue:
            raise AgentError(
                f"this policy plays {'Bésigue' if self.besigue else 'the Barbu family'}, "
                f"not {'Bésigue' if isinstance(view, BesigueView) else 'the Barbu family'}"
            )
        encode = encode_besigue if self.besigue else encode_barbu
        observe = observe_besigue if self.besigue else observe_barbu
        n = 2 if self.besigue else view.players
        decision = Decision(view.legal, lambda a: encode(a, view.seat, n))
        mask = np.zeros(self.policy.w2.shape[1], bool)
        while True:
            mask[:] = False
            mask[list(decision.mask())] = True
            action = decision.choose(self.policy.choose(observe(view, decision.prefix), mask, self.rng))
            if action is not None:
                return action


_LOADED: dict[tuple[str, float], MaskedPolicy] = {}


def policy_agent(argument: str, seed: int | None = None, game: str = "barbu") -> PolicyAgent:
    """The ``policy:PATH`` computer player (entry point of ``barbu.agents``); ``policy:PATH@sample`` draws
    its tokens from the policy instead of taking the most likely one."""
    path, _, mode = argument.partition("@")
    if mode not in ("", "greedy", "sample"):
        raise AgentError(f"policy:{argument}: after @ write greedy or sample, not {mode!r}")
    p = Path(path).expanduser()
    try:
        key = (str(p.resolve()), p.stat().st_mtime)
    except OSError:
        raise AgentError(f"no policy file {path!r}") from None
    policy = _LOADED.get(key)
    if policy is None:
        policy = _LOADED[key] = MaskedPolicy.load(p)
    if policy.game != game:
        raise AgentError(
            f"{path!r} plays {'Bésigue' if policy.game == 'besigue' else 'the Barbu family'}: "
            f"it cannot sit at a game of {'Bésigue' if game == 'besigue' else 'the Barbu family'}"
        )
    return PolicyAgent(
        policy,
        name=f"policy:{argument}",
        seed=seed if seed is not None else random.randrange(2**32),
        greedy=mode != "sample",
    )
