"""The exact solver of the layout games: Domino (and its ace-high/low variants), Success and Patience.

In these games the cards go out one at a time (or in runs and sets at
Patience) onto rows built in suit, and only the finishing order scores.  The
game tree is narrow (a hand can play at most two cards a row), so endings of
many cards are solved exactly by max^n: each seat plays for its own points.

Positions are plain data (`LayoutSpec`, `LayoutState`), taken from the engine
by `layout_spec_of` and `layout_state_of`; the engine stays the authority (the
tests replay the solver's lines through it and compare the scores).

The search keeps a transposition table keyed on a canonical form of the
position: the rows follow from the cards still held, and suits that differ only
by their name are one (the four suits sorted by who holds what in each).  Two
moves leading to one canonical position are one move (equivalent cards).  A
seat's future points do not depend on how the position was reached, so a
value stored for one position holds wherever it transposes.

Ties are broken the same everywhere, so that a value is a function of the
position alone: a seat picks its best points, then the least for the others
together, then the smallest vector.  The brute force in the tests breaks them
the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..classic.contracts import DOMINO, PATIENCE_PLACES
from ..classic.state import DOMINO_PLAY
from ..core.actions import PASS, Lay, Pass
from ..core.cards import ACE, CARDS, Card
from ..scottish.match import ScottishMatch
from ..scottish.patience import lay_options, laying_order

if TYPE_CHECKING:
    from ..classic.match import Match

SUIT_BITS = 0x1FFF
PASS_MOVE = 0  # a move is a card mask: one bit a card, several a run or set, none a pass


class LayoutSpec(NamedTuple):
    """The rules of one layout deal, as the engine applies them."""

    n: int  # players
    deck: int  # the cards of the pack (set-aside cards included: they block rows)
    high_ace: bool  # the ace is above the king (else below the two)
    finishing: tuple[int, ...]  # base points by place, first out first
    ends_after: int  # the deal ends when this many seats are out (0: when at most one is left)
    stop_when_decided: bool  # with one seat left its place is given at once
    ace_again: bool  # Success: whoever lays an ace may lay one more card
    groups: int  # Patience: 0 no runs or sets, 1 only to go out, 2 at any time (the Silly Round)
    passes_end: bool  # Domino and Success: a full round of passes ends the deal (rows blocked)
    doubles: tuple[tuple[int, int, int], ...]  # (doubler, doubled, factor) of each double
    sign: int  # +1 when the highest total wins, -1 when the lowest does (the French rules)


class LayoutState(NamedTuple):
    """A position of a layout deal: everything the rules and the score depend on from here."""

    hands: tuple[int, ...]  # card bitmask of each seat
    rows: tuple[tuple[int, int] | None, ...]  # each suit's (low, high) position on the table, or None
    playable: int  # the cards that may be laid now (the engine's `playable`)
    rank: int  # the rank rows open with; -1 while Success's first card is still free
    turn: int
    bonus: bool  # Success: the seat to play laid an ace and may lay one more card or pass
    passes: int  # passes in a row (Domino, Success)
    finished: tuple[int, ...]  # the seats out, in order


def layout_spec_of(match: Match) -> LayoutSpec:
    """The `LayoutSpec` of the deal a match is playing (Domino, Success or Patience phase only)."""
    c = match.contract
    if match.phase != DOMINO_PLAY or c is None or c.kind != DOMINO:
        raise ValueError("the layout solver works on the play of a Domino, Success or Patience deal")
    if isinstance(match, ScottishMatch):  # Patience: each call the deal plays scores the places once
        calls = max(1, len(match.calls))
        return LayoutSpec(
            match.n,
            match.deck,
            True,
            tuple(p * calls for p in PATIENCE_PLACES),
            0,
            True,
            False,
            2 if match.state.silly else 1,
            False,
            (),
            _sign(match),
        )
    doubles = tuple((b.doubler, b.doubled, 2 if b.redoubled else 1) for b in match.business.values())
    return LayoutSpec(
        match.n,
        match.deck,
        match.rules.domino_ace == "high",
        tuple(c.finishing),
        c.ends_after,
        bool(match.rules.stop_when_decided),
        c.ace_again,
        0,
        True,
        doubles,
        _sign(match),
    )


def _sign(match: Match) -> int:
    return 1 if match.rules.family_spec.highest_wins else -1


def layout_state_of(match: Match) -> LayoutState:
    """The `LayoutState` of a match in a layout deal's play."""
    if match.phase != DOMINO_PLAY:
        raise ValueError("the layout solver works on the play of a Domino, Success or Patience deal")
    rank = match.rank if match.rank is not None else -1
    return LayoutState(
        tuple(match.hands),
        tuple(match.layout),
        match.playable,
        rank,
        match.turn,
        bool(match.bonus_turn),
        match.passes_in_row,
        tuple(match.finished),
    )


