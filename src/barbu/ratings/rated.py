"""Which rating a table's match counts toward: one per game of the house, not per variant.

A player's classic rating covers every classic variant (quick rotation, Ravage City …) and a Salad
rating every number of players, as a chess rating covers every opening: the options change the
play less than the players do, and splitting the pools would leave each too thin to rate anyone.
"""

from __future__ import annotations

from functools import lru_cache

from ..core.errors import BarbuError

#: The rated games, one rating pool each, named as the rules' families name them.
GAMES: tuple[str, ...] = ("classic", "italian", "italian-six", "french", "salad", "scottish", "besigue")


@lru_cache(maxsize=1024)
def rated_game(rules_text: str) -> str | None:
    """The game (one of `GAMES`) a table's rules belong to, or None for rules no rating covers.

    The rules' family decides (``besigue-english`` → ``besigue``, ``barbù`` → ``italian``).  Opening
    the game is the only sure way to read a rules text, and tables ask often: the answer is cached."""
    from ..games import (
        open_game,  # the whole house of games, loaded only when a table's rules are read
    )

    try:
        family = open_game(rules_text, 1).rules.family
    except (BarbuError, ValueError):
        return None
    return family if family in GAMES else None


@lru_cache(maxsize=1024)
def match_weight(rules_text: str) -> float:
    """A match's share of a full one, for its rating step: deals per declarer over the contracts of the game
    (a short Barbu match of two contracts each of seven: 2/7), or the points played to over 1000 (Bésigue);
    1 for a full match and for rules it cannot read."""
    from ..games import open_game

    try:
        game = open_game(rules_text, 1)
    except (BarbuError, ValueError):
        return 1.0
    contracts, series = len(getattr(game, "contracts", ())), getattr(game, "series_length", 0)
    if contracts and series:
        return min(1.0, series / contracts)
    target = getattr(game.rules, "target", 0)
    return min(1.0, target / FULL_TARGET) if target else 1.0


#: The points a full Bésigue game is played to, against which a shorter one is weighed.
FULL_TARGET = 1000
