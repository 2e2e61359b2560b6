"""A kept game as a scorer reads it on paper: the sheet, the standings, a chart of the totals and the flags.

The same rows feed the terminal app's table and ``barbu score show``; every
number is the keeper's (the engine's scoring), nothing is added up here but
the running totals the sheet prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..core.cards import RANKS, SUIT_SYMBOLS
from ..i18n import _, ngettext, number, words
from ..play.labels import signed
from ..scorekeeper import AnyKeeper, BesigueKeeper, Keeper
from ..scorekeeper.refusals import warning_notes, word_note


def figure(x: Any) -> str:
    """A score or total as the player's language writes it (an italian-six share like 25/2 as it is)."""
    return number(x) if isinstance(x, int) else str(x)


BLOCKS = "▁▂▃▄▅▆▇█"
PALETTE = ("bright_cyan", "bright_magenta", "bright_yellow", "bright_green", "bright_red", "bright_blue")


@dataclass
class SheetRow:
    """One deal on the sheet: its number, who dealt, what was played, the doubles, the points and totals."""

    number: int
    dealer: str
    contract: str
    doubles: str
    scores: list[Any]
    totals: list[Any]
    block: int  # rows of one block (one dealer's contracts, one Round) share a number
    flagged: bool = False


def initials(names: Sequence[str]) -> list[str]:
    """The shortest prefix that tells the players apart, for the doubles column (``A``, ``B``… or ``An``, ``Al``)."""
    for k in range(1, max(len(x) for x in names) + 1):
        short = [x[:k] for x in names]
        if len({s.lower() for s in short}) == len(short):
            return short
    return list(names)


def doubles_text(doubles: Sequence[Any], names: Sequence[str]) -> str:
    """``B→A`` for Bob doubled Ann, ``B⇄A`` when Ann redoubled."""
    short = initials(names)
    return " ".join(f"{short[b.doubler]}{'⇄' if b.redoubled else '→'}{short[b.doubled]}" for b in doubles)


def contract_text(keeper: Keeper, r: Any) -> str:
    """The contract as written on the sheet: ``Trumps ♠``, ``Domino from J``, ``Aces + Queens``."""
    c = keeper.match.contract_by_key.get(r.contract)
    w = words()
    label = w.contract(c.name) if c is not None else r.contract
    if r.trump is not None:
        label += f" {SUIT_SYMBOLS[r.trump]}"
    elif c is not None and c.trump:
        label += " " + _("NT")
    if r.rank is not None:
        label += " " + _("from {rank}").format(rank=w.rank_letter(RANKS[r.rank].replace("T", "10")))
    if not r.played:
        label += " " + _("(not played)")
    return label


def running_totals(keeper: AnyKeeper) -> list[list[Any]]:
    """The totals after each deal, one list per deal."""
    if isinstance(keeper, BesigueKeeper):
        return [list(r["totals"]) for r in keeper.results]
    return [keeper.match.totals_after(r.number) for r in keeper.results]


def has_doubles(keeper: AnyKeeper) -> bool:
    """Whether the game's sheet has a doubles column (Bésigue and the Scottish game have no doubling)."""
    return not isinstance(keeper, BesigueKeeper) and keeper.rules.doubling != "none"


def sheet_rows(keeper: AnyKeeper) -> list[SheetRow]:
    names = keeper.names
    totals = running_totals(keeper)
    rows: list[SheetRow] = []
    if isinstance(keeper, BesigueKeeper):
        for i, d in enumerate(keeper.results):
            declared = "/".join(str(sum(v for _, v in m)) for m in d["melds"])
            short = initials(names)
            rows.append(
                SheetRow(
                    d["deal"],
                    names[d["dealer"]],
                    _("decl. {points} · last {name}").format(points=declared, name=short[d["last_trick"]]),
                    "",
                    list(d["scores"]),
                    totals[i],
                    i,
                )
            )
        return rows
    block, last = -1, None
    for i, r in enumerate(keeper.results):
        sc = r.scottish
        key = (sc.set_no, sc.round_no, sc.silly) if sc is not None else r.dealer
        if key != last:
            block, last = block + 1, key
        contract = contract_text(keeper, r)
        if sc is not None:
            where = _("Silly") if sc.silly else _("R{n}").format(n=sc.round_no)
            contract = _("S{n}").format(n=sc.set_no) + f" {where} {contract}"
        rows.append(
            SheetRow(
                r.number,
                names[r.dealer],
                contract,
                doubles_text(r.doubles, names),
                list(r.added),
                totals[i],
                block,
                bool(warning_notes(keeper.flags.get(r.number, ()))),
            )
        )
    return rows


def standings_rows(keeper: AnyKeeper) -> list[tuple[int, str, Any, Any]]:
    """(place, name, total, behind the leader) best first; equal totals share a place."""
    out: list[tuple[int, str, Any, Any]] = []
    st = keeper.standings()
    for i, (seat, total) in enumerate(st):
        place = i + 1 if i == 0 or total != st[i - 1][1] else out[-1][0]
        out.append((place, keeper.names[seat], total, abs(total - st[0][1])))
    return out


