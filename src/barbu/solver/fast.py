"""The solver's core to use: the compiled `_fast` when it was built, else its pure-Python twin.

Both give the same answers; ``BARBU_PURE=1`` in the environment forces the pure one
(to compare, or to debug).  `COMPILED` says which one this process runs.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from . import pure
from .position import Situation, Spec, State

if os.environ.get("BARBU_PURE", "") not in ("", "0"):
    _core = pure
else:
    try:
        from . import _fast as _core  # type: ignore[no-redef]
    except ImportError:  # built without a C compiler: the pure path
        _core = pure

COMPILED: bool = _core is not pure

legal_moves = _core.legal_moves
trick_winners = _core.trick_winners
deal_scores = _core.deal_scores
playouts = _core.playouts
solve = _core.solve
solve_seat = _core.solve_seat
solve_many = _core.solve_many
move_values = _core.move_values
# The rule player's card, whole-deal rule playouts and a best response's line are compiled only (None on the
# pure path): their pure twin is the rule player itself, `barbu.agents.cardplay` (a floor above), which
# `barbu.agents.search.rollout` plays through the engine when these are None (and `best_response` there);
# the tests hold the two to the same cards and points.
rule_cards: Callable[[Spec, int, Sequence[Situation]], list[int]] | None = getattr(_core, "rule_cards", None)
rule_playouts: Callable[[Spec, int, Sequence[State], int, int, Sequence[int] | None], list[tuple[int, ...]]] | None = (
    getattr(_core, "rule_playouts", None)
)
respond_line: Callable[[Spec, int, State, int, Sequence[int] | None], tuple[tuple[int, ...], list[int]]] | None = (
    getattr(_core, "respond_line", None)
)

__all__ = [
    "COMPILED",
    "legal_moves",
    "trick_winners",
    "deal_scores",
    "playouts",
    "solve",
    "solve_seat",
    "solve_many",
    "move_values",
    "rule_cards",
    "rule_playouts",
    "respond_line",
]
