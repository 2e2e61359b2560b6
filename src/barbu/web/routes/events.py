"""The duplicate events' pages, API and push (the rules are in `barbu.web.events.service`).

Pages: ``/events`` (upcoming, running and past events; a form to create one) and ``/e/{id}`` (an event: its
details, registration, players, "go to your table", the standings and the boards' travellers).

API, every POST checking the Origin (`read_json`) and a logged-in account:

- ``GET /api/events`` (``?club=slug``: a club's): {upcoming, running, past}; ``POST /api/events`` {name, rules,
  players, format, rounds, tables|null, deals|null, strength, clock, start|null, club|null}: a new event.
- ``GET /api/events/{id}``: the page's data.  ``POST /api/events/{id}/register``, ``…/leave`` (withdraw
  before the start; leave for good after it: the stand-in plays on), ``…/start`` (the director).
- The director, before the start: ``…/cancel``, ``…/edit`` {name?, rules?, players?, format?, rounds?,
  tables?, deals?, strength?, clock?, start?} (only the fields given; checked as at the creation, and against
  the players registered), ``…/remove`` {name}: a player's registration.

WebSocket ``/ws/events/{id}``: the page is sent ``{"type": "watching"}`` once it is listened to, then
``{"type": "changed"}`` whenever what the event's page shows has changed (`barbu.web.events.push`), and reads
its JSON again; nothing else travels on it.  Its handshake is checked as a table's (the Origin, the
per-address count of WebSockets shared with the tables', the event's visibility to the reader).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ...core.words import N_
from ..accounts.service import COOKIE, Accounts
from ..accounts.store import User
from ..events.service import Events, iso, summary_json
from ..common.i18n import page_language, render_page
from .helpers import RouteHelpers, answer, page_or_missing
from ..common.settings import Settings
from ..tables.sockets import RateLimit, client_address
from ..tables.actor import TableError, dumps
from ..common.wording import error_json, say

if TYPE_CHECKING:
    from ..tables.lobby import Lobby


def event_routes(settings: Settings, lobby: "Lobby", accounts: Accounts,
                 read_json: Callable[..., Awaitable[dict[str, Any]]],
                 origin_allowed: Callable[[Any, Settings], bool]) -> tuple[list[BaseRoute], Events]:
    """The routes, and the events' service (the app starts and stops its watcher); ``origin_allowed`` is the
    app's check of a request's or a WebSocket's Origin."""
    events = Events(lobby, settings)
    helpers = RouteHelpers(accounts, read_json)
    current, action = helpers.current, helpers.action

    def event(request: Request) -> str:
        return request.path_params["event"]

    async def events_page(request: Request) -> Response:
        return render_page(request, settings, "events.html")

    async def event_page(request: Request) -> Response:
        return await page_or_missing(request, settings, "event.html",
                                     events.visible(event(request), await current(request)),
                                     lambda ev: {"event_name": ev.name if ev else ""})

    async def list_or_create(request: Request) -> Response:
        if request.method == "GET":
            club = request.query_params.get("club")
            club_id = None
            if club is not None:
                from ..clubs.service import Clubs
                found, _ = await Clubs(lambda: lobby.store).visible(club, await current(request))
                club_id = found.id
            return answer(await events.listing(await current(request), club_id))
        return await create(request)

    async def new_event(request: Request, data: dict[str, Any], user: User) -> dict[str, Any]:
        return {"event": summary_json(await events.create(user, data), 0)}
    create = action(new_event, 201)

    async def event_data(request: Request) -> Response:
        return answer(await events.page(event(request), await current(request)))

    async def register(request: Request, data: dict[str, Any], user: User) -> None:
        await events.register(event(request), user)

    async def leave(request: Request, data: dict[str, Any], user: User) -> dict[str, Any]:
        return {"ok": True, "done": await events.leave(event(request), user)}

    async def start(request: Request, data: dict[str, Any], user: User) -> None:
        await events.start(event(request), user)

    async def cancel(request: Request, data: dict[str, Any], user: User) -> None:
        await events.cancel(event(request), user)

    async def edit(request: Request, data: dict[str, Any], user: User) -> dict[str, Any]:
        ev, changed = await events.edit(event(request), user, data)
        return {"ok": True, "changed": changed, "name": ev.name, "rules": ev.rules, "format": ev.format,
                "rounds": ev.rounds, "tables": ev.tables, "deals": ev.deals, "strength": ev.strength,
                "clock": ev.clock, "start": iso(ev.start_at)}

    async def remove(request: Request, data: dict[str, Any], user: User) -> None:
        await events.remove(event(request), user, data.get("name"))

    async def ws_event(websocket: WebSocket) -> None:
        """The event's page is told at once when what it shows has changed (see the module's docstring)."""
        if not origin_allowed(websocket, settings):
            await websocket.close(code=1008)  # before accept: the handshake is refused (HTTP 403)
            return
        address = client_address(websocket)
        lang = page_language(websocket, settings)
        if not await lobby.connect(address):
            await websocket.accept()
            await websocket.send_text(dumps({
                "type": "error", "code": "too_many_connections",
                "message": say(lang, N_("too many connections from your address (the limit is {n}); "
                                        "close some tabs and reload"), n=settings.connections_per_address)}))
            await websocket.close(1008)
            return
        try:
            user = await accounts.session_user(websocket.cookies.get(COOKIE))
            try:
                ev = await events.visible(websocket.path_params["event"], user)
            except TableError as e:
                await websocket.accept()
                await websocket.send_text(dumps({"type": "error", "code": "no_event", **error_json(e, lang)}))
                await websocket.close(4404)
                return
            box = await events.push.watch(ev.id)
            try:
                await websocket.accept()
                await websocket.send_text(dumps({"type": "watching"}))
                reader = asyncio.ensure_future(read_until_closed(websocket, box.put))
                try:
                    while (note := await box.get()) is not None:
                        await websocket.send_text(note)
                finally:
                    reader.cancel()
                code = 1008 if reader.done() and not reader.cancelled() and reader.result() else 1001
                with contextlib.suppress(Exception):  # already closed by the page: nothing to say
                    await websocket.close(code)
            finally:
                events.push.unwatch(ev.id, box)
        except (WebSocketDisconnect, RuntimeError):  # it went away while being written to
            return
        finally:
            await lobby.disconnect(address)

    async def read_until_closed(websocket: WebSocket, done: Callable[[None], None]) -> bool:
        """The page sends nothing that matters: its messages are read only to notice it leave, and a flood cuts
        it off as at a table (True)."""
        limit = RateLimit(settings.burst, settings.rate)
        flooded = False
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if not limit.allow():
                    flooded = True
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass
        done(None)
        return flooded

    routes: list[BaseRoute] = [
        Route("/events", events_page),
        Route("/e/{event}", event_page),
        Route("/api/events", list_or_create, methods=["GET", "POST"]),
        Route("/api/events/{event}", event_data),
        Route("/api/events/{event}/register", action(register), methods=["POST"]),
        Route("/api/events/{event}/leave", action(leave), methods=["POST"]),
        Route("/api/events/{event}/start", action(start), methods=["POST"]),
        Route("/api/events/{event}/cancel", action(cancel), methods=["POST"]),
        Route("/api/events/{event}/edit", action(edit), methods=["POST"]),
        Route("/api/events/{event}/remove", action(remove), methods=["POST"]),
        WebSocketRoute("/ws/events/{event}", ws_event),
    ]
    return routes, events
