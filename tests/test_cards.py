"""Cards and card sets: encoding, text forms, the set-like API."""

import pytest

from barbu import CARDS, Card, CardSet, ParseError


def test_card_text_forms_round_trip():
    for c in CARDS:
        assert Card.parse(str(c)) == c
        assert eval(repr(c)) == c
    q = Card.parse("QH")
    assert str(q) == "QH" and q.display() == "Q♥" and q.suit == 1 and q.rank == 10
    assert Card("TS") == Card.parse("10s") == Card.parse("10♠") == Card.parse("st")
    assert Card.parse("ts").display() == "10♠"


@pytest.mark.parametrize("bad", ["", "Q", "QX", "1H", "11S", "KHH", "♥"])
def test_bad_card_text_is_a_parse_error(bad):
    with pytest.raises(ParseError, match="not a card"):
        Card.parse(bad)


def test_higher_card_is_higher_bit_within_a_suit():
    assert Card.parse("AS") > Card.parse("KS") > Card.parse("2S")
    assert Card.parse("2H") == 13


def test_cardset_is_set_like():
    a = CardSet.parse("AKQ.-.-.2")
    b = CardSet(["QS", "JS", "2C"])
    assert len(a) == 4 and "KS" in a and Card.parse("KS") in a and "JS" not in a
    assert a | b == CardSet.parse("AKQJ.-.-.2")
    assert a & b == CardSet(["QS", "2C"])
    assert a - b == CardSet(["AS", "KS"])
    assert [str(c) for c in a] == ["QS", "KS", "AS", "2C"]
    assert CardSet(a) == a and hash(CardSet(a)) == hash(a)
    assert str(a) == "AKQ.-.-.2"
    assert eval(repr(a), {"CardSet": CardSet}) == a
    assert CardSet(["2C"]) <= a
    with pytest.raises(AttributeError):
        a.mask = 3


def test_cardset_parse_errors():
    with pytest.raises(ParseError):
        CardSet.parse("AKQ.JT")
    with pytest.raises(ParseError):
        CardSet.parse("AKX.-.-.-")
