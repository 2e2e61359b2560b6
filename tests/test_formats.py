"""What a table plays in a round of each format, per game: the series each family reads, and the board keys."""

from __future__ import annotations

import random

import pytest

from barbu.core.chance import BoardChance
from barbu.core.errors import RulesetError
from barbu.core.game import CHANCE
from barbu.duplicate.errors import EventError
from barbu.duplicate.formats import board_id, deals_per_round, parse_board_id, round_over, round_secret
from barbu.games import open_game


@pytest.mark.parametrize(
    "rules, one_match, rounds",
    [
        ("classic", 28, 7),  # a declarer's seven contracts
        ("classic(ravage_city=true)", 32, 8),
        ("classic(chinese_poker=true)", 32, 8),
        ("classic(ravage_city=true, chinese_poker=true)", 36, 9),
        ("salad", 24, 6),
        ("italian", 28, 7),
        ("italian-six", 24, 6),  # the series ends with its placement points
        ("classic(rotation=quick)", 28, 4),  # quick rotation: one turn of the table
        ("french", 28, 4),
        ("french(players=3)", 21, 3),
        ("french(players=6)", 42, 6),
        ("scottish", 35, 7),  # the most: a Player Round is 2 to 7 deals
        ("scottish(sets=2)", 70, 7),
        ("besigue", None, 2),  # one deal dealt by each player
    ],
)
def test_deals_per_round(rules, one_match, rounds):
    assert deals_per_round(rules, "rounds") == rounds
    if one_match is None:
        with pytest.raises(EventError) as e:
            deals_per_round(rules, "one-match")
        assert e.value.code == "event-variable-match"
    else:
        assert deals_per_round(rules, "one-match") == one_match


def test_bad_format_or_rules_are_refused_with_their_codes():
    with pytest.raises(EventError) as e:
        deals_per_round("classic", "swiss")
    assert e.value.code == "event-unknown-format"
    with pytest.raises(RulesetError):
        deals_per_round("clasic", "rounds")


def test_board_ids():
    assert board_id(1, 3) == "r1-d3"
    assert parse_board_id("r12-d7") == (12, 7)
    for bad in ("r1d3", "x1-d3", "r-d3", "r1-d", ""):
        with pytest.raises(ValueError):
            parse_board_id(bad)


def test_round_secrets_differ_and_are_fixed():
    key = bytes(range(32))
    assert round_secret(key, 1) == round_secret(key, 1)
    assert len({round_secret(key, r) for r in range(1, 9)}) == 8
    assert round_secret(key, 1) != round_secret(bytes(32), 1)


def play_round(rules: str, fmt: str, secret: bytes, seed: int):
    """Play one round with random legal moves; the game and the hands dealt per deal."""
    game, chance, rng = open_game(rules), BoardChance(secret), random.Random(seed)
    hands = []
    while not round_over(rules, fmt, game):
        if game.to_act() == CHANCE:
            game.apply(chance(game))
            if getattr(game, "hands", None) and len(hands) == len(game.results) and any(game.hands):
                hands.append(tuple(game.hands))
        else:
            game.apply(rng.choice(list(game.legal_actions())))
    return game, hands


@pytest.mark.parametrize("rules, deals", [("classic", 7), ("italian-six", 6), ("french", 4), ("besigue", 2)])
def test_a_round_is_one_series(rules, deals):
    game, _ = play_round(rules, "rounds", round_secret(b"k" * 32, 1), seed=3)
    assert len(game.results) == deals


def test_a_scottish_round_ends_with_the_player_round():
    for seed in range(3):
        game, _ = play_round("scottish", "rounds", round_secret(b"k" * 32, 1), seed)
        assert 2 <= len(game.results) <= 7
        assert game.state.round_no == 1 and not game.state.silly


def test_one_match_runs_to_the_end():
    game, _ = play_round("french(players=3)", "one-match", b"e" * 32, seed=1)
    assert game.is_over and len(game.results) == 21


def test_every_table_of_a_round_gets_the_same_cards_whatever_is_played():
    """Two tables, different play, the same round key: each deal's hands are the same from the same seats."""
    secret = round_secret(b"event key " * 4, 2)
    _, first = play_round("classic", "rounds", secret, seed=1)
    _, second = play_round("classic", "rounds", secret, seed=2)
    assert len(first) == 7 and first == second
    _, other_round = play_round("classic", "rounds", round_secret(b"event key " * 4, 3), seed=1)
    assert other_round[0] != first[0]
