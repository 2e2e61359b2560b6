"""barbu: an exact rules engine for Barbu and its family of card games."""

from .classic.match import CHANCE, Business, DealResult, Match
from .classic.ruleset import Ruleset, preset, presets, ruleset
from .core.actions import PASS, Deal, Declare, Double, Draw, NameRank, NameTrump, Pass
from .core.cards import CARDS, Card, CardSet
from .core.errors import BarbuError, IllegalAction, ParseError, RecordError, RulesetError
from .games import open_game

__version__ = "0.1.0"

__all__ = [
    "PASS",
    "Deal",
    "Declare",
    "Double",
    "Draw",
    "NameRank",
    "NameTrump",
    "Pass",
    "CARDS",
    "Card",
    "CardSet",
    "BarbuError",
    "IllegalAction",
    "ParseError",
    "RecordError",
    "RulesetError",
    "CHANCE",
    "Business",
    "DealResult",
    "Match",
    "preset",
    "presets",
    "ruleset",
    "Ruleset",
    "open_game",
]
