"""Training adapters: PettingZoo, Gymnasium and OpenSpiel environments for every game of the house.

Install with ``pip install -e '.[rl]'``.  ``barbu.rl.env(rules="classic")`` is
the PettingZoo AEC environment; ``barbu.rl.gym_env`` the single-seat
Gymnasium wrapper; ``barbu.rl.openspiel.register()`` registers the games in
``pyspiel``.  The action spaces are in `barbu.rl.codec`, the observations in
`barbu.rl.observe`; docs/rl.md explains both.
"""

from __future__ import annotations

from typing import Any


def env(
    rules: str = "classic",
    players: int | None = None,
    deals: int | None = None,
    reward: str = "deal",
    scale: float = 1.0,
    render_mode: str | None = None,
) -> Any:
    """The PettingZoo AEC environment of a game (`barbu.rl.aec.env`)."""
    from .aec import env as make

    return make(rules, players, deals, reward, scale, render_mode)


__all__ = ["env"]
