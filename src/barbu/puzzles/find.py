"""The puzzles of a record: every card decision solved exactly with every hand shown, kept where one card (or
cards equivalent to it) is best by a clear margin and the rule player does not find it (docs/puzzles.md).

A record is walked deal by deal; at each card of trick play where every hand holds at most `EXACT_CARDS`
cards, the compiled solver gives every legal card its exact value (`fast.move_values`).  The position is kept
when the best value belongs to one class of equivalent cards and every other card costs at least the contract's
`margin`; it is dropped, and the reason counted, otherwise.  A kept position is rebuilt in a fresh match (a
draw that gives the same dealer, the deal, the deal's own actions) and dropped unless the solver sees the same
rules and position there.  Where the single kind is asked for, the position is then solved over the deals the
seat could be looking at (`single`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from ..agents.rule import RuleAgent
from ..classic.match import CHANCE, DEAL, PLAY, Match
from ..classic.state import DOMINO_PLAY
from ..core.actions import Draw
from ..core.cards import CARDS, cards_of
from ..core.errors import BarbuError
from ..solver import fast
from ..solver.layout import layout_spec_of, layout_state_of
from ..solver.position import Spec, State, objective, spec_of, state_of
from ..solver.pure import after_card, distinct_moves
from .model import OPEN, SINGLE, Puzzle, Step, puzzle_id
from .single import SAMPLES, SHARE, single_share
from .themes import classify

#: Positions are solved once every hand holds at most this many cards (a few milliseconds each, compiled).
EXACT_CARDS = 7
#: The seat holds at least this many cards: the last two tricks are too small to be a puzzle.
MIN_CARDS = 3
#: An open puzzle goes on for at most this many more decisions of its seat (`line_of`).
LINE_STEPS = 2
#: Reasons a position is not a puzzle, as counted in a summary.
REASONS = (
    "forced",
    "last-trick",
    "pass",
    "all-equal",
    "two-best",
    "small-margin",
    "obvious",
    "rebuild",
    "single-share",
)


@dataclass
class Tally:
    """What a search found and dropped: puzzles by (contract, kind), rejected positions by reason."""

    found: Counter[tuple[str, str]] = field(default_factory=Counter)
    rejected: Counter[str] = field(default_factory=Counter)
    positions: int = 0

    def add(self, other: Tally) -> None:
        self.found.update(other.found)
        self.rejected.update(other.rejected)
        self.positions += other.positions


@dataclass
class Position:
    """A card decision of a record: the live match there and the actions that rebuild it."""

    match: Match
    seat: int
    deal: int  # 1-based deal of the source match
    dealer: int
    actions: tuple[str, ...]  # the deal's actions from its `deal` on, up to the position
    played: str  # the card the record's player chose here


def sign_of(match: Match) -> int:
    """+1 where a seat wants points, -1 where fewest points win (the French penalty points)."""
    return 1 if match.rules.family_spec.highest_wins else -1


def margin(spec: Spec) -> int:
    """The least a wrong card must cost for a puzzle: the contract's smallest unit of points (a trick's points,
    a card's, a last trick's, whichever is smallest and not nothing)."""
    units = [abs(spec.per_trick), *(abs(v) for v in spec.values), *(abs(v) for v in spec.last_tricks), abs(spec.ravage)]
    return min((u for u in units if u), default=1)


def positions(rules: str, actions: Sequence[str], limit_cards: int = EXACT_CARDS) -> Iterator[Position]:
    """Every card decision of a record's actions where each hand holds at most ``limit_cards`` cards."""
    return decisions(rules, actions, lambda m: m.phase == PLAY and max(h.bit_count() for h in m.hands) <= limit_cards)


def decisions(rules: str, actions: Sequence[str], keep: Callable[[Match], bool]) -> Iterator[Position]:
    """Every decision of a player (not chance) in a record's actions where ``keep(match)`` holds."""
    m = Match(rules, None)
    deal, dealer, start = 0, 0, 0
    texts = list(actions)
    for i, text in enumerate(texts):
        actor = m.to_act()
        if actor is None:
            return
        if m.phase == DEAL:
            deal, dealer, start = len(m.results) + 1, m.dealer, i
        if actor != CHANCE and keep(m):
            yield Position(m.clone(), actor, deal, dealer, tuple(texts[start:i]), text)
        m.apply(m.parse_action(text))


