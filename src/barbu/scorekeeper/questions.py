"""What a keeper asks about a finished deal, and how the answers become the cards each player took.

The questions are read off the contract's own scoring parts, so the keeper
asks only for what the rules need: tricks per player where tricks score,
hearts per player where several hearts score (plus who took each heart worth
more than the others, such as the A♥ of the classic No hearts), who took each
other penalty card, who took the last tricks, the finishing order, Ravage
City's longest suit, the Chinese poker rows.  `counted_outcome` checks the
answers against the deck and turns them into the bitmasks the engine scores.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Sequence

from ..classic.chinese import Arrange, fouled, parse_arrange
from ..classic.contracts import CHINESE, DOMINO, KING_OF_HEARTS, Contract
from ..core.cards import CARDS, EIGHT, HEARTS, SPADES, SUIT_MASK, cards_of
from ..core.errors import ParseError
from ..core.words import ENGLISH, N_, Words
from . import refusals as K
from .refusals import Note, OutcomeError, message

COUNTS, SEAT, SEATS, ORDER, ROWS, YESNO = "counts", "seat", "seats", "order", "rows", "yesno"


@dataclass(frozen=True)
class Question:
    """One thing the keeper needs to know about the deal.

    ``key`` is where the answer goes in an entry's ``outcome``: ``tricks``, ``hearts``, ``longest`` (a number
    per player), ``last`` (seats, the last trick last), ``order`` (seats in finishing order), ``rows``
    (one Chinese poker arrangement per player), ``piranha`` (yes or no), or a card code such as ``AH``
    (the seat that took that card).
    """

    key: str
    kind: str
    label: str
    total: int | None = None  # counts: what they must add up to (None: no fixed total)
    size: int | None = None  # seats and order: how many seats are asked for
    card: int | None = None  # seat: the card asked about
    maximum: int | None = None  # counts: the most one player can have
    minimum: int | None = None  # order: the fewest players out (a blocked Success ends early)
    choices: tuple | None = None  # melds (Bésigue): (kind, name, points) of each declaration

    def to_dict(self) -> dict[str, Any]:
        d = {k: v for k, v in self.__dict__.items() if v is not None}
        if self.choices is not None:
            d["choices"] = [list(c) for c in self.choices]
        return d


@dataclass
class Counted:
    """The deal as the engine scores it: cards and tricks taken, last winners, order, rows."""

    won: list[int]
    tricks_won: list[int]
    winners: list[int] = field(default_factory=list)
    finished: list[int] = field(default_factory=list)
    arranged: list[Arrange] = field(default_factory=list)
    trick_log: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


#: The questions' labels, marked for translation: a front end shows ``label(q, words)``.
ORDER_LABEL = N_("Finishing order: who went out first, second…")
ROWS_LABEL = N_("Each player's rows: back (5 cards), middle (5), front (3)")
TRICKS_LABEL = N_("Tricks each player took")
HEARTS_LABEL = N_("Hearts each player took")
LONGEST_LABEL = N_("The most cards each player took in any one suit")
PIRANHA_LABEL = N_("Was the King of hearts taken by an eight (a Piranha)?")
WHO_TOOK = message("keeper-who-took", N_("Who took the {card:card}?"))
LAST_TRICK_LABEL = N_("Who took the last trick?")
LAST_TRICKS = message("keeper-last-tricks", N_("Who took each of the last {n:count} tricks (the last one last)?"))


def label(q: "Question", words: Words) -> str:
    """The question in the language of ``words``."""
    if q.kind == SEAT and q.card is not None:
        return words.render(WHO_TOOK, {"card": q.card})
    if q.key == "last" and q.size and q.size > 1:
        return words.render(LAST_TRICKS, {"n": q.size})
    return words.gettext(q.label)


def card_code(card: int) -> str:
    """``AH`` for the ace of hearts: rank then suit, as records write cards."""
    c = CARDS[card]
    return str(c)


def _named_cards(contract: Contract, in_play: int) -> tuple[list[int], list[int]]:
    """(hearts counted by number, cards asked one by one)."""
    pointed = [c for c, v in contract.card_points if v and in_play >> c & 1]
    hearts = [c for c in pointed if c // 13 == HEARTS]
    others = [c for c in pointed if c // 13 != HEARTS]
    values = Counter(contract.card_value[h] for h in hearts)
    common = max(values, key=lambda v: (values[v], -abs(v))) if values else 0
    if values and values[common] >= 2:  # several hearts alike: count them, ask for the others one by one
        odd = [h for h in hearts if contract.card_value[h] != common]
        return hearts, sorted(odd + others, key=lambda c: (c // 13, -(c % 13)))
    return [], sorted(hearts + others, key=lambda c: (c // 13, -(c % 13)))


def questions(contract: Contract, n: int, in_play: int, tricks: int, scottish: bool = False) -> list[Question]:
    """What to ask about a deal of ``contract`` with ``n`` players, ``in_play`` cards dealt and ``tricks`` tricks."""
    if contract.kind == DOMINO:
        places = contract.ends_after or n - 1
        # With cards set aside a row can be blocked: the deal then ends with fewer players out.
        fewest = places if in_play == contract_deck(in_play, contract) else 0
        return [Question("order", ORDER, ORDER_LABEL, size=places, minimum=fewest)]
    if contract.kind == CHINESE:
        return [Question("rows", ROWS, ROWS_LABEL)]
    out: list[Question] = []
    if contract.per_trick:
        out.append(Question("tricks", COUNTS, TRICKS_LABEL, total=tricks, maximum=tricks))
    hearts, named = _named_cards(contract, in_play)
    if hearts:
        out.append(Question("hearts", COUNTS, HEARTS_LABEL, total=len(hearts), maximum=len(hearts)))
    for c in named:
        out.append(Question(card_code(c), SEAT, ENGLISH.render(WHO_TOOK, {"card": c}), card=c))
    if contract.last_tricks:
        k = len(contract.last_tricks)
        out.append(
            Question("last", SEATS, LAST_TRICK_LABEL if k == 1 else ENGLISH.render(LAST_TRICKS, {"n": k}), size=k)
        )
    if contract.ravage:
        out.append(Question("longest", COUNTS, LONGEST_LABEL, maximum=13))
    if scottish and "king" in contract.parts:
        out.append(Question("piranha", YESNO, PIRANHA_LABEL))
    return out


def contract_deck(in_play: int, contract: Contract) -> int:
    """The cards a Domino-like deal would use with nothing set aside: whole suits of the ranks in play."""
    ranks = {c % 13 for c in cards_of(in_play)}
    suits = {c // 13 for c in cards_of(in_play)}
    return sum(1 << (s * 13 + r) for s in suits for r in ranks)


# ---------------------------------------------------------------- answers to cards
def _seat(value: Any, n: int, what: "str | int", names: Sequence[str]) -> int:
    """A seat answered; ``what`` is the question (a msgid, or the card a question asks about)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        if isinstance(what, int):
            raise OutcomeError.of(K.CARD_NOT_ONE_OF, card=what, value=repr(value), names=list(names))
        raise OutcomeError.of(K.NOT_ONE_OF, what=what, value=repr(value), names=list(names))
    return value


