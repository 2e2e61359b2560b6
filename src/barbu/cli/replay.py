"""``barbu replay`` (a record deal by deal, its totals and whether every stated score is right) and
``barbu show`` (one deal of a record, or the whole record as text)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich import box
from rich.table import Table

from ..analysis.ddtable import DEFAULT_CELL_SECONDS, deal_start
from ..classic.chinese import describe as describe_arrangement
from ..classic.match import Match
from ..core.actions import Lay, Pass
from ..games import record_kind
from ..guide.ruleset_words import game_name
from ..i18n import _, number, words
from ..play.names import record_names
from ..records.barbu import (
    deals_with_actions,
    read_record,
    replay,
    text_form,
    trick_winner,
    verify_deals,
    with_daily_key,
)
from .common import besigue_commands, console, err, error
from .ddview import cell_seconds, chosen_of, contract_label, not_covered, print_dd
from .sheets import add_sheet_arguments
from .textplay import double_words
from .wording import (
    card,
    cards,
    contract,
    cut_reason,
    deals_count,
    hand,
    no_such_deal,
    seat,
    seat_head,
    seat_names,
    seat_short,
    signed,
)


def add_replay_arguments(rp: argparse.ArgumentParser) -> None:
    rp.add_argument("record")
    rp.add_argument(
        "--daily-key",
        metavar="HEX",
        help=_("a daily deal's record: the day's published key, to check its deal with (when the record has none)"),
    )
    add_sheet_arguments(rp, replay=True)
    rp.set_defaults(func=cmd_replay)


def add_show_arguments(sh: argparse.ArgumentParser) -> None:
    sh.add_argument("record")
    sh.add_argument("--deal", type=int, help=_("the deal number (1-based)"))
    sh.add_argument(
        "--dd",
        action="store_true",
        help=_(
            "with --deal: add the deal's double-dummy table, what each seat scores at each contract with every "
            "hand shown (Barbu games)"
        ),
    )
    sh.add_argument(
        "--dd-seconds",
        type=cell_seconds,
        default=DEFAULT_CELL_SECONDS,
        metavar="S",
        help=_(
            "with --dd: the solver's time for each cell of the table, in seconds (default {n}); a cell it does not "
            "finish is shown as a range"
        ).format(n=f"{DEFAULT_CELL_SECONDS:g}"),
    )
    sh.set_defaults(func=cmd_show)


# ---------------------------------------------------------------- replay
def cmd_replay(args: argparse.Namespace) -> int:
    if getattr(args, "sheet", None):
        from .sheets import replay_sheet

        return replay_sheet(args, console, err)
    if record_kind(args.record).name == "besigue":
        return besigue_commands().cmd_replay(args, console, err)
    record = read_record(args.record)
    if getattr(args, "daily_key", None):  # a daily deal's record kept before its day's key was published
        record.header = with_daily_key(record.header, args.daily_key)
    rep = replay(record)
    with seat_names(record_names(record.header, rep.match.n)):  # the players as people read them, never numbers
        return print_replay(args, record, rep)


def print_replay(args: argparse.Namespace, record, rep) -> int:
    """The record deal by deal: each seat's points over the running total, then whether it is consistent."""
    m = rep.match
    if m.rules.family == "scottish":
        print_scottish_replay(args.record, m)
        return finish_replay(m, rep) or report_deals_verified(record)
    # Narrow enough for 80 columns with four players: each seat's cell is the deal's points over the
    # running total; the doubles are counted here and listed by `barbu show --deal N`.
    running = m.n <= 4  # room for the running totals in every row
    t = Table(
        title=f"{Path(args.record).name} — {game_name(m.rules, words())}",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
        caption=(_("each seat: points this deal / running total") if running else _("points per deal"))
        + _("; dbl: doubles (barbu show --deal N lists them)"),
    )
    # TRANSLATORS: column heads of the replay table, kept short (80 columns): deal number, dealer, doubles.
    t.add_column(_("deal"), justify="right")
    t.add_column(_("dlr"), justify="right")
    t.add_column(_("contract"), max_width=14)
    t.add_column(_("dbl"), justify="right")
    for s in range(m.n):
        t.add_column(seat_head(s), justify="right", no_wrap=True)
    for r in m.results:
        totals = m.totals_after(r.number)
        cells = [signed(x) + (f" / {number(tot)}" if running else "") for x, tot in zip(r.added, totals)]
        t.add_row(
            str(r.number),
            seat_short(r.dealer),
            contract_label(m, r.contract, r.trump, r.rank, r.played),
            str(len(r.doubles)) if r.doubles else "-",
            *cells,
        )
    if not running:
        t.add_section()
        t.add_row("", "", _("totals"), "", *(number(x) for x in m.totals))
    console.print(t)
    return finish_replay(m, rep) or report_deals_verified(record)


