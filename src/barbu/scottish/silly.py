"""The Silly Round's procedures (seed 004, RULES.md §5): calls by the cut, and the pass-ons.

Numbers of the Unused Pack stand for the negative calls (2 Aces, 3 King of
hearts, 4 Queens, 5 Hearts, 6 Tricks), the Joker for all remaining negative
calls, the Bridge card for Double Patience.  Numbers are adjacent cyclically:
2-3-4-5-6-2.  `cut_step` is the whole cutting procedure for a call, one cut at
a time, as a pure function, so the engine and the tests share nothing but it.
"""

from __future__ import annotations

from typing import NamedTuple

from .pack import BRIDGE, JOKER, is_black, is_red, number_of

NUMBER_CALL = {2: "aces", 3: "king", 4: "queens", 5: "hearts", 6: "tricks"}
CALL_NUMBER = {v: k for k, v in NUMBER_CALL.items()}
PATIENCES = ("patience-1", "patience-2")

LEFT, RIGHT, OPPOSITE = 1, 3, 2  # seat offsets for 4 players: left is s+1
DIRECTION_NAMES = {LEFT: "left", RIGHT: "right", OPPOSITE: "opposite"}

#: Pass-on directions by deal of the Silly Round, for the 1st, 2nd and 3rd pass.
DIRECTIONS = {
    1: (LEFT, LEFT, LEFT),
    2: (RIGHT, RIGHT, RIGHT),
    3: (OPPOSITE, LEFT, OPPOSITE),
    4: (LEFT, LEFT, LEFT),
    5: (RIGHT, RIGHT, RIGHT),
    6: (OPPOSITE, RIGHT, OPPOSITE),
}
MAX_PASSES = 3


def pass_direction(deal: int, number: int) -> int:
    """The seat offset of the ``number``-th pass-on (1..3) of the Silly Round's ``deal``-th deal (1..6)."""
    return DIRECTIONS[deal][number - 1]


def calls_first(deal: int) -> bool:
    """On deals 1–3 the calls are cut before the pass-ons, on deals 4–6 after."""
    return deal <= 3


def adjacent(a: int, b: int) -> bool:
    """Numbers next to each other on the cycle 2-3-4-5-6-2."""
    return (a - b) % 5 in (1, 4)


class CutOutcome(NamedTuple):
    """What one cut did: ``more`` (a group still growing, cut again), ``again`` (the cut decided
    nothing, cut again) or ``call`` (the calls are settled)."""

    kind: str
    group: tuple[int, ...] = ()  # numbers of the group so far (kind "more")
    calls: tuple[str, ...] = ()  # the calls of the deal (kind "call")


def single_patience(left: frozenset[str]) -> tuple[str, ...]:
    return (next(p for p in PATIENCES if p in left),)


def group_calls(group: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(NUMBER_CALL[x] for x in sorted(group))


def _negatives_left(left: frozenset[str]) -> list[int]:
    return sorted(CALL_NUMBER[c] for c in left if c in CALL_NUMBER)


def cut_step(card: int, group: tuple[int, ...], left: frozenset[str], first_deal: bool) -> CutOutcome:
    """One cut for the calls of a deal.

    ``group`` is the numbers cut so far for this call (empty before the first
    cut), ``left`` the calls not yet played in the round, ``first_deal`` whether
    this is the round's first deal (where a repeated number on the second cut
    means a Single Patience).
    """
    negatives = _negatives_left(left)
    patiences = [p for p in PATIENCES if p in left]
    n = number_of(card)
    if not group:
        if card == BRIDGE:
            if len(patiences) == 2:
                return CutOutcome("call", calls=tuple(patiences))
            if patiences:
                return CutOutcome("call", calls=(patiences[0],))
            return CutOutcome("again")
        if card == JOKER:
            if negatives:
                return CutOutcome("call", calls=group_calls(tuple(negatives)))
            return CutOutcome("again")
        assert n is not None
        if n not in negatives:  # a number already played (never on the first deal)
            if patiences:
                return CutOutcome("call", calls=(patiences[0],))
            return CutOutcome("again")
        return _grown((n,), negatives)
    if first_deal and len(group) == 1 and n == group[0]:
        return CutOutcome("call", calls=single_patience(left))
    if card == JOKER:
        return CutOutcome("call", calls=group_calls(tuple(negatives)))
    if n is not None and n in negatives and n not in group and any(adjacent(n, g) for g in group):
        return _grown(group + (n,), negatives)
    return CutOutcome("call", calls=group_calls(group))


def _grown(group: tuple[int, ...], negatives: list[int]) -> CutOutcome:
    """A group after a number joined it: cut again while some negative call is still outside it
    (a Joker would bring it in), else it is settled."""
    if all(x in group for x in negatives):
        return CutOutcome("call", calls=group_calls(group))
    return CutOutcome("more", group=group)


def pass_cut(card: int) -> str | None:
    """``pass`` for a black card, ``stop`` for a red one, None (cut again) for a Joker or the Bridge."""
    if is_black(card):
        return "pass"
    if is_red(card):
        return "stop"
    return None


__all__ = [
    "NUMBER_CALL",
    "CALL_NUMBER",
    "PATIENCES",
    "LEFT",
    "RIGHT",
    "OPPOSITE",
    "DIRECTION_NAMES",
    "DIRECTIONS",
    "MAX_PASSES",
    "pass_direction",
    "calls_first",
    "adjacent",
    "CutOutcome",
    "cut_step",
    "pass_cut",
    "single_patience",
    "group_calls",
]