def chart_lines(keeper: AnyKeeper, width: int = 40) -> list[Text]:
    """Each player's running total over the game as a line of blocks on one common scale (the last ``width`` deals)."""
    series = running_totals(keeper)[-width:]
    if not series:
        return [Text(_("No deal yet."), style="dim")]
    values = [x for t in series for x in t] + [0]
    lo, hi = min(values), max(values)
    span = (hi - lo) or 1
    pad = max(len(x) for x in keeper.names)
    out = []
    for s, name in enumerate(keeper.names):
        line = Text(f"{name:<{pad}} ")
        blocks = "".join(BLOCKS[min(7, int((t[s] - lo) * 8 / span))] for t in series)
        line.append(blocks, style=PALETTE[s % len(PALETTE)])
        line.append(f" {figure(series[-1][s])}")
        out.append(line)
    out.append(
        Text(f"{'':<{pad}} " + _("{low} … {high}, a block a deal").format(low=figure(lo), high=figure(hi)), style="dim")
    )
    return out


def flag_lines(keeper: AnyKeeper) -> list[str]:
    w = words()
    return [
        _("deal {n}: {note}").format(n=n, note=word_note(note, w))
        for n, notes in sorted(keeper.flags.items())
        for note in warning_notes(notes)
    ]


def scottish_sheet_lines(keeper: AnyKeeper) -> list[str]:
    """The Scottish game's Set sheet, glyph names beside the points (the booklet's layout); [] for other games."""
    if isinstance(keeper, BesigueKeeper) or keeper.rules.family != "scottish" or not keeper.results:
        return []
    from ..scottish.scoresheet import sheet_from_results, sheet_lines

    return sheet_lines(sheet_from_results(keeper.results, keeper.n), keeper.names, words())


def game_line(keeper: AnyKeeper) -> str:
    """``classic, 4 players — 12 of 28 deals`` as the sheet's title."""
    total = getattr(keeper.match, "total_deals", None) if not isinstance(keeper, BesigueKeeper) else None
    played = len(keeper.results)
    if isinstance(keeper, BesigueKeeper):
        progress = ngettext("{n} deal(s), to {target}", "{n} deal(s), to {target}", played).format(
            n=number(played), target=number(keeper.rules.target)
        )
    else:
        progress = ngettext("{n} of {total} deals", "{n} of {total} deals", played).format(
            n=number(played), total=number(total or 0)
        )
    over = " — " + _("game over") if keeper.is_over else ""
    return f"{keeper.rules} — {progress}{over}"


def sheet_table(keeper: AnyKeeper, title: str = "") -> Table:
    """The sheet as a Rich table: a row per deal, a block per dealer (or Round), points and running totals."""
    t = Table(title=title or game_line(keeper), title_justify="left", expand=False, pad_edge=False)
    t.add_column("#", justify="right")
    t.add_column(_("dealer"))
    t.add_column(_("contract"))
    doubles = has_doubles(keeper)
    if doubles:
        t.add_column(_("doubles"))
    for name in keeper.names:
        t.add_column(name, justify="right", no_wrap=True)
    block = 0
    for row in sheet_rows(keeper):
        if row.block != block:
            t.add_section()
            block = row.block
        cells = [str(row.number) + ("!" if row.flagged else ""), row.dealer, row.contract]
        if doubles:
            cells.append(row.doubles)
        cells += [f"{signed(x)} = {figure(tot)}" for x, tot in zip(row.scores, row.totals)]
        t.add_row(*cells)
    return t


def standings_table(keeper: AnyKeeper) -> Table:
    t = Table(title=_("Standings (final)") if keeper.is_over else _("Standings"), title_justify="left")
    t.add_column("", justify="right")
    t.add_column(_("player"))
    t.add_column(_("total"), justify="right")
    t.add_column(_("behind"), justify="right")
    for place, name, total, behind in standings_rows(keeper):
        t.add_row(str(place), name, figure(total), figure(behind) if behind else "")
    return t


def side_panel(keeper: AnyKeeper, with_sheet: bool = False) -> Group:
    """Standings, a chart of the totals, the flags and (Scottish game) the Set sheet with its glyphs."""
    lines = [Text(_("Standings (final)") if keeper.is_over else _("Standings"), style="bold")]
    for place, name, total, behind in standings_rows(keeper):
        row = Text(f"{place}. {name:<10} {figure(total):>6}")
        if behind:
            row.append(f" (-{figure(behind)})", style="dim")
        lines.append(row)
    lines += [Text(""), Text(_("Totals over the game"), style="bold"), *chart_lines(keeper, 24)]
    flags = flag_lines(keeper)
    if flags:
        lines += [Text(""), Text(_("Flags"), style="bold yellow"), *(Text(f"! {f}", style="yellow") for f in flags)]
    if with_sheet:
        sheet = scottish_sheet_lines(keeper)
        if sheet:
            lines += [
                Text(""),
                Text(_("Set sheet (glyphs beside the points)"), style="bold"),
                Text("\n".join(sheet), no_wrap=True),
            ]
    elif keeper.game == "barbu" and keeper.rules.family == "scottish":
        lines += [Text(""), Text.from_markup(_("[b]S[/b]: the Set sheet with its glyphs"))]
    return Group(*lines)


def full_sheet(keeper: AnyKeeper, title: str = "") -> Group:
    """Everything ``barbu score show`` prints: sheet, Set sheet, standings, chart and flags."""
    parts: list[Any] = [sheet_table(keeper, title)]
    lines = scottish_sheet_lines(keeper)
    if lines:
        parts += [Text(_("Set sheet (glyphs beside the points):"), style="bold"), Text("\n".join(lines))]
    parts += [standings_table(keeper), Text(_("Totals over the game"), style="bold"), *chart_lines(keeper)]
    flags = flag_lines(keeper)
    if flags:
        parts += [Text(_("Flags"), style="bold"), *(Text("! " + f) for f in flags)]
    return Group(*parts)
