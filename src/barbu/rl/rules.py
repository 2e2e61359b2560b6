"""Rules texts for the adapters: a preset or ruleset text, with the number of players folded in."""

from __future__ import annotations

from ..besigue import is_besigue
from ..classic.ruleset import Ruleset
from ..core.errors import RulesetError


def rules_text(rules: str = "classic", players: int | None = None) -> str:
    """``rules_text("salad", 5)`` → ``salad(players=5)``; a bad ruleset or player count raises RulesetError."""
    if is_besigue(rules):
        if players not in (None, 2):
            raise RulesetError("Bésigue is played by 2 players")
        return rules
    r = Ruleset.parse(rules)
    if players is not None and players != r.players:
        r = r.replace(players=players)
    return str(r)
