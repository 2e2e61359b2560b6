"""Random layout-game positions from the real engine, for the layout solver's tests and benchmarks.

Matches of any preset are played with uniformly random legal actions, except
that the declarer names a layout game (Domino, Success, Patience) whenever it
may, half the time, so that such deals come often.  Each layout deal yields the
engine's match at the first decision where at most ``cards`` cards are left in
the hands together.
"""

from __future__ import annotations

import random
from typing import Iterator

from ..classic.contracts import DOMINO
from ..classic.match import Match
from ..classic.state import DOMINO_PLAY
from ..core.actions import Declare
from ..core.game import CHANCE


def _layout_call(m: Match, action: object) -> bool:
    if not isinstance(action, Declare):
        return False
    key = action.contract
    if key in ("patience", "double-patience"):
        return True
    c = m.contract_by_key.get(key)
    return c is not None and c.kind == DOMINO


def layout_positions(rules: str, seed: int, cards: int) -> Iterator[Match]:
    """A copy of the engine's match in each layout deal of random matches under ``rules``, at the first
    decision with at most ``cards`` cards left in all hands; without end."""
    rng = random.Random(seed)
    while True:
        m = Match(rules, rng.randrange(1 << 30))
        taken = -1  # the deal number already yielded
        while not m.is_over:
            if m.to_act() == CHANCE:
                m.apply(m.sample_chance(rng))
                continue
            legal = m.legal_actions()
            if m.phase == DOMINO_PLAY and taken != m.deal_no and sum(h.bit_count() for h in m.hands) <= cards:
                taken = m.deal_no
                yield m.clone()
            layout = [a for a in legal if _layout_call(m, a)] if m.phase != DOMINO_PLAY else []
            if layout and rng.random() < 0.5:
                m.apply(layout[int(rng.random() * len(layout))])
            else:
                m.apply(legal[int(rng.random() * len(legal))])
