"""Every decision of a played match weighed after the fact: what it cost, seen from the seat and with all hands shown.

For each decision a seat made with a real choice, the review asks two questions:

- **From the seat's view** (what the player could know): the top computer player
  (`expert`) looks at the same view, samples the hidden hands (weighed by what the
  play so far makes likely), and gives every candidate action its mean points over
  the samples.  The cost of the choice is the best candidate's
  value minus the chosen one's, in the seat's own points.
- **With all hands shown**: once the hands are small enough for the exact
  solvers, every legal action gets its exact value.  In trick play that is the
  seat's points if it then plays its best and the others all play against it; in
  Domino, Success and Patience (the layout solver) it is the seat's points when
  every seat then plays its best for itself (max^n).  The exact cost is the best
  action's value minus the chosen one's.

Costs are points lost, always positive or zero: where fewest points win (the
French penalty points) a cost is points the choice added.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..agents.expert import ExpertAgent
from ..agents.search import SearchAgent
from ..classic.match import CHANCE, PLAY, Match
from ..classic.state import DOMINO_PLAY, DealResult
from ..core.cards import CARDS
from ..solver import fast
from ..solver.layout import (LayoutSolver, affordable_cards, cards_left, layout_action, layout_spec_of,
                             layout_state_of)
from ..solver.position import objective, spec_of, state_of

DEFAULT_SAMPLES = 60
DEFAULT_SECONDS = 2.0
#: Exact values once every hand holds at most this many cards (the compiled solver's comfortable range).
DEFAULT_EXACT_CARDS = 7
#: In the layout games, exact values also wait until this many times the playouts' solved cards are left in
#: all hands (Domino and Success: 24 cards, Patience: 16), a few tens of milliseconds a decision.
LAYOUT_REACH = 2


@dataclass
class Decision:
    """One decision of one seat, weighed."""

    deal: int                      # 1-based deal number
    step: int                      # 1-based decision number within the deal (every seat's choices counted)
    seat: int
    phase: str
    chosen: Any                    # the action taken
    best: Any                      # the action the top player rates best from the seat's view
    cost: float | None             # points the choice lost against ``best``, from the seat's view
    values: list[tuple[Any, float]] = field(default_factory=list)  # (action, mean points), best first
    exact_best: Any = None         # the best action with every hand shown (small hands only)
    exact_cost: int | None = None  # points the choice lost against ``exact_best``
    exact_values: list[tuple[Any, int]] = field(default_factory=list)


@dataclass
class Review:
    """The weighed decisions of a match (or of the deals and seats asked for)."""

    rules: str
    players: int
    decisions: list[Decision]
    results: list[DealResult] = field(default_factory=list)  # every finished deal of the match

    def costliest(self, seat: int, count: int = 5) -> list[Decision]:
        """The seat's decisions that cost most from its own view, costliest first (ties: exact cost)."""
        mine = [d for d in self.decisions if d.seat == seat and d.cost is not None]
        return sorted(mine, key=lambda d: (-(d.cost or 0), -(d.exact_cost or 0), d.deal, d.step))[:count]

    def total_cost(self, seat: int) -> float:
        return sum(d.cost or 0.0 for d in self.decisions if d.seat == seat)

    def total_exact_cost(self, seat: int) -> int:
        return sum(d.exact_cost or 0 for d in self.decisions if d.seat == seat)


def sign_of(match: Match) -> int:
    """+1 where a seat wants points, -1 where fewest points win."""
    return 1 if match.rules.family_spec.highest_wins else -1


def weigh(match: Match, action: Any, agent: SearchAgent, exact_cards: int) -> tuple[Any, float | None, list, Any,
                                                                                    int | None, list]:
    """(best, cost, values, exact best, exact cost, exact values) of taking ``action`` in ``match`` now."""
    seat = match.to_act()
    assert seat is not None and seat >= 0
    sign = sign_of(match)
    agent.act(match.view(seat))
    values = list(agent.last_values)
    best, cost = None, None
    if values:
        best = values[0][0]
        chosen = next((v for a, v in values if a == action), None)
        cost = None if chosen is None else max(0.0, values[0][1] - chosen)
    ex_values: list = []
    if exact_cards and max(h.bit_count() for h in match.hands) <= exact_cards:
        if match.phase == PLAY:
            raw = fast.move_values(objective(spec_of(match), sign), [state_of(match)])[0]
            ex_values = [(CARDS[c], sign * v) for c, v in raw]
        elif match.phase == DOMINO_PLAY:
            ex_values = layout_values(match, seat)
    ex_best, ex_cost = None, None
    ex_values.sort(key=lambda x: -sign * x[1])
    mine = next((v for a, v in ex_values if a == action), None)
    if mine is not None:
        ex_best = ex_values[0][0]
        ex_cost = sign * (ex_values[0][1] - mine)
    return best, cost, values, ex_best, ex_cost, ex_values


def layout_values(match: Match, seat: int) -> list[tuple[Any, int]]:
    """Each legal Domino, Success or Patience move of ``seat`` with its exact points (max^n), or none
    while too many cards are left for a quick solve."""
    try:
        spec = layout_spec_of(match)
    except (ValueError, AttributeError, KeyError):
        return []
    state = layout_state_of(match)
    if cards_left(state) > LAYOUT_REACH * affordable_cards(spec):
        return []
    return [(layout_action(move), v[seat]) for move, v in _layout_solver(spec).move_values(state)]


@lru_cache(maxsize=2)
def _layout_solver(spec) -> LayoutSolver:
    """One solver a deal: its table serves every later decision of the same deal."""
    return LayoutSolver(spec)


def review_match(rules: str, seed: int | None, actions: Iterable[str], *, deals: set[int] | None = None,
                 seats: set[int] | None = None, samples: int = DEFAULT_SAMPLES, seconds: float = DEFAULT_SECONDS,
                 exact_cards: int = DEFAULT_EXACT_CARDS, agent_seed: int = 1,
                 progress: Callable[[int, int], None] | None = None) -> Review:
    """Replay a match's actions and weigh every real choice of the deals and seats asked for (all by default).

    ``progress(deal, step)`` is called before each weighed decision.
    """
    m = Match(rules, seed)
    agent = ExpertAgent(agent_seed, samples=samples, seconds=seconds)
    decisions: list[Decision] = []
    step, current = 0, 0
    for text in actions:
        actor = m.to_act()
        action = m.parse_action(text)
        deal = len(m.results) + 1
        if deal != current:
            step, current = 0, deal
        if actor == CHANCE or actor is None:
            m.apply(action)
            continue
        step += 1
        wanted = (deals is None or deal in deals) and (seats is None or actor in seats)
        if wanted and len(m.legal_actions()) > 1:
            if progress:
                progress(deal, step)
            phase = m.phase_name
            best, cost, values, ex_best, ex_cost, ex_values = weigh(m, action, agent, exact_cards)
            decisions.append(Decision(deal, step, actor, phase, action, best, cost, values,
                                      ex_best, ex_cost, ex_values))
        m.apply(action, seat=actor)
    return Review(str(m.rules), m.n, decisions, list(m.results))
