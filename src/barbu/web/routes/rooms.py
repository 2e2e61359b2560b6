"""The chat rooms of clubs and events (`barbu.web.clubs.chat`): one WebSocket, ``/ws/room/{kind}/{address}``
(``club`` and the club's slug, ``event`` and the event's number), opened by the club's or event's page.

The page is sent ``{"type": "room_log", …}`` (the room's last messages and pinned notices; what the reader may
post) once it is in, then each message said (``{"type": "chat", …}`` as at a table, ``"notice": true`` for a
director's notice), and the log again after a moderator's removal.  It sends ``{"type": "chat", "id": …,
"phrase": …}`` or ``"text"`` (``"notice": true``: a director's notice) and is answered ``{"type": "ack", "id",
"seq"}`` or ``{"type": "error", "code": "refused", "reason", "message", "id"}``.  Anyone not in the room (logged
out, a stranger, no such room) is told why in words, with its code, and the socket is closed (4401, 4403).  The
origin, the per-address count of WebSockets and the flood limit are the table's.  A block keeps the accounts it
parts out of each other's messages here (read at the connection, and again every `APART_FRESH` seconds).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ...core import safejson
from ..clubs import refusals as rno
from ..clubs.chat import REFRESH, Room, RoomChat
from ..common.errors import WebError
from ..common.i18n import page_language
from ..common.wording import word
from ..tables import refusals as tno
from ..tables.actor import dumps
from ..tables.chat import good_id, refused_json
from ..tables.sockets import client_address
from .bodies import origin_allowed
from .events import read_until_closed
from .helpers import user_of
from .services import services
from .tables import too_many_connections

log = logging.getLogger("barbu.web")

MESSAGE_MAX = 4096  # bytes of one message from the page
APART_FRESH = 30.0  # seconds a page's blocks are trusted before they are read again


async def ws_room(websocket: WebSocket) -> None:
    """A club's or event's chat room, live (see the module's docstring)."""
    s = services(websocket)
    if not origin_allowed(websocket, s.settings):
        await websocket.close(code=1008)  # before accept: the handshake is refused (HTTP 403)
        return
    address, lang = client_address(websocket), page_language(websocket, s.settings)
    if not await s.lobby.connect(address):
        await too_many_connections(websocket, lang)
        return
    try:
        user = await user_of(websocket)
        try:
            room, role = await s.rooms.enter(websocket.path_params["kind"], websocket.path_params["address"], user)
        except WebError as e:
            await websocket.accept()
            await websocket.send_text(dumps({"type": "error", "code": e.code, "message": word(e, lang)}))
            await websocket.close(4401 if e.code == rno.ROOM_LOG_IN.code else 4403)
            return
        assert user is not None
        box = s.rooms.watch(room)
        try:
            await websocket.accept()
            apart, read_at = await s.rooms.kept_apart(user.id), time.monotonic()
            await websocket.send_text(dumps(await s.rooms.log(room, user, role, apart)))
            handle = answering(websocket, s.rooms, room, user, lang)
            reader = asyncio.ensure_future(read_until_closed(websocket, box.put, handle))
            try:
                while (note := await box.get()) is not None:
                    author, text = note
                    if text == REFRESH or time.monotonic() - read_at > APART_FRESH:  # a block made meanwhile
                        apart, read_at = await s.rooms.kept_apart(user.id), time.monotonic()
                    if text == REFRESH:
                        text = dumps(await s.rooms.log(room, user, role, apart))
                    elif author in apart:
                        continue
                    await websocket.send_text(text)
            finally:
                reader.cancel()
            code = 1008 if reader.done() and not reader.cancelled() and reader.result() else 1001
            with contextlib.suppress(Exception):  # already closed by the page: nothing to say
                await websocket.close(code)
        finally:
            s.rooms.unwatch(room, box)
    except (WebSocketDisconnect, RuntimeError):  # it went away while being written to
        return
    except Exception as e:  # the database away a moment: one line, and the page connects again
        log.warning("rooms: a page of a room was closed (%s)", e)
        with contextlib.suppress(Exception):
            await websocket.close(1011)
    finally:
        await s.lobby.disconnect(address)


def answering(websocket: WebSocket, rooms: RoomChat, room: Room, user: Any, lang: str) -> Any:
    """What answers each message of the page: stored and acknowledged, or refused in words."""

    async def handle(message: Any) -> None:
        raw = message.get("text") or message.get("bytes") or ""
        try:
            msg = safejson.loads(raw) if len(raw) <= MESSAGE_MAX else None
        except safejson.JsonError:
            msg = None
        if not isinstance(msg, dict) or msg.get("type") != "chat" or not good_id(msg.get("id")):
            await websocket.send_text(dumps(refused_json(WebError(tno.CHAT_SAY_WHAT), lang, None)))
            return
        cid = msg.get("id")
        try:
            m = await rooms.say(room, user, msg)
        except WebError as e:
            await websocket.send_text(dumps(refused_json(e, lang, cid)))
            return
        await websocket.send_text(dumps({"type": "ack", "id": cid, "seq": m.id, "chat": True}))

    return handle


ROUTES: list[BaseRoute] = [WebSocketRoute("/ws/room/{kind}/{address}", ws_room)]
