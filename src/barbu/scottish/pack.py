"""The Unused Pack of the Scottish game (seed 004).

The 32-card game leaves out 2–6 of each suit, two Jokers and the Bridge rules
card: 23 cards that decide things by chance.  Dealt one to each player they
find the first Caller and the first dealer of the Silly Round (Bridge >
Joker > 6 > … > 2, suits do not count, ties draw again); cut, they decide the
Silly Round's calls and pass-ons.  A pack card is a small int: the numbers are
``(number - 2) * 4 + suit`` (0..19, suits ♠ ♥ ♦ ♣ as everywhere), then the
Joker (20) and the Bridge card (21).  The pack holds the Joker twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.cards import SUIT_SYMBOLS, SUITS
from ..core.errors import ParseError
from .refusals import NOT_A_PACK_CARD

JOKER = 20
BRIDGE = 21
#: The 23 cards of the Unused Pack, the Joker twice.
PACK: tuple[int, ...] = tuple(range(20)) + (JOKER, JOKER, BRIDGE)


def pack_card(number: int, suit: int) -> int:
    """The pack card of a number (2..6) and a suit (0..3)."""
    return (number - 2) * 4 + suit


def number_of(card: int) -> int | None:
    """2..6 for a number card, None for the Joker and the Bridge card."""
    return card // 4 + 2 if card < 20 else None


def is_black(card: int) -> bool:
    """A spade or a club: a cut that starts a pass-on."""
    return card < 20 and card % 4 in (0, 3)


def is_red(card: int) -> bool:
    """A heart or a diamond: a cut that stops the pass-ons."""
    return card < 20 and card % 4 in (1, 2)


def draw_value(card: int) -> int:
    """Rank in a draw: the numbers by value, then the Joker (7), then the Bridge card (8)."""
    return {JOKER: 7, BRIDGE: 8}.get(card, card // 4 + 2)


def format_pack(card: int) -> str:
    """``4S``, ``Joker``, ``Bridge``."""
    if card == JOKER:
        return "Joker"
    if card == BRIDGE:
        return "Bridge"
    return f"{card // 4 + 2}{SUITS[card % 4]}"


def display_pack(card: int) -> str:
    """``4♠``, ``Joker``, ``Bridge``: the form for people."""
    if card >= 20:
        return format_pack(card)
    return f"{card // 4 + 2}{SUIT_SYMBOLS[card % 4]}"


def parse_pack(text: str) -> int:
    """Read ``4S``, ``4s``, ``4♠``, ``joker``/``jk``, ``bridge``/``br`` as a pack card."""
    word = text.strip().lower()
    if word in ("joker", "jk", "jkr"):
        return JOKER
    if word in ("bridge", "br", "brg"):
        return BRIDGE
    symbols = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
    word = "".join(symbols.get(ch, ch) for ch in word)
    if len(word) == 2 and word[0] in "23456" and word[1] in "shdc":
        return pack_card(int(word[0]), "shdc".index(word[1]))
    raise ParseError.of(NOT_A_PACK_CARD, text=text)


def valid_draw(cards: tuple[int, ...], players: int) -> bool:
    """One different pack card per player (the Joker at most twice)."""
    if len(cards) != players or any(not 0 <= c <= BRIDGE for c in cards):
        return False
    return all(cards.count(c) <= PACK.count(c) for c in set(cards))


def draw_winner(cards: tuple[int, ...]) -> int | None:
    """The seat with the highest card, or None when the highest is shared (everybody draws again)."""
    values = [draw_value(c) for c in cards]
    top = max(values)
    return values.index(top) if values.count(top) == 1 else None


__all__ = [
    "JOKER",
    "BRIDGE",
    "PACK",
    "pack_card",
    "number_of",
    "is_black",
    "is_red",
    "draw_value",
    "format_pack",
    "display_pack",
    "parse_pack",
    "valid_draw",
    "draw_winner",
]


# -- the chance actions of the Unused Pack ----------------------------------------


@dataclass(frozen=True)
class PackDraw:
    """Chance: one card of the Unused Pack dealt to each seat, seat 0 first (the highest
    finds the first Caller, or the first dealer of the Silly Round; a tie draws again)."""

    cards: tuple[int, ...]

    def __str__(self) -> str:
        return "draw " + " ".join(format_pack(c) for c in self.cards)


@dataclass(frozen=True)
class Cut:
    """Chance: the Silly Round's Cutter cuts the Unused Pack (made whole again before every cut)."""

    card: int

    def __str__(self) -> str:
        return "cut " + format_pack(self.card)