def finish_replay(m: Match, rep) -> int:
    state = (
        _("finished")
        if m.is_over
        else _("unfinished: {phase}, {deals} done").format(phase=m.phase_name, deals=deals_count(len(m.results)))
    )
    console.print(_("totals: {totals} ({state})").format(totals=" ".join(number(x) for x in m.totals), state=state))
    if not rep.consistent:
        for p in rep.inconsistencies:
            err.print(_("[red]inconsistent:[/red] {problem}").format(problem=p))
        return 1
    console.print(_("the record is consistent: every stated score matches the replay"))
    return 0


def report_deals_verified(record) -> int:
    """For a record that publishes its table's key: are the deals the ones the key gives?"""
    wrong = verify_deals(record)
    if wrong is None:
        return 0
    if wrong:
        err.print(
            _("[red]the deals do not match the table's key[/red] at lines {lines}").format(
                lines=", ".join(map(str, wrong[:10]))
            )
        )
        return 1
    console.print(_("the deals are verified: each is the one the table's published key produces"))
    return 0


def round_label(info) -> str:
    """``S1 P2`` (Set 1, Player Round 2) or ``S1 Silly``."""
    # TRANSLATORS: S is a Set of the Scottish game, P a Player Round; Silly the Silly Round (short, a table cell).
    return (_("S{set} Silly") if info.silly else _("S{set} P{round}")).format(set=info.set_no, round=info.round_no)


def print_scottish_replay(name: str, m: Match) -> None:
    """Deal by deal with the round and the calls; then the scoresheet, Round by Round, glyph names beside
    the points (plain text, so it fits a terminal)."""
    from ..scottish.scoresheet import sheet_from_results, sheet_lines

    t = Table(title=f"{name} — {game_name(m.rules, words())}")
    t.add_column(_("deal"), justify="right")
    t.add_column(_("round"))
    t.add_column(_("dealer"), justify="right")
    t.add_column(_("call"))
    for s in range(m.n):
        t.add_column(seat_head(s), justify="right")
    for r in m.results:
        t.add_row(
            str(r.number),
            round_label(r.scottish),
            seat_short(r.dealer),
            contract(m.contract_by_key[r.contract].name),
            *(number(x) for x in r.scores),
        )
    console.print(t)
    console.print(_("Scoresheet (glyphs beside the points):"))
    for line in sheet_lines(sheet_from_results(m.results, m.n), [seat_short(s) for s in range(m.n)], words()):
        console.print(line, markup=False, highlight=False, soft_wrap=True)  # the terminal wraps


# ---------------------------------------------------------------- show
def cmd_show(args: argparse.Namespace) -> int:
    dd = getattr(args, "dd", False)
    if dd and args.deal is None:
        error(_("--dd shows the double-dummy table of one deal: give it with --deal N"))
        return 2
    if record_kind(args.record).name == "besigue":
        if dd:
            error(_("the double-dummy table is for the Barbu games, not for Bésigue"))
            return 2
        return besigue_commands().cmd_show(args, err)
    record = read_record(args.record)
    rep = replay(record)
    if args.deal is None:
        sys.stdout.write(text_form(rep.match, names=record_names(record.header, rep.match.n)))
        return 0 if rep.consistent else 1
    with seat_names(record_names(record.header, rep.match.n)):  # the players as people read them, never numbers
        return show_deal(args, record, rep)


