"""The daily deals' pages and API.

Pages: ``GET /daily`` (today's games, past days and their keys), ``GET /daily/{game}`` (the start, then the
results), ``GET /daily/{game}/play`` (the boards, on the game's own table: the Barbu table's or the Bésigue
table's).  API: ``GET /api/daily[?day=]`` (the overview), ``POST /api/daily/{game}/start`` (begin or carry on),
``GET /api/daily/{game}/state``, ``POST /api/daily/{game}/move`` {board, move}, ``GET /api/daily/{game}/results
[?day=]`` (only once the set is finished, or the day over), ``GET /api/daily/{game}/boards/{k}/record[?day=]``
(one's own board's record, once one's set is finished: a download named for the game, the day and the deal) and ``GET /api/daily/{game}/boards/{k}/replay[?day=]`` (its replay's link, which opens
to the finisher alone until the day is over: `barbu.web.routes.replay`).  A guest is known by the ``barbu_daily``
cookie (random, signed by the server, HttpOnly), set by the first start; a cookie the server did not sign is no
guest; an account by its session.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from ...duplicate.daily import GAMES
from ..common.errors import WebError
from ..daily.service import COOKIE, Person, account, guest
from ..tables.sockets import client_address
from . import payloads as p
from . import refusals as R
from .bodies import decode
from .helpers import NO_STORE, not_found, page, user_of
from .services import services

DAILY_GUESTS_PER_HOUR = 30  # new guest identities one address may begin the daily deals with in an hour


async def person(request: Request, make: bool = False) -> tuple[Person, str | None]:
    """The account logged in, else the guest browser of a cookie this server signed (a new cookie when ``make``:
    returned to be set; a made-up or tampered one counts as none).  With the HMAC of the address asked from."""
    s = services(request)
    address = s.lobby.creations.address_hash(client_address(request))
    user = await user_of(request)
    if user is not None:
        return account(user.id, user.name, user.created_at, address), None
    token = await guest_token(request)
    if token is not None:
        return guest(token, address), None
    cookie, fresh = await asyncio.to_thread(s.daily.new_guest_cookie)
    return guest(fresh, address), cookie if make else None  # not made: a stranger, nothing of his is stored


async def guest_token(request: Request) -> str | None:
    """The random part of this browser's guest cookie, if the server signed it."""
    return await asyncio.to_thread(services(request).daily.guest_token, request.cookies.get(COOKIE))


def answer(body: Any, request: Request, cookie: str | None = None, status: int = 200) -> Response:
    r = JSONResponse(body, status_code=status, headers=NO_STORE)
    if cookie is not None:
        r.set_cookie(
            COOKIE, cookie, max_age=400 * 86400, httponly=True, samesite="lax", secure=request.url.scheme == "https"
        )
    return r


def game_of(request: Request) -> str:
    found: str = request.path_params["game"]
    return found


async def daily_page(request: Request) -> Response:
    return page(request, "daily.html")


async def daily_game_page(request: Request) -> Response:
    if game_of(request) not in GAMES:
        return not_found(request)
    return page(request, "daily_play.html")


async def daily_table(request: Request) -> Response:
    """The boards are played on the game's own table (static/js/daily_link.js feeding table.js or besigue.js)."""
    game = game_of(request)
    if game not in GAMES:
        return not_found(request)
    return page(request, "daily_besigue.html" if game == "besigue" else "daily_table.html")


async def api_overview(request: Request) -> Response:
    daily = services(request).daily
    someone, _ = await person(request)
    day = await asyncio.to_thread(daily.check_day, request.query_params.get("day"))
    return answer(await asyncio.to_thread(daily.overview, someone, day), request)


async def api_start(request: Request) -> Response:
    """Begin (or carry on) the day's set; a new guest counted against his address (a script cannot fill the
    database with attempts)."""
    s = services(request)
    await decode(request, p.Empty)
    someone, cookie = await person(request, make=True)
    if cookie is not None:
        wait = await s.lobby.creations.take(client_address(request), "daily_guest", DAILY_GUESTS_PER_HOUR)
        if wait:
            raise WebError(R.TOO_MANY_GUESTS, n=wait)
    token = await guest_token(request) if someone.user_id is not None else None
    was = guest(token) if token is not None else None
    return answer(await asyncio.to_thread(s.daily.start, someone, game_of(request), was), request, cookie)


async def api_state(request: Request) -> Response:
    someone, _ = await person(request)
    return answer(await asyncio.to_thread(services(request).daily.state, someone, game_of(request)), request)


async def api_move(request: Request) -> Response:
    body = await decode(request, p.DailyMove)
    someone, _ = await person(request)
    return answer(
        await asyncio.to_thread(services(request).daily.act, someone, game_of(request), body.board, body.move), request
    )


async def api_results(request: Request) -> Response:
    daily = services(request).daily
    someone, _ = await person(request)
    day = await asyncio.to_thread(daily.check_day, request.query_params.get("day"))
    return answer(await asyncio.to_thread(daily.results, someone, game_of(request), day), request)


async def api_record(request: Request) -> Response:
    daily = services(request).daily
    someone, _ = await person(request)
    day = await asyncio.to_thread(daily.check_day, request.query_params.get("day"))
    try:
        board = int(request.path_params["board"])
    except ValueError:
        raise WebError(R.NO_BOARD) from None
    text = await asyncio.to_thread(daily.record, someone, game_of(request), board, day)
    # a download (the results page's link): the file `barbu replay` reads, named for the game, the day and the deal
    name = f"barbu-daily-{game_of(request)}-{day}-deal-{board + 1}.jsonl"  # both checked by `record`
    return PlainTextResponse(
        text,
        headers={
            **NO_STORE,
            "content-type": "application/jsonl; charset=utf-8",
            "content-disposition": f'attachment; filename="{name}"',
        },
    )


async def api_replay_link(request: Request) -> Response:
    """The replay of one of one's own finished boards: its link (`Daily.replay_id`)."""
    daily = services(request).daily
    someone, _ = await person(request)
    day = await asyncio.to_thread(daily.check_day, request.query_params.get("day"))
    try:
        board = int(request.path_params["board"])
    except ValueError:
        raise WebError(R.NO_BOARD) from None
    rid = await asyncio.to_thread(daily.replay_id, someone, game_of(request), board, day)
    return answer({"id": rid, "url": f"/replay/{rid}"}, request)


ROUTES: list[BaseRoute] = [
    Route("/daily", daily_page),
    Route("/daily/{game}/play", daily_table),
    Route("/daily/{game}", daily_game_page),
    Route("/api/daily", api_overview),
    Route("/api/daily/{game}/start", api_start, methods=["POST"]),
    Route("/api/daily/{game}/state", api_state),
    Route("/api/daily/{game}/move", api_move, methods=["POST"]),
    Route("/api/daily/{game}/results", api_results),
    Route("/api/daily/{game}/boards/{board}/record", api_record),
    Route("/api/daily/{game}/boards/{board}/replay", api_replay_link),
]
