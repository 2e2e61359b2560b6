"""Uniformly random legal play, seeded so that matches replay."""

from __future__ import annotations

import random
from typing import Any

from ..classic.view import View


class RandomAgent:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: View) -> Any:
        if not view.legal:
            raise ValueError("the agent was asked to act with no legal action")
        return self.rng.choice(view.legal)