def _counts(value: Any, n: int, q: Question, names: Sequence[str]) -> list[int]:
    if not isinstance(value, (list, tuple)) or len(value) != n:
        raise OutcomeError.of(K.ONE_EACH, label=q.label, n=n)
    for s, x in enumerate(value):
        if isinstance(x, bool) or not isinstance(x, int) or x < 0:
            raise OutcomeError.of(K.NOT_WHOLE, label=q.label, name=names[s], value=repr(x))
        if q.maximum is not None and x > q.maximum:
            raise OutcomeError.of(K.AT_MOST, label=q.label, name=names[s], value=x, most=q.maximum)
    if q.total is not None and sum(value) != q.total:
        raise OutcomeError.of(K.ADD_UP, label=q.label, sum=sum(value), total=q.total)
    return list(value)


def counted_outcome(
    contract: Contract, qs: Sequence[Question], answers: Any, n: int, in_play: int, tricks: int, names: Sequence[str]
) -> Counted:
    """Check the answers and turn them into what the engine scores.  Raises `OutcomeError`."""
    if not isinstance(answers, dict):
        raise OutcomeError.of(K.OUTCOME_MISSING)
    known = {q.key for q in qs}
    extra = [k for k in answers if k not in known]
    if extra:
        raise OutcomeError.of(
            K.NOT_NEEDED, contract=contract.name, extra=", ".join(map(repr, extra)), keys=", ".join(q.key for q in qs)
        )
    missing = [q for q in qs if q.key not in answers]
    if missing:
        q = missing[0]
        if q.kind == SEAT and q.card is not None:
            raise OutcomeError.of(K.MISSING_CARD, card=q.card)
        if q.key == "last" and q.size and q.size > 1:
            raise OutcomeError.of(K.MISSING_LAST, n=q.size)
        raise OutcomeError.of(K.MISSING, label=q.label)
    by_key = {q.key: q for q in qs}
    out = Counted(won=[0] * n, tricks_won=[0] * n)

    if "order" in by_key:
        q = by_key["order"]
        order = answers["order"]
        if not isinstance(order, (list, tuple)):
            raise OutcomeError.of(K.ORDER_LIST)
        order = [_seat(x, n, K.FINISHING_ORDER, names) for x in order]
        if len(set(order)) != len(order):
            raise OutcomeError.of(K.ORDER_TWICE)
        need = q.size or n - 1
        if len(order) == n and need == n - 1:
            order = order[:need]
        fewest = need if q.minimum is None else q.minimum
        if not fewest <= len(order) <= need:
            raise OutcomeError.of(K.ORDER_NEEDS, n=need)
        rest = [s for s in range(n) if s not in order]
        out.finished = order + (rest if not contract.ends_after and len(rest) == 1 and len(order) == need else [])
        return out

    if "rows" in by_key:
        rows = answers["rows"]
        if not isinstance(rows, (list, tuple)) or len(rows) != n:
            raise OutcomeError.of(K.ROWS_EACH, n=n)
        seen = 0
        for s, text in enumerate(rows):
            try:
                a = text if isinstance(text, Arrange) else parse_arrange(str(text))
            except ParseError as e:
                raise OutcomeError.wrap(e, (), K.ROWS_ERROR, name=names[s]) from None
            sizes = tuple(m.bit_count() for m in a.rows)
            if sizes != (5, 5, 3):
                raise OutcomeError.of(K.ROWS_SIZES, name=names[s], back=sizes[0], middle=sizes[1], front=sizes[2])
            mask = a.back | a.middle | a.front
            if mask.bit_count() != 13:
                raise OutcomeError.of(K.ROWS_TWICE, name=names[s])
            both = mask & seen
            if both:
                raise OutcomeError.of(K.ROWS_SHARED, card=cards_of(both)[0])
            seen |= mask
            if fouled(a):
                out.notes.append(Note.of(K.FOULED, name=names[s]))
            out.arranged.append(a)
        return out

    tricks_won = _counts(answers["tricks"], n, by_key["tricks"], names) if "tricks" in by_key else None
    hearts = _counts(answers["hearts"], n, by_key["hearts"], names) if "hearts" in by_key else None
    if tricks_won is not None:
        out.tricks_won = tricks_won
    named: dict[int, int] = {}
    for q in qs:
        if q.kind == SEAT:
            card = q.card
            assert card is not None  # a seat question asks who took its card
            named[card] = _seat(answers[q.key], n, card, names)
            out.won[named[card]] |= 1 << card
    if hearts is not None:
        pool = [
            c
            for c in cards_of(in_play & SUIT_MASK[HEARTS])
            if c not in named and any(c == x for x, v in contract.card_points if v)
        ]
        for s in range(n):
            mine = sum(1 for c, who in named.items() if who == s and c // 13 == HEARTS)
            more = hearts[s] - mine
            if more < 0:
                cards = [c for c, who in named.items() if who == s and c // 13 == HEARTS]
                raise OutcomeError.of(K.HEARTS_SHORT, name=names[s], cards=cards, n=hearts[s])
            for c in pool[:more]:
                out.won[s] |= 1 << c
            pool = pool[more:]
        if pool:
            raise OutcomeError.of(K.HEARTS_MISMATCH)
    if "last" in by_key:
        q = by_key["last"]
        last = answers["last"]
        if not isinstance(last, (list, tuple)) or len(last) != q.size:
            raise OutcomeError.of(K.NAME_LAST_PLAYERS, n=q.size)
        out.winners = [_seat(x, n, K.LAST_TRICKS, names) for x in last]
    if "longest" in by_key:
        longest = _counts(answers["longest"], n, by_key["longest"], names)
        count = in_play.bit_count()
        if sum(longest) < -(-count // 4):
            raise OutcomeError.of(K.LONGEST, sum=sum(longest), cards=count, least=-(-count // 4))
        for s in range(n):
            suit = cards_of(SUIT_MASK[s % 4])
            for c in suit[: longest[s]]:
                out.won[s] |= 1 << c
    if answers.get("piranha") and "piranha" in by_key:
        taker = next((s for s in range(n) if out.won[s] >> KING_OF_HEARTS & 1), None)
        if taker is None:
            raise OutcomeError.of(K.PIRANHA)
        out.trick_log.append((taker, (SPADES * 13 + EIGHT, KING_OF_HEARTS)))
    if tricks_won is not None:
        _check_tricks(out, tricks_won, n, names)
    return out


def _check_tricks(out: Counted, tricks_won: list[int], n: int, names: Sequence[str]) -> None:
    """Cards and last tricks must fit in the tricks each player took."""
    for s in range(n):
        taken = out.won[s].bit_count()
        if taken and not tricks_won[s]:
            raise OutcomeError.of(K.NO_TRICK, name=names[s])
        if taken > n * tricks_won[s]:
            raise OutcomeError.of(K.TRICKS_HOLD, name=names[s], n=tricks_won[s], cards=n * tricks_won[s], taken=taken)
        lasts = out.winners.count(s)
        if lasts > tricks_won[s]:
            raise OutcomeError.of(K.TRICKS_LAST, name=names[s], n=tricks_won[s], lasts=lasts)
