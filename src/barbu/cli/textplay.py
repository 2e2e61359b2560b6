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

from ..agents import make_agent
from ..tui.labels import RulesInfo, forced_choice, forced_note
from ..tui.launch import parse_opponents
from ..classic.chinese import Arrangements
from ..core.actions import Deal, Declare, PassOn
from ..scottish.pack import Cut, PackDraw
from ..core.cards import CARDS, RANKS, SUIT_SYMBOLS, CardSet
from ..core.errors import BarbuError
from ..classic.match import CHANCE, Match
from ..records.barbu import load_match, write_record
from ..records.savefiles import DEFAULT_SAVE, reserve, saved_matches
from ..classic.ruleset import Ruleset

HELP = """Type your action when asked:
  a card: qh, 10s, AS      a contract: no-queens, no-hearts, trumps, domino, …
  trump h / trump none     rank 7 (Domino's starting rank)
  pass / double 1 3 / family / maximum   (doubling; the numbers are seats)
Scottish game:
  a call: aces, king, queens, hearts, tricks, a group like king+queens or the-lot,
          patience, double-patience
  pass-on AS KH 7D   (the three cards you pass on in the Silly Round)
  Patience: a card (jh), lay 9H 8H 7H (a run or a set: only to go out in a
          Player Round, at any time in the Silly Round), pass (chap) when you cannot play
Other commands: hand, trick, last, scores, sheet (Scottish scoresheet), help, quit (saves the match)."""


def describe(m: Match, seat: int) -> str:
    """One screenful of what ``seat`` sees now."""
    v = m.view(seat)
    if v.scottish is not None:
        lines = scottish_lines(m, v)
    else:
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
    for p in v.passes:
        lines.append(f"You passed {CardSet(p.gave).display()} to seat {p.to} and received "
                     f"{CardSet(p.received).display()} from seat {p.frm}")
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


