"""Bésigue's side of the ``barbu`` command line: rules, selfplay, replay, show, arena.

`barbu.cli` hands a command here when the game registry says the rules text
or the record is Bésigue; all Bésigue-specific printing lives in this module.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.table import Table

from ..agents.besigue import make_besigue_agent
from ..arena.besigue import ArenaSummary, run_arena
from ..arena.report import decimal, open_arena_runner
from ..besigue.actions import MELD_NAMES, MELD_VALUES
from ..besigue.cards import parse_type
from ..besigue.game import BesigueGame
from ..besigue.ruleset import OPTIONS, PRESETS, BesigueRules
from ..core.errors import BarbuError
from ..guide import value_word
from ..i18n import _, number, pgettext, words
from ..play.names import record_names
from ..records.barbu import with_daily_key
from ..records.besigue import read_record, verify_deals
from .wording import data, keyword, no_such_deal, option_cell


def print_presets(console: Console) -> None:
    """The Bésigue rows of ``barbu rules``."""
    t = Table(title=_("Bésigue presets (2 players)"))
    t.add_column(_("preset"))
    t.add_column(_("description"))
    for name, (_rules, desc) in PRESETS.items():
        t.add_row(name, data(desc))
    console.print(t)


def cmd_rules(args: argparse.Namespace, console: Console) -> int:
    rules = BesigueRules.parse(args.name)
    console.print(f"[bold]{rules}[/bold] — {data(PRESETS[rules.preset][1])}")
    console.print(
        _(
            "2 players, 64 cards (two packs of 32), ranked A 10 K Q J 9 8 7; {hand} cards each, stock of "
            "{stock} with the turn-up, {stock_tricks} tricks from the stock then {hand} last tricks; "
            "highest total wins"
        ).format(hand=rules.hand, stock=rules.stock_size, stock_tricks=rules.stock_tricks)
    )
    t = Table(title=_("Options"))
    t.add_column(_("option"))
    t.add_column(_("value"))
    t.add_column(_("allowed"))
    t.add_column(_("meaning"))
    for name, (allowed, meaning, values) in OPTIONS.items():
        value = getattr(rules, name)
        allowed_text = _("a positive number") if allowed == "int" else ", ".join(allowed)
        shown = data(values[str(value)]) if str(value) in values else value_word(value, words())
        t.add_row(option_cell(name), shown, allowed_text, data(meaning))
    console.print(t)
    c = Table(title=_("Combinations (declared after winning a trick while the stock lasts)"))
    c.add_column(_("combination"))
    c.add_column(_("declare as"))
    c.add_column(_("points"), justify="right")
    for kind, value in MELD_VALUES.items():
        c.add_row(pgettext("combination", MELD_NAMES[kind]), f"{keyword('declare')} {keyword(kind)} …", number(value))
    console.print(c)
    console.print(
        _(
            "Also: 10 per brisque won, 10 for the last trick, 10 for the 7 of trumps "
            "(turned up by the dealer, or as the option seven says). See docs/besigue.md."
        )
    )
    return 0


def check_players(args: argparse.Namespace) -> None:
    """Refuse Barbu-only settings in plain words rather than ignore them."""
    if getattr(args, "players", None) not in (None, 2):
        raise BarbuError(_("Bésigue is played by 2 players, not {n}").format(n=args.players))
    if getattr(args, "sets", None) is not None:
        raise BarbuError(_("--sets is for the Scottish game; Bésigue has no Sets"))


def print_deals(console: Console, g: BesigueGame, title: str, header: Mapping[str, Any] | None = None) -> None:
    """The deals of a game, its two players named by the record's ``header`` (else by place: South, North)."""
    names = record_names(header or {}, 2)
    short = [name.split(", ")[0] for name in names]  # a computer player by its place in the narrow cells
    t = Table(title=title, caption=_("under each player: the combinations declared"))
    t.add_column(_("deal"), justify="right")
    t.add_column(_("dealer"), justify="right")
    for s in (0, 1):
        t.add_column("\n".join(names[s].replace(",", "").split()))  # a word a line: the table fits 80 columns
    t.add_column(_("brisques"), justify="right")
    t.add_column(_("last"), justify="right")
    t.add_column(_("scores"), justify="right")
    t.add_column(_("totals"), justify="right")
    for r in g.results:
        melds = [", ".join(f"{keyword(k)} {number(v)}" for k, v in r["melds"][s]) or "-" for s in (0, 1)]
        t.add_row(
            str(r["deal"]),
            short[r["dealer"]],
            *melds,
            f"{r['brisques'][0]}-{r['brisques'][1]}",
            short[r["last_trick"]],
            f"{number(r['scores'][0])}-{number(r['scores'][1])}",
            f"{number(r['totals'][0])}-{number(r['totals'][1])}",
        )
    console.print(t)
    winner = g.winner
    if winner is None:
        state = _("unfinished ({phase}, {n} deals done)").format(phase=g.phase, n=len(g.results))
    else:
        state = _("you win") if names[winner] == _("you") else _("{who} wins").format(who=names[winner])
    console.print(
        _("totals: {totals} ({state})").format(totals=f"{number(g.totals[0])} {number(g.totals[1])}", state=state)
    )


