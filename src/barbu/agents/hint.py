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
from ..core.words import N_, Words
from ..i18n.formats import format_number
from .search import SearchAgent


@dataclass(frozen=True)
class Hint:
    action: Any
    reason: str
    alternatives: tuple[tuple[Any, float], ...] = ()  # (action, mean points for the seat), best first


def hint_label(action: Any) -> str:
    """An action as a player reads it: a card as A♠, anything else by its text."""
    return CARDS[action].display() if isinstance(action, int) and not isinstance(action, bool) else str(action)


def hint(
    view: View,
    label: Callable[[Any], str] = hint_label,
    seed: int | None = None,
    samples: int = 60,
    seconds: float = 1.5,
    highest_wins: bool = True,
) -> Hint:
    """The strongest player's choice for this view, with its reason in words."""
    if not view.legal:
        raise ValueError("there is nothing to decide now")
    agent = SearchAgent(seed, samples=samples, seconds=seconds)
    action = agent.act(view)
    if len(view.legal) == 1:
        return Hint(action, "It is the only thing you may do.")
    values = tuple(agent.last_values)
    if not values:
        return Hint(
            action,
            "The computer's rules of thumb choose it here (this decision is judged from the hand, "
            "not by imagining deals).",
        )
    sign = 1 if highest_wins else -1
    points = "points" if highest_wins else "penalty points"
    best = values[0][1] * sign
    text = (
        f"Over {agent.last_samples} deals imagined from what you can see (your hand, the cards played, the "
        f"voids shown), {label(action)} gives you {best:+.1f} {points} on average"
    )
    if len(values) > 1:
        second = values[1]
        text += f"; the next best, {label(second[0])}, {second[1] * sign:+.1f}"
    return Hint(action, text + ".", values)


def hint_reason(
    h: Hint, words: Words, only: bool, highest_wins: bool, label: Callable[[Any], str] | None = None
) -> str:
    """Why the strongest player chose the hint's action, in the language of ``words``.

    ``only``: it was the only legal action; ``h.alternatives`` holds each action's mean points.
    ``label`` words an action (default: a card as the language writes it, anything else its text).
    """
    if only:
        return words.gettext(N_("It is the only thing you may do."))
    if not h.alternatives:
        return words.gettext(
            N_(
                "The computer's rules of thumb choose it here (this decision is judged from the "
                "hand, not by imagining deals)."
            )
        )
    sign = 1 if highest_wins else -1

    def card_or_text(action: Any) -> str:
        return words.card(action) if isinstance(action, int) and not isinstance(action, bool) else str(action)

    name = label or card_or_text

    def points(value: float) -> str:
        return format_number(value * sign, words.lang, 1, sign=True)

    best = h.alternatives[0][1]
    if len(h.alternatives) == 1:
        template = (
            N_(
                "Over deals imagined from what you can see (your hand, the cards played, the voids shown), "
                "{action} gives you {points} points on average."
            )
            if highest_wins
            else N_(
                "Over deals imagined from what you can see (your hand, the cards played, the voids shown), "
                "{action} gives you {points} penalty points on average."
            )
        )
        return words.gettext(template).format(action=name(h.action), points=points(best))
    second = h.alternatives[1]
    template = (
        N_(
            "Over deals imagined from what you can see (your hand, the cards played, the voids shown), "
            "{action} gives you {points} points on average; the next best, {other}, {other_points}."
        )
        if highest_wins
        else N_(
            "Over deals imagined from what you can see (your hand, the cards played, the voids shown), "
            "{action} gives you {points} penalty points on average; the next best, {other}, {other_points}."
        )
    )
    return words.gettext(template).format(
        action=name(h.action), points=points(best), other=name(second[0]), other_points=points(second[1])
    )
