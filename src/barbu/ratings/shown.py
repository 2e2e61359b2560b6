"""The number a player sees: a cautious figure on a familiar scale, and whether it is settled yet.

The figure is what we are nearly sure the player is at least worth: μ − 3σ, the "ordinal" OpenSkill
and TrueSkill show (3σ leaves the true skill above it 99.9% of the time).  It protects a leaderboard
from a lucky newcomer, who cannot top it after two wins, and it rises as a player's matches make his
rating surer.  With the model's prior μ = 3σ = 25, a newcomer's μ − 3σ is exactly 0.

On the scale: ``shown = 1000 + 25 × (μ − 3σ)``.  A newcomer shows 1000; a player of middling
strength, once settled (σ near 1.7 after some dozens of matches), shows about 1500, and the
strongest about 2000.  One point of μ is worth 25 shown points, about what it is worth in Elo
points: between two settled players a 1-μ gap is a 54% chance of finishing above the other, as a
27-point Elo gap is (about 20 at four players, where the model's odds are flatter).
"""

from __future__ import annotations

from .rating import Rating

#: How many σ the shown figure keeps below μ.
K = 3.0
#: What a newcomer shows, and how many shown points one point of μ is worth.
BASE, SCALE = 1000, 25
#: A rating is provisional (shown with a "?", and on the leaderboards marked so from the player's first rated
#: result) until it rests on this many rated matches: a Barbu match is an evening's play, and the σ of a few is
#: already in the figure; the mark says how few.
PROVISIONAL_MATCHES = 5


def shown(r: Rating) -> int:
    """The rating as players see it: ``1000 + 25 × (μ − 3σ)``, rounded, never below 0."""
    return max(0, round(BASE + SCALE * (r.mu - K * r.sigma)))


def provisional(r: Rating) -> bool:
    """Whether the rating is still a first guess, to be shown with a "?": fewer than 5 rated matches."""
    return r.matches < PROVISIONAL_MATCHES
