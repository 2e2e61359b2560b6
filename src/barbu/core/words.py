"""The English words of the game, and how a refusal is worded from its code and parameters.

The rules core raises refusals as a `Message` (a stable code and an English
template, the gettext msgid) with raw parameters: card ints, suit ints, seat
numbers, counts, contract keys.  `Words` turns those into text.  English is the
`Words` base class itself; a front end passes a subclass that looks its words up
in a catalog (barbu.i18n) and so words the same refusal in French or Italian.
No translation library and no I/O here: the core stays standard library only.

A template names each parameter's kind in its format spec: ``{suit:suit}``,
``{card:card}``, ``{cards:cards}``, ``{seat:seat}``, ``{n:count}``,
``{name:contract}``, ``{rank:rank}``.  Other fields format as Python does.
"""

from __future__ import annotations

import string
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Callable, Iterator, NamedTuple, Sequence

SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
#: One card of a suit ("play a spade"): its own word, since not every language drops a letter.
SUIT_SINGULAR = ("spade", "heart", "diamond", "club")
RANKS = "23456789TJQKA"
RANK_NAMES = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")


def N_(text: str) -> str:
    """Marks a msgid for Babel's extraction; returns it unchanged."""
    return text


def NN_(singular: str, plural: str) -> tuple[str, str]:
    """Marks an ngettext pair (singular, plural) for Babel's extraction (keyword NN_:1,2)."""
    return singular, plural


class Message(NamedTuple):
    """A refusal's stable code and its English template(s); ``count`` names the parameter a plural turns on."""

    code: str
    text: str
    plural: str | None = None
    count: str = "n"  # type: ignore[assignment]  # shadows tuple.count: catalogs and front ends read this name


#: Every message the package defines, by code: a front end may list them, the tests check their translations.
MESSAGES: dict[str, Message] = {}


def message(code: str, text: "str | tuple[str, str]", count: str = "n") -> Message:
    """Define (once) the message ``code``: a template, or an NN_ pair for a count."""
    singular, plural = (text, None) if isinstance(text, str) else text
    m = Message(code, singular, plural, count)
    if MESSAGES.setdefault(code, m) != m:
        raise ValueError(f"message code {code!r} defined twice with different texts")
    return m


#: How each parameter kind is worded: kind -> (words, value) -> text.  Games add their own (Bésigue's cards).
Wording = Callable[["Words", Any], str]
KINDS: dict[str, Wording] = {}


def kind(name: str) -> Callable[[Wording], Wording]:
    """Register a parameter kind's wording, written in terms of a `Words` object's methods."""

    def register(f: Wording) -> Wording:
        KINDS[name] = f
        return f

    return register


class Words:
    """English.  A subclass for another language overrides the four lookups (gettext, ngettext, pgettext, number)."""

    lang = "en"

    def gettext(self, text: str) -> str:
        return text

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural

    def pgettext(self, context: str, text: str) -> str:
        return text

    def number(self, n: int | float) -> str:
        return str(n)

    # The vocabulary, each word looked up with a context so a translator sees what it is.
    def suit(self, s: int) -> str:
        return self.pgettext("suits", SUIT_NAMES[s])

    def suit1(self, s: int) -> str:
        return self.pgettext("suit", SUIT_SINGULAR[s])

    def named_suit(self, s: int) -> str:
        """A suit named on its own, as trumps or as the suit led: "trumps spades" ("atout pique", singular)."""
        return self.pgettext("named suit", SUIT_NAMES[s])

    def suit_letter(self, s: int) -> str:
        """A suit's letter as a player of this language types it: S H D C (P C K T in French)."""
        return self.pgettext("suit letter", SUITS[s])

    def rank_letter(self, letter: str) -> str:
        """A rank as printed on a card: 2-9, 10, J, Q, K, A (R, D, V in French)."""
        return self.pgettext("rank letter", letter)

    def face(self, letter: str, s: int) -> str:
        """A card's short display: ``Q♥`` (``D♥`` in French)."""
        return self.rank_letter(letter.replace("T", "10")) + SUIT_SYMBOLS[s]

    def card(self, c: int) -> str:
        """A card 0..51 as a player of this language writes it: ``Q♥``, ``D♥``."""
        return _card(self, c)

    def cards(self, cards: Any) -> str:
        """Cards 0..51, comma separated."""
        return _cards(self, cards)

    def contract(self, name: str) -> str:
        """A contract by the English name its ruleset gives it."""
        return self.pgettext("contract", name)

    def render(self, msg: Message, params: dict[str, Any]) -> str:
        """The message in this language, its parameters worded by kind."""
        if msg.plural is None:
            template = self.gettext(msg.text)
        else:
            template = self.ngettext(msg.text, msg.plural, params[msg.count])
        return _Formatter(self).format(template, **params)


class _Formatter(string.Formatter):
    def __init__(self, words: Words) -> None:
        self.words = words

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec in KINDS:
            return KINDS[format_spec](self.words, value)
        text: str = super().format_field(value, format_spec)  # typeshed says Any; format() gives a str
        return text


@kind("suit")
def _suit(w: Words, s: int) -> str:
    return w.suit(s)


@kind("suit1")
def _suit1(w: Words, s: int) -> str:
    return w.suit1(s)


@kind("rank")
def _rank(w: Words, r: int) -> str:
    return w.rank_letter(RANKS[r])


@kind("card")
def _card(w: Words, c: int) -> str:
    return w.face(RANKS[c % 13], c // 13)


@kind("cards")
def _cards(w: Words, cards: Any) -> str:
    return ", ".join(_card(w, c) for c in cards)


#: A seat in a refusal where nobody named the seats (an API's client): its number, "seat 2".
SEAT = N_("seat {n}")
#: The seats' names for the refusals worded inside `seats_named`: the places a person reads ("West", "you").
_SEAT_NAMES: ContextVar[tuple[str, ...]] = ContextVar("refusal_seat_names", default=())


@contextmanager
def seats_named(names: Sequence[str]) -> Iterator[None]:
    """Word ``{seat:seat}`` by these names inside (a front end's places from the person's chair), so that a
    refusal says "waiting for West" where a person reads it; numbers stay for the APIs."""
    token = _SEAT_NAMES.set(tuple(names))
    try:
        yield
    finally:
        _SEAT_NAMES.reset(token)


@kind("seat")
def _seat(w: Words, s: int) -> str:
    names = _SEAT_NAMES.get()
    if isinstance(s, int) and 0 <= s < len(names):
        return names[s]
    return w.gettext(SEAT).format(n=w.number(s))


@kind("count")
def _count(w: Words, n: int) -> str:
    return w.number(n)


@kind("contract")
def _contract(w: Words, name: str) -> str:
    return w.contract(name)


@kind("list")
def _list(w: Words, items: Any) -> str:
    """Names as typed (contract keys, combination names): not translated."""
    return ", ".join(str(i) for i in items)


ENGLISH = Words()
