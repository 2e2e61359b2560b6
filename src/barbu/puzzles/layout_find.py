"""Domino and Success puzzles: a seat's move at the layout where one move is best by a clear margin.

The layout games score only the finishing order, and their exact solver (`barbu.solver.layout`, max^n, each
seat playing for its own points) is quick once few cards are left: a decision is weighed once the hands hold
at most `LAYOUT_REACH` times the solver's affordable cards together, as the review weighs it
(`barbu.analysis.review.layout_values`).  A position is kept where the seat has a real choice, one move (or
moves equivalent to it: the solver reaches the same position after each) is best, and every other costs at
least the contract's smallest step between two places.  The walk, the rebuild in a fresh match and the
rule-player filter are those of trick play (`find`); only the solving differs.  Layout puzzles are of the
"open" kind (every hand shown).  See docs/puzzles.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..analysis.review import LAYOUT_REACH
from ..classic.match import Match
from ..classic.state import DOMINO_PLAY
from ..solver.layout import (
    PASS_MOVE,
    LayoutSolver,
    LayoutSpec,
    LayoutState,
    affordable_cards,
    cards_left,
    layout_action,
    layout_spec_of,
    layout_state_of,
    legal_moves,
    play,
)
from .find import Judged, Position, Tally, decisions, obvious_action, rebuild
from .model import OPEN, Puzzle, puzzle_id


def in_reach(m: Match) -> bool:
    """Whether ``m`` is at a layout move (Domino, Success) the exact solver weighs quickly."""
    if m.phase != DOMINO_PLAY:
        return False
    try:
        spec = layout_spec_of(m)
    except (ValueError, AttributeError, KeyError):
        return False
    return spec.groups == 0 and cards_left(layout_state_of(m)) <= LAYOUT_REACH * affordable_cards(spec)


def layout_margin(spec: LayoutSpec) -> int:
    """The least a wrong move must cost: the smallest step between two places' points (places past the
    contract's list score nothing)."""
    places = (list(spec.finishing) + [0] * spec.n)[: spec.n]
    steps = [abs(a - b) for a, b in zip(places, places[1:]) if a != b]
    return min(steps, default=1)


def moves_of(spec: LayoutSpec, state: LayoutState, solver: LayoutSolver) -> list[list[int]]:
    """The legal moves in classes of moves equivalent for the solver: the same position after each (or the
    same end of the deal)."""
    out: dict[object, list[int]] = {}
    for move in legal_moves(spec, state):
        nxt = play(spec, state, move)
        key: object = ("end", move) if nxt is None else solver.key(nxt)
        out.setdefault(key, []).append(move)
    return list(out.values())


def layout_judge(spec: LayoutSpec, state: LayoutState, solver: LayoutSolver) -> Judged:
    """Solve every legal move of the seat to play and say whether the position is a puzzle (``reason`` None)
    or why not.  Moves are the solver's (card masks, 0 the pass); values are the seat's points."""
    seat = state.turn
    raw = solver.move_values(state)
    if len(raw) < 2:
        return Judged([], [], [], 0, "forced")
    if any(m == PASS_MOVE for m, _ in raw):  # Success's pass after an ace: the tables offer cards only
        return Judged([], [], [], 0, "pass")
    values = sorted(((m, spec.sign * v[seat]) for m, v in raw), key=lambda mv: (-mv[1], mv[0]))
    best = values[0][1]
    value = spec.sign * best
    if all(v == best for _, v in values):
        return Judged(values, [], [], value, "all-equal")
    group = next(g for g in moves_of(spec, state, solver) if values[0][0] in g)
    if any(m not in group for m, v in values if v == best):
        return Judged(values, [], [], value, "two-best")
    costs = sorted(((m, best - v) for m, v in values if m not in group), key=lambda mc: (mc[1], mc[0]))
    reason = None if min(x for _, x in costs) >= layout_margin(spec) else "small-margin"
    return Judged(values, sorted(group), costs, value, reason)


def stuck(spec: LayoutSpec, state: LayoutState, move: int) -> int:
    """How many of the other seats still in hold no card they may lay right after ``move``."""
    nxt = play(spec, state, move)
    if nxt is None:
        return 0
    return sum(1 for s, h in enumerate(nxt.hands) if s != state.turn and h and not h & nxt.playable)


