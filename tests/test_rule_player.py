"""The rule player's judgement on positions where it used to go wrong (issue 16)."""

from __future__ import annotations

from barbu.agents.bidding import contract_merit, keeps_own
from barbu.agents.cardplay import choose_trick_card
from barbu.classic.contracts import classic_contracts
from barbu.core.cards import parse_card

CONTRACTS = {c.key: c for c in classic_contracts()}
DECK = (1 << 52) - 1


def mask(text: str) -> int:
    m = 0
    for w in text.split():
        m |= 1 << parse_card(w)
    return m


# Classic, seed 5, deal 5 of the issue: led low at No hearts and ended with three aces (-28).
HAND = mask("AS 9S 5S KH 5H AD 9D 8D 6D AC 8C 6C 2C")


def test_no_hearts_cashes_an_ace_while_everybody_follows():
    others = DECK & ~HAND
    card = choose_trick_card(CONTRACTS["no-hearts"], 1, HAND, HAND, [], 0, others, 4, 13)
    assert card in (parse_card("AS"), parse_card("AD"), parse_card("AC"))


def test_no_hearts_wins_a_clean_trick_with_its_ace_rather_than_keep_it():
    trick = [parse_card("7D"), parse_card("3D")]
    played = mask("7D 3D")
    others = DECK & ~HAND & ~played
    legal = HAND & mask("AD 9D 8D 6D")
    card = choose_trick_card(CONTRACTS["no-hearts"], 1, HAND, legal, trick, 0, others, 4, 13)
    assert card == parse_card("AD")


def test_no_hearts_still_ducks_a_trick_that_carries_a_heart():
    trick = [parse_card("7D"), parse_card("QH")]
    played = mask("7D QH")
    others = DECK & ~HAND & ~played
    legal = HAND & mask("AD 9D 8D 6D")
    card = choose_trick_card(CONTRACTS["no-hearts"], 1, HAND, legal, trick, 0, others, 4, 13)
    assert card == parse_card("6D")


def test_no_hearts_does_not_cash_at_no_tricks_where_every_trick_costs():
    others = DECK & ~HAND
    card = choose_trick_card(CONTRACTS["no-tricks"], 1, HAND, HAND, [], 0, others, 4, 13)
    assert card not in (parse_card("AS"), parse_card("AD"), parse_card("AC"))


def test_a_guarded_king_of_hearts_is_seldom_taken_by_its_holder():
    guarded = mask("KH 7H 4H 2H AS 9S 5S AD 9D 8D AC 8C 2C")
    bare = mask("KH AS QS 9S 5S AD KD 9D 8D AC KC 8C 2C")
    assert keeps_own(parse_card("KH"), guarded, DECK) < 0.1 < 0.5 < keeps_own(parse_card("KH"), bare, DECK)


def test_a_declarer_with_a_guarded_king_of_hearts_likes_no_king():
    """Holding the K♥ with small hearts is the best time to name No King, not a reason to avoid it."""
    guarded = mask("KH 7H 4H 2H AS 9S 5S AD 9D 8D AC 8C 2C")
    without = mask("QH 7H 4H 2H AS 9S 5S AD 9D 8D AC 8C 2C")
    king = CONTRACTS["no-king"]
    assert contract_merit(king, guarded, DECK, 4, 1) > 0
    assert contract_merit(king, guarded, DECK, 4, 1) > contract_merit(king, without, DECK, 4, 1)