def cmd_replay(args: argparse.Namespace, console: Console, err: Console) -> int:
    rep = read_record(args.record)
    if getattr(args, "daily_key", None):  # a daily deal's record kept before its day's key was published
        rep.header = with_daily_key(rep.header, args.daily_key)
    print_deals(console, rep.game, f"{args.record} — {rep.game.rules}", rep.header)
    if not rep.consistent:
        for p in rep.inconsistencies:
            err.print(_("[red]inconsistent:[/red] {problem}").format(problem=p))
        return 1
    console.print(_("the record is consistent: every stated score matches the replay"))
    wrong = verify_deals(rep)
    if wrong:
        err.print(
            _("[red]the deals do not match the table's key[/red] at actions {actions}").format(
                actions=", ".join(map(str, wrong[:10]))
            )
        )
        return 1
    if wrong is not None:
        console.print(_("the deals are verified: each is the one the table's published key produces"))
    return 0


def _declared(text: str) -> str:
    """A declaration's cards (``QS JD*``) in the reader's letters (``D♠ V♦``)."""
    from .besigue_plain import card_display

    return " ".join(card_display(parse_type(t.rstrip("*"))) for t in text.split()[2:])


def show_lines(game: BesigueGame, names: list[str], deal: int | None = None) -> list[str]:
    """A Bésigue record as people read it, deal by deal and trick by trick (``deal``, 1-based: that deal alone):
    the players by their record's names or places, never "seat 0", the cards in the reader's letters."""
    from .besigue_plain import _cards, card_display, trumps

    short = [name.split(", ")[0] for name in names]  # a computer player by its place on a busy line
    g = BesigueGame(game.rules, game.seed)
    g.keep_undo = False
    lines: list[str] = [f"Bésigue — {game.rules}"]
    current: list[str] = []
    done = 0
    for actor, text in game.log:
        before = g.phase
        g.apply(text)
        if text.startswith("first-dealer"):
            lines.append(_("{name} deals first").format(name=names[g.dealer]))
            continue
        if text.startswith("shuffle"):
            title = _("Deal {n} — dealer {dealer}, trumps {suit} (turn-up {card})")
            current = [
                "",
                title.format(
                    n=g.deal_no, dealer=short[g.dealer], suit=trumps(g.trump), card=card_display(g.turn_up or 0)
                ),
            ]
            current += ["  " + _("{seat}: {value}").format(seat=names[s], value=_cards(g.hands[s])) for s in (0, 1)]
            if g.events:  # the dealer turned a 7 of trumps up
                current.append("  " + _("{name} turns up the 7 of trumps: 10").format(name=short[g.dealer]))
            continue
        if text.startswith("play") and g.played and len(g.played) % 2 == 0:
            (s0, c0), (s1, c1) = g.played[-2:]
            current.append(
                "  "
                + _("trick {n}: {first} {card}, {second} {other} → {winner}").format(
                    n=number(g.tricks if g.phase != "shuffle" and not g.is_over else 32),
                    first=short[s0],
                    card=card_display(c0),
                    second=short[s1],
                    other=card_display(c1),
                    winner=short[g.last_winner],
                )
            )
        elif text.startswith("declare") and isinstance(actor, int):
            kind = text.split()[1]
            meld = pgettext("combination", MELD_NAMES[kind]) if kind in MELD_NAMES else kind
            current.append(
                "  " + _("{name} declares {meld}: {cards}").format(name=short[actor], meld=meld, cards=_declared(text))
            )
        elif text.startswith("exchange") and isinstance(actor, int):
            current.append("  " + _("{name} exchanges the 7 of trumps for the turn-up: 10").format(name=short[actor]))
        elif text.startswith("show") and isinstance(actor, int):
            current.append("  " + _("{name} shows the 7 of trumps: 10").format(name=short[actor]))
        if before == "declare" and g.phase == "last-declaration":
            current.append("  " + _("the stock is empty: last tricks"))
        while done < len(g.results):
            r = g.results[done]
            current.append(
                "  "
                + _("deal {n}: brisques {brisques}, last trick {name}; scores {scores}, totals {totals}").format(
                    n=r["deal"],
                    brisques=f"{r['brisques'][0]}-{r['brisques'][1]}",
                    name=short[r["last_trick"]],
                    scores=f"{number(r['scores'][0])}-{number(r['scores'][1])}",
                    totals=f"{number(r['totals'][0])}-{number(r['totals'][1])}",
                )
            )
            done += 1
            if deal is None or r["deal"] == deal:
                lines.extend(current)
            current = []
    if deal is None and current:
        lines.extend(current + ["  " + _("(deal unfinished)")])
    if game.is_over and deal is None and game.winner is not None:
        who = names[game.winner]
        won = _("you win") if who == _("you") else _("{who} wins").format(who=who)
        lines += ["", f"{won}, {number(game.totals[0])}-{number(game.totals[1])}"]
    return lines


