"""A plain line-by-line game against computer players, for any terminal.

It reads a typed action at each of your turns (``qh``, ``no-queens``,
``trump h``, ``double 1 3``, ``pass``…), refuses an illegal one with the
reason, and saves the record after every deal and when you quit.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Callable

from rich.console import Console

from .agents import make_agent
from .tui.launch import parse_opponents
from .chinese import Arrangements
from .cards import CARDS, RANKS, SUIT_SYMBOLS, CardSet
from .errors import BarbuError
from .match import CHANCE, Match
from .record import load_match, write_record
from .ruleset import Ruleset

HELP = """Type your action when asked:
  a card: qh, 10s, AS      a contract: no-queens, no-hearts, trumps, domino, …
  trump h / trump none     rank 7 (Domino's starting rank)
  pass / double 1 3 / family / maximum   (doubling; the numbers are seats)
Other commands: hand, trick, last, scores, help, quit (saves the match)."""


def describe(m: Match, seat: int) -> str:
    """One screenful of what ``seat`` sees now."""
    v = m.view(seat)
    lines = [f"Deal {v.deal_number} of {m.total_deals} — dealer seat {v.dealer}"]
    if v.contract:
        c = m.contract_by_key[v.contract]
        label = c.name
        if c.trump:
            label += f", trumps {SUIT_SYMBOLS[v.trump]}" if v.trump is not None else ", no-trump"
        if v.rank is not None:
            label += f", rows from the {RANKS[v.rank].replace('T', '10')}"
        lines.append(f"Contract: {label}")
        if v.doubles:
            lines.append("Doubles: " + ", ".join(
                f"{b.doubler}→{b.doubled}" + (" redoubled" if b.redoubled else "") for b in v.doubles))
    if v.set_aside:
        lines.append(f"Set aside, face up: {CardSet(v.set_aside).display()}")
    if any(v.layout) and v.phase == "domino":
        rows = []
        for s, span in enumerate(v.layout):
            if span:
                rows.append(f"{SUIT_SYMBOLS[s]} {_pos_label(m, span[0])}…{_pos_label(m, span[1])}")
        lines.append("Layout: " + "  ".join(rows))
    if v.trick:
        lines.append("Trick: " + ", ".join(f"seat {(v.leader + i) % m.n} {CARDS[c].display()}"
                                           for i, c in enumerate(v.trick)))
    if v.phase in ("play", "domino"):
        lines.append("Tricks won: " + "  ".join(f"seat {s}: {v.tricks_won[s]}" for s in range(m.n)))
    lines.append(f"Your hand: {CardSet(v.hand).display()}")
    return "\n".join(lines)


def _pos_label(m: Match, pos: int) -> str:
    if m.rules.domino_ace == "high":
        return RANKS[pos]
    return "A" if pos == 0 else RANKS[pos - 1]


def play_in_terminal(args: argparse.Namespace, read: Callable[[str], str] = input,
                     console: Console | None = None) -> int:
    con = console or Console(highlight=False)
    if args.resume:
        m = load_match(args.resume)
        con.print(f"Resumed {args.resume}: {len(m.results)} deals played.")
    else:
        rules = Ruleset.parse(args.rules)
        if args.players is not None and args.players != rules.players:
            rules = rules.replace(players=args.players)
        m = Match(rules, args.seed)
    if not 0 <= args.seat < m.n:
        con.print(f"There is no seat {args.seat}: seats are 0 to {m.n - 1}.")
        return 2
    seat = args.seat
    save = Path(args.resume or args.save)
    kinds = parse_opponents(getattr(args, "opponents", None) or "rule", m.n, seat)
    bots = {s: make_agent(kinds[s], None if m.seed is None else m.seed * 1000 + s) for s in range(m.n) if s != seat}
    con.print(f"You are seat {seat}, playing {m.rules} against {len(bots)} computer players. Type 'help'.")
    done = len(m.results)
    while not m.is_over:
        actor = m.to_act()
        if actor == CHANCE:
            m.play_chance()
            if m.phase_name == "declare":
                con.print(f"\n[bold]Deal {m.deal_no + 1}[/bold]: cards are dealt.")
            continue
        assert actor is not None
        if actor != seat:
            a = bots[actor].act(m.view(actor))
            m.apply(a)
            con.print(f"seat {actor}: {_action_text(a)}")
        else:
            con.print(describe(m, seat))
            legal = m.legal_actions()
            if isinstance(legal, Arrangements):
                con.print("Arrange your 13 cards: arrange <back 5> <middle 5> <front 3>, each row in suit form, "
                          "like: " + str(legal.sensible()) + "   (back >= middle >= front, or the hand is fouled)")
            else:
                con.print("You may: " + " ".join(_action_text(a) for a in legal))
            try:
                text = read("your move> ").strip()
            except EOFError:
                text = "quit"
            if not text:
                continue
            cmd = text.lower()
            if cmd in ("quit", "q", "exit"):
                write_record(m, save)
                con.print(f"Saved to {save}. Resume with: barbu play --resume {save}")
                return 0
            if cmd == "help":
                con.print(HELP)
                continue
            if cmd in ("hand", "trick"):
                continue
            if cmd == "last":
                con.print(_last_trick(m))
                continue
            if cmd == "scores":
                con.print("Totals: " + "  ".join(f"seat {s}: {t}" for s, t in enumerate(m.totals)))
                continue
            try:
                m.apply(m.parse_action(text), seat=seat)
            except BarbuError as e:
                con.print(f"[red]Not allowed:[/red] {e}")
                continue
        if len(m.results) > done:
            done = len(m.results)
            r = m.results[-1]
            con.print(f"Deal {r.number} over ({m.contract_by_key[r.contract].name}): scores "
                      + "  ".join(f"seat {s}: {x:+d}" for s, x in enumerate(r.scores))
                      + " — totals " + "  ".join(str(t) for t in m.totals))
            write_record(m, save)
    con.print("Match over. Standings: " + ", ".join(f"seat {s} {t}" for s, t in m.standings()))
    write_record(m, save)
    con.print(f"Record saved to {save}.")
    return 0


def _action_text(a: object) -> str:
    if isinstance(a, int) and not isinstance(a, bool):
        return CARDS[a].display()
    return str(a)


def _last_trick(m: Match) -> str:
    if not m.trick_log:
        return "No trick has been completed in this deal yet."
    leader, cards = m.trick_log[-1]
    return "Last trick: " + ", ".join(f"seat {(leader + i) % m.n} {CARDS[c].display()}" for i, c in enumerate(cards))
