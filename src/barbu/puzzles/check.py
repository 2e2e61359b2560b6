"""A puzzle proved again by the pure-Python solver: the twin of the compiled one that found it, so that a bug
in either shows as a disagreement (`verify`)."""

from __future__ import annotations

from collections.abc import Sequence

from ..classic.match import PLAY, Match
from ..classic.state import DOMINO_PLAY
from ..core.cards import CARDS, cards_of
from ..solver import pure
from ..solver.position import objective, spec_of, state_of
from .find import classes, margin, sign_of
from .layout_find import layout_problems
from .model import SINGLE, Puzzle, PuzzleError
from .single import SHARE


def verify(p: Puzzle) -> list[str]:
    """What is wrong with a puzzle, solved again from its actions by the pure solver (empty: all is right).
    Each step of its line is checked too: the others' replies their best against the seat, then the card."""
    try:
        m = p.match()
    except PuzzleError as e:
        return [str(e)]
    mine = p.source.startswith("mine:")
    if m.phase == DOMINO_PLAY:  # Domino, Success: the layout solver (pure Python) weighs every move again
        return layout_problems(m, p, strict=not mine)
    problems = decision(m, p.seat, p.solution, p.costs, strict=not mine)
    if problems:
        return problems
    if sign_of(m) * best_value(m) != p.value:
        problems.append(f"the value is {sign_of(m) * best_value(m)}, not {p.value}")
    if p.kind == SINGLE and (p.share is None or p.share < SHARE or p.samples <= 0):
        problems.append(f"a single puzzle's share {p.share} on {p.samples} deals is under {SHARE}")
    card = p.solution[0]
    for n, step in enumerate(p.line, start=1):
        m.apply(m.parse_action(card))
        for reply in step.replies:
            if m.phase != PLAY or m.to_act() == p.seat:
                return [*problems, f"step {n}: the replies {list(step.replies)} do not fit the position"]
            wrong = reply_problem(m, p.seat, m.parse_action(reply))
            if wrong:
                return [*problems, f"step {n}: {wrong}"]
            m.apply(m.parse_action(reply))
        if m.phase != PLAY or m.to_act() != p.seat:
            return [*problems, f"step {n}: the seat is not to play after the replies"]
        problems += [f"step {n}: {x}" for x in decision(m, p.seat, step.solution, step.costs, strict=True)]
        card = step.solution[0]
    return problems


def best_value(m: Match) -> int:
    """The best card's value for the player to act, in its objective's points (pure solver)."""
    return max(v for _, v in pure.move_values(objective(spec_of(m), sign_of(m)), [state_of(m)])[0])


def decision(m: Match, seat: int, solution: Sequence[str], costs: Sequence[tuple[str, int]], strict: bool) -> list[str]:
    """What is wrong with one decision's solution and costs.  ``strict``: one class of equivalent cards, and
    every other card at least the margin (a player's own puzzle asks neither)."""
    if m.phase != PLAY:
        return ["only trick play is checked: the position is not a card to play in a trick"]
    spec, state = spec_of(m), state_of(m)
    values = dict(pure.move_values(objective(spec, sign_of(m)), [state])[0])
    names = {str(CARDS[c]): c for c in values}
    listed = list(solution) + [a for a, _ in costs]
    if sorted(listed) != sorted(names):
        return [f"the puzzle lists {sorted(listed)}, the legal cards are {sorted(names)}"]
    problems: list[str] = []
    best = max(values.values())
    chosen = [names[a] for a in solution]
    if any(values[c] != best for c in chosen):
        problems.append(f"the solution {list(solution)} is not best: {sorted(values.items())}")
    group = next(g for g in classes(spec, m.legal_mask(), m.hands[seat], state) if chosen[0] in g)
    if strict and sorted(group) != sorted(chosen):
        problems.append(f"the solution {list(solution)} is not one class of equivalent cards")
    for a, cost in costs:
        if best - values[names[a]] != cost:
            problems.append(f"{a} costs {best - values[names[a]]}, not {cost}")
    if strict and costs and min(c for _, c in costs) < margin(spec):
        problems.append(f"a wrong card costs less than the margin {margin(spec)}")
    return problems


def reply_problem(m: Match, seat: int, card: int) -> str | None:
    """Why ``card`` is not the reply that leaves ``seat`` fewest points (None: it is)."""
    spec, state = objective(spec_of(m), sign_of(m)), state_of(m)
    left = {int(c): pure.solve_seat(spec, pure.after_card(spec, state, c), seat)[0] for c in cards_of(m.legal_mask())}
    if int(card) not in left:
        return f"the reply {CARDS[card]} is not a legal card"
    if left[int(card)] != min(left.values()):
        return f"the reply {CARDS[card]} leaves the seat {left[int(card)]}, not the least, {min(left.values())}"
    return None
