"""barbu: an exact rules engine for Barbu and its family of card games."""

from .actions import PASS, Deal, Declare, Double, Draw, NameRank, NameTrump, Pass
from .cards import CARDS, Card, CardSet
from .errors import BarbuError, IllegalAction, ParseError, RecordError, RulesetError
from .match import CHANCE, Business, DealResult, Match
from .presets import preset, presets, ruleset
from .ruleset import Ruleset

__version__ = "0.1.0"

__all__ = [
    "PASS", "Deal", "Declare", "Double", "Draw", "NameRank", "NameTrump", "Pass",
    "CARDS", "Card", "CardSet", "BarbuError", "IllegalAction", "ParseError", "RecordError", "RulesetError",
    "CHANCE", "Business", "DealResult", "Match", "preset", "presets", "ruleset", "Ruleset",
]