def layout_theme(spec: LayoutSpec, state: LayoutState, solution: int, costly: Sequence[int]) -> str:
    """ "block" where the solution leaves more of the others without a card to lay than some other move would;
    else "lay" (which of the cards that fit to lay now)."""
    after = stuck(spec, state, solution)
    return "block" if any(stuck(spec, state, m) < after for m in costly) else "lay"


def action_text(move: int) -> str:
    return str(layout_action(move))


def find_layout(
    rules: str,
    actions: Sequence[str],
    source: str,
    tally: Tally | None = None,
    seats: set[int] | None = None,
    keep_obvious: bool = False,
) -> list[Puzzle]:
    """The layout puzzles (open kind) of one record (its ruleset's text form and its actions as text)."""
    tally = tally if tally is not None else Tally()
    solvers: dict[LayoutSpec, LayoutSolver] = {}  # one a deal: its table serves every later decision
    out: list[Puzzle] = []
    for pos in decisions(rules, actions, in_reach):
        if seats is not None and pos.seat not in seats:
            continue
        tally.positions += 1
        spec = layout_spec_of(pos.match)
        solver = solvers.setdefault(spec, LayoutSolver(spec))
        p = layout_puzzle_at(rules, pos, source, tally, solver, keep_obvious)
        if p is not None:
            out.append(p)
    return out


def layout_puzzle_at(
    rules: str, pos: Position, source: str, tally: Tally, solver: LayoutSolver, keep_obvious: bool = False
) -> Puzzle | None:
    """The layout puzzle at one position, or None (the reason counted in ``tally``)."""
    m = pos.match
    spec, state = solver.spec, layout_state_of(m)
    j = layout_judge(spec, state, solver)
    if j.reason is None and not keep_obvious and obvious_action(m, pos.seat, [action_text(x) for x in j.solution]):
        j.reason = "obvious"
    if j.reason is not None:
        tally.rejected[j.reason] += 1
        return None
    acts = rebuild(rules, pos)
    if acts is None:
        tally.rejected["rebuild"] += 1
        return None
    contract = m.contract.key if m.contract is not None else ""
    tally.found[(contract, OPEN)] += 1
    return Puzzle(
        id=puzzle_id(str(m.rules), acts, pos.seat, OPEN),
        kind=OPEN,
        rules=str(m.rules),
        family=m.rules.family,
        contract=contract,
        trump=None,
        actions=acts,
        seat=pos.seat,
        solution=tuple(action_text(x) for x in j.solution),
        costs=tuple((action_text(x), c) for x, c in j.costs),
        value=j.value,
        theme=layout_theme(spec, state, j.solution[0], [x for x, _ in j.costs]),
        share=None,
        samples=0,
        source=source,
        source_deal=pos.deal,
    )


def layout_problems(m: Match, p: Puzzle, strict: bool = True) -> list[str]:
    """What is wrong with a layout puzzle, solved again from its position by a fresh layout solver (empty:
    all is right).  ``strict``: one class of equivalent moves, every other at least the margin."""
    spec, state = layout_spec_of(m), layout_state_of(m)
    solver = LayoutSolver(spec)
    if p.kind != OPEN or p.line:
        return ["a layout puzzle is of the open kind, without a line"]
    values = {action_text(mv): spec.sign * v[state.turn] for mv, v in solver.move_values(state)}
    listed = list(p.solution) + [a for a, _ in p.costs]
    if sorted(listed) != sorted(values):
        return [f"the puzzle lists {sorted(listed)}, the legal moves are {sorted(values)}"]
    problems: list[str] = []
    best = max(values.values())
    if any(values[a] != best for a in p.solution):
        problems.append(f"the solution {list(p.solution)} is not best: {sorted(values.items())}")
    group = next(g for g in moves_of(spec, state, solver) if p.solution[0] in [action_text(x) for x in g])
    if strict and sorted(action_text(x) for x in group) != sorted(p.solution):
        problems.append(f"the solution {list(p.solution)} is not one class of equivalent moves")
    for a, cost in p.costs:
        if best - values[a] != cost:
            problems.append(f"{a} costs {best - values[a]}, not {cost}")
    if strict and p.costs and min(c for _, c in p.costs) < layout_margin(spec):
        problems.append(f"a wrong move costs less than the margin {layout_margin(spec)}")
    if spec.sign * best != p.value:
        problems.append(f"the value is {spec.sign * best}, not {p.value}")
    return problems
