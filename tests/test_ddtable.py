"""The double-dummy table: every trick-play contract of a deal, each seat's points with every hand shown."""

from __future__ import annotations

import random

from barbu.agents import make_agent
from barbu.analysis.ddtable import dd_table, deal_start, options
from barbu.classic.match import CHANCE, Match
from barbu.solver import fast


def dealt(rules: str, seed: int) -> Match:
    m = Match(rules, seed)
    rng = random.Random(seed)
    while m.to_act() == CHANCE:
        m.apply(m.sample_chance(rng))
    return m


def test_every_contract_the_declarer_may_choose_is_a_row():
    opts, left = options(dealt("classic", 3))
    names = [(o.contract, o.trump) for o in opts]
    assert names[:5] == [
        ("no-tricks", None),
        ("no-hearts", None),
        ("no-queens", None),
        ("no-king", None),
        ("no-last-two", None),
    ]
    assert sorted(t for c, t in names if c == "trumps") == [0, 1, 2, 3]
    assert left == ["domino"]
    opts, _ = options(dealt("italian", 3))
    assert sorted((t is None, t) for c, t in ((o.contract, o.trump) for o in opts) if c == "trumps")[-1] == (True, None)


def test_cells_are_each_seats_exact_points_where_the_solver_finishes():
    """Six French players hold eight cards each: many of its whole deals solve in a moment.  The lowest total
    wins there, so each cell is the fewest points the seat can hold itself to."""
    m = dealt("french(players=6)", 2)
    table = dd_table(m, seconds=0.3)
    assert table.declarer == m.to_act() and len(table.rows) == len(options(m)[0]) >= 5
    solved = 0
    for opt, row in zip(options(m)[0], table.rows):
        assert len(row.cells) == 6 and all(c.least <= c.most for c in row.cells)
        if all(c.exact for c in row.cells):
            lowest = [-v for v in fast.solve(opt.spec, opt.state)]  # solved on the negated points
            assert [c.least for c in row.cells] == lowest, row.contract
            solved += 1
    assert solved, "at least one contract is solved for every seat"


def test_a_short_budget_gives_ranges_that_hold_the_value():
    m = dealt("french(players=6)", 2)
    longer = dd_table(m, seconds=0.3, seats=[0, 3])
    short = dd_table(m, seconds=1e-6, seats=[0, 3])
    assert not short.exact and longer.rows
    for a, b in zip(longer.rows, short.rows):
        for x, y in zip(a.cells, b.cells):
            assert y.least <= x.most and x.least <= y.most  # both hold the value
            assert y.floor == x.floor <= y.least <= y.most <= y.ceiling == x.ceiling  # turned back where lowest wins
            if x.exact:
                assert y.least <= x.least <= y.most


def test_the_deal_of_a_record_and_the_contract_chosen():
    m = Match("classic", 4)
    agents = [make_agent("rule", s) for s in range(4)]
    rng = random.Random(4)
    texts = []
    while len(m.results) < 2:
        actor = m.to_act()
        action = m.sample_chance(rng) if actor == CHANCE else agents[actor].act(m.view(actor))
        texts.append(str(action))
        m.apply(action)
    second = m.results[1]
    start = deal_start("classic", 4, texts, 2)
    assert tuple(start.hands) == second.hands and len(start.results) == 1
    marks = []
    table = dd_table(
        start,
        seconds=1e-6,
        seats=[0],
        chosen=(second.contract, second.trump),
        progress=lambda done, total: marks.append((done, total)),
    )
    assert table.deal == 2 and table.declarer == second.declarer
    assert sum(r.chosen for r in table.rows) == (0 if second.contract in table.left_out else 1)
    assert marks[0] == (0, len(table.rows)) and marks[-1] == (len(table.rows), len(table.rows))
    try:
        deal_start("classic", 4, texts, 9)
    except ValueError as e:
        assert "deal 9" in str(e)
    else:
        raise AssertionError("a deal not in the record")
