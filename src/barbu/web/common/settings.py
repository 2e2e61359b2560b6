"""Server settings: one frozen value passed to the app, the lobby and every table."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ...agents import AGENT_KINDS
from ...analysis.review import DEFAULT_SAMPLES, DEFAULT_SECONDS


def default_stand_in() -> str:
    """A disconnected player's stand-in: a middling computer player, the strongest being possibly slow."""
    return AGENT_KINDS[(len(AGENT_KINDS) - 1) // 2]


def default_compare_with() -> str | None:
    """The player one person is compared with (the strongest), unless ``BARBU_COMPARE_WITH`` names another or
    "none" (the test suite's servers compare only where a test asks)."""
    text = os.environ.get("BARBU_COMPARE_WITH", "expert").strip()
    return None if text.lower() in ("", "none", "off") else text


@dataclass(frozen=True)
class Settings:
    db_url: str = "sqlite:///barbu-web.db"
    grace: float = 30.0  # seconds a disconnected player keeps his seat before a stand-in plays it
    bot_delay: float = 0.8  # seconds a computer player waits before acting, so people can follow
    deal_pause: float = 2.0  # seconds between the end of a deal and the next shuffle, when people play
    max_message: int = 4096  # bytes: longer messages and request bodies are refused
    max_import: int = 262_144  # bytes: a kept game imported from a file (a whole game's JSON or CSV)
    body_timeout: float = 10.0  # seconds a request body may take to arrive
    burst: int = 30  # messages a connection may send at once ...
    rate: float = 15.0  # ... and per second on average; beyond that it is cut off
    hello_timeout: float = 10.0  # seconds a new connection has to say hello
    # seconds without a message after which a table's connection is sent a small "beat" frame: the page reconnects
    # when it has heard nothing for about 2.5 times this long (a dead relay, a hung process, a cut cable)
    heartbeat: float = 15.0
    store_retry: float = 10.0  # seconds a move whose write failed is written again before it is handed back
    stand_in: str = field(default_factory=default_stand_in)
    allowed_origins: tuple[str, ...] = ()  # extra origins allowed besides the server's own
    max_tables: int = 5000  # tables kept open at once
    unload_after: float = 600.0  # seconds a finished table nobody watches stays in memory (it is reloaded on request)
    # Limits per client address (0: no limit), so one client cannot fill the server for everybody.
    tables_per_hour: int = 30  # tables one address may create in any hour
    kept_games_per_hour: int = 60  # scorekeeper games one address may create or import in any hour
    connections_per_address: int = 64  # WebSocket connections open at once from one address
    bot_tables_per_address: int = 5  # unfinished tables with computer players one address has set up
    open_tables_per_address: int = 10  # unfinished tables one address has created and still uses
    signups_per_hour: int = 10  # accounts one address may make in any hour
    # Passwords hashed (Argon2id) in a pool of their own (`barbu.web.accounts.hashing`): threads, and hashes that may
    # wait beyond them; a log-in or sign-up beyond that is refused at once (429), so other routes never wait for it.
    hashing_threads: int = 2
    hashing_queue: int = 16
    seats_per_address: int = 1  # seats one address may hold at a listed table it did not create
    events_per_day: int = 10  # duplicate events one account, and one address, may create in any 24 hours
    clubs_per_day: int = 10  # clubs one address may create in any 24 hours (an account: `clubs.service.CLUBS_PER_DAY`)
    play_reserve: float = 0.1  # share of max_tables only "Play against the computer" and rematches may use
    open_table_expiry: float = 3600.0  # seconds an open table waits for its players since the last seat was taken
    chat_days: float = 30.0  # days a table's chat is kept (``barbu serve --chat-days``); 0: kept for ever
    # Web Push (`barbu.web.notices.push`): the VAPID private key's PEM file (``barbu serve --vapid-key``; None: one
    # made once and kept in the database), and whether a push service may be reached by plain http or on this
    # machine (a test's local push service only; never on a public server).
    vapid_key: str | None = None
    push_plain_http: bool = False
    # Computer players of the operator's own offered besides AGENT_KINDS, by name: (name, player), e.g.
    # ("learned", "policy:classic.npz") from ``barbu serve --player learned=policy:classic.npz``.
    players: tuple[tuple[str, str], ...] = ()
    # The pages' language when a browser names none we speak ("en", "fr", "it"): ``barbu serve --lang``.
    default_lang: str = "en"
    # The replay's analysis (``/t/{id}/replay``): sampled deals and seconds per decision weighed, as ``barbu analyze``.
    analysis_samples: int = DEFAULT_SAMPLES
    analysis_seconds: float = DEFAULT_SECONDS
    analysis_queue: int = 4  # matches being weighed or waiting at once; beyond that a request is refused
    # Fair shares of the machine (`barbu.web.tables.thinking`): work taken in turns by client address.
    thinking_workers: int = 0  # computer players' decisions thought at once; 0: one per core
    thinking_processes: bool = True  # search players think in worker processes (the search core holds the GIL)
    hints_at_once: int = 2  # hints computed at once, at most one per address
    analyses_per_address: int = 2  # replay analyses one address may have under way or waiting
    # HTTP connections (`barbu.web.connections`): ``barbu serve --header-timeout`` and the others.
    header_timeout: float = 10.0  # seconds a request's head may take to arrive; 0: no limit
    idle_timeout: float = 5.0  # seconds an idle keep-alive connection stays open
    http_connections_per_address: int = 32  # HTTP connections open at once from one address; 0: no limit
    # Proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (IPs, networks, or "*"); none by default.
    forwarded_allow_ips: tuple[str, ...] = ()
    # Many processes (`barbu.web.cluster.node`): the Redis broker they share (None: one process alone), and how long
    # a table's lease lasts unless renewed (a lost process's tables are taken over within about that long).
    broker_url: str | None = None
    lease_ttl: float = 5.0
    # This process's route (``barbu serve --route``, by default "p" and its port): the page opens a table's WebSocket
    # with its owner's, and nginx sends it to that process (deploy/nginx-barbu.conf) rather than to one that relays.
    route: str | None = None
    # E-mails saying "your turn" at turn-based tables, to players who ask for them (None: no mail server).
    smtp_host: str | None = None
    smtp_port: int = 25
    mail_from: str = "barbu@localhost"
    public_url: str | None = None  # the server's address as players reach it, for the links in e-mails
    # Budgets of e-mails per UTC day (`barbu.web.db.mailbudget`), each counted before a mail is sent.
    mails_per_address: int = 10  # to one recipient, whatever asked for them
    mails_per_account: int = 10  # on behalf of one account
    confirmations_per_day: int = 3  # "confirm your address" per account and per recipient
    resets_per_day: int = 3  # "forgot your password" mails per recipient
    reset_requests_per_address: int = 20  # "forgot your password" requests per client address (sent or not)
    reminder_wait: float = 600.0  # seconds a turn waits before its reminder goes (one mail lists every table)
    reminder_every: float = 6 * 3600.0  # seconds at least between two reminders to one account
    # The daily deals (`barbu.web.daily.service`): the computer players' fixed strength, and the boards per set (0: all).
    daily_strength: str = "rule"
    daily_boards: int = 0
    # The double-dummy tables of the daily boards and the events' boards solved in the background
    # (`barbu.web.replay.solved`): low-priority worker processes (0: none here, the tests' default; ``barbu serve
    # --solver-workers`` gives half the cores) and each cell's budget in seconds (``--solver-seconds``).
    solver_workers: int = 0
    solver_seconds: float = 6.0
    # The puzzles (`barbu.web.puzzles`): a JSON Lines file served in place of the library shipped with the package.
    puzzles_file: str | None = None
    # One person against computer players: the player that replays each finished deal in his seat, to compare
    # (`barbu.web.tables.shadow`; ``barbu serve --compare-with``, "none" for nobody).
    compare_with: str | None = field(default_factory=default_compare_with)

    def strengths(self) -> list[str]:
        """The computer players a table may seat, by the names the pages show."""
        return list(AGENT_KINDS) + [name for name, _ in self.players]

    def player_spec(self, strength: str) -> str:
        """What a strength names: an operator's player's own spec, or the strength itself."""
        return dict(self.players).get(strength, strength)
