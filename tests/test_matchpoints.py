"""Matchpoints: worked examples by hand, the fast way against the pair-by-pair definition, standings and ranks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from barbu.duplicate.matchpoints import Entry, matchpoints, pairwise, score_all, score_boards, standings

# -- worked examples, counted by hand -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "scores, highest_wins, expected",
    [
        ([10, 0, -5], True, [2, 1, 0]),  # 3 results, no tie
        ([-20, 0, 0, -26], True, [1, 2.5, 2.5, 0]),  # 4: the two zeros tie, each beating two
        ([100, 0, 25, 25, 0], False, [0, 3.5, 1.5, 1.5, 3.5]),  # 5, penalty points (French): the lowest wins
        ([-6, -6, -6, -6, -6, -6], True, [2.5] * 6),  # 6 all tied: half of 5 each
        ([65, -30, 20, -30, 65, 0], True, [4.5, 0.5, 3, 0.5, 4.5, 2]),  # 6 with two pairs of ties
        ([5], True, [0]),  # alone: nobody to beat
        ([], True, []),
    ],
)
def test_worked_examples(scores, highest_wins, expected):
    assert matchpoints(scores, highest_wins) == expected
    assert pairwise(scores, highest_wins) == expected


def test_fractions_within_a_hair_tie():
    """Points shared in thirds (italian-six) may differ in the last bit: still a tie."""
    assert matchpoints([1 / 3 + 2 / 3, 1.0, 0.0]) == [1.5, 1.5, 0]


# -- properties ----------------------------------------------------------------------------------------------

scores_lists = st.lists(st.integers(-60, 60), max_size=40) | st.lists(
    st.integers(-20, 20).map(lambda x: x / 2), max_size=40
)


@settings(max_examples=300, deadline=None)
@given(scores_lists, st.booleans())
def test_fast_equals_pair_by_pair(scores, highest_wins):
    assert matchpoints(scores, highest_wins) == pairwise(scores, highest_wins)


@settings(max_examples=300, deadline=None)
@given(scores_lists, st.booleans())
def test_a_board_gives_n_n_minus_1_over_2(scores, highest_wins):
    n = len(scores)
    assert sum(matchpoints(scores, highest_wins)) == n * (n - 1) / 2


@settings(max_examples=100, deadline=None)
@given(scores_lists)
def test_lowest_wins_is_highest_wins_on_negated_scores(scores):
    assert matchpoints(scores, False) == matchpoints([-s for s in scores], True)


# -- boards, standings, ranks --------------------------------------------------------------------------------


def test_traveller_rows_best_first_then_by_name():
    entries = [
        Entry("r1-d1", 0, "cleo", 0),
        Entry("r1-d1", 0, "ada", -20),
        Entry("r1-d1", 0, "bob", 0),
        Entry("r1-d1", 1, "dan", 5),
    ]
    results = {(r.board, r.seat): r for r in score_boards(entries)}
    rows = results[("r1-d1", 0)].rows
    assert [(e.player, mp) for e, mp in rows] == [("bob", 1.5), ("cleo", 1.5), ("ada", 0)]
    assert [(e.player, mp) for e, mp in results[("r1-d1", 1)].rows] == [("dan", 0)]


def test_standings_percentages_points_and_tied_ranks():
    # Two boards, seat 0 held by four players; seat 1 by others (compared among themselves only).
    entries = [
        Entry("b1", 0, "ada", 10),
        Entry("b1", 0, "bob", 10),
        Entry("b1", 0, "cleo", 0),
        Entry("b1", 0, "dan", -5),
        Entry("b2", 0, "ada", 0),
        Entry("b2", 0, "bob", 0),
        Entry("b2", 0, "cleo", 20),
        Entry("b2", 0, "dan", -5),
    ]
    table = {s.player: s for s in standings(entries)}
    # b1: ada 2.5, bob 2.5, cleo 1, dan 0; b2: ada 1.5, bob 1.5, cleo 3, dan 0; top 3 a board.
    assert (table["ada"].matchpoints, table["ada"].top) == (4.0, 6)
    assert table["cleo"].matchpoints == 4.0
    assert table["ada"].percent == pytest.approx(200 / 3)
    assert [table[p].rank for p in ("ada", "bob", "cleo", "dan")] == ["1=", "1=", "1=", "4"]
    assert table["cleo"].points == 20 and table["cleo"].rank_points == "1"
    assert [table[p].rank_points for p in ("ada", "bob", "dan")] == ["2=", "2=", "4"]


def test_standings_ordered_by_percentage_then_points():
    entries = [
        Entry("b1", 0, "ada", 10),
        Entry("b1", 0, "bob", 0),
        Entry("b1", 0, "cleo", 0),
        Entry("b2", 1, "ada", -26),
        Entry("b2", 1, "bob", 0),
        Entry("b2", 1, "cleo", -2),
    ]
    order = [s.player for s in standings(entries)]
    # ada 2+0, bob 0.5+2, cleo 0.5+1: bob 62.5 %, ada 50 %, cleo 37.5 %
    assert order == ["bob", "ada", "cleo"]


def test_lowest_wins_standings():
    entries = [Entry("b1", 0, "ada", 100), Entry("b1", 0, "bob", 0), Entry("b1", 0, "cleo", 25)]
    table = {s.player: s for s in standings(entries, highest_wins=False)}
    assert [table[p].rank for p in ("bob", "cleo", "ada")] == ["1", "2", "3"]
    assert [table[p].rank_points for p in ("bob", "cleo", "ada")] == ["1", "2", "3"]


def test_a_seat_taken_over_by_a_computer_midway():
    """bob leaves after board 1: the stand-in plays his seat on board 2.  Its result is bob's, marked, and
    counts in ada's and cleo's comparison."""
    entries = [
        Entry("b1", 2, "ada", -10),
        Entry("b1", 2, "bob", 0),
        Entry("b1", 2, "cleo", -20),
        Entry("b2", 0, "ada", 5),
        Entry("b2", 0, "bob", 30, stand_in=True),
        Entry("b2", 0, "cleo", 5),
    ]
    table = {s.player: s for s in standings(entries)}
    assert table["bob"].stand_in_boards == 1 and table["bob"].boards == 2
    assert table["ada"].stand_in_boards == 0
    # b2: bob's stand-in beat both; ada and cleo tie (0.5 each) and neither beats the stand-in.
    assert table["ada"].matchpoints == 1 + 0.5
    assert table["cleo"].matchpoints == 0 + 0.5
    assert table["bob"].matchpoints == 2 + 2
    rows = next(r for r in score_boards(entries) if r.board == "b2").rows
    assert rows[0][0].player == "bob" and rows[0][0].stand_in


def test_computer_seats_are_compared_with_but_not_ranked():
    entries = [
        Entry("b1", 1, "ada", -6),
        Entry("b1", 1, "computer t2", -12, computer=True),
        Entry("b1", 1, "computer t3", 0, computer=True),
    ]
    table = standings(entries)
    assert [s.player for s in table] == ["ada"]
    assert (table[0].matchpoints, table[0].top, table[0].rank) == (1.0, 2, "1")


def test_a_player_alone_on_his_boards_has_no_percentage_and_ranks_last():
    entries = [Entry("b1", 0, "ada", 0), Entry("b1", 0, "bob", 5), Entry("b2", 3, "cleo", 50)]
    table = standings(entries)
    assert [s.player for s in table] == ["bob", "ada", "cleo"]
    assert table[-1].percent is None and table[-1].rank == "3"


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_three_to_six_players_each_board_shares_its_matchpoints(players):
    entries = [
        Entry(f"b{b}", s, f"p{(p + s) % players}", (p * 7 + b * 3 + s) % 5)
        for b in range(3)
        for s in range(players)
        for p in range(players)
    ]
    table = standings(entries)
    total = sum(s.matchpoints for s in table)
    assert total == 3 * players * players * (players - 1) / 2
    assert all(s.top == 3 * players * (players - 1) and s.boards == 3 * players for s in table)
    assert sum(s.top for s in table) == 3 * players * players * (players - 1)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 3),
            st.integers(0, 1),
            st.sampled_from("abcdefg"),
            st.integers(-8, 8),
            st.booleans(),
            st.booleans(),
        ),
        max_size=40,
    ),
    st.booleans(),
)
def test_score_all_is_score_boards_and_standings_in_one_pass(rows, highest_wins):
    """The daily deals' page scores a pool once for both its travellers and its ranking: the same answers."""
    seen = set()
    entries = []
    for board, seat, player, score, stand_in, computer in rows:
        if (board, seat, player) not in seen:  # a player holds a board's seat once
            seen.add((board, seat, player))
            entries.append(Entry(board, seat, player, float(score), stand_in, computer))
    boards, ranking = score_all(entries, highest_wins)
    assert boards == score_boards(entries, highest_wins)
    assert ranking == standings(entries, highest_wins)
