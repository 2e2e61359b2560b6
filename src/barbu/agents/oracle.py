"""The perfect-information player: it is handed the true match and plays the cards the exact solver rates best.

For measurement only (how much knowing every card is worth, and how close the
other players come to it): it is not among `AGENT_KINDS` and no front end offers
it.  In trick play with at most ``exact_cards`` cards in each hand it takes a card
of the best exact value (`barbu.solver.fast.move_values`: its points if it then
plays its best and the others all play against it), preferring the rule
player's own card among equals; every other decision is the rule player's.
"""

from __future__ import annotations

from typing import Any

from ..classic.match import PLAY, Match
from ..classic.view import View
from ..core.cards import CARDS
from ..solver import fast
from ..solver.position import objective, spec_of, state_of
from .rule import RuleAgent

DEFAULT_EXACT_CARDS = 6


class OracleAgent:
    """Sees every hand through ``match`` (set it, or pass it to `act`); plays exactly at the end of deals."""

    name = "oracle"

    def __init__(
        self, seed: int | None = None, exact_cards: int = DEFAULT_EXACT_CARDS, match: Match | None = None
    ) -> None:
        self.rule = RuleAgent(seed)
        self.exact_cards = exact_cards
        self.match = match

    def act(self, view: View, match: Match | None = None) -> Any:
        m = match if match is not None else self.match
        choice = self.rule.act(view)
        if m is None or m.phase != PLAY or len(view.legal) < 2:
            return choice
        if max(h.bit_count() for h in m.hands) > self.exact_cards:
            return choice
        sign = 1 if m.rules.family_spec.highest_wins else -1
        values = fast.move_values(objective(spec_of(m), sign), [state_of(m)])[0]
        best = max(v for _, v in values)
        good = [c for c, v in values if v == best]
        return choice if int(choice) in good else CARDS[good[0]]
