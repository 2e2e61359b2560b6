"""Chinese poker, the ninth contract of seed 001.

Each player arranges his 13 cards into a back hand of 5, a middle hand of 5
and a front hand of 3, back ≥ middle ≥ front by poker rank; all reveal at
once.  For each pair of players and each row, the stronger row earns its
owner +4; an arrangement that breaks the order is fouled and loses all its
rows.  The 72,072 ways to arrange a hand are offered as a lazy sequence, so
``legal_actions()`` stays cheap and ``random.choice`` still works on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Iterator, Sequence, overload

from ..core.cards import CardSet, cards_of
from ..core.errors import ParseError
from .refusals import ARRANGE_TEXT

ROW_POINTS = 4
ROW_NAMES = ("back", "middle", "front")
CATEGORY_NAMES = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)


@dataclass(frozen=True)
class Arrange:
    """A Chinese poker arrangement: three card masks, back (5), middle (5), front (3)."""

    back: int
    middle: int
    front: int

    def __str__(self) -> str:
        return f"arrange {CardSet(self.back)} {CardSet(self.middle)} {CardSet(self.front)}"

    @property
    def rows(self) -> tuple[int, int, int]:
        return (self.back, self.middle, self.front)


def parse_arrange(text: str) -> Arrange:
    """``arrange <back> <middle> <front>``, each row in suit form (``AKQ.-.JT.-``) or as cards joined by commas."""
    words = text.split()
    if words and words[0].lower() == "arrange":
        words = words[1:]
    if "/" in words:
        rows = " ".join(words).split("/")
        masks = [CardSet.parse(r.replace(" ", ",")).mask for r in rows]
    else:
        masks = [CardSet.parse(w).mask for w in words]
    if len(masks) != 3:
        raise ParseError.of(ARRANGE_TEXT)
    return Arrange(*masks)


def rank_of(mask: int) -> tuple[int, ...]:
    """Poker rank of a 5- or 3-card row, as a tuple that compares the way hands do."""
    cards = cards_of(mask)
    ranks = sorted((c % 13 for c in cards), reverse=True)
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda kv: (-kv[1], -kv[0]))
    pattern = [k for _, k in groups]
    ordered = [r for r, _ in groups]
    if len(cards) == 3:
        if pattern == [3]:
            return (3, ordered[0])
        if pattern == [2, 1]:
            return (1, *ordered)
        return (0, *ranks)
    flush = len({c // 13 for c in cards}) == 1
    high = None
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            high = ranks[0]
        elif ranks == [12, 3, 2, 1, 0]:  # the wheel, A-2-3-4-5
            high = 3
    if high is not None and flush:
        return (8, high)
    if pattern == [4, 1]:
        return (7, *ordered)
    if pattern == [3, 2]:
        return (6, *ordered)
    if flush:
        return (5, *ranks)
    if high is not None:
        return (4, high)
    if pattern == [3, 1, 1]:
        return (3, *ordered)
    if pattern == [2, 2, 1]:
        return (2, *ordered)
    if pattern == [2, 1, 1, 1]:
        return (1, *ordered)
    return (0, *ranks)


def fouled(a: Arrange) -> bool:
    """True when the rows break back ≥ middle ≥ front."""
    back, middle, front = rank_of(a.back), rank_of(a.middle), rank_of(a.front)
    return not (back >= middle >= front)


def describe(a: Arrange) -> str:
    parts = [f"{name}: {CardSet(m).display()} ({CATEGORY_NAMES[rank_of(m)[0]]})" for name, m in zip(ROW_NAMES, a.rows)]
    return "; ".join(parts) + (" — fouled" if fouled(a) else "")


def score_arrangements(arrangements: Sequence[Arrange]) -> list[int]:
    """+4 per row won against each other player; a fouled hand loses all its rows, two fouled hands tie."""
    n = len(arrangements)
    bad = [fouled(a) for a in arrangements]
    ranks = [[rank_of(m) for m in a.rows] for a in arrangements]
    scores = [0] * n
    for i in range(n):
        for j in range(i + 1, n):
            for row in range(3):
                if bad[i] and bad[j]:
                    continue
                if bad[i] or (not bad[j] and ranks[j][row] > ranks[i][row]):
                    scores[j] += ROW_POINTS
                elif bad[j] or ranks[i][row] > ranks[j][row]:
                    scores[i] += ROW_POINTS
    return scores


class Arrangements(Sequence[Arrange]):
    """Every arrangement of a 13-card hand, computed on demand (72,072 of them)."""

    def __init__(self, hand: int) -> None:
        self.hand = hand
        self.cards = tuple(cards_of(hand))
        if len(self.cards) != 13:
            raise ValueError("a Chinese poker hand has 13 cards")
        self._middles = comb(8, 5)

    def __len__(self) -> int:
        return comb(13, 5) * self._middles

    @overload
    def __getitem__(self, index: int) -> Arrange: ...

    @overload
    def __getitem__(self, index: slice) -> list[Arrange]: ...

    def __getitem__(self, index: int | slice) -> Arrange | list[Arrange]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("arrangement index out of range")
        b, mid = divmod(index, self._middles)
        back = _unrank(self.cards, 5, b)
        rest = tuple(c for c in self.cards if not back >> c & 1)
        middle = _unrank(rest, 5, mid)
        return Arrange(back, middle, self.hand & ~back & ~middle)

    def __contains__(self, a: object) -> bool:
        return (
            isinstance(a, Arrange)
            and a.back.bit_count() == 5
            and a.middle.bit_count() == 5
            and a.front.bit_count() == 3
            and a.back | a.middle | a.front == self.hand
            and not (a.back & a.middle or a.back & a.front or a.middle & a.front)
        )

    def __iter__(self) -> Iterator[Arrange]:
        for back in combinations(self.cards, 5):
            bm = sum(1 << c for c in back)
            rest = [c for c in self.cards if not bm >> c & 1]
            for middle in combinations(rest, 5):
                mm = sum(1 << c for c in middle)
                yield Arrange(bm, mm, self.hand & ~bm & ~mm)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Arrangements) and other.hand == self.hand

    def __hash__(self) -> int:
        return hash(("Arrangements", self.hand))

    def __repr__(self) -> str:
        return f"<{len(self)} arrangements of {CardSet(self.hand)}>"

    def sensible(self) -> Arrange:
        """A quick arrangement that is never fouled: best 5 back, best 5 of the rest middle."""
        best_back = max(combinations(self.cards, 5), key=lambda cs: rank_of(sum(1 << c for c in cs)))
        bm = sum(1 << c for c in best_back)
        rest = [c for c in self.cards if not bm >> c & 1]
        best_mid = max(combinations(rest, 5), key=lambda cs: rank_of(sum(1 << c for c in cs)))
        mm = sum(1 << c for c in best_mid)
        a = Arrange(bm, mm, self.hand & ~bm & ~mm)
        return a


def _unrank(cards: tuple[int, ...], k: int, index: int) -> int:
    """The ``index``-th k-combination of ``cards`` in lexicographic order, as a mask."""
    mask = 0
    n = len(cards)
    start = 0
    for remaining in range(k, 0, -1):
        for i in range(start, n):
            count = comb(n - i - 1, remaining - 1)
            if index < count:
                mask |= 1 << cards[i]
                start = i + 1
                break
            index -= count
    return mask
