"""A score sheet as a plain layout, the same for every renderer (PDF, print-ready HTML, text).

`sheet_for` lays out a list of finished deals the way players keep them on
paper: a column per player, one block per declarer's series with a row for
every contract of the family (played or not, so a blank sheet and a
half-filled one look alike), the Scottish booklet's Set sheet with its glyphs,
or Bésigue's deal-by-deal declarations and brisques.  No score is computed
here: every number is read from the deal results (or from
`barbu.scottish.scoresheet`, which builds the Scottish sheet from them); only
sums of those numbers (series and running totals) are added up.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping, Sequence

from .. import scottish  # noqa: F401  (registers the Scottish family and preset)
from ..besigue.actions import MELD_VALUES
from ..besigue.ruleset import BesigueRules
from ..classic import presets as _presets  # noqa: F401  (registers the Barbu family's presets)
from ..classic.contracts import SCOTTISH_CALLS
from ..classic.ruleset import Ruleset
from ..classic.state import DealResult
from ..core.cards import RANKS, SUIT_SYMBOLS
from ..core.errors import BarbuError
from ..core.places import table_place
from ..core.words import ENGLISH, N_, NN_, Words
from ..i18n import translator
from ..scottish.scoresheet import COLUMN_NAMES, GLYPH_NAMES, ordinal, sheet_from_results
from ..scottish.scoresheet import Sheet as ScottishSheet
from .refusals import warning_notes, word_note

#: Bésigue's combinations as a sheet names them (short, to fit a cell).
MELD_LABELS = {
    "marriage": N_("Marriage"),
    "trump-marriage": N_("Trump marriage"),
    "bezique": N_("Bésigue"),
    "four-jacks": N_("4 jacks"),
    "four-queens": N_("4 queens"),
    "four-kings": N_("4 kings"),
    "four-aces": N_("4 aces"),
    "quint": N_("Quint"),
    "double-bezique": N_("Double bésigue"),
}
#: A place as the sheet writes it (1st, 2nd…).
PLACES = (N_("1st"), N_("2nd"), N_("3rd"), N_("4th"), N_("5th"), N_("6th"))


@dataclass(frozen=True)
class Cell:
    """One player's (or one column's) entry in a row: the points, the running total under them, the glyphs
    beside them.  Empty text is a box to fill in by hand."""

    text: str = ""
    running: str = ""
    glyphs: str = ""
    sign: int = 0  # -1, 0, +1: renderers may colour the points
    strong: bool = False  # a total: set in bold


@dataclass(frozen=True)
class Row:
    """A line of the sheet.  ``kind`` says how to draw it: ``deal`` (a played deal), ``open`` (a contract still
    to play: an empty row to fill in), ``sum`` (series, round or running totals), ``heading`` (a caption across
    the sheet, e.g. the Scottish Round and its caller)."""

    label: str
    cells: tuple[Cell, ...] = ()
    detail: str = ""  # trumps or starting rank, doubles, who chose
    kind: str = "deal"
    number: int | None = None  # the deal number: of a played deal, or of a deal still to play in quick rotation
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Block:
    """A part of the sheet under its own caption: a declarer's series, a Scottish Set, a Bésigue deal."""

    title: str
    rows: tuple[Row, ...]


@dataclass(frozen=True)
class Grid:
    """Seed 000's table of crosses for quick rotation: who has chosen which contract (the deal number in the
    box), so nobody chooses a contract twice."""

    title: str
    columns: tuple[str, ...]  # the contracts
    rows: tuple[str, ...]  # the choosers (players)
    marks: tuple[tuple[str, ...], ...]  # [player][contract]: "" or the deal number


@dataclass(frozen=True)
class Standing:
    place: int
    name: str
    total: str


