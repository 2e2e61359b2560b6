"""The daily deals' core: the keys, the boards' cards, the fixed contract and computer players who answer the
same moves the same way (`barbu.duplicate.daily`)."""

from __future__ import annotations

import random

import pytest

from barbu.core.chance import verify_board_chance
from barbu.core.daily_keys import board_key, day_key, game_key
from barbu.classic.match import Match
from barbu.duplicate.daily import (GAMES, BoardPlay, DailyError, computer_scores, daily_set, set_from_day_key,
                                   share_line)

SECRET = bytes(range(32))
DAY = "2026-11-27"


def play_out(dset, board: int, chooser) -> BoardPlay:
    b = BoardPlay(dset, board)
    while not b.done:
        b.play(str(chooser(b.match.legal_actions())))
    return b


def test_keys_derive_from_the_day_and_differ_by_day_game_and_board() -> None:
    k = day_key(SECRET, DAY)
    assert k == day_key(SECRET, DAY) and k != day_key(SECRET, "2026-11-28") and k != day_key(b"y" * 32, DAY)
    assert game_key(k, "classic") != game_key(k, "italian")
    assert board_key(game_key(k, "classic"), 0) != board_key(game_key(k, "classic"), 1)
    with pytest.raises(ValueError):
        day_key(SECRET, "27/11/2026")
    # the published day key gives the very same set as the secret
    assert set_from_day_key(k, DAY, "classic").key == daily_set(SECRET, DAY, "classic").key


@pytest.mark.parametrize("game", GAMES)
def test_same_moves_same_cards_and_same_computer_moves(game: str) -> None:
    dset = daily_set(SECRET, DAY, game)
    for k in range(dset.size):
        a = play_out(dset, k, lambda legal: legal[0])
        b = play_out(dset, k, lambda legal: legal[0])
        assert a.match.history == b.match.history  # the cards and every computer move alike
        assert a.score == b.score and a.seat == b.seat and a.contract == b.contract


@pytest.mark.parametrize("game", GAMES)
def test_different_moves_same_cards_and_fixed_contract(game: str) -> None:
    dset = daily_set(SECRET, DAY, game)
    order = dset.contract_order()
    seats = set()
    for k in range(dset.size):
        rng = random.Random(k)
        a = play_out(dset, k, lambda legal: legal[0])
        b = play_out(dset, k, lambda legal, rng=rng: legal[rng.randrange(len(legal))])
        c = BoardPlay(dset, k, computer=True)
        assert a.result.hands == b.result.hands == c.result.hands  # the same cards from the same seats
        assert a.result.dealer == b.result.dealer == c.result.dealer
        assert a.contract == b.contract == c.contract == a.result.contract == b.result.contract
        assert a.contract == order[k]  # one of each contract, in the preset's order
        assert a.seat == b.seat
        seats.add(a.seat == a.result.declarer)
        # the deals verify against the board's key, whatever was played
        wrong = verify_board_chance(lambda: Match(dset.rules), b.match.history, board_key(dset.key, k))
        assert wrong == []
    assert seats == {True, False}  # the person declares on some boards and not on others


def test_a_resumed_board_is_the_same_board() -> None:
    dset = daily_set(SECRET, DAY, "classic")
    a = play_out(dset, 1, lambda legal: legal[-1])
    half = a.moves[: len(a.moves) // 2]
    b = BoardPlay(dset, 1, half)
    assert b.match.history == a.match.history[: len(b.match.history)]
    for move in a.moves[len(half):]:
        b.play(move)
    assert b.match.history == a.match.history and b.score == a.score


def test_refusals_change_nothing() -> None:
    dset = daily_set(SECRET, DAY, "classic")
    b = BoardPlay(dset, 0)
    before = list(b.match.history)
    held = b.match.hands[(b.seat + 1) % b.n]
    from barbu.core.cards import CARDS, cards_of
    with pytest.raises(Exception):
        b.play(str(CARDS[cards_of(held)[0]]))  # a card of another seat
    with pytest.raises(Exception):
        b.play("nonsense")
    assert b.match.history == before
    with pytest.raises(DailyError):
        daily_set(SECRET, DAY, "besigue")
    with pytest.raises(DailyError):
        daily_set(SECRET, DAY, "classic", strength="search")
    with pytest.raises(DailyError):
        BoardPlay(dset, dset.size)


def test_the_computer_result_is_its_own_and_deterministic() -> None:
    dset = daily_set(SECRET, DAY, "italian", limit=3)
    assert dset.size == 3
    assert computer_scores(dset) == computer_scores(dset)


def test_share_line_gives_nothing_away() -> None:
    line = share_line(DAY, "classic", 62.5, [1.0, 0.5, 0.0, None])
    assert line == "Barbu daily 2026-11-27 classic 62% \U0001F7E9\U0001F7E8\U0001F7E5\u2B1C"
