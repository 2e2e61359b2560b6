"""The ``barbu`` command line: rules, selfplay, replay, show, play, arena, serve and sheet."""

from __future__ import annotations

import argparse
import math
import re
import sys
from pathlib import Path
from typing import Any, Sequence

from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from importlib.metadata import version
from ..agents import AGENT_KINDS, make_agent
from ..agents.base import parse_agent_spec
from ..agents.play import agent_for, play_out
from ..arena.duplicate import split_bots
from ..core.errors import AgentError, BarbuError, RecordError, UnreadableFile
from ..core.words import N_
from ..games import game_kind, record_kind
from ..guide import value_phrase
from ..guide.barbu import contract_values
from ..classic.match import Match
from ..classic.ruleset import preset, presets
from ..core.actions import Lay, Pass
from ..classic.chinese import describe as describe_arrangement
from ..i18n import _, current, ngettext, number, use, word_error, words
from ..records.barbu import (deals_with_actions, read_record, replay, text_form, trick_winner, verify_deals,
                             with_daily_key)
from ..classic.ruleset import OPTIONS, Ruleset
from .argwords import Parser, route_argparse, seconds
from .lang import add_lang_options, lang_in
from ..analysis.ddtable import DEFAULT_CELL_SECONDS, deal_start
from .ddview import cell_seconds, chosen_of, contract_label, not_covered, print_dd
from .sheets import add_sheet_arguments, cmd_sheet
from .wording import (card, cards, contract, cut_reason, data, error_text, hand, no_such_deal, option_cell, seat,
                      signed)

console = Console(highlight=False)
err = Console(stderr=True, highlight=False)


def parse_rules(text: str, players: int | None, sets: int | None = None) -> Ruleset:
    r = Ruleset.parse(text)
    if players is not None and players != r.players:
        r = r.replace(players=players)
    if sets is not None and sets != r.sets:
        if r.family != "scottish":
            raise BarbuError(_("--sets is for the Scottish game; {preset} has no Sets").format(preset=r.preset))
        r = r.replace(sets=sets)
    return r


def error(message: str) -> None:
    """A refusal of the command line, on stderr: ``barbu: error: …`` in the player's language."""
    err.print(_("barbu: error: {message}").format(message=message), soft_wrap=True, markup=False, highlight=False)


# ---------------------------------------------------------------- rules
def _besigue_cli():
    """Bésigue's commands live in their own module; the registry says when a command is Bésigue's."""
    from . import besigue as cli
    return cli


def cmd_rules(args: argparse.Namespace) -> int:
    if args.name and game_kind(args.name).name == "besigue":
        return _besigue_cli().cmd_rules(args, console)
    if not args.name:
        t = Table(title=_("Presets"), show_lines=False)
        t.add_column(_("preset"))
        t.add_column(_("aliases"))
        t.add_column(_("players"))
        t.add_column(_("description"))
        for p in presets():
            fam = p.ruleset.family_spec
            t.add_row(p.name, ", ".join(p.aliases), ",".join(str(x) for x in fam.players), data(p.description))
        console.print(t)
        _besigue_cli().print_presets(console)
        console.print(_("Show one preset's options with [bold]barbu rules NAME[/bold]; "
                        "override them as in [bold]classic(rotation=quick)[/bold]."))
        return 0
    r = Ruleset.parse(args.name)
    fam = r.family_spec
    p = preset(r.preset)
    console.print(f"[bold]{r}[/bold] — {data(p.description)}")
    wins = _("highest total wins") if fam.highest_wins else _("lowest total wins")
    console.print(_("{description}; {wins}.").format(description=data(fam.description), wins=wins))
    t = Table(title=_("Options"))
    t.add_column(_("option"), min_width=max(len(n) for n in OPTIONS))
    t.add_column(_("value"), overflow="fold")
    t.add_column(_("allowed"), overflow="fold")
    t.add_column(_("meaning"))
    for name, value in r.option_values().items():
        if name != "players" and name not in fam.options:
            continue
        spec = OPTIONS[name]
        allowed = ", ".join(str(x) for x in fam.players) if name == "players" else spec.allowed(words())
        t.add_row(option_cell(name), value_phrase(name, value, words()), allowed, data(spec.help))
    console.print(t)
    m = Match(r)
    if fam.name == "scottish":
        print_scottish_calls(m)
        return 0
    c = Table(title=_("Contracts (each declarer names each once)"))
    c.add_column(_("contract"))
    c.add_column(_("key"))
    c.add_column(_("total"), justify="right")
    c.add_column(_("how it scores"))
    for k in m.contracts:  # what each trick or card is worth first, then the contract in words
        c.add_row(contract(k.name), k.key,
                  number(k.total(m.n, m.hand_size, m.deck)) if k.fixed_total else _("varies"),
                  Text.assemble((contract_values(k, m.n, words()), "bold"), "\n", data(k.help)))
    console.print(c)
    return 0


