"""Bésigue's side of the ``barbu`` command line: rules, selfplay, replay, show, arena.

`barbu.cli` hands a command here when the game registry says the rules text
or the record is Bésigue; all Bésigue-specific printing lives in this module.
"""

from __future__ import annotations

import argparse
import os
import sys

from rich.console import Console
from rich.table import Table

from ..core.errors import BarbuError
from ..besigue.actions import MELD_NAMES, MELD_VALUES
from ..agents.besigue import make_besigue_agent
from ..arena.besigue import ArenaSummary, run_arena
from ..besigue.game import BesigueGame
from ..records.besigue import read_record, verify_deals
from ..besigue.ruleset import OPTIONS, PRESETS, BesigueRules
from ..besigue.text import text_form


def print_presets(console: Console) -> None:
    """The Bésigue rows of ``barbu rules``."""
    t = Table(title="Bésigue presets (2 players)")
    t.add_column("preset")
    t.add_column("description")
    for name, (_, desc) in PRESETS.items():
        t.add_row(name, desc)
    console.print(t)


def cmd_rules(args: argparse.Namespace, console: Console) -> int:
    rules = BesigueRules.parse(args.name)
    console.print(f"[bold]{rules}[/bold] — {PRESETS[rules.preset][1]}")
    console.print(f"2 players, 64 cards (two packs of 32), ranked A 10 K Q J 9 8 7; "
                  f"{rules.hand} cards each, stock of {rules.stock_size} with the turn-up, "
                  f"{rules.stock_tricks} tricks from the stock then {rules.hand} last tricks; "
                  f"highest total wins")
    t = Table(title="Options")
    t.add_column("option", no_wrap=True)
    t.add_column("value")
    t.add_column("allowed")
    t.add_column("meaning")
    for name, (allowed, meaning, values) in OPTIONS.items():
        value = str(getattr(rules, name))
        allowed_text = "a positive number" if allowed == "int" else ", ".join(allowed)
        detail = values.get(value, "")
        t.add_row(name, value, allowed_text, meaning + (f" — now: {detail}" if detail else ""))
    console.print(t)
    c = Table(title="Combinations (declared after winning a trick while the stock lasts)")
    c.add_column("combination")
    c.add_column("declare as")
    c.add_column("points", justify="right")
    for kind, value in MELD_VALUES.items():
        c.add_row(MELD_NAMES[kind], f"declare {kind} …", str(value))
    console.print(c)
    console.print("Also: 10 per brisque won, 10 for the last trick, 10 for the 7 of trumps "
                  "(turned up by the dealer, or as the option seven says). See docs/besigue.md.")
    return 0


def check_players(args: argparse.Namespace) -> None:
    """Refuse Barbu-only settings in plain words rather than ignore them."""
    if getattr(args, "players", None) not in (None, 2):
        raise BarbuError(f"Bésigue is played by 2 players, not {args.players}")
    if getattr(args, "sets", None) is not None:
        raise BarbuError("--sets is for the Scottish game; Bésigue has no Sets")


def print_deals(console: Console, g: BesigueGame, title: str) -> None:
    t = Table(title=title)
    t.add_column("deal", justify="right")
    t.add_column("dealer", justify="right")
    for s in (0, 1):
        t.add_column(f"seat {s} combinations")
    t.add_column("brisques", justify="right")
    t.add_column("last", justify="right")
    t.add_column("scores", justify="right")
    t.add_column("totals", justify="right")
    for r in g.results:
        melds = [", ".join(f"{k} {v}" for k, v in r["melds"][s]) or "-" for s in (0, 1)]
        t.add_row(str(r["deal"]), str(r["dealer"]), *melds, f"{r['brisques'][0]}-{r['brisques'][1]}",
                  str(r["last_trick"]), f"{r['scores'][0]}-{r['scores'][1]}",
                  f"{r['totals'][0]}-{r['totals'][1]}")
    console.print(t)
    state = f"seat {g.winner} wins" if g.is_over else f"unfinished ({g.phase}, {len(g.results)} deals done)"
    console.print(f"totals: {g.totals[0]} {g.totals[1]} ({state})")


def cmd_replay(args: argparse.Namespace, console: Console, err: Console) -> int:
    rep = read_record(args.record)
    print_deals(console, rep.game, f"{args.record} — {rep.game.rules}")
    if not rep.consistent:
        for p in rep.inconsistencies:
            err.print(f"[red]inconsistent:[/red] {p}")
        return 1
    console.print("the record is consistent: every stated score matches the replay")
    wrong = verify_deals(rep)
    if wrong:
        err.print(f"[red]the deals do not match the table's key[/red] at actions {', '.join(map(str, wrong[:10]))}")
        return 1
    if wrong is not None:
        console.print("the deals are verified: each is the one the table's published key produces")
    return 0


def cmd_show(args: argparse.Namespace, err: Console) -> int:
    rep = read_record(args.record)
    g = rep.game
    if args.deal is not None and not 1 <= args.deal <= len(g.results):
        err.print(f"barbu: error: the record has {len(g.results)} finished deals; there is no deal {args.deal}")
        return 2
    sys.stdout.write(text_form(g, args.deal))
    return 0 if rep.consistent else 1


def cmd_arena(args: argparse.Namespace, console: Console, specs: list[str]) -> int:
    check_players(args)
    if len(specs) != 2:
        raise BarbuError("a Bésigue arena compares two computer players: give two, e.g. --bots rule,random")
    for spec in specs:
        make_besigue_agent(spec)
    workers = args.workers or os.cpu_count() or 1
    every = max(1, args.deals // 10)

    def progress(n: int, s: ArenaSummary) -> None:
        if n % every == 0 or n == args.deals:
            console.print(f"  {n} boards: {s.a} − {s.b} = {s.mean:+.1f} ± {s.half_width:.1f} points per deal")

    console.print(f"Bésigue duplicate arena — {BesigueRules.parse(args.rules)}: {specs[0]} vs {specs[1]}, "
                  f"{args.deals} boards (each deal played twice, seats swapped), seeds from {args.seed}")
    s = run_arena(args.rules, specs[0], specs[1], args.deals, args.seed, workers, args.out, progress)
    print_summary(console, s)
    return 0


def print_summary(console: Console, s: ArenaSummary) -> None:
    lo, hi = s.mean - s.half_width, s.mean + s.half_width
    console.print(f"{s.a} vs {s.b}: {s.mean:+.1f} points per deal for {s.a}, 95% interval [{lo:+.1f}, {hi:+.1f}] "
                  f"over {s.boards} boards; boards won {s.wins}, lost {s.losses}, "
                  f"drawn {s.boards - s.wins - s.losses}")
    verdict = (f"{s.a if s.mean > 0 else s.b} is stronger (significant at 95%)" if s.significant
               else "no significant difference at 95%")
    console.print(verdict)
    if s.decisions:
        console.print(f"search decisions: {s.decisions}, mean {s.mean_decision * 1000:.1f} ms, "
                      f"max {s.max_decision * 1000:.0f} ms, {s.playouts_per_second:.0f} playouts/s")
