"""``barbu play --plain --rules besigue``: a line-by-line Bésigue game against a computer player.

At each of your turns it prints what your seat sees (trumps, the stock and the
turn-up, both players' laid melds, the trick, your hand) and the actions you
may take, reads one typed action (``qs``, ``play qs*``, ``declare bezique QS
JD``, ``pass``, ``exchange 7H``), refuses an illegal one with the engine's
reason, and saves the record after every deal and when you quit.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from ..core.errors import BarbuError, ParseError
from ..records.savefiles import DEFAULT_SAVE
from ..besigue.actions import MELD_NAMES, Play
from ..besigue.cards import SUIT_NAMES, card_display, parse_type
from ..besigue.view import BesigueView

HELP = """Type your action when asked:
  a card: qs, 10d, Q♠ (qs* plays a card laid among your melds)
  after winning a trick: declare bezique QS JD, declare marriage KH QH, … or pass (declare nothing)
  with seven=exchange: exchange 7H (for the turn-up) or show 7H
Other commands: last (the last trick), scores, help, quit (saves the game)."""


def _cards(cards) -> str:
    """Cards by suit, high to low, as a hand is held."""
    return " ".join(card_display(c) for c in sorted(cards, key=lambda c: (c % 32 // 8, -(c % 8), c))) or "-"


def describe(v: BesigueView) -> str:
    """One screenful of what the person's seat sees now."""
    me, opp = v.seat, 1 - v.seat
    lines = [f"Deal {v.deal_no}, trumps {SUIT_NAMES[v.trump]} — " + (
        f"stock {v.stock_size}, turn-up {card_display(v.turn_up)}" if v.turn_up is not None and v.stock_size
        else f"stock {v.stock_size}" if v.stock_size else "the stock is empty: last tricks")]
    lines.append(f"Computer: {v.opponent_hand_size} cards in hand"
                 + (f" (shown: {_cards(v.opponent_known)})" if v.opponent_known else "")
                 + (f"; laid: {_cards(c for c, _ in v.table[opp])}" if v.table[opp] else ""))
    if v.table[me]:
        lines.append(f"Your laid melds: {_cards(c for c, _ in v.table[me])}")
    if v.trick:
        lines.append(f"Trick: computer led {card_display(v.trick[0][1])}")
    lines.append(f"Your hand: {_cards(v.hand)}")
    lines.append(f"Scores this deal: you {v.scores[me]}, computer {v.scores[opp]} — "
                 f"totals: you {v.totals[me]}, computer {v.totals[opp]} (to {v.rules.target})")
    return "\n".join(lines)


def typed(text: str) -> str:
    """A card typed alone means playing it."""
    word = text.strip()
    try:
        parse_type(word.removesuffix("*"))
    except ParseError:
        return text
    return f"play {word}"


def play_plain(args: argparse.Namespace, read: Callable[[str], str] = input, console: Console | None = None) -> int:
    from ..tui.besigue_session import BesigueSession, resume_from_args, settings_from_args
    con = console or Console(highlight=False)
    if args.resume:
        s = resume_from_args(args)
        con.print(f"Resumed {args.resume}: {len(s.game.results)} deals played.")
    else:
        settings = settings_from_args(args)
        settings.save = settings.save or Path(DEFAULT_SAVE)
        s = BesigueSession.new(settings)
        con.print(f"This game is saved to {s.save_path}.")
    me = s.seat
    con.print(f"You are seat {me}, playing {s.rules} against the computer ({s.strength}). Type 'help'.")
    done = len(s.game.results)
    while not s.is_over:
        actor = s.to_act()
        if actor == -1:
            s.play_chance()
            if s.game.phase == "play" and not s.game.played:
                con.print(f"\n[bold]Deal {s.game.deal_no}[/bold]: cards are dealt; trumps are "
                          f"{SUIT_NAMES[s.game.trump]}.")
            continue
        if actor != me:
            a = s.agent.act(s.bot_view())
            s.apply_bot(a)
            con.print(f"computer: {escape(_words(a))}")
        else:
            v = s.view()
            con.print(describe(v))
            con.print("You may: " + "  ".join(_words(a) for a in v.legal))
            try:
                text = read("your move> ").strip()
            except EOFError:
                text = "quit"
            cmd = text.lower()
            if not text:
                continue
            if cmd in ("quit", "q", "exit"):
                s.save()
                con.print(f"Saved to {s.save_path}. Resume with: barbu play --resume {s.save_path}")
                return 0
            if cmd == "help":
                con.print(HELP)
                continue
            if cmd == "last":
                p = v.played
                con.print("Last trick: " + (", ".join(f"{'you' if x == me else 'computer'} {card_display(c)}"
                                                      for x, c in p[len(p) - len(p) % 2 - 2:len(p) - len(p) % 2])
                                            if len(p) >= 2 else "none yet"))
                continue
            if cmd == "scores":
                con.print(f"Totals: you {s.game.totals[me]}, computer {s.game.totals[1 - me]}")
                continue
            try:
                a = s.apply_human(typed(text))
            except BarbuError as e:
                con.print(f"[red]Not allowed:[/red] {escape(str(e))}")
                continue
            con.print(f"you: {escape(_words(a))}")
        while done < len(s.game.results):
            r = s.game.results[done]
            done += 1
            melds = [", ".join(f"{MELD_NAMES[k]} {p}" for k, p in r["melds"][x]) or "none" for x in (me, 1 - me)]
            con.print(f"Deal {r['deal']} over: you {r['scores'][me]} (combinations: {melds[0]}; brisques "
                      f"{r['brisques'][me]}), computer {r['scores'][1 - me]} (combinations: {melds[1]}; brisques "
                      f"{r['brisques'][1 - me]}); last trick: {'you' if r['last_trick'] == me else 'computer'}"
                      f" — totals: you {r['totals'][me]}, computer {r['totals'][1 - me]}")
            s.save()
    g = s.game
    con.print(f"Game over: {'you win' if g.winner == me else 'the computer wins'}, "
              f"{g.totals[me]} to {g.totals[1 - me]}.")
    s.save()
    con.print(f"Record saved to {s.save_path}.")
    return 0


def _words(a) -> str:
    if isinstance(a, Play):
        return card_display(a.card) + ("*" if a.from_table else "")
    return str(a)
