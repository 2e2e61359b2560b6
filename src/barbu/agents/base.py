"""The agent protocol: given a seat's view (which holds the legal actions), return one of them."""

from __future__ import annotations

from typing import Any, Protocol

from ..view import View


class Agent(Protocol):
    name: str

    def act(self, view: View) -> Any:
        """Choose one of ``view.legal``.  The view is all the agent may know."""
        ...


#: The computer players by name, weakest first.  Front ends offer these as strengths.
AGENT_KINDS: tuple[str, ...] = ("random",)


def make_agent(kind: str, seed: int | None = None) -> Agent:
    """An agent by name (one of ``AGENT_KINDS``), seeded so that matches replay."""
    from .random_agent import RandomAgent
    kinds = {"random": RandomAgent}
    key = kind.strip().lower()
    if key not in kinds:
        raise ValueError(f"unknown computer player {kind!r}; choose from: {', '.join(AGENT_KINDS)}")
    return kinds[key](seed)