def print_scottish_calls(m: Match) -> None:
    """The seven calls of a Round; groups of negative calls are played at once."""
    c = Table(title=_("Calls (each Round plays all seven, alone or in groups)"))
    c.add_column(_("call"))
    c.add_column(_("key"))
    c.add_column(_("total"), justify="right")
    c.add_column(_("how it scores"))
    for key in ("aces", "king", "queens", "hearts", "tricks", "patience", "double-patience"):
        k = m.contract_by_key[key]
        c.add_row(contract(k.name), key, number(k.total(m.n, m.hand_size, m.deck)),
                  Text.assemble((contract_values(k, m.n, words()), "bold"), "\n", data(k.help)))
    console.print(c)
    console.print(_("Groups of negative calls are called as one, like [bold]king+queens[/bold] (all five: "
                    "[bold]the-lot[/bold]). A Caller's seven calls must include two groups of 2+ or one of 3+. "
                    "The Silly Round's calls and pass-ons are cut from the Unused Pack."))


# ---------------------------------------------------------------- selfplay
def cmd_selfplay(args: argparse.Namespace) -> int:
    kind = game_kind(args.rules)
    if kind.name == "besigue":
        _besigue_cli().check_players(args)
        game: Any = kind.open(args.rules, args.seed)
    else:
        game = Match(parse_rules(args.rules, args.players, args.sets), args.seed)
    specs = split_bots(args.bots)
    if len(specs) == 1:
        specs = specs * game.n
    if len(specs) != game.n:
        raise BarbuError(_("{rules} is played by {n} players: give {n} computer players, not {given}").format(
            rules=game.rules, n=game.n, given=len(specs)))
    agents = [agent_for(game, spec, None if args.seed is None else args.seed * 1000 + s)
              for s, spec in enumerate(specs)]
    # A progress bar on a terminal (search players take a minute for a match); nothing when piped.
    total = getattr(game, "total_deals", None)  # a Bésigue game has no fixed number of deals
    with Progress(TextColumn(_("deals")), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True, disable=not err.is_terminal) as progress:
        task = progress.add_task("deals", total=total)

        def deal_done() -> None:
            done = len(game.results)
            progress.update(task, completed=done, total=None if total is None else max(game.total_deals, done))
        play_out(game, agents, deal_done)
    if args.out:
        kind.write_record(game, args.out, {"players_names": [f"{spec} {s}" for s, spec in enumerate(specs)]})
        console.print(_("record written to {path}").format(path=args.out))
    if args.text:
        Path(args.text).write_text(kind.text_form(game), encoding="utf-8")
        console.print(_("text form written to {path}").format(path=args.text))
    if kind.name == "besigue":
        _besigue_cli().print_deals(console, game, f"Bésigue — {game.rules}")
    else:
        print_final(game)
    return 0


def print_final(m: Match) -> None:
    # The title on a line of its own: as the table's title it wrapped to the narrow table's width.
    console.print(Text(_("Final standings — {rules}, {deals}").format(
        rules=m.rules, deals=deals_count(len(m.results))), style="bold"))
    t = Table()
    t.add_column(_("place"), justify="right")
    t.add_column(_("seat"))
    t.add_column(_("total"), justify="right")
    for place, (s, total) in enumerate(m.standings(), start=1):
        t.add_row(str(place), seat(s), number(total))
    console.print(t)


def deals_count(n: int) -> str:
    return ngettext("{n} deal", "{n} deals", n).format(n=number(n))


# ---------------------------------------------------------------- replay
def cmd_replay(args: argparse.Namespace) -> int:
    if getattr(args, "sheet", None):
        from .sheets import replay_sheet
        return replay_sheet(args, console, err)
    if record_kind(args.record).name == "besigue":
        return _besigue_cli().cmd_replay(args, console, err)
    record = read_record(args.record)
    if getattr(args, "daily_key", None):  # a daily deal's record kept before its day's key was published
        record.header = with_daily_key(record.header, args.daily_key)
    rep = replay(record)
    m = rep.match
    if m.rules.family == "scottish":
        print_scottish_replay(args.record, m)
        return finish_replay(m, rep) or report_deals_verified(record)
    # Narrow enough for 80 columns with four players: each seat's cell is the deal's points over the
    # running total; the doubles are counted here and listed by `barbu show --deal N`.
    running = m.n <= 4  # room for the running totals in every row
    t = Table(title=f"{Path(args.record).name} — {m.rules}", box=box.SIMPLE_HEAD, pad_edge=False,
              collapse_padding=True,
              caption=(_("each seat: points this deal / running total") if running else _("points per deal"))
              + _("; dbl: doubles (barbu show --deal N lists them)"))
    # TRANSLATORS: column heads of the replay table, kept short (80 columns): deal number, dealer, doubles.
    t.add_column(_("deal"), justify="right")
    t.add_column(_("dlr"), justify="right")
    t.add_column(_("contract"), max_width=14)
    t.add_column(_("dbl"), justify="right")
    for s in range(m.n):
        t.add_column(seat(s), justify="right", no_wrap=True)
    for r in m.results:
        totals = m.totals_after(r.number)
        cells = [signed(x) + (f" / {number(tot)}" if running else "") for x, tot in zip(r.added, totals)]
        t.add_row(str(r.number), str(r.dealer), contract_label(m, r.contract, r.trump, r.rank, r.played),
                  str(len(r.doubles)) if r.doubles else "-", *cells)
    if not running:
        t.add_section()
        t.add_row("", "", _("totals"), "", *(number(x) for x in m.totals))
    console.print(t)
    return finish_replay(m, rep) or report_deals_verified(record)


