"""Neuberg's formula: a board with fewer results than a full one weighs as a full one in the standings."""

from __future__ import annotations

import pytest

from barbu.duplicate.matchpoints import Entry, neuberg, score_boards, standings


def test_the_formula_on_a_board_of_three_results_where_four_make_a_full_one() -> None:
    # (S + 1)·N/n − 1 with N = 4, n = 3: a top of 2 becomes 3, 1 becomes 5/3, a bottom 1/3
    assert neuberg(2, 3, 4) == pytest.approx(3.0)
    assert neuberg(1, 3, 4) == pytest.approx(5 / 3)
    assert neuberg(0, 3, 4) == pytest.approx(1 / 3)
    # two results tied where four make a board: ½ each becomes (½ + 1)·2 − 1 = 2
    assert neuberg(0.5, 2, 4) == pytest.approx(2.0)


def test_a_full_board_is_left_as_it_is() -> None:
    assert neuberg(1.5, 4, 4) == 1.5
    assert neuberg(1.5, 5, 4) == 1.5  # fuller than full: never scaled down


def _board(board: str, scores: dict[str, float]) -> list[Entry]:
    return [Entry(board, 0, who, score) for who, score in scores.items()]


def test_the_travellers_of_a_short_board_say_it_is_adjusted_and_give_a_full_boards_top() -> None:
    entries = _board("r1-d1", {"Ada": 10, "Bob": 5, "Cleo": 0, "Dan": -5}) + _board(
        "r1-d2", {"Ada": 10, "Bob": 5, "Cleo": 0}
    )
    boards = {b.board: b for b in score_boards(entries, full={"r1-d1": 4, "r1-d2": 4})}
    full, short = boards["r1-d1"], boards["r1-d2"]
    assert (full.top, full.adjusted) == (3, False)
    assert [mp for _, mp in full.rows] == [3, 2, 1, 0]
    assert (short.top, short.adjusted) == (3, True)
    assert [mp for _, mp in short.rows] == pytest.approx([3, 5 / 3, 1 / 3])
    # without ``full`` nothing changes: the short board's top is 2
    plain = {b.board: b for b in score_boards(entries)}["r1-d2"]
    assert (plain.top, plain.adjusted, [mp for _, mp in plain.rows]) == (2, False, [2, 1, 0])


def test_the_worked_example_of_the_docs_a_short_board_no_longer_weighs_less() -> None:
    # docs/duplicate.md: board 1 full (Ada second of four), board 2 short of Dan (Ada first of three)
    entries = _board("r1-d1", {"Bob": 20, "Ada": 10, "Cleo": 0, "Dan": -5}) + _board(
        "r1-d2", {"Ada": 10, "Bob": 5, "Cleo": 0}
    )
    plain = {s.player: s for s in standings(entries)}
    assert (plain["Ada"].matchpoints, plain["Ada"].top) == (4, 5)  # 2/3 + 2/2 = 80 %
    assert plain["Ada"].percent == pytest.approx(80.0)
    assert (plain["Ada"].rank, plain["Bob"].rank) == ("1=", "1=")  # her top on the short board weighs less
    fair = {s.player: s for s in standings(entries, full={"r1-d1": 4, "r1-d2": 4})}
    ada, bob, cleo = fair["Ada"], fair["Bob"], fair["Cleo"]
    assert (ada.matchpoints, ada.top, ada.adjusted_boards) == (pytest.approx(5.0), 6, 1)  # 2/3 + 3/3
    assert ada.percent == pytest.approx(250 / 3)
    assert bob.matchpoints == pytest.approx(3 + 5 / 3) and bob.percent == pytest.approx(100 * (14 / 3) / 6)
    assert cleo.matchpoints == pytest.approx(1 + 1 / 3)
    assert fair["Dan"].adjusted_boards == 0 and fair["Dan"].top == 3  # he played the full board only
    assert (ada.rank, bob.rank) == ("1", "2")


def test_a_lone_result_is_still_compared_with_nobody() -> None:
    entries = _board("r1-d1", {"Ada": 10, "Bob": 5}) + _board("r1-d2", {"Ada": -20})
    ada = {s.player: s for s in standings(entries, full={"r1-d1": 2, "r1-d2": 2})}["Ada"]
    assert (ada.matchpoints, ada.top, ada.adjusted_boards) == (1, 1, 0)


def test_where_the_lowest_total_wins_the_adjustment_follows_the_comparison() -> None:
    entries = _board("b", {"Ada": 0, "Bob": 5, "Cleo": 12})
    rows = score_boards(entries, highest_wins=False, full={"b": 4})[0].rows
    assert [(e.player, mp) for e, mp in rows] == [
        ("Ada", pytest.approx(3)),
        ("Bob", pytest.approx(5 / 3)),
        ("Cleo", pytest.approx(1 / 3)),
    ]
