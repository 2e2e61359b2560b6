"""Cards as small ints and sets of cards as int bitmasks.

A card is ``suit * 13 + rank`` where suits are ♠ ♥ ♦ ♣ (0..3) and ranks run
2..A (0..12), so within a suit a higher card is a higher bit: the winner of a
trick is found with ``bit_length``.  The engine works on raw ints; `Card` and
`CardSet` are the public, readable faces of the same numbers.
"""

from __future__ import annotations

from typing import Iterable, Iterator

from .errors import ParseError
from .refusals import HAND_BAD_RANK, HAND_NEEDS_FOUR_SUITS, NOT_A_CARD

# The cards' letters and English names live with the other words; they are the cards' too.
from .words import (
    RANK_NAMES as RANK_NAMES,
)
from .words import (
    RANKS as RANKS,
)
from .words import (
    SUIT_NAMES as SUIT_NAMES,
)
from .words import (
    SUIT_SYMBOLS as SUIT_SYMBOLS,
)
from .words import (
    SUITS as SUITS,
)

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(13)

SUIT_MASK = tuple(0x1FFF << (13 * s) for s in range(4))
FULL_DECK = (1 << 52) - 1
#: The Scottish game's 32 cards: 7 to A of each suit.
PIQUET_DECK = sum(1 << (s * 13 + r) for s in range(4) for r in range(SEVEN, ACE + 1))


def rank_mask(rank: int) -> int:
    """The four cards of one rank."""
    return sum(1 << (s * 13 + rank) for s in range(4))


class Card(int):
    """One card, an int 0..51 with a text form (``QH``) and a display form (``Q♥``)."""

    __slots__ = ()

    def __new__(cls, value: "int | str") -> "Card":
        if isinstance(value, str):
            return CARDS[parse_card(value)]
        if not 0 <= value < 52:
            raise ValueError(f"card index {value} is not in 0..51")
        return int.__new__(cls, value)

    @classmethod
    def parse(cls, text: str) -> "Card":
        return CARDS[parse_card(text)]

    @property
    def suit(self) -> int:
        return self // 13

    @property
    def rank(self) -> int:
        return self % 13

    @property
    def mask(self) -> int:
        return 1 << self

    def __str__(self) -> str:
        return RANKS[self % 13] + SUITS[self // 13]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def display(self) -> str:
        return RANKS[self % 13].replace("T", "10") + SUIT_SYMBOLS[self // 13]

    def name(self) -> str:
        return f"{RANK_NAMES[self % 13]} of {SUIT_NAMES[self // 13]}"


CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(52))

_RANK_ALIASES = {"10": "T", "1": "A"}
_SUIT_ALIASES = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}


def parse_card(text: str) -> int:
    """Parse ``QH``, ``qh``, ``10h``, ``Q♥`` or ``HQ`` into a card index."""
    word = text.strip().upper()
    for k, v in _SUIT_ALIASES.items():
        word = word.replace(k, v)
    if len(word) == 3 and word[:2] == "10":
        word = "T" + word[2]
    elif len(word) == 3 and word[1:] == "10":
        word = word[0] + "T"
    if len(word) == 2:
        r, s = word[0], word[1]
        if r in SUITS and s in RANKS and not (r in RANKS and s in SUITS):
            r, s = s, r
        if r in RANKS and s in SUITS:
            return SUITS.index(s) * 13 + RANKS.index(r)
    raise ParseError.of(NOT_A_CARD, text=text)


def _suit_tuples(suit: int) -> tuple[tuple[Card, ...], ...]:
    """Every 13-bit pattern of one suit -> its cards in ascending order, each pattern's tuple made from the
    one without its lowest card (a tenth of the time of testing 13 bits per pattern: every process imports it)."""
    table: list[tuple[Card, ...]] = [()]
    for bits in range(1, 1 << 13):
        low = (bits & -bits).bit_length() - 1
        table.append((CARDS[suit * 13 + low], *table[bits & (bits - 1)]))
    return tuple(table)


