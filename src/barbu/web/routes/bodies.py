"""A request's body, read once: from an allowed origin, JSON, within its size and time, then given its shape.

`decode` is the one way a route reads a body: the Origin checked (another site may not act for a
visitor), the media type, the size (announced, then streamed) and the time it takes to arrive, the
JSON read safely (`barbu.core.safejson`), then converted to the request's `Payload` type
(`barbu.web.routes.payloads`), a field of the wrong shape refused with the words the field has.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any, Callable, TypeVar

import msgspec
from starlette.requests import ClientDisconnect, HTTPConnection, Request

from ...core import safejson
from ..common.errors import Refusal, WebError
from ..common.settings import Settings
from . import refusals as R
from .payloads import Payload
from .services import services

log = logging.getLogger("barbu.web")
P = TypeVar("P", bound=Payload)

_FIELD = re.compile(r"at `\$\.([A-Za-z_][A-Za-z0-9_]*)|missing required field `([A-Za-z_][A-Za-z0-9_]*)`")


def origin_allowed(conn: Any, settings: Settings) -> bool:
    """No Origin header (not a browser) or the server's own origin, scheme included; anything else is cross-origin.

    ``conn`` is the request or WebSocket: its scheme is the one the client used (``https`` behind a
    proxy the operator named, from X-Forwarded-Proto, which uvicorn believes only from such a proxy).
    Given bare headers (an older caller), either web scheme is taken.
    """
    headers = conn.headers if hasattr(conn, "headers") else conn
    origin = headers.get("origin")
    if origin is None:
        return True
    origin = origin.strip().lower()
    if origin in settings.allowed_origins:
        return True
    host = (headers.get("host") or "").strip().lower()
    if not host:
        return False
    scope = getattr(conn, "scope", None)
    if scope is None:
        schemes: tuple[str, ...] = ("http", "https")
    else:
        schemes = ("https",) if scope.get("scheme") in ("https", "wss") else ("http",)
    return any(origin == f"{scheme}://{host}" for scheme in schemes)


def check_origin(conn: HTTPConnection) -> None:
    """Refused (403) when the request comes from another site."""
    if not origin_allowed(conn, services(conn).settings):
        raise WebError(R.CROSS_ORIGIN)


async def read_body(request: Request, limit: int, timeout: float) -> bytes:
    """The request body, refused as soon as it is known to be too large or too slow.

    The announced length is checked first; a body that announces less and sends
    more is cut off while streaming, and one that stalls gets 408, so a client
    cannot make the server hold megabytes or a connection for nothing.
    """
    too_large = WebError(R.TOO_LARGE_BODY, limit=limit)
    announced = request.headers.get("content-length")
    if announced is not None:
        if not announced.isdigit():
            raise WebError(R.BAD_LENGTH)
        if int(announced) > limit:
            raise too_large
    chunks: list[bytes] = []
    size = 0

    async def receive_all() -> None:
        nonlocal size
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise too_large
            chunks.append(chunk)

    try:
        await asyncio.wait_for(receive_all(), timeout)
    except asyncio.TimeoutError:
        raise WebError(R.BODY_TOO_SLOW, seconds=f"{timeout:g}") from None
    except ClientDisconnect:  # nobody is left to answer: one line in the log, never a traceback
        log.info("%s %s: the client left before its body arrived", request.method, request.url.path[:100])
        raise WebError(R.BODY_CUT) from None
    return b"".join(chunks)


async def read_json(request: Request, limit: int | None = None) -> dict[str, Any]:
    """The request's JSON object, from an allowed origin, at most ``limit`` bytes (a message's by default)."""
    settings = services(request).settings
    check_origin(request)
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise WebError(R.NOT_JSON)
    body = await read_body(request, limit or settings.max_message, settings.body_timeout)
    try:
        data = safejson.loads(body)
    except safejson.JsonError as e:  # worded by its code in the reader's language
        raise WebError.wrap(e) from None
    if not isinstance(data, dict):
        raise WebError(R.NOT_AN_OBJECT)
    return data


def misshapen_field(e: msgspec.ValidationError) -> str | None:
    """The top-level field a conversion refused (wrong type, out of bounds, or missing), if it names one."""
    found = _FIELD.search(str(e))
    return None if found is None else found.group(1) or found.group(2)


def misshapen(kind: type[Payload], field: str | None) -> Exception:
    """The refusal of a payload whose ``field`` has the wrong shape: the words `Payload.shapes` gives it."""
    refusal: Refusal
    refusal, fields = kind.shapes.get(field or "", (R.NOT_AN_OBJECT, {}))
    return WebError(refusal, **fields)


def shaped(
    data: dict[str, Any], kind: type[P], refuse: Callable[[type[Payload], str | None], Exception] = misshapen
) -> P:
    """``data`` (a JSON object) as the payload ``kind``; a field of the wrong shape refused by ``refuse``."""
    try:
        return msgspec.convert(data, kind, strict=True)
    except msgspec.ValidationError as e:
        raise refuse(kind, misshapen_field(e)) from None


async def decode(request: Request, kind: type[P], limit: int | None = None) -> P:
    """The request's body as the payload ``kind``: read and checked once (`read_json`), then shaped (`shaped`)."""
    return shaped(await read_json(request, limit), kind)
