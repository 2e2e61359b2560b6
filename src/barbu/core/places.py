"""Where the players sit, seen from one chair at the bottom of the table (South): the places people read
and type instead of seat numbers.

The places are English keys; the front ends word them (``barbu.play.labels.place_name``, the score sheets by
their own catalogs).  Kept this low so the score sheets, which sit below the front ends, name players alike.
"""

from __future__ import annotations

# By how many seats after you another player plays: the next to play sits on your left (West), the last on
# your right (East).
PLACES = {
    2: {1: "North"},  # Bésigue: the opponent faces you
    3: {1: "West", 2: "East"},
    4: {1: "West", 2: "North", 3: "East"},
    5: {1: "West", 2: "North-west", 3: "North-east", 4: "East"},
    6: {1: "West", 2: "North-west", 3: "North", 4: "North-east", 5: "East"},
}


def place(seat: int, me: int, players: int) -> str | None:
    """The compass place of another seat at the table (``West``…, English: a key), None for your own."""
    return PLACES.get(players, {}).get((seat - me) % players)


def table_place(seat: int, me: int, players: int) -> str:
    """Any seat's place from ``me``'s chair, ``me`` included (South): English, a key of the places' words.

    A table of more than six (no compass for it) still has places: the seat's number is kept for
    machines, but such tables are never offered."""
    return place(seat, me, players) or "South"
