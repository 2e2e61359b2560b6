"""Cards, hands, seats and scores as the command line shows them, in the language of the moment.

The engine's own text forms (``CardSet.display``, ``str(action)``) are English notation;
what a player reads goes through these, which use the catalog's rank letters
(R D V in French, R D F in Italian), seat words and number formats.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from rich.text import Text

from ..classic.state import Points
from ..core.actions import Declare, Double, NameRank, NameTrump, Pass
from ..core.cards import RANKS, SUIT_SYMBOLS, SUITS, CardSet
from ..core.errors import BarbuError
from ..core.words import SUIT_SINGULAR, seats_named
from ..guide import option_label
from ..i18n import _, current, ngettext, number, pgettext, word_error, words
from ..records.refusals import AT_LINE


def card(c: int) -> str:
    """One card: ``Q♥`` in English, ``D♥`` in French."""
    return words().card(c)


def cards(cs: Iterable[int]) -> str:
    """Cards in the order given, space separated."""
    return " ".join(card(c) for c in cs)


def hand(cs: Iterable[int] | CardSet | int) -> str:
    """A hand by suit, high to low: ``♠ A K Q  ♥ J 10 9  ♦ —  ♣ 5 4 3 2`` (rank letters translated)."""
    mask = cs if isinstance(cs, int) else CardSet(cs).mask
    w = words()
    parts = []
    for s in range(4):
        bits = (mask >> (13 * s)) & 0x1FFF
        ranks = " ".join(w.rank_letter(RANKS[r].replace("T", "10")) for r in range(12, -1, -1) if bits >> r & 1)
        parts.append(f"{SUIT_SYMBOLS[s]} {ranks or '—'}")
    return "  ".join(parts)


#: Who sits at each seat for the command being run, as people read them (`seat_names`).
_NAMES: ContextVar[tuple[str, ...]] = ContextVar("seat_names", default=())


@contextmanager
def seat_names(names: Sequence[str]) -> Iterator[None]:
    """Name the seats for what is printed inside: a record's players (`barbu.play.names.record_names`)
    or the places seen from the person's chair; numbers stay in the record format only."""
    token = _NAMES.set(tuple(names))
    try:
        with seats_named(names):  # the engine's refusals too: "you already have business with West"
            yield
    finally:
        _NAMES.reset(token)


def seat(s: int) -> str:
    """A seat as the reader knows it: "Alice", "West, good player", "you", "North" (`seat_names`);
    outside of them, the player's rank in the record's order ("player 3")."""
    names = _NAMES.get()
    return names[s] if 0 <= s < len(names) else _("player {n}").format(n=number(s + 1))


def seat_short(s: int) -> str:
    """A seat in a narrow cell: a computer player by its place alone ("West" of "West, good player")."""
    return seat(s).split(", ")[0]


def seat_head(s: int) -> str:
    """A seat as a column's head, a word a line so that the numbers keep the room: a computer player's
    place over its strength ("West" / "good" / "player")."""
    return "\n".join(seat(s).replace(",", "").split())


def seat_value(s: int, value: str) -> str:
    """A seat and what it has: ``West: 14`` (``Ouest : 14``, French spacing)."""
    return _("{seat}: {value}").format(seat=seat(s), value=value)


def signed(x: Points) -> str:
    """A score change with its sign: ``+12``, ``-1 250``, ``0``."""
    return ("+" if x > 0 else "") + number(x)


def contract(name: str) -> str:
    """A contract or call named by its ruleset (English) in the player's words."""
    return words().contract(name)


def keyword(word: str) -> str:
    """The word a player of the current language types for an engine keyword ("pass" -> "passe"): the first
    of the catalog's alternatives (context "typed", read by barbu.i18n.typed)."""
    return pgettext("typed", word).split("|")[0].strip()


def action(a: object, names: Callable[[str], str] | None = None) -> str:
    """An action as the player would type it: cards in their letters, the keywords in their words.

    English shows the notation itself (``contract no-queens``); another language names a contract by
    ``names(key)``, its name at this table, which is what a player of that language types."""
    if isinstance(a, int) and not isinstance(a, bool):
        return card(a)
    if isinstance(a, Pass) or (isinstance(a, Double) and not a.targets):
        return keyword("pass")
    if isinstance(a, Double):
        return " ".join([keyword("double"), *(seat_short(s) for s in sorted(a.targets))])  # "double West North"
    if isinstance(a, NameTrump):
        if a.suit is None:
            return keyword("trump") + " " + keyword("none")
        # English keeps the notation's letter (trump H); other languages name the suit (atout cœur)
        suit = SUITS[a.suit] if current() == "en" else pgettext("suit", SUIT_SINGULAR[a.suit])
        return keyword("trump") + " " + suit
    if isinstance(a, NameRank):
        return keyword("rank") + " " + pgettext("rank letter", RANKS[a.rank])
    if isinstance(a, Declare):
        if names is not None and current() != "en":
            return names(a.contract)
        return keyword("contract") + " " + a.contract
    return str(a)


def data(text: str) -> str:
    """A text the rules keep as data (a preset's description, an option's help), translated where a
    catalog has it; English otherwise.  An empty text stays empty (gettext's "" is the catalog header)."""
    return _(text) if text else text


def option_cell(name: str) -> Text:
    """An option of ``barbu rules``: its label in words, then the identifier typed in a ruleset text, in
    the code style (``leading hearts`` over ``heart_lead``)."""
    label = option_label(name, words())
    return Text(name, "cyan") if label == name else Text.assemble(label, "\n", (name, "cyan"))


def no_such_deal(finished: int, asked: int) -> str:
    """Why ``--deal N`` names no deal of the record."""
    return ngettext(
        "the record has {n} finished deal; there is no deal {deal}",
        "the record has {n} finished deals; there is no deal {deal}",
        finished,
    ).format(n=number(finished), deal=asked)


def error_text(e: BaseException) -> str:
    """An error in the player's language: a coded one worded anew (with the record line it names), any
    other its own text."""
    text = word_error(e, current())
    line = getattr(e, "line", None)
    if isinstance(e, BarbuError) and e.message is not None and line is not None:
        return _(AT_LINE).format(line=line, reason=text)
    return text


def cut_reason(why: str) -> str:
    """What a Scottish cut of the Unused Pack was for ("calls" or "passes"), in the player's words."""
    # TRANSLATORS: what a cut of the Scottish game's Unused Pack decides: the calls, or the pass-ons.
    return {"calls": pgettext("cut", "calls"), "passes": pgettext("cut", "passes")}.get(why, why)


def deals_count(n: int) -> str:
    """``12 deals``, in the player's language."""
    return ngettext("{n} deal", "{n} deals", n).format(n=number(n))
