"""The events' movements: who sits where, who meets whom, who is compared with whom, and what is refused."""

from __future__ import annotations

from itertools import combinations

import pytest

from barbu.duplicate import movements
from barbu.duplicate.errors import EventError
from barbu.duplicate.movements import FORMATS, comparisons, meetings, schedule, seat_counts, spread, tables_for


def check_plan(plan, players: int, seats: int, rounds: int, tables: int | None = None) -> None:
    """Every player sits exactly once a round; tables within one person of each other; no table of computers
    only unless there are more tables than players."""
    tables = tables or tables_for(players, seats)
    assert len(plan) == rounds
    for rnd in plan:
        assert len(rnd) == tables and all(len(table) == seats for table in rnd)
        people = [p for table in rnd for p in table if p is not None]
        assert sorted(people) == list(range(players))
        sizes = [sum(p is not None for p in table) for table in rnd]
        assert max(sizes) - min(sizes) <= 1
        if players >= tables:
            assert min(sizes) >= 1


# -- refusals ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, kwargs, code",
    [
        ((0, 4, "one-match"), {}, "event-no-players"),
        (("8", 4, "one-match"), {}, "event-players-not-a-number"),
        ((8, 4.0, "one-match"), {}, "event-seats-not-a-number"),
        ((8, 4, "rounds", 2.5), {}, "event-rounds-not-a-number"),
        ((8, 4, "rounds", None), {}, "event-rounds-not-a-number"),
        ((8, 4, "one-match"), {"tables": True}, "event-tables-not-a-number"),
        ((8, 4, ["rounds"]), {}, "event-unknown-format"),
        ((5, 1, "one-match"), {}, "event-no-seats"),
        ((8, 4, "swiss"), {}, "event-unknown-format"),
        ((8, 4, "rounds", 0), {}, "event-rounds-at-least-one"),
        ((8, 4, "rounds", 21), {}, "event-too-many-rounds"),
        ((8, 4, "one-match", 3), {}, "event-one-match-one-round"),
        ((4, 4, "rounds", 3), {}, "event-rounds-need-two-tables"),
        ((3, 4, "rounds", 2), {}, "event-rounds-need-two-tables"),
        ((9, 4, "one-match"), {"tables": 2}, "event-too-few-tables"),
        ((9, 4, "one-match"), {"tables": 5000}, "event-too-many-tables"),
    ],
)
def test_what_does_not_fit_is_refused_with_a_code(args, kwargs, code):
    with pytest.raises(EventError) as e:
        schedule(*args, **kwargs)
    assert e.value.code == code
    assert str(e.value)  # worded in English, for the log and the command line


def test_refusal_says_what_to_do():
    with pytest.raises(EventError) as e:
        schedule(3, 4, "rounds", 2)
    assert str(e.value) == (
        "the rounds format moves players between tables, but 3 players fit at one table of 4: "
        "choose one match, or two tables or more"
    )
    with pytest.raises(EventError) as e:
        schedule(9, 4, "one-match", tables=2)
    assert str(e.value) == "9 players need at least 3 tables of 4, not 2 tables"


def test_tables_for():
    assert [tables_for(p, 4) for p in (1, 3, 4, 5, 8, 9, 40, 41)] == [1, 1, 1, 2, 2, 3, 10, 11]
    assert tables_for(7, 3) == 3 and tables_for(12, 6) == 2
    with pytest.raises(EventError):
        tables_for(0, 4)


# -- one match at every table --------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("players", list(range(1, 41)))
def test_one_match_every_number_of_players(players, seats):
    plan = schedule(players, seats, "one-match")
    check_plan(plan, players, seats, 1)
    met, compared = meetings(plan), comparisons(plan)
    where = {p: (t, s) for t, table in enumerate(plan[0]) for s, p in enumerate(table) if p is not None}
    for a, b in combinations(range(players), 2):
        (ta, sa), (tb, sb) = where[a], where[b]
        assert met.get((a, b), 0) == (ta == tb)
        assert compared.get((a, b), 0) == (ta != tb and sa == sb)


def test_one_match_example_nine_players_at_three_tables():
    """9 players at tables of 4: three tables of three, each with one computer seat on a different seat number."""
    plan = schedule(9, 4, "one-match")
    assert plan == [[[None, 0, 1, 2], [3, None, 4, 5], [6, 7, None, 8]]]
    assert comparisons(plan) == {(3, 6): 1, (0, 7): 1, (1, 4): 1, (2, 5): 1, (2, 8): 1, (5, 8): 1}
    assert meetings(plan)[(0, 2)] == 1 and (0, 3) not in meetings(plan)


