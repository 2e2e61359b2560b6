"""The solver's core in pure Python: the twin of the compiled `barbu.solver._fast`, answer for answer.

Every function takes one `Spec` (the rules of the deal) and a batch: legal moves
of many positions, winners of many tricks, scores of many finished deals,
random playouts of many deals, exact solves of many positions.  The compiled
core has the same functions with the same arguments; the differential tests
hold the two to the same answers and to the engine's (`barbu.classic.match`).
The random playouts draw from SplitMix64, the same generator on both sides, so
even they agree card for card.
"""

from __future__ import annotations

from .position import Spec, State

SUIT_MASK = tuple(0x1FFF << (13 * s) for s in range(4))
HEARTS_MASK = SUIT_MASK[1]
_M64 = (1 << 64) - 1
_EXACT, _LOWER, _UPPER = 0, 1, 2
#: The search's transposition table: a position between tricks (hands, leader, hearts broken, cards won where
#: Ravage City counts them) -> (value, _EXACT/_LOWER/_UPPER).
Table = dict[tuple[tuple[int, ...], int, int, tuple[int, ...] | None], tuple[int, int]]


# ---------------------------------------------------------------- the rules of play
def legal_mask(spec: Spec, hand: int, trick: tuple[int, ...] | list[int], tricks_done: int, hearts_broken: int) -> int:
    """The cards of ``hand`` that may be played to ``trick`` (the engine's `Match._play_mask`)."""
    if not trick:
        mode = spec.heart_mode
        if mode:
            others = hand & ~HEARTS_MASK
            if others and (mode == 1 or (mode == 2 and not tricks_done) or (mode == 3 and not hearts_broken)):
                return others
        return hand
    led = SUIT_MASK[trick[0] // 13]
    follow = hand & led
    if spec.trump < 0:
        return follow or hand
    tm = SUIT_MASK[spec.trump]
    played = 0
    for c in trick:
        played |= 1 << c
    played &= tm
    if led == tm:  # trumps led
        if follow and spec.head:
            top = played.bit_length()
            return (follow >> top << top) or follow
        return follow or hand
    if follow:
        return follow
    mine = hand & tm
    if not mine:
        return hand
    if not played:
        return mine
    top = played.bit_length()
    return (mine >> top << top) or hand


def trick_winner(spec: Spec, leader: int, cards: tuple[int, ...] | list[int]) -> int:
    """The seat that takes a finished trick: the highest trump, else the highest card of the suit led."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    trumps = mask & SUIT_MASK[spec.trump] if spec.trump >= 0 else 0
    top = (trumps or mask & SUIT_MASK[cards[0] // 13]).bit_length() - 1
    return (leader + list(cards).index(top)) % spec.n


def score(spec: Spec, won: tuple[int, ...], tricks_won: tuple[int, ...], winners: tuple[int, ...]) -> tuple[int, ...]:
    """Base points of a finished deal (the engine's `contracts.score_tricks`)."""
    n = spec.n
    out = [spec.per_trick * tricks_won[s] for s in range(n)]
    values = spec.values
    for s in range(n):
        w = won[s]
        while w:
            low = w & -w
            out[s] += values[low.bit_length() - 1]
            w ^= low
    k = len(spec.last_tricks)
    if k and len(winners) >= k:
        for points, w in zip(spec.last_tricks, winners[-k:]):
            out[w] += points
    if spec.ravage:
        most = [max((won[s] & m).bit_count() for m in SUIT_MASK) for s in range(n)]
        top = max(most)
        losers = [s for s in range(n) if most[s] == top]
        share = spec.ravage // len(losers)
        for s in losers:
            out[s] -= share
    return tuple(out)


def check_state(spec: Spec, state: State) -> None:
    """Refuse a position whose hands do not fit its trick (the compiled core refuses the same ones)."""
    n = spec.n
    counts = [h.bit_count() for h in state.hands]
    union = 0
    for h in state.hands:
        union |= h
    for c in state.trick:
        union |= 1 << c
    left = counts[(state.leader + len(state.trick)) % n]
    ok = union.bit_count() == sum(counts) + len(state.trick) and (left or not state.trick)
    ok = ok and all(counts[s] == left - (((s - state.leader) % n) < len(state.trick)) for s in range(n))
    if not ok:
        raise ValueError(
            "state: the hands do not fit the trick (each seat holds as many cards as tricks are "
            "left, one less once it has played to the trick, and no card is in two places)"
        )


class _Play:
    """A mutable position for playouts and search: apply a card, take it back."""

    __slots__ = (
        "spec",
        "n",
        "hands",
        "won",
        "tricks_won",
        "winners",
        "leader",
        "trick",
        "hearts_broken",
        "in_hands",
        "undo",
    )

    def __init__(self, spec: Spec, state: State) -> None:
        self.spec = spec
        self.n = spec.n
        self.hands = list(state.hands)
        self.won = list(state.won)
        self.tricks_won = list(state.tricks_won)
        self.winners = list(state.winners)
        self.leader = state.leader
        self.trick = list(state.trick)
        self.hearts_broken = state.hearts_broken
        self.in_hands = 0
        for h in self.hands:
            self.in_hands |= h
        self.undo: list[tuple[int, list[int], int]] = []  # (leader, cards, hearts broken) of each trick taken
        check_state(spec, state)

    @property
    def turn(self) -> int:
        return (self.leader + len(self.trick)) % self.n

    def over(self) -> bool:
        """True between tricks once no card is left, or no card the deal is decided by."""
        if self.trick:
            return False
        stop = self.spec.stop_mask
        return not self.in_hands or bool(stop and not self.in_hands & stop)

    def legal(self) -> int:
        return legal_mask(self.spec, self.hands[self.turn], self.trick, len(self.winners), self.hearts_broken)

    def play(self, card: int) -> int:
        """Play a card; returns the winner when it finishes a trick, else -1."""
        turn = self.turn
        bit = 1 << card
        self.hands[turn] ^= bit
        self.in_hands ^= bit
        self.trick.append(card)
        if len(self.trick) < self.n:
            return -1
        winner = trick_winner(self.spec, self.leader, self.trick)
        mask = 0
        for c in self.trick:
            mask |= 1 << c
        self.won[winner] |= mask
        self.tricks_won[winner] += 1
        self.winners.append(winner)
        self.undo.append((self.leader, self.trick, self.hearts_broken))
        if mask & HEARTS_MASK:
            self.hearts_broken = 1
        self.leader = winner
        self.trick = []
        return winner

    def take_back(self, card: int) -> None:
        """Undo `play(card)` (the last card played)."""
        if not self.trick:
            winner = self.winners.pop()
            self.leader, self.trick, self.hearts_broken = self.undo.pop()
            mask = 0
            for c in self.trick:
                mask |= 1 << c
            self.won[winner] &= ~mask
            self.tricks_won[winner] -= 1
        self.trick.pop()
        bit = 1 << card
        self.hands[self.turn] |= bit
        self.in_hands |= bit

    def score(self) -> tuple[int, ...]:
        return score(self.spec, tuple(self.won), tuple(self.tricks_won), tuple(self.winners))


def after_card(spec: Spec, state: State, card: int) -> State:
    """The position once the seat to play has played ``card`` (one of its legal cards): the trick taken
    when it is the last card, as the engine takes it.  The search players start their playouts there
    without copying a whole match for each card."""
    p = _Play(spec, state)
    p.play(card)
    return State(
        tuple(p.hands), tuple(p.won), tuple(p.tricks_won), tuple(p.winners), p.leader, tuple(p.trick), p.hearts_broken
    )


# ---------------------------------------------------------------- batches
def legal_moves(spec: Spec, states: list[State]) -> list[int]:
    """The legal cards (a bitmask) of the seat to play, in each position."""
    out = []
    n = spec.n
    for st in states:
        check_state(spec, st)
        seat = (st.leader + len(st.trick)) % n
        out.append(legal_mask(spec, st.hands[seat], st.trick, len(st.winners), st.hearts_broken))
    return out


def trick_winners(spec: Spec, tricks: list[tuple[int, tuple[int, ...]]]) -> list[int]:
    """The winner of each finished trick, given as ``(leader, cards from the leader on)``."""
    return [trick_winner(spec, leader, cards) for leader, cards in tricks]


def deal_scores(
    spec: Spec, outcomes: list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]
) -> list[tuple[int, ...]]:
    """Base points of each finished deal, given as ``(won, tricks_won, winners)``."""
    return [score(spec, won, tricks, winners) for won, tricks, winners in outcomes]


def splitmix64(x: int) -> tuple[int, int]:
    """One step of SplitMix64: (next state, output)."""
    x = (x + 0x9E3779B97F4A7C15) & _M64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return x, z ^ (z >> 31)


def nth_card(mask: int, i: int) -> int:
    """The i-th card (from 0, lowest first) of a bitmask."""
    for _ in range(i):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def playout_seed(seed: int, i: int) -> int:
    """The generator's start for the i-th position of a batch."""
    return (seed ^ ((i + 1) * 0xD1B54A32D192ED03)) & _M64


def playouts(spec: Spec, states: list[State], seed: int) -> list[tuple[int, ...]]:
    """Play each position to the end with uniformly random legal cards; the deal's base points of each."""
    out = []
    for i, st in enumerate(states):
        rng = playout_seed(seed, i)
        p = _Play(spec, st)
        while not p.over():
            legal = p.legal()
            rng, r = splitmix64(rng)
            p.play(nth_card(legal, r % legal.bit_count()))
        out.append(p.score())
    return out


# ---------------------------------------------------------------- the exact solver
def ducks_all(mine: int, others: int) -> bool:
    """Without trumps, can a seat holding ``mine`` duck every lead the other hands (holding ``others``) make,
    for good?  In each suit the others hold, either all its cards are below every other hand's card of the
    suit, or it holds at least as many cards below them as the others hold of the suit.  Then, while another
    hand leads, it follows with a card below them (each lead of the suit takes at least one of the others'
    cards, and their lowest only rises) and, void, throws a card above them if it has one, else any card;
    so it never wins and never leads."""
    for suit in SUIT_MASK:
        m, o = mine & suit, others & suit
        if m and o:
            low = m & ((o & -o) - 1)
            if low != m and low.bit_count() < o.bit_count():
                return False
    return True


def distinct_moves(spec: Spec, legal: int, hand: int, in_play: int) -> list[int]:
    """The legal cards less equivalent ones: of a run of cards of one suit with no other player's card
    (in a hand or on the table) between them and the same points, only the lowest is tried."""
    others = in_play & ~hand
    values = spec.values
    out = []
    prev = -1
    m = legal
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        if (
            prev >= 0
            and prev // 13 == c // 13
            and values[prev] == values[c]
            and not others & ((1 << c) - (1 << (prev + 1)))
        ):
            prev = c
            continue
        out.append(c)
        prev = c
    return out


class _Solver:
    """Paranoid alpha-beta for one seat: that seat maximises its points, all the others minimise them."""

    def __init__(self, spec: Spec, state: State) -> None:
        self.spec = spec
        self.p = _Play(spec, state)
        self.total = len(state.winners) + ((self.p.in_hands.bit_count() + len(state.trick)) // spec.n)
        self.first_last = self.total - len(spec.last_tricks)
        self.pos_mask = sum(1 << c for c in range(52) if spec.values[c] > 0)
        self.neg_mask = sum(1 << c for c in range(52) if spec.values[c] < 0)
        self.penalties = (
            not self.pos_mask and spec.per_trick <= 0 and not spec.ravage and all(v <= 0 for v in spec.last_tricks)
        )  # every point a penalty

    def trick_points(self, seat: int, winner: int) -> int:
        """What ``seat`` scores for the trick just finished (only the additive parts)."""
        if winner != seat:
            return 0
        spec = self.spec
        p = self.p
        _, cards, _ = p.undo[-1]
        pts = spec.per_trick
        for c in cards:
            pts += spec.values[c]
        t = len(p.winners) - 1
        if t >= self.first_last:
            pts += spec.last_tricks[t - self.first_last]
        return pts

    def bounds(self) -> tuple[int, int]:
        """The least and the most ``seat`` can still score from here, whoever takes what."""
        spec = self.spec
        p = self.p
        rest = p.in_hands
        for c in p.trick:
            rest |= 1 << c
        tricks = rest.bit_count() // spec.n
        t = tricks * spec.per_trick
        lo, hi = min(0, t), max(0, t)
        for mask, is_pos in ((rest & self.pos_mask, True), (rest & self.neg_mask, False)):
            while mask:
                low = mask & -mask
                v = spec.values[low.bit_length() - 1]
                if is_pos:
                    hi += v
                else:
                    lo += v
                mask ^= low
        for i, v in enumerate(spec.last_tricks):
            if self.first_last + i >= len(p.winners):
                lo, hi = lo + min(0, v), hi + max(0, v)
        if spec.ravage > 0:
            lo -= spec.ravage
        elif spec.ravage < 0:
            hi -= spec.ravage
        return lo, hi

    def settled(self, seat: int) -> int | None:
        """At a trick's start, ``seat``'s exact future points when the play can no longer change who takes
        what, else None (not for Ravage City).  It takes no more tricks when another seat leads, it holds
        no trump and each of its cards is below every other hand's card of that suit; it takes every trick
        when it leads, no one else holds a trump and each of its cards is above every other hand's card of
        that suit (with a stop card, only when all the points lie on stop cards).  Where every point is a
        penalty, the first rule holds when it leads too, if it may lead a suit another hand holds; and without
        trumps both hold whenever the seat can duck every lead for good (`ducks_all`)."""
        spec = self.spec
        p = self.p
        mine = p.hands[seat]
        others = p.in_hands & ~mine
        trumps = SUIT_MASK[spec.trump] if spec.trump >= 0 else 0
        below_all = not mine & trumps and not any(
            (m := mine & suit) and (o := others & suit) and m.bit_length() > (o & -o).bit_length() for suit in SUIT_MASK
        )
        if self.penalties and spec.trump < 0 and ducks_all(mine, others):
            below_all = True  # ducking for good is then the best it can do
        if p.leader != seat:
            return 0 if below_all else None
        if below_all and self.penalties:
            # Nothing is the best it can do: a lead under another hand's card loses, then it never wins.
            leads = p.legal()
            if any(leads & suit and others & suit for suit in SUIT_MASK):
                return 0
        scoring = self.pos_mask | self.neg_mask
        if others & trumps or (spec.stop_mask and (spec.per_trick or spec.last_tricks or scoring & ~spec.stop_mask)):
            return None
        for suit in SUIT_MASK:
            m, o = mine & suit, others & suit
            if m and o and (m & -m).bit_length() < o.bit_length():
                return None
        pts = p.in_hands.bit_count() // spec.n * spec.per_trick
        m = p.in_hands & scoring
        while m:
            low = m & -m
            pts += spec.values[low.bit_length() - 1]
            m ^= low
        for i, v in enumerate(spec.last_tricks):
            if self.first_last + i >= len(p.winners):
                pts += v
        return pts

    def search(self, seat: int, alpha: int, beta: int, tt: Table) -> int:
        """The points ``seat`` is sure of from here (future points only, so positions transpose)."""
        p = self.p
        spec = self.spec
        if p.over():
            return score(spec, tuple(p.won), tuple(p.tricks_won), tuple(p.winners))[seat] if spec.ravage else 0
        if not p.trick and not spec.ravage:
            sure = self.settled(seat)
            if sure is not None:
                return sure
        lo, hi = self.bounds()
        if hi <= alpha:
            return hi
        if lo >= beta:
            return lo
        key = None
        a0, b0 = alpha, beta
        if not p.trick:
            key = (tuple(p.hands), p.leader, p.hearts_broken, tuple(p.won) if spec.ravage else None)
            hit = tt.get(key)
            if hit is not None:
                v, flag = hit
                if flag == _EXACT:
                    return v
                if flag == _LOWER:
                    alpha = max(alpha, v)
                else:
                    beta = min(beta, v)
                if alpha >= beta:
                    return v
        turn = p.turn
        hand = p.hands[turn]
        in_play = p.in_hands
        for c in p.trick:
            in_play |= 1 << c
        moves = distinct_moves(spec, p.legal(), hand, in_play)
        maximise = turn == seat
        best = -(1 << 30) if maximise else 1 << 30
        for c in moves:
            winner = p.play(c)
            gain = self.trick_points(seat, winner) if winner >= 0 else 0
            v = gain + self.search(seat, alpha - gain, beta - gain, tt)
            p.take_back(c)
            if maximise:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            elif v < best:
                best = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        if key is not None:
            flag = _UPPER if best <= a0 else _LOWER if best >= b0 else _EXACT
            tt[key] = (best, flag)
        return best


def accrued(spec: Spec, state: State) -> tuple[int, ...]:
    """The additive points each seat has already taken (tricks and cards; last tricks once played)."""
    n = spec.n
    s = _Solver(spec, state)
    out = []
    for seat in range(n):
        pts = spec.per_trick * state.tricks_won[seat]
        w = state.won[seat]
        while w:
            low = w & -w
            pts += spec.values[low.bit_length() - 1]
            w ^= low
        for t, winner in enumerate(state.winners):
            if winner == seat and t >= s.first_last:
                pts += spec.last_tricks[t - s.first_last]
        out.append(pts)
    return tuple(out)


def solve(spec: Spec, state: State) -> tuple[int, ...]:
    """Each seat's points at the end of the deal with every card known, if that seat plays its best and
    the others all play against it (a paranoid search per seat)."""
    base = accrued(spec, state)
    solver = _Solver(spec, state)
    return tuple(base[seat] + solver.search(seat, -(1 << 30), 1 << 30, {}) for seat in range(spec.n))


class _OutOfBudget(Exception):
    """The pure search's budget of positions ran out."""


class _BudgetSolver(_Solver):
    """`_Solver` that stops after a number of positions (`solve_seat`)."""

    def __init__(self, spec: Spec, state: State, budget: int) -> None:
        super().__init__(spec, state)
        self.budget = budget
        self.nodes = 0

    def search(self, seat: int, alpha: int, beta: int, tt: Table) -> int:
        if self.budget and self.nodes >= self.budget:
            raise _OutOfBudget
        self.nodes += 1
        return super().search(seat, alpha, beta, tt)


def solve_seat(spec: Spec, state: State, seat: int, budget: int = 0) -> tuple[int, int, int]:
    """One seat's paranoid search with at most ``budget`` positions (0: no limit): the least and the most its
    final points can be as far as the search got (equal once it finished), and the positions searched.  Cut
    short, this one-pass search knows only the deal's static bounds (the compiled one keeps what its finished
    passes proved); finished, both give `solve`'s value."""
    if not 0 <= seat < spec.n:
        raise ValueError("seat: out of range")
    if budget < 0:
        raise ValueError("budget: must be 0 (none) or more")
    solver = _BudgetSolver(spec, state, budget)
    try:
        v = solver.search(seat, -(1 << 30), 1 << 30, {})
    except _OutOfBudget:
        return (*static_bounds(spec, state, seat), solver.nodes)
    v += accrued(spec, state)[seat]
    return v, v, solver.nodes


def static_bounds(spec: Spec, state: State, seat: int) -> tuple[int, int]:
    """The least and the most ``seat``'s final points can be before any search: what it has taken, plus none
    or all of what is left to take (the bounds every search starts from)."""
    base = accrued(spec, state)[seat]
    lo, hi = _Solver(spec, state).bounds()
    return base + lo, base + hi


def solve_many(spec: Spec, states: list[State]) -> list[tuple[int, ...]]:
    """`solve` for each position of a batch."""
    return [solve(spec, st) for st in states]


def move_values(spec: Spec, states: list[State]) -> list[tuple[tuple[int, int], ...]]:
    """For the seat to play in each position: its final points after each legal card, if it then plays
    its best and the others all play against it (equivalent cards share their value)."""
    out = []
    for state in states:
        solver = _Solver(spec, state)
        p = solver.p
        if p.over():
            raise ValueError("state: the deal is over")
        seat = p.turn
        base = accrued(spec, state)[seat]
        hand = p.hands[seat]
        legal = p.legal()
        in_play = p.in_hands
        for c in p.trick:
            in_play |= 1 << c
        tried = set(distinct_moves(spec, legal, hand, in_play))
        tt: Table = {}
        pairs = []
        value = 0
        m = legal
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            if c in tried:
                winner = p.play(c)
                gain = solver.trick_points(seat, winner) if winner >= 0 else 0
                value = base + gain + solver.search(seat, -(1 << 30), 1 << 30, tt)
                p.take_back(c)
            pairs.append((c, value))
        out.append(tuple(pairs))
    return out