# ---------------------------------------------------------------------------- the rules


def _pos(rank: int, high_ace: bool) -> int:
    if high_ace:
        return rank
    return 0 if rank == ACE else rank + 1


def _card_at(suit: int, pos: int, high_ace: bool, deck: int) -> int:
    """The card mask at a row position (0 off the pack)."""
    if not 0 <= pos <= 12:
        return 0
    rank = pos if high_ace else (ACE if pos == 0 else pos - 1)
    bit = 1 << (suit * 13 + rank)
    return bit if deck & bit else 0


def legal_moves(spec: LayoutSpec, st: LayoutState) -> list[int]:
    """The moves of the seat to play, in the engine's order: single cards low to high, the pass (alone, or
    after the cards on a Success bonus turn), then runs and sets (Patience)."""
    hand = st.hands[st.turn]
    fit = hand & st.playable
    out = []
    m = fit
    while m:
        low = m & -m
        out.append(low)
        m ^= low
    if spec.groups:
        if not fit:
            return [PASS_MOVE]
        if spec.groups == 2 or _one_suit_or_rank(hand):  # else the whole hand is no run or set
            out.extend(lay_options(hand, st.rows, spec.groups == 2, st.playable))
        return out
    if st.bonus or not fit:
        out.append(PASS_MOVE)
    return out


def _one_suit_or_rank(hand: int) -> bool:
    """Whether a hand of 2+ cards lies in one suit or one rank (a run or set may then be the whole of it)."""
    if hand & (hand - 1) == 0:
        return False
    for sh in (0, 13, 26, 39):
        if hand == hand & (SUIT_BITS << sh):
            return True
    ranks = (hand | hand >> 13 | hand >> 26 | hand >> 39) & SUIT_BITS
    return ranks & (ranks - 1) == 0


def _place(spec: LayoutSpec, rows: list[tuple[int, int] | None], playable: int, card: int) -> int:
    """Lay one card on the rows (in place); the new playable mask."""
    playable &= ~(1 << card)
    s, r = divmod(card, 13)
    high = spec.high_ace
    pos = _pos(r, high)
    span = rows[s]
    if span is None:
        rows[s] = (pos, pos)
        playable |= _card_at(s, pos - 1, high, spec.deck) | _card_at(s, pos + 1, high, spec.deck)
    elif pos < span[0]:
        rows[s] = (pos, span[1])
        playable |= _card_at(s, pos - 1, high, spec.deck)
    else:
        rows[s] = (span[0], pos)
        playable |= _card_at(s, pos + 1, high, spec.deck)
    return playable


def play(spec: LayoutSpec, st: LayoutState, move: int) -> LayoutState | None:
    """The position after ``move``, or None when the move ends the deal."""
    nxt, _ = _step(spec, st, move)
    return nxt


