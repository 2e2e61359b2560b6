"""The duplicate events' pages and API (the rules are in `barbu.web.events`).

Pages: ``/events`` (upcoming, running and past events; a form to create one) and ``/e/{id}`` (an event: its
details, registration, players, "go to your table", the standings and the boards' travellers).

API, every POST checking the Origin (`read_json`) and a logged-in account:

- ``GET /api/events`` (``?club=slug``: a club's): {upcoming, running, past}; ``POST /api/events`` {name, rules,
  players, format, rounds, tables|null, deals|null, strength, clock, start|null, club|null}: a new event.
- ``GET /api/events/{id}``: the page's data.  ``POST /api/events/{id}/register``, ``…/leave`` (withdraw
  before the start; leave for good after it: the stand-in plays on), ``…/start`` (the director).
- The director, before the start: ``…/cancel``, ``…/edit`` {name?, start?, clock?} (only the fields given),
  ``…/remove`` {name}: a player's registration.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..core.words import N_
from .accounts import COOKIE, Accounts
from .accountstore import User
from .events import Events, iso, summary_json
from .i18n import render_page
from .settings import Settings
from .table import TableError

if TYPE_CHECKING:
    from .lobby import Lobby

NO_STORE = {"cache-control": "no-store"}


def event_routes(settings: Settings, lobby: "Lobby", accounts: Accounts,
                 read_json: Callable[..., Awaitable[dict[str, Any]]]) -> tuple[list[Route], Events]:
    events = Events(lobby, settings)

    async def current(request: Request) -> User | None:
        return await accounts.session_user(request.cookies.get(COOKIE))

    async def required(request: Request) -> User:
        user = await current(request)
        if user is None:
            raise TableError(N_("log in (or make an account) to do that"), 401)
        return user

    def answer(body: dict[str, Any], status: int = 200) -> Response:
        return JSONResponse(body, status_code=status, headers=NO_STORE)

    async def events_page(request: Request) -> Response:
        return render_page(request, settings, "events.html")

    async def event_page(request: Request) -> Response:
        try:
            ev = await events.find(request.path_params["event"])
            await events.page(ev.id, await current(request))
        except TableError as e:
            if e.status != 404:
                raise
            return render_page(request, settings, "event.html", status_code=404, missing=True, event_name="")
        return render_page(request, settings, "event.html", missing=False, event_name=ev.name)

    async def list_or_create(request: Request) -> Response:
        if request.method == "GET":
            club = request.query_params.get("club")
            club_id = None
            if club is not None:
                from .clubs import Clubs
                found, _ = await Clubs(lambda: lobby.store).visible(club, await current(request))
                club_id = found.id
            return answer(await events.listing(await current(request), club_id))
        data = await read_json(request)
        user = await required(request)
        ev = await events.create(user, data)
        return answer({"event": summary_json(ev, 0)}, 201)

    async def event_data(request: Request) -> Response:
        return answer(await events.page(request.path_params["event"], await current(request)))

    async def register(request: Request) -> Response:
        await read_json(request)
        await events.register(request.path_params["event"], await required(request))
        return answer({"ok": True})

    async def leave(request: Request) -> Response:
        await read_json(request)
        done = await events.leave(request.path_params["event"], await required(request))
        return answer({"ok": True, "done": done})

    async def start(request: Request) -> Response:
        await read_json(request)
        await events.start(request.path_params["event"], await required(request))
        return answer({"ok": True})

    async def cancel(request: Request) -> Response:
        await read_json(request)
        await events.cancel(request.path_params["event"], await required(request))
        return answer({"ok": True})

    async def edit(request: Request) -> Response:
        data = await read_json(request)
        ev = await events.edit(request.path_params["event"], await required(request), data)
        return answer({"ok": True, "name": ev.name, "start": iso(ev.start_at), "clock": ev.clock})

    async def remove(request: Request) -> Response:
        data = await read_json(request)
        await events.remove(request.path_params["event"], await required(request), data.get("name"))
        return answer({"ok": True})

    routes = [
        Route("/events", events_page),
        Route("/e/{event}", event_page),
        Route("/api/events", list_or_create, methods=["GET", "POST"]),
        Route("/api/events/{event}", event_data),
        Route("/api/events/{event}/register", register, methods=["POST"]),
        Route("/api/events/{event}/leave", leave, methods=["POST"]),
        Route("/api/events/{event}/start", start, methods=["POST"]),
        Route("/api/events/{event}/cancel", cancel, methods=["POST"]),
        Route("/api/events/{event}/edit", edit, methods=["POST"]),
        Route("/api/events/{event}/remove", remove, methods=["POST"]),
    ]
    return routes, events