@dataclass(frozen=True)
class Sheet:
    """Everything a renderer needs, already in words and figures."""

    title: str
    rules: str  # the one-line ruleset text
    game: str  # the family: classic, italian, italian-six, salad, french, scottish, besigue
    names: tuple[str, ...]
    columns: tuple[str, ...]  # the value columns' headings (the players, or the Scottish calls)
    label_heading: str
    blocks: tuple[Block, ...]
    detail_heading: str = ""  # empty: no detail column
    grid: Grid | None = None
    totals: tuple[str, ...] = ()  # final totals per player (empty on a blank sheet)
    standings: tuple[Standing, ...] = ()
    chart: tuple[tuple[float, ...], ...] = ()  # running totals per player after each deal, from 0
    chart_length: int = 0  # deals in a whole game (the chart's x axis), 0 when open-ended
    subtitle: str = ""  # what the sheet is: blank, in progress after deal k, finished
    legend: tuple[str, ...] = ()  # how to read it (glyphs, crosses, who wins)
    notes: tuple[str, ...] = ()  # notes for no particular deal
    blank: bool = True
    groups: tuple[tuple[str, int], ...] = ()  # headings over runs of columns: (player's name, how many columns)
    weights: tuple[float, ...] = ()  # relative widths of the value columns (empty: all alike)
    total_columns: tuple[int, ...] = ()  # the column under which each player's final total goes (empty: i)
    lang: str = "en"  # the language of its words: the renderers word their own headings in it

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def wide(self) -> bool:
        """Whether the columns need landscape paper."""
        return len(self.columns) + (2 if self.detail_heading else 1) > 7


# ---------------------------------------------------------------- numbers
_FRACTIONS = {Fraction(1, 2): "½", Fraction(1, 3): "⅓", Fraction(2, 3): "⅔", Fraction(1, 4): "¼", Fraction(3, 4): "¾"}


def points(x: Any, signed: bool = False, words: Words = ENGLISH) -> str:
    """A score as written on paper: ``+25``, ``-110``, ``12½`` (italian-six shares can be halves or thirds);
    thousands as ``words``' language writes them (``-1 250`` in French)."""
    f = Fraction(x)
    sign = "-" if f < 0 else ("+" if signed and f > 0 else "")
    whole, part = divmod(abs(f), 1)
    if not part:
        return f"{sign}{words.number(int(whole))}"
    glyph = _FRACTIONS.get(part)
    if glyph is None:
        return f"{sign}{words.number(abs(f).numerator)}/{words.number(abs(f).denominator)}"
    return f"{sign}{words.number(int(whole)) if whole else ''}{glyph}"


def place(p: int, words: Words = ENGLISH) -> str:
    """A place as ``words``' language writes it: 1st, 1er, 1º."""
    if words.lang == "en" or not 1 <= p <= len(PLACES):
        return ordinal(p)
    return words.gettext(PLACES[p - 1])


def _sign(x: Any) -> int:
    return (x > 0) - (x < 0)


def _add(a: Sequence[Any], b: Sequence[Any]) -> list[Any]:
    return [x + y for x, y in zip(a, b)]


# ---------------------------------------------------------------- the chart
#: one colour per player (RGB), as the web table's chart: readable in print and on grey
COLORS = ((209, 73, 91), (0, 121, 140), (214, 150, 40), (86, 150, 110), (141, 108, 171), (48, 99, 142))


