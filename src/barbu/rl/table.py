"""One game driven for learning: chance events drawn from a seeded generator, decisions spelled as tokens.

`Table` is what every adapter (PettingZoo, Gymnasium, OpenSpiel, the vector
env, the policy player) stands on: it opens any game of the house, plays its
chance events, turns each seat's legal actions into a `Decision`, and pays
each deal's points as rewards.  Observations come from ``game.view(seat)``.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from ..besigue.game import BesigueGame
from ..classic.match import Match
from ..core.errors import IllegalAction
from ..core.game import CHANCE
from ..games import open_game
from .codec import BARBU_ACTIONS, BESIGUE_ACTIONS, Decision, encode_barbu, encode_besigue
from .observe import BARBU_SIZE, BESIGUE_SIZE, observe_barbu, observe_besigue


class Spec:
    """What an adapter needs to know of a game before playing it: its sizes and how to read it."""

    def __init__(self, game: Any) -> None:
        self.besigue = isinstance(game, BesigueGame)
        self.players = game.n
        self.num_actions = BESIGUE_ACTIONS if self.besigue else BARBU_ACTIONS
        self.obs_size = BESIGUE_SIZE if self.besigue else BARBU_SIZE
        self.encode = encode_besigue if self.besigue else encode_barbu
        self.observe = observe_besigue if self.besigue else observe_barbu
        # lowest-wins families (the French game) pay the negated points: more reward is always better
        self.sign = 1 if self.besigue or game.rules.family_spec.highest_wins else -1


def deal_points(game: Any, besigue: bool, index: int) -> list[float]:
    """What deal ``index`` added to each seat's total."""
    r = game.results[index]
    return [float(x) for x in (r["scores"] if besigue else r.added)]


def open_table_game(rules: str, seed: int | None) -> Match | BesigueGame:
    """The game a table plays: one of the house's two kinds, the Barbu family's match or Bésigue."""
    game = open_game(rules, seed)
    assert isinstance(game, (Match, BesigueGame))
    return game


class Table:
    """A game at its start (``reset``), advanced one token at a time (``step``).

    ``deals``: stop after this many deals (None: the whole match).
    ``reward``: ``deal`` pays each deal's points when it ends; ``match`` pays
    the final totals once, at the end.  Points are divided by ``scale``.
    """

    def __init__(
        self,
        rules: str = "classic",
        deals: int | None = None,
        reward: str = "deal",
        scale: float = 1.0,
        auto_chance: bool = True,
    ) -> None:
        if reward not in ("deal", "match"):
            raise ValueError(f"reward is 'deal' or 'match', not {reward!r}")
        if deals is not None and deals < 1:
            raise ValueError("deals must be at least 1 (or None for the whole match)")
        self.rules = rules
        self.deals = deals
        self.reward_mode = reward
        self.scale = scale
        self.auto_chance = auto_chance  # False: chance events wait for `chance()` (OpenSpiel's chance nodes)
        self.game = open_table_game(rules, 0)
        self.spec = Spec(self.game)
        self.n = self.spec.players
        self.rng = random.Random(0)
        self.decision: Decision | None = None
        self.done = False

    # ---------------------------------------------------------------- running
    def reset(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.game = open_table_game(self.rules, seed)
        self.done = False
        self.decision = None
        self._advance()

    def clone(self) -> "Table":
        t = object.__new__(Table)
        t.__dict__.update(self.__dict__)
        t.game = self.game.clone()
        t.rng = random.Random()
        t.rng.setstate(self.rng.getstate())
        if self.decision is not None:
            d = object.__new__(Decision)
            for name in Decision.__slots__:
                setattr(d, name, getattr(self.decision, name))
            d.prefix = list(self.decision.prefix)
            t.decision = d
        return t

    @property
    def to_act(self) -> int | None:
        """The seat spelling a decision now, CHANCE (only without ``auto_chance``), or None once it is over."""
        return None if self.done else self.game.to_act()

    def mask(self) -> np.ndarray:
        m = np.zeros(self.spec.num_actions, np.int8)
        if self.decision is not None:
            m[list(self.decision.mask())] = 1
        return m

    def legal_tokens(self) -> list[int]:
        return sorted(self.decision.mask()) if self.decision is not None else []

    def observe(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """``seat``'s observation: from its view only, with its own tokens so far when it is spelling a decision."""
        prefix = self.decision.prefix if self.decision is not None and self.to_act == seat else ()
        return self.spec.observe(self.game.view(seat), prefix, out)

    def step(self, token: int) -> list[float]:
        """The seat to act takes one token; the rewards this earned each seat (all zero until a deal ends).

        A token outside the mask raises `IllegalAction` and changes nothing.
        """
        if self.done or self.decision is None:
            raise RuntimeError("the episode is over: reset the table")
        action = self.decision.choose(token)
        if action is None:
            return [0.0] * self.n
        before = len(self.game.results)
        self.game.apply(action)
        self.decision = None
        return self._advance(before)

    def act(self, action: Any) -> list[float]:
        """The seat to act plays a whole engine action at once (a computer player's choice), between decisions."""
        if self.done or self.decision is None:
            raise RuntimeError("the episode is over: reset the table")
        if self.decision.prefix:
            raise IllegalAction("a decision is half spelled out: finish it token by token")
        before = len(self.game.results)
        self.game.apply(action)
        self.decision = None
        return self._advance(before)

    def chance(self, action: Any) -> list[float]:
        """Apply a chance event (without ``auto_chance``); the rewards it completed."""
        if self.done or self.game.to_act() != CHANCE:
            raise IllegalAction("no chance event is due now")
        before = len(self.game.results)
        self.game.apply(action)
        return self._advance(before)

    def chance_outcome(self) -> Any:
        """The next chance event, drawn from the table's generator (the adapters replace this for OpenSpiel)."""
        return self.game.sample_chance(self.rng)

    def _advance(self, before: int | None = None) -> list[float]:
        """Play chance events until a seat must decide or the episode ends; the rewards earned on the way."""
        game = self.game
        if before is None:
            before = len(game.results)
        while self.auto_chance and game.to_act() == CHANCE and not self._finished():
            game.apply(self.chance_outcome())
        return self._settle(before)

    def _finished(self) -> bool:
        return self.game.is_over or (self.deals is not None and len(self.game.results) >= self.deals)

    def _settle(self, before: int) -> list[float]:
        rewards = [0.0] * self.n
        if self.reward_mode == "deal":
            for i in range(before, len(self.game.results)):
                for s, p in enumerate(deal_points(self.game, self.spec.besigue, i)):
                    rewards[s] += self.spec.sign * p / self.scale
        if self._finished():
            self.done = True
            if self.reward_mode == "match":
                rewards = [self.spec.sign * t / self.scale for t in self.totals()]
        else:
            seat = self.game.to_act()
            if seat is not None and seat != CHANCE:
                self.decision = Decision(self.game.legal_actions(), lambda a: self.spec.encode(a, seat, self.n))
        return rewards

    def totals(self) -> list[float]:
        """Each seat's points over the deals played (the match totals when it was played whole)."""
        deals = [deal_points(self.game, self.spec.besigue, i) for i in range(len(self.game.results))]
        return [sum(points[s] for points in deals) for s in range(self.n)]