def test_a_director_may_ask_for_more_tables():
    """3 players asked to play at 2 tables: one table of two and one of one, the rest computers."""
    plan = schedule(3, 4, "one-match", tables=2)
    check_plan(plan, 3, 4, 1, tables=2)
    assert sum(p is None for table in plan[0] for p in table) == 5


# -- rounds --------------------------------------------------------------------------------------------------


def test_rounds_eight_players_seven_rounds_every_pair_meets_three_times():
    """8 players at two tables of 4 for 7 rounds: the affine design where every pair meets 3 times exists;
    the search must find it or come within one."""
    plan = schedule(8, 4, "rounds", 7)
    check_plan(plan, 8, 4, 7)
    assert spread(meetings(plan), 8) <= 1
    assert spread(comparisons(plan), 8) <= 2


def test_rounds_sixteen_players_five_rounds_spread():
    """16 players, 4 tables, 5 rounds: 15 opponents to meet three a round, so nearly everyone once."""
    plan = schedule(16, 4, "rounds", 5)
    check_plan(plan, 16, 4, 5)
    met = meetings(plan)
    assert spread(met, 16) <= 2
    assert sum(met.values()) == 5 * 4 * 6
    assert max(met.values()) <= 2


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
@pytest.mark.parametrize("players", [4, 5, 7, 9, 12, 13, 17, 20])
@pytest.mark.parametrize("rounds", [2, 3, 5])
def test_rounds_every_format_and_number(players, seats, rounds):
    if tables_for(players, seats) < 2:
        with pytest.raises(EventError):
            schedule(players, seats, "rounds", rounds)
        return
    plan = schedule(players, seats, "rounds", rounds)
    check_plan(plan, players, seats, rounds)
    met, compared = meetings(plan), comparisons(plan)
    # Who meets whom: the counts a plan's tables give, and no more than the rounds.
    assert sum(met.values()) == sum(
        sum(1 for _ in combinations([p for p in t if p is not None], 2)) for rnd in plan for t in rnd
    )
    assert max(met.values()) <= rounds
    # Who is compared with whom: never two players at the same table of a round.
    for rnd in plan:
        for table in rnd:
            for a, b in combinations(sorted(p for p in table if p is not None), 2):
                assert met[(a, b)] + compared.get((a, b), 0) <= rounds
    assert spread(met, players) <= 4
    assert spread(compared, players) <= 4
    # Seats rotate: nobody sits at the same seat number every round.
    assert all(max(row) < rounds for row in seat_counts(plan, players))


def test_rounds_spread_the_opponents_better_than_chance():
    """The search against its own starting point (round 0 kept, later rounds shuffled)."""
    import random

    players, seats, rounds = 20, 4, 6
    plan = schedule(players, seats, "rounds", rounds)
    rng = random.Random(7)
    shuffled = []
    for r in range(rounds):
        order = list(range(players))
        if r:
            rng.shuffle(order)
        shuffled.append([order[t * seats : (t + 1) * seats] for t in range(players // seats)])
    assert spread(meetings(plan), players) < spread(meetings(shuffled), players)


def test_the_same_numbers_give_the_same_plan():
    """A restarted server rebuilds the same seating from the event's numbers."""
    first = schedule(13, 4, "rounds", 4)
    movements._plan.cache_clear()
    assert schedule(13, 4, "rounds", 4) == first
    first[0][0][0] = 99  # a caller's copy: changing it changes nothing kept
    assert schedule(13, 4, "rounds", 4)[0][0][0] != 99


def test_formats():
    assert FORMATS == ("one-match", "rounds")


@pytest.mark.slow
@pytest.mark.parametrize("players", list(range(5, 41, 5)))
def test_rounds_sweep_tables_of_four(players):
    """4..40 players (every fifth), 2..8 rounds at tables of 4: the bounds docs/duplicate.md reports."""
    for rounds in range(2, 9):
        plan = schedule(players, 4, "rounds", rounds)
        check_plan(plan, players, 4, rounds)
        assert spread(meetings(plan), players) <= (4 if players < 13 else 3)
        assert spread(comparisons(plan), players) <= 5
        assert all(max(row) < rounds for row in seat_counts(plan, players))