def finish_replay(m: Match, rep) -> int:
    state = _("finished") if m.is_over else _("unfinished: {phase}, {deals} done").format(
        phase=m.phase_name, deals=deals_count(len(m.results)))
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
        err.print(_("[red]the deals do not match the table's key[/red] at lines {lines}").format(
            lines=", ".join(map(str, wrong[:10]))))
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
    t = Table(title=f"{name} — {m.rules}")
    t.add_column(_("deal"), justify="right")
    t.add_column(_("round"))
    t.add_column(_("dealer"), justify="right")
    t.add_column(_("call"))
    for s in range(m.n):
        t.add_column(seat(s), justify="right")
    for r in m.results:
        t.add_row(str(r.number), round_label(r.scottish), str(r.dealer), contract(m.contract_by_key[r.contract].name),
                  *(number(x) for x in r.scores))
    console.print(t)
    console.print(_("Scoresheet (glyphs beside the points):"))
    for line in sheet_lines(sheet_from_results(m.results, m.n)):
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
        return _besigue_cli().cmd_show(args, err)
    record = read_record(args.record)
    rep = replay(record)
    m = rep.match
    if args.deal is None:
        sys.stdout.write(text_form(m))
        return 0 if rep.consistent else 1
    if not 1 <= args.deal <= len(m.results):
        error(no_such_deal(len(m.results), args.deal))
        return 2
    refusal = not_covered(m) if dd else None
    if refusal:
        error(refusal)
        return 2
    r = m.results[args.deal - 1]
    k = m.contract_by_key[r.contract]
    console.print(_("[bold]Deal {n}[/bold] — dealer {dealer}, {contract}").format(
        n=r.number, dealer=seat(r.dealer), contract=contract_label(m, r.contract, r.trump, r.rank, r.played)))
    for s, h in enumerate(r.hands):
        console.print(f"  {seat(s)}: {hand(h)}")
    if r.scottish is not None:
        show_scottish_deal(m, r)
    else:
        doubles = [(_("{doubler} doubled {doubled} (redoubled)") if b.redoubled else _("{doubler} doubled {doubled}"))
                   .format(doubler=seat(b.doubler), doubled=seat(b.doubled)) for b in r.doubles]
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
        console.print(_("Turns (seat:card, passes included): {turns}").format(turns=" ".join(
            f"{s}:{card(a) if isinstance(a, int) else words().pgettext('doubling', 'pass') if isinstance(a, Pass) else a}"
            for s, a in acts if isinstance(a, (int, Pass, Lay)))))
        console.print(_("Finishing order: {seats}").format(seats=", ".join(seat(s) for s in r.finishing)))
    else:
        t = Table(title=_("Tricks"))
        t.add_column("#", justify="right")
        t.add_column(_("leader"))
        t.add_column(_("cards"))
        t.add_column(_("winner"))
        for i, (leader, trick) in enumerate(r.tricks, start=1):
            w = trick_winner(leader, trick, r.trump if k.trump else None, m.n)
            t.add_row(str(i), seat(leader), cards(trick), seat(w))
        console.print(t)
    s = Table(title=_("Scores"))
    s.add_column("")
    for x in range(m.n):
        s.add_column(seat(x), justify="right")
    if r.scottish is not None:
        from ..classic.contracts import SCOTTISH_CALL_NAMES
        from ..scottish.scoresheet import glyph_label
        for call, pts in zip(r.scottish.calls, r.scottish.parts):
            s.add_row(contract(SCOTTISH_CALL_NAMES[call]),
                      *(f"{number(x)} {glyph_label(r.scottish.glyphs, k_, call)}".strip() for k_, x in enumerate(pts)))
        s.add_row(_("deal"), *(f"{number(x)} {glyph_label(r.scottish.glyphs, k_, None)}".strip()
                               for k_, x in enumerate(r.scores)))
    else:
        s.add_row(_("contract"), *(number(x) for x in r.base))
        s.add_row(_("with doubles"), *(number(x) for x in r.scores))
    s.add_row(_("running total"), *(number(x) for x in m.totals_after(r.number)))
    console.print(s)
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
        console.print(_("Set {set}, Silly Round, deal {deal}: cutter {seat}").format(
            set=info.set_no, deal=info.deal_in_round, seat=seat((r.dealer - 1) % m.n)))
    else:
        console.print(_("Set {set}, Player Round {round}, deal {deal}: caller {seat}").format(
            set=info.set_no, round=info.round_no, deal=info.deal_in_round, seat=seat(info.caller)))
    if info.cuts:
        console.print(_("Cuts: {cuts}").format(cuts=", ".join(f"{display_pack(c)} ({cut_reason(why)})" for why, c in info.cuts)))
    for n, (offset, gives) in enumerate(info.passes, start=1):
        console.print(_("Pass-on {n}, to the {direction}: {passes}").format(
            n=n, direction=_(DIRECTION_NAMES[offset]), passes="; ".join(
                _("{seat} passes {cards}").format(seat=seat(s), cards=hand(g)) for s, g in enumerate(gives))))
    if info.glyphs:
        console.print(_("Glyphs: {glyphs}").format(glyphs="; ".join(str(g) for g in info.glyphs)))


