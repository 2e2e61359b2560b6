"""``barbu analyze``: go through a record and show what each decision cost, and each player's costliest."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich import box
from rich.console import Console
from rich.table import Table

from ..analysis import review_match
from ..analysis.ddtable import DEFAULT_CELL_SECONDS, deal_start
from ..analysis.report import action_text, decision_table, legend, moment, points
from ..analysis.review import DEFAULT_EXACT_CARDS, DEFAULT_SAMPLES, DEFAULT_SECONDS
from ..core.errors import BarbuError
from ..games import record_kind
from ..i18n import _, current, number, word_error, words
from ..play.names import record_names
from ..records.barbu import read_record
from .ddview import cell_seconds, not_covered, print_dd
from .wording import error_text, no_such_deal, seat_names


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = _(
        "Go through a record (from barbu play, barbu selfplay, the web) and, for every decision, show "
        "what the strongest computer player would have chosen from that seat's view and what the "
        "choice cost in expected points; near the end of each deal, also the exact cost with every "
        "hand shown."
    )
    p.add_argument("record", help=_("a game record (.jsonl)"))
    p.add_argument("--deal", type=int, action="append", help=_("only this deal (again for more)"))
    p.add_argument("--seat", type=int, action="append", help=_("only this seat's decisions (again for more)"))
    p.add_argument("--all", action="store_true", help=_("list every decision, not only those that cost points"))
    p.add_argument("--top", type=int, default=5, help=_("costliest decisions listed per player (default 5)"))
    p.add_argument(
        "--samples",
        type=int,
        default=DEFAULT_SAMPLES,
        help=_("sampled deals per decision (default {n})").format(n=DEFAULT_SAMPLES),
    )
    p.add_argument(
        "--seconds",
        type=float,
        default=DEFAULT_SECONDS,
        help=_("time limit per decision in seconds (default {n})").format(n=DEFAULT_SECONDS),
    )
    p.add_argument(
        "--exact-cards",
        type=int,
        default=DEFAULT_EXACT_CARDS,
        help=_("exact values once each hand holds at most this many cards (default {n})").format(n=DEFAULT_EXACT_CARDS),
    )
    p.add_argument(
        "--dd-seconds",
        type=cell_seconds,
        default=DEFAULT_CELL_SECONDS,
        metavar="S",
        help=_(
            "the solver's time for each cell of a deal's double-dummy table, in seconds (default {n}); a cell it "
            "does not finish is shown as a range"
        ).format(n=f"{DEFAULT_CELL_SECONDS:g}"),
    )
    p.add_argument(
        "--no-dd",
        action="store_true",
        help=_(
            "leave out each deal's double-dummy table (what each seat scores at each contract with every hand shown)"
        ),
    )
    p.set_defaults(func=cmd_analyze)


def cmd_analyze(args: argparse.Namespace, console: Console | None = None, err: Console | None = None) -> int:
    console = console or Console()
    err = err or Console(stderr=True)

    def fail(message: str) -> int:
        err.print(_("barbu: error: {message}").format(message=message), soft_wrap=True, markup=False, highlight=False)
        return 2

    try:
        if record_kind(args.record).name == "besigue":
            return fail(_("barbu analyze reads Barbu records; Bésigue records are not analysed yet"))
        record = read_record(args.record)
    except OSError as e:
        return fail(_("cannot read {path}: {reason}").format(path=args.record, reason=e.strerror or e))
    except BarbuError as e:
        return fail(error_text(e))
    rules = str(record.rules)
    names = {c.key: c.name for c in record.rules.family_spec.contracts(record.rules)}
    deals = set(args.deal) if args.deal else None
    seats = set(args.seat) if args.seat else None
    people = record_names(record.header, record.rules.players)  # "Alice", "West, good player": never a number
    with console.status(_("weighing the decisions…")) as status:

        def progress(deal: int, step: int) -> None:
            status.update(_("weighing deal {deal}, decision {step}…").format(deal=number(deal), step=number(step)))

        try:
            review = review_match(
                rules,
                record.seed,
                [text for _, text in record.actions],
                deals=deals,
                seats=seats,
                samples=args.samples,
                seconds=args.seconds,
                exact_cards=args.exact_cards,
                progress=progress,
            )
        except BarbuError as e:
            return fail(_("cannot replay {path}: {reason}").format(path=args.record, reason=word_error(e, current())))
    missing = sorted((deals or set()) - {r.number for r in review.results})
    if missing:
        return fail(no_such_deal(len(review.results), missing[0]))
    if not review.decisions:
        console.print(_("no decision to weigh: no seat had a choice in the deals asked for"))
        return 0
    weighed = sorted({d.deal for d in review.decisions})
    actions = [text for _n, text in record.actions]
    dd = not getattr(args, "no_dd", False)
    for r in review.results:
        if r.number in weighed:
            console.print(
                _("Deal {deal}: {contract}, declared by {who}; points {points}").format(
                    deal=number(r.number),
                    contract=words().contract(names.get(r.contract, r.contract)),
                    who=people[r.declarer],
                    points=", ".join(number(x) for x in r.added),
                )
            )
            if dd:
                start = deal_start(rules, record.seed, actions, r.number)
                if not_covered(start):  # said once, and no table is tried for the other deals
                    console.print(_("No double-dummy tables: they are not available for the Scottish game."))
                    dd = False
                    continue
                with seat_names(people):
                    print_dd(
                        console,
                        start,
                        getattr(args, "dd_seconds", DEFAULT_CELL_SECONDS),
                        (r.contract, r.trump),
                        status=console,
                    )
    shown = review.decisions if args.all else [d for d in review.decisions if d.cost or d.exact_cost]
    title = _("{file}: what each decision cost (points)").format(file=Path(args.record).name)
    if shown:
        console.print(decision_table(review, shown, names, title, players=people))
    else:
        console.print(_("every decision was as good as the strongest computer player's"))
    players = sorted({d.seat for d in review.decisions})
    summary = Table(title=_("each player's costliest decisions"), box=box.SIMPLE_HEAD, pad_edge=False)
    summary.add_column(_("player"))
    summary.add_column(_("cost in all"), justify="right")
    summary.add_column(_("exact cost in all"), justify="right")
    summary.add_column(_("costliest (deal, when: played → better, cost)"))
    for s in players:
        worst = [d for d in review.costliest(s, args.top) if d.cost]
        text = "; ".join(
            _("deal {n}, {when}").format(n=number(d.deal), when=moment(d))
            + f": {action_text(d.chosen, names, people)} → {action_text(d.best, names, people)}, {points(d.cost)}"
            for d in worst
        )
        summary.add_row(people[s], points(review.total_cost(s)), points(review.total_exact_cost(s)), text or "—")
    console.print(summary)
    console.print(legend())
    return 0
