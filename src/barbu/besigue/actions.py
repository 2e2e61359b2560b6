"""Bésigue actions: small frozen values with a text form, and their parser.

Cards in actions are *types* (0..31) plus where the card lies: in the hand or
on the table among the player's declared cards (written with a ``*``, as in
``play QS*``).  The engine picks which copy is meant by a fixed rule, so the
text form is exact for records.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import ParseError
from . import refusals as R
from .cards import parse_type, type_text

#: combination kinds, in the words of the text form, with their values
MELD_VALUES: dict[str, int] = {
    "marriage": 20,
    "trump-marriage": 40,
    "bezique": 40,
    "four-jacks": 40,
    "four-queens": 60,
    "four-kings": 80,
    "four-aces": 100,
    "quint": 250,
    "double-bezique": 500,
}
#: what the rest scores: each brisque won in tricks, the 7 of trumps (turned up, exchanged or shown), the last trick
BRISQUE_POINTS = 10
SEVEN_POINTS = 10
LAST_TRICK_POINTS = 10

MELD_NAMES: dict[str, str] = {
    "marriage": "a marriage",
    "trump-marriage": "a trump marriage",
    "bezique": "a bésigue",
    "four-jacks": "four jacks",
    "four-queens": "four queens",
    "four-kings": "four kings",
    "four-aces": "four aces",
    "quint": "a quint major",
    "double-bezique": "a double bésigue",
}

Slot = tuple[int, bool]  # (card type, lies on the table)


def slot_text(slot: Slot) -> str:
    return type_text(slot[0]) + ("*" if slot[1] else "")


@dataclass(frozen=True, order=True)
class Play:
    card: int
    from_table: bool = False

    def __str__(self) -> str:
        return f"play {slot_text((self.card, self.from_table))}"


@dataclass(frozen=True, order=True)
class Declare:
    kind: str
    cards: tuple[Slot, ...]

    def __str__(self) -> str:
        return f"declare {self.kind} " + " ".join(slot_text(s) for s in self.cards)

    @property
    def value(self) -> int:
        return MELD_VALUES[self.kind]


@dataclass(frozen=True, order=True)
class NoDeclaration:
    def __str__(self) -> str:
        return "no-declaration"


@dataclass(frozen=True, order=True)
class Exchange:
    """seven=exchange: swap the 7 of trumps in hand for the turn-up (scores 10)."""

    card: int

    def __str__(self) -> str:
        return f"exchange {type_text(self.card)}"


@dataclass(frozen=True, order=True)
class Show:
    """seven=exchange: show a 7 of trumps in hand (scores 10)."""

    card: int

    def __str__(self) -> str:
        return f"show {type_text(self.card)}"


@dataclass(frozen=True, order=True)
class FirstDealer:
    """Chance: who deals first."""

    seat: int

    def __str__(self) -> str:
        return f"first-dealer {self.seat}"


@dataclass(frozen=True, order=True)
class Shuffle:
    """Chance: the pack's order, top card first (card numbers 0..63)."""

    order: tuple[int, ...]

    def __str__(self) -> str:
        return "shuffle " + " ".join(str(c) for c in self.order)


Action = Play | Declare | NoDeclaration | Exchange | Show | FirstDealer | Shuffle


def _slot(text: str) -> Slot:
    star = text.endswith("*")
    return parse_type(text[:-1] if star else text), star


def canonical_cards(slots: list[Slot]) -> tuple[Slot, ...]:
    return tuple(sorted(slots, key=lambda s: (s[0] // 8, s[0] % 8, s[1])))


def parse_action(text: str) -> Action:
    """The action a text names; ParseError says what is malformed."""
    words = text.strip().split()
    if not words:
        raise ParseError.of(R.EMPTY_ACTION)
    verb, rest = words[0].lower(), words[1:]
    if verb in ("no-declaration", "pass") and not rest:
        return NoDeclaration()
    if verb == "play" and len(rest) == 1:
        return Play(*_slot(rest[0]))
    if verb == "declare" and len(rest) >= 3:
        kind = rest[0].lower().replace("_", "-")
        if kind not in MELD_VALUES:
            raise ParseError.of(R.UNKNOWN_COMBINATION, text=rest[0], kinds=list(MELD_VALUES))
        return Declare(kind, canonical_cards([_slot(w) for w in rest[1:]]))
    if verb in ("exchange", "show") and len(rest) == 1:
        t = parse_type(rest[0])
        return Exchange(t) if verb == "exchange" else Show(t)
    if verb == "first-dealer" and len(rest) == 1 and rest[0] in ("0", "1"):
        return FirstDealer(int(rest[0]))
    if verb == "shuffle" and len(rest) == 64:
        try:
            order = tuple(int(w) for w in rest)
        except ValueError:
            raise ParseError.of(R.SHUFFLE_NUMBERS) from None
        if sorted(order) != list(range(64)):
            raise ParseError.of(R.SHUFFLE_ONCE)
        return Shuffle(order)
    raise ParseError.of(R.UNREADABLE_ACTION, text=text)
