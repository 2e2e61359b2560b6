"""The Italian and Salad presets: values, the seed's worked examples, player counts, stripped decks."""

import random

import pytest
from helpers import play_out

from barbu import Business, Card, Match, Ruleset, RulesetError
from barbu.classic.contracts import score_tricks
from barbu.classic.match import settle
from barbu.classic.presets import stripped_deck

A, B, C, D = 0, 1, 2, 3


def cards(*texts):
    m = 0
    for t in texts:
        m |= 1 << Card.parse(t)
    return m


def italian(key):
    return Match("italian").contract_by_key[key]


def test_italian_totals_are_the_seeds_check_values():
    m = Match("italian")
    totals = {c.key: c.total(4, 13, m.deck) for c in m.contracts}
    assert totals == {
        "no-king": -20,
        "no-hearts": -36,
        "no-queens": -24,
        "no-last-two": -24,
        "no-tricks": -26,
        "trumps": 65,
        "domino": 65,
    }


def test_italian_example_1_king_of_hearts_doubled():
    """Dealer a; b and c double d; d takes the King of hearts: d -60, b +20, c +20, a 0."""
    won = [0, 0, 0, cards("KH", "2C", "3C", "4C")]
    base = score_tricks(italian("no-king"), 4, won, [0, 0, 0, 1], [D])
    assert base == [0, 0, 0, -20]
    assert settle(base, [Business(B, D), Business(C, D)]) == [0, 20, 20, -60]
    # If d had redoubled both: d -100, b +40, c +40.
    assert settle(base, [Business(B, D, True), Business(C, D, True)]) == [0, 40, 40, -100]


def test_italian_example_2_hearts_with_one_player_doubling_three():
    """b doubles a, c and d; a takes no heart, b takes A and K of hearts, c the rest: a +8, b -4, c -48, d +8."""
    rest = [f"{r}H" for r in "23456789TJQ"]
    won = [0, cards("AH", "KH"), cards(*rest), 0]
    base = score_tricks(italian("no-hearts"), 4, won, [0, 1, 1, 0], [])
    assert base == [0, -8, -28, 0]
    scores = settle(base, [Business(B, A), Business(B, C), Business(B, D)])
    assert scores == [8, -4, -48, 8]
    assert sum(scores) == -36


def test_italian_rules_no_trump_allowed_and_italian_trump_duties():
    r = Ruleset.parse("italian")
    assert r.allow_no_trump and r.trump_rules == "italian" and r.undoubled_negative == "play"
    assert r.double_obligation == 2
    with pytest.raises(RulesetError, match="does not apply to the italian family"):
        Ruleset.parse("italian(ravage_city=true)")


@pytest.mark.parametrize("seed", range(3))
def test_italian_matches_are_zero_sum_and_totals_hold(seed):
    m = play_out("italian", seed)
    assert len(m.results) == 28 and sum(m.totals) == 0
    for r in m.results:
        assert sum(r.scores) == m.contract_by_key[r.contract].total(4, 13, m.deck)


@pytest.mark.parametrize("players,removed", [(3, ["2C"]), (4, []), (5, ["2C", "2S"]), (6, ["2C", "2S", "2D", "2H"])])
def test_salad_strips_the_deck_to_deal_evenly(players, removed):
    deck = stripped_deck(players)
    assert deck.bit_count() % players == 0
    assert deck == (1 << 52) - 1 - cards(*removed)


def test_salad_values():
    m = Match("salad")
    totals = {c.key: c.total(4, 13, m.deck) for c in m.contracts}
    # RULES.md: the seed's -235 for Salad is an arithmetic slip for -355.
    assert totals == {
        "no-tricks": -65,
        "no-last-trick": -30,
        "no-hearts": -130,
        "no-queens": -80,
        "no-king": -50,
        "salad": -355,
    }
    six = Match("salad(players=6)")
    assert {c.key: c.total(6, 8, six.deck) for c in six.contracts}["salad"] == -40 - 30 - 120 - 80 - 50


def test_salad_trick_counts_everything_at_once():
    """The last trick taken with K and Q of hearts in Salad: 5 + 30 + 10 + 10 + 20 + 50."""
    salad = Match("salad").contract_by_key["salad"]
    won = [cards("KH", "QH", "2C", "3C"), 0, 0, 0]
    assert score_tricks(salad, 4, won, [1, 0, 0, 0], [0]) == [-125, 0, 0, 0]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_salad_plays_whole_matches_for_every_player_count(players):
    m = play_out(f"salad(players={players})", players)
    assert len(m.results) == players * 6
    hand = m.deck.bit_count() // players
    for r in m.results:
        total = m.contract_by_key[r.contract].total(players, hand, m.deck)
        assert sum(r.base) == sum(r.scores) == total
        for h in r.hands:
            assert h.bit_count() == hand


def test_salad_player_count_is_checked():
    with pytest.raises(RulesetError, match="salad is played by 3 to 6 players, not 2"):
        Ruleset.parse("salad(players=2)")
    with pytest.raises(RulesetError, match="option players: 7 is not allowed"):
        Ruleset.parse("salad(players=7)")
    with pytest.raises(RulesetError, match="classic is played by 4 players, not 3"):
        Ruleset.parse("classic(players=3)")


def test_italian_example_1_played_through_the_engine():
    """The seed's King-of-hearts example as a real deal: dealer a = 0; b and c double d = 3, who then
    takes the King whatever the others do: d -60, b +20, c +20, a 0 (and -100/+40/+40 if d redoubles)."""
    from helpers import start_deal

    hands = ["AKQJT98765.-.A.32", "432.QJT9876.KQJ.-", "-.5432.T98765432.-", "-.AK.-.AKQJT987654"]
    # The round goes b, c, d, then the dealer a.
    for calls, expected in (
        (["double 3", "double 3", "pass", "pass"], (0, 20, 20, -60)),
        (["double 3", "double 3", "redouble 1 2", "pass"], (0, 40, 40, -100)),
    ):
        for seed in range(5):
            m = start_deal("italian", 0, hands, contract="no-king")
            for call in calls:
                m.apply(call)
            m.apply("2C")  # the dealer leads his low club; d wins every club trick, then the King
            rng = random.Random(seed)
            while m.phase_name == "play":
                m.apply(rng.choice(m.legal_actions()))
            r = m.results[-1]
            assert r.base == (0, 0, 0, -20)
            assert r.scores == expected
