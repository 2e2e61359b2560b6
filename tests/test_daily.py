"""The daily deals' core: the keys, the boards' cards, the fixed contract and computer players who answer the
same moves the same way (`barbu.duplicate.daily`)."""

from __future__ import annotations

import random

import pytest

from barbu.classic.match import Match
from barbu.core.chance import verify_board_chance
from barbu.core.daily_keys import board_key, day_key, game_key
from barbu.duplicate.daily import GAMES, BoardPlay, DailyError, computer_scores, daily_set, set_from_day_key, share_line

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


@pytest.mark.parametrize("game", [g for g in GAMES if g != "besigue"])
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
    for move in a.moves[len(half) :]:
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
        daily_set(SECRET, DAY, "besigue-english")  # only the games the server offers
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
    assert line == "Barbu daily 2026-11-27 classic 62% \U0001f7e9\U0001f7e8\U0001f7e5\u2b1c"


def test_the_scottish_set_is_one_board_per_call_and_its_caller_drawn_by_the_board_key() -> None:
    """Seven boards, one per single call of a Player Round and Double Patience; the first Caller's draw is a chance
    event of the board's key, so everyone has the same Caller whatever he plays; Patience lays replay alike."""
    from barbu.scottish.pack import PackDraw

    dset = daily_set(SECRET, DAY, "scottish")
    assert dset.highest_wins and dset.size == 7
    assert dset.contract_order() == ["aces", "king", "queens", "hearts", "tricks", "patience", "double-patience"]

    def lays(legal):
        return next((a for a in legal if str(a).startswith("lay ")), legal[0])

    laid = 0
    for k in range(dset.size):
        a = play_out(dset, k, lays)
        b = play_out(dset, k, lambda legal: legal[0])
        assert isinstance(a.match.history[0], PackDraw) and a.match.history[0] == b.match.history[0]
        assert a.result.scottish.caller == b.result.scottish.caller == a.match.declarer
        assert a.seat == (a.result.scottish.caller + k) % 4
        assert a.contract == a.result.contract == dset.contract_order()[k]
        again = BoardPlay(dset, k, a.moves)  # the same moves, lays included: the same board to the end
        assert again.match.history == a.match.history and again.score == a.score
        laid += sum(1 for m in a.moves if m.startswith("lay "))
        if k >= 5:  # Patience: the places score 120/60/30/0 (twice in Double Patience), plus is good
            assert sorted(a.result.scores) == [x * (k - 4) for x in (0, 30, 60, 120)]
    assert laid > 0  # with this key a run is laid to go out


def test_a_wrong_lay_is_refused_and_changes_nothing() -> None:
    dset = daily_set(SECRET, DAY, "scottish")
    b = BoardPlay(dset, 5)
    assert b.match.phase_name == "domino" and b.to_move()
    before = list(b.match.history)
    held = b.match.hands[(b.seat + 1) % 4]
    from barbu.core.cards import CARDS, cards_of

    for bad in ("lay " + " ".join(str(CARDS[c]) for c in cards_of(held)[:2]), "lay", "lay QQ", "aces"):
        with pytest.raises(Exception):
            b.play(bad)
    assert b.match.history == before


def test_a_besigue_set_deals_the_same_cards_and_turns_the_dealer_round() -> None:
    """Four deals of a fresh game each: the dealer's draw and the shuffle from the board's key (the same for
    everyone, whatever he plays), the person the elder hand on deals 1 and 3 and the dealer on 2 and 4, the
    computer's answers the same for the same moves, a board's score his points less the computer's."""
    from barbu.besigue.game import BesigueGame

    dset = daily_set(SECRET, DAY, "besigue")
    assert dset.size == 4 and dset.highest_wins and dset.family == "besigue"
    for k in range(dset.size):
        rng = random.Random(k)
        a = play_out(dset, k, lambda legal: legal[0])
        b = play_out(dset, k, lambda legal, rng=rng: legal[rng.randrange(len(legal))])
        c = BoardPlay(dset, k, computer=True)
        assert type(a).__name__ == "BesigueBoard"
        assert a.match.log[:2] == b.match.log[:2] == c.match.log[:2]  # the dealer's draw and the shuffle
        dealer = a.result["dealer"]
        assert a.seat == b.seat == (dealer if k % 2 else 1 - dealer)
        again = BoardPlay(dset, k, a.moves)  # the same moves: the same computer answers to the end
        assert again.match.log == a.match.log and again.score == a.score
        s = a.result["scores"]
        assert a.score == s[a.seat] - s[1 - a.seat] and a.note() == f"{s[a.seat]}–{s[1 - a.seat]}"
        actions = [BesigueGame(dset.rules).parse_action(t) for _, t in b.match.log]
        assert verify_board_chance(lambda: BesigueGame(dset.rules), actions, board_key(dset.key, k)) == []
        assert verify_board_chance(lambda: BesigueGame(dset.rules), actions, board_key(dset.key, k + 1))


def test_besigue_refusals_change_nothing() -> None:
    dset = daily_set(SECRET, DAY, "besigue")
    b = BoardPlay(dset, 0)
    assert b.to_move()
    before = list(b.match.log)
    from barbu.besigue.cards import card_text

    other = next(
        c for c in b.match.hands[1 - b.seat] if card_text(c) not in {card_text(x) for x in b.match.hands[b.seat]}
    )
    for bad in (f"play {card_text(other)}", "declare bezique QS JD", "nonsense", "", "no-declaration"):
        with pytest.raises(Exception):
            b.play(bad)
    assert b.match.log == before
    with pytest.raises(DailyError):
        BoardPlay(dset, 4)
