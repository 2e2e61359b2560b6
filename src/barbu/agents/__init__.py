"""Computer players.  An agent sees only a seat's view and its legal actions."""

from .base import Agent, make_agent
from .random_agent import RandomAgent

__all__ = ["Agent", "RandomAgent", "make_agent"]