def _step(spec: LayoutSpec, st: LayoutState, move: int) -> tuple[LayoutState | None, tuple[int, ...]]:
    """The next position (None at the end of the deal) and the finishing order so far."""
    n = spec.n
    turn = st.turn
    hands = list(st.hands)
    finished = st.finished
    passes = st.passes
    if move == PASS_MOVE:
        if st.bonus:  # declining the extra card after an ace
            return _advance(st, hands, st.rows, st.playable, st.rank, False, passes, finished), finished
        if spec.passes_end:
            passes += 1
            if passes >= sum(1 for h in hands if h):
                return None, finished
        return _advance(st, hands, st.rows, st.playable, st.rank, False, passes, finished), finished
    rows = list(st.rows)
    playable = st.playable
    rank = st.rank
    if spec.groups and move & (move - 1):
        order = laying_order(move, rows)
    else:
        order = [move.bit_length() - 1]
    for card in order:
        if rank < 0:  # Success: the first card fixes the rank of every row
            rank = card % 13
            playable = sum(1 << (x * 13 + rank) for x in range(4)) & spec.deck
        playable = _place(spec, rows, playable, card)
    hands[turn] &= ~move
    if not hands[turn]:
        finished = finished + (turn,)
        left = [p for p in range(n) if hands[p]]
        if spec.ends_after and len(finished) >= spec.ends_after:
            return None, finished
        if not left or (len(left) == 1 and spec.stop_when_decided):
            return None, finished + tuple(left)
    elif spec.ace_again and order[-1] % 13 == ACE:
        return LayoutState(tuple(hands), tuple(rows), playable, rank, turn, True, 0, finished), finished
    return _advance(st, hands, tuple(rows), playable, rank, False, 0, finished), finished


def _advance(
    st: LayoutState,
    hands: list[int],
    rows: tuple[tuple[int, int] | None, ...],
    playable: int,
    rank: int,
    bonus: bool,
    passes: int,
    finished: tuple[int, ...],
) -> LayoutState:
    n = len(hands)
    nxt = (st.turn + 1) % n
    while not hands[nxt]:
        nxt = (nxt + 1) % n
    return LayoutState(tuple(hands), tuple(rows), playable, rank, nxt, bonus, passes, finished)


def points(spec: LayoutSpec, finished: tuple[int, ...]) -> tuple[int, ...]:
    """Each seat's points (doubles settled) for a finishing order, as the engine scores a finished deal."""
    base = [0] * spec.n
    for place, s in enumerate(finished):
        if place < len(spec.finishing):
            base[s] += spec.finishing[place]
    out = list(base)
    for doubler, doubled, factor in spec.doubles:
        diff = (base[doubler] - base[doubled]) * factor
        out[doubler] += diff
        out[doubled] -= diff
    return tuple(out)


def better(vector: tuple[int, ...], than: tuple[int, ...] | None, seat: int, sign: int) -> bool:
    """Whether the seat to play prefers ``vector`` (its points) to ``than``: its own points first
    (``sign`` −1 where fewest win), then the least for the others together, then the smallest vector."""
    if than is None:
        return True
    a, b = sign * vector[seat], sign * than[seat]
    if a != b:
        return a > b
    oa = sign * (sum(vector) - vector[seat])
    ob = sign * (sum(than) - than[seat])
    if oa != ob:
        return oa < ob
    return vector < than


# ---------------------------------------------------------------------------- the search


