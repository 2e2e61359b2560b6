"""Bésigue combinations: which cards make each kind, and which may serve again.

Readings (RULES.md §6): a card may serve again only in a combination of a
different kind.  Marriage and trump marriage are one kind for this purpose,
and the K and Q of a declared quint count as having served in a marriage (a
trump marriage may grow into the quint, not the other way).  The four cards of
a double bésigue count as having served in a bésigue too, so a double bésigue
may be built onto a declared bésigue, never the reverse.  Four of a kind is
any four cards of the rank.
"""

from __future__ import annotations

from itertools import product

from ..core.errors import IllegalAction
from . import refusals as R
from .actions import MELD_NAMES, Declare, Slot, canonical_cards
from .cards import ACE, DIAMONDS, JACK, KING, QUEEN, SPADES, TEN, make_type

FOUR_KINDS = {"four-jacks": JACK, "four-queens": QUEEN, "four-kings": KING, "four-aces": ACE}
BEZIQUE_TYPES = (make_type(SPADES, QUEEN), make_type(DIAMONDS, JACK))


def mark_class(kind: str) -> str:
    """The class a card is marked with when it serves in ``kind``; a card never serves twice in one class."""
    if kind in ("marriage", "trump-marriage"):
        return "marriage"
    if kind.startswith("four-"):
        return "four"
    return {"double-bezique": "double"}.get(kind, kind)


def marks_for(kind: str, card_type: int) -> set[str]:
    """Every class a card is marked with by serving in ``kind``."""
    marks = {mark_class(kind)}
    if kind == "quint" and card_type % 8 in (KING, QUEEN):
        marks.add("marriage")
    if kind == "double-bezique":
        marks.add("bezique")
    return marks


def required_types(kind: str, trump: int, suit: int | None = None) -> list[int] | None:
    """The card types a kind needs (None for four of a kind, where any suits do)."""
    if kind == "marriage":
        assert suit is not None
        return [make_type(suit, KING), make_type(suit, QUEEN)]
    if kind == "trump-marriage":
        return [make_type(trump, KING), make_type(trump, QUEEN)]
    if kind == "bezique":
        return list(BEZIQUE_TYPES)
    if kind == "double-bezique":
        return [BEZIQUE_TYPES[0]] * 2 + [BEZIQUE_TYPES[1]] * 2
    if kind == "quint":
        return [make_type(trump, r) for r in (ACE, TEN, KING, QUEEN, JACK)]
    return None


def shape_problem(kind: str, types: list[int], trump: int) -> IllegalAction | None:
    """Why these card types do not make ``kind``, as the refusal (None when they do)."""
    if kind in FOUR_KINDS:
        rank = FOUR_KINDS[kind]
        if len(types) != 4 or any(t % 8 != rank for t in types):
            return IllegalAction.of(R.FOUR_OF_A_RANK, meld=kind, name=MELD_NAMES[kind])
        return None
    if kind == "marriage":
        if len(types) != 2 or sorted(t % 8 for t in types) != [QUEEN, KING] or types[0] // 8 != types[1] // 8:
            return IllegalAction.of(R.MARRIAGE_SHAPE)
        if types[0] // 8 == trump:
            return IllegalAction.of(R.MARRIAGE_IN_TRUMPS)
        return None
    need = required_types(kind, trump)
    assert need is not None
    if sorted(types) != sorted(need):
        return IllegalAction.of(R.SHAPES[kind])
    return None


def legal_declarations(hand_counts: dict[int, int], table_counts: dict[int, int], trump: int) -> list[Declare]:
    """Every declaration a player can make, given how many copies of each type lie in hand and,
    per type, how many table copies may still serve in each class (``table_counts`` keyed
    ``(class, type)``)."""
    out: list[Declare] = []

    def choices(kind: str, t: int, k: int) -> list[list[Slot]]:
        h = hand_counts.get(t, 0)
        tb = table_counts.get((mark_class(kind), t), 0)  # type: ignore[call-overload]
        return [[(t, False)] * i + [(t, True)] * (k - i) for i in range(k + 1) if i <= h and k - i <= tb]

    def add(kind: str, groups: list[list[list[Slot]]]) -> None:
        for combo in product(*groups):
            slots = [s for g in combo for s in g]
            if any(not s[1] for s in slots):
                out.append(Declare(kind, canonical_cards(slots)))

    for kind in ("marriage", "trump-marriage", "bezique", "double-bezique", "quint"):
        suits = [s for s in range(4) if s != trump] if kind == "marriage" else [None]
        for suit in suits:
            need = required_types(kind, trump, suit)
            assert need is not None
            counts: dict[int, int] = {}
            for t in need:
                counts[t] = counts.get(t, 0) + 1
            add(kind, [choices(kind, t, k) for t, k in counts.items()])
    for kind, rank in FOUR_KINDS.items():
        per_suit = []
        for s in range(4):
            t = make_type(s, rank)
            per_suit.append(
                [(i, j) for i in range(hand_counts.get(t, 0) + 1) for j in range(table_counts.get(("four", t), 0) + 1)]  # type: ignore[call-overload]
            )
        for combo in product(*per_suit):
            if sum(i + j for i, j in combo) != 4 or not any(i for i, _ in combo):
                continue
            slots: list[Slot] = []
            for s, (i, j) in enumerate(combo):
                t = make_type(s, rank)
                slots += [(t, False)] * i + [(t, True)] * j
            out.append(Declare(kind, canonical_cards(slots)))
    return out
