"""The puzzles' pages and API (`barbu.web.puzzles`).

Pages: ``GET /puzzles`` (puzzles near one's level, chosen by family, contract, theme and kind),
``/puzzles/daily`` (the day's, the same for everyone), ``/puzzles/streak`` (ever harder until the first
mistake), ``/puzzles/mine`` (an account's own, found in his finished matches) and ``/puzzles/{id}`` (one puzzle).
API: ``POST /api/puzzles/offer`` {mode, id?, family?, contract?, theme?, kind?} (the position, never the answer),
``POST /api/puzzles/answer`` {id, card} (checked, rated; then the solution and the rest), ``POST
/api/puzzles/streak`` (a new streak), ``GET /api/puzzles/choices``, ``GET /api/puzzles/me`` and ``GET
/api/puzzles/players/{name}`` (the profile's puzzle rating and history, and one's own puzzles on one's own page).
A guest is known by the daily deals' signed cookie (``barbu_daily``), made at his first puzzle; an account by its
session.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..accounts.service import fold
from ..common.errors import WebError
from ..puzzles import refusals as PR
from ..puzzles.service import FILTERS, MAX_CARD, MODES, RATED, Puzzles
from ..tables.actor import NAME_MAX
from ..tables.sockets import client_address
from . import refusals as R
from .bodies import decode
from .daily import answer, person
from .helpers import not_found, page, user_of
from .payloads import Payload
from .players import the_store
from .services import services

ID = re.compile(r"^[0-9a-f]{12}$")
ANSWERS_PER_HOUR = 300  # puzzle answers one address may give in an hour
GUESTS_PER_HOUR = 30  # new guest solvers one address may begin in an hour
MAX_FILTER = 64


class Offer(Payload):
    """``POST /api/puzzles/offer``: the puzzle to show (checked by the route)."""

    mode: Any = RATED
    id: Any = None
    family: Any = None
    contract: Any = None
    theme: Any = None
    kind: Any = None


class Answer(Payload):
    """``POST /api/puzzles/answer``: the card played."""

    id: Any = None
    card: Any = None


def puzzle_id(value: Any) -> str:
    if not isinstance(value, str) or not ID.match(value):
        raise WebError(PR.NO_PUZZLE, id=str(value)[:12])
    return value


def puzzles_of(request: Request) -> Puzzles:
    """The server's puzzles (`barbu.web.app.create_app` keeps them on the application's state)."""
    found: Puzzles = request.app.state.puzzles
    return found


async def puzzles_page(request: Request) -> Response:
    pid = request.path_params.get("id")
    mode = request.path_params.get("mode", RATED)
    if pid is not None and not ID.match(pid):
        return not_found(request)
    return page(request, "puzzles.html", mode=mode, puzzle_id=pid or "")


def mode_page(mode: str) -> Any:
    async def endpoint(request: Request) -> Response:
        return page(request, "puzzles.html", mode=mode, puzzle_id="")

    endpoint.__name__ = f"puzzles_{mode}_page"
    return endpoint


async def api_offer(request: Request) -> Response:
    """The puzzle offered: its position as the solver's seat sees it (a new guest gets his cookie here)."""
    body = await decode(request, Offer)
    mode = body.mode if isinstance(body.mode, str) else ""
    if mode not in MODES:
        raise WebError(PR.BAD_MODE, modes=", ".join(MODES))
    pid = None if body.id is None else puzzle_id(body.id)
    filters: dict[str, str] = {}
    for key in FILTERS:
        value = getattr(body, key)
        if value is None or value == "":
            continue
        if not isinstance(value, str) or len(value) > MAX_FILTER:
            raise WebError(PR.BAD_CHOICE, field=key)
        filters[key] = value
    someone, cookie = await person(request, make=True)
    if cookie is not None:
        wait = await services(request).lobby.creations.take(client_address(request), "puzzle_guest", GUESTS_PER_HOUR)
        if wait:
            raise WebError(PR.TOO_MANY_GUESTS, n=wait)
    found = await asyncio.to_thread(puzzles_of(request).offer, someone.who, someone.user_id, mode, pid, filters)
    return answer(found, request, cookie)


async def api_answer(request: Request) -> Response:
    """The solver's card: refused once answered or never offered; else rated, and the solution sent."""
    body = await decode(request, Answer)
    pid = puzzle_id(body.id)
    if not isinstance(body.card, str) or not 0 < len(body.card) <= MAX_CARD:
        raise WebError(PR.NOT_A_CARD, example="QH")
    someone, _ = await person(request)  # a browser that never had a puzzle is no solver: "not offered"
    wait = await services(request).lobby.creations.take(client_address(request), "puzzle_answer", ANSWERS_PER_HOUR)
    if wait:
        raise WebError(PR.TOO_MANY, n=wait)
    done = await asyncio.to_thread(puzzles_of(request).answer, someone.who, someone.user_id, pid, body.card.upper())
    return answer(done, request)


async def api_streak(request: Request) -> Response:
    await decode(request, Payload)
    someone, cookie = await person(request, make=True)
    if cookie is not None:
        wait = await services(request).lobby.creations.take(client_address(request), "puzzle_guest", GUESTS_PER_HOUR)
        if wait:
            raise WebError(PR.TOO_MANY_GUESTS, n=wait)
    return answer(
        await asyncio.to_thread(puzzles_of(request).start_streak, someone.who, someone.user_id), request, cookie
    )


async def api_choices(request: Request) -> Response:
    return JSONResponse(await asyncio.to_thread(puzzles_of(request).choices), headers={"cache-control": "no-cache"})


async def api_me(request: Request) -> Response:
    someone, _ = await person(request)
    return answer(await asyncio.to_thread(puzzles_of(request).me, someone.who), request)


async def api_player(request: Request) -> Response:
    """A player's puzzle rating and its history; his own puzzles too when he reads his own page."""
    name = request.path_params["name"]
    user = None
    if len(name) <= NAME_MAX * 4:
        from ..accounts import store as accounts_store

        store = the_store(request)

        def find() -> Any:
            with store.engine.connect() as conn:
                found = accounts_store.user_by_key(conn, fold(name))
            return None if found is None or found[0].banned else found[0]

        user = await asyncio.to_thread(find)
    if user is None:
        raise WebError(R.NO_PLAYER, name=name[:NAME_MAX])
    reader = await user_of(request)
    own = reader is not None and reader.id == user.id
    return answer(await asyncio.to_thread(puzzles_of(request).profile, user.id, own), request)


ROUTES: list[BaseRoute] = [
    Route("/puzzles", puzzles_page),
    Route("/puzzles/daily", mode_page("daily")),
    Route("/puzzles/streak", mode_page("streak")),
    Route("/puzzles/mine", mode_page("mine")),
    Route("/puzzles/{id}", puzzles_page),
    Route("/api/puzzles/offer", api_offer, methods=["POST"]),
    Route("/api/puzzles/answer", api_answer, methods=["POST"]),
    Route("/api/puzzles/streak", api_streak, methods=["POST"]),
    Route("/api/puzzles/choices", api_choices),
    Route("/api/puzzles/me", api_me),
    Route("/api/puzzles/players/{name}", api_player),
]
