"""The solver's plain-data picture of a deal in trick play: the rules of the deal (`Spec`) and a position (`State`).

Both are named tuples of ints and tuples of ints, so the compiled core reads them
without any Python object of the engine, and a batch of positions is just a list.
`spec_of` and `state_of` take them from a live engine match (`barbu.classic.match.Match`
or the Scottish one) in the card-play phase; the engine stays the authority on the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from ..classic.state import PLAY

if TYPE_CHECKING:
    from ..classic.match import Match


class Spec(NamedTuple):
    """The rules of one trick-play deal, as the engine applies them."""

    n: int  # players
    trump: int  # the trump suit 0..3, or -1 for none
    head: int  # 1: a trump lead must be headed when you can (classic Trumps); 0: not (Italian Atout)
    heart_mode: int  # 0 none, 1 never unless only hearts, 2 not at the first trick, 3 until hearts are broken
    per_trick: int  # points for each trick taken
    values: tuple[int, ...]  # 52 card points, 0 for a card that scores nothing
    last_tricks: tuple[int, ...]  # points of the deal's last tricks, the last one last
    ravage: int  # Ravage City: the points shared by whoever took most cards of one suit
    stop_mask: int  # the deal stops when none of these cards is left in a hand (0: played out)


class State(NamedTuple):
    """A position in trick play: everything the rules and the score depend on from here."""

    hands: tuple[int, ...]  # card bitmask of each seat
    won: tuple[int, ...]  # cards each seat has taken
    tricks_won: tuple[int, ...]
    winners: tuple[int, ...]  # the winner of each finished trick, in order
    leader: int  # who led the trick in progress (or leads the next)
    trick: tuple[int, ...]  # the cards of the trick in progress, from the leader on
    hearts_broken: int  # 1 once a finished trick held a heart


#: A rule player's situation, as the compiled core reads it: (hand, legal cards, the trick so far, the others'
#: cards, cards left in hand).
Situation = tuple[int, int, Sequence[int], int, int]


def spec_of(match: Match) -> Spec:
    """The `Spec` of the deal a match is playing (card-play phase only)."""
    if match.phase != PLAY:
        raise ValueError("the solver works on the card-play phase of a trick-taking deal")
    c = match.contract
    assert c is not None  # in play
    trump = (match.trump_mask.bit_length() - 1) // 13 if match.trump_mask else -1
    values = tuple(c.card_value.get(card, 0) for card in range(52))
    return Spec(
        match.n,
        trump,
        int(bool(match.head_mask)),
        match.heart_mode,
        c.per_trick,
        values,
        tuple(c.last_tricks),
        c.ravage,
        match.stop_mask,
    )


def state_of(match: Match) -> State:
    """The `State` of a match in the card-play phase."""
    if match.phase != PLAY:
        raise ValueError("the solver works on the card-play phase of a trick-taking deal")
    return State(
        tuple(match.hands),
        tuple(match.won),
        tuple(match.tricks_won),
        tuple(match.winners),
        match.leader,
        tuple(match.trick),
        int(match.hearts_broken),
    )


def objective(spec: Spec, sign: int) -> Spec:
    """The spec whose points a seat maximises: itself when the highest total wins (sign +1), the points
    negated where the lowest total wins (sign -1, the French penalty points).  The solver maximises
    points; solve on ``objective(spec, -1)`` and negate its answers to minimise them.  (No family
    with Ravage City counts lowest-wins, where the negated share would round the other way.)"""
    if sign >= 0:
        return spec
    return spec._replace(
        per_trick=-spec.per_trick,
        values=tuple(-v for v in spec.values),
        last_tricks=tuple(-v for v in spec.last_tricks),
        ravage=-spec.ravage,
    )
