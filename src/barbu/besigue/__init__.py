"""Bésigue for two players (seed 003): rules core, views, records.

Layers as in DESIGN.md: cards → actions/melds → ruleset → game (state
machine) → view/sampler → record → agents → cli/arena.  Nothing here imports
the Barbu state machine (match.py, scottish.py).
"""

from .actions import parse_action
from .game import CHANCE, BesigueGame
from .ruleset import PRESETS, BesigueRules, is_besigue

__all__ = ["BesigueGame", "BesigueRules", "CHANCE", "PRESETS", "is_besigue", "parse_action"]
