"""``barbu serve``: the multiplayer web server's options, checked in plain words before it starts."""

from __future__ import annotations

import argparse
import math
import os
import re
from typing import Any

from ..agents import AGENT_KINDS, make_agent
from ..agents.base import parse_agent_spec
from ..core.errors import AgentError
from ..i18n import _, current, word_error
from ..web.common.settings import Settings
from .common import console, error
from .ddview import cell_seconds
from .wording import error_text


def add_arguments(sv: argparse.ArgumentParser) -> None:
    sv.description = _(
        "The multiplayer web server: the lobby, browser tables, the scorekeeper and replays. Guests play with no "
        "account; players may make one (a user name and a password) to keep their seat on any device, their "
        "matches, a rating per game from rated tables, and a profile. The operator manages accounts with "
        "'barbu users'. docs/server.md says what is stored about a player."
    )
    sv.add_argument("--host", default="127.0.0.1", help=_("address to listen on (default 127.0.0.1)"))
    sv.add_argument("--port", type=int, default=8000, help=_("port (default 8000)"))
    sv.add_argument(
        "--db",
        default=os.environ.get("BARBU_DB") or None,
        help=_(
            "database: a SQLite file path or URL, or postgresql://user:password@host/dbname (default: the "
            "environment's BARBU_DB, which keeps a password out of the process list; else barbu-web.db here)"
        ),
    )
    sv.add_argument(
        "--grace",
        type=float,
        default=30.0,
        help=_("seconds before a computer player stands in for a disconnected player (default 30)"),
    )
    sv.add_argument(
        "--bot-delay", type=float, default=0.8, help=_("seconds a computer player waits before acting (default 0.8)")
    )
    sv.add_argument(
        "--deal-pause",
        type=float,
        default=2.0,
        help=_("seconds between deals when people play, to see the last trick (default 2)"),
    )
    sv.add_argument(
        "--stand-in",
        choices=AGENT_KINDS,
        help=_("strength of the stand-in for a disconnected player, and the first choice of a table's seat menus"),
    )
    sv.add_argument(
        "--player",
        action="append",
        metavar="NAME=PLAYER",
        help=_(
            "offer a computer player of your own in the lobby under NAME, e.g. learned=policy:classic.npz "
            "(a trained policy; repeatable)"
        ),
    )
    sv.add_argument(
        "--allow-origin",
        action="append",
        metavar="ORIGIN",
        help=_(
            "another origin whose pages may connect, e.g. the public address behind a proxy "
            "(repeatable; the server's own origin is always allowed)"
        ),
    )
    sv.add_argument(
        "--unload-after",
        type=float,
        default=600.0,
        help=_(
            "seconds a finished table nobody watches stays in memory; it is reloaded from the database when "
            "asked for (default 600)"
        ),
    )
    d = Settings()
    sv.add_argument(
        "--tables-per-hour",
        type=int,
        default=d.tables_per_hour,
        metavar="N",
        help=_("tables one client address may create in an hour; 0: no limit (default {n})").format(
            n=d.tables_per_hour
        ),
    )
    sv.add_argument(
        "--kept-games-per-hour",
        type=int,
        default=d.kept_games_per_hour,
        metavar="N",
        help=_("scorekeeper games one client address may start or import in an hour; 0: no limit (default {n})").format(
            n=d.kept_games_per_hour
        ),
    )
    sv.add_argument(
        "--connections-per-address",
        type=int,
        default=d.connections_per_address,
        metavar="N",
        help=_("WebSocket connections open at once from one address; 0: no limit (default {n})").format(
            n=d.connections_per_address
        ),
    )
    sv.add_argument(
        "--bot-tables-per-address",
        type=int,
        default=d.bot_tables_per_address,
        metavar="N",
        help=_("unfinished tables with computer players one address may set up; 0: no limit (default {n})").format(
            n=d.bot_tables_per_address
        ),
    )
    sv.add_argument(
        "--open-tables-per-address",
        type=int,
        default=d.open_tables_per_address,
        metavar="N",
        help=_("unfinished tables one address may have created at once; 0: no limit (default {n})").format(
            n=d.open_tables_per_address
        ),
    )
    sv.add_argument(
        "--seats-per-address",
        type=int,
        default=d.seats_per_address,
        metavar="N",
        help=_(
            "seats one address may hold at a listed table it did not create (private tables: no "
            "limit); 0: no limit (default {n})"
        ).format(n=d.seats_per_address),
    )
    sv.add_argument(
        "--events-per-day",
        type=int,
        default=d.events_per_day,
        metavar="N",
        help=_(
            "duplicate events one account, and one address, may create in any 24 hours; 0: no limit (default {n})"
        ).format(n=d.events_per_day),
    )
    sv.add_argument(
        "--clubs-per-day",
        type=int,
        default=d.clubs_per_day,
        metavar="N",
        help=_("clubs one address may create in any 24 hours (one account: 3); 0: no limit (default {n})").format(
            n=d.clubs_per_day
        ),
    )
    sv.add_argument(
        "--smtp",
        metavar="HOST:PORT",
        help=_(
            "a mail server that takes mail from this machine: players who ask for it are told by e-mail when a "
            "turn-based table waits for them (default: no e-mails)"
        ),
    )
    sv.add_argument(
        "--mail-from",
        default=d.mail_from,
        metavar="ADDRESS",
        help=_("the sender of those e-mails (default {value})").format(value=d.mail_from),
    )
    sv.add_argument(
        "--public-url",
        metavar="URL",
        help=_("the server's address as players reach it, for the links in e-mails, e.g. https://cards.example.org"),
    )
    sv.add_argument(
        "--vapid-key",
        metavar="FILE",
        help=_(
            "the private key (PEM) the server signs its Web Push notifications with; every process of one server "
            "must use the same (default: one made once and kept in the database)"
        ),
    )
    sv.add_argument(
        "--signups-per-hour",
        type=int,
        default=d.signups_per_hour,
        metavar="N",
        help=_("accounts one address may make in any hour; 0: no limit (default {n})").format(n=d.signups_per_hour),
    )
    sv.add_argument(
        "--hashing-threads",
        type=int,
        default=d.hashing_threads,
        metavar="N",
        help=_("threads that hash passwords, apart from every other request's work (default {n})").format(
            n=d.hashing_threads
        ),
    )
    sv.add_argument(
        "--hashing-queue",
        type=int,
        default=d.hashing_queue,
        metavar="N",
        help=_(
            "log-ins and sign-ups that may wait for those threads; beyond that they are refused at once, asked to "
            "try again in a few seconds (default {n})"
        ).format(n=d.hashing_queue),
    )
    sv.add_argument(
        "--analysis-samples",
        type=int,
        default=d.analysis_samples,
        metavar="N",
        help=_("sampled deals per decision when a replay's deal is weighed (default {n})").format(n=d.analysis_samples),
    )
    sv.add_argument(
        "--mails-per-address",
        type=int,
        default=d.mails_per_address,
        metavar="N",
        help=_("e-mails sent to one address in a day, whatever asked for them (default {n})").format(
            n=d.mails_per_address
        ),
    )
    sv.add_argument(
        "--mails-per-account",
        type=int,
        default=d.mails_per_account,
        metavar="N",
        help=_("e-mails sent on behalf of one account in a day (default {n})").format(n=d.mails_per_account),
    )
    sv.add_argument(
        "--reminder-wait",
        type=float,
        default=d.reminder_wait / 60,
        metavar="MINUTES",
        help=_(
            "minutes a turn-based table waits for a player before he is reminded by e-mail, in one mail "
            "listing every table waiting for him (default {n})"
        ).format(n=f"{d.reminder_wait / 60:g}"),
    )
    sv.add_argument(
        "--reminder-every",
        type=float,
        default=d.reminder_every / 3600,
        metavar="HOURS",
        help=_("hours at least between two reminders to one player (default {n})").format(
            n=f"{d.reminder_every / 3600:g}"
        ),
    )
    sv.add_argument(
        "--thinking-workers",
        type=int,
        default=d.thinking_workers,
        metavar="N",
        help=_(
            "computer players' decisions thought at once, shared in turns between client addresses; "
            "0: one per core (default)"
        ),
    )
    sv.add_argument(
        "--thinking-threads",
        action="store_true",
        help=_(
            "let the searching computer players think in threads of the server's process instead of worker "
            "processes (no parallelism: the search holds Python's lock)"
        ),
    )
    sv.add_argument(
        "--open-table-expiry",
        type=float,
        default=d.open_table_expiry,
        metavar="SECONDS",
        help=_("an open table nobody has joined for this long is closed; 0: never (default {n})").format(
            n=f"{d.open_table_expiry:g}"
        ),
    )
    sv.add_argument(
        "--chat-days",
        type=float,
        default=d.chat_days,
        metavar="DAYS",
        help=_(
            "days the tables' chat messages are kept before they are deleted; 0: kept for ever (default {n})"
        ).format(n=f"{d.chat_days:g}"),
    )
    sv.add_argument(
        "--body-timeout",
        type=float,
        default=d.body_timeout,
        metavar="SECONDS",
        help=_("seconds a request body may take to arrive (default {n})").format(n=f"{d.body_timeout:g}"),
    )
    sv.add_argument(
        "--header-timeout",
        type=float,
        default=d.header_timeout,
        metavar="SECONDS",
        help=_(
            "seconds a request's head may take to arrive; a connection that sends nothing for "
            "this long is closed; 0: no limit (default {n})"
        ).format(n=f"{d.header_timeout:g}"),
    )
    sv.add_argument(
        "--idle-timeout",
        type=float,
        default=d.idle_timeout,
        metavar="SECONDS",
        help=_("seconds an idle HTTP connection is kept open between requests (default {n})").format(
            n=f"{d.idle_timeout:g}"
        ),
    )
    sv.add_argument(
        "--http-connections-per-address",
        type=int,
        default=d.http_connections_per_address,
        metavar="N",
        help=_("HTTP connections open at once from one address; 0: no limit (default {n})").format(
            n=d.http_connections_per_address
        ),
    )
    sv.add_argument(
        "--forwarded-allow-ips",
        metavar="IPS",
        help=_(
            "the addresses of your reverse proxies, comma-separated (networks and * allowed): only their "
            "X-Forwarded-For and X-Forwarded-Proto are believed (default: none)"
        ),
    )
    sv.add_argument(
        "--max-tables",
        type=int,
        default=d.max_tables,
        metavar="N",
        help=_("unfinished tables the server holds at once (default {n})").format(n=d.max_tables),
    )
    sv.add_argument(
        "--broker",
        metavar="URL",
        default=os.environ.get("BARBU_BROKER") or None,
        help=_(
            "the Redis broker shared by several server processes on one database, e.g. redis://127.0.0.1:6379/0: "
            "start barbu serve with the same --db and --broker on other ports or machines (default: the "
            "environment's BARBU_BROKER, else one process alone)"
        ),
    )
    sv.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help=_("server processes to run on this machine, on one port (needs --broker; default 1)"),
    )
    sv.add_argument(
        "--route",
        metavar="NAME",
        help=_(
            "with --broker: this process's name for nginx, which sends a table's WebSocket to the process that "
            "plays it (deploy/nginx-barbu.conf); letters, digits, - and _, at most 16 (default p and the port, "
            "e.g. p8001)"
        ),
    )
    sv.add_argument(
        "--lease",
        type=float,
        default=d.lease_ttl,
        metavar="SECONDS",
        help=_(
            "with --broker: how long a process owns a table unless it renews its lease; a lost process's tables "
            "are taken over by the others about this long after it stopped (default {n})"
        ).format(n=f"{d.lease_ttl:g}"),
    )
    sv.add_argument(
        "--heartbeat",
        type=float,
        default=d.heartbeat,
        metavar="SECONDS",
        help=_(
            "a table's connection idle this long is sent a small beat; the page reconnects after about 2.5 times "
            "this long without a word (default {n})"
        ).format(n=f"{d.heartbeat:g}"),
    )
    sv.add_argument(
        "--store-retry",
        type=float,
        default=d.store_retry,
        metavar="SECONDS",
        help=_(
            "how long a move whose write failed is written again before it is handed back to its player (default {n})"
        ).format(n=f"{d.store_retry:g}"),
    )
    sv.add_argument(
        "--daily-strength",
        default=d.daily_strength,
        choices=["rule", "random"],
        help=_(
            "the computer players of the daily deals: a fixed strength with no time budget (default {value})"
        ).format(value=d.daily_strength),
    )
    sv.add_argument(
        "--daily-boards",
        type=int,
        default=d.daily_boards,
        metavar="N",
        help=_("deals in each daily set; 0: one per contract of the game (default)"),
    )
    sv.add_argument(
        "--solver-workers",
        type=int,
        default=max(1, (os.cpu_count() or 2) // 2),
        metavar="N",
        help=_(
            "low-priority processes solving the double-dummy tables of the daily deals and the events' boards in "
            "the background; 0: none in this process (default: half the cores)"
        ),
    )
    sv.add_argument(
        "--solver-seconds",
        type=cell_seconds,
        default=d.solver_seconds,
        metavar="SECONDS",
        help=_("each cell's time in the tables solved in the background (default {value})").format(
            value=d.solver_seconds
        ),
    )
    sv.add_argument(
        "--puzzles",
        default=None,
        metavar="FILE",
        help=_("the puzzles to serve (JSON Lines, as barbu puzzles make writes them) in place of the shipped library"),
    )
    sv.add_argument(
        "--compare-with",
        default=None,
        metavar="PLAYER",
        help=_(
            "at a table of one person and computer players, the computer player that replays each deal in his "
            "seat so he sees its score beside his own (default expert; none: no comparison)"
        ),
    )
    sv.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help=_("how much the server logs (default info)"),
    )
    sv.add_argument(
        "--log-format",
        default="text",
        choices=["text", "json"],
        help=_(
            "text: a line for a person; json: one JSON object a line (time, level, logger, message, node, table), "
            "for a log collector (default text)"
        ),
    )
    sv.add_argument(
        "--metrics-port",
        type=int,
        default=0,
        metavar="PORT",
        help=_(
            "serve Prometheus metrics at /metrics on this port, apart from the site (with --workers N, worker i "
            "on PORT+i); default: no metrics"
        ),
    )
    sv.add_argument(
        "--metrics-host",
        default="127.0.0.1",
        metavar="ADDRESS",
        help=_("the address the metrics port listens on (default 127.0.0.1: this machine only)"),
    )
    sv.set_defaults(func=cmd_serve)


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


