"""Actions of every phase, each a small frozen value with a text form.

Card play uses `Card` itself (an int); every other decision has its own type
so a record line says what it is.  Chance events (the draw for the first
dealer, a deal) are actions too: a record is the ruleset and the list of
actions, and replays exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import RANKS, SUIT_NAMES, SUITS, CardSet, format_cards, parse_card
from .errors import ParseError
from .refusals import DEAL_HAND_COUNT, EMPTY_CHANCE, NOT_A_CHANCE, NOT_A_RANK, NOT_A_SUIT


@dataclass(frozen=True)
class Draw:
    """Chance: one card drawn by each seat for the first deal; the highest rank deals."""

    cards: tuple[int, ...]

    def __str__(self) -> str:
        return "draw " + " ".join(format_cards(1 << c) for c in self.cards)


@dataclass(frozen=True)
class Deal:
    """Chance: the hands dealt, seat 0 first, as card masks."""

    hands: tuple[int, ...]

    def __str__(self) -> str:
        return "deal " + " ".join(str(CardSet(h)) for h in self.hands)


@dataclass(frozen=True)
class Declare:
    """The declarer names a contract (by its key, such as ``no-queens``)."""

    contract: str

    def __str__(self) -> str:
        return f"contract {self.contract}"


@dataclass(frozen=True)
class NameTrump:
    """The Trumps declarer names a suit (0..3), or None for no-trump where allowed."""

    suit: int | None

    def __str__(self) -> str:
        return "trump " + ("none" if self.suit is None else SUITS[self.suit])


@dataclass(frozen=True)
class NameRank:
    """The Domino declarer names the starting rank (0 = two … 12 = ace)."""

    rank: int

    def __str__(self) -> str:
        return "rank " + RANKS[self.rank]


@dataclass(frozen=True)
class Double:
    """One doubling turn: the seats doubled (or redoubled, if they doubled me first).

    An empty set is a pass.  The shorthands ``maximum``/``table`` and
    ``family``/``flanks`` are read by `Match.parse_action` into target sets.
    """

    targets: frozenset[int] = frozenset()

    def __str__(self) -> str:
        if not self.targets:
            return "pass"
        return "double " + " ".join(str(s) for s in sorted(self.targets))


@dataclass(frozen=True)
class Pass:
    """Passing in Domino (allowed only when unable to play)."""

    def __str__(self) -> str:
        return "pass"


PASS = Pass()
NO_DOUBLE = Double()


def parse_suit(text: str) -> int | None:
    """``H``, ``hearts``, ``♥`` → 1; ``none``/``nt``/``no-trump`` → None."""
    t = text.strip().lower()
    if t in ("none", "nt", "no-trump", "notrump", "no trump", "sans"):
        return None
    for i, (letter, name) in enumerate(zip(SUITS, SUIT_NAMES)):
        if t in (letter.lower(), name, name[:-1], "♠♥♦♣"[i]):
            return i
    raise ParseError.of(NOT_A_SUIT, text=text)


def parse_rank(text: str) -> int:
    t = text.strip().upper()
    t = {"10": "T", "JACK": "J", "QUEEN": "Q", "KING": "K", "ACE": "A"}.get(t, t)
    if len(t) == 1 and t in RANKS:
        return RANKS.index(t)
    raise ParseError.of(NOT_A_RANK, text=text)


# -- the Scottish game (seed 004); its draws and cuts of the Unused Pack are in barbu.scottish.pack --


@dataclass(frozen=True)
class PassOn:
    """The three cards a seat passes on in the Silly Round (a card mask)."""

    cards: int

    def __str__(self) -> str:
        return "pass-on " + format_cards(self.cards)


@dataclass(frozen=True)
class Lay:
    """Patience: several cards laid in one turn, a run in one suit or cards of one rank (a card mask)."""

    cards: int

    def __str__(self) -> str:
        return "lay " + format_cards(self.cards)


def parse_chance(text: str, players: int) -> Draw | Deal:
    """Read a chance action: ``draw 2S KH 9D 4C`` or ``deal <hand> <hand> …`` (suit form, seat 0 first)."""
    words = text.split()
    if not words:
        raise ParseError.of(EMPTY_CHANCE)
    kind = words[0].lower()
    if kind == "draw":
        return Draw(tuple(parse_card(w) for w in words[1:]))
    if kind == "deal":
        hands = tuple(CardSet.parse(w).mask for w in words[1:])
        if len(hands) != players:
            raise ParseError.of(DEAL_HAND_COUNT, players=players, n=len(hands))
        return Deal(hands)
    raise ParseError.of(NOT_A_CHANCE, text=text)
