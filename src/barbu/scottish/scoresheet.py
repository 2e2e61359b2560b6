"""The Scottish game's scoresheet (seed 004): points per call, totals, positions and glyphs.

A sheet has, per Round and player, the points of each of the seven calls
(Aces, King of hearts, Queens, Hearts, Tricks, Patience 1, Patience 2), the
round total, the running total after the round, the Set totals and the Set
positions.  `build_sheet` does that arithmetic from the cells alone, so a
scorer at a real table (or the booklet's appendix) goes through the same code
as the engine, which feeds it from its deal results (`sheet_from_results`).

The glyphs are the booklet's "Language of Barbu", read off the play:
`deal_glyphs` finds the ones a single deal shows (Egg, Spider, Dangly Spider,
Rumping Ripple, FC/SC/TC, Piranha, Constipatience, Banana, Beef and Cherry
Tomato) and `round_glyphs` the ones a whole Round shows (Fruit Bowl, Virgin
Round, Full Participation).  RULES.md §5 and docs/rules-decisions.md say how
each is read.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Iterable, NamedTuple, Sequence

from ..classic.contracts import KING_OF_HEARTS, SCOTTISH_CALL_NAMES, SCOTTISH_CALLS, SCOTTISH_NEGATIVES
from ..classic.state import DealResult
from ..core.cards import EIGHT, HEARTS, JACK
from ..core.places import table_place
from ..core.words import N_, Words

#: The booklet's full call totals, for "took them all" and "took half or more".
CALL_TOTALS = {"aces": -80, "king": -100, "queens": -60, "hearts": -100, "tricks": -80}
#: The sheet's column heads, each call's short name, as the booklet abbreviates them.
COLUMN_NAMES = (N_("Aces"), N_("KHearts"), N_("Queens"), N_("Hearts"), N_("Tricks"), N_("Pat. 1"), N_("Pat. 2"))

GLYPH_NAMES = {
    "egg": "Egg",
    "spider": "Spider",
    "dangly-spider": "Dangly Spider",
    "rumping-ripple": "Rumping Ripple",
    "fc": "FC",
    "sc": "SC",
    "tc": "TC",
    "piranha": "Piranha",
    "constipatience": "Constipatience",
    "banana": "Banana",
    "beef-tomato": "Beef Tomato",
    "cherry-tomato": "Cherry Tomato",
    "fruit-bowl": "Fruit Bowl",
    "virgin-round": "Virgin Round",
    "full-participation": "Full Participation",
}
_CHOICE = {1: "fc", 2: "sc", 3: "tc"}


class Glyph(NamedTuple):
    """One glyph on the sheet: who earned it, its name (a `GLYPH_NAMES` key) and the call column it
    sits beside (None for a glyph of the whole deal or round)."""

    seat: int
    name: str
    call: str | None = None

    def __str__(self) -> str:
        where = f" ({SCOTTISH_CALL_NAMES[self.call]})" if self.call else ""
        return f"{GLYPH_NAMES[self.name]}{where} seat {self.seat}"


@dataclass(frozen=True)
class ScottishDeal:
    """What a Scottish deal was, beyond the common `DealResult`: its place in the match, its calls and
    their points column by column, the cuts and pass-ons, and the glyphs it showed."""

    set_no: int  # 1-based
    round_no: int  # 1..4 the Player Rounds, 5 the Silly Round
    caller: int | None  # None in the Silly Round (the cut calls)
    deal_in_round: int  # 1-based
    calls: tuple[str, ...]  # scoresheet columns: "king", "queens", "patience-1", …
    parts: tuple[tuple[int, ...], ...]  # points per call (aligned with calls), per seat
    cuts: tuple[tuple[str, int], ...] = ()  # ("calls" or "passes", pack card), in order
    pass_count: int = 0
    passes: tuple[tuple[int, tuple[int, ...]], ...] = ()  # private: (seat offset, cards each seat passed)
    double_offered: bool = False  # a Single Patience was called while Double Patience was allowed
    forced: bool = False  # a Patience called with no negative call left (Constipatience)
    glyphs: tuple[Glyph, ...] = ()

    @property
    def silly(self) -> bool:
        return self.round_no == 5

    def public(self) -> "ScottishDeal":
        """The pass-on choices stay secret; the number of pass-ons is public."""
        return dataclasses.replace(self, passes=())


# ---------------------------------------------------------------- glyphs of one deal
def trick_winner(leader: int, cards: Sequence[int], n: int) -> int:
    """No trumps in the Scottish negatives: the highest card of the suit led wins."""
    led = cards[0] // 13
    best = max((c for c in cards if c // 13 == led))
    return (leader + list(cards).index(best)) % n


def deal_glyphs(
    calls: Sequence[str],
    parts: Sequence[Sequence[int]],
    caller: int | None,
    deal_in_round: int,
    won: Sequence[int],
    tricks: Sequence[tuple[int, Sequence[int]]],
    finishing: Sequence[int],
    double_offered: bool,
    forced: bool,
) -> tuple[Glyph, ...]:
    """The glyphs one deal shows, from its calls, their points, the cards won and the finishing order."""
    n = len(won)
    out: list[Glyph] = []
    negatives = [(c, p) for c, p in zip(calls, parts) if c in CALL_TOTALS]
    for call, pts in negatives:
        total = CALL_TOTALS[call]
        for s in range(n):
            if pts[s] == total:  # took every penalty card of the call (every trick, for Tricks)
                if s == caller:
                    out.append(Glyph(s, "spider", call))
                elif call != "king":
                    out.append(Glyph(s, "egg", call))
        if caller is not None and deal_in_round in _CHOICE and 2 * pts[caller] <= total:
            out.append(Glyph(caller, _CHOICE[deal_in_round], call))
        if call == "hearts" and caller is not None and won[caller] >> (HEARTS * 13 + JACK) & 1:
            out.append(Glyph(caller, "dangly-spider", call))
        if call == "king":
            n_ = len(won)
            for leader, cards in tricks:
                if KING_OF_HEARTS in cards:
                    w = trick_winner(leader, cards, n_)
                    top = cards[(w - leader) % n_]
                    if top % 13 == EIGHT:
                        out.append(Glyph(w, "piranha", call))
    if len(negatives) >= 3:
        for s in range(n):
            heavy = sum(1 for call, pts in negatives if pts[s] and 2 * pts[s] <= CALL_TOTALS[call])
            if heavy >= 3:
                out.append(Glyph(s, "rumping-ripple"))
    patience = [c for c in calls if c.startswith("patience")]
    if patience and caller is not None and finishing:
        column = patience[0]
        if forced:
            out.append(Glyph(caller, "constipatience", column))
        place = list(finishing).index(caller) + 1
        if len(patience) == 1 and double_offered and place == 1:
            out.append(Glyph(caller, "banana", column))
        if place == n:
            out.append(Glyph(caller, "cherry-tomato" if forced else "beef-tomato", column))
    return tuple(out)


# ---------------------------------------------------------------- the sheet
@dataclass(frozen=True)
class SheetRound:
    """One Round of the sheet: the seven call columns and the total, per player."""

    set_no: int
    round_no: int  # 1..4 Player Rounds, 5 the Silly Round
    caller: int | None
    cells: tuple[tuple[int, ...], ...]  # [seat][column], columns as SCOTTISH_CALLS
    totals: tuple[int, ...]  # round total per seat
    running: tuple[int, ...]  # running total of the match after this round
    glyphs: tuple[Glyph, ...] = ()
    complete: bool = True

    @property
    def label(self) -> str:
        return "S. Round" if self.round_no == 5 else f"P. Round {self.round_no}"


@dataclass(frozen=True)
class SheetSet:
    """A Set: its rounds, each player's Set total and place (1 = first; tied players share the best
    place they span), and the overall running scores after it."""

    number: int
    rounds: tuple[SheetRound, ...]
    totals: tuple[int, ...]
    positions: tuple[int, ...]
    overall: tuple[int, ...]
    complete: bool = True


@dataclass(frozen=True)
class Sheet:
    players: int
    sets: tuple[SheetSet, ...]

    @property
    def rounds(self) -> tuple[SheetRound, ...]:
        return tuple(r for st in self.sets for r in st.rounds)


class RoundInput(NamedTuple):
    """What a scorer writes for one Round: per seat the seven cells (0 for an empty cell)."""

    set_no: int
    round_no: int
    caller: int | None
    cells: tuple[tuple[int, ...], ...]
    glyphs: tuple[Glyph, ...] = ()
    complete: bool = True


FULL_TOTALS = (-80, -100, -60, -100, -80, 210, 210)  # each column of a finished Round adds up to these


def round_problems(cells: Sequence[Sequence[int]]) -> list[str]:
    """A scorer's check on a finished Round: the columns that do not add up to their call's total."""
    out = []
    for col, (name, want) in enumerate(zip(COLUMN_NAMES, FULL_TOTALS)):
        got = sum(row[col] for row in cells)
        if got != want:
            out.append(f"{name} adds up to {got:+d}, not {want:+d}")
    return out


def positions(totals: Sequence[int]) -> tuple[int, ...]:
    """Places by total, highest first; equal totals share the better place (1, 2, 2, 4)."""
    return tuple(1 + sum(1 for t in totals if t > x) for x in totals)


def ordinal(place: int) -> str:
    return f"{place}{'th' if 10 <= place % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(place % 10, 'th')}"


def build_sheet(rounds: Iterable[RoundInput], players: int = 4, start: Sequence[int] | None = None) -> Sheet:
    """Totals, running totals, Set totals and positions from the cells of each Round.

    ``start`` is the overall running score before the first Round (0 each by default).
    """
    running = list(start) if start is not None else [0] * players
    by_set: dict[int, list[SheetRound]] = {}
    for r in rounds:
        totals = tuple(sum(r.cells[s]) for s in range(players))
        running = [running[s] + totals[s] for s in range(players)]
        by_set.setdefault(r.set_no, []).append(
            SheetRound(
                r.set_no,
                r.round_no,
                r.caller,
                tuple(map(tuple, r.cells)),
                totals,
                tuple(running),
                tuple(r.glyphs),
                r.complete,
            )
        )
    sets = []
    overall = list(start) if start is not None else [0] * players
    for number in sorted(by_set):
        rs = tuple(by_set[number])
        totals = tuple(sum(r.totals[s] for r in rs) for s in range(players))
        overall = [overall[s] + totals[s] for s in range(players)]
        complete = len(rs) == 5 and all(r.complete for r in rs)
        sets.append(SheetSet(number, rs, totals, positions(totals), tuple(overall), complete))
    return Sheet(players, tuple(sets))


def round_glyphs(
    caller: int | None, cells: Sequence[Sequence[int]], deal_glyphs_: Iterable[Glyph]
) -> tuple[Glyph, ...]:
    """Fruit Bowl (the Caller's Banana and Tomato in one Round), Virgin Round (no negative points and first
    in both Patiences) and Full Participation (points in all seven calls)."""
    out: list[Glyph] = []
    gl = list(deal_glyphs_)
    if caller is not None:
        mine = {g.name for g in gl if g.seat == caller}
        if "banana" in mine and mine & {"beef-tomato", "cherry-tomato"}:
            out.append(Glyph(caller, "fruit-bowl"))
    first = SCOTTISH_CALLS.index("patience-1")
    for s, row in enumerate(cells):
        negatives, pats = row[:first], row[first:]
        if not any(negatives) and all(p == 120 for p in pats):
            out.append(Glyph(s, "virgin-round"))
        if all(row):
            out.append(Glyph(s, "full-participation"))
    return tuple(out)


def sheet_from_results(results: Iterable[DealResult], players: int = 4) -> Sheet:
    """The sheet of a Scottish match from its deal results (public ones will do).  A Round still being
    played is on the sheet too, marked incomplete, without its round glyphs."""
    rounds: list[RoundInput] = []
    current: dict[str, Any] | None = None  # the Round being added up: its key, caller, calls, glyphs, cells

    def close(cur: dict[str, Any] | None) -> None:
        if cur is None:
            return
        done = cur["played"] >= set(SCOTTISH_CALLS)
        rg = round_glyphs(cur["caller"], cur["cells"], cur["glyphs"]) if done else ()
        rounds.append(
            RoundInput(
                cur["key"][0],
                cur["key"][1],
                cur["caller"],
                tuple(tuple(row) for row in cur["cells"]),
                tuple(cur["glyphs"]) + rg,
                done,
            )
        )

    for r in results:
        info = r.scottish
        if info is None:
            continue
        key = (info.set_no, info.round_no)
        if current is None or current["key"] != key:
            close(current)
            current = {
                "key": key,
                "caller": info.caller,
                "played": set(),
                "glyphs": [],
                "cells": [[0] * len(SCOTTISH_CALLS) for _ in range(players)],
            }
        for call, pts in zip(info.calls, info.parts):
            col = SCOTTISH_CALLS.index(call)
            current["played"].add(call)
            for s in range(players):
                current["cells"][s][col] += pts[s]
        current["glyphs"].extend(info.glyphs)
    close(current)
    return build_sheet(rounds, players)


def glyph_label(glyphs: Iterable[Glyph], seat: int, call: str | None) -> str:
    """The names of a seat's glyphs beside one cell (or the whole row for call None)."""
    return " ".join(GLYPH_NAMES[g.name] for g in glyphs if g.seat == seat and g.call == call)


