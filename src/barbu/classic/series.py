"""Scoring at the end of a declarer's series, for the families that have it.

"Barbù a sei colpi" (seed 002): after each dealer's six deals every player
adds the fixed average of 110, plus placement points by his score over those
six deals (1st +50, 2nd +25, 3rd −25, 4th −50; tied players share the points
of the places they span), and a dealer who finishes third pays 75 (25 to each
opponent), fourth 150 (50 each).  Shared places can give halves or thirds:
they are kept exact as `Fraction`s rather than rounded.
"""

from __future__ import annotations

from fractions import Fraction
from numbers import Rational

PLACE_POINTS = (50, 25, -25, -50)
AVERAGE = 110
SMALL_PENALTY = 75
LARGE_PENALTY = 150


def exact(x: Rational | int) -> "int | Fraction":
    """An int when the value is whole, else the Fraction itself."""
    f = Fraction(x)
    return int(f) if f.denominator == 1 else f


def placement_points(series: list[int]) -> list["int | Fraction"]:
    """Place points by series score, highest first; ties share the places they span."""
    n = len(series)
    out: list[int | Fraction] = [0] * n
    ordered = sorted(range(n), key=lambda s: -series[s])
    i = 0
    while i < n:
        j = i
        while j + 1 < n and series[ordered[j + 1]] == series[ordered[i]]:
            j += 1
        share = Fraction(sum(PLACE_POINTS[i : j + 1]), j - i + 1)
        for k in range(i, j + 1):
            out[ordered[k]] = exact(share)
        i = j + 1
    return out


def italian_six_bonus(series: list[int], dealer: int) -> list["int | Fraction"]:
    """What each player adds when a dealer's six deals are over (on top of the deal scores)."""
    n = len(series)
    bonus = [exact(AVERAGE + p) for p in placement_points(series)]
    above = sum(1 for s in range(n) if s != dealer and series[s] > series[dealer])
    penalty = LARGE_PENALTY if above == n - 1 else SMALL_PENALTY if above == n - 2 else 0
    if penalty:
        bonus[dealer] -= penalty
        for s in range(n):
            if s != dealer:
                bonus[s] = exact(bonus[s] + Fraction(penalty, n - 1))
    return bonus
