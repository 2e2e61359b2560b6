"""Who a rated result is measured against: no rating is fed by seats its own player filled (docs/ratings.md).

A farmer seats puppet accounts from his own address, lets them leave at once and the stand-in play them, or
lets them throw the game; placed among them, he "beats" them.  So each seat is rated against its *opponents*
only:

- a player who stayed to the end is rated against the others who stayed (people and computer players), but
  not against a seat taken from his own address (his *household*: a family, a club room, or his puppets)
  unless both of them are *established*: each has played `ESTABLISHED` rated matches with people from other
  addresses, which a puppet, who only ever plays with his farmer, never has;
- a player who left is rated, placed below all of them, against those who stayed outside his household, and his
  leaving moves nobody else's rating (a seat that leaves gives nobody a win);
- a seat with no opponent is not rated at all.

So a family at one address plays rated games together, each of them rated against the others at the table
(people from elsewhere, computer players, and one another once they are established), and a table of newcomers
from one household alone is rated for nobody.
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet

from .rating import Rating, update

#: Rated matches with people from other addresses after which two players of one address are rated against
#: each other (the server counts them from its results, `barbu.web.profiles.history.established`).
ESTABLISHED = 5


def opponents(
    seat: int, left: AbstractSet[int], households: Sequence[str | None], established: AbstractSet[int] = frozenset()
) -> list[int]:
    """The seats ``seat``'s result is measured against: those who stayed, outside his household (None: a
    household of one, as a computer player is), or in it when both are ``established`` (seats)."""
    mine = households[seat]

    def apart(s: int) -> bool:
        return mine is None or households[s] != mine or (seat in established and s in established)

    return [s for s in range(len(households)) if s != seat and s not in left and apart(s)]


def fair_update(
    ratings: Sequence[Rating],
    places: Sequence[int],
    left: AbstractSet[int],
    households: Sequence[str | None],
    established: AbstractSet[int] = frozenset(),
    weight: float = 1.0,
) -> list[Rating | None]:
    """Each seat's new rating from its match against its `opponents` alone (None: it had none, and is not
    rated); ``places`` as `barbu.ratings.placings` gives them (those who left below all who stayed); ``weight``
    the match's share of a full one, as `update` takes it."""
    out: list[Rating | None] = []
    for seat in range(len(ratings)):
        against = opponents(seat, left, households, established)
        if not against:
            out.append(None)
            continue
        match = [seat, *against]
        out.append(update([ratings[s] for s in match], [_rank(places, match, s) for s in match], weight)[0])
    return out


def _rank(places: Sequence[int], match: Sequence[int], seat: int) -> int:
    """``seat``'s place among the seats of ``match`` only (competition ranking, as `placings`)."""
    return 1 + sum(1 for s in match if places[s] < places[seat])
