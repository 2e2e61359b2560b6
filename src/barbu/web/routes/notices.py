"""The notifications' page and API (the rules are in `barbu.web.notices.service`).

Page: ``/notifications``, the logged-in player's notices, newest first (a guest is asked to log in).

API, every one for the logged-in account (a guest 401), every POST and DELETE checking the Origin:

- ``GET /api/notices``: his notices (kind, params, link, when, read) and the unread count;
  ``GET /api/notices/unread``: the count alone (a guest: 0); ``POST /api/notices/read`` {id | null}.
- ``GET /api/notices/settings``: each kind's push and e-mail switches, his devices, whether e-mail can be
  chosen; ``POST /api/notices/settings`` {kind, push, mail}.
- ``GET /api/push/key``: the server's VAPID public key (the browser's applicationServerKey; no log-in needed);
  ``POST /api/push/subscribe`` {endpoint, keys: {p256dh, auth}} (this device), ``DELETE`` {endpoint};
  ``POST /api/push/test``: a test notification to each of his devices.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..accounts.store import User
from ..common.errors import WebError
from ..notices import refusals as no
from . import payloads as p
from .bodies import read_json, shaped
from .helpers import action, answer, page, required, user_of
from .services import services


async def notices_page(request: Request) -> Response:
    return page(request, "notifications.html")


async def listing(request: Request) -> Response:
    return answer(await services(request).notices.listing(await required(request)))


async def unread(request: Request) -> Response:
    user = await user_of(request)
    return answer({"unread": 0 if user is None else await services(request).notices.unread(user)})


@action(p.NoticeRead)
async def read(request: Request, body: p.NoticeRead, user: User) -> dict[str, Any]:
    return {"ok": True, "unread": await services(request).notices.read(user, body.id)}


async def settings(request: Request) -> Response:
    return answer(await services(request).notices.settings_of(await required(request)))


@action(p.NoticeSwitch)
async def switch(request: Request, body: p.NoticeSwitch, user: User) -> dict[str, Any]:
    kind = body.kind if isinstance(body.kind, str) else repr(body.kind)[:24]
    return await services(request).notices.set_switch(user, kind, body.push, body.mail)


async def key(request: Request) -> Response:
    return answer({"key": await services(request).notices.public_key()})


def _key_field(keys: Any, name: str, size: int) -> str:
    """A subscription's key as the browser gives it (base64url), checked to decode to ``size`` bytes."""
    value = keys.get(name) if isinstance(keys, dict) else None
    if not isinstance(value, str) or len(value) > 200:
        raise WebError(no.BAD_SUBSCRIPTION, why=f"keys.{name}")
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise WebError(no.BAD_SUBSCRIPTION, why=f"keys.{name}") from None
    if len(raw) != size:
        raise WebError(no.BAD_SUBSCRIPTION, why=f"keys.{name}")
    return value


def _endpoint(body: p.PushSubscription) -> str:
    if not isinstance(body.endpoint, str) or not 10 <= len(body.endpoint) <= 1000:
        raise WebError(no.BAD_SUBSCRIPTION, why="endpoint")
    return body.endpoint


async def subscription(request: Request) -> Response:
    """POST: this device's subscription kept; DELETE: forgotten."""
    data = await read_json(request)
    user = await required(request)
    body = shaped(data, p.PushSubscription)
    s = services(request).notices
    endpoint = _endpoint(body)
    if request.method == "DELETE":
        return answer({"ok": True, "removed": await s.unsubscribe(user, endpoint)})
    p256dh, auth = _key_field(body.keys, "p256dh", 65), _key_field(body.keys, "auth", 16)
    found = await s.subscribe(user, endpoint, p256dh, auth, request.headers.get("user-agent", ""))
    return answer({"ok": True} | found, 201)


@action(p.Empty)
async def test(request: Request, body: p.Empty, user: User) -> dict[str, Any]:
    return {"ok": True, "sent": await services(request).notices.test(user)}


ROUTES: list[BaseRoute] = [
    Route("/notifications", notices_page),
    Route("/api/notices", listing),
    Route("/api/notices/unread", unread),
    Route("/api/notices/read", read, methods=["POST"]),
    Route("/api/notices/settings", settings, methods=["GET"]),
    Route("/api/notices/settings", switch, methods=["POST"]),
    Route("/api/push/key", key),
    Route("/api/push/subscribe", subscription, methods=["POST", "DELETE"]),
    Route("/api/push/test", test, methods=["POST"]),
]
