"""``barbu play --plain --rules besigue``: a line-by-line Bésigue game against a computer player.

At each of your turns it prints what your seat sees (trumps, the stock and the
turn-up, both players' laid melds, the trick, your hand) and the actions you
may take, reads one typed action (``qs``, ``play qs*``, ``declare bezique QS
JD``, ``pass``, ``exchange 7H``; in French or Italian the player's own words),
refuses an illegal one with the engine's reason in the player's language, and
saves the record after every deal and when you quit.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from ..besigue.actions import MELD_NAMES, Declare, Exchange, NoDeclaration, Play, Show
from ..besigue.cards import RANKS, parse_type
from ..besigue.view import BesigueView
from ..core.errors import BarbuError, ParseError
from ..core.words import N_
from ..guide.ruleset_words import game_name
from ..i18n import _, current, number, pgettext, word_error, words
from ..i18n.typed import engine_text
from ..play.labels import player_word
from ..records.savefiles import DEFAULT_SAVE
from .textplay import command
from .wording import keyword

# TRANSLATORS: the plain Bésigue game's help: show what a player of your language types (cards with your
# letters, the combinations by their names); the English forms are understood too.
HELP = N_("""Type your action when asked:
  a card: qs, 10d, Q♠ (qs* plays a card laid among your melds)
  after winning a trick: declare bezique QS JD, declare marriage KH QH, … or pass (declare nothing)
  with seven=exchange: exchange 7H (for the turn-up) or show 7H
