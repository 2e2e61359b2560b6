"""A puzzle's theme, read from its solution card and the position (docs/puzzles.md defines each)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..solver.position import Spec, State
from ..solver.pure import trick_winner


def _suit_cards(mask: int, suit: int) -> list[int]:
    return [c for c in range(suit * 13, suit * 13 + 13) if mask >> c & 1]


def classify(
    spec: Spec, state: State, seat: int, solution: int, costly: Iterable[int], same: Sequence[int] = ()
) -> str:
    """The theme of playing ``solution`` (a card number) in ``state``, where ``costly`` are the wrong cards and
    ``same`` the cards equivalent to the solution."""
    same = tuple(same) or (solution,)
    hand = state.hands[seat]
    suit = solution // 13
    others = 0
    for s, h in enumerate(state.hands):
        if s != seat:
            others |= h
    if not state.trick:  # leading
        higher = [c for c in _suit_cards(others, suit) if c > solution]
        return "lead-away" if higher else "cash"
    led = state.trick[0] // 13
    wins = trick_winner(spec, state.leader, (*state.trick, solution)) == seat
    if suit == led:
        mine = _suit_cards(hand, led)
        if wins:
            every = all(trick_winner(spec, state.leader, (*state.trick, c)) == seat for c in mine)
            return "unblock" if every and len(mine) > 1 and max(mine) in same else "take"
        if any(trick_winner(spec, state.leader, (*state.trick, c)) == seat for c in mine):
            return "duck"
        return "unblock" if max(mine) in same else "guard"
    if suit == spec.trump:
        return "ruff" if wins else "shed"
    for c in costly:  # a wrong discard that would bare a high card of its suit
        s = c // 13
        held = _suit_cards(hand, s)
        if s != suit and s != led and len(held) >= 2 and c == min(held):
            return "guard"
    return "shed"
