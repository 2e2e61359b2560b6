"""Random positions from the real engine, for the differential tests and the benchmarks.

A match of any preset is played with uniformly random legal actions (contracts,
trumps, doubles, cards, the Scottish cuts and pass-ons); every card-play
decision of a trick-taking deal yields a position with the engine's legal cards,
every finished trick its winner and every deal played out its base points.  The
solver's cores must give the engine's answers on all of them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Iterator

from ..classic.match import Match
from ..classic.state import PLAY
from ..core.game import CHANCE
from .position import Spec, State, spec_of, state_of


@dataclass
class DealSample:
    """One trick-taking deal as the engine played it."""

    rules: str
    spec: Spec
    start: State  # the position at the opening lead
    positions: list[State] = field(default_factory=list)  # every card-play decision
    legal: list[int] = field(default_factory=list)  # the engine's legal cards at each
    tricks: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)  # (leader, cards)
    trick_winners: list[int] = field(default_factory=list)
    outcome: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None = None  # (won, tricks_won, winners)
    base: tuple[int, ...] | None = None  # the engine's base points of the deal
    match: Match | None = None  # a copy of the engine's match at the opening lead


def random_deals(rules: str, seed: int) -> Iterator[DealSample]:
    """The trick-taking deals of random matches under ``rules``, one match after another, without end."""
    rng = random.Random(seed)
    while True:
        m = Match(rules, rng.randrange(1 << 30))
        current: DealSample | None = None
        while not m.is_over:
            if m.to_act() == CHANCE:
                m.apply(m.sample_chance(rng))
                continue
            legal = m.legal_actions()
            if m.phase == PLAY:
                state = state_of(m)
                if current is None:
                    current = DealSample(rules, spec_of(m), state, match=m.clone())
                current.positions.append(state)
                current.legal.append(m.legal_mask())
            before = len(m.results)
            m.apply(legal[int(rng.random() * len(legal))])
            if current is not None and len(m.results) > before:
                result = m.results[-1]
                current.tricks = [(leader, tuple(cards)) for leader, cards in result.tricks]
                current.trick_winners = list(m.winners)
                current.outcome = (tuple(m.won), tuple(m.tricks_won), tuple(m.winners))
                current.base = tuple(result.base)
                yield current
                current = None
