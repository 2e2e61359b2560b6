"""Chance events as sequences of small outcomes, for OpenSpiel's explicit chance nodes.

A deal is one card at a time (the next card of the shuffled deck: the first
``hand size`` go to seat 0, the next to seat 1 …, any left over are set aside);
a draw for the first dealer is one card per seat; a Scottish cut is one card
of the Unused Pack (the Joker is there twice); Bésigue's shuffle is the 64
cards of the pack one at a time, and its first dealer one of two outcomes.
Each outcome has its exact probability, so the engine's own events are
reproduced with the same distribution.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..besigue.actions import FirstDealer, Shuffle
from ..besigue.game import BesigueGame
from ..classic.state import CUT, DEAL, DRAW
from ..core.actions import Deal, Draw
from ..core.cards import cards_of
from ..scottish.match import ScottishMatch
from ..scottish.pack import PACK, Cut, PackDraw


def _kind(game: Any) -> str:
    if isinstance(game, BesigueGame):
        return "first-dealer" if game.phase == "first-dealer" else "shuffle"
    if game.phase == DEAL:
        return "deal"
    if game.phase == CUT:
        return "cut"
    if game.phase == DRAW:
        return "pack-draw" if isinstance(game, ScottishMatch) else "draw"
    raise ValueError("no chance event is due now")


def _length(game: Any, kind: str) -> int:
    if kind in ("first-dealer", "cut"):
        return 1
    if kind == "shuffle":
        return 64
    if kind == "deal":
        return game.n * game.hand_size
    return game.n  # a draw: one card per seat


def chance_outcomes(game: Any, drawn: list[int]) -> list[tuple[int, float]]:
    """The outcomes of the next small chance step, with their probabilities, after ``drawn`` this event."""
    kind = _kind(game)
    if kind == "first-dealer":
        return [(0, 0.5), (1, 0.5)]
    if kind in ("cut", "pack-draw"):
        left = Counter(PACK)
        if kind == "pack-draw":
            left.subtract(drawn)
        total = sum(left.values())
        return [(c, k / total) for c, k in sorted(left.items()) if k > 0]
    pool = list(range(64)) if kind == "shuffle" else [int(c) for c in cards_of(game.deck)]
    taken = set(drawn)
    rest = [c for c in pool if c not in taken]
    return [(c, 1.0 / len(rest)) for c in rest]


def chance_event(game: Any, drawn: list[int]) -> Any:
    """The engine's chance action once ``drawn`` completes it, else None."""
    kind = _kind(game)
    if len(drawn) < _length(game, kind):
        return None
    if kind == "first-dealer":
        return FirstDealer(drawn[0])
    if kind == "shuffle":
        return Shuffle(tuple(drawn))
    if kind == "cut":
        return Cut(drawn[0])
    if kind == "pack-draw":
        return PackDraw(tuple(drawn))
    if kind == "draw":
        return Draw(tuple(drawn))
    k = game.hand_size
    return Deal(tuple(sum(1 << c for c in drawn[i : i + k]) for i in range(0, k * game.n, k)))


def chance_name(game: Any) -> str:
    return _kind(game)
