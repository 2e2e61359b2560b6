"""Computer players for any game of the house, and the loop that plays a game out with them."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from ..besigue.game import BesigueGame
from ..core.game import CHANCE, Game
from .base import make_agent
from .besigue import make_besigue_agent


def agent_for(game: Game, spec: str, seed: int | None = None) -> Any:
    """A computer player of ``game``'s kind by name (random, rule, search(…)), seeded so that matches replay."""
    return make_besigue_agent(spec, seed) if isinstance(game, BesigueGame) else make_agent(spec, seed)


def play_out(game: Game, agents: Sequence[Any], on_chance: Callable[[], None] | None = None) -> Game:
    """Play ``game`` to its end, each seat by its agent from its own view; ``on_chance`` after each chance event."""
    while not game.is_over:
        seat = game.to_act()
        if seat == CHANCE:
            game.play_chance()
            if on_chance is not None:
                on_chance()
        else:
            assert seat is not None
            game.apply(agents[seat].act(game.view(seat)))
    return game
