"""The phases of a match and the plain records it keeps: doubles between two players, finished deals.

They sit below the match and its views so both can use them without importing each other.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

from .chinese import Arrange

# Phases (CUT and PASS_ON belong to the Scottish Silly Round; Patience is played in DOMINO_PLAY)
DRAW, DEAL, DECLARE, TRUMP, RANK, DOUBLING, PLAY, DOMINO_PLAY, OVER, ARRANGE, CUT, PASS_ON = range(12)
PHASE_NAMES = (
    "draw",
    "deal",
    "declare",
    "trump",
    "rank",
    "doubling",
    "play",
    "domino",
    "over",
    "arrange",
    "cut",
    "pass-on",
)


class Business(NamedTuple):
    """A double between two players; ``redoubled`` doubles the stake.  A tuple: cheap to make."""

    doubler: int
    doubled: int
    redoubled: bool = False

    def __str__(self) -> str:
        return f"{self.doubler}x{self.doubled}" + ("xx" if self.redoubled else "")


#: Points on a scoresheet: whole, or exact shares where a family splits a place (Barbù a sei colpi's series).
Points = int | Fraction


def added_points(scores: tuple[int, ...], series: tuple[Points, ...]) -> tuple[Points, ...]:
    """What a deal adds to the running totals: its scores plus any series points."""
    return tuple(a + b for a, b in zip(scores, series)) if series else scores


@dataclass(frozen=True)
class DealResult:
    """What a finished deal was and how it scored.  ``hands`` is private: views drop it."""

    number: int
    dealer: int
    declarer: int
    contract: str
    trump: int | None
    rank: int | None
    doubles: tuple[Business, ...]
    played: bool
    base: tuple[int, ...]
    scores: tuple[int, ...]
    hands: tuple[int, ...] = ()
    tricks: tuple[tuple[int, tuple[int, ...]], ...] = ()
    finishing: tuple[int, ...] = ()
    set_aside: int = 0  # cards dealt to nobody, face up
    arrangements: tuple[Arrange, ...] = ()  # Chinese poker, revealed at the end
    series: tuple[Points, ...] = ()  # points added when this deal ended a declarer's series (italian-six)
    scottish: Any = None  # the Scottish game's round, calls, cuts, pass-ons and glyphs (a `ScottishDeal`)

    @property
    def added(self) -> tuple[Points, ...]:
        """What the deal added to the running totals: its scores plus any series points."""
        return added_points(self.scores, self.series)

    def public(self) -> "DealResult":
        """What every seat may see: no hands, no pass-on choices.  Made once: every view asks for it."""
        cached = self.__dict__.get("_public")
        if cached is None:
            extra = self.scottish.public() if self.scottish is not None else None
            cached = dataclasses.replace(self, hands=(), scottish=extra)
            object.__setattr__(self, "_public", cached)
        return cached
