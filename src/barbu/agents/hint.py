"""A hint at the table: what the strongest computer player would do from your seat, and why.

It is given the seat's own view and nothing else, exactly like a computer
player, so a hint can never reveal a hidden card.  "Why" is the search's own
evidence: the average result of the best choices over the deals it imagined.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..classic.view import View
from ..core.cards import CARDS
from .search import SearchAgent


@dataclass(frozen=True)
class Hint:
    action: Any
    reason: str
    alternatives: tuple[tuple[Any, float], ...] = ()  # (action, mean points for the seat), best first


def hint_label(action: Any) -> str:
    """An action as a player reads it: a card as A♠, anything else by its text."""
    return CARDS[action].display() if isinstance(action, int) and not isinstance(action, bool) else str(action)


def hint(view: View, label: Callable[[Any], str] = hint_label, seed: int | None = None, samples: int = 60,
         seconds: float = 1.5, highest_wins: bool = True) -> Hint:
    """The strongest player's choice for this view, with its reason in words."""
    if not view.legal:
        raise ValueError("there is nothing to decide now")
    agent = SearchAgent(seed, samples=samples, seconds=seconds)
    action = agent.act(view)
    if len(view.legal) == 1:
        return Hint(action, "It is the only thing you may do.")
    values = tuple(agent.last_values)
    if not values:
        return Hint(action, "The computer's rules of thumb choose it here (this decision is judged from the hand, "
                            "not by imagining deals).")
    sign = 1 if highest_wins else -1
    points = "points" if highest_wins else "penalty points"
    best = values[0][1] * sign
    text = (f"Over {agent.last_samples} deals imagined from what you can see (your hand, the cards played, the "
            f"voids shown), {label(action)} gives you {best:+.1f} {points} on average")
    if len(values) > 1:
        second = values[1]
        text += f"; the next best, {label(second[0])}, {second[1] * sign:+.1f}"
    return Hint(action, text + ".", values)
