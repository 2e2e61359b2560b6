"""The double-dummy table of a deal: what each seat would score at each contract with every hand shown.

Bridge players get such a table from a double-dummy solver for every deal.  Here,
for the four (or three to six) hands of a deal as dealt, each contract the
declarer could have chosen (each trump suit of a trump contract) is played from
its opening lead by the exact solver, once for each seat: the seat plays its
best and all the others play against it (`barbu.solver.fast.solve_seat`, a
paranoid search).  A cell is the seat's base points for the deal, doubles left
out: what it can make sure of whatever the others do.

Each cell gets a budget of positions; a search that runs out gives the least and
the most the seat's points can be as far as it got, and the table says so rather
than guess.  The layout games (Domino, Success, Patience) have no trick play and
are left out (their solver reaches only the last rounds of a deal).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..classic.match import CHANCE, Match
from ..classic.state import DECLARE, DOUBLING, PLAY, TRUMP
from ..solver import fast
from ..solver.position import Spec, State, objective, spec_of, state_of
from ..solver.pure import static_bounds

#: Positions the compiled search visits in a second on one core (about 15 million on the machine the figures
#: in docs/solver.md come from); a budget in seconds is turned into positions with it, so that a table comes
#: out the same on every machine and every run.
POSITIONS_PER_SECOND = 15_000_000
DEFAULT_CELL_SECONDS = 2.0


@dataclass(frozen=True)
class Cell:
    """One seat's base points at one contract with every hand shown: exact when ``least == most``.

    ``floor`` and ``ceiling`` are the least and the most before any search (the points still to take): a bound
    of a cell the solver did not finish that is still there proves nothing, and is shown as open."""

    least: int
    most: int
    positions: int = 0
    floor: int | None = None
    ceiling: int | None = None

    @property
    def exact(self) -> bool:
        return self.least == self.most

    @property
    def proved_least(self) -> int | None:
        """The least the search proved (None: no more than the floor)."""
        return self.least if self.exact or self.floor is None or self.least > self.floor else None

    @property
    def proved_most(self) -> int | None:
        """The most the search proved (None: no less than the ceiling)."""
        return self.most if self.exact or self.ceiling is None or self.most < self.ceiling else None


@dataclass
class Row:
    """One contract (and trump suit) the declarer could have chosen, with each seat's cell."""

    contract: str  # the contract's key, as in the records
    #: The trump suit 0..3 (spades, hearts, diamonds, clubs); None for no trump (as in `DealResult`).
    trump: int | None
    cells: list[Cell] = field(default_factory=list)
    chosen: bool = False  # the contract (and suit) the declarer chose in the game


@dataclass
class DDTable:
    """A deal's double-dummy table."""

    deal: int  # 1-based deal number in its match
    declarer: int | None  # who chose the contract (and leads), None where the rules fix it
    hands: tuple[int, ...]  # the hands as dealt
    rows: list[Row]
    left_out: list[str]  # contracts the declarer could choose that have no trick play (layout games)

    @property
    def exact(self) -> bool:
        return all(c.exact for r in self.rows for c in r.cells)


@dataclass(frozen=True)
class Option:
    """A contract the declarer could choose, as the solver sees it from the opening lead."""

    contract: str
    trump: int | None
    spec: Spec  # the points the solver maximises (negated where fewest points win)
    state: State
    sign: int


def deal_start(rules: str, seed: int | None, actions: Iterable[str], deal: int) -> Match:
    """The match of a record at deal ``deal``'s first decision (the cards dealt, nothing chosen yet)."""
    m = Match(rules, seed)
    for text in actions:
        if len(m.results) == deal - 1 and m.to_act() not in (CHANCE, None):
            return m
        if len(m.results) >= deal:
            break
        m.apply(m.parse_action(text))
    if len(m.results) == deal - 1 and m.to_act() not in (CHANCE, None):
        return m
    raise ValueError(f"deal {deal} is not in this record")


def options(start: Match) -> tuple[list[Option], list[str]]:
    """Every trick-play contract open at ``start`` (a match at a deal's first decision), and the contracts
    left out (no trick play)."""
    deal = len(start.results)
    sign = 1 if start.rules.family_spec.highest_wins else -1
    found: list[Option] = []
    left_out: list[str] = []

    def walk(m: Match, contract: str | None, trump: int | None) -> None:
        if len(m.results) != deal:  # the deal ended unplayed (a rule that scores it without play)
            return
        if m.phase == PLAY:
            key = contract or str(m.contract)
            found.append(Option(key, trump, objective(spec_of(m), sign), state_of(m), sign))
            return
        if m.to_act() in (CHANCE, None):
            return
        legal = m.legal_actions()
        if m.phase == DECLARE:
            for a in legal:
                x = m.clone()
                x.apply(a)
                walk(x, str(x.contract), None)
        elif m.phase == TRUMP:
            for a in legal:
                x = m.clone()
                x.apply(a)
                walk(x, contract, getattr(a, "suit", None))
        elif m.phase == DOUBLING:
            # Doubles change the points, not the play; a double makes sure a negative deal is played.
            x = m.clone()
            x.apply(next((a for a in legal if getattr(a, "targets", None)), legal[0]))
            walk(x, contract, trump)
        elif contract is not None and contract not in left_out:
            left_out.append(contract)

    walk(start.clone(), None, None)
    return found, left_out


def solve_cell(option: Option, seat: int, seconds: float = DEFAULT_CELL_SECONDS) -> Cell:
    """One seat's cell, with a budget of ``seconds`` (turned into positions: `POSITIONS_PER_SECOND`)."""
    floor, ceiling = static_bounds(option.spec, option.state, seat)
    lo, hi, positions = fast.solve_seat(option.spec, option.state, seat, max(1, int(seconds * POSITIONS_PER_SECOND)))
    if option.sign < 0:
        lo, hi, floor, ceiling = -hi, -lo, -ceiling, -floor
    return Cell(lo, hi, positions, floor, ceiling)


def dd_table(
    start: Match,
    seconds: float = DEFAULT_CELL_SECONDS,
    seats: Iterable[int] | None = None,
    chosen: tuple[str, int | None] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> DDTable:
    """The double-dummy table of the deal ``start`` is at (its first decision): every trick-play contract,
    each seat in ``seats`` (all by default) solved within ``seconds``.  ``chosen`` marks the contract played.
    ``progress(done, total)`` is called before each cell."""
    found, left_out = options(start)
    wanted = list(range(start.n)) if seats is None else sorted(set(seats))
    declarer = start.to_act() if start.phase == DECLARE else None
    rows: list[Row] = []
    total, done = len(found) * len(wanted), 0
    for opt in found:
        row = Row(opt.contract, opt.trump, chosen=chosen == (opt.contract, opt.trump))
        for seat in wanted:
            if progress:
                progress(done, total)
            row.cells.append(solve_cell(opt, seat, seconds))
            done += 1
        rows.append(row)
    if progress:
        progress(done, total)
    return DDTable(len(start.results) + 1, declarer, tuple(start.hands), rows, left_out)
