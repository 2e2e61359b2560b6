"""Fixed discrete action spaces: every decision of a game as a short sequence of small choices (tokens).

A learning agent picks one token per step from a fixed vocabulary, with a mask
of the tokens that can still lead to a legal action.  Most decisions are one
token (a card, a contract, a trump suit, a starting rank, a pass); the large
ones are spelled out so that no space holds millions of entries:

* a doubling turn: the target seats (relative: 1 = the seat on my left)
  in increasing order, then DONE (DONE alone is "no double");
* a Scottish call: its negative calls in the booklet's order, then DONE
  (``king+queens`` is KING QUEENS DONE); PATIENCE and DOUBLE_PATIENCE alone;
* a Patience lay: LAY, its cards in increasing order, then DONE (a single card is just the card);
* a pass-on: its three cards in increasing order;
* a Chinese poker arrangement: the five back cards in increasing order, then
  the five middle cards in increasing order; the front row is what is left.

A `Decision` holds one seat's legal actions and the tokens chosen so far;
``mask()`` is the set of tokens allowed next, ``choose(token)`` returns the
engine action once the sequence names exactly one.  Sequences never extend one
another, so every legal action has exactly one spelling and every masked
sequence ends on a legal action.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from ..besigue.actions import MELD_VALUES, Exchange, NoDeclaration, Play, Show
from ..besigue.actions import Declare as BesigueDeclare
from ..classic.chinese import Arrange, Arrangements
from ..core.actions import Declare, Double, Lay, NameRank, NameTrump, Pass, PassOn
from ..core.cards import cards_of
from ..core.errors import IllegalAction

# -- the Barbu family (every preset, the Scottish game included) -------------------------------
MAX_SEATS = 6
CONTRACTS = (
    "no-tricks",
    "no-hearts",
    "no-queens",
    "no-king",
    "no-last-two",
    "no-last-trick",
    "trumps",
    "domino",
    "salad",
    "success",
    "ravage-city",
    "chinese-poker",
)
CALLS = ("aces", "king", "queens", "hearts", "tricks")  # the Scottish negative calls, booklet order
CARD0 = 0  # 52 cards: suit * 13 + rank
TRUMP0 = 52  # S H D C
NO_TRUMP = 56
RANK0 = 57  # 2 .. A
TARGET0 = 70  # 6 relative seats (0 = me, never legal)
DONE = 76
PASS = 77
LAY = 78
CONTRACT0 = 79
CALL0 = CONTRACT0 + len(CONTRACTS)  # 91
PATIENCE = CALL0 + len(CALLS)  # 96
DOUBLE_PATIENCE = PATIENCE + 1  # 97
BARBU_ACTIONS = DOUBLE_PATIENCE + 1  # 98

# -- Bésigue ------------------------------------------------------------------------------------
MELDS = tuple(MELD_VALUES)  # marriage, trump-marriage, bezique, four-jacks … double-bezique
SLOT0 = 0  # 64 slots: card type (0..31), +32 when the card lies on the table
MELD0 = 64
NO_DECLARATION = MELD0 + len(MELDS)  # 73
EXCHANGE = NO_DECLARATION + 1  # 74
SHOW = EXCHANGE + 1  # 75
BESIGUE_ACTIONS = SHOW + 1  # 76


def barbu_token_names() -> list[str]:
    """A readable name for each token of the Barbu family's space (for docs, logs and debugging)."""
    from ..core.cards import CARDS

    names = [str(CARDS[c]) for c in range(52)]
    names += [f"trump {s}" for s in "SHDC"] + ["no-trump"]
    names += [f"rank {r}" for r in "23456789TJQKA"]
    names += [f"target +{k}" for k in range(MAX_SEATS)]
    names += ["done", "pass", "lay"] + [f"contract {c}" for c in CONTRACTS] + [f"call {c}" for c in CALLS]
    names += ["patience", "double-patience"]
    assert len(names) == BARBU_ACTIONS
    return names


def besigue_token_names() -> list[str]:
    from ..besigue.cards import type_text

    names = [type_text(t) + ("*" if on else "") for on in (False, True) for t in range(32)]
    names += [f"declare {k}" for k in MELDS] + ["no-declaration", "exchange", "show"]
    assert len(names) == BESIGUE_ACTIONS
    return names