# Per-suit lookup tables: 13-bit pattern -> tuple of cards, high first is not needed;
# cards come in ascending order so iteration is cheap and deterministic.
_SUIT_TUPLES: tuple[tuple[tuple[Card, ...], ...], ...] = tuple(_suit_tuples(s) for s in range(4))


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a bitmask as a tuple of `Card`, in index order (fast path)."""
    if not mask:
        return ()
    t0 = _SUIT_TUPLES[0][mask & 0x1FFF]
    rest = mask >> 13
    if not rest:
        return t0
    return (
        t0
        + _SUIT_TUPLES[1][rest & 0x1FFF]
        + _SUIT_TUPLES[2][(rest >> 13) & 0x1FFF]
        + _SUIT_TUPLES[3][(rest >> 26) & 0x1FFF]
    )


def card_indices(mask: int) -> list[int]:
    """The cards of a bitmask as a list of plain ints, in index order (for code that edits the list)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def suit_cards(mask: int, suit: int) -> tuple[Card, ...]:
    """The cards of one suit of a bitmask, fast."""
    return _SUIT_TUPLES[suit][(mask >> (13 * suit)) & 0x1FFF]


class CardSet:
    """An immutable set of cards backed by an int bitmask, with a set-like API."""

    __slots__ = ("mask",)
    mask: int

    def __init__(self, cards: "int | Iterable[int | str] | CardSet" = 0) -> None:
        if isinstance(cards, CardSet):
            m = cards.mask
        elif isinstance(cards, int):
            m = cards
        else:
            m = 0
            for c in cards:
                m |= 1 << (parse_card(c) if isinstance(c, str) else int(c))
        if m < 0 or m > FULL_DECK:
            raise ValueError("a card set mask must be within 52 bits")
        object.__setattr__(self, "mask", m)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    @classmethod
    def parse(cls, text: str) -> "CardSet":
        """Parse a hand as ``AKQ.JT9.-.5432`` (spades.hearts.diamonds.clubs) or a list of cards."""
        text = text.strip()
        if not text or text == "-":
            return cls(0)
        if "." in text and " " not in text and "," not in text:
            parts = text.split(".")
            if len(parts) != 4:
                raise ParseError.of(HAND_NEEDS_FOUR_SUITS, text=text)
            m = 0
            for s, part in enumerate(parts):
                if part in ("-", ""):
                    continue
                for ch in part.upper().replace("10", "T"):
                    if ch not in RANKS:
                        raise ParseError.of(HAND_BAD_RANK, text=text, char=ch)
                    m |= 1 << (s * 13 + RANKS.index(ch))
            return cls(m)
        return cls(parse_card(t) for t in text.replace(",", " ").split())

    def __contains__(self, card: object) -> bool:
        if isinstance(card, str):
            card = parse_card(card)
        return isinstance(card, int) and 0 <= card < 52 and bool(self.mask >> card & 1)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __iter__(self) -> Iterator[Card]:
        return iter(cards_of(self.mask))

    def __bool__(self) -> bool:
        return bool(self.mask)

    def __or__(self, other: "CardSet") -> "CardSet":
        return CardSet(self.mask | _mask(other))

    def __and__(self, other: "CardSet") -> "CardSet":
        return CardSet(self.mask & _mask(other))

    def __sub__(self, other: "CardSet") -> "CardSet":
        return CardSet(self.mask & ~_mask(other))

    def __xor__(self, other: "CardSet") -> "CardSet":
        return CardSet(self.mask ^ _mask(other))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(("CardSet", self.mask))

    def __le__(self, other: "CardSet") -> bool:
        return self.mask & ~_mask(other) == 0

    def suit(self, suit: int) -> "CardSet":
        return CardSet(self.mask & SUIT_MASK[suit])

    def __str__(self) -> str:
        """PBN-like suit form: spades.hearts.diamonds.clubs, high cards first."""
        parts = []
        for s in range(4):
            bits = (self.mask >> (13 * s)) & 0x1FFF
            parts.append("".join(RANKS[r] for r in range(12, -1, -1) if bits >> r & 1) or "-")
        return ".".join(parts)

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"

    def display(self) -> str:
        """Suit-symbol form for people: ``♠AKQ ♥J109 ♦— ♣5432``."""
        parts = []
        for s in range(4):
            bits = (self.mask >> (13 * s)) & 0x1FFF
            ranks = " ".join(RANKS[r].replace("T", "10") for r in range(12, -1, -1) if bits >> r & 1)
            parts.append(f"{SUIT_SYMBOLS[s]} {ranks or '—'}")
        return "  ".join(parts)


def _mask(other: "int | Iterable[int | str] | CardSet") -> int:
    if isinstance(other, CardSet):
        return other.mask
    if isinstance(other, int):
        return other
    return CardSet(other).mask


def format_cards(mask: int) -> str:
    """Space-separated text forms of the cards of a mask, in index order."""
    return " ".join(str(c) for c in cards_of(mask))