# ---------------------------------------------------------------- play
def cmd_play(args: argparse.Namespace) -> int:
    """The Textual game; the line-by-line one with --plain or when not run in a terminal (piped input)."""
    if getattr(args, "daily", False):  # the day's daily deals: the Textual table, or line by line (barbu.cli.daily)
        from .daily import play_daily, play_daily_table
        if args.plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
            return play_daily(args)
        return play_daily_table(args)
    if args.plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
        from .textplay import play_in_terminal
        if args.seat is None and not (args.resume and record_kind(args.resume).name == "besigue"):
            args.seat = 0
        if (record_kind(args.resume) if args.resume else game_kind(args.rules)).name == "besigue":
            from .besigue_plain import play_plain  # Bésigue's line-by-line game
            return play_plain(args)
        return play_in_terminal(args)
    from ..tui.launch import play
    return play(args)


# ---------------------------------------------------------------- arena
def cmd_arena(args: argparse.Namespace) -> int:
    if game_kind(args.rules).name == "besigue":
        return _besigue_cli().cmd_arena(args, console, split_bots(args.bots))
    from ..arena.report import cmd_arena as run
    return run(args, console)


# ---------------------------------------------------------------- serve
def _player_problem(spec: str) -> str | None:
    """Why a computer player can sit at no game of the house, or None when it sits at one."""
    from ..agents.besigue import make_besigue_agent
    try:
        make_agent(spec, 0)
        return None
    except AgentError as e:
        try:
            make_besigue_agent(spec, 0)
            return None
        except AgentError:
            return error_text(e)


