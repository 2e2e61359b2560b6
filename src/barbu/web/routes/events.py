"""The duplicate events' pages, API and push (the rules are in `barbu.web.events.service`).

Pages: ``/events`` (upcoming, running and past events; a form to create one) and ``/e/{id}`` (an event: its
details, registration, players, "go to your table", the standings and the boards' travellers).

API, every POST checking the Origin (`bodies.read_json`) and a logged-in account:

- ``GET /api/events`` (``?club=slug``: a club's): {upcoming, running, past}; ``POST /api/events`` {name, rules,
  players, format, rounds, tables|null, deals|null, strength, clock, start|null, club|null}: a new event.
- ``GET /api/events/table/{table}``: an event table's end (its event, round, the reader's next table or place).
- ``GET /api/events/{id}``: the page's data.  ``POST /api/events/{id}/register``, ``…/leave`` (withdraw
  before the start; leave for good after it: the stand-in plays on), ``…/start`` (the director).
- The director, before the start: ``…/cancel``, ``…/edit`` {name?, rules?, players?, format?, rounds?,
  tables?, deals?, strength?, clock?, start?} (only the fields given; checked as at the creation, and against
  the players registered), ``…/remove`` {name}: a player's registration.
- The director, once it runs: ``…/replace`` {name}: a missing player's seat played by a computer from now on, as if
  he had left (his results stay his, the deals played for him marked); ``…/pause`` {reason?}: no table of the
  event takes a move and every clock stands still until ``…/resume`` (`barbu.web.events.pausing`).

WebSocket ``/ws/events/{id}``: the page is sent ``{"type": "watching"}`` once it is listened to, then
``{"type": "changed"}`` whenever what the event's page shows has changed (`barbu.web.events.push`), and reads
its JSON again; nothing else travels on it.  Its handshake is checked as a table's (the Origin, the
per-address count of WebSockets shared with the tables', the event's visibility to the reader).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..accounts.store import User
from ..common.errors import WebError
from ..common.i18n import page_language
from ..common.wording import word
from ..events import refusals as no
from ..events.pages import iso, summary_json
from ..tables.actor import dumps
from ..tables.sockets import RateLimit, client_address
from . import payloads as p
from .bodies import origin_allowed
from .helpers import action, answer, page, page_or_missing, user_of
from .services import services
from .tables import too_many_connections

PAGES_MAX = 1000  # pages of upcoming events a list may be asked for


def event(request: Request) -> str:
    found: str = request.path_params["event"]
    return found


async def events_page(request: Request) -> Response:
    return page(request, "events.html")


async def event_page(request: Request) -> Response:
    return await page_or_missing(
        request,
        "event.html",
        services(request).events.visible(event(request), await user_of(request)),
        lambda ev: {"event_name": ev.name if ev else ""},
    )


@action(p.EventForm, 201)
async def create(request: Request, body: p.EventForm, user: User) -> dict[str, Any]:
    made = await services(request).events.create(user, body.given(), client_address(request))
    return {"event": summary_json(made, 0)}


def list_page(request: Request) -> int:
    """The page of the upcoming events asked for (``?page=n``, 0 the first)."""
    raw = request.query_params.get("page", "0")
    if not raw.isdigit() or len(raw) > 4 or int(raw) > PAGES_MAX:
        raise WebError(no.PAGE_NUMBER, hi=PAGES_MAX)
    return int(raw)


async def list_or_create(request: Request) -> Response:
    if request.method == "GET":
        club = request.query_params.get("club")
        club_id = None
        if club is not None:
            found, _ = await services(request).clubs.visible(club, await user_of(request))
            club_id = found.id
        return answer(await services(request).events.listing(await user_of(request), club_id, list_page(request)))
    return await create(request)


async def table_event(request: Request) -> Response:
    """What an event's table shows at its end: its event, round, the reader's next table or place."""
    found = await services(request).events.of_table(request.path_params["table"], await user_of(request))
    return answer(found)


async def event_data(request: Request) -> Response:
    return answer(await services(request).events.page(event(request), await user_of(request)))


@action(p.Empty)
async def register(request: Request, body: p.Empty, user: User) -> None:
    await services(request).events.register(event(request), user)


@action(p.Empty)
async def leave(request: Request, body: p.Empty, user: User) -> dict[str, Any]:
    return {"ok": True, "done": await services(request).events.leave(event(request), user)}


@action(p.Empty)
async def start(request: Request, body: p.Empty, user: User) -> None:
    await services(request).events.start(event(request), user)


@action(p.Empty)
async def cancel(request: Request, body: p.Empty, user: User) -> None:
    await services(request).events.cancel(event(request), user)


@action(p.EventForm)
async def edit(request: Request, body: p.EventForm, user: User) -> dict[str, Any]:
    ev, changed = await services(request).events.edit(event(request), user, body.given())
    return {
        "ok": True,
        "changed": changed,
        "name": ev.name,
        "rules": ev.rules,
        "format": ev.format,
        "rounds": ev.rounds,
        "tables": ev.tables,
        "deals": ev.deals,
        "strength": ev.strength,
        "clock": ev.clock,
        "start": iso(ev.start_at),
    }


@action(p.Named)
async def remove(request: Request, body: p.Named, user: User) -> None:
    await services(request).events.remove(event(request), user, body.name)


@action(p.Named)
async def replace(request: Request, body: p.Named, user: User) -> dict[str, Any]:
    return {"ok": True, "replaced": await services(request).events.replace(event(request), user, body.name)}


@action(p.Pause)
async def pause(request: Request, body: p.Pause, user: User) -> dict[str, Any]:
    return {"ok": True, "paused": await services(request).events.pause(event(request), user, body.reason)}


@action(p.Empty)
async def resume(request: Request, body: p.Empty, user: User) -> None:
    await services(request).events.resume(event(request), user)


async def ws_event(websocket: WebSocket) -> None:
    """The event's page is told at once when what it shows has changed (see the module's docstring)."""
    settings, lobby, events = services(websocket).settings, services(websocket).lobby, services(websocket).events
    if not origin_allowed(websocket, settings):
        await websocket.close(code=1008)  # before accept: the handshake is refused (HTTP 403)
        return
    address = client_address(websocket)
    lang = page_language(websocket, settings)
    if not await lobby.connect(address):
        await too_many_connections(websocket, lang)
        return
    try:
        user = await user_of(websocket)
        try:
            ev = await events.visible(websocket.path_params["event"], user)
        except WebError as e:
            await websocket.accept()
            await websocket.send_text(dumps({"type": "error", "code": "no_event", "error": word(e, lang)}))
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


async def read_until_closed(
    websocket: WebSocket, done: Callable[[None], None], handle: Callable[[Any], Awaitable[None]] | None = None
) -> bool:
    """What the page sends, until it leaves: the event's page sends nothing that matters (its messages are read
    only to notice it leave); a chat room's are each given to ``handle``.  A flood cuts it off as at a table
    (True)."""
    settings = services(websocket).settings
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
            if handle is not None:
                await handle(message)
    except (WebSocketDisconnect, RuntimeError):
        pass
    done(None)
    return flooded


ROUTES: list[BaseRoute] = [
    Route("/events", events_page),
    Route("/e/{event}", event_page),
    Route("/api/events", list_or_create, methods=["GET", "POST"]),
    Route("/api/events/table/{table}", table_event),
    Route("/api/events/{event}", event_data),
    Route("/api/events/{event}/register", register, methods=["POST"]),
    Route("/api/events/{event}/leave", leave, methods=["POST"]),
    Route("/api/events/{event}/start", start, methods=["POST"]),
    Route("/api/events/{event}/cancel", cancel, methods=["POST"]),
    Route("/api/events/{event}/edit", edit, methods=["POST"]),
    Route("/api/events/{event}/remove", remove, methods=["POST"]),
    Route("/api/events/{event}/replace", replace, methods=["POST"]),
    Route("/api/events/{event}/pause", pause, methods=["POST"]),
    Route("/api/events/{event}/resume", resume, methods=["POST"]),
    WebSocketRoute("/ws/events/{event}", ws_event),
]