def _points(x: int) -> str:
    return f"{x:+d}" if x else "."


def glyph_words(glyph: Glyph, words: Words | None = None) -> str:
    """A glyph's name with its call in the reader's words, ``Egg (Queens)`` (the glyphs keep the booklet's
    names, as players call them in every language)."""
    w = words or Words()
    call = f" ({w.gettext(COLUMN_NAMES[SCOTTISH_CALLS.index(glyph.call)])})" if glyph.call else ""
    return GLYPH_NAMES[glyph.name] + call


def glyphs_by(glyphs: Iterable[Glyph], names: Sequence[str], words: Words | None = None) -> str:
    """A deal's glyphs, each with its player's name: ``SC (Aces) West; Spider (K♥) North``."""
    return "; ".join(f"{glyph_words(g, words)} {names[g.seat]}" for g in glyphs)


def row_glyphs(glyphs: Iterable[Glyph], seat: int, words: Words | None = None) -> str:
    """A seat's glyphs of a round, each with its call: ``Egg (Queens), Rumping Ripple``."""
    return ", ".join(glyph_words(g, words) for g in glyphs if g.seat == seat)


#: A player's place in a Set, first to sixth.
PLACE_WORDS = (N_("1st"), N_("2nd"), N_("3rd"), N_("4th"), N_("5th"), N_("6th"))


