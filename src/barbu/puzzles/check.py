"""A puzzle proved again by the pure-Python solver: the twin of the compiled one that found it, so that a bug
in either shows as a disagreement (`verify`)."""

from __future__ import annotations

from ..classic.match import PLAY
from ..core.cards import CARDS
from ..solver import pure
from ..solver.position import objective, spec_of, state_of
from .find import classes, margin, sign_of
from .model import SINGLE, Puzzle, PuzzleError
from .single import SHARE


def verify(p: Puzzle) -> list[str]:
    """What is wrong with a puzzle, solved again from its actions by the pure solver (empty: all is right)."""
    try:
        m = p.match()
    except PuzzleError as e:
        return [str(e)]
    if m.phase != PLAY:
        return ["only trick play is checked: the position is not a card to play in a trick"]
    spec, state, sign = spec_of(m), state_of(m), sign_of(m)
    values = dict(pure.move_values(objective(spec, sign), [state])[0])
    names = {str(CARDS[c]): c for c in values}
    problems: list[str] = []
    listed = list(p.solution) + [a for a, _ in p.costs]
    if sorted(listed) != sorted(names):
        return [f"the puzzle lists {sorted(listed)}, the legal cards are {sorted(names)}"]
    best = max(values.values())
    solution = [names[a] for a in p.solution]
    if any(values[c] != best for c in solution):
        problems.append(f"the solution {list(p.solution)} is not best: {sorted(values.items())}")
    group = next(g for g in classes(spec, m.legal_mask(), m.hands[p.seat], state) if solution[0] in g)
    if not p.source.startswith("mine:") and sorted(group) != sorted(solution):
        problems.append(f"the solution {list(p.solution)} is not one class of equivalent cards")
    for a, cost in p.costs:
        if best - values[names[a]] != cost:
            problems.append(f"{a} costs {best - values[names[a]]}, not {cost}")
    if sign * best != p.value:
        problems.append(f"the value is {sign * best}, not {p.value}")
    if not p.source.startswith("mine:") and p.costs and min(c for _, c in p.costs) < margin(spec):
        problems.append(f"a wrong card costs less than the margin {margin(spec)}")
    if p.kind == SINGLE and (p.share is None or p.share < SHARE or p.samples <= 0):
        problems.append(f"a single puzzle's share {p.share} on {p.samples} deals is under {SHARE}")
    return problems