def encode_barbu(action: Any, seat: int, n: int) -> tuple[int, ...]:
    """The token sequence of one Barbu-family action, as ``seat`` at an ``n``-seat table chooses it."""
    if isinstance(action, int) and not isinstance(action, bool):
        return (CARD0 + int(action),)
    if isinstance(action, Declare):
        key = action.contract
        if key in CONTRACTS:
            return (CONTRACT0 + CONTRACTS.index(key),)
        if key == "patience":
            return (PATIENCE,)
        if key == "double-patience":
            return (DOUBLE_PATIENCE,)
        parts = key.split("+")
        if all(p in CALLS for p in parts):
            return tuple(CALL0 + CALLS.index(p) for p in parts) + (DONE,)
        raise ValueError(f"contract {key!r} has no token")
    if isinstance(action, NameTrump):
        return (NO_TRUMP if action.suit is None else TRUMP0 + action.suit,)
    if isinstance(action, NameRank):
        return (RANK0 + action.rank,)
    if isinstance(action, Double):
        return tuple(sorted(TARGET0 + (t - seat) % n for t in action.targets)) + (DONE,)
    if isinstance(action, Pass):
        return (PASS,)
    if isinstance(action, Lay):
        return (LAY,) + tuple(CARD0 + c for c in cards_of(action.cards)) + (DONE,)
    if isinstance(action, PassOn):
        return tuple(CARD0 + c for c in cards_of(action.cards))
    if isinstance(action, Arrange):
        return tuple(CARD0 + c for c in cards_of(action.back)) + tuple(CARD0 + c for c in cards_of(action.middle))
    raise ValueError(f"{action!r} is not an action of the Barbu family")


def encode_besigue(action: Any, seat: int = 0, n: int = 2) -> tuple[int, ...]:
    """The token sequence of one Bésigue action."""
    if isinstance(action, Play):
        return (SLOT0 + action.card + 32 * action.from_table,)
    if isinstance(action, BesigueDeclare):
        return (MELD0 + MELDS.index(action.kind),) + tuple(SLOT0 + t + 32 * on for t, on in action.cards)
    if isinstance(action, NoDeclaration):
        return (NO_DECLARATION,)
    if isinstance(action, Exchange):
        return (EXCHANGE, SLOT0 + action.card)
    if isinstance(action, Show):
        return (SHOW, SLOT0 + action.card)
    raise ValueError(f"{action!r} is not a Bésigue action")


class Decision:
    """One seat's decision being spelled out token by token.

    ``legal`` is the engine's legal actions; a Chinese poker hand's 72,072
    arrangements are never listed: their mask is worked out from the hand.
    """

    __slots__ = ("prefix", "_cands", "_hand", "_single")

    def __init__(self, legal: Iterable[Any], encode: Callable[[Any], tuple[int, ...]]) -> None:
        self.prefix: list[int] = []
        self._hand = 0
        self._cands: list[tuple[tuple[int, ...], Any]] = []
        self._single: dict[int, Any] | None = None
        if isinstance(legal, Arrangements):
            self._hand = legal.hand
            return
        seqs = [(encode(a), a) for a in legal]
        if not seqs:
            raise IllegalAction("there is nothing to decide: no legal action")
        if all(len(s) == 1 for s, _ in seqs):  # the common case: one token names the action
            self._single = {s[0]: a for s, a in seqs}
        self._cands = seqs

    def mask(self) -> set[int]:
        """The tokens that may come next."""
        if self._single is not None:
            return set(self._single)
        if self._hand:
            return set(self._arrange_next())
        k = len(self.prefix)
        return {s[k] for s, _ in self._cands}

    def choose(self, token: int) -> Any:
        """Take one more token: the engine action when the sequence is complete, else None.

        A token outside the mask raises IllegalAction and changes nothing.
        """
        token = int(token)
        if self._single is not None:
            if token not in self._single:
                raise IllegalAction(f"action {token} is not legal now")
            return self._single[token]
        if self._hand:
            if token not in self._arrange_next():
                raise IllegalAction(f"card token {token} cannot come next in this arrangement")
            self.prefix.append(token)
            if len(self.prefix) < 10:
                return None
            back = sum(1 << c for c in self.prefix[:5])
            middle = sum(1 << c for c in self.prefix[5:])
            return Arrange(back, middle, self._hand & ~back & ~middle)
        k = len(self.prefix)
        cands = [(s, a) for s, a in self._cands if s[k] == token]
        if not cands:
            raise IllegalAction(f"action {token} is not legal now")
        self.prefix.append(token)
        self._cands = cands
        for s, a in cands:
            if len(s) == k + 1:
                return a
        return None

    def _arrange_next(self) -> list[int]:
        """Chinese poker: cards that may come next (increasing within a row, enough cards left to fill it)."""
        k = len(self.prefix)
        pool = self._hand if k < 5 else self._hand & ~sum(1 << c for c in self.prefix[:5])
        row_end = 5 if k < 5 else 10
        last = self.prefix[-1] if k not in (0, 5) else -1
        cards = [int(c) for c in cards_of(pool) if c > last]
        need = row_end - k  # cards still to pick in this row, this one included
        return cards[: len(cards) - need + 1] if len(cards) >= need else []


__all__ = [
    "Decision",
    "encode_barbu",
    "encode_besigue",
    "barbu_token_names",
    "besigue_token_names",
    "BARBU_ACTIONS",
    "BESIGUE_ACTIONS",
    "MAX_SEATS",
    "CONTRACTS",
    "CALLS",
    "DONE",
    "PASS",
    "LAY",
]
