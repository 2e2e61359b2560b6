"""``barbu play --daily``: the day's daily deals in the terminal, offline: on the Textual table
(`barbu.tui.daily_screen`), or line by line with ``--plain`` (or when not run in a terminal).

The deals come from the installation's daily secret, kept in the server's database (``--db``; by default the
local server's barbu-web.db when this folder has one, else one in the person's data folder, made if missing),
so a terminal and the local server play the same deals.  With
nobody else's results at hand, each board is compared with the computer players' own result in the player's
seat on the same cards (the fixed strength playing it), and the player is told so.
"""

from __future__ import annotations

import argparse
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from platformdirs import user_data_dir
from rich.console import Console
from rich.markup import escape

from ..core.errors import BarbuError
from ..duplicate.daily import BESIGUE, GAMES, BoardPlay, DailyError, DailySet, computer_scores, daily_set
from ..guide.ruleset_words import preset_name
from ..i18n import _, current, word_error, words
from ..play.labels import computer_name, place, player_word, seat_name, typed_action
from .common import add_database_argument
from .textplay import command, describe
from .wording import action, seat_names

#: The local server's database in the folder where ``barbu serve`` runs (its default ``--db``).
SERVER_DB = "barbu-web.db"


def default_daily_db() -> Path:
    """The database holding the daily secret when ``--db`` is not given.

    The local server's ``barbu-web.db`` when this folder has one (the terminal then plays the server's deals);
    otherwise one in the person's data folder (``~/.local/share/barbu`` on Linux), made there if missing: playing
    the daily deals never leaves a database in whatever folder the person happened to be in."""
    here = Path(SERVER_DB)
    if here.is_file():
        return here
    folder = Path(user_data_dir("barbu", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return folder / SERVER_DB


def daily_secret_at(db: str | None) -> bytes:
    """The daily secret of the server's database at ``db`` (a SQLite path or a URL), made there if missing
    (no ``db``: `default_daily_db`)."""
    from ..web.daily.store import daily_secret
    from ..web.db.storage import Store, database_url, sqlite_url

    url = db or sqlite_url(str(default_daily_db()))
    url = database_url(url) if "://" in url else sqlite_url(url)
    store = Store(url)
    try:
        return daily_secret(store.engine)
    finally:
        store.close()


def daily_from_args(args: argparse.Namespace, con: Console) -> DailySet | None:
    """The set ``--daily`` asks for (the game, ``--date``, ``--db``); None, said in plain words, when it cannot be."""
    day = args.date or datetime.now(timezone.utc).date().isoformat()
    game = args.rules
    if game not in GAMES:
        con.print(
            _("There are no daily deals for {game}: the games are {games}.").format(game=game, games=", ".join(GAMES))
        )
        return None
    try:
        datetime.strptime(day, "%Y-%m-%d")
    except ValueError:
        con.print(_("A day is written YYYY-MM-DD, not {day}.").format(day=day))
        return None
    try:
        return daily_set(daily_secret_at(getattr(args, "db", None)), day, game, limit=getattr(args, "boards", 0) or 0)
    except DailyError as e:
        con.print(str(e))
        return None


def play_daily_table(args: argparse.Namespace) -> int:
    """The daily deals on the Textual table, in the player's language (--lang, else the system's)."""
    from ..i18n import use
    from ..tui.daily_screen import daily_app

    use(getattr(args, "lang", None))
    dset = daily_from_args(args, Console(highlight=False))
    if dset is None:
        return 2
    if dset.game == BESIGUE:
        from ..tui.daily_besigue import daily_besigue_app

        return daily_besigue_app(dset, max(0.0, args.delay), bool(getattr(args, "confirm_forced", False))).run() or 0
    return daily_app(dset, max(0.0, args.delay), bool(getattr(args, "confirm_forced", False))).run() or 0


def play_daily(args: argparse.Namespace, read: Callable[[str], str] = input, console: Console | None = None) -> int:
    con = console or Console(highlight=False)
    dset = daily_from_args(args, con)
    if dset is None:
        return 2
    day, game = dset.day, preset_name(dset.game, words())  # "Classic", "Classico": not the key 'classic'
    if dset.game == BESIGUE:
        con.print(
            _(
                "The daily deals of {day}, {game}: {n} deals, each the first of a fresh game, against a computer "
                "player ({strength}) who answers the same moves the same way for everyone."
            ).format(day=day, game=game, n=dset.size, strength=player_word(dset.strength))
        )
    else:
        con.print(
            _(
                "The daily deals of {day}, {game}: {n} deals, each with its contract fixed, against computer "
                "players ({strength}) who answer the same moves the same way for everyone."
            ).format(day=day, game=game, n=dset.size, strength=player_word(dset.strength))
        )
    con.print(
        _(
            "Offline, you are compared with the computer players' own result in your seat on the same cards, "
            "not with other people: play on the server to be ranked against them."
        )
    )
    theirs = computer_scores(dset)
    if dset.game == BESIGUE:
        return _play_besigue(dset, theirs, read, con)
    mine: list[int] = []
    for k in range(dset.size):
        board = BoardPlay(dset, k)
        con.print()
        n, me = board.match.n, board.seat
        others = sorted((s for s in range(n) if s != me), key=lambda s: (s - me) % n)
        con.print(
            _("Deal {n} of {total}, its contract fixed: you sit South, against {players}.").format(
                n=k + 1,
                total=dset.size,
                players="; ".join(computer_name(place(s, me, n), dset.strength) for s in others),
            )
        )
        # the players by their places from your chair, as you type them: "double west north" whatever your seat
        with seat_names([seat_name(s, me, n) for s in range(n)]):
            while not board.done:
                con.print(describe(board.match, me))
                legal = board.match.legal_actions()
                if len(legal) <= 12:
                    con.print(_("Your choices: {choices}").format(choices=", ".join(action(a) for a in legal)))
                try:
                    text = read("> ")
                except EOFError:
                    con.print(_("Stopped: the daily deals were not finished."))
                    return 1
                cmd = command(text)
                if cmd == "quit":
                    con.print(_("Stopped: the daily deals were not finished."))
                    return 1
                if cmd is not None or not text.strip():
                    continue
                try:
                    board.play(typed_action(board.match, text, me, n))  # in the player's words and language
                except (BarbuError, DailyError) as e:
                    con.print(_("[red]Not allowed:[/red] {reason}").format(reason=escape(word_error(e, current()))))
        assert board.score is not None
        mine.append(board.score)
        con.print(
            _("Deal {n}: you scored {you}; the computer in your seat scored {it}.").format(
                n=k + 1, you=board.score, it=theirs[k]
            )
        )
    sign = 1 if dset.highest_wins else -1
    diff = sign * (sum(mine) - sum(theirs))
    con.print()
    con.print(
        _("You against the computer players ({strength}) on your own cards: {diff:+d} over {n} deals.").format(
            strength=player_word(dset.strength), diff=diff, n=dset.size
        )
    )
    return 0


def _play_besigue(dset: DailySet, theirs: list[int], read: Callable[[str], str], con: Console) -> int:
    """Bésigue's daily deals line by line: each deal as the Bésigue game shows it (`barbu.cli.besigue_plain`),
    the computer's moves told as they come, and each deal's score (your points less the computer's) beside the
    computer's own in your seat."""
    from ..duplicate.daily_besigue import DEALER, BesigueBoard
    from .besigue_plain import _words, describe, read_typed

    mine: list[int] = []
    for k in range(dset.size):
        board = BesigueBoard(dset, k)
        g = board.match
        con.print()
        con.print(
            (
                _("Deal {n} of {total}: you deal; the computer leads first.")
                if board.role == DEALER
                else _("Deal {n} of {total}: you are the elder hand and lead first.")
            ).format(n=k + 1, total=dset.size)
        )
        told = 0
        while True:
            for actor, text in g.log[told:]:  # the computer's moves since the person's last one
                if actor == 1 - board.seat:
                    con.print(_("computer: {action}").format(action=escape(_words(g.parse_action(text)))))
            told = len(g.log)
            if board.done:
                break
            v = g.view(board.seat)
            con.print(describe(v, game_totals=False))
            con.print(_("You may: {actions}").format(actions="  ".join(_words(a) for a in v.legal)))
            try:
                text = read("> ")
            except EOFError:
                con.print(_("Stopped: the daily deals were not finished."))
                return 1
            cmd = command(text)
            if cmd == "quit":
                con.print(_("Stopped: the daily deals were not finished."))
                return 1
            if cmd is not None or not text.strip():
                continue
            try:
                board.play(read_typed(text))
            except (BarbuError, DailyError) as e:
                con.print(_("[red]Not allowed:[/red] {reason}").format(reason=escape(word_error(e, current()))))
                continue
            con.print(_("you: {action}").format(action=escape(_words(g.parse_action(board.moves[-1])))))
        assert board.score is not None and board.scores is not None
        mine.append(board.score)
        con.print(
            _("Deal {n} over: you {mine}, the computer {theirs}.").format(
                n=k + 1, mine=board.scores[board.seat], theirs=board.scores[1 - board.seat]
            )
        )
        con.print(
            _("Deal {n}: you scored {you}; the computer in your seat scored {it}.").format(
                n=k + 1, you=board.score, it=theirs[k]
            )
        )
    con.print()
    con.print(
        _("You against the computer players ({strength}) on your own cards: {diff:+d} over {n} deals.").format(
            strength=player_word(dset.strength), diff=sum(mine) - sum(theirs), n=dset.size
        )
    )
    return 0


# -- barbu daily: the operator's side of the daily deals
def add_arguments(p: argparse.ArgumentParser) -> None:
    """``barbu daily marks [--date DAY] [--db DB]``: several finishers from one address, for the operator."""
    add_database_argument(p)
    act = p.add_subparsers(dest="action", metavar="ACTION")
    marks = act.add_parser(
        "marks",
        help=_("the players who finished one game's daily deals from one address on a day (puppets, or a family)"),
    )
    marks.add_argument("--date", help=_("the day, YYYY-MM-DD (default today, UTC)"))
    p.set_defaults(func=cmd_daily, daily_parser=p)


def cmd_daily(args: argparse.Namespace) -> int:
    from rich.table import Table as RichTable

    from ..web.daily.service import GUEST, NEW, Daily
    from ..web.db.storage import Store, database_url, sqlite_url

    out, err = Console(highlight=False), Console(stderr=True, highlight=False)
    if not args.action:
        args.daily_parser.print_help()
        return 0
    day = args.date or datetime.now(timezone.utc).date().isoformat()
    try:
        datetime.strptime(day, "%Y-%m-%d")
    except ValueError:
        err.print(_("A day is written YYYY-MM-DD, not {day}.").format(day=day), markup=False)
        return 2
    url = args.db or sqlite_url("barbu-web.db")
    url = database_url(url) if "://" in url else sqlite_url(url)
    try:
        store = Store(url)
    except Exception as e:  # noqa: BLE001 - one plain line, never a traceback
        reason = str(getattr(e, "orig", None) or e).strip().splitlines()[0]
        err.print(_("barbu: error: cannot open the database: {reason}").format(reason=reason), markup=False)
        return 2
    try:
        marks = Daily(lambda: store).address_marks(day)
    finally:
        store.close()
    if not marks:
        out.print(_("Nobody finished a game's daily deals of {day} from the same address as another.").format(day=day))
        return 0
    lists = {GUEST: _("guest"), NEW: _("new account")}
    table = RichTable(_("Game"), _("Address (HMAC)"), _("Player"), _("List"), _("Finished (UTC)"), _("Note"))
    for mark in marks:
        for f in mark["finishers"]:
            table.add_row(
                mark["game"],
                mark["address"],
                f["name"] or _("a deleted player"),
                lists.get(f["pool"], _("account")),
                (f["finished"] or "")[11:19],
                _("after a guest from this address") if f["after_guest"] else "",
            )
    out.print(_("Several players finished the same daily deals of {day} from one address:").format(day=day))
    out.print(table)
    return 0
