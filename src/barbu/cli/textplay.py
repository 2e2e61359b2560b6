"""A plain line-by-line game against computer players, for any terminal.

It reads a typed action at each of your turns (``qh``, ``no-queens``,
``trump h``, ``double 1 3``, ``pass``…; in French or Italian the player's own
words: ``dc``, ``pas de dames``, ``contre 1 3``, ``passe``), refuses an illegal
one with the reason in the player's language, and saves the record after every
deal and when you quit.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Callable

from rich.console import Console
from rich.markup import escape

from ..agents import make_agent
from ..agents.base import parse_agent_spec
from ..classic.chinese import Arrangements
from ..classic.match import CHANCE, Match
from ..classic.ruleset import Ruleset
from ..core.actions import Deal, Declare, PassOn
from ..core.cards import RANKS, SUIT_SYMBOLS
from ..core.errors import BarbuError
from ..core.words import N_
from ..duplicate.shadow import STRONGEST
from ..guide.ruleset_words import game_name
from ..i18n import _, current, number, word_error, words
from ..play.labels import RulesInfo, computer_name, forced_choice, forced_note, place, seat_name, typed_action
from ..play.options import parse_opponents, tell_if_the_expert_lacks_numpy
from ..play.shadow import ShadowWatch, expert_line, final_line, running_line, worst_line
from ..records.barbu import load_match, write_record
from ..records.savefiles import DEFAULT_SAVE, reserve, saved_matches
from ..scottish.pack import Cut, PackDraw
from .wording import action as _action_text
from .wording import card, contract, cut_reason, hand, seat_names, seat_short, seat_value, signed
from .wording import seat as seat_word

# TRANSLATORS: the plain game's help. Show what a player of your language types: cards with your rank and
# suit letters, contracts by their names, the doubling words; the English forms are understood too.
HELP = N_("""Type your action when asked:
  a card: qh, 10s, AS      a contract: no-queens, no-hearts, trumps, domino, …
  trump h / trump none     rank 7 (Domino's starting rank)
  pass / double west north / family / maximum   (doubling: the players by their places)""")
# TRANSLATORS: the plain game's help, the Scottish game's own actions (shown in a Scottish match only).
SCOTTISH_HELP = N_("""Scottish game:
  a call: aces, king, queens, hearts, tricks, a group like king+queens or the-lot,
          patience, double-patience
  pass-on AS KH 7D   (the three cards you pass on in the Silly Round)
  Patience: a card (jh), lay 9H 8H 7H (a run or a set: only to go out in a
          Player Round, at any time in the Silly Round), pass (chap) when you cannot play""")
OTHER_COMMANDS = N_("Other commands: hand, trick, last, scores, help, quit (saves the match).")
SCOTTISH_COMMANDS = N_(
    "Other commands: hand, trick, last, scores, sheet (Scottish scoresheet), help, quit (saves the match)."
)


def help_text(rules: Ruleset) -> str:
    """The plain game's help for this match: the Scottish game's calls and scoresheet only in a Scottish match."""
    if rules.family == "scottish":
        return "\n".join((_(HELP), _(SCOTTISH_HELP), _(SCOTTISH_COMMANDS)))
    return "\n".join((_(HELP), _(OTHER_COMMANDS)))


#: The commands of the plain game besides actions, English first, then what the player's language calls them.
COMMANDS = {
    "quit": N_("quit"),
    "help": N_("help"),
    "hand": N_("hand"),
    "trick": N_("trick"),
    "last": N_("last"),
    "scores": N_("scores"),
    "sheet": N_("sheet"),
}


def command(text: str) -> str | None:
    """The plain game's command a typed word names (``quit``, ``aide``…), or None for an action."""
    word = text.strip().lower()
    if word in ("q", "exit"):
        return "quit"
    for key, msgid in COMMANDS.items():
        if word in (key, _(msgid).lower()):
            return key
    return None


def rank_word(rank: int) -> str:
    """A rank as printed on a card, in the player's letters (10, R, D, V)."""
    return words().rank_letter(RANKS[rank].replace("T", "10"))


def double_words(doubler: int, doubled: int, redoubled: bool, me: int, name: Callable[[int], str] = seat_word) -> str:
    """One double as the person reads it: "you" is a subject or an object of its own in French and Italian
    ("vous avez contré Est", "Est vous a contré"), so the person's doubles have sentences of their own.
    ``name``: how the others are named (a narrow table names a computer player by its place alone)."""
    if doubler == me:
        text = _("you doubled {doubled} (redoubled)") if redoubled else _("you doubled {doubled}")
    elif doubled == me:
        text = _("{doubler} doubled you (redoubled)") if redoubled else _("{doubler} doubled you")
    else:
        text = _("{doubler} doubled {doubled} (redoubled)") if redoubled else _("{doubler} doubled {doubled}")
    return text.format(doubler=name(doubler), doubled=name(doubled))


def describe(m: Match, seat: int) -> str:
    """One screenful of what ``seat`` sees now."""
    v = m.view(seat)
    if v.scottish is not None:
        lines = scottish_lines(m, v)
    else:
        lines = [
            _("Deal {n} of {total} — dealer {dealer}").format(
                n=v.deal_number, total=m.total_deals, dealer=seat_word(v.dealer)
            )
        ]
    if v.contract:
        c = m.contract_by_key[v.contract]
        label = contract(c.name)
        if c.trump:
            label += _(", trumps {suit}").format(suit=SUIT_SYMBOLS[v.trump]) if v.trump is not None else _(", no-trump")
        if v.rank is not None:
            label += _(", rows from the {rank}").format(rank=rank_word(v.rank))
        lines.append(_("Contract: {contract}").format(contract=label))
        if v.doubles:
            lines.append(
                _("Doubles: {doubles}").format(
                    doubles=_("; ").join(double_words(b.doubler, b.doubled, b.redoubled, seat) for b in v.doubles)
                )
            )
    if v.set_aside:
        lines.append(_("Set aside, face up: {cards}").format(cards=hand(v.set_aside)))
    for p in v.passes:
        lines.append(
            _("You passed {gave} to {to} and received {received} from {frm}").format(
                gave=hand(p.gave), to=seat_word(p.to), received=hand(p.received), frm=seat_word(p.frm)
            )
        )
    if any(v.layout) and v.phase == "domino":
        rows = []
        for s, span in enumerate(v.layout):
            if span:
                rows.append(f"{SUIT_SYMBOLS[s]} {_pos_label(m, span[0])}…{_pos_label(m, span[1])}")
        lines.append(_("Layout: {rows}").format(rows="  ".join(rows)))
    if v.trick:
        lines.append(
            _("Trick: {cards}").format(
                cards=", ".join(f"{seat_word((v.leader + i) % m.n)} {card(c)}" for i, c in enumerate(v.trick))
            )
        )
    if v.phase in ("play", "domino"):
        lines.append(
            _("Tricks won: {tricks}").format(
                tricks="  ".join(seat_value(s, number(v.tricks_won[s])) for s in range(m.n))
            )
        )
    lines.append(_("Your hand: {cards}").format(cards=hand(v.hand)))
    return "\n".join(lines)


def scottish_lines(m: Match, v) -> list[str]:
    """Where the Scottish match stands: Set, Round, caller or cutter, calls left, cuts, pass-ons."""
    from ..classic.contracts import SCOTTISH_CALL_NAMES, SCOTTISH_CALLS
    from ..scottish.pack import display_pack
    from ..scottish.silly import DIRECTION_NAMES

    sv = v.scottish
    st = sv.start or sv.state
    where = (
        _("Set {set} of {sets}, Silly Round")
        if st.silly
        else _("Set {set} of {sets}, Player Round {round}, caller {caller}")
    ).format(
        set=st.set_no + 1, sets=sv.sets, round=st.round_no + 1, caller="" if st.caller is None else seat_word(st.caller)
    )
    line = _("{where} — deal {deal} of the round, dealer {dealer}").format(
        where=where, deal=st.deals + 1, dealer=seat_word(v.dealer)
    )
    if sv.cutter is not None:
        line += _(", cutter {cutter}").format(cutter=seat_word(sv.cutter))
    lines = [line]
    left = [contract(SCOTTISH_CALL_NAMES[c]) for c in SCOTTISH_CALLS if c in sv.state.calls_left]
    lines.append(
        _("Calls still to play in this round: {calls}").format(calls=", ".join(left) or _("none after this deal"))
    )
    if sv.cuts:
        lines.append(
            _("Cuts: {cuts}").format(cuts=", ".join(f"{display_pack(c)} ({cut_reason(why)})" for why, c in sv.cuts))
        )
    if sv.pass_offset:
        lines.append(
            _("Pass-on {n}: three cards to the {direction} ({to}); chosen so far: {chosen}").format(
                n=sv.pass_count + 1,
                direction=_(DIRECTION_NAMES[sv.pass_offset]),
                to=seat_word((v.seat + sv.pass_offset) % v.players),
                chosen=", ".join(seat_word(s) for s in sv.chosen) or _("nobody"),
            )
        )
    return lines


#: The directions of the Silly Round's pass-ons (scottish.silly.DIRECTION_NAMES), for the catalog.
DIRECTIONS = (N_("left"), N_("right"), N_("opposite"))


def _pos_label(m: Match, pos: int) -> str:
    if m.rules.domino_ace == "high":
        return rank_word(pos)
    return words().rank_letter("A") if pos == 0 else rank_word(pos - 1)


def play_in_terminal(
    args: argparse.Namespace, read: Callable[[str], str] = input, console: Console | None = None
) -> int:
    con = console or Console(highlight=False)
    if args.resume:
        m = load_match(args.resume)
        con.print(_("Resumed {path}: {n} deals played.").format(path=args.resume, n=len(m.results)))
    else:
        rules = Ruleset.parse(args.rules)
        if args.players is not None and args.players != rules.players:
            rules = rules.replace(players=args.players)
        sets = getattr(args, "sets", None)
        if sets is not None and sets != rules.sets:
            rules = rules.replace(sets=sets)
        m = Match(rules, args.seed)
    if not 0 <= args.seat < m.n:
        con.print(_("There is no seat {seat}: seats are 0 to {last}.").format(seat=args.seat, last=m.n - 1))
        return 2
    seat = args.seat
    # the players by their places from the person's chair, in every line printed (numbers stay in the record)
    with seat_names([seat_name(s, seat, m.n) for s in range(m.n)]):
        # the computer players first: a bad name or policy file is refused before any file is written
        kinds = parse_opponents(getattr(args, "opponents", None) or "rule", m.n, seat)
        bots = {s: make_agent(kinds[s], None if m.seed is None else m.seed * 1000 + s) for s in range(m.n) if s != seat}
        if getattr(args, "compare_with", None):
            parse_agent_spec(args.compare_with)  # AgentError: the player to compare with, in plain words
        tell_if_the_expert_lacks_numpy(
            [
                *kinds.values(),
                None if getattr(args, "no_compare", True) else getattr(args, "compare_with", None) or STRONGEST,
            ]
        )
        if args.resume:
            save = Path(args.resume)
        else:
            for old in saved_matches("."):  # offered, never overwritten
                if not old.finished:
                    con.print(
                        _("A saved match is here ({match}): resume it with barbu play --resume {name}").format(
                            match=old.describe(), name=old.path.name
                        )
                    )
            save = reserve(Path(args.save or DEFAULT_SAVE), exact=bool(args.save))
            write_record(m, save)
            con.print(_("This match is saved to {path}.").format(path=save))
        con.print(
            _("You sit South, playing {rules} against {n} computer players: {players}. Type 'help'.").format(
                rules=escape(game_name(m.rules, words())),
                n=len(bots),
                players="; ".join(
                    computer_name(place(s, seat, m.n), kinds[s]) for s in sorted(bots, key=lambda s: (s - seat) % m.n)
                ),
            )
        )
        confirm_forced = bool(getattr(args, "confirm_forced", False))
        info = RulesInfo(m.rules)
        # the expert replays each finished deal in your seat, in a process of its own (off with --no-compare, and
        # for callers that build their arguments without the flag)
        watch = (
            None
            if getattr(args, "no_compare", True)
            else ShadowWatch(m, seat, {s: kinds[s] for s in bots}, getattr(args, "compare_with", None) or STRONGEST)
        )
        told: set[int] = set()

        def names(key: str) -> str:
            return contract(m.contract_by_key[key].name).lower()

        sep = " " if current() == "en" else ", "  # a contract's name may have spaces in French or Italian
        done = len(m.results)
        decided = False  # a move of the person's this session: a new match with one is kept when he quits
        while not m.is_over:
            actor = m.to_act()
            if actor == CHANCE:
                a = m.play_chance()
                if isinstance(a, Deal):
                    con.print("\n" + _("[bold]Deal {n}[/bold]: cards are dealt.").format(n=m.deal_no + 1))
                elif isinstance(a, (PackDraw, Cut)):
                    con.print(_chance_text(m, a))
                continue
            assert actor is not None
            if actor != seat:
                a = bots[actor].act(m.view(actor))
                m.apply(a)
                # another seat's pass-on stays face down
                con.print(
                    _("{seat}: {action}").format(
                        seat=seat_word(actor),
                        action=_("passes on three cards") if isinstance(a, PassOn) else _action_text(a, names),
                    )
                )
            else:
                forced = None if confirm_forced else forced_choice(m.legal_actions())
                if forced is not None:  # only one thing to do: done at once, and said
                    con.print(forced_note(forced, m.view(seat), info), markup=False, highlight=False)
                    m.apply(forced, seat=seat)
                else:
                    tell_shadow(con, watch, told)
                    con.print(describe(m, seat))
                    legal = m.legal_actions()
                    if legal and isinstance(legal[0], PassOn):
                        v = m.view(seat)
                        con.print(
                            _("Choose the three cards you pass on to {who}, like: {example}").format(
                                who=seat_word((seat + v.scottish.pass_offset) % m.n), example=legal[0]
                            )
                        )
                    elif isinstance(legal, Arrangements):
                        con.print(
                            _(
                                "Arrange your 13 cards: arrange <back 5> <middle 5> <front 3>, each row in suit "
                                "form, like: {example}   (back >= middle >= front, or the hand is fouled)"
                            ).format(example=legal.sensible())
                        )
                    elif m.rules.family == "scottish" and legal and isinstance(legal[0], Declare):
                        con.print(_("You may call: {calls}").format(calls=", ".join(a.contract for a in legal)))
                    else:
                        con.print(
                            _("You may: {actions}").format(actions=sep.join(_action_text(a, names) for a in legal))
                        )
                    try:
                        text = read(_("your move> ")).strip()
                    except EOFError:
                        text = "quit"
                    if not text:
                        continue
                    cmd = command(text)
                    if cmd == "quit":
                        if watch is not None:
                            watch.close()
                        if not args.resume and not m.results and not decided:  # a new match left untouched
                            save.unlink(missing_ok=True)
                            con.print(_("Nothing was played: nothing is saved."))
                            return 0
                        write_record(m, save)
                        con.print(_("Saved to {path}. Resume with: barbu play --resume {path}").format(path=save))
                        return 0
                    if cmd == "help":
                        con.print(escape(help_text(m.rules)))
                        continue
                    if cmd in ("hand", "trick"):
                        continue
                    if cmd == "last":
                        con.print(_last_trick(m))
                        continue
                    if cmd == "sheet" and m.rules.family == "scottish":
                        from ..scottish.scoresheet import sheet_from_results, sheet_lines

                        con.print(
                            "\n".join(
                                sheet_lines(
                                    sheet_from_results(m.view(seat).results, m.n),
                                    [seat_short(s) for s in range(m.n)],
                                    words(),
                                )
                            )
                            or _("No deal yet.")
                        )
                        continue
                    if cmd == "scores":
                        con.print(
                            _("Totals: {totals}").format(
                                totals="  ".join(seat_value(s, number(t)) for s, t in enumerate(m.totals))
                            )
                        )
                        continue
                    try:
                        m.apply(typed_action(m, text, seat, m.n), seat=seat)
                    except BarbuError as e:
                        con.print(_("[red]Not allowed:[/red] {reason}").format(reason=escape(word_error(e, current()))))
                        continue
                    decided = True
            if len(m.results) > done:
                done = len(m.results)
                r = m.results[-1]
                con.print(
                    _("Deal {n} over ({contract}): scores {scores} — totals {totals}").format(
                        n=r.number,
                        contract=contract(m.contract_by_key[r.contract].name),
                        scores="  ".join(seat_value(s, signed(x) if x else "+0") for s, x in enumerate(r.scores)),
                        totals="  ".join(number(t) for t in m.totals),
                    )
                )
                write_record(m, save)
                tell_shadow(con, watch, told)
        con.print(
            _("Match over. Standings: {standings}").format(
                standings=", ".join(f"{seat_word(s)} {number(t)}" for s, t in m.standings())
            )
        )
        write_record(m, save)
        con.print(_("Record saved to {path}.").format(path=save))
        if watch is not None:
            sum_up_shadow(con, watch, told, m, save)
        if m.rules.family != "scottish":  # the record names no seat of yours: say it when it is not the first
            mine = f"{save} --seat {seat}" if seat else str(save)
            con.print(
                _("Puzzles from this match, your costliest decisions: barbu puzzle --mine {path}").format(path=mine)
            )
        return 0


def tell_shadow(con: Console, watch: ShadowWatch | None, told: set[int]) -> None:
    """The expert's scores on deals you finished, as they come back from the background, each said once."""
    if watch is None:
        return
    watch.update()
    new = sorted(k for k in watch.results if k not in told)
    for k in new:
        r = watch.results[k]
        con.print(_("Deal {n}:").format(n=number(k + 1)) + " " + expert_line(r), markup=False, highlight=False)
        told.add(k)
    if new:
        con.print(running_line(watch.summary()), markup=False, highlight=False)


def sum_up_shadow(con: Console, watch: ShadowWatch, told: set[int], m: Match, save: Path) -> None:
    """At the match's end: wait for the last replays (Ctrl+C skips them), then the sum and the worst deals."""
    watch.update()
    if watch.pending:
        con.print(_("Replaying the last deals with the expert (Ctrl+C to skip)…"))
        try:
            while watch.pending:
                time.sleep(0.2)
                watch.update()
        except KeyboardInterrupt:
            pass
    skipped = len(watch.pending)
    watch.close()
    s = watch.summary()
    if not s.deals:
        return
    con.print(final_line(s, skipped), markup=False, highlight=False)
    if s.worst:
        con.print(_("The deals where you lost most to the expert:"))
        for i, r in enumerate(s.worst, start=1):
            name = contract(m.contract_by_key[m.results[r.deal].contract].name)
            con.print("  " + worst_line(number(i), r, name), markup=False, highlight=False)
        con.print(
            _("What each of your decisions cost in one of them: barbu analyze {path} --seat {seat} --deal {n}").format(
                path=save, seat=watch.seat, n=s.worst[0].deal + 1
            ),
            markup=False,
            highlight=False,
        )


def _chance_text(m: Match, a: object) -> str:
    """Draws and cuts of the Unused Pack, as the table sees them."""
    from ..scottish.pack import display_pack

    if isinstance(a, PackDraw):
        drawn = ", ".join(f"{seat_word(s)} {display_pack(c)}" for s, c in enumerate(a.cards))
        if m.phase_name == "draw":
            return _("Draw from the Unused Pack: {drawn} — a tie for the highest card: draw again.").format(drawn=drawn)
        first = (
            # TRANSLATORS: {dealer} is a player as the table names him: "you", "West, good player", "Alice".
            _("Draw from the Unused Pack: {drawn} — {dealer} deals first in the Silly Round.")
            if m.view(0).scottish.state.silly
            else _("Draw from the Unused Pack: {drawn} — {dealer} is the first Caller.")
        )
        return first.format(drawn=drawn, dealer=seat_word(m.dealer))
    assert isinstance(a, Cut)
    from ..scottish.pack import is_black, is_red

    sv = m.view(0).scottish
    why = sv.cuts[-1][0] if sv.cuts else "calls"
    cut = display_pack(a.card)
    if why == "calls":
        if sv.calls and m.contract is not None:
            return _("The cutter cuts {card}: {call} to be played.").format(card=cut, call=contract(m.contract.name))
        return _("The cutter cuts {card}.").format(card=cut)
    if is_black(a.card):
        return _("The cutter cuts {card}: a pass-on.").format(card=cut)
    if is_red(a.card):
        return _("The cutter cuts {card}: no (more) pass-ons.").format(card=cut)
    return _("The cutter cuts {card}: cut again.").format(card=cut)


def _last_trick(m: Match) -> str:
    if not m.trick_log:
        return _("No trick has been completed in this deal yet.")
    leader, cards = m.trick_log[-1]
    return _("Last trick: {cards}").format(
        cards=", ".join(f"{seat_word((leader + i) % m.n)} {card(c)}" for i, c in enumerate(cards))
    )