SERVE_LIMITS = (
    "unload_after",
    "grace",
    "bot_delay",
    "deal_pause",
    "open_table_expiry",
    "tables_per_hour",
    "kept_games_per_hour",
    "connections_per_address",
    "bot_tables_per_address",
    "body_timeout",
    "header_timeout",
    "idle_timeout",
    "http_connections_per_address",
    "thinking_workers",
    "open_tables_per_address",
    "seats_per_address",
    "signups_per_hour",
    "hashing_threads",
    "hashing_queue",
    "events_per_day",
    "clubs_per_day",
)


def cmd_serve(args: argparse.Namespace) -> int:
    from ..web.db.storage import sqlite_url
    from ..web.server import serve  # without the web extra, main() says which to install

    db = args.db or sqlite_url("barbu-web.db")
    if "://" not in db:  # a plain path means a SQLite file
        db = sqlite_url(db)
    origins = tuple(o.strip().rstrip("/").lower() for o in args.allow_origin or ())
    bad = [o for o in origins if not re.fullmatch(r"https?://[^/\s]+", o)]
    if bad:
        error(_("--allow-origin takes an origin such as https://cards.example.org, not {value!r}").format(value=bad[0]))
        return 2
    for name in SERVE_LIMITS:
        if getattr(args, name) < 0:
            error(
                _("--{option} is 0 or more, not {value}").format(
                    option=name.replace("_", "-"), value=f"{getattr(args, name):g}"
                )
            )
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
    if min(args.mails_per_address, args.mails_per_account) < 0 or min(args.reminder_wait, args.reminder_every) < 0:
        error(_("--mails-per-address, --mails-per-account, --reminder-wait and --reminder-every are 0 or more"))
        return 2
    mail: dict[str, Any] = {
        "mail_from": args.mail_from,
        "mails_per_address": args.mails_per_address,
        "mails_per_account": args.mails_per_account,
        "reminder_wait": args.reminder_wait * 60,
        "reminder_every": args.reminder_every * 3600,
    }
    if args.smtp:
        host, _sep, port = args.smtp.rpartition(":")
        if not host or not port.isdigit() or not 1 <= int(port) <= 65535:
            error(
                _("--smtp takes the mail server as HOST:PORT, e.g. 127.0.0.1:25, not {value!r}").format(value=args.smtp)
            )
            return 2
        mail |= {"smtp_host": host, "smtp_port": int(port)}
    if args.public_url:
        if not re.fullmatch(r"https?://[^\s]+", args.public_url):
            error(
                _("--public-url takes the server's address such as https://cards.example.org, not {value!r}").format(
                    value=args.public_url
                )
            )
            return 2
        mail["public_url"] = args.public_url.rstrip("/")
    else:
        mail["public_url"] = f"http://{args.host}:{args.port}"
    if args.vapid_key:
        from ..web.notices.push import key_from_file

        try:
            key_from_file(args.vapid_key)
        except (OSError, ValueError, TypeError) as e:
            error(
                _(
                    "--vapid-key takes a file holding a private key in PEM, such as "
                    "`openssl ecparam -name prime256v1 -genkey` writes ({why})"
                ).format(why=type(e).__name__)
            )
            return 2
        mail["vapid_key"] = args.vapid_key
    players: list[tuple[str, str]] = []
    for text in args.player or ():
        name, eq, spec = text.partition("=")
        name = name.strip().lower()
        if not eq or not re.fullmatch(r"[a-z][a-z0-9-]{0,23}", name) or name in AGENT_KINDS or not spec.strip():
            error(
                _(
                    "--player takes NAME=PLAYER with a new short name, e.g. learned=policy:classic.npz, not {value!r}"
                ).format(value=text)
            )
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
        error(
            _(
                "--forwarded-allow-ips takes addresses or networks of your proxies, separated by commas "
                "(e.g. 10.0.0.5,192.168.1.0/24), or *; not {value!r}"
            ).format(value=str(e))
        )
        return 2
    for name in ("header_timeout", "idle_timeout"):
        if not math.isfinite(getattr(args, name)):
            error(
                _("--{option} is a number of seconds, not {value}").format(
                    option=name.replace("_", "-"), value=getattr(args, name)
                )
            )
            return 2
    if args.workers < 1:
        error(_("--workers is 1 or more"))
        return 2
    metrics_ports = range(args.metrics_port, args.metrics_port + args.workers) if args.metrics_port else range(0)
    if args.metrics_port and (not 1 <= args.metrics_port <= 65536 - args.workers or args.port in metrics_ports):
        error(
            _("--metrics-port is a port number from 1 to 65535 other than --port, not {value}").format(
                value=args.metrics_port
            )
        )
        return 2
    if args.workers > 1 and not args.broker:
        error(
            _(
                "--workers {n} needs a broker the processes share: add --broker redis://127.0.0.1:6379/0 "
                "(and a PostgreSQL --db for more than one machine)"
            ).format(n=args.workers)
        )
        return 2
    if args.route is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,16}", args.route):
        error(_("--route is a name of 1 to 16 letters, digits, - and _, not {value}").format(value=repr(args.route)))
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
    net = {
        "header_timeout": args.header_timeout,
        "idle_timeout": args.idle_timeout,
        "http_connections_per_address": args.http_connections_per_address,
        "forwarded_allow_ips": proxies,
    }
    given: dict[str, Any] = {}  # left out where not given: the settings' defaults stand
    if args.compare_with:
        given["compare_with"] = None if args.compare_with.lower() in ("none", "off") else args.compare_with
    if args.stand_in:
        given["stand_in"] = args.stand_in
    settings = Settings(
        **net,
        db_url=db,
        grace=args.grace,
        bot_delay=args.bot_delay,
        deal_pause=args.deal_pause,
        allowed_origins=origins,
        unload_after=args.unload_after,
        tables_per_hour=args.tables_per_hour,
        connections_per_address=args.connections_per_address,
        bot_tables_per_address=args.bot_tables_per_address,
        open_tables_per_address=args.open_tables_per_address,
        seats_per_address=args.seats_per_address,
        events_per_day=args.events_per_day,
        clubs_per_day=args.clubs_per_day,
        signups_per_hour=args.signups_per_hour,
        hashing_threads=max(1, args.hashing_threads),
        hashing_queue=args.hashing_queue,
        **mail,
        open_table_expiry=args.open_table_expiry,
        chat_days=max(0.0, args.chat_days),
        max_tables=args.max_tables,
        body_timeout=args.body_timeout,
        kept_games_per_hour=args.kept_games_per_hour,
        players=tuple(players),
        default_lang=current(),
        analysis_samples=args.analysis_samples,
        thinking_workers=args.thinking_workers,
        thinking_processes=not args.thinking_threads,
        broker_url=args.broker or None,
        lease_ttl=args.lease,
        route=args.route or f"p{args.port}",
        heartbeat=args.heartbeat,
        store_retry=args.store_retry,
        daily_strength=args.daily_strength,
        daily_boards=max(0, args.daily_boards),
        solver_workers=max(0, args.solver_workers),
        solver_seconds=args.solver_seconds,
        puzzles_file=args.puzzles,
        **given,
    )
    from ..web.server import StartupError, check_metrics, check_startup

    try:
        check_startup(settings, args.host, args.port)
        if args.metrics_port:
            check_metrics(args.metrics_host, args.metrics_port, args.workers)
    except StartupError as e:
        error(str(e))
        return 1
    shown = db.split("@")[-1] if "@" in db else db  # never print a database password
    console.print(
        _("barbu web server on http://{host}:{port}/ (database {db})").format(host=args.host, port=args.port, db=shown)
    )
    run: dict[str, Any] = {
        "log_format": args.log_format,
        "metrics": (args.metrics_host, args.metrics_port) if args.metrics_port else None,
    }
    if args.workers > 1:
        from ..web.server import serve_workers

        return (
            0
            if serve_workers(settings, args.workers, host=args.host, port=args.port, log_level=args.log_level, **run)
            else 1
        )
    return 0 if serve(settings, host=args.host, port=args.port, log_level=args.log_level, **run) else 1