SERVE_LIMITS = ("unload_after", "grace", "bot_delay", "deal_pause", "open_table_expiry", "tables_per_hour",
                "kept_games_per_hour", "connections_per_address", "bot_tables_per_address", "body_timeout",
                "header_timeout", "idle_timeout", "http_connections_per_address", "thinking_workers",
                "open_tables_per_address", "seats_per_address", "signups_per_hour")


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from ..web.server import serve
        from ..web.common.settings import Settings
    except ImportError as e:  # the web extras are missing
        error(_("the web server needs its libraries ({name}): pip install -e .").format(name=e.name))
        return 2
    from ..web.db.storage import sqlite_url
    db = args.db or sqlite_url("barbu-web.db")
    if "://" not in db:  # a plain path means a SQLite file
        db = sqlite_url(db)
    origins = tuple(o.strip().rstrip("/").lower() for o in args.allow_origin or ())
    bad = [o for o in origins if not re.fullmatch(r"https?://[^/\s]+", o)]
    if bad:
        error(_("--allow-origin takes an origin such as https://cards.example.org, not {value!r}").format(
            value=bad[0]))
        return 2
    for name in SERVE_LIMITS:
        if getattr(args, name) < 0:
            error(_("--{option} is 0 or more, not {value}").format(
                option=name.replace("_", "-"), value=f"{getattr(args, name):g}"))
            return 2
    if args.max_tables < 1:
        error(_("--max-tables is 1 or more"))
        return 2
    if args.analysis_samples < 1:
        error(_("--analysis-samples is 1 or more"))
        return 2
    if not 1 <= args.port <= 65535:
        error(_("--port is a port number from 1 to 65535, not {value}").format(value=args.port))
        return 2
    mail: dict[str, Any] = {"mail_from": args.mail_from}
    if args.smtp:
        host, _sep, port = args.smtp.rpartition(":")
        if not host or not port.isdigit() or not 1 <= int(port) <= 65535:
            error(_("--smtp takes the mail server as HOST:PORT, e.g. 127.0.0.1:25, not {value!r}").format(
                value=args.smtp))
            return 2
        mail |= {"smtp_host": host, "smtp_port": int(port)}
    if args.public_url:
        if not re.fullmatch(r"https?://[^\s]+", args.public_url):
            error(_("--public-url takes the server's address such as https://cards.example.org, not {value!r}").format(
                value=args.public_url))
            return 2
        mail["public_url"] = args.public_url.rstrip("/")
    else:
        mail["public_url"] = f"http://{args.host}:{args.port}"
    players = []
    for text in args.player or ():
        name, eq, spec = text.partition("=")
        name = name.strip().lower()
        if not eq or not re.fullmatch(r"[a-z][a-z0-9-]{0,23}", name) or name in AGENT_KINDS or not spec.strip():
            error(_("--player takes NAME=PLAYER with a new short name, e.g. learned=policy:classic.npz, "
                    "not {value!r}").format(value=text))
            return 2
        problem = _player_problem(spec.strip())
        if problem:
            error(_("--player {name}: {problem}").format(name=name, problem=problem))
            return 2
        players.append((name, spec.strip()))
    from ..web.connections import parse_proxies
    try:
        proxies = parse_proxies(args.forwarded_allow_ips or "")
    except ValueError as e:
        error(_("--forwarded-allow-ips takes addresses or networks of your proxies, separated by commas "
                "(e.g. 10.0.0.5,192.168.1.0/24), or *; not {value!r}").format(value=str(e)))
        return 2
    for name in ("header_timeout", "idle_timeout"):
        if not math.isfinite(getattr(args, name)):
            error(_("--{option} is a number of seconds, not {value}").format(
                option=name.replace("_", "-"), value=getattr(args, name)))
            return 2
    if args.workers < 1:
        error(_("--workers is 1 or more"))
        return 2
    if args.workers > 1 and not args.broker:
        error(_("--workers {n} needs a broker the processes share: add --broker redis://127.0.0.1:6379/0 "
                "(and a PostgreSQL --db for more than one machine)").format(n=args.workers))
        return 2
    if not (math.isfinite(args.lease) and 1 <= args.lease <= 600):
        error(_("--lease is a number of seconds from 1 to 600, not {value}").format(value=args.lease))
        return 2
    if args.compare_with and args.compare_with.lower() not in ("none", "off"):
        try:
            parse_agent_spec(args.compare_with)
        except AgentError as e:
            error(_("--compare-with: {reason}").format(reason=word_error(e, current())))
            return 2
    net = {"header_timeout": args.header_timeout, "idle_timeout": args.idle_timeout,
           "http_connections_per_address": args.http_connections_per_address, "forwarded_allow_ips": proxies}
    settings = Settings(**net, db_url=db, grace=args.grace, bot_delay=args.bot_delay, deal_pause=args.deal_pause,
                        allowed_origins=origins, unload_after=args.unload_after,
                        tables_per_hour=args.tables_per_hour, connections_per_address=args.connections_per_address,
                        bot_tables_per_address=args.bot_tables_per_address,
                        open_tables_per_address=args.open_tables_per_address,
                        seats_per_address=args.seats_per_address, signups_per_hour=args.signups_per_hour,
                        **mail,
                        open_table_expiry=args.open_table_expiry, max_tables=args.max_tables,
                        body_timeout=args.body_timeout, kept_games_per_hour=args.kept_games_per_hour,
                        players=players, default_lang=current(), analysis_samples=args.analysis_samples,
                        thinking_workers=args.thinking_workers, thinking_processes=not args.thinking_threads,
                        broker_url=args.broker or None, lease_ttl=args.lease,
                        daily_strength=args.daily_strength, daily_boards=max(0, args.daily_boards),
                        **({"compare_with": None if args.compare_with.lower() in ("none", "off") else
                            args.compare_with} if args.compare_with else {}),
                        **({"stand_in": args.stand_in} if args.stand_in else {}))
    from ..web.server import StartupError, check_startup
    try:
        check_startup(settings, args.host, args.port)
    except StartupError as e:
        error(str(e))
        return 1
    shown = db.split("@")[-1] if "@" in db else db  # never print a database password
    console.print(_("barbu web server on http://{host}:{port}/ (database {db})").format(
        host=args.host, port=args.port, db=shown))
    if args.workers > 1:
        from ..web.server import serve_workers
        return 0 if serve_workers(settings, args.workers, host=args.host, port=args.port,
                                  log_level=args.log_level) else 1
    return 0 if serve(settings, host=args.host, port=args.port, log_level=args.log_level) else 1


# ---------------------------------------------------------------- main
from .analyze import add_parser as add_analyze  # noqa: E402

RULES_HELP = N_("preset or ruleset text (default: classic)")
PLAYERS_HELP = N_("number of players, where the family allows a choice")