class LayoutSolver:
    """Max^n over a layout deal, with a transposition table that outlives a call (positions of one deal
    recur from one decision to the next; the table belongs to one spec)."""

    def __init__(self, spec: LayoutSpec) -> None:
        self.spec = spec
        self.table: dict[tuple[int, ...], tuple[int, ...]] = {}
        self.nodes = 0  # positions searched (not found in the table), for the benchmarks
        # the ranks (as bits of one suit) a row spanning (low, high) covers: the cards on the table there
        self._spans = {
            (lo, hi): sum(_card_at(0, p, spec.high_ace, SUIT_BITS) for p in range(lo, hi + 1))
            for lo in range(13)
            for hi in range(lo, 13)
        }

    def key(self, st: LayoutState) -> tuple[int, ...]:
        """The canonical form: per suit, each hand's cards and the cards on the table (one int a suit), the
        suits sorted; then who plays, the bonus turn and the rank.  The passes in a row are left out: they
        end the deal only when nobody can lay a card, whatever their number, and a card laid resets them."""
        spans = self._spans
        suits = []
        for sh, row in zip((0, 13, 26, 39), st.rows):
            sig = 0 if row is None else spans[row]
            for h in st.hands:
                sig = (sig << 13) | ((h >> sh) & SUIT_BITS)
            suits.append(sig)
        suits.sort()
        return (*suits, st.turn, st.bonus, st.rank)

    def future(self, st: LayoutState, key: tuple[int, ...] | None = None) -> tuple[int, ...]:
        """Each seat's points from the places and doubles still to come (the ones already out are not
        counted): a function of the position alone, so it can be stored."""
        if key is None:
            key = self.key(st)
        table = self.table
        got = table.get(key)
        if got is not None:
            return got
        self.nodes += 1
        spec = self.spec
        seat = st.turn
        best: tuple[int, ...] | None = None
        seen = set()
        base = points(spec, st.finished)
        for move in legal_moves(spec, st):
            nxt, finished = _step(spec, st, move)
            if nxt is None:
                value = tuple(e - b for e, b in zip(points(spec, finished), base))
            else:
                k = self.key(nxt)
                if k in seen:  # an equivalent card: the same position, the same value
                    continue
                seen.add(k)
                value = table.get(k) or self.future(nxt, k)
                if len(nxt.finished) != len(st.finished):
                    value = tuple(a + d - b for a, d, b in zip(value, points(spec, nxt.finished), base))
            if best is None or better(value, best, seat, spec.sign):
                best = value
        assert best is not None
        table[key] = best
        return best

    def solve(self, st: LayoutState) -> tuple[int, ...]:
        """Each seat's points at the end of the deal (already-finished places and doubles included)."""
        return tuple(a + b for a, b in zip(points(self.spec, st.finished), self.future(st)))

    def move_values(self, st: LayoutState) -> list[tuple[int, tuple[int, ...]]]:
        """Each legal move of the seat to play with each seat's final points after it."""
        out = []
        for move in legal_moves(self.spec, st):
            nxt, finished = _step(self.spec, st, move)
            out.append((move, points(self.spec, finished) if nxt is None else self.solve(nxt)))
        return out

    def best_move(self, st: LayoutState) -> int:
        """The move max^n plays: the first legal move of the best value (ties broken as in the search)."""
        best, value = PASS_MOVE, None
        for move, v in self.move_values(st):
            if better(v, value, st.turn, self.spec.sign):
                best, value = move, v
        return best


def solve(spec: LayoutSpec, st: LayoutState) -> tuple[int, ...]:
    """Each seat's points when every seat plays its best for itself (a fresh table)."""
    return LayoutSolver(spec).solve(st)


def cards_left(st: LayoutState) -> int:
    return sum(h.bit_count() for h in st.hands)


#: The most cards left in all hands the playouts solve from (one core, pure Python:
#: `benchmarks/layout_solver.py`): Domino and Success under a millisecond a solve at 12, Patience at 8.
#: From 16 and 12 (about 3 ms a solve) the expert's decisions at these games took 3 to 4 times as long,
#: for no gain measured (120 deals a game), so the playouts solve only the last few rounds.
AFFORDABLE_CARDS = 12
AFFORDABLE_PATIENCE_CARDS = 8


def affordable_cards(spec: LayoutSpec) -> int:
    """From how many cards left in all hands on a deal is solved in a few milliseconds."""
    return AFFORDABLE_PATIENCE_CARDS if spec.groups else AFFORDABLE_CARDS


def layout_action(move: int) -> Card | Pass | Lay:
    """The engine's action for a solver move: a card, the pass, or a run or set laid at once."""
    if move == PASS_MOVE:
        return PASS
    if move & (move - 1):
        return Lay(move)
    return CARDS[move.bit_length() - 1]


__all__ = [
    "LayoutSpec",
    "LayoutState",
    "LayoutSolver",
    "layout_spec_of",
    "layout_state_of",
    "legal_moves",
    "play",
    "points",
    "better",
    "solve",
    "cards_left",
    "affordable_cards",
    "layout_action",
    "PASS_MOVE",
    "AFFORDABLE_CARDS",
    "AFFORDABLE_PATIENCE_CARDS",
]
