"""The computer players' starting ratings: each strength of the house is a rated player of every game.

Someone who only ever plays the computer still gets a rating, as lichess rates against its bots: the
computer players' ratings move with their matches like anyone's, from the seeds kept in
``bot_seeds.json``.  The seeds come from duplicate arena matches among the strengths
(``tools/seed_bot_ratings.py``, described in docs/ratings.md), so a new "expert" does not start level
with "random".  The file is read once; nothing else here touches a disk.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

from ..core import safejson
from .rating import Rating

SEED_FILE = "bot_seeds.json"


@cache
def seed_data() -> dict[str, Any]:
    """The seed file as written by ``tools/seed_bot_ratings.py``: how it was made, and the ratings."""
    return safejson.loads(resources.files(__package__).joinpath(SEED_FILE).read_text(encoding="utf-8"))


@cache
def _seeds() -> dict[tuple[str, str], Rating]:
    return {
        (game, strength): Rating.from_dict(r)
        for game, by_strength in seed_data()["games"].items()
        for strength, r in by_strength.items()
    }


def bot_rating(game: str, strength: str) -> Rating:
    """The starting rating of a computer player of this strength at this game; a newcomer's for a
    strength the arena never measured (an operator's own player)."""
    return _seeds().get((game, strength), Rating())


def seeded_strengths(game: str) -> tuple[str, ...]:
    """The strengths the seed file rates at this game, weakest seed first."""
    return tuple(s for (g, s), _ in sorted(_seeds().items(), key=lambda kv: kv[1].mu) if g == game)