def draw_for(match: Match, dealer: int) -> str:
    """A first-dealer draw that gives ``dealer`` the deal: the deck's top card to him, low cards to the rest."""
    by_rank = sorted(cards_of(match.deck), key=lambda c: (-(c % 13), c))
    top, low = by_rank[0], [c for c in reversed(by_rank) if c % 13 != by_rank[0] % 13]
    cards, k = [], 0
    for s in range(match.n):
        if s == dealer:
            cards.append(top)
        else:
            cards.append(low[k])
            k += 1
    return str(Draw(tuple(cards)))


def rebuild(rules: str, pos: Position) -> tuple[str, ...] | None:
    """The actions that bring a fresh match to the same position, or None where it does not rebuild."""
    try:
        fresh = Match(rules, None)
        out = (draw_for(fresh, pos.dealer), *pos.actions)
        for text in out:
            fresh.apply(fresh.parse_action(text))
        if fresh.to_act() != pos.seat or fresh.phase != pos.match.phase:
            return None
        if solver_view(fresh) != solver_view(pos.match):
            return None
    except (BarbuError, ValueError, LookupError):  # an action the fresh match refuses: no rebuild
        return None
    return out


def solver_view(m: Match) -> tuple[object, object]:
    """What a solver sees of a match: the rules and the position, of trick play or of a layout deal."""
    if m.phase == DOMINO_PLAY:
        return layout_spec_of(m), layout_state_of(m)
    return spec_of(m), state_of(m)


def classes(spec: Spec, legal: int, hand: int, state: State) -> list[list[int]]:
    """The legal cards in classes of cards equivalent for the solver (as `distinct_moves` groups them)."""
    in_play = 0
    for h in state.hands:
        in_play |= h
    for c in state.trick:
        in_play |= 1 << c
    firsts = set(distinct_moves(spec, legal, hand, in_play))
    out: list[list[int]] = []
    for c in cards_of(legal):
        if c in firsts or not out:
            out.append([c])
        else:
            out[-1].append(c)
    return out


@dataclass
class Judged:
    """A position solved: each legal card's value for the seat (its own points), and the verdict."""

    values: list[tuple[int, int]]  # (card, the seat's points), in the solver's objective's order: best first
    solution: list[int]
    costs: list[tuple[int, int]]
    value: int
    reason: str | None  # None: a puzzle


def judge(spec: Spec, state: State, seat: int, sign: int, legal: int) -> Judged:
    """Solve every legal card and say whether the position is a puzzle (``reason`` None) or why not."""
    hand = state.hands[seat]
    if legal.bit_count() < 2:
        return Judged([], [], [], 0, "forced")
    raw = fast.move_values(objective(spec, sign), [state])[0]  # objective points: higher is better
    values = sorted(((c, v) for c, v in raw), key=lambda cv: (-cv[1], cv[0]))
    best = values[0][1]
    value = sign * best
    if hand.bit_count() < MIN_CARDS:
        return Judged(values, [], [], value, "last-trick")
    if all(v == best for _, v in values):
        return Judged(values, [], [], value, "all-equal")
    group = next(g for g in classes(spec, legal, hand, state) if values[0][0] in g)
    top = [c for c, v in values if v == best]
    if any(c not in group for c in top):
        return Judged(values, [], [], value, "two-best")
    costs = [(c, best - v) for c, v in values if c not in group]
    costs.sort(key=lambda cv: (cv[1], cv[0]))
    reason = None if min(x for _, x in costs) >= margin(spec) else "small-margin"
    return Judged(values, sorted(group), costs, value, reason)


def find(
    rules: str,
    actions: Sequence[str],
    source: str,
    kinds: Sequence[str] = (OPEN,),
    tally: Tally | None = None,
    seats: set[int] | None = None,
    samples: int = SAMPLES,
    seed: int = 0,
    exact_cards: int = EXACT_CARDS,
    keep_obvious: bool = False,
) -> list[Puzzle]:
    """The puzzles of one record (its ruleset's text form and its actions as text) of the ``kinds`` asked for.

    With both kinds, a position is a single puzzle where it passes as one, else an open one: never both."""
    tally = tally if tally is not None else Tally()
    rng = random.Random(f"{source}:{seed}")
    out: list[Puzzle] = []
    for pos in positions(rules, actions, exact_cards):
        if seats is not None and pos.seat not in seats:
            continue
        tally.positions += 1
        p = puzzle_at(rules, pos, source, tally, kinds, samples, rng, keep_obvious)
        if p is not None:
            out.append(p)
    return out


