"""The double-dummy table's cells solved in parallel: the same table, cell for cell, whatever the number of
workers (a budget counts positions, not seconds), and cells already known (a stored table) not searched again."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

from barbu.analysis.ddtable import Cell, board_key, dd_table, option_key, options, stored_cells, table_json
from barbu.classic.match import CHANCE, Match
from barbu.core.chance import BoardChance

SECONDS = 0.002  # 30,000 positions a cell: some cells finish, most do not


def dealt(rules: str = "classic", key: bytes = b"parallel" * 4) -> Match:
    m = Match(rules, None)
    chance = BoardChance(key)
    while m.to_act() == CHANCE:
        m.apply(chance(m))
    return m


def test_parallel_cells_are_the_serial_ones_cell_for_cell():
    start = dealt()
    serial = dd_table(start, seconds=SECONDS, workers=1, chosen=("no-hearts", None))
    seen: list[tuple[int, int]] = []
    parallel = dd_table(
        start, seconds=SECONDS, workers=2, chosen=("no-hearts", None), progress=lambda d, t: seen.append((d, t))
    )
    assert parallel.rows == serial.rows and parallel.left_out == serial.left_out == ["domino"]
    assert any(c.exact for r in serial.rows for c in r.cells) and not serial.exact  # both kinds of cell compared
    total = len(serial.rows) * 4
    assert seen[0] == (0, total) and seen[-1] == (total, total) and [d for d, _ in seen] == list(range(total + 1))
    with ProcessPoolExecutor(2) as pool:  # a pool the caller keeps (the web server's)
        shared = dd_table(start, seconds=SECONDS, pool=pool, seats=[1, 3])
    assert [[c for c in r.cells] for r in shared.rows] == [[r.cells[1], r.cells[3]] for r in serial.rows]


def test_known_cells_are_taken_as_they_are_and_only_the_others_solved():
    start = dealt("italian")
    whole = dd_table(start, seconds=SECONDS, workers=1)
    stored = table_json(whole, start)
    found, _ = options(start)
    assert set(stored) == {option_key(o) for o in found} and all(len(v) == 4 for v in stored.values())
    again = dd_table(start, seconds=SECONDS, workers=1, known=stored_cells(stored))
    assert again.rows == whole.rows
    # one contract missing from the store: its cells are solved, the others taken (a marked cell shows it)
    first = option_key(found[0])
    marked = {k: [[7, 7, -1, 0, 65] for _ in v] for k, v in stored.items() if k != first}
    mixed = dd_table(start, seconds=SECONDS, workers=2, known=stored_cells(marked))
    assert mixed.rows[0].cells == whole.rows[0].cells
    assert all(c == Cell(7, 7, -1, 0, 65) for r in mixed.rows[1:] for c in r.cells)
    # a stored cell that is not one (a bad row) is solved again rather than believed
    assert stored_cells({first: [[5, 2, 0, 0, 65]] * 4})(found[0], 0) is None


def test_a_deals_key_is_its_cards_and_rules():
    start = dealt()
    assert board_key(dealt()) == board_key(start)
    assert board_key(dealt(key=b"other" * 8)) != board_key(start)  # other cards
    assert board_key(dealt("italian")) != board_key(start)  # other rules
