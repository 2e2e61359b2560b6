"""Every decision of a played match weighed after the fact: what it cost, seen from the seat and with all hands shown.

For each decision a seat made with a real choice, the review asks two questions:

- **From the seat's view** (what the player could know): the top computer player
  (`expert`) looks at the same view, samples the hidden hands (weighed by what the
  play so far makes likely), and gives every candidate action its mean points over
  the samples.  The cost of the choice is the best candidate's
  value minus the chosen one's, in the seat's own points.
- **With all hands shown**: every legal action gets its exact value where the
  exact solvers can give it.  In trick play that is the seat's points if it then
  plays its best and the others all play against it: always once every hand is
  down to ``exact_cards`` cards, and earlier whenever the solver proves each
  card's value within a budget of positions (``exact_seconds``).  A contract
  choice gets the declarer's cells of the deal's double-dummy table
  (`ddtable`), each contract played from its opening lead.  In Domino, Success
  and Patience (the layout solver) it is the seat's points when every seat then
  plays its best for itself (max^n), near the end of the deal.  The exact cost
  is the best action's value minus the chosen one's, given only when every
  legal action has its exact value.

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
from ..classic.state import DECLARE, DOMINO_PLAY, TRUMP, DealResult
from ..core.actions import Declare, NameTrump
from ..core.cards import CARDS, cards_of
from ..solver import fast
from ..solver.layout import LayoutSolver, affordable_cards, cards_left, layout_action, layout_spec_of, layout_state_of
from ..solver.position import objective, spec_of, state_of
from ..solver.pure import after_card, distinct_moves
from .ddtable import POSITIONS_PER_SECOND, options, solve_cell

DEFAULT_SAMPLES = 60
DEFAULT_SECONDS = 2.0
#: Exact values once every hand holds at most this many cards (the compiled solver's comfortable range).
DEFAULT_EXACT_CARDS = 7
#: Before that, the solver's budget for a decision's exact values (all its cards), and for each cell of a
#: contract choice's double-dummy row.
DEFAULT_EXACT_SECONDS = 0.5
#: In the layout games, exact values also wait until this many times the playouts' solved cards are left in
#: all hands (Domino and Success: 24 cards, Patience: 16), a few tens of milliseconds a decision.
LAYOUT_REACH = 2


@dataclass
class Decision:
    """One decision of one seat, weighed."""

    deal: int  # 1-based deal number
    step: int  # 1-based decision number within the deal (every seat's choices counted)
    seat: int
    phase: str
    chosen: Any  # the action taken
    best: Any  # the action the top player rates best from the seat's view
    cost: float | None  # points the choice lost against ``best``, from the seat's view
    values: list[tuple[Any, float]] = field(default_factory=list)  # (action, mean points), best first
    exact_best: Any = None  # the best action with every hand shown (small hands only)
    exact_cost: int | None = None  # points the choice lost against ``exact_best``
    exact_values: list[tuple[Any, int]] = field(default_factory=list)
    trick: int | None = None  # in trick play, the 1-based trick of the deal the card went to
    turn: int | None = None  # at a layout (Domino, Success, Patience), the seat's 1-based turn there this deal


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


def weigh(
    match: Match, action: Any, agent: SearchAgent, exact_cards: int, exact_seconds: float = 0.0
) -> tuple[Any, float | None, list, Any, int | None, list]:
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
    # None at all with exact_cards=0: a review for a player who must not learn the hidden cards.
    ex_values = exact_values(match, seat, sign, exact_cards, exact_seconds) if exact_cards else []
    ex_best, ex_cost = None, None
    ex_values.sort(key=lambda x: -sign * x[1])
    mine = next((v for a, v in ex_values if a == action), None)
    if mine is not None and len(ex_values) == len(match.legal_actions()):
        ex_best = ex_values[0][0]
        ex_cost = sign * (ex_values[0][1] - mine)
    return best, cost, values, ex_best, ex_cost, ex_values


def exact_values(match: Match, seat: int, sign: int, exact_cards: int, exact_seconds: float) -> list[tuple[Any, int]]:
    """Each legal action's exact value for ``seat`` with every hand shown, where the solvers give it (else [])."""
    if match.phase == PLAY:
        if max(h.bit_count() for h in match.hands) <= exact_cards:
            raw = fast.move_values(objective(spec_of(match), sign), [state_of(match)])[0]
            return [(CARDS[c], sign * v) for c, v in raw]
        return budgeted_card_values(match, seat, sign, exact_seconds) if exact_seconds > 0 else []
    if match.phase == DOMINO_PLAY:
        return layout_values(match, seat)
    if match.phase in (DECLARE, TRUMP) and exact_seconds > 0:
        return contract_values(match, seat, exact_seconds)
    return []


