"""The ASGI application: the services of one server, its routes, its middleware and its lifespan.

The routes are `barbu.web.routes`' modules, one per domain (the pages, the tables and their WebSocket,
replays, the scorekeeper, learning, accounts, players, clubs, events, the daily deals), each a list of
module-level handlers; they reach the services through ``app.state.services`` (`routes.services`).
`create_app` builds the services and wires the rest.
"""

from __future__ import annotations

import contextlib
from functools import partial
from typing import Any, AsyncIterator, Callable

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .accounts import email as accountmail
from .accounts.email import Email
from .accounts.hashing import Hashing
from .accounts.service import Accounts
from .challenges.service import Challenges
from .clubs.chat import RoomChat
from .clubs.service import Clubs
from .clubs.store import leave_all as leave_clubs
from .cluster.node import Cluster
from .common.errors import WebError
from .common.settings import Settings
from .daily.service import Daily
from .events.rounds import finished_rounds, running_rounds
from .events.service import Events
from .live.hub import Live
from .moderation.service import ROOMS, Moderation, forget_player, speaker
from .moderation.service import voice as moderated_voice
from .notices.service import Notices
from .profiles import history
from .puzzles.harvest import Harvest
from .puzzles.service import Puzzles
from .puzzles.store import forget as forget_puzzles
from .replay.service import Analyses
from .replay.solved import SolvedTables, today_sets
from .routes import accounts, clubs, daily, events, learn, moderation, pages, players, replay, scorebooks, tables
from .routes import challenges as challengeroutes
from .routes import mail as mailroutes
from .routes import notices as noticeroutes
from .routes import puzzles as puzzleroutes
from .routes import rooms as roomroutes
from .routes import social as socialroutes
from .routes.app_shell import ROUTES as APP_SHELL_ROUTES
from .routes.bodies import origin_allowed, read_body
from .routes.helpers import web_error
from .routes.outageguard import OutageGuard
from .routes.services import Services, keep_costs
from .scorebooks.keeping import Scorekeeping
from .social import blocks
from .social.presence import Presence, from_store
from .social.service import Social
from .tables.actor import Table
from .tables.lobby import Lobby
from .tables.ops import operate
from .tables.outside import Outside

__all__ = ["create_app", "origin_allowed", "read_body", "SecurityHeaders"]

SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}

#: Every route of the server, in the order they are matched (the static files last).
ROUTES: list[BaseRoute] = [
    *pages.ROUTES,
    *APP_SHELL_ROUTES,
    *socialroutes.ROUTES,  # before the tables': /ws/me is not a table's /ws/{id}
    *tables.ROUTES,
    *replay.ROUTES,
    *scorebooks.ROUTES,
    *learn.ROUTES,
    *accounts.ROUTES,
    *mailroutes.ROUTES,
    *players.ROUTES,
    *clubs.ROUTES,
    *events.ROUTES,
    *roomroutes.ROUTES,
    *daily.ROUTES,
    *moderation.ROUTES,
    *noticeroutes.ROUTES,
    *challengeroutes.ROUTES,
    *puzzleroutes.ROUTES,
    *pages.STATIC_ROUTES,
]


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """The lobby opened (its database, its cluster), the events watched; all closed in reverse at the end."""
    s: Services = app.state.services
    await s.lobby.start()
    s.events.start_watching()  # duplicate events: starts at their time, rounds moved on when over
    app.state.solved.start()  # the daily boards' and events' boards' double-dummy tables solved in the background
    app.state.harvest.start()  # the finished days' daily deals and events' rounds looked at for public puzzles
    s.live.start()  # the account channel: its pages' routes renewed in Redis (several processes)
    s.challenges.start()  # the lapsed challenges swept and told
    s.presence.start(partial(seated_here, s.lobby))  # who sat down or left at the tables owned here
    if s.cluster is not None:  # the clubs' and events' chat rooms hear the other processes' messages
        await s.rooms.start(s.cluster.broker.redis, s.cluster.node)
    try:
        yield
    finally:
        await s.challenges.stop()
        await s.rooms.stop()
        await s.presence.close()
        await s.live.close()
        await s.events.stop()
        await app.state.solved.stop()
        await app.state.harvest.stop()
        s.analyses.close()
        app.state.puzzles.close()
        await s.lobby.close()


def seated_here(lobby: Lobby) -> dict[int, str]:
    """The accounts seated at the unfinished tables this process owns, with their table (presence's look)."""
    return {
        s.user_id: t.id
        for t in list(lobby.tables.values())
        if t.status in ("open", "playing")
        for s in t.seats
        if s.kind == "human" and s.user_id is not None and not s.left
    }


def household_of(t: Table, address: str | None) -> str | None:
    """The HMAC of the address a person's seat was taken from (None: not known, as after a restart)."""
    return t.hash_address(address) if address is not None and t.hash_address is not None else None


def match_results(t: Table) -> Callable[[Any], object]:
    """A match played to its end: the writer of its results and (rated) the ratings, run in the table's last
    write (`barbu.web.tables.outside.Outside`)."""
    seats = [
        history.SeatResult(s.kind, s.name, s.strength, s.user_id, s.left, household_of(t, s.address)) for s in t.seats
    ]
    finished = history.finished_of(t.id, t.match, seats, t.rated)
    return lambda conn: history.record(conn, finished)


