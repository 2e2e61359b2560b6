"""A deal's double-dummy table as the command line prints it: ``barbu show --deal N --dd`` and ``barbu analyze``.

The table itself comes from `barbu.analysis.ddtable`; here it is solved under a
progress line and printed: a row per contract (worded as `contract_label` words
it everywhere on the command line), a column per seat, the contract played
marked.  A cell the solver finished is a plain number; one it did not is shown
in words as what it proved ("at least -8, no more than -4", "at least -8", "no more than -4", or "not proved:
between -26 and 0", the points still to take), never guessed.  The cells are solved on every core
(`dd_table`'s process pool).
"""

from __future__ import annotations

import argparse
import math

from rich import box
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from ..analysis.ddtable import DEFAULT_CELL_SECONDS, Cell, DDTable, dd_table
from ..classic.match import Match
from ..core.cards import RANKS, SUIT_SYMBOLS
from ..i18n import _, number, words
from .wording import contract, seat, seat_head

#: The mark of the contract chosen in the game, in its row.
CHOSEN = "▶"


def contract_label(m: Match, key: str, trump: int | None, rank: int | None, played: bool = True) -> str:
    """A contract as the command line names it: its name, its trump suit (or no-trump), its starting rank."""
    label = contract(m.contract_by_key[key].name)
    if trump is not None:
        label += f" {SUIT_SYMBOLS[trump]}"
    elif m.contract_by_key[key].trump:
        label += " " + _("no-trump")
    if rank is not None:
        label += " " + _("from {rank}").format(rank=words().rank_letter(RANKS[rank].replace("T", "10")))
    if not played:
        label += " " + _("(not played)")
    return label


def cell_seconds(text: str) -> float:
    """``--dd-seconds``: the time each cell of the table may take, a number greater than 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("'{value}' is not a number of seconds").format(value=text)) from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(
            _("the time for each cell is a number of seconds greater than 0, not {value}").format(value=text)
        )
    return value


def not_covered(m: Match) -> str | None:
    """Why a match's deals get no double-dummy table, or None when they do."""
    if m.rules.family == "scottish":
        return _(
            "the double-dummy table is not available for the Scottish game (only for the Barbu games: "
            "classic, Italian and French)"
        )
    return None


def cell_text(c: Cell) -> str:
    """A cell: its value when exact, else in words what the solver proved of it in its time."""
    if c.exact:
        return number(c.least)
    low, high = c.proved_least, c.proved_most
    if low is not None and high is not None:
        return _("at least {least}, no more than {most}").format(least=number(low), most=number(high))
    if low is not None:
        return _("at least {least}").format(least=number(low))
    if high is not None:
        return _("no more than {most}").format(most=number(high))
    if c.floor is not None and c.ceiling is not None:
        return _("not proved: between {low} and {high}").format(low=number(c.floor), high=number(c.ceiling))
    return _("not proved")


def solve(start: Match, seconds: float, chosen: tuple[str, int | None] | None, console: Console, deal: int) -> DDTable:
    """The deal's table, solved under a progress line on ``console`` (none when it is not a terminal)."""
    with console.status(_("solving the double-dummy table of deal {deal}…").format(deal=number(deal))) as status:

        def progress(done: int, total: int) -> None:
            status.update(
                _("solving the double-dummy table of deal {deal}: cell {done} of {total}…").format(
                    deal=number(deal), done=number(done + 1 if done < total else total), total=number(total)
                )
            )

        table = dd_table(start, seconds=seconds, chosen=chosen, progress=progress)
    return table


def render(m: Match, table: DDTable, seconds: float, played: str | None = None) -> Group:
    """The table and its footnote (what a cell means, what a range means, the contracts left out, the one
    ``played`` marked among them when it was one)."""
    title = (
        _("Double-dummy table, deal {n} (declarer: {seat})").format(n=number(table.deal), seat=seat(table.declarer))
        if table.declarer is not None
        else _("Double-dummy table, deal {n}").format(n=number(table.deal))
    )
    t = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    t.add_column("", width=1, no_wrap=True)
    t.add_column(_("contract"))
    for s in range(len(table.hands)):
        t.add_column(seat_head(s) + (" ★" if s == table.declarer else ""), justify="right")
    for row in table.rows:
        t.add_row(
            CHOSEN if row.chosen else "",
            contract_label(m, row.contract, row.trump, None),
            *(Text(cell_text(c), style="" if c.exact else "dim") for c in row.cells),
            style="bold" if row.chosen else None,
        )
    notes = [
        _(
            "Each cell: what that seat scores at that contract (doubles left out) when it plays its best "
            "and all the others play against it, with every hand shown."
        ),
    ]
    if not table.exact:
        notes.append(
            # TRANSLATORS: {time} is a number of seconds with its unit, e.g. "2 s".
            _(
                "Where the solver ran out of its time for a cell ({time} each, --dd-seconds), the cell says what it "
                "proved: at least so much, no more than so much, or nothing beyond the points still to take."
            ).format(time=_seconds(seconds) + "\u00a0s")
        )
    if not table.rows:  # the declarer's last choice of his series was a layout game
        notes.insert(0, _("No contract with trick play was left to the declarer at this deal."))
    marks = []
    if any(r.chosen for r in table.rows) or played in table.left_out:
        marks.append(_("{mark} the contract chosen in the game").format(mark=CHOSEN))
    if table.declarer is not None:
        marks.append(_("★ the declarer"))
    if marks:
        notes.append(" · ".join(marks))  # no punctuation of a language's own between them
    if table.left_out:
        notes.append(
            _("Not in the table, having no trick play: {contracts}.").format(
                contracts=", ".join(
                    (f"{CHOSEN} " if k == played else "") + contract(m.contract_by_key[k].name) for k in table.left_out
                )
            )
        )
    return Group(t, *(Text(n, style="dim") for n in notes))


def _seconds(x: float) -> str:
    return number(round(x, 3)) if x != int(x) else number(int(x))


def print_dd(
    console: Console,
    start: Match,
    seconds: float = DEFAULT_CELL_SECONDS,
    chosen: tuple[str, int | None] | None = None,
    status: Console | None = None,
) -> None:
    """Solve the table of the deal ``start`` is at and print it (the progress line on ``status``)."""
    table = solve(start, seconds, chosen, status or console, len(start.results) + 1)
    console.print(render(start, table, seconds, chosen[0] if chosen else None))


def chosen_of(m: Match, deal: int) -> tuple[str, int | None] | None:
    """The contract (and trump suit) played at deal ``deal`` of a replayed match, as the table's rows name it."""
    if not 1 <= deal <= len(m.results):
        return None
    r = m.results[deal - 1]
    return r.contract, r.trump
