"""A game's leaderboard from its players' ratings, for a server that holds them in memory or fetched them.

The order is the shown figure's, so a leaderboard never disagrees with the numbers beside the names, and
the cautious figure (μ − 3σ) keeps one lucky evening from putting a newcomer on top.  By default only settled
ratings enter; the server's leaderboards list a player from his first rated result instead (a match is an
evening: five before one shows up took hours), marked provisional until he has `PROVISIONAL_MATCHES`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from .rating import Rating
from .shown import PROVISIONAL_MATCHES, shown

K = TypeVar("K")  # a player as the caller names him: a user id or a name, anything that sorts


def leaderboard(
    players: Iterable[tuple[K, Rating]], min_matches: int = PROVISIONAL_MATCHES
) -> list[tuple[int, K, int]]:
    """(place, player, shown figure), best first, of the players with at least ``min_matches`` rated
    matches; equal figures share a place (1, 2, 2, 4), and among them the one with more matches comes
    first (then the keys' order, so the list is the same every time)."""
    rows = [(-shown(r), -r.matches, key) for key, r in players if r.matches >= min_matches]
    rows.sort()
    out: list[tuple[int, K, int]] = []
    for i, (figure, _, key) in enumerate(rows):
        place = out[-1][0] if out and out[-1][2] == -figure else i + 1
        out.append((place, key, -figure))
    return out