def with_puzzles(puzzles: Puzzles) -> Callable[[Table], Callable[[Any], object]]:
    """`match_results`, and each account's own puzzles looked for in the finished match, in the background
    (`Puzzles.mine_later`: never on the event loop, never in the way of the results)."""

    def results(t: Table) -> Callable[[Any], object]:
        accounts = [(i, s.user_id) for i, s in enumerate(t.seats) if s.kind == "human" and s.user_id is not None]
        puzzles.mine_later(t.id, t.match, accounts)
        return match_results(t)

    return results


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or Settings()
    notices = Notices(settings, lambda: lobby.store)  # the bell, the list, Web Push, e-mail (`barbu.web.notices`)
    puzzles = Puzzles(lambda: lobby.store, settings.puzzles_file)  # `barbu.web.puzzles`
    lobby = Lobby(
        settings,
        Outside(
            results=with_puzzles(puzzles),
            ratings=history.seat_ratings,
            mail_of=accountmail.mail_of,
            notice=notices.turn,
        ),
    )
    if settings.broker_url:  # one of many processes: the lobby is the host of its cluster (`barbu.web.cluster.node`)
        lobby.cluster = Cluster(settings, lobby, partial(operate, lobby))
    analyses = Analyses(
        settings.analysis_samples,
        settings.analysis_seconds,
        queue=settings.analysis_queue,
        per_address=settings.analyses_per_address,
    )
    keep_costs(lobby, analyses)
    lobby.chat_speaker = speaker  # the tables' chat: a muted account says nothing (`barbu.web.tables.chat`)
    lobby.seat_guard = blocks.seat_guard(lambda: lobby.store)  # a block keeps two accounts from one table
    lobby.chat_apart = blocks.chat_apart  # and from reading each other at a table
    live = Live()  # the account channel (`barbu.web.live`)
    if isinstance(lobby.cluster, Cluster):
        live.attach(lobby.cluster)
    social = Social(lambda: lobby.store)
    presence = Presence(live, *from_store(lambda: lobby.store))
    social.on_follow.append(presence.follows_changed)
    accounts = Accounts(
        lambda: lobby.store,
        lambda address: lobby.creations.address_hash(address),
        on_delete=[leave_clubs, forget_player, forget_puzzles],  # his clubs pass on; the reports, his puzzles go
        hashing=Hashing(settings.hashing_threads, settings.hashing_queue),
        broker=lambda: None if lobby.creations.shared is None else lobby.creations.shared.redis,
    )
    services = Services(
        settings=settings,
        lobby=lobby,
        accounts=accounts,
        analyses=analyses,
        events=Events(lobby, settings, voice=moderated_voice),  # a muted director names nothing
        daily=Daily(lambda: lobby.store, settings.daily_strength, settings.daily_boards),
        clubs=Clubs(lambda: lobby.store, voice=moderated_voice),  # nor does a muted club owner
        scorebooks=Scorekeeping(lambda: lobby.store, settings.kept_games_per_hour, lobby.creations),
        mail=Email(settings, lambda: lobby.store, lambda address: lobby.creations.address_hash(address)),
        moderation=Moderation(lambda: lobby.store),
        live=live,
        social=social,
        presence=presence,
        notices=notices,
        # the clubs' and events' chat rooms: a muted account says nothing, links clickable for those with history
        rooms=RoomChat(lambda: lobby.store, ROOMS, speaker),
        challenges=Challenges(lobby, notices),  # a player's challenges to others
    )
    services.rooms.apart = blocks.chat_apart  # nor in a club's or an event's room
    services.moderation.on_warned = notices.warned  # a player warned is told so
    services.events.watcher.soon = notices.event_soon  # an event's players told it starts soon
    services.events.rounds.ready = notices.event_table  # and that their table is ready, at each round
    notices.live, notices.is_open = live.send, live.connected  # the bell of his open pages; pushed when none is
    services.challenges.send = live.send  # a challenge's page hears its answers, its players are sent to its table
    app = Starlette(
        routes=ROUTES,
        lifespan=lifespan,
        exception_handlers={WebError: web_error},
        middleware=[Middleware(SecurityHeaders), Middleware(OutageGuard)],  # an outage: a clear answer, one line
    )
    app.state.services = services
    # each service by its name too: the domains that look one up on a request (`clubs.service.viewer`) and the tests
    app.state.lobby, app.state.accounts, app.state.events = lobby, accounts, services.events
    app.state.daily, app.state.analyses, app.state.settings = services.daily, analyses, settings
    # the daily boards' and the events' boards' tables solved in the background, served by the replay at once
    solved = SolvedTables(lambda: lobby.store, settings.solver_workers, settings.solver_seconds)
    solved.daily_sets, solved.rounds = partial(today_sets, services.daily), running_rounds
    services.events.rounds.on_made = solved.wake
    analyses.store = lambda: lobby.store
    app.state.solved = solved
    app.state.puzzles = puzzles
    # the server's own puzzles, from the finished days' daily deals (where the server solves in the background)
    app.state.harvest = Harvest(puzzles, services.daily, enabled=settings.solver_workers > 0)
    app.state.harvest.rounds = finished_rounds
    return app


class SecurityHeaders:
    """Adds the security headers to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                own = {
                    k.lower() for k, _ in headers
                }  # a response may set its own (the printed sheet: no script at all)
                headers += [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items() if k.encode() not in own]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
