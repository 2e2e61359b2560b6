"""Puzzles and their solvers rated as they meet: each attempt is a two-player match the solver wins or loses.

A puzzle is a player like any other (OpenSkill's Plackett–Luce through `barbu.ratings.rating.update`): a
solved puzzle is a match the solver won, a failed one a match the puzzle won.  Both ratings move, so a puzzle
that beats strong solvers rises and one that everybody solves sinks, and a player is offered puzzles near his
own level (`near`).  The figure people see is `barbu.ratings.shown.shown`, the same scale as the tables'.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from ..ratings.rating import Rating, update
from ..ratings.shown import shown

T = TypeVar("T")

#: How many of the puzzles nearest the player's level `near` picks from at random (so that two tries in a row
#: do not meet the same puzzle).
NEAR = 12

__all__ = ["NEAR", "Rating", "meet", "near", "shown"]


def meet(player: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """The player's and the puzzle's new ratings after one attempt: the solver first when ``solved``."""
    places = [1, 2] if solved else [2, 1]
    new_player, new_puzzle = update([player, puzzle], places)
    return new_player, new_puzzle


def near(puzzles_with_ratings: Sequence[tuple[T, Rating]], player: Rating, rng: random.Random) -> T:
    """A puzzle near the player's level: one of the `NEAR` whose mean is closest to the player's, at random.

    Raises ``ValueError`` when there is no puzzle to offer."""
    if not puzzles_with_ratings:
        raise ValueError("no puzzle to offer")
    ranked = sorted(range(len(puzzles_with_ratings)), key=lambda i: abs(puzzles_with_ratings[i][1].mu - player.mu))
    return puzzles_with_ratings[rng.choice(ranked[:NEAR])][0]
