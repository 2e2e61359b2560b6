"""A player's own puzzles: after a match, the card decisions in which the exact solver (every hand shown, the
match over) finds that the player lost most, each set as a puzzle to solve again.

The decisions weighed are the seat's cards once every hand holds at most `find.EXACT_CARDS` cards, where the
solver is exact in milliseconds.  The solution is every card as good as the best (a player's own position need
not have a single best card: any best card is right), and a decision is kept only where the card played cost
something.  The source reads ``mine:<record>/<deal>``.
"""

from __future__ import annotations

from pathlib import Path

from ..core.cards import CARDS
from ..records.barbu import Record, read_record
from ..solver import fast
from ..solver.position import objective, spec_of, state_of
from .find import EXACT_CARDS, Position, positions, rebuild, sign_of
from .model import OPEN, Puzzle, puzzle_id
from .themes import classify


def from_record(
    record: Record | str | Path, seat: int, limit: int = 5, name: str | None = None, exact_cards: int = EXACT_CARDS
) -> list[Puzzle]:
    """The seat's ``limit`` costliest card decisions of a finished match as puzzles, costliest first (a record,
    or the path of one; ``name`` goes in the source, the file's name by default)."""
    if not isinstance(record, Record):
        name = name or Path(record).stem
        record = read_record(record)
    rules = str(record.rules)
    name = name or str(record.header.get("name") or record.header.get("id") or "record")
    found: list[tuple[int, Puzzle]] = []
    for pos in positions(rules, [text for _, text in record.actions], exact_cards):
        if pos.seat != seat or pos.match.legal_mask().bit_count() < 2:
            continue
        got = _mistake(rules, pos, name)
        if got is not None:
            found.append(got)
    found.sort(key=lambda cp: (-cp[0], cp[1].source_deal))
    return [p for _, p in found[:limit]]


def _mistake(rules: str, pos: Position, name: str) -> tuple[int, Puzzle] | None:
    """(what the card played cost, the puzzle) where the record's card was not best, else None."""
    m = pos.match
    spec, state, sign = spec_of(m), state_of(m), sign_of(m)
    raw = fast.move_values(objective(spec, sign), [state])[0]
    best = max(v for _, v in raw)
    played = m.parse_action(pos.played)
    lost = best - dict(raw)[int(played)]
    if lost <= 0:
        return None
    acts = rebuild(rules, pos)
    if acts is None:
        return None
    solution = sorted(c for c, v in raw if v == best)
    costs = sorted(((c, best - v) for c, v in raw if v != best), key=lambda cv: (cv[1], cv[0]))
    contract = m.contract.key if m.contract is not None else ""
    rules_text = str(m.rules)
    return lost, Puzzle(
        id=puzzle_id(rules_text, acts, pos.seat, OPEN),
        kind=OPEN,
        rules=rules_text,
        family=m.rules.family,
        contract=contract,
        trump=spec.trump if spec.trump >= 0 else None,
        actions=acts,
        seat=pos.seat,
        solution=tuple(str(CARDS[c]) for c in solution),
        costs=tuple((str(CARDS[c]), x) for c, x in costs),
        value=sign * best,
        theme=classify(spec, state, pos.seat, solution[0], [c for c, _ in costs], solution),
        source=f"mine:{name}/{pos.deal}",
        source_deal=pos.deal,
    )
