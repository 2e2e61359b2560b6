"""A player's rating in one game, and its update after a rated match (OpenSkill's Plackett–Luce model).

Plackett–Luce reads a match as its finishing order: the winner was the likeliest to come first among
all the players, the second among the rest, and so on.  That is what a Barbu table gives us (a final
placing of 2 to 6 players, ties included), and OpenSkill's Weng–Lin update of it is a maintained,
closed-form Bayesian step: no iterations, the same answer every time.  The model keeps the library's
defaults (μ 25, σ 25/3, β 25/6, τ 25/300), those of Weng and Lin's paper, which OpenSkill's own
benchmarks use; we have no rated Barbu matches yet to tune them on.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

#: The one model every rating goes through.  Stateless once made (we never pass ``limit_sigma``, the one
#: argument of ``rate`` that changes the model), so it is shared.
MODEL = PlackettLuce()

#: The number of players in one rated match: Bésigue's two to Salad's and the French game's six.
MIN_PLAYERS, MAX_PLAYERS = 2, 6


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's skill in one game as a belief: mean ``mu``, uncertainty ``sigma``, and the rated
    ``matches`` it rests on.  ``Rating()`` is a newcomer: the model's prior, no matches."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    matches: int = 0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.mu) and math.isfinite(self.sigma) and self.sigma > 0):
            raise ValueError(f"a rating needs a finite mu and a positive sigma, not {self.mu!r}, {self.sigma!r}")
        if self.matches < 0:
            raise ValueError(f"a rating's matches cannot be negative: {self.matches!r}")

    def as_dict(self) -> dict[str, Any]:
        """The rating as JSON-ready data (for storage and the bots' seed file)."""
        return {"mu": self.mu, "sigma": self.sigma, "matches": self.matches}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rating:
        """The rating `as_dict` wrote."""
        return cls(float(data["mu"]), float(data["sigma"]), int(data.get("matches", 0)))


def update(ratings: Sequence[Rating], places: Sequence[int], weight: float = 1.0) -> list[Rating]:
    """The players' new ratings after one rated match in which seat ``i`` finished at ``places[i]``
    (1 is first; equal places are ties, as `placings` gives them).

    Every player's ``matches`` goes up by one.  Pure and deterministic: the same ratings and places
    always give the same new ratings, so a server may replay its rated matches to rebuild them.

    ``weight`` (0 to 1) is the match's share of a full one (`barbu.ratings.rated.match_weight`): a short
    match moves each mean by that share of the model's step, and its variance likewise, so eight deals
    teach the ratings about what eight deals can tell."""
    n = len(ratings)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise ValueError(f"a rated match has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}")
    if len(places) != n:
        raise ValueError(f"{n} players need {n} places, not {len(places)}")
    if any(isinstance(p, bool) or not isinstance(p, int) or not 1 <= p <= n for p in places):
        raise ValueError(f"places run from 1 to {n}: {list(places)!r}")
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    if not 0 < weight <= 1:
        raise ValueError(f"a match's weight runs from 0 (excluded) to 1, not {weight!r}")
    rated = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [_step(r, team[0].mu, team[0].sigma, weight) for team, r in zip(rated, ratings)]


def _step(before: Rating, mu: float, sigma: float, weight: float) -> Rating:
    """``before`` moved ``weight`` of the way to the model's full update (mean and variance)."""
    if weight == 1:
        return Rating(mu, sigma, before.matches + 1)
    variance = before.sigma**2 + weight * (sigma**2 - before.sigma**2)
    return Rating(before.mu + weight * (mu - before.mu), math.sqrt(variance), before.matches + 1)