def cmd_show(args: argparse.Namespace, err: Console) -> int:
    rep = read_record(args.record)
    g = rep.game
    if args.deal is not None and not 1 <= args.deal <= len(g.results):
        err.print(
            _("barbu: error: {message}").format(message=no_such_deal(len(g.results), args.deal)),
            soft_wrap=True,
            markup=False,
            highlight=False,
        )
        return 2
    lines = show_lines(g, record_names(rep.header, 2), args.deal)
    sys.stdout.write("\n".join(lines) + "\n")
    return 0 if rep.consistent else 1


def cmd_arena(args: argparse.Namespace, console: Console, specs: list[str]) -> int:
    check_players(args)
    if len(specs) != 2:
        raise BarbuError(_("a Bésigue arena compares two computer players: give two, e.g. --bots rule,random"))
    for spec in specs:
        make_besigue_agent(spec)
    every = max(1, args.deals // 10)

    def progress(n: int, s: ArenaSummary) -> None:
        if n % every == 0 or n == args.deals:
            console.print(
                _("  {n} boards: {a} − {b} = {mean} ± {half} points per deal").format(
                    n=n, a=s.a, b=s.b, mean=decimal(s.mean, 1, sign=True), half=decimal(s.half_width, 1)
                )
            )

    console.print(
        _(
            "Bésigue duplicate arena — {rules}: {a} vs {b}, {n} boards (each deal played twice, seats "
            "swapped), seeds from {seed}"
        ).format(rules=BesigueRules.parse(args.rules), a=specs[0], b=specs[1], n=args.deals, seed=args.seed)
    )
    with open_arena_runner(args, console) as runner:
        s = run_arena(
            args.rules, specs[0], specs[1], args.deals, args.seed, out=args.out, progress=progress, runner=runner
        )
    print_summary(console, s)
    return 0


def print_summary(console: Console, s: ArenaSummary) -> None:
    lo, hi = s.mean - s.half_width, s.mean + s.half_width
    console.print(
        _(
            "{a} vs {b}: {mean} points per deal for {a}, 95% interval [{lo}, {hi}] over {boards} boards; "
            "boards won {wins}, lost {losses}, drawn {drawn}"
        ).format(
            a=s.a,
            b=s.b,
            mean=decimal(s.mean, 1, sign=True),
            lo=decimal(lo, 1, sign=True),
            hi=decimal(hi, 1, sign=True),
            boards=s.boards,
            wins=s.wins,
            losses=s.losses,
            drawn=s.boards - s.wins - s.losses,
        )
    )
    verdict = (
        _("{bot} is stronger (significant at 95%)").format(bot=s.a if s.mean > 0 else s.b)
        if s.significant
        else _("no significant difference at 95%")
    )
    console.print(verdict)
    if s.decisions:
        console.print(
            _("search decisions: {n}, mean {mean} ms, max {max} ms, {rate} playouts/s").format(
                n=s.decisions,
                mean=decimal(s.mean_decision * 1000, 1),
                max=decimal(s.max_decision * 1000, 0),
                rate=number(round(s.playouts_per_second)),
            )
        )
