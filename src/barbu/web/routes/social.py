"""Friends, blocks, presence, the live tables and the account channel (the rules are in `barbu.web.social`).

Pages: ``/friends`` (whom I follow with their presence, a follow box, my followers counted, my blocks) and
``/live`` (the live tables to watch).

API, every POST checking the Origin (`bodies.read_json`) and a logged-in account:

- ``GET /api/friends``: {following: [{name, profile, since, state, watch}], followers, blocked: [{name, …}],
  hidden}; ``POST /api/friends/follow`` and ``…/unfollow`` {name}; ``POST /api/blocks/block`` and ``…/unblock``
  {name}; ``POST /api/presence`` {hidden}.
- ``GET /api/players/{name}/social``: his followers counted, whether I follow or blocked him, his live tables.
- ``GET /api/live``: {top, friends, clubs} (`barbu.web.social.watching`).

WebSocket ``/ws/me``: the account channel (docs/server.md, "The account channel"), one per open page of a
logged-in account; a guest's is closed at once (4401).
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ...core import safejson
from ..accounts.store import User
from ..clubs import store as clubs
from ..common.i18n import page_language
from ..live.hub import Page
from ..social import watching
from ..tables.core import dumps
from ..tables.sockets import RateLimit, WsConn
from . import payloads as p
from .bodies import origin_allowed
from .clubs import visible_rows
from .helpers import action, answer, page, required, user_of
from .services import services

AWAY_MESSAGES = ("away", "here")


# -- pages
async def friends_page(request: Request) -> Response:
    return page(request, "friends.html")


async def live_page(request: Request) -> Response:
    return page(request, "live.html")


# -- friends and blocks
async def friends_data(request: Request) -> Response:
    """My follows with their presence (one read of each: the pages' states, the database), followers, blocks."""
    user = await required(request)
    s = services(request)
    following = await s.social.following(user.id)
    presence = await s.presence.of([f.id for f in following], user.id)
    counts = await s.social.counts(user.id)
    blocked = await s.social.blocked(user.id)
    return answer(
        {
            "following": [f.json() | {k: presence[f.id][k] for k in ("state", "watch")} for f in following],
            "followers": counts["followers"],
            "blocked": [b.json() for b in blocked],
            "hidden": await s.social.hidden(user.id),
        }
    )


@action(p.PlayerName)
async def follow(request: Request, body: p.PlayerName, user: User) -> dict[str, Any]:
    return {"name": await services(request).social.follow(user.id, body.name)}


@action(p.PlayerName)
async def unfollow(request: Request, body: p.PlayerName, user: User) -> dict[str, Any]:
    return {"name": await services(request).social.unfollow(user.id, body.name)}


@action(p.PlayerName)
async def block(request: Request, body: p.PlayerName, user: User) -> dict[str, Any]:
    return {"name": await services(request).social.block(user.id, body.name)}


@action(p.PlayerName)
async def unblock(request: Request, body: p.PlayerName, user: User) -> dict[str, Any]:
    return {"name": await services(request).social.unblock(user.id, body.name)}


@action(p.PresenceSetting)
async def presence_setting(request: Request, body: p.PresenceSetting, user: User) -> dict[str, Any]:
    s = services(request)
    await s.social.set_hidden(user.id, body.hidden)
    s.presence.changed(user.id)  # his followers see him offline (or back)
    return {"hidden": body.hidden}


async def player_social(request: Request) -> Response:
    """A profile's social side: followers counted, my follow and block of him, and his live tables to watch."""
    name = request.path_params["name"]
    viewer = await user_of(request)
    s = services(request)
    found = await s.social.standing(viewer.id if viewer else None, name)
    rows = await visible_rows(request, s.lobby.listing())
    found["tables"] = watching.tables_of(rows, name)
    return answer(found)


async def live_data(request: Request) -> Response:
    """The live tables: the highest rated first, then my friends' and my clubs' (for a logged-in reader)."""
    s = services(request)
    rows = await visible_rows(request, s.lobby.listing())
    viewer = await user_of(request)
    friends: set[str] = set()
    mine: set[int] = set()
    if viewer is not None:
        friends = {f.name.casefold() for f in await s.social.following(viewer.id)}
        wanted = sorted({r["club_id"] for r in rows if isinstance(r.get("club_id"), int)})
        store = s.lobby.store
        if wanted and store is not None:

            def read() -> set[int]:
                with store.engine.connect() as conn:
                    return clubs.memberships(conn, viewer.id, wanted)

            mine = await asyncio.to_thread(read)
    return answer(watching.live_tables(rows, friends, mine) | {"logged_in": viewer is not None})


# -- the account channel
async def ws_me(websocket: WebSocket) -> None:
    """One open page of a logged-in account: told what is meant for the account (presence, notices…), and telling
    whether the page is away.  Messages in: ``{"type": "away"}``, ``{"type": "here"}``, ``{"type": "ping"}``."""
    s = services(websocket)
    settings = s.settings
    if not origin_allowed(websocket, settings):
        await websocket.close(code=1008)  # before accept: the handshake is refused (HTTP 403)
        return
    user = await user_of(websocket)
    await websocket.accept()
    if user is None:
        await websocket.close(4401, "log in to open the account channel")
        return
    conn = WsConn(websocket, page_language(websocket, settings), user.id)
    me = Page(conn, user.id)
    conn.send(dumps({"type": "welcome", "heartbeat": settings.heartbeat, "name": user.name}))
    conn.heartbeat(settings.heartbeat)
    s.live.open(me)
    limit = RateLimit(10, 1.0)  # a page says "away" or "here" now and then; a flood is cut off
    try:
        while True:
            try:
                message = await websocket.receive()
            except (WebSocketDisconnect, RuntimeError):
                return
            if message["type"] == "websocket.disconnect" or conn.closing:
                return
            if not limit.allow():
                conn.close(1008, "too many messages")
                return
            kind = _kind(message.get("text"))
            if kind in AWAY_MESSAGES:
                s.live.set_away(me, kind == "away")
            elif kind == "ping":
                conn.send('{"type":"pong"}')
    finally:
        s.live.close_page(me)
        await conn.finish()


def _kind(text: Any) -> str | None:
    """A page's message's type (anything else is ignored: the channel carries nothing a page must send)."""
    if not isinstance(text, str) or len(text) > 200:
        return None
    try:
        msg = safejson.loads(text)
    except safejson.JsonError:
        return None
    kind = msg.get("type") if isinstance(msg, dict) else None
    return kind if isinstance(kind, str) else None


ROUTES: list[BaseRoute] = [
    Route("/friends", friends_page),
    Route("/live", live_page),
    Route("/api/friends", friends_data),
    Route("/api/friends/follow", follow, methods=["POST"]),
    Route("/api/friends/unfollow", unfollow, methods=["POST"]),
    Route("/api/blocks/block", block, methods=["POST"]),
    Route("/api/blocks/unblock", unblock, methods=["POST"]),
    Route("/api/presence", presence_setting, methods=["POST"]),
    Route("/api/players/{name}/social", player_social),
    Route("/api/live", live_data),
    WebSocketRoute("/ws/me", ws_me),
]
