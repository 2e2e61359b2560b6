"""The database or the broker out of reach while a request or a WebSocket is being served: a clear answer for
the client (503 with a coded refusal in its language, or a WebSocket closed with 1013 "try again later", after
which the page reconnects), the outage told once in the log (`barbu.web.common.outages`), never a traceback.

Anything else a handler raises is a bug and goes on to uvicorn, which logs it whole."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import orjson
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..common.i18n import page_language
from ..common.outages import outage_of
from ..common.refusals import OUT_OF_REACH
from ..common.wording import say

log = logging.getLogger("barbu.web")

#: The close of a WebSocket whose table cannot be reached for a moment: the page reconnects.
TRY_AGAIN = (1013, "the server cannot reach its storage or its other processes for a moment; reconnecting")


class OutageGuard:
    """ASGI middleware: answers what an outage interrupted, and tells the outage once."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] in ("http.response.start", "websocket.accept", "websocket.close"):
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except asyncio.CancelledError:
            draining = getattr(getattr(scope.get("app"), "state", None), "draining", False)
            if draining is not True:
                raise
            # uvicorn gave the connections of a stopping process their time (`barbu.web.server.DRAIN_BOUND`) and
            # cancels what is left: the page reconnects to another process, nothing to trace
            log.info("stopping: a %s still open at the end of the drain was cut off", scope["type"])
        except Exception as exc:
            outage = outage_of(exc)
            if outage is None:
                raise
            outage.failed(exc)
            with contextlib.suppress(Exception):  # the client may be gone already
                await self._answer(scope, send, started)

    @staticmethod
    async def _answer(scope: Scope, send: Send, started: bool) -> None:
        if scope["type"] == "websocket":
            if not started:
                await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": TRY_AGAIN[0], "reason": TRY_AGAIN[1]})
            return
        if started:  # a response half sent cannot be taken back: it ends here
            return
        body = orjson.dumps({"error": say(_language(scope), OUT_OF_REACH.template), "code": OUT_OF_REACH.code})
        await send(
            {
                "type": "http.response.start",
                "status": 503,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"retry-after", b"5"),
                    (b"cache-control", b"no-store"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _language(scope: Scope) -> str:
    conn = HTTPConnection(scope)
    settings: Any = getattr(getattr(scope.get("app"), "state", None), "settings", None)
    if settings is None:
        return "en"
    return page_language(conn, settings)
