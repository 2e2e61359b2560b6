"""A match's final placing: what a rated match tells the ratings."""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet


def placings(totals: Sequence[int | float], highest_wins: bool, left: AbstractSet[int] = frozenset()) -> list[int]:
    """Each seat's place, 1 the best: by final total (``highest_wins`` as the game's rules say),
    equal totals sharing a place and the next place skipped (competition ranking: 1, 2, 2, 4).

    The seats in ``left`` walked out before the end: they are placed last whatever their points,
    below everyone who stayed and tied among themselves, so leaving a losing match never pays."""
    n = len(totals)
    if any(not 0 <= s < n for s in left):
        raise ValueError(f"the seats that left must be among the {n} seats: {sorted(left)!r}")
    stayed = [s for s in range(n) if s not in left]
    sign = -1 if highest_wins else 1
    places = [0] * n
    for s in stayed:
        places[s] = 1 + sum(1 for t in stayed if sign * totals[t] < sign * totals[s])
    for s in left:
        places[s] = len(stayed) + 1
    return places