def show_deal(args: argparse.Namespace, record, rep) -> int:
    """One deal of a record: hands, doubles, tricks and scores, the players by name or place."""
    dd = getattr(args, "dd", False)
    m = rep.match
    if not 1 <= args.deal <= len(m.results):
        error(no_such_deal(len(m.results), args.deal))
        return 2
    refusal = not_covered(m) if dd else None
    if refusal:
        error(refusal)
        return 2
    r = m.results[args.deal - 1]
    k = m.contract_by_key[r.contract]
    console.print(
        _("[bold]Deal {n}[/bold] — dealer {dealer}, {contract}").format(
            n=r.number, dealer=seat(r.dealer), contract=contract_label(m, r.contract, r.trump, r.rank, r.played)
        )
    )
    for s, h in enumerate(r.hands):
        console.print(f"  {seat(s)}: {hand(h)}")
    if r.scottish is not None:
        show_scottish_deal(m, r)
    else:
        me = next((s for s in range(m.n) if seat(s) == _("you")), -1)  # "vous avez contré", not "vous a contré"
        doubles = [double_words(b.doubler, b.doubled, b.redoubled, me, seat_short) for b in r.doubles]
        console.print(_("Doubles: {doubles}").format(doubles=", ".join(doubles) or _("none")))
    if r.set_aside:
        console.print(_("Set aside, face up: {cards}").format(cards=hand(r.set_aside)))
    if not r.played:
        console.print(_("Not played: nobody doubled a negative contract, so its points were shared."))
    elif r.arrangements:
        for s_, a in enumerate(r.arrangements):
            console.print(f"  {seat(s_)} — {describe_arrangement(a)}")
    elif k.kind == "domino":
        acts = deals_with_actions(m)[r.number - 1]
        console.print(
            _("Turns (player: card, passes included): {turns}").format(
                turns=" ".join(
                    f"{seat_short(s)}:{card(a) if isinstance(a, int) else words().pgettext('doubling', 'pass') if isinstance(a, Pass) else a}"
                    for s, a in acts
                    if isinstance(a, (int, Pass, Lay))
                )
            )
        )
        console.print(_("Finishing order: {seats}").format(seats=", ".join(seat_short(s) for s in r.finishing)))
    else:
        t = Table(title=_("Tricks"))
        t.add_column("#", justify="right")
        t.add_column(_("leader"))
        t.add_column(_("cards"))
        t.add_column(_("winner"))
        for i, (leader, trick) in enumerate(r.tricks, start=1):
            w = trick_winner(leader, trick, r.trump if k.trump else None, m.n)
            t.add_row(str(i), seat_short(leader), cards(trick), seat_short(w))
        console.print(t)
    sheet = Table(title=_("Scores"))
    sheet.add_column("")
    for x in range(m.n):
        sheet.add_column(seat_head(x), justify="right")
    if r.scottish is not None:
        from ..classic.contracts import SCOTTISH_CALL_NAMES
        from ..scottish.scoresheet import glyph_label

        for call, pts in zip(r.scottish.calls, r.scottish.parts):
            sheet.add_row(
                contract(SCOTTISH_CALL_NAMES[call]),
                *(f"{number(x)} {glyph_label(r.scottish.glyphs, k_, call)}".strip() for k_, x in enumerate(pts)),
            )
        sheet.add_row(
            _("deal"),
            *(f"{number(x)} {glyph_label(r.scottish.glyphs, k_, None)}".strip() for k_, x in enumerate(r.scores)),
        )
    else:
        sheet.add_row(_("contract"), *(number(x) for x in r.base))
        sheet.add_row(_("with doubles"), *(number(x) for x in r.scores))
    sheet.add_row(_("running total"), *(number(x) for x in m.totals_after(r.number)))
    console.print(sheet)
    if dd:
        start = deal_start(str(record.rules), record.seed, [text for _n, text in record.actions], args.deal)
        print_dd(console, start, args.dd_seconds, chosen_of(m, args.deal), status=err)
    return 0


def show_scottish_deal(m: Match, r) -> None:
    """The round, the cuts and the pass-ons of a Scottish deal (the record shows every choice)."""
    from ..scottish.pack import display_pack
    from ..scottish.silly import DIRECTION_NAMES

    info = r.scottish
    if info.silly:
        console.print(
            _("Set {set}, Silly Round, deal {deal}: cutter {seat}").format(
                set=info.set_no, deal=info.deal_in_round, seat=seat((r.dealer - 1) % m.n)
            )
        )
    else:
        console.print(
            _("Set {set}, Player Round {round}, deal {deal}: caller {seat}").format(
                set=info.set_no, round=info.round_no, deal=info.deal_in_round, seat=seat(info.caller)
            )
        )
    if info.cuts:
        console.print(
            _("Cuts: {cuts}").format(cuts=", ".join(f"{display_pack(c)} ({cut_reason(why)})" for why, c in info.cuts))
        )
    for n, (offset, gives) in enumerate(info.passes, start=1):
        console.print(
            _("Pass-on {n}, to the {direction}: {passes}").format(
                n=n,
                direction=_(DIRECTION_NAMES[offset]),
                passes="; ".join(
                    _("{seat} passes {cards}").format(seat=seat(s), cards=hand(g)) for s, g in enumerate(gives)
                ),
            )
        )
    if info.glyphs:
        from ..scottish.scoresheet import glyphs_by

        who = [seat(s) for s in range(m.n)]
        console.print(_("Glyphs: {glyphs}").format(glyphs=glyphs_by(info.glyphs, who, words())))
