"""Matchpoints: each result on a board compared with every other result from the same seat of that board.

As duplicate bridge scores pairs: a result earns 1 for each other result it beats and ½ for each it ties,
out of one less than the number of results.  Where the ruleset's lowest total wins (its family's
``highest_wins`` is false, as in the French game), ``highest_wins=False`` turns the comparison round.

A player's percentage is his matchpoints over the most he could have had, summed over his boards; a board
where he was alone (nobody else held those cards yet) gives nothing either way and is left out.

A board with fewer results than a full one (a table stopped before it) would weigh less in that sum: where the
caller says how many results a full board has (``full``), such a board's matchpoints are raised to a full
board's scale by Neuberg's formula (`neuberg`), as tournament directors adjust them.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Hashable, Iterable, Mapping, NamedTuple, Sequence

EPSILON = 1e-9  # scores this close are a tie (points may be fractions of a point)


def matchpoints(scores: Sequence[float], highest_wins: bool = True) -> list[float]:
    """Each score's matchpoints among ``scores`` (all from the same seat of the same board).

    Sorting and counting: the distinct scores (few, on a board) are sorted once with how many hold each, and a
    score beats those more than `EPSILON` below it (above it when the lowest wins) and ties those within
    `EPSILON`, exactly as comparing every pair would (`pairwise`), in O(n log n) rather than O(n²)."""
    points = _points(scores, highest_wins)
    return [points[v] for v in scores]


def _points(scores: Sequence[float], highest_wins: bool) -> dict[float, float]:
    """Distinct score -> the matchpoints it earns among ``scores``."""
    counts = sorted(Counter(scores).items())
    values = [v for v, _ in counts]
    below = [0]  # below[i]: how many scores are less than values[i]
    for _, c in counts:
        below.append(below[-1] + c)
    n = below[-1]
    points: dict[float, float] = {}
    for v in values:
        low = below[bisect_left(values, v - EPSILON)]  # clearly below v
        high = below[bisect_right(values, v + EPSILON)]  # below v or tied with it, v itself included
        points[v] = (low if highest_wins else n - high) + 0.5 * (high - low - 1)
    return points


def neuberg(points: float, results: int, full: int) -> float:
    """Matchpoints ``points`` earned among ``results`` results, on the scale of a board of ``full`` results.

    Neuberg's formula, (S + 1)·N/n − 1, as bridge directors use it: the board's top becomes a full board's,
    N − 1, and a result keeps its place among the others (a top stays a top, a bottom earns a little above 0, as
    if the missing results had been spread evenly).  A board as full as ``full`` (or fuller) is left as it is."""
    if results <= 0 or results >= full:
        return points
    return (points + 1) * full / results - 1


def _adjusted(points: dict[float, float], results: int, full: int | None) -> tuple[dict[float, float], int, bool]:
    """One comparison's matchpoints by score, its top and whether Neuberg adjusted it: only a board of at least
    two results (a lone result is compared with nobody) and fewer than ``full``."""
    if full is None or not 2 <= results < full:
        return points, results - 1, False
    return {v: neuberg(mp, results, full) for v, mp in points.items()}, full - 1, True


def pairwise(scores: Sequence[float], highest_wins: bool = True) -> list[float]:
    """The definition, pair by pair (O(n²)): the reference the fast `matchpoints` is tested and timed against."""
    sign = 1 if highest_wins else -1
    out = []
    for i, mine in enumerate(scores):
        mp = 0.0
        for j, other in enumerate(scores):
            if i == j:
                continue
            diff = sign * (mine - other)
            mp += 1.0 if diff > EPSILON else 0.5 if abs(diff) <= EPSILON else 0.0
        out.append(mp)
    return out


class Entry(NamedTuple):
    """One result: who held the cards of ``seat`` on ``board``, and what that seat scored on it (a named tuple:
    a daily set played by 100,000 players makes 700,000 of them, and a tuple is made several times faster than
    a frozen dataclass).

    ``stand_in``: the computer played this seat for the player (he left, or his clock ran out); the result
    still counts for the others' comparison and is the player's own, marked.
    ``computer``: no player held this seat at all (an event's empty seat, filled by a computer player from the
    start); its result counts for the others' comparison, and it is not ranked."""

    board: Hashable
    seat: int
    player: str
    score: float
    stand_in: bool = False
    computer: bool = False


@dataclass
class Standing:
    """A player's place in the ranking: matchpoints out of the most possible, and his total points."""

    player: str
    matchpoints: float = 0.0
    top: float = 0.0  # the most matchpoints his boards could have given
    points: float = 0.0
    boards: int = 0
    stand_in_boards: int = 0
    adjusted_boards: int = 0  # boards with fewer results than a full one, their matchpoints Neuberg's
    rank: str = ""  # "1", "2=", … by percentage
    rank_points: str = ""  # the second ranking, by total points

    @property
    def percent(self) -> float | None:
        return None if self.top == 0 else 100.0 * self.matchpoints / self.top


@dataclass
class BoardResult:
    """One seat of one board: every result on it with its matchpoints (a traveller's row per player)."""

    board: Hashable
    seat: int
    rows: list[tuple[Entry, float]] = field(default_factory=list)  # (entry, matchpoints), best first
    top: float = 0.0  # the most a result could earn here: one less than the results, or a full board's
    adjusted: bool = False  # fewer results than a full board: the matchpoints are Neuberg's