Other commands: last (the last trick), scores, help, quit (saves the game).""")


def card_display(card: int) -> str:
    """A Bésigue card in the player's letters: ``Q♠`` (``D♠`` in French)."""
    return words().face(RANKS[card % 8], (card % 32) // 8)


def _cards(cards) -> str:
    """Cards by suit, high to low, as a hand is held."""
    return " ".join(card_display(c) for c in sorted(cards, key=lambda c: (c % 32 // 8, -(c % 8), c))) or "-"


def trumps(suit: int) -> str:
    """The trump suit by its name in the player's language ("spades"; French says it in the singular, "pique")."""
    return words().named_suit(suit)


def describe(v: BesigueView, game_totals: bool = True) -> str:
    """One screenful of what the person's seat sees now (``game_totals`` False: a deal played alone, as the daily
    deals are, with no game's totals and target to tell)."""
    me, opp = v.seat, 1 - v.seat
    if v.turn_up is not None and v.stock_size:
        stock = _("stock {n}, turn-up {card}").format(n=v.stock_size, card=card_display(v.turn_up))
    elif v.stock_size:
        stock = _("stock {n}").format(n=v.stock_size)
    else:
        stock = _("the stock is empty: last tricks")
    lines = [_("Deal {n}, trumps {suit} — {stock}").format(n=v.deal_no, suit=trumps(v.trump), stock=stock)]
    line = _("Computer: {n} cards in hand").format(n=v.opponent_hand_size)
    if v.opponent_known:
        line += " " + _("(shown: {cards})").format(cards=_cards(v.opponent_known))
    if v.table[opp]:
        line += _("; laid: {cards}").format(cards=_cards(c for c, _x in v.table[opp]))
    lines.append(line)
    if v.table[me]:
        lines.append(_("Your laid melds: {cards}").format(cards=_cards(c for c, _x in v.table[me])))
    if v.trick:
        lines.append(_("Trick: computer led {card}").format(card=card_display(v.trick[0][1])))
    lines.append(_("Your hand: {cards}").format(cards=_cards(v.hand)))
    if not game_totals:
        lines.append(
            _("Scores this deal: you {mine}, computer {theirs}").format(
                mine=number(v.scores[me]), theirs=number(v.scores[opp])
            )
        )
    else:
        lines.append(
            _(
                "Scores this deal: you {mine}, computer {theirs} — totals: you {my_total}, computer "
                "{their_total} (to {target})"
            ).format(
                mine=number(v.scores[me]),
                theirs=number(v.scores[opp]),
                my_total=number(v.totals[me]),
                their_total=number(v.totals[opp]),
                target=number(v.rules.target),
            )
        )
    return "\n".join(lines)


def typed(text: str) -> str:
    """A card typed alone means playing it."""
    word = text.strip()
    try:
        parse_type(word.removesuffix("*"))
    except ParseError:
        return text
    return f"play {word}"


def read_typed(text: str) -> str:
    """What the player typed, in their language, as the engine's notation (a lone card means playing it)."""
    star = text.strip().endswith("*")  # a card laid among the melds: the star stays
    reading = engine_text(text.strip().removesuffix("*"), current())
    return typed(reading + ("*" if star else ""))


def play_plain(args: argparse.Namespace, read: Callable[[str], str] = input, console: Console | None = None) -> int:
    from ..play.besigue_session import BesigueSession, resume_from_args, settings_from_args

    con = console or Console(highlight=False)
    if args.resume:
        s = resume_from_args(args)
        con.print(_("Resumed {path}: {n} deals played.").format(path=args.resume, n=len(s.game.results)))
    else:
        settings = settings_from_args(args)
        settings.save = settings.save or Path(DEFAULT_SAVE)
        s = BesigueSession.new(settings)
        con.print(_("This game is saved to {path}.").format(path=s.save_path))
    me = s.seat
    con.print(
        _("You sit South, playing {rules} against the computer sitting North ({strength}). Type 'help'.").format(
            rules=escape(game_name(s.rules, words())), strength=player_word(s.strength)
        )
    )
    done = len(s.game.results)
    while not s.is_over:
        actor = s.to_act()
        assert actor is not None  # someone is to act until the game is over
        if actor == -1:
            s.play_chance()
            if s.game.phase == "play" and not s.game.played:
                con.print(
                    "\n"
                    + _("[bold]Deal {n}[/bold]: cards are dealt; trumps are {suit}.").format(
                        n=s.game.deal_no, suit=trumps(s.game.trump)
                    )
                )
            continue
        if actor != me:
            a = s.agent.act(s.bot_view(actor))
            s.apply_bot(actor, a)
            con.print(_("computer: {action}").format(action=escape(_words(a))))
        else:
            v = s.view()
            con.print(describe(v))
            con.print(_("You may: {actions}").format(actions="  ".join(_words(a) for a in v.legal)))
            try:
                text = read(_("your move> ")).strip()
            except EOFError:
                text = "quit"
            if not text:
                continue
            cmd = command(text)
            if cmd == "quit":
                if s.leave() is None:
                    con.print(_("Nothing was played: nothing is saved."))
                else:
                    con.print(_("Saved to {path}. Resume with: barbu play --resume {path}").format(path=s.save_path))
                return 0
            if cmd == "help":
                con.print(escape(_(HELP)))
                continue
            if cmd == "last":
                p = v.played
                last = p[len(p) - len(p) % 2 - 2 : len(p) - len(p) % 2]
                con.print(
                    _("Last trick: {cards}").format(
                        cards=", ".join(
                            (_("you {card}") if x == me else _("computer {card}")).format(card=card_display(c))
                            for x, c in last
                        )
                        if len(p) >= 2
                        else _("none yet")
                    )
                )
                continue
            if cmd == "scores":
                con.print(
                    _("Totals: you {mine}, computer {theirs}").format(
                        mine=number(s.game.totals[me]), theirs=number(s.game.totals[1 - me])
                    )
                )
                continue
            try:
                a = s.apply_human(read_typed(text))
            except BarbuError as e:
                con.print(_("[red]Not allowed:[/red] {reason}").format(reason=escape(word_error(e, current()))))
                continue
            con.print(_("you: {action}").format(action=escape(_words(a))))
        while done < len(s.game.results):
            r = s.game.results[done]
            done += 1
            melds = [
                ", ".join(f"{pgettext('combination', MELD_NAMES[k])} {number(p)}" for k, p in r["melds"][x])
                or _("none")
                for x in (me, 1 - me)
            ]
            last_by = _("you") if r["last_trick"] == me else _("computer")
            con.print(
                _(
                    "Deal {n} over: you {mine} (combinations: {my_melds}; brisques {my_brisques}), computer "
                    "{theirs} (combinations: {their_melds}; brisques {their_brisques}); last trick: {last} — "
                    "totals: you {my_total}, computer {their_total}"
                ).format(
                    n=r["deal"],
                    mine=number(r["scores"][me]),
                    my_melds=melds[0],
                    my_brisques=r["brisques"][me],
                    theirs=number(r["scores"][1 - me]),
                    their_melds=melds[1],
                    their_brisques=r["brisques"][1 - me],
                    last=last_by,
                    my_total=number(r["totals"][me]),
                    their_total=number(r["totals"][1 - me]),
                )
            )
            s.save()
    g = s.game
    won = _("you win") if g.winner == me else _("the computer wins")
    con.print(
        _("Game over: {outcome}, {mine} to {theirs}.").format(
            outcome=won, mine=number(g.totals[me]), theirs=number(g.totals[1 - me])
        )
    )
    s.save()
    con.print(_("Record saved to {path}.").format(path=s.save_path))
    return 0


def _words(a) -> str:
    """An action as the player would type it: cards in their letters, the keywords in their words."""
    if isinstance(a, Play):
        return card_display(a.card) + ("*" if a.from_table else "")
    if current() == "en":
        return str(a)  # the notation itself
    if isinstance(a, NoDeclaration):
        return keyword("no-declaration")
    if isinstance(a, Declare):
        cards = " ".join(card_display(t) + ("*" if on_table else "") for t, on_table in a.cards)
        return f"{keyword('declare')} {keyword(a.kind)} {cards}"
    if isinstance(a, (Exchange, Show)):
        return f"{keyword('exchange' if isinstance(a, Exchange) else 'show')} {card_display(a.card)}"
    return str(a)
