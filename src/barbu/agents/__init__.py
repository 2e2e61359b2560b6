"""Computer players.  An agent sees only a seat's view and its legal actions."""

from .base import AGENT_KINDS, Agent, make_agent
from .random_agent import RandomAgent

__all__ = ["AGENT_KINDS", "Agent", "RandomAgent", "make_agent"]