def budgeted_card_values(match: Match, seat: int, sign: int, seconds: float) -> list[tuple[Any, int]]:
    """Each legal card's exact value for ``seat`` (as `fast.move_values`), or none unless the solver proves
    every one of them within ``seconds`` in all (cards alike share their value and one search)."""
    spec, state = objective(spec_of(match), sign), state_of(match)
    hand, legal = match.hands[seat], match.legal_mask()
    tried = distinct_moves(spec, legal, hand, in_play(state))
    budget = max(1, int(seconds * POSITIONS_PER_SECOND / max(1, len(tried))))
    out, value = [], 0
    for c in cards_of(legal):
        if c in tried:
            lo, hi, _ = fast.solve_seat(spec, after_card(spec, state, c), seat, budget)
            if lo != hi:
                return []
            value = lo
        out.append((CARDS[c], sign * value))
    return out


def in_play(state) -> int:
    """The cards still in play (in hands or on the table) of a solver position."""
    m = 0
    for h in state.hands:
        m |= h
    for c in state.trick:
        m |= 1 << c
    return m


def contract_values(match: Match, seat: int, seconds: float) -> list[tuple[Any, int]]:
    """At a contract (or trump suit) choice: each choice with the chooser's exact points from the deal's
    double-dummy table (its cells within ``seconds`` each; a trump contract is worth its best suit).  The
    choices without trick play, or whose cells the solver did not finish, get no value."""
    found, _left_out = options(match)  # at a trump choice: the suits of the contract named
    by_choice: dict[Any, list[int | None]] = {}
    for opt in found:
        cell = solve_cell(opt, seat, seconds)
        key = Declare(opt.contract) if match.phase == DECLARE else NameTrump(opt.trump)
        by_choice.setdefault(key, []).append(cell.least if cell.exact else None)
    sign = sign_of(match)
    out: list[tuple[Any, int]] = []
    for a in match.legal_actions():
        got = by_choice.get(a)
        if got and all(v is not None for v in got):
            known = [v for v in got if v is not None]
            out.append((a, max(known, key=lambda v: sign * v)))
    return out


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


def review_match(
    rules: str,
    seed: int | None,
    actions: Iterable[str],
    *,
    deals: set[int] | None = None,
    seats: set[int] | None = None,
    samples: int = DEFAULT_SAMPLES,
    seconds: float = DEFAULT_SECONDS,
    exact_cards: int = DEFAULT_EXACT_CARDS,
    exact_seconds: float = DEFAULT_EXACT_SECONDS,
    agent_seed: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Replay a match's actions and weigh every real choice of the deals and seats asked for (all by default).

    ``progress(deal, step)`` is called before each weighed decision.  ``exact_cards=0`` turns off every value
    with all hands shown (``exact_seconds`` too): a review for a player who has not seen every card.
    """
    m = Match(rules, seed)
    agent = ExpertAgent(agent_seed, samples=samples, seconds=seconds)
    decisions: list[Decision] = []
    step, current = 0, 0
    turns: dict[int, int] = {}  # each seat's turns at the layout in this deal
    for text in actions:
        actor = m.to_act()
        action = m.parse_action(text)
        deal = len(m.results) + 1
        if deal != current:
            step, current, turns = 0, deal, {}
        if actor == CHANCE or actor is None:
            m.apply(action)
            continue
        step += 1
        if m.phase == DOMINO_PLAY:
            turns[actor] = turns.get(actor, 0) + 1
        wanted = (deals is None or deal in deals) and (seats is None or actor in seats)
        if wanted and len(m.legal_actions()) > 1:
            if progress:
                progress(deal, step)
            phase = m.phase_name
            trick = len(m.view(actor).tricks) + 1 if m.phase == PLAY else None
            turn = turns.get(actor) if m.phase == DOMINO_PLAY else None
            best, cost, values, ex_best, ex_cost, ex_values = weigh(m, action, agent, exact_cards, exact_seconds)
            decisions.append(
                Decision(deal, step, actor, phase, action, best, cost, values, ex_best, ex_cost, ex_values, trick, turn)
            )
        m.apply(action, seat=actor)
    return Review(str(m.rules), m.n, decisions, list(m.results))
