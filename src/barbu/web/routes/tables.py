"""The tables' routes: the table page, the lobby's JSON API and the tables' WebSocket.

HTTP: ``GET /t/{id}`` (table page; the id is the invitation link), ``GET /api/options``,
``GET/POST /api/tables``, ``GET /api/tables/{id}``, ``POST /api/tables/{id}/seats`` (returns the seat's
credential, once, in the response body; a private table's invitation secret rides in the body too,
never in a URL), ``POST /api/tables/{id}/bots`` and ``POST /api/tables/{id}/remove`` (the creator frees a
seat before the start), ``POST /api/play`` (one click: a table of computer players), the record at
``GET /api/tables/{id}/record``; where its WebSocket should go, ``GET /api/tables/{id}/route``.  The lobby's "My tables": ``POST /api/tables/mine`` (the tables a
browser's credentials open), ``POST /api/tables/{id}/leave`` and ``POST /api/tables/{id}/end``.

WebSocket ``/ws/{id}``: the first message is ``{"type": "hello", "token": …, "since": …}`` (no token: a
spectator); then ``act``, ``sync``, ``ping``, ``leave``, ``rematch`` and ``back`` (after the clock ran
out, see `clock`).  Credentials never travel in URLs.  Cross-origin handshakes are refused, messages are
limited in size, a flooding client is cut off, and malformed or unknown messages get an error reply and
change nothing.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket

from ...i18n import translator
from ..clubs.store import Club, club_by_id
from ..cluster.node import route_of
from ..common.errors import WebError
from ..common.i18n import page_language
from ..common.wording import say
from ..db.leases import Lease
from ..db.storage import Store
from ..tables.actor import Table, dumps, requested_clock
from ..tables.chat import replay_chat
from ..tables.clock import DEFAULT as DEFAULT_CLOCK
from ..tables.lobby import invitation, options_catalogue, parse_rules
from ..tables.mine import MINE_BODY
from ..tables.ops import NO_STORE, operate
from ..tables.sockets import WsConn, client_address, serve_connection
from . import payloads as p
from . import refusals as R
from .bodies import decode, origin_allowed
from .clubs import club_hides, visible_rows
from .helpers import not_found, page, user_of
from .services import services


def club_of_table(store: Store | None, club_id: int) -> Club | None:
    """The club a table belongs to, for the link in its header (None once the club is deleted)."""
    assert store is not None
    with store.engine.connect() as conn:
        club = club_by_id(conn, club_id)
    return None if club is None or club.deleted else club


async def find(request: Request) -> Table:
    """The table the path names, unless it is hidden from the reader (a private club's)."""
    t = await services(request).lobby.get(request.path_params["table_id"])
    if t is None or await club_hides(request, t.id, t):
        raise WebError(R.NO_TABLE)
    return t


async def withheld(request: Request, table_id: str) -> None:
    """A duplicate event's finished table while its round is played elsewhere: its record and replay hold
    the hands of boards other tables have not finished, so they wait for the round's end."""
    if await services(request).events.replay_withheld(table_id):
        raise WebError(R.WITHHELD)


async def table_page(request: Request) -> Response:
    lobby = services(request).lobby
    t = await lobby.get(request.path_params["table_id"])
    if t is None or await club_hides(request, t.id, t):  # a private club's, to an outsider: as if not there
        return not_found(request)
    club = await asyncio.to_thread(club_of_table, lobby.store, t.club_id) if t.club_id else None
    return page(request, "besigue.html" if t.web.name == "besigue" else "table.html", club=club)


async def api_options(request: Request) -> Response:
    settings = services(request).settings
    words = translator(page_language(request, settings))
    return JSONResponse(
        {"presets": options_catalogue(words), "strengths": settings.strengths(), "default_strength": settings.stand_in},
        headers={"vary": "cookie, accept-language"},
    )


async def rated_by_account(request: Request, rated: bool) -> bool:
    """Whether a new table is to be rated: asked for, by someone logged in."""
    if rated and await user_of(request) is None:
        raise WebError(R.RATED_LOG_IN)
    return rated


async def api_tables(request: Request) -> Response:
    """GET: the lobby's tables (less those hidden from the reader); POST: a new table."""
    lobby = services(request).lobby
    if request.method == "GET":
        return JSONResponse({"tables": await visible_rows(request, lobby.listing())})
    body = await decode(request, p.NewTable)
    rules = parse_rules(body.rules, body.players, body.short)
    invite, invite_hash = invitation(body.private)
    rated = await rated_by_account(request, body.rated)
    if body.turn_based:
        clock = requested_clock(None if body.clock is p.UNSET else body.clock, turn_based=True)
    else:
        clock = requested_clock(DEFAULT_CLOCK if body.clock is p.UNSET else body.clock)
    t, creator = await lobby.create(
        rules,
        address=client_address(request),
        bots_by=body.bots_by,
        invite_hash=invite_hash,
        clock=clock,
        rated=rated,
        turn_based=body.turn_based,
    )
    # The creator's credential lets him seat computer players and remove players; a private table's
    # invitation travels after the link's "#", so it never reaches a server's log.  Both given out only once.
    out = {"id": t.id, "url": f"/t/{t.id}", "creator": creator, "table": t.info()}
    if invite is not None:
        out |= {"invite": invite, "invite_url": f"/t/{t.id}#invite={invite}"}
    return JSONResponse(out, status_code=201, headers={"cache-control": "no-store"})


async def api_play(request: Request) -> Response:
    """One click: a new table, the caller in seat 0, computer players of the strength he chose in the others
    (the middling one unless he chose: the strongest crushed beginners)."""
    settings, lobby = services(request).settings, services(request).lobby
    body = await decode(request, p.Play)
    strength = settings.stand_in if body.strength is p.UNSET else body.strength
    if strength not in settings.strengths():
        raise WebError(
            R.UNKNOWN_STRENGTH,
            strength=str(strength)[:40] if isinstance(strength, str) else "?",
            strengths=", ".join(settings.strengths()),
        )
    rules = parse_rules(body.rules or "classic", body.players, body.short)
    name = body.name or "Player"
    address = client_address(request)
    rated = await rated_by_account(request, body.rated)
    user = await user_of(request)
    t, creator = await lobby.create(
        rules,
        address=address,
        reserved=True,  # a share of the limit is its own
        rated=rated,
    )
    lobby.check_bots(t, address)
    token = await t.call(t.take_seat, 0, name, None, address, creator, (user.id, user.name) if user else None)
    for seat in range(1, t.match.n):
        await t.call(t.add_bot, seat, strength, creator, address)
    lobby.show_ratings(t)
    return JSONResponse(
        {"id": t.id, "url": f"/t/{t.id}", "seat": 0, "token": token, "creator": creator, "table": t.info()},
        status_code=201,
        headers={"cache-control": "no-store"},
    )


async def on_table(request: Request, op: str, data: dict[str, Any]) -> Response:
    """A request about one table, run by the process that owns it (`tables.ops`): here, or relayed to
    another process of a many-process server, which answers it the same way.  ``data``: the request's
    body, as the owner reads it."""
    settings, lobby = services(request).settings, services(request).lobby
    if request.method == "POST":  # only this server says who is logged in
        user = await user_of(request)
        if user is not None:
            data["_user"] = [user.id, user.name]
    table_id, address = request.path_params["table_id"], client_address(request)
    lang = page_language(request, settings)
    found = await lobby.locate(table_id)
    if found is None or await club_hides(request, table_id, found):
        raise WebError(R.NO_TABLE)
    if isinstance(found, Lease):
        cluster = services(request).cluster
        assert cluster is not None
        answer = await cluster.request(found.owner, table_id, op, data, address, lang)
        if answer is None:
            raise WebError(R.OWNER_SILENT)
        status, body = answer
    else:
        status, body = await operate(lobby, found, op, data, address, lang)
    return JSONResponse(body, status_code=status, headers=NO_STORE if op != "info" else None)


async def api_route(request: Request) -> Response:
    """The route of the process that plays a table (``barbu serve --route``; null with one process alone): the page
    opens the table's WebSocket with it (``/ws/{id}?route=…``) and nginx sends the socket to that process
    (deploy/nginx-barbu.conf), so its frames are not relayed.  An unowned table is claimed here, as by a socket."""
    table_id = request.path_params["table_id"]
    found = await services(request).lobby.locate(table_id)
    if found is None or await club_hides(request, table_id, found):
        raise WebError(R.NO_TABLE)
    cluster = services(request).cluster
    route = None if cluster is None else route_of(found.owner) if isinstance(found, Lease) else cluster.route
    return JSONResponse({"route": route}, headers=NO_STORE)


async def api_table(request: Request) -> Response:
    return await on_table(request, "info", {})


async def api_seat(request: Request) -> Response:
    return await on_table(request, "seat", (await decode(request, p.Seat)).given())


async def api_remove(request: Request) -> Response:
    """Before the match starts, the table's creator frees a seat: {"seat": n, "token": creator}."""
    return await on_table(request, "remove", (await decode(request, p.Remove)).given())


async def api_bot(request: Request) -> Response:
    return await on_table(request, "bot", (await decode(request, p.Bot)).given())


async def api_leave(request: Request) -> Response:
    """A player leaves a table with other people for good: {"token": seat, "creator": creator}."""
    return await on_table(request, "leave", (await decode(request, p.Leave)).given())


async def api_end(request: Request) -> Response:
    """The only person at a table of computer players ends it: {"token": seat, "creator": creator}."""
    return await on_table(request, "end", (await decode(request, p.Leave)).given())


async def api_chat(request: Request) -> Response:
    """A table's chat for its replay, to those who were there: {"token": seat} (a seat's credential), or the
    session's account seated there or that watched it logged in (`barbu.web.tables.chat.replay_chat`)."""
    body = (await decode(request, p.Leave)).given()
    user = await user_of(request)
    lobby = services(request).lobby
    if lobby.store is None:
        raise WebError(R.NO_TABLE)
    said = await asyncio.to_thread(
        replay_chat, lobby.store, request.path_params["table_id"], body.get("token"), user.id if user else None
    )
    return JSONResponse({"messages": said}, headers=NO_STORE)


async def api_mine(request: Request) -> Response:
    """ "My tables": {"tables": [{"id", "token", "creator"}, …]} → each as the lobby lists it, or gone."""
    body = await decode(request, p.Mine, MINE_BODY)
    user = await user_of(request)
    return JSONResponse(
        {"tables": await services(request).lobby.mine(body.given(), user.id if user else None)},
        headers={"cache-control": "no-store"},
    )


async def api_record(request: Request) -> Response:
    t = await find(request)
    await withheld(request, t.id)
    lines = t.record_lines()
    body = "".join(dumps(line) + "\n" for line in lines)
    return Response(
        body,
        media_type="application/x-ndjson",
        headers={"content-disposition": f'attachment; filename="barbu-{t.id}.jsonl"'},
    )


async def too_many_connections(websocket: WebSocket, lang: str) -> None:
    """A WebSocket over its address's limit: accepted only to be told why, then closed."""
    await websocket.accept()
    await websocket.send_text(
        dumps(
            {
                "type": "error",
                "code": "too_many_connections",
                "message": say(
                    lang, R.TOO_MANY_CONNECTIONS.template, n=services(websocket).settings.connections_per_address
                ),
            }
        )
    )
    await websocket.close(1008)


async def ws_table(websocket: WebSocket) -> None:
    settings, lobby = services(websocket).settings, services(websocket).lobby
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
        user_id = user.id if user is not None else None
        table = await lobby.locate(websocket.path_params["table_id"])
        await websocket.accept()
        if table is None or await club_hides(websocket, websocket.path_params["table_id"], table):
            await websocket.send_text(
                dumps({"type": "error", "code": "no_table", "message": say(lang, R.NO_TABLE.template)})
            )
            await websocket.close(4404)
            return
        if isinstance(table, Lease):  # another process plays it: carry the frames there and back
            cluster = services(websocket).cluster
            assert cluster is not None
            await cluster.relay(websocket, table, lang, address, user_id)
            return
        conn = WsConn(websocket, lang, user_id)
        try:
            await serve_connection(websocket, conn, table, settings)
        finally:
            table.tell(table.disconnect, conn)
            await conn.finish()
    finally:
        await lobby.disconnect(address)


ROUTES: list[BaseRoute] = [
    Route("/t/{table_id}", table_page),
    Route("/api/options", api_options),
    Route("/api/tables", api_tables, methods=["GET", "POST"]),
    Route("/api/tables/mine", api_mine, methods=["POST"]),
    Route("/api/tables/{table_id}", api_table),
    Route("/api/tables/{table_id}/seats", api_seat, methods=["POST"]),
    Route("/api/tables/{table_id}/bots", api_bot, methods=["POST"]),
    Route("/api/tables/{table_id}/remove", api_remove, methods=["POST"]),
    Route("/api/tables/{table_id}/leave", api_leave, methods=["POST"]),
    Route("/api/tables/{table_id}/end", api_end, methods=["POST"]),
    Route("/api/tables/{table_id}/record", api_record),
    Route("/api/tables/{table_id}/chat", api_chat, methods=["POST"]),
    Route("/api/tables/{table_id}/route", api_route),
    Route("/api/play", api_play, methods=["POST"]),
    WebSocketRoute("/ws/{table_id}", ws_table),
]