def puzzle_at(
    rules: str,
    pos: Position,
    source: str,
    tally: Tally,
    kinds: Sequence[str] = (OPEN,),
    samples: int = SAMPLES,
    rng: random.Random | None = None,
    keep_obvious: bool = False,
) -> Puzzle | None:
    """The puzzle at one position, or None (the reason counted in ``tally``).  A position whose best card the
    rule player (`barbu.agents.rule`) plays is "obvious": a rule of thumb solves it, and it is dropped unless
    ``keep_obvious``."""
    m = pos.match
    spec, state, sign = spec_of(m), state_of(m), sign_of(m)
    j = judge(spec, state, pos.seat, sign, m.legal_mask())
    if j.reason is None and not keep_obvious and obvious(m, pos.seat, j.solution):
        j.reason = "obvious"
    if j.reason is not None:
        tally.rejected[j.reason] += 1
        return None
    acts = rebuild(rules, pos)
    if acts is None:
        tally.rejected["rebuild"] += 1
        return None
    kind, fraction, count = OPEN, None, 0
    if SINGLE in kinds:
        fraction, count = single_share(
            m, spec, state, pos.seat, sign, set(j.solution), samples, rng or random.Random(0)
        )
        if fraction >= SHARE:
            kind = SINGLE
        elif OPEN not in kinds:
            tally.rejected["single-share"] += 1
            return None
        else:
            fraction, count = None, 0
    line = line_of(m, pos.seat, j.solution[0], keep_obvious) if kind == OPEN else ()
    contract = m.contract.key if m.contract is not None else ""
    trump = spec.trump if spec.trump >= 0 else None
    theme = classify(spec, state, pos.seat, j.solution[0], [c for c, _ in j.costs], j.solution)
    tally.found[(contract, kind)] += 1
    return Puzzle(
        id=puzzle_id(str(m.rules), acts, pos.seat, kind),
        kind=kind,
        rules=str(m.rules),
        family=m.rules.family,
        contract=contract,
        trump=trump,
        actions=acts,
        seat=pos.seat,
        solution=tuple(str(CARDS[c]) for c in j.solution),
        costs=tuple((str(CARDS[c]), x) for c, x in j.costs),
        value=j.value,
        theme=theme,
        share=None if fraction is None else round(fraction, 4),
        samples=count,
        source=source,
        source_deal=pos.deal,
        line=line,
    )


def obvious(m: Match, seat: int, solution: Sequence[int]) -> bool:
    """Whether the rule player, from the seat's own view, plays one of the solution's cards."""
    return obvious_action(m, seat, [str(CARDS[c]) for c in solution])


def obvious_action(m: Match, seat: int, solution: Sequence[str]) -> bool:
    """Whether the rule player, from the seat's own view, plays one of the solution's actions (as text)."""
    return str(RuleAgent(0).act(m.view(seat))) in solution


def paranoid_reply(m: Match, seat: int, sign: int) -> int:
    """The card the player to act plays against ``seat``: the one that leaves ``seat`` fewest points (its
    objective's), the lowest of equals."""
    spec, state = objective(spec_of(m), sign), state_of(m)
    values = [(fast.solve_seat(spec, after_card(spec, state, c), seat, 0)[0], c) for c in cards_of(m.legal_mask())]
    return min(values)[1]


def line_of(m: Match, seat: int, card: int, keep_obvious: bool = False, steps: int = LINE_STEPS) -> tuple[Step, ...]:
    """The line after ``seat`` plays ``card``: the others reply their best against it (the paranoid solver's
    line), and each next decision of the seat that is a puzzle too becomes a `Step`, up to ``steps``; the line
    stops at the first that is not."""
    m = m.clone()
    m.apply(CARDS[card])
    sign = sign_of(m)
    out: list[Step] = []
    while len(out) < steps:
        replies: list[str] = []
        while m.phase == PLAY and m.to_act() != seat:
            c = paranoid_reply(m, seat, sign)
            m.apply(CARDS[c])
            replies.append(str(CARDS[c]))
        if m.phase != PLAY:
            break
        j = judge(spec_of(m), state_of(m), seat, sign, m.legal_mask())
        if j.reason is not None or (not keep_obvious and obvious(m, seat, j.solution)):
            break
        out.append(
            Step(
                tuple(replies), tuple(str(CARDS[c]) for c in j.solution), tuple((str(CARDS[c]), x) for c, x in j.costs)
            )
        )
        m.apply(CARDS[j.solution[0]])
    return tuple(out)