def scottish_lines(m: Match, v) -> list[str]:
    """Where the Scottish match stands: Set, Round, caller or cutter, calls left, cuts, pass-ons."""
    from ..classic.contracts import SCOTTISH_CALL_NAMES, SCOTTISH_CALLS
    from ..scottish.pack import display_pack
    from ..scottish.silly import DIRECTION_NAMES
    sv = v.scottish
    st = sv.start or sv.state
    where = f"Set {st.set_no + 1} of {sv.sets}, " + (
        "Silly Round" if st.silly else f"Player Round {st.round_no + 1}, caller seat {st.caller}")
    lines = [f"{where} — deal {st.deals + 1} of the round, dealer seat {v.dealer}"
             + (f", cutter seat {sv.cutter}" if sv.cutter is not None else "")]
    left = [SCOTTISH_CALL_NAMES[c] for c in SCOTTISH_CALLS if c in sv.state.calls_left]
    lines.append("Calls still to play in this round: " + (", ".join(left) or "none after this deal"))
    if sv.cuts:
        lines.append("Cuts: " + ", ".join(f"{display_pack(c)} ({why})" for why, c in sv.cuts))
    if sv.pass_offset:
        lines.append(f"Pass-on {sv.pass_count + 1}: three cards to the {DIRECTION_NAMES[sv.pass_offset]} "
                     f"(seat {(v.seat + sv.pass_offset) % v.players}); chosen so far: "
                     + (", ".join(f"seat {s}" for s in sv.chosen) or "nobody"))
    return lines


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
        sets = getattr(args, "sets", None)
        if sets is not None and sets != rules.sets:
            rules = rules.replace(sets=sets)
        m = Match(rules, args.seed)
    if not 0 <= args.seat < m.n:
        con.print(f"There is no seat {args.seat}: seats are 0 to {m.n - 1}.")
        return 2
    seat = args.seat
    # the computer players first: a bad name or policy file is refused before any file is written
    kinds = parse_opponents(getattr(args, "opponents", None) or "rule", m.n, seat)
    bots = {s: make_agent(kinds[s], None if m.seed is None else m.seed * 1000 + s) for s in range(m.n) if s != seat}
    if args.resume:
        save = Path(args.resume)
    else:
        for old in saved_matches("."):  # offered, never overwritten
            if not old.finished:
                con.print(f"A saved match is here ({old.describe()}): resume it with "
                          f"barbu play --resume {old.path.name}")
        save = reserve(Path(args.save or DEFAULT_SAVE), exact=bool(args.save))
        write_record(m, save)
        con.print(f"This match is saved to {save}.")
    con.print(f"You are seat {seat}, playing {m.rules} against {len(bots)} computer players. Type 'help'.")
    confirm_forced = bool(getattr(args, "confirm_forced", False))
    info = RulesInfo(m.rules)
    done = len(m.results)
    while not m.is_over:
        actor = m.to_act()
        if actor == CHANCE:
            a = m.play_chance()
            if isinstance(a, Deal):
                con.print(f"\n[bold]Deal {m.deal_no + 1}[/bold]: cards are dealt.")
            elif isinstance(a, (PackDraw, Cut)):
                con.print(_chance_text(m, a))
            continue
        assert actor is not None
        if actor != seat:
            a = bots[actor].act(m.view(actor))
            m.apply(a)
            # another seat's pass-on stays face down
            con.print(f"seat {actor}: " + ("passes on three cards" if isinstance(a, PassOn) else _action_text(a)))
        else:
            forced = None if confirm_forced else forced_choice(m.legal_actions())
            if forced is not None:  # only one thing to do: done at once, and said
                con.print(forced_note(forced, m.view(seat), info, places=False), markup=False, highlight=False)
                m.apply(forced, seat=seat)
            else:
                con.print(describe(m, seat))
                legal = m.legal_actions()
                if legal and isinstance(legal[0], PassOn):
                    v = m.view(seat)
                    con.print(f"Choose the three cards you pass on to seat {(seat + v.scottish.pass_offset) % m.n}, "
                              f"like: {legal[0]}")
                elif isinstance(legal, Arrangements):
                    con.print("Arrange your 13 cards: arrange <back 5> <middle 5> <front 3>, each row in suit form, "
                              "like: " + str(legal.sensible()) + "   (back >= middle >= front, or the hand is fouled)")
                elif m.rules.family == "scottish" and legal and isinstance(legal[0], Declare):
                    con.print("You may call: " + ", ".join(a.contract for a in legal))
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
                if cmd == "sheet" and m.rules.family == "scottish":
                    from ..scottish.scoresheet import sheet_from_results, sheet_lines
                    con.print("\n".join(sheet_lines(sheet_from_results(m.view(seat).results, m.n))) or "No deal yet.")
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


def _chance_text(m: Match, a: object) -> str:
    """Draws and cuts of the Unused Pack, as the table sees them."""
    from ..scottish.pack import display_pack
    if isinstance(a, PackDraw):
        drawn = ", ".join(f"seat {s} {display_pack(c)}" for s, c in enumerate(a.cards))
        if m.phase_name == "draw":
            return f"Draw from the Unused Pack: {drawn} — a tie for the highest card: draw again."
        return f"Draw from the Unused Pack: {drawn} — seat {m.dealer} " + (
            "deals first in the Silly Round." if m.view(0).scottish.state.silly else "is the first Caller.")
    assert isinstance(a, Cut)
    from ..scottish.pack import is_black, is_red
    sv = m.view(0).scottish
    why = sv.cuts[-1][0] if sv.cuts else "calls"
    text = f"The cutter cuts {display_pack(a.card)}"
    if why == "calls":
        if sv.calls and m.contract is not None:
            text += f": {m.contract.name} to be played"
    elif is_black(a.card):
        text += ": a pass-on"
    elif is_red(a.card):
        text += ": no (more) pass-ons"
    else:
        text += ": cut again"
    return text + "."


def _action_text(a: object) -> str:
    if isinstance(a, int) and not isinstance(a, bool):
        return CARDS[a].display()
    return str(a)


def _last_trick(m: Match) -> str:
    if not m.trick_log:
        return "No trick has been completed in this deal yet."
    leader, cards = m.trick_log[-1]
    return "Last trick: " + ", ".join(f"seat {(leader + i) % m.n} {CARDS[c].display()}" for i, c in enumerate(cards))
