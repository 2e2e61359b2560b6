"""The match state machine: one loop of phases drives a whole match, every family alike.

draw for the first dealer → deal → declare a contract → name trump or
starting rank → doubling → play (tricks, Domino/Success rows, or Chinese
poker arrangements) → score (and series points where the family has them)
→ next deal.  At every point `to_act()` says who acts (a seat, `CHANCE`, or
None when the match is over), `legal_actions()` lists exactly what may be
done, and `apply()` advances.  An illegal action raises `IllegalAction` with
the reason and leaves the state as it was.  What differs between families is
data: the contract table, the deck, the options and a series-end hook, all
from `barbu.classic.presets`.

Each phase lives in a module of its own (`barbu.classic.phases`), and
`barbu.classic.phases.turns` says whose turn it is and what he may do in any
of them; `Match` stands on them all and applies and parses actions, takes them
back, and gives each seat its view.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core import refusals as C
from ..core.actions import PASS, Double, NameRank, NameTrump, Pass, parse_chance, parse_rank, parse_suit
from ..core.cards import CARDS, Card, parse_card
from ..core.errors import IllegalAction, ParseError
from ..core.game import CHANCE
from . import refusals as R
from .chinese import parse_arrange
from .phases.scoring import settle, split_undoubled
from .phases.turns import Turns
from .ruleset import Ruleset
from .state import (
    ARRANGE,
    DEAL,
    DECLARE,
    DOMINO_PLAY,
    DOUBLING,
    DRAW,
    OVER,
    PHASE_NAMES,
    PLAY,
    RANK,
    TRUMP,
    Business,
    DealResult,
    Points,
)
from .view import View, make_view, make_views

__all__ = [
    "Match",
    "CHANCE",
    "Business",
    "DealResult",
    "settle",
    "split_undoubled",
    "seat_name",
    "DRAW",
    "DEAL",
    "DECLARE",
    "TRUMP",
    "RANK",
    "DOUBLING",
    "PLAY",
    "DOMINO_PLAY",
    "OVER",
    "ARRANGE",
    "PHASE_NAMES",
]


class Match(Turns):
    """A whole match under one ruleset.  Mutable; `clone()` for a cheap copy."""

    __slots__ = ()

    def __new__(cls, rules: Ruleset | str = "classic", seed: int | None = None) -> "Match":
        """``Match(rules)`` builds the family's own match class where it has one (the Scottish game)."""
        if cls is Match:
            r = Ruleset.parse(rules) if isinstance(rules, str) else rules
            cls = r.family_spec.match_class or Match
        return object.__new__(cls)

    # ------------------------------------------------------------------ apply
    def apply(self, action: Any, seat: int | None = None) -> None:
        """Advance by one action; with ``seat``, first check it is that seat's turn."""
        ph = self.phase
        if ph == PLAY and type(action) is Card and seat is None:  # the hot path
            self._apply_card(action)
            self.history.append(action)
            return
        if isinstance(action, str):
            action = self.parse_action(action)
        if seat is not None:
            actor = self.to_act()
            if actor != seat:
                if actor is None:
                    raise IllegalAction.of(C.MATCH_OVER)
                raise (
                    IllegalAction.of(C.NOT_YOUR_TURN_CHANCE)
                    if actor == CHANCE
                    else IllegalAction.of(C.NOT_YOUR_TURN, seat=actor)
                )
        self._apply_phase(ph, action)
        self.history.append(action)

    def _apply_phase(self, ph: int, action: Any) -> None:
        """Check and apply one (parsed) action in phase ``ph``; families with phases of their own extend it."""
        if ph == PLAY:
            if type(action) is not Card and not (isinstance(action, int) and not isinstance(action, bool)):
                raise IllegalAction.of(R.TIME_TO_PLAY, action=str(action))
            if not 0 <= action < 52:
                raise IllegalAction.of(C.NOT_A_CARD_NUMBER, action=str(action))
            self._apply_card(action)
        elif ph == DOMINO_PLAY:
            if not isinstance(action, (int, Pass)) or isinstance(action, bool):
                raise IllegalAction.of(R.TIME_TO_PLAY_DOMINO, action=str(action))
            if isinstance(action, int) and not 0 <= action < 52:
                raise IllegalAction.of(C.NOT_A_CARD_NUMBER, action=str(action))
            self._apply_domino(action)
        elif ph == ARRANGE:
            self._apply_arrange(action)
        elif ph == DOUBLING:
            if not isinstance(action, Double):
                raise IllegalAction.of(R.NOT_A_DOUBLE, action=str(action))
            self._apply_double(action)
        elif ph == DECLARE:
            self._apply_declare(action)
        elif ph == TRUMP:
            self._apply_trump(action)
        elif ph == RANK:
            self._apply_rank(action)
        elif ph == DEAL:
            self._apply_deal(action)
        elif ph == DRAW:
            self._apply_draw(action)
        else:
            raise IllegalAction.of(C.MATCH_OVER)

    def play_chance(self) -> Any:
        """Sample and apply the pending chance event; returns it."""
        a = self.sample_chance()
        self.apply(a)
        return a

    # ------------------------------------------------------------------ undo
    def undo(self) -> Any:
        """Take back the last action (chance included) and return it.

        The match is rebuilt by replaying its history: a few milliseconds, and
        no per-deal snapshot slows the playouts down.  Search uses `clone()`.
        """
        if not self.history:
            raise IllegalAction.of(C.NOTHING_TO_UNDO)
        target = len(self.history) - 1
        last = self.history[target]
        base = type(self)(self.rules, self.seed)
        replay = self.history[:target]
        rng_state = self.rng.getstate()
        for a in replay:
            base.apply(a)
        for name in self.slot_names():
            setattr(self, name, getattr(base, name))
        self.rng.setstate(rng_state)
        return last

    # ------------------------------------------------------------------ parsing
    def parse_action(self, text: str) -> Any:
        """Read an action typed for the current phase: ``QH``, ``no-queens``, ``trump H``, ``double 1 3``…"""
        t = " ".join(text.strip().lower().split())
        ph = self.phase
        if ph == PLAY:
            return CARDS[parse_card(t)]
        if ph == DOMINO_PLAY:
            return PASS if t in ("pass", "p", "-") else CARDS[parse_card(t)]
        if ph == DECLARE:
            return self._parse_contract(t, text)
        if ph == TRUMP:
            return NameTrump(parse_suit(t.removeprefix("trump ")))
        if ph == RANK:
            return NameRank(parse_rank(t.removeprefix("rank ")))
        if ph == DOUBLING:
            return self._parse_double(t)
        if ph == ARRANGE:
            return parse_arrange(text)
        if ph in (DRAW, DEAL):
            return parse_chance(text, self.n)
        raise ParseError.of(R.NO_ACTION_EXPECTED)

    # ------------------------------------------------------------------ views
    def view(self, seat: int) -> View:
        return make_view(self, seat)

    def views(self) -> list[View]:
        """Every seat's view, cheaper than asking each seat in turn."""
        return make_views(self)

    # ------------------------------------------------------------------ convenience
    def current_trick(self) -> list[tuple[int, Card]]:
        return [((self.leader + i) % self.n, CARDS[c]) for i, c in enumerate(self.trick)]

    def seat_name(self, seat: int) -> str:
        return seat_name(seat, self.n)

    def totals_after(self, deals: int) -> list[Points]:
        """Running totals after the first ``deals`` finished deals."""
        t: list[Points] = [0] * self.n
        for r in self.results[:deals]:
            for s in range(self.n):
                t[s] += r.added[s]
        return t

    def standings(self) -> list[tuple[int, Points]]:
        """(seat, total) best first, by the family's rule of who wins."""
        rev = self.rules.family_spec.highest_wins
        return sorted(enumerate(self.totals), key=lambda t: (-t[1] if rev else t[1], t[0]))

    @classmethod
    def replay(cls, rules: Ruleset | str, actions: Iterable[Any], seed: int | None = None) -> "Match":
        m = cls(rules, seed)
        for a in actions:
            m.apply(a)
        return m


def seat_name(seat: int, n: int) -> str:
    """Seats are numbered from 0 everywhere, in text forms and on screen alike."""
    return f"seat {seat}"
