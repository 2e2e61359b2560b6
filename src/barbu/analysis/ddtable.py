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

The cells are independent searches, so `dd_table` spreads them over a process pool (one worker a core by
default, or a pool the caller keeps, as the web server does).  A budget counts positions, not seconds, so a
table comes out the same, cell for cell, whatever the number of workers.  `board_key` and `option_key` name a
deal and a cell's position by what they hold, so a table solved once (in the background, `barbu.web.replay.
solved`) is found again for any record of the same deal.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
from collections.abc import Callable, Iterable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

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
    workers: int | None = None,
    pool: Executor | None = None,
    known: Callable[[Option, int], Cell | None] | None = None,
) -> DDTable:
    """The double-dummy table of the deal ``start`` is at (its first decision): every trick-play contract,
    each seat in ``seats`` (all by default) solved within ``seconds``.  ``chosen`` marks the contract played.
    ``progress(done, total)`` is called before the first cell and as each is solved.

    The cells are solved in ``pool`` if given, else in a pool of ``workers`` processes made for this table (one
    a core by default; 1: here, one after the other).  ``known(option, seat)`` may give a cell already solved
    (a stored table), which is then not searched again."""
    found, left_out = options(start)
    wanted = list(range(start.n)) if seats is None else sorted(set(seats))
    declarer = start.to_act() if start.phase == DECLARE else None
    cells: dict[tuple[int, int], Cell] = {}
    for i, opt in enumerate(found):
        for seat in wanted:
            cell = known(opt, seat) if known is not None else None
            if cell is not None:
                cells[i, seat] = cell
    todo = [(i, seat) for i in range(len(found)) for seat in wanted if (i, seat) not in cells]
    total = len(found) * len(wanted)

    def tell() -> None:
        if progress:
            progress(len(cells), total)

    tell()
    count = workers if workers is not None else (os.cpu_count() or 1)
    if multiprocessing.current_process().daemon:  # a pool's own worker may not start processes: one by one
        count = 1
    if pool is None and (count <= 1 or len(todo) <= 1):
        for i, seat in todo:
            cells[i, seat] = solve_cell(found[i], seat, seconds)
            tell()
    else:
        own = pool is None
        executor = pool if pool is not None else ProcessPoolExecutor(min(count, len(todo)))
        futures: dict[Future[Cell], tuple[int, int]] = {}
        try:
            futures = {executor.submit(solve_cell, found[i], seat, seconds): (i, seat) for i, seat in todo}
            for f in as_completed(futures):
                cells[futures[f]] = f.result()
                tell()
        finally:
            for f in futures:  # a progress that raised (the server stops): the cells not started are dropped
                f.cancel()
            if own:
                executor.shutdown(wait=True, cancel_futures=True)
    rows = [
        Row(opt.contract, opt.trump, [cells[i, s] for s in wanted], chosen == (opt.contract, opt.trump))
        for i, opt in enumerate(found)
    ]
    return DDTable(len(start.results) + 1, declarer, tuple(start.hands), rows, left_out)


def board_key(start: Match) -> str:
    """A deal as dealt, by what decides its table: the rules, who holds which cards and who is to choose (the
    same for every record of the deal, whatever came before it in the match)."""
    text = repr((str(start.rules), tuple(start.hands), start.to_act(), start.phase))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def option_key(option: Option) -> str:
    """A contract's opening position as the solver sees it: a stored cell is used only for the very same."""
    text = repr((option.contract, option.trump, option.spec, option.state, option.sign))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def cell_json(c: Cell) -> list[Any]:
    """A cell as stored: [least, most, positions, floor, ceiling]."""
    return [c.least, c.most, c.positions, c.floor, c.ceiling]


def cell_of(data: Any) -> Cell | None:
    """A stored cell (`cell_json`), or None when it is not one."""
    if not (isinstance(data, list) and len(data) == 5 and all(isinstance(x, int) or x is None for x in data)):
        return None
    least, most, positions, floor, ceiling = data
    if least is None or most is None or positions is None or least > most:
        return None
    return Cell(least, most, positions, floor, ceiling)


def table_json(table: DDTable, start: Match) -> dict[str, list[list[Any]]]:
    """A solved table as stored: each contract's cells (every seat) under its opening position's `option_key`."""
    found, _ = options(start)
    by_row = {(r.contract, r.trump): r for r in table.rows}
    return {option_key(o): [cell_json(c) for c in by_row[o.contract, o.trump].cells] for o in found}


def stored_cells(stored: dict[str, Any]) -> Callable[[Option, int], Cell | None]:
    """`dd_table`'s ``known`` from a stored table (`table_json`): the cells of the very same positions."""

    def known(option: Option, seat: int) -> Cell | None:
        row = stored.get(option_key(option))
        return cell_of(row[seat]) if isinstance(row, list) and 0 <= seat < len(row) else None

    return known
