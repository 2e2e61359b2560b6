"""Who sits where in a duplicate event: the movements, as bridge clubs call them, for games of one against all.

A plan is round -> table -> seat -> the index of the player sitting there (None: a computer player).  In each
round every table plays the same boards, so two players *meet* when they sit at the same table of a round, and
are *compared* when they sit at the same seat number of different tables of a round (they held the same
cards).  Bridge's Howell and Mitchell movements spread opponents and comparisons evenly for partnerships; for
individual games no table of movements fits every number of players and seats, so the "rounds" plan is
searched for: a seeded simulated annealing over the rounds that makes the meetings, the comparisons and each
player's seat numbers as even as the numbers allow (it minimises the sums of their squares, which for fixed
totals is making them even).  The seed is the event's numbers, so the same numbers give the same plan on every
server and after every restart.  docs/duplicate.md gives the spreads measured for 4 to 40 players.

The seats players do not fill are computer seats, spread so that table sizes differ by at most one (never a
table of computers only unless the director asked for more tables than players) and spread over the seat
numbers, so that every seat's comparison has as many people as it can.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from itertools import combinations
from typing import Sequence

from . import errors as E

FORMATS: tuple[str, ...] = ("one-match", "rounds")
MOST_ROUNDS = 20
MOST_TABLES = 250  # a plan's search keeps a count per pair of players: 1,500 players at most

Plan = list[list[list["int | None"]]]


def _whole(**numbers: object) -> None:
    """Refuse what is not a whole number (a form's text, a float, None) before comparing it."""
    for what, value in numbers.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise E.EventError.of(E.NOT_A_NUMBER[what], value=str(value)[:30])


def _check(players: int, seats: int) -> None:
    _whole(players=players, seats=seats)
    if seats < 2:
        raise E.EventError.of(E.NO_SEATS, seats=seats)
    if players < 1:
        raise E.EventError.of(E.NO_PLAYERS)


def tables_for(players: int, seats: int) -> int:
    """Tables needed for ``players`` people at tables of ``seats``: the seats left over go to computer players."""
    _check(players, seats)
    return -(-players // seats)


def check_format(fmt: str) -> None:
    """Refuse a format that is not one of `FORMATS`."""
    if fmt not in FORMATS:
        raise E.EventError.of(E.UNKNOWN_FORMAT, fmt=str(fmt)[:30], formats=", ".join(FORMATS))


def check_event(players: int, seats: int, fmt: str, rounds: int = 1, tables: int | None = None) -> int:
    """Refuse the numbers a format does not fit (an `EventError` saying why); the number of tables otherwise."""
    check_format(fmt)
    _whole(rounds=rounds, **({} if tables is None else {"tables": tables}))
    need = tables_for(players, seats)
    if tables is None:
        tables = need
    elif tables < need:
        raise E.EventError.of(E.TOO_FEW_TABLES, players=players, need=need, seats=seats, n=tables)
    if tables > MOST_TABLES:
        raise E.EventError.of(E.TOO_MANY_TABLES, most=MOST_TABLES, tables=tables)
    if rounds < 1:
        raise E.EventError.of(E.ROUNDS_AT_LEAST_ONE, rounds=rounds)
    if rounds > MOST_ROUNDS:
        raise E.EventError.of(E.TOO_MANY_ROUNDS, most=MOST_ROUNDS, rounds=rounds)
    if fmt == "one-match" and rounds != 1:
        raise E.EventError.of(E.ONE_MATCH_ONE_ROUND, rounds=rounds)
    if fmt == "rounds" and tables < 2:
        raise E.EventError.of(E.ROUNDS_NEED_TWO_TABLES, n=players, seats=seats)
    return tables


def schedule(players: int, seats: int, fmt: str, rounds: int = 1, *, tables: int | None = None) -> Plan:
    """Round r -> table t -> seat s -> index of the player sitting there (None: a computer player sits there).

    "one-match": rounds must be 1.  "rounds": players change tables after each round, at least two tables.
    ``tables``: more tables than the players need (the director's choice; the extra seats are computers').
    Raises `EventError` (with a code and parameters) when the format does not fit the numbers."""
    tables = check_event(players, seats, fmt, rounds, tables)
    return [[list(table) for table in rnd] for rnd in _plan(players, seats, fmt, rounds, tables)]


def _open_slots(players: int, seats: int, tables: int, round_no: int) -> list[int]:
    """The slots (table * seats + seat) people sit in this round: table sizes within one of each other, the
    computer seats on different seat numbers from table to table and from round to round."""
    empty: set[int] = set()
    base, extra = divmod(players, tables)
    cycle = round_no
    for t in range(tables):
        for _ in range(seats - base - (t < extra)):
            while t * seats + cycle % seats in empty:
                cycle += 1
            empty.add(t * seats + cycle % seats)
            cycle += 1
    return [i for i in range(tables * seats) if i not in empty]


Grid = tuple[tuple[tuple["int | None", ...], ...], ...]  # a plan kept in the cache: nobody can change it


@lru_cache(maxsize=256)
def _plan(players: int, seats: int, fmt: str, rounds: int, tables: int) -> Grid:
    """The plan of these numbers, searched once per process."""
    slots = [_open_slots(players, seats, tables, r) for r in range(rounds)]
    rng = random.Random(f"barbu-movement {players} {seats} {fmt} {rounds} {tables}")
    seating: list[list[int]] = []  # round -> player -> slot
    for r, open_ in enumerate(slots):
        order = list(range(players))
        if r:
            rng.shuffle(order)
        seat_of = [0] * players
        for p, slot in zip(order, open_):
            seat_of[p] = slot
        seating.append(seat_of)
    if fmt == "rounds" and rounds > 1:
        _Search(players, seats, tables, seating, rng).run()
    out = []
    for seat_of in seating:
        grid: list[int | None] = [None] * (tables * seats)
        for p, slot in enumerate(seat_of):
            grid[slot] = p
        out.append(tuple(tuple(grid[t * seats : (t + 1) * seats]) for t in range(tables)))
    return tuple(out)


class _Search:
    """Simulated annealing over the seating of rounds 1.. (round 0 fixed: players are named by it).

    A move swaps two people in one round.  The cost is a weighted sum of squares of the meeting counts,
    the comparison counts and each player's count per seat number; a move's change of cost is counted by
    taking the two players out of the round and putting them back swapped, so a move costs O(tables + seats)."""

    W_MEET, W_COMPARE, W_SEAT = 6, 3, 4  # meetings first; weights tried against each other

    def __init__(self, players: int, seats: int, tables: int, seating: list[list[int]], rng: random.Random):
        self.n, self.s, self.t, self.rng = players, seats, tables, rng
        self.seating = seating
        self.grid = []  # round -> slot -> player (-1: nobody)
        for seat_of in seating:
            grid = [-1] * (tables * seats)
            for p, slot in enumerate(seat_of):
                grid[slot] = p
            self.grid.append(grid)
        self.meet = [0] * (players * players)
        self.comp = [0] * (players * players)
        self.seat = [0] * (players * seats)
        self.cost = 0
        for r in range(len(seating)):
            for p in range(players):
                self._count(r, p, +1, skip_lower=True)

    def _bump(self, counts: list[int], i: int, d: int, w: int) -> None:
        x = counts[i]
        counts[i] = x + d
        self.cost += w * (2 * x * d + 1)

    def _count(self, r: int, p: int, d: int, skip_lower: bool = False) -> None:
        """Add (d=+1) or take away (d=-1) player p's meetings, comparisons and seat in round r."""
        grid, n, s = self.grid[r], self.n, self.s
        slot = self.seating[r][p]
        t, seat = divmod(slot, s)
        for q in grid[t * s : (t + 1) * s]:
            if q >= 0 and q != p and not (skip_lower and q < p):
                self._bump(self.meet, p * n + q if p < q else q * n + p, d, self.W_MEET)
        for u in range(self.t):
            q = grid[u * s + seat]
            if u != t and q >= 0 and not (skip_lower and q < p):
                self._bump(self.comp, p * n + q if p < q else q * n + p, d, self.W_COMPARE)
        self._bump(self.seat, p * s + seat, d, self.W_SEAT)

    def _swap(self, r: int, x: int, y: int) -> None:
        """Exchange what slots x and y hold in round r (two people, or a person and an empty seat)."""
        grid, seat_of = self.grid[r], self.seating[r]
        pa, pb = grid[x], grid[y]
        for p, slot in ((pa, x), (pb, y)):
            if p >= 0:
                self._count(r, p, -1)
                grid[slot] = -1
        grid[x], grid[y] = pb, pa
        for p, slot in ((pa, y), (pb, x)):
            if p >= 0:
                seat_of[p] = slot
                grid[slot] = -1
        for p, slot in ((pa, y), (pb, x)):
            if p >= 0:
                grid[slot] = p
                self._count(r, p, +1)

    def run(self) -> None:
        rounds, n, rng = len(self.seating), self.n, self.rng
        # A move costs O(tables + seats): the budget keeps a plan of 250 tables to a few seconds.
        steps = min(40_000, 2_000 + 150 * n * (rounds - 1), 2_000_000 // (self.t + self.s))
        hot, cold = 1.0 * self.W_MEET, 0.05
        best, best_seating = self.cost, [list(x) for x in self.seating]
        for i in range(steps):
            temp = hot * (cold / hot) ** (i / steps)
            r = rng.randrange(1, rounds)
            x = self.seating[r][rng.randrange(n)]
            if i % 2:  # half the moves turn seats round within a table (an empty seat too): seats, comparisons
                y = x - x % self.s + rng.randrange(self.s)
            else:
                y = self.seating[r][rng.randrange(n)]
            if x == y:
                continue
            before = self.cost
            self._swap(r, x, y)
            delta = self.cost - before
            if delta > 0 and rng.random() >= math.exp(-delta / temp):
                self._swap(r, x, y)  # swapping again puts them back
            elif self.cost < best:
                best, best_seating = self.cost, [list(x) for x in self.seating]
        for r, seat_of in enumerate(best_seating):
            self.seating[r][:] = seat_of
            self.grid[r] = [-1] * (self.t * self.s)
            for p, slot in enumerate(seat_of):
                self.grid[r][slot] = p
        self._rotate_seats()

    def _rotate_seats(self) -> None:
        """Nobody keeps one seat number every round: where the search left one, the cheapest exchange in a later
        round that gives him another seat number, and leaves nobody else stuck, moves him."""
        rounds, s = len(self.seating), self.s
        self.meet, self.comp, self.seat = [0] * len(self.meet), [0] * len(self.comp), [0] * len(self.seat)
        self.cost = 0
        for r in range(rounds):
            for p in range(self.n):
                self._count(r, p, +1, skip_lower=True)
        for p in range(self.n):
            if max(self.seat[p * s : (p + 1) * s]) < rounds:
                continue
            options = []
            for r in range(1, rounds):
                x = self.seating[r][p]
                here = range(x - x % s, x - x % s + s)  # his own table, and a few others' seats
                elsewhere = self.rng.sample(range(self.t * s), min(self.t * s, 4 * s))
                for y in (*here, *elsewhere):
                    if y % s != x % s:
                        before, other = self.cost, self.grid[r][y]
                        self._swap(r, x, y)
                        if other < 0 or max(self.seat[other * s : (other + 1) * s]) < rounds:
                            options.append((self.cost - before, r, x, y))
                        self._swap(r, x, y)
            if options:
                _, r, x, y = min(options)
                self._swap(r, x, y)


# -- what a plan gives: who meets whom, who is compared with whom ---------------------------------------------


def _pairs(groups: Sequence[Sequence[int | None]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for group in groups:
        people = sorted(p for p in group if p is not None)
        out.extend(combinations(people, 2))
    return out


def meetings(plan: Plan) -> dict[tuple[int, int], int]:
    """How often each pair of players (i < j) sits at the same table; pairs that never meet are absent."""
    out: dict[tuple[int, int], int] = {}
    for rnd in plan:
        for pair in _pairs(rnd):
            out[pair] = out.get(pair, 0) + 1
    return out


def comparisons(plan: Plan) -> dict[tuple[int, int], int]:
    """How often each pair of players (i < j) holds the same cards from the same seat (same round, same seat
    number, different tables); pairs never compared are absent."""
    out: dict[tuple[int, int], int] = {}
    for rnd in plan:
        seats = len(rnd[0]) if rnd else 0
        for pair in _pairs([[table[s] for table in rnd] for s in range(seats)]):
            out[pair] = out.get(pair, 0) + 1
    return out


def spread(counts: dict[tuple[int, int], int], players: int) -> int:
    """Most minus fewest over every pair of the ``players`` (a pair absent from ``counts`` counts 0)."""
    if players < 2:
        return 0
    values = [counts.get(pair, 0) for pair in combinations(range(players), 2)]
    return max(values) - min(values)


def seat_counts(plan: Plan, players: int) -> list[list[int]]:
    """Player -> seat number -> how many rounds he sat there."""
    seats = len(plan[0][0])
    out = [[0] * seats for _ in range(players)]
    for rnd in plan:
        for table in rnd:
            for s, p in enumerate(table):
                if p is not None:
                    out[p][s] += 1
    return out