def chart_scale(sheet: "Sheet") -> tuple[float, float, float]:
    """The chart's value axis: low end, high end and the step between grid lines (1, 2 or 5 times a power of
    ten), always showing 0."""
    values = [v for point in sheet.chart for v in point] or [0.0]
    lo, hi = min(0.0, *values), max(0.0, *values)
    raw = (hi - lo) / 5 or 1
    power = 10 ** len(str(int(max(raw, 1)))) / 10
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    return step * (lo // step), step * -(-hi // step), step


# ---------------------------------------------------------------- the entry point
def sheet_for(
    rules: "Ruleset | BesigueRules",
    names: Sequence[str] | None,
    results: Sequence[Any] = (),
    notes: Mapping[int, Sequence[str]] | None = None,
    lang: str | None = "en",
) -> Sheet:
    """The sheet of a game: ``results`` are the engine's `DealResult`s (Bésigue: its result dicts) in play
    order; none for a blank sheet.  ``notes`` are remarks keyed by deal number (a keeper's flags).
    Its words, contract names and numbers are in ``lang`` (en, fr, it)."""
    n = rules.players
    w = translator(lang)
    names = tuple(names) if names is not None else ()
    if names and len(names) != n:
        raise BarbuError(f"{rules} is played by {n} players: give {n} names, not {len(names)}")
    if not names:
        names = tuple("" for _ in range(n)) if not results else tuple(_seat(w, s, n) for s in range(n))
    # A deal nobody doubled already says "not played" on its row: the keeper's flag saying so is left out.
    said = {int(k): tuple(word_note(x, w) for x in warning_notes(v)) for k, v in (notes or {}).items()}
    kept = {k: v for k, v in said.items() if v}
    if isinstance(rules, BesigueRules):
        return _besigue(rules, names, list(results), kept, w)
    if rules.family == "scottish":
        return _scottish(rules, names, list(results), kept, w)
    return _barbu(rules, names, list(results), kept, w)


def _seat(w: Words, s: int, n: int) -> str:
    """A player with no name: his place at the table, seat 0 at the bottom (South, then West, North, East at
    four; the same compass at three, five and six, as the terminal names them)."""
    return w.gettext(table_place(s, 0, n))


def _status(w: Words, results: Sequence[Any], total: int, over: bool | None = None) -> str:
    if not results:
        return w.gettext(N_("Blank sheet"))
    done = len(results)
    if over if over is not None else (total and done >= total):
        return w.ngettext(*NN_("Finished: {n} deal", "Finished: {n} deals"), done).format(n=w.number(done))
    if total:
        return w.ngettext(
            *NN_("In progress: {done} of {total} deals", "In progress: {done} of {total} deals"), done
        ).format(done=w.number(done), total=w.number(total))
    return w.ngettext(*NN_("In progress: {n} deal", "In progress: {n} deals"), done).format(n=w.number(done))


def _standings(
    names: Sequence[str], totals: Sequence[Any], highest_wins: bool, w: Words = ENGLISH
) -> tuple[Standing, ...]:
    """Places by total (ties share the better place), best first."""
    key = (lambda t: -t) if highest_wins else (lambda t: t)
    order = sorted(range(len(names)), key=lambda s: (key(totals[s]), s))
    out = []
    for s in order:
        rank = 1 + sum(1 for t in totals if key(t) < key(totals[s]))
        out.append(Standing(rank, names[s], points(totals[s], words=w)))
    return tuple(out)


def _chart(added: Sequence[Sequence[Any]], n: int) -> tuple[tuple[float, ...], ...]:
    run = [0] * n
    out = [tuple(0.0 for _ in range(n))]
    for a in added:
        run = _add(run, a)
        out.append(tuple(float(x) for x in run))
    return tuple(out)


def _deal_note(w: Words, k: int, text: str) -> str:
    return w.gettext(N_("Deal {n}: {text}")).format(n=k, text=text)


def _notes_left(notes: Mapping[int, tuple[str, ...]], used: set[int], w: Words = ENGLISH) -> tuple[str, ...]:
    return tuple(_deal_note(w, k, text) for k, v in sorted(notes.items()) if k not in used for text in v)


# ---------------------------------------------------------------- the Barbu families
def _who(names: Sequence[str], s: int, w: Words = ENGLISH) -> str:
    return names[s] or _seat(w, s, len(names))


def short_names(names: Sequence[str], w: Words = ENGLISH) -> list[str]:
    """Names short enough for a doubling note: the first three letters when they tell the players apart."""
    full = [_who(names, s, w) for s in range(len(names))]
    short = [x[:3] if names[s] else f"s{s}" for s, x in enumerate(full)]
    return short if len(set(short)) == len(short) else full


def _doubles_text(r: DealResult, names: Sequence[str], w: Words = ENGLISH) -> str:
    """Who doubled whom, grouped by doubler: ``Ann ×Bob ×Cy×× · Dan ×Bob`` (×× a redouble)."""
    short = short_names(names, w)
    groups: dict[int, list[str]] = {}
    for b in r.doubles:
        groups.setdefault(b.doubler, []).append(f"×{short[b.doubled]}" + ("××" if b.redoubled else ""))
    return " · ".join(f"{short[d]} {' '.join(t)}" for d, t in sorted(groups.items()))


def _deal_detail(r: DealResult, contract: Any, names: Sequence[str], quick: bool, w: Words = ENGLISH) -> str:
    _ = w.gettext
    bits = []
    if r.trump is not None:
        bits.append(_("trumps {suit}").format(suit=SUIT_SYMBOLS[r.trump]))
    elif contract is not None and contract.trump:
        bits.append(_("no trumps"))
    if r.rank is not None:
        bits.append(_("from {rank}").format(rank=w.rank_letter(RANKS[r.rank].replace("T", "10"))))
    if r.declarer != r.dealer and not quick:
        bits.append(_("chosen by {name}").format(name=_who(names, r.declarer, w)))
    if r.doubles:
        bits.append(_doubles_text(r, names, w))
    if not r.played:
        bits.append(_("nobody doubled: not played, shared"))
    return "; ".join(bits)


def _deal_cells(r: DealResult, w: Words = ENGLISH) -> tuple[Cell, ...]:
    return tuple(Cell(points(x, signed=True, words=w), sign=_sign(x)) for x in r.scores)


def _barbu(
    rules: Ruleset,
    names: tuple[str, ...],
    results: list[DealResult],
    notes: Mapping[int, tuple[str, ...]],
    w: Words = ENGLISH,
) -> Sheet:
    _ = w.gettext
    fam = rules.family_spec
    contracts = fam.contracts(rules)
    by_key = {c.key: c for c in contracts}
    n = rules.players
    total_deals = n * len(contracts)
    quick = rules.rotation == "quick"
    first = results[0].dealer if results else 0
    used: set[int] = set()
    blocks: list[Block] = []
    totals = [0] * n
    run = [0] * n

    def deal_row(r: DealResult) -> Row:
        used.add(r.number)
        c = by_key.get(r.contract)
        return Row(
            w.contract(c.name) if c else r.contract,
            _deal_cells(r, w),
            _deal_detail(r, c, names, quick, w),
            "deal",
            r.number,
            notes.get(r.number, ()),
        )

    def total_row(label: str, values: Sequence[Any], signed: bool = False) -> Row:
        return Row(label, tuple(Cell(points(x, signed, w), sign=_sign(x) if signed else 0) for x in values), kind="sum")

    if quick:
        rows: list[Row] = []
        for k in range(total_deals):
            chooser = (first + k) % n
            if k < len(results):
                r = results[k]
                run = _add(run, r.added)
                row = deal_row(r)
                cells = tuple(Cell(c.text, points(t, words=w), sign=c.sign) for c, t in zip(row.cells, run))
                rows.append(
                    Row(
                        _("{name}: {contract}").format(name=_who(names, r.declarer, w), contract=row.label),
                        cells,
                        row.detail,
                        "deal",
                        r.number,
                        row.notes,
                    )
                )
            else:
                rows.append(
                    Row(
                        _("{name} chooses").format(name=names[chooser]) if names[chooser] else "",
                        tuple(Cell() for _s in range(n)),
                        kind="open",
                        number=k + 1,
                    )
                )
        blocks.append(Block(_("Deal by deal (points, running total under them)"), tuple(rows)))
        totals = run
        marks = [["" for _ in contracts] for _ in range(n)]
        col = {c.key: i for i, c in enumerate(contracts)}
        for r in results:
            if r.contract in col:
                marks[r.declarer][col[r.contract]] = f"✕{r.number}"
        grid = Grid(
            _("Contracts chosen (a cross and the deal number for each)"),
            tuple(w.contract(c.name) for c in contracts),
            tuple(names[s] or ("" if not results else _seat(w, s, n)) for s in range(n)),
            tuple(tuple(m) for m in marks),
        )
    else:
        grid = None
        by_series: dict[int, list[DealResult]] = {}
        for r in results:
            by_series.setdefault(r.declarer, []).append(r)
        for i in range(n):
            dealer = (first + i) % n
            own = by_series.get(dealer, [])
            played = {r.contract: r for r in own}
            rows = []
            for c in contracts:
                got = played.get(c.key)
                if got is None:
                    rows.append(Row(w.contract(c.name), tuple(Cell() for _s in range(n)), kind="open"))
                else:
                    rows.append(deal_row(got))
            if own:
                series_sum = [0] * n
                for r in own:
                    series_sum = _add(series_sum, r.scores)
                rows.append(total_row(_("Series"), series_sum, signed=True))
                bonus = [r.series for r in own if r.series]
                if bonus:
                    rows.append(total_row(_("Series points"), bonus[0], signed=True))
                for r in own:
                    run = _add(run, r.added)
                rows.append(total_row(_("Running total"), run))
            else:
                rows.append(Row(_("Series"), tuple(Cell() for _s in range(n)), kind="sum"))
                if fam.series_end is not None:
                    rows.append(Row(_("Series points"), tuple(Cell() for _s in range(n)), kind="sum"))
                rows.append(Row(_("Running total"), tuple(Cell() for _s in range(n)), kind="sum"))
            who = names[dealer] or _seat(w, dealer, n)
            blocks.append(
                Block(
                    _("{name} deals and declares").format(name=who)
                    if names[dealer] or results
                    else _("Dealer: ________________"),
                    tuple(rows),
                )
            )
        totals = run
    legend = [
        _(
            "Points as the deal scored them, doubles settled. Doubles: “Ann ×Bob” means Ann doubled Bob, "
            "×× that Bob redoubled."
        )
    ]
    if fam.series_end is not None:
        legend.append(
            _(
                "Series points: after each dealer's series, 110 each plus placement points (+50, +25, -25, "
                "-50) by the series' scores; a dealer third pays 75, fourth 150, shared by the others."
            )
        )
    legend.append(_("Highest total wins.") if fam.highest_wins else _("Lowest total wins."))
    if quick:
        legend.append(_("The choice passes left every deal; each player chooses each contract once."))
    if not all(r.played for r in results):
        legend.append(_("A negative deal nobody doubled is not played: its points are shared by the non-dealers."))
    return Sheet(
        title=_("Barbu score sheet — {family}").format(family=w.gettext(fam.description)),
        rules=str(rules),
        game=rules.family,
        names=names,
        columns=tuple(_who(names, s, w) if names[s] else "" for s in range(n)),
        label_heading=_("Contract"),
        detail_heading=_("Trumps, rank, doubles") if rules.doubling != "none" else _("Trumps or rank"),
        blocks=tuple(blocks),
        grid=grid,
        totals=tuple(points(x, words=w) for x in totals) if results else (),
        standings=_standings(names if results else tuple(_seat(w, s, n) for s in range(n)), totals, fam.highest_wins, w)
        if results and len(results) >= total_deals
        else (),
        chart=_chart([r.added for r in results], n) if results else (),
        chart_length=total_deals,
        subtitle=_status(w, results, total_deals),
        legend=tuple(legend),
        notes=_notes_left(notes, used, w),
        blank=not results,
        lang=w.lang,
    )


# ---------------------------------------------------------------- the Scottish game
def _glyphs(glyphs: Sequence[Any], seat: int, call: str | None) -> str:
    """A seat's glyphs beside one call's points (or the whole round's, call None): ``Egg, Spider``."""
    return ", ".join(GLYPH_NAMES[g.name] for g in glyphs if g.seat == seat and g.call == call)


def _scottish(
    rules: Ruleset,
    names: tuple[str, ...],
    results: list[DealResult],
    notes: Mapping[int, tuple[str, ...]],
    w: Words = ENGLISH,
) -> Sheet:
    _ = w.gettext
    n = rules.players
    calls = len(SCOTTISH_CALLS)
    filled: ScottishSheet = sheet_from_results(results, n)
    blocks: list[Block] = []
    first_caller = 0
    for r in results:
        if r.scottish is not None and r.scottish.caller is not None:
            first_caller = (r.scottish.caller - (r.scottish.round_no - 1)) % n
            break
    deals_by_round: dict[tuple[int, int], list[DealResult]] = {}
    for r in results:
        if r.scottish is not None:
            deals_by_round.setdefault((r.scottish.set_no, r.scottish.round_no), []).append(r)
    used: set[int] = set()
    sets = {st.number: st for st in filled.sets}
    for set_no in range(1, max(rules.sets, max(sets, default=0)) + 1):
        st = sets.get(set_no)
        rounds = {r.round_no: r for r in st.rounds} if st else {}
        rows: list[Row] = []
        for round_no in range(1, 6):
            sr = rounds.get(round_no)
            silly = round_no == 5
            caller = sr.caller if sr else (None if silly else (first_caller + round_no - 1) % n)
            label = _("Silly Round (cut calls)") if silly else _("Player Round {n}").format(n=round_no)
            if caller is not None and (names[caller] or results):
                label = _("{round} — {name} calls").format(round=label, name=_who(names, caller, w))
            round_notes: list[str] = []
            for r in deals_by_round.get((set_no, round_no), []):
                used.add(r.number)
                round_notes.extend(_deal_note(w, r.number, t) for t in notes.get(r.number, ()))
            if sr and not sr.complete:
                label = _("{part} (in progress)").format(part=label)
            rows.append(Row(label, kind="heading", notes=tuple(round_notes)))
            for s in range(n):
                if sr is None:
                    rows.append(
                        Row(
                            _who(names, s, w) if names[s] or results else "",
                            tuple(Cell() for _c in range(calls + 2)),
                            kind="open",
                        )
                    )
                    continue
                cells = [
                    Cell(points(x, True, w) if x else "·", glyphs=_glyphs(sr.glyphs, s, call), sign=_sign(x))
                    for x, call in zip(sr.cells[s], SCOTTISH_CALLS)
                ]
                cells.append(Cell(points(sr.totals[s], True, w), sign=_sign(sr.totals[s])))
                cells.append(Cell(points(sr.running[s], words=w)))
                whole = _glyphs(sr.glyphs, s, None)
                rows.append(Row(_who(names, s, w), tuple(cells), detail=whole, kind="deal"))
        rows.append(Row(_("Set {n} result: total, overall running score, position").format(n=set_no), kind="heading"))
        for s in range(n):
            if st is None:
                rows.append(
                    Row(
                        _who(names, s, w) if names[s] or results else "",
                        tuple(Cell() for _c in range(calls + 2)),
                        kind="sum",
                    )
                )
                continue
            sums = tuple(Cell() for _c in range(calls)) + (
                Cell(points(st.totals[s], True, w), sign=_sign(st.totals[s])),
                Cell(points(st.overall[s], words=w)),
            )
            rows.append(
                Row(
                    _who(names, s, w),
                    sums,
                    kind="sum",
                    detail=_("{place} in the Set").format(place=place(st.positions[s], w)),
                )
            )
        title = _("Set {n}").format(n=set_no)
        blocks.append(
            Block(title if not st or st.complete else _("{part} (in progress)").format(part=title), tuple(rows))
        )
    set_lines = []
    for st in filled.sets:
        set_lines.append(
            _("Set {n}: {scores}").format(
                n=st.number,
                scores=", ".join(
                    f"{_who(names, s, w)} {points(st.totals[s], True, w)} ({place(st.positions[s], w)})"
                    for s in range(n)
                ),
            )
        )
    totals = filled.sets[-1].overall if filled.sets else ()
    total_deals = 0  # a Set's length depends on the calls (combinations, the Silly Round's cuts)
    over = bool(filled.sets) and len(filled.sets) == rules.sets and all(s.complete for s in filled.sets)
    legend = (
        _("Points per call; · an empty cell. Glyphs (the booklet's Language of Barbu) beside the points."),
        _("Highest total wins."),
    )
    return Sheet(
        title=_("Scottish Barbu score sheet (Set sheet)"),
        rules=str(rules),
        game="scottish",
        names=names,
        columns=(*(w.contract(c) for c in COLUMN_NAMES), _("Round"), _("Running")),
        label_heading=_("Player"),
        detail_heading=_("Round glyphs"),
        blocks=tuple(blocks),
        totals=tuple(points(x, words=w) for x in totals),
        standings=_standings(names, totals, True, w) if over else (),
        chart=_chart([r.added for r in results], n) if results else (),
        chart_length=total_deals,
        subtitle=(_status(w, results, 0, over) + (f"; {'; '.join(set_lines)}" if set_lines else "")),
        legend=legend,
        notes=_notes_left(notes, used, w),
        blank=not results,
        lang=w.lang,
    )


# ---------------------------------------------------------------- Bésigue
#: A player's columns on the Bésigue sheet, and their widths relative to each other.
BESIGUE_COLUMNS = (
    (N_("Declarations"), 2.6),
    (N_("7s"), 0.7),
    (N_("Brisques"), 1.0),
    (N_("Last"), 0.75),
    (N_("Deal"), 0.95),
    (N_("Total"), 1.1),
)
#: Blank Bésigue sheets have this many rows (a game to 1000 rarely takes more).
BLANK_BESIGUE_DEALS = 14


def _besigue(
    rules: BesigueRules,
    names: tuple[str, ...],
    results: list[dict[str, Any]],
    notes: Mapping[int, tuple[str, ...]],
    w: Words = ENGLISH,
) -> Sheet:
    """One row per deal, each player's columns side by side: his declarations, the sevens of trumps, brisques
    and last trick (10 each), the deal's score and his running total."""
    _ = w.gettext
    rows: list[Row] = []
    used: set[int] = set()
    width = len(BESIGUE_COLUMNS)
    for i, r in enumerate(results):
        number = int(r.get("deal", i + 1))
        used.add(number)
        cells: list[Cell] = []
        for s in (0, 1):
            melds = r["melds"][s]
            last = 10 if r["last_trick"] == s else 0
            if "sevens" in r:
                sevens = r["sevens"][s]
            else:  # a played game's result: the rest of the deal's score is the sevens of trumps
                sevens = r["scores"][s] - sum(v for _, v in melds) - r["brisques"][s] - last
            cells += [
                Cell("\n".join(f"{_(MELD_LABELS[k]) if k in MELD_LABELS else k} {v}" for k, v in melds) or "—"),
                Cell(points(sevens, words=w) if sevens else "—"),
                Cell(points(r["brisques"][s], words=w)),
                Cell("10" if last else "—"),
                Cell(points(r["scores"][s], words=w)),
                Cell(points(r["totals"][s], words=w), strong=True),
            ]
        rows.append(
            Row(
                _("{name} deals").format(name=_who(names, r["dealer"], w)),
                tuple(cells),
                kind="deal",
                number=number,
                notes=notes.get(number, ()),
            )
        )
    for k in range(len(results), max(len(results) + 3, BLANK_BESIGUE_DEALS)):
        dealer = (
            (results[0]["dealer"] if results else 0) if k % 2 == 0 else 1 - (results[0]["dealer"] if results else 0)
        )
        rows.append(
            Row(
                _("{name} deals").format(name=names[dealer]) if names[dealer] else "",
                tuple(Cell() for _c in range(2 * width)),
                kind="open",
                number=k + 1,
            )
        )
    totals: Sequence[int] = results[-1]["totals"] if results else ()
    over = bool(results) and max(totals) >= rules.target and totals[0] != totals[1]
    if over:
        rows = [r for r in rows if r.kind != "open"]
    target = w.number(rules.target)
    legend = (
        _("The game ends at the end of the deal in which a player reaches {target}; the higher total wins.").format(
            target=target
        ),
        _("Declarations: {list}.").format(list=", ".join(f"{_(MELD_LABELS[k])} {v}" for k, v in MELD_VALUES.items())),
        _("Brisques: each ace and ten won, 10; the last trick 10; each 7 of trumps 10.")
        if rules.brisques == "aces_and_tens"
        else _("Brisques: each ace won, 10; the last trick 10; each 7 of trumps 10."),
    )
    columns = tuple(_(c) for _s in (0, 1) for c, _w in BESIGUE_COLUMNS)
    return Sheet(
        title=_("Bésigue score sheet"),
        rules=str(rules),
        game="besigue",
        names=names,
        columns=columns,
        label_heading=_("Deal"),
        blocks=(Block(_("Deal by deal"), tuple(rows)),),
        totals=tuple(points(x, words=w) for x in totals),
        standings=_standings(names, totals, True, w) if over else (),
        chart=_chart([r["scores"] for r in results], 2) if results else (),
        chart_length=0,
        subtitle=_("{status}; target {target}").format(status=_status(w, results, 0, over), target=target),
        legend=legend,
        notes=_notes_left(notes, used, w),
        blank=not results,
        groups=tuple((_who(names, s, w) if names[s] else _("Player {n}").format(n=s + 1), width) for s in (0, 1)),
        weights=tuple(x for _s in (0, 1) for _c, x in BESIGUE_COLUMNS),
        total_columns=(width - 1, 2 * width - 1),
        lang=w.lang,
    )


# ---------------------------------------------------------------- blank sheets
def blank_sheets() -> list[tuple[str, int]]:
    """Every (preset, player count) a blank sheet can be printed for."""
    from ..besigue.ruleset import PRESETS as BESIGUE_PRESETS
    from ..classic.ruleset import presets

    out = [(p.name, k) for p in presets() for k in p.ruleset.family_spec.players]
    out.extend((name, 2) for name in BESIGUE_PRESETS)
    return out


__all__ = ["Cell", "Row", "Block", "Grid", "Standing", "Sheet", "sheet_for", "points", "blank_sheets"]
