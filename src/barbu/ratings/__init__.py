"""Ratings per game for people and computer players: pure, with no storage and no network.

The web server keeps the ratings and calls this package when a rated match ends:
``fair_update(ratings, placings(totals, highest_wins, left), left, households)``, in the seats' order
(each seat rated against its opponents only: `fair`).  ``shown`` and
``provisional`` are what the pages print; ``bot_rating`` seeds a computer player's rating in a
game; ``rated_game`` says which game's rating a table's rules count toward.  See docs/ratings.md.
"""

from .bots import bot_rating, seeded_strengths
from .fair import ESTABLISHED, fair_update, opponents
from .leaderboard import leaderboard
from .placing import placings
from .rated import GAMES, match_weight, rated_game
from .rating import MAX_PLAYERS, MIN_PLAYERS, MODEL, Rating, update
from .shown import PROVISIONAL_MATCHES, provisional, shown

__all__ = [
    "ESTABLISHED",
    "GAMES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MODEL",
    "PROVISIONAL_MATCHES",
    "Rating",
    "bot_rating",
    "fair_update",
    "leaderboard",
    "match_weight",
    "opponents",
    "placings",
    "provisional",
    "rated_game",
    "seeded_strengths",
    "shown",
    "update",
]