def sheet_lines(sheet: Sheet, names: Sequence[str] | None = None, words: Words | None = None) -> list[str]:
    """The sheet as plain text, the booklet's layout: a row per player per Round, glyph names beside.

    ``words``: the reader's language (a front end's `Words`; English without it).  The glyphs keep the
    booklet's names, as players call them in every language."""
    w = words or Words()
    n = sheet.players
    names = list(names) if names is not None else [w.gettext(table_place(s, 0, n)) for s in range(n)]
    width = max(len(x) for x in names) + 2
    columns = [w.gettext(c) for c in COLUMN_NAMES]
    cell = max(8, *(len(c) + 1 for c in columns))
    total = w.gettext(N_("TOTAL"))
    head = " " * width + "".join(f"{c:>{cell}}" for c in columns) + f"{total:>7}"
    running = w.gettext(N_("running total: {scores}"))
    unfinished = w.gettext(N_(" (in progress)"))

    def place(p: int) -> str:
        return w.gettext(PLACE_WORDS[p - 1]) if 1 <= p <= len(PLACE_WORDS) else ordinal(p)

    def each(values: Sequence[Any]) -> str:
        return "  ".join(f"{names[s]} {values[s]}" for s in range(n))

    out: list[str] = []
    for st in sheet.sets:
        out.append(w.gettext(N_("Set {n}")).format(n=st.number) + ("" if st.complete else unfinished))
        out.append(head)
        for r in st.rounds:
            label = w.gettext(N_("S. Round")) if r.round_no == 5 else w.gettext(N_("P. Round {n}")).format(n=r.round_no)
            who = w.gettext(N_(", caller {name}")).format(name=names[r.caller]) if r.caller is not None else ""
            out.append(f"{label}{who}" + ("" if r.complete else unfinished))
            for seat in range(n):
                line = f"  {names[seat]:<{width - 2}}" + "".join(f"{_points(x):>{cell}}" for x in r.cells[seat])
                line += f"{r.totals[seat]:>+7d}"
                g = row_glyphs(r.glyphs, seat, w)
                out.append(line + (f"   {g}" if g else ""))
            out.append("  " + running.format(scores=each([f"{x:+d}" for x in r.running])))
        out.append(w.gettext(N_("Set total: {scores}")).format(scores=each([f"{x:+d}" for x in st.totals])))
        out.append(w.gettext(N_("Set position: {scores}")).format(scores=each([place(p) for p in st.positions])))
        out.append(
            w.gettext(N_("Overall running scores: {scores}")).format(scores=each([f"{x:+d}" for x in st.overall]))
        )
    return out


__all__ = [
    "FULL_TOTALS",
    "round_problems",
    "sheet_lines",
    "row_glyphs",
    "glyph_words",
    "glyphs_by",
    "CALL_TOTALS",
    "COLUMN_NAMES",
    "GLYPH_NAMES",
    "Glyph",
    "ScottishDeal",
    "deal_glyphs",
    "round_glyphs",
    "SheetRound",
    "SheetSet",
    "Sheet",
    "RoundInput",
    "build_sheet",
    "sheet_from_results",
    "positions",
    "ordinal",
    "glyph_label",
    "trick_winner",
    "SCOTTISH_NEGATIVES",
]
