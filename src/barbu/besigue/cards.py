"""Bésigue cards: two 32-card packs, 64 ints.

A card is ``copy * 32 + suit * 8 + rank`` where suits are ♠ ♥ ♦ ♣ (0..3) and
ranks run 7 8 9 J Q K 10 A (0..7), so a higher rank index wins.  ``card % 32``
is the card's *type*: the two copies of a type are interchangeable for the
rules, but every card keeps its own number so that records replay exactly.
"""

from __future__ import annotations

from ..core.errors import ParseError
from ..core.words import N_, message

SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANKS = "789JQKTA"
RANK_NAMES = ("seven", "eight", "nine", "jack", "queen", "king", "ten", "ace")
SEVEN, EIGHT, NINE, JACK, QUEEN, KING, TEN, ACE = range(8)
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
ALL_CARDS: tuple[int, ...] = tuple(range(64))

_SUIT_ALIASES = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def suit_of(card: int) -> int:
    return (card % 32) // 8


def rank_of(card: int) -> int:
    return card % 8


def type_of(card: int) -> int:
    """The card without its copy number (0..31)."""
    return card % 32


def make_type(suit: int, rank: int) -> int:
    return suit * 8 + rank


def type_text(t: int) -> str:
    return RANKS[t % 8] + SUITS[t // 8]


def type_display(t: int) -> str:
    """``Q♠``, ``10♦`` — the form error messages and screens use, as in the Barbu games."""
    return RANKS[t % 8].replace("T", "10") + SUIT_SYMBOLS[t // 8]


def card_text(card: int) -> str:
    """``QS`` — the same for both copies."""
    return type_text(card % 32)


def card_display(card: int) -> str:
    return RANKS[card % 8].replace("T", "10") + SUIT_SYMBOLS[(card % 32) // 8]


NOT_A_BESIGUE_CARD = message(
    "not-a-besigue-card",
    N_(
        "{text!r} is not a Bésigue card; write rank then suit, ranks 7 8 9 J Q K T A and suits S H D C, e.g. QS, TD, 7H"
    ),
)


def parse_type(text: str) -> int:
    """``QS``, ``10S``, ``Q♠`` → the card type 0..31; ParseError names what was wrong."""
    s = text.strip().upper()
    for k, v in _SUIT_ALIASES.items():
        s = s.replace(k, v)
    if s.startswith("10"):
        s = "T" + s[2:]
    if len(s) != 2 or s[0] not in RANKS or s[1] not in SUITS:
        raise ParseError.of(NOT_A_BESIGUE_CARD, text=text)
    return make_type(SUITS.index(s[1]), RANKS.index(s[0]))