def build_parser() -> argparse.ArgumentParser:
    """Every command and option, worded in the language of the moment (use() it first)."""
    p = Parser(prog="barbu", description=_("Barbu and its family of card games."))
    p.add_argument("--version", action="version", version=f"barbu {version('barbu')}",
                   help=_("show program's version number and exit"))
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    r = sub.add_parser("rules", help=_("list presets, or show one preset's options and contracts"))
    r.add_argument("name", nargs="?", help=_("a preset or ruleset text, like classic(rotation=quick)"))
    r.set_defaults(func=cmd_rules)

    s = sub.add_parser("selfplay", help=_("play a whole match between computer players"))
    s.add_argument("--rules", default="classic", help=_(RULES_HELP))
    s.add_argument("--players", type=int, help=_(PLAYERS_HELP))
    s.add_argument("--seed", type=int, default=None, help=_("seed for the deal and the players"))
    s.add_argument("--bots", default="random", help=_(
        "computer players by seat, comma-separated (one name: all seats), from: random, rule, search, expert, "
        "e.g. rule,random,random,random; a trained policy: policy:FILE.npz (docs/rl.md)"))
    s.add_argument("--out", help=_("write the match record (JSON Lines) here"))
    s.add_argument("--text", help=_("also write the readable text form here"))
    s.add_argument("--sets", type=int, help=_("Scottish game: the number of Sets to play"))
    s.set_defaults(func=cmd_selfplay)

    rp = sub.add_parser("replay", help=_("replay a record: deal-by-deal scores, totals, consistency"))
    rp.add_argument("record")
    rp.add_argument("--daily-key", metavar="HEX", help=_(
        "a daily deal's record: the day's published key, to check its deal with (when the record has none)"))
    add_sheet_arguments(rp, replay=True)
    rp.set_defaults(func=cmd_replay)

    sht = sub.add_parser("sheet", help=_("print a blank score sheet (PDF, print-ready HTML or text) for a preset"))
    sht.add_argument("--rules", default="classic", help=_(RULES_HELP))
    sht.add_argument("--players", type=int, help=_(PLAYERS_HELP))
    sht.add_argument("--sets", type=int, help=_("Scottish game: the number of Sets on the sheet"))
    sht.add_argument("-o", "--out", help=_("the file to write: .pdf, .html or .txt (default: text on the terminal)"))
    add_sheet_arguments(sht)
    sht.set_defaults(func=lambda a: cmd_sheet(a, console))

    sh = sub.add_parser("show", help=_("show one deal of a record, or the whole record as text"))
    sh.add_argument("record")
    sh.add_argument("--deal", type=int, help=_("the deal number (1-based)"))
    sh.add_argument("--dd", action="store_true", help=_(
        "with --deal: add the deal's double-dummy table, what each seat scores at each contract with every "
        "hand shown (Barbu games)"))
    sh.add_argument("--dd-seconds", type=cell_seconds, default=DEFAULT_CELL_SECONDS, metavar="S", help=_(
        "with --dd: the solver's time for each cell of the table, in seconds (default {n}); a cell it does not "
        "finish is shown as a range").format(n=f"{DEFAULT_CELL_SECONDS:g}"))
    sh.set_defaults(func=cmd_show)
    add_analyze(sub)

    ar = sub.add_parser("arena", help=_("duplicate matches between computer players, with confidence intervals"))
    ar.add_argument("--rules", default="classic", help=_(RULES_HELP))
    ar.add_argument("--players", type=int, help=_(PLAYERS_HELP))
    ar.add_argument("--bots", default="rule", help=_(
        "one computer player per seat, comma-separated, e.g. search,rule,rule,rule or "
        "'search(samples=20),rule,rule,rule' (one name: all seats); a trained policy: policy:FILE.npz (docs/rl.md)"))
    ar.add_argument("--deals", type=int, default=100, help=_("duplicate deals (boards) to play (default 100)"))
    ar.add_argument("--seed", type=int, default=1, help=_("first match seed (default 1)"))
    ar.add_argument("--workers", type=int, default=0, help=_("worker processes (default: every core)"))
    ar.add_argument("--cluster", metavar="ADDRESS", help=_(
        "play on the workers of a Dask cluster instead, given its scheduler's address, e.g. tcp://host:8786 "
        "(the same results as here; every machine needs pip install 'barbu[cluster]': docs/cluster.md)"))
    ar.add_argument("--out", help=_("folder for the match records (default arena-PRESET-seedN)"))
    ar.set_defaults(func=cmd_arena)

    pl = sub.add_parser("play", help=_("play against computer players in the terminal"))
    pl.add_argument("--rules", default="classic", help=_(RULES_HELP))
    pl.add_argument("--players", type=int, help=_(PLAYERS_HELP))
    pl.add_argument("--sets", type=int, help=_("Scottish game: the number of Sets to play"))
    pl.add_argument("--seat", type=int, default=None,
                    help=_("your seat (default 0, or the record's when resuming)"))
    pl.add_argument("--seed", type=int, default=None, help=_("seed for the deal and the computer players"))
    pl.add_argument("--save", help=_("record file for a new match, saved after every deal and on quit (default: "
                                     "barbu-game.jsonl, or the next free name: a saved match is never overwritten)"))
    pl.add_argument("--resume", help=_("resume the match in this record file"))
    pl.add_argument("--opponents", help=_(
        "strength of the computer players: one for all, or one per computer seat in order, comma-separated "
        "({kinds}, or a trained policy: policy:FILE.npz)").format(kinds=", ".join(AGENT_KINDS)))
    pl.add_argument("--delay", type=seconds, default=0.6, help=_(
        "seconds between computer moves, so you can follow them (default 0.6; 0 for none)"))
    pl.add_argument("--start", action="store_true", help=_("skip the setup screen and start at once"))
    pl.add_argument("--plain", action="store_true", help=_(
        "the line-by-line game instead of the full-screen one (used when input is piped)"))
    pl.add_argument("--no-compare", action="store_true", help=_(
        "do not replay each deal with the expert in your seat to compare your score with the expert's (for slow "
        "machines: the replays run in the background, a second or so a decision)"))
    pl.add_argument("--compare-with", default=None, metavar="PLAYER", help=_(
        "the computer player that replays each deal in your seat (default expert; search or rule are quicker)"))
    pl.add_argument("--confirm-forced", action="store_true", help=_(
        "wait for you even when you have only one possible choice (by default such a move, like a pass when "
        "no card fits, is made for you with a note)"))
    pl.add_argument("--daily", action="store_true", help=_(
        "play the day's daily deals (the same as the local server's, from the daily secret in its database), "
        "compared with the computer players' own results on the same cards"))
    pl.add_argument("--date", help=_("with --daily: the day, YYYY-MM-DD (default today, UTC)"))
    pl.add_argument("--db", help=_("with --daily: the server's database holding the daily secret "
                                   "(default barbu-web.db here, made if missing)"))
    pl.set_defaults(func=cmd_play)

    sv = sub.add_parser("serve", help=_("run the multiplayer web server (lobby and browser tables)"), description=_(
        "The multiplayer web server: the lobby, browser tables, the scorekeeper and replays. Guests play with no "
        "account; players may make one (a user name and a password) to keep their seat on any device, their "
        "matches, a rating per game from rated tables, and a profile. The operator manages accounts with "
        "'barbu users'. docs/server.md says what is stored about a player."))
    sv.add_argument("--host", default="127.0.0.1", help=_("address to listen on (default 127.0.0.1)"))
    sv.add_argument("--port", type=int, default=8000, help=_("port (default 8000)"))
    sv.add_argument("--db", help=_("database: a SQLite file path or URL (default barbu-web.db here), "
                                   "or postgresql://user:password@host/dbname"))
    sv.add_argument("--grace", type=float, default=30.0, help=_(
        "seconds before a computer player stands in for a disconnected player (default 30)"))
    sv.add_argument("--bot-delay", type=float, default=0.8,
                    help=_("seconds a computer player waits before acting (default 0.8)"))
    sv.add_argument("--deal-pause", type=float, default=2.0,
                    help=_("seconds between deals when people play, to see the last trick (default 2)"))
    sv.add_argument("--stand-in", choices=AGENT_KINDS,
                    help=_("strength of the stand-in for a disconnected player, and the first choice of a table's seat menus"))
    sv.add_argument("--player", action="append", metavar="NAME=PLAYER", help=_(
        "offer a computer player of your own in the lobby under NAME, e.g. learned=policy:classic.npz "
        "(a trained policy; repeatable)"))
    sv.add_argument("--allow-origin", action="append", metavar="ORIGIN", help=_(
        "another origin whose pages may connect, e.g. the public address behind a proxy "
        "(repeatable; the server's own origin is always allowed)"))
    sv.add_argument("--unload-after", type=float, default=600.0, help=_(
        "seconds a finished table nobody watches stays in memory; it is reloaded from the database when "
        "asked for (default 600)"))
    from ..web.common.settings import Settings
    d = Settings()
    sv.add_argument("--tables-per-hour", type=int, default=d.tables_per_hour, metavar="N", help=_(
        "tables one client address may create in an hour; 0: no limit (default {n})").format(
        n=d.tables_per_hour))
    sv.add_argument("--kept-games-per-hour", type=int, default=d.kept_games_per_hour, metavar="N", help=_(
        "scorekeeper games one client address may start or import in an hour; 0: no limit "
        "(default {n})").format(n=d.kept_games_per_hour))
    sv.add_argument("--connections-per-address", type=int, default=d.connections_per_address, metavar="N",
                    help=_("WebSocket connections open at once from one address; 0: no limit "
                           "(default {n})").format(n=d.connections_per_address))
    sv.add_argument("--bot-tables-per-address", type=int, default=d.bot_tables_per_address, metavar="N",
                    help=_("unfinished tables with computer players one address may set up; 0: no limit "
                           "(default {n})").format(n=d.bot_tables_per_address))
    sv.add_argument("--open-tables-per-address", type=int, default=d.open_tables_per_address, metavar="N",
                    help=_("unfinished tables one address may have created at once; 0: no limit (default {n})").format(
                        n=d.open_tables_per_address))
    sv.add_argument("--seats-per-address", type=int, default=d.seats_per_address, metavar="N",
                    help=_("seats one address may hold at a listed table it did not create (private tables: no "
                           "limit); 0: no limit (default {n})").format(n=d.seats_per_address))
    sv.add_argument("--smtp", metavar="HOST:PORT", help=_(
        "a mail server that takes mail from this machine: players who ask for it are told by e-mail when a "
        "turn-based table waits for them (default: no e-mails)"))
    sv.add_argument("--mail-from", default=d.mail_from, metavar="ADDRESS", help=_(
        "the sender of those e-mails (default {value})").format(value=d.mail_from))
    sv.add_argument("--public-url", metavar="URL", help=_(
        "the server's address as players reach it, for the links in e-mails, e.g. https://cards.example.org"))
    sv.add_argument("--signups-per-hour", type=int, default=d.signups_per_hour, metavar="N", help=_(
        "accounts one address may make in any hour; 0: no limit (default {n})").format(n=d.signups_per_hour))
    sv.add_argument("--analysis-samples", type=int, default=d.analysis_samples, metavar="N", help=_(
        "sampled deals per decision when a replay's deal is weighed (default {n})").format(n=d.analysis_samples))
    sv.add_argument("--thinking-workers", type=int, default=d.thinking_workers, metavar="N", help=_(
        "computer players' decisions thought at once, shared in turns between client addresses; "
        "0: one per core (default)"))
    sv.add_argument("--thinking-threads", action="store_true", help=_(
        "let the searching computer players think in threads of the server's process instead of worker "
        "processes (no parallelism: the search holds Python's lock)"))
    sv.add_argument("--open-table-expiry", type=float, default=d.open_table_expiry, metavar="SECONDS",
                    help=_("an open table nobody has joined for this long is closed; 0: never "
                           "(default {n})").format(n=f"{d.open_table_expiry:g}"))
    sv.add_argument("--body-timeout", type=float, default=d.body_timeout, metavar="SECONDS",
                    help=_("seconds a request body may take to arrive (default {n})").format(n=f"{d.body_timeout:g}"))
    sv.add_argument("--header-timeout", type=float, default=d.header_timeout, metavar="SECONDS",
                    help=_("seconds a request's head may take to arrive; a connection that sends nothing for "
                           "this long is closed; 0: no limit (default {n})").format(n=f"{d.header_timeout:g}"))
    sv.add_argument("--idle-timeout", type=float, default=d.idle_timeout, metavar="SECONDS",
                    help=_("seconds an idle HTTP connection is kept open between requests (default {n})").format(
                        n=f"{d.idle_timeout:g}"))
    sv.add_argument("--http-connections-per-address", type=int, default=d.http_connections_per_address,
                    metavar="N", help=_("HTTP connections open at once from one address; 0: no limit "
                                        "(default {n})").format(n=d.http_connections_per_address))
    sv.add_argument("--forwarded-allow-ips", metavar="IPS", help=_(
        "the addresses of your reverse proxies, comma-separated (networks and * allowed): only their "
        "X-Forwarded-For and X-Forwarded-Proto are believed (default: none)"))
    sv.add_argument("--max-tables", type=int, default=d.max_tables, metavar="N",
                    help=_("unfinished tables the server holds at once (default {n})").format(n=d.max_tables))
    sv.add_argument("--broker", metavar="URL", help=_(
        "the Redis broker shared by several server processes on one database, e.g. redis://127.0.0.1:6379/0: "
        "start barbu serve with the same --db and --broker on other ports or machines (default: one process "
        "alone)"))
    sv.add_argument("--workers", type=int, default=1, metavar="N", help=_(
        "server processes to run on this machine, on one port (needs --broker; default 1)"))
    sv.add_argument("--lease", type=float, default=d.lease_ttl, metavar="SECONDS", help=_(
        "with --broker: how long a process owns a table unless it renews its lease; a lost process's tables "
        "are taken over by the others about this long after it stopped (default {n})").format(
        n=f"{d.lease_ttl:g}"))
    sv.add_argument("--daily-strength", default=d.daily_strength, choices=["rule", "random"], help=_(
        "the computer players of the daily deals: a fixed strength with no time budget (default {value})").format(
        value=d.daily_strength))
    sv.add_argument("--daily-boards", type=int, default=d.daily_boards, metavar="N", help=_(
        "deals in each daily set; 0: one per contract of the game (default)"))
    sv.add_argument("--compare-with", default=None, metavar="PLAYER", help=_(
        "at a table of one person and computer players, the computer player that replays each deal in his "
        "seat so he sees its score beside his own (default expert; none: no comparison)"))
    sv.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"],
                    help=_("how much the server logs (default info)"))
    sv.set_defaults(func=cmd_serve)

    from . import learn, score, users
    score.add_parser(sub)
    learn.add_parser(sub)
    users.add_parser(sub)
    add_lang_options(p)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    use(lang_in(argv))  # before the parser is built, so that its help is in the language asked for
    route_argparse()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except UnreadableFile as e:
        err.print(_("barbu: error: {message}").format(message=error_text(e)), soft_wrap=True,
                  markup=False)
        return 2
    except RecordError as e:
        err.print(_("barbu: error: malformed record: {message}").format(message=error_text(e)))
        return 2
    except BarbuError as e:
        err.print(_("barbu: error: {message}").format(message=error_text(e)), markup=False)
        return 2
    except KeyboardInterrupt:
        err.print(_("interrupted"))
        return 130


if __name__ == "__main__":
    sys.exit(main())