def _groups(entries: Iterable[Entry]) -> dict[tuple[Hashable, int], list[Entry]]:
    """The results by board and seat: each list is one comparison."""
    groups: dict[tuple[Hashable, int], list[Entry]] = defaultdict(list)
    for e in entries:
        groups[(e.board, e.seat)].append(e)
    return groups


_PLAYER = itemgetter(2)  # an Entry's player
_MP = itemgetter(1)  # a row's matchpoints


Full = Mapping[Hashable, int] | None  # board -> how many results a full board has (None: no adjustment)
Scored = tuple[dict[float, float], int, bool]  # one comparison's matchpoints by score, its top, adjusted or not


def _scored(
    groups: dict[tuple[Hashable, int], list[Entry]], highest_wins: bool, full: Full
) -> dict[tuple[Hashable, int], Scored]:
    """Each comparison's matchpoints by score (Neuberg's where the board is short of ``full``), top, adjusted."""
    return {
        (board, seat): _adjusted(
            _points([e.score for e in group], highest_wins), len(group), full.get(board) if full else None
        )
        for (board, seat), group in groups.items()
    }


def _board_result(board: Hashable, seat: int, group: list[Entry], scored: Scored) -> BoardResult:
    """One comparison's rows, best first, then by name: two stable sorts on C-level keys (no key tuples)."""
    points, top, adjusted = scored
    rows = [(e, points[e.score]) for e in sorted(group, key=_PLAYER)]
    rows.sort(key=_MP, reverse=True)  # stable, reverse included: equal matchpoints stay in name order
    return BoardResult(board, seat, rows, top, adjusted)


def score_boards(entries: Iterable[Entry], highest_wins: bool = True, full: Full = None) -> list[BoardResult]:
    """Group the results by board and seat and give each its matchpoints (rows best first, then by name).

    ``full``: board -> the results a full board has; a board with fewer (two at least) gets Neuberg's."""
    groups = _groups(entries)
    scored = _scored(groups, highest_wins, full)
    return [_board_result(board, seat, group, scored[(board, seat)]) for (board, seat), group in groups.items()]


def score_all(
    entries: Iterable[Entry], highest_wins: bool = True, full: Full = None
) -> tuple[list[BoardResult], list[Standing]]:
    """`score_boards` and `standings` together, grouping and counting each comparison once (the daily deals'
    results page needs both)."""
    groups = _groups(entries)
    scored = _scored(groups, highest_wins, full)
    boards = [_board_result(board, seat, group, scored[(board, seat)]) for (board, seat), group in groups.items()]
    return boards, _standings(groups, scored, highest_wins)


def _ranks(values: dict[str, float], better_high: bool = True) -> dict[str, str]:
    """Competition ranks ("1", "2=", "2=", "4"), ties marked with "="."""
    order = sorted(values, key=lambda p: -values[p] if better_high else values[p])
    out: dict[str, str] = {}
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and abs(values[order[j + 1]] - values[order[i]]) <= 1e-9:
            j += 1
        for p in order[i : j + 1]:
            out[p] = f"{i + 1}=" if j > i else str(i + 1)
        i = j + 1
    return out


def standings(entries: Iterable[Entry], highest_wins: bool = True, full: Full = None) -> list[Standing]:
    """Every player's matchpoints, percentage and total points, ranked by percentage (then points).

    Computer seats (``Entry.computer``) are compared with but not ranked.  ``full``: board -> the results a
    full board has; a board with fewer (two at least) weighs as a full one, by Neuberg's formula.  One pass over
    the results with plain lists (no traveller rows sorted): a daily set played by 100,000 players is scored in
    one to two seconds (benchmarks/duplicate_scoring.py)."""
    groups = _groups(entries)
    return _standings(groups, _scored(groups, highest_wins, full), highest_wins)


def _standings(
    groups: dict[tuple[Hashable, int], list[Entry]], scored: dict[tuple[Hashable, int], Scored], highest_wins: bool
) -> list[Standing]:
    """The ranking from the comparisons and each one's matchpoints by score."""
    sums: dict[str, list[float]] = {}  # player -> [matchpoints, top, points, boards, stand-in boards, adjusted]
    known = sums.get
    for key, group in groups.items():
        points, top, adjusted = scored[key]
        for e in group:
            if e.computer:
                continue
            acc = known(e.player)
            if acc is None:
                acc = sums[e.player] = [0.0, 0, 0.0, 0, 0, 0]
            if top:
                acc[0] += points[e.score]
                acc[1] += top
            acc[2] += e.score
            acc[3] += 1
            acc[4] += e.stand_in
            acc[5] += adjusted
    by_player = {p: Standing(p, a[0], a[1], a[2], int(a[3]), int(a[4]), int(a[5])) for p, a in sums.items()}
    sign = 1 if highest_wins else -1
    pct = {p: (s.percent if s.percent is not None else -1.0) for p, s in by_player.items()}
    for p, r in _ranks(pct).items():
        by_player[p].rank = r
    for p, r in _ranks({p: sign * s.points for p, s in by_player.items()}).items():
        by_player[p].rank_points = r
    return sorted(by_player.values(), key=lambda s: (-pct[s.player], -sign * s.points, s.player))
