"""The moderation's page and API (the rules are in `barbu.web.moderation.service`).

Page: ``/moderation``, the moderators' desk (to anyone else the page of something that is not there, 404).

API, every POST checking the Origin (`bodies.read_json`) and a logged-in account:

- ``POST /api/reports`` {kind, target, reason, text?}: a player's report of a player (his name), a club (its
  slug) or an event (its number); 201 when new, 200 when it is his open report of the same target again.
- ``GET /api/moderation``: the desk's data (moderators only, else 403; a guest 401): the open reports grouped by
  target, the log, the reasons' words, and the day's several finishers of a daily from one address.
- ``POST /api/moderation/act`` {action, kind, target, reason, hours?}; ``POST /api/moderation/undo`` {entry,
  reason} (moderators only).
- ``GET /api/moderation/me``: what a player's pages tell him (his unread warnings, his mute, whether he is a
  moderator); a guest is told nothing.  ``POST /api/moderation/me/read`` {warning}: he has read it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...i18n import translator
from ..accounts.store import User
from ..common.i18n import page_language
from ..moderation.service import REASONS
from . import payloads as p
from .bodies import read_json, shaped
from .helpers import action, answer, not_found, page, required, user_of
from .services import services


async def desk_page(request: Request) -> Response:
    user = await user_of(request)
    if user is None or user.role != "moderator":
        return not_found(request)  # the desk is not there for anyone else
    return page(request, "moderation.html")


async def desk_data(request: Request) -> Response:
    s = services(request)
    body = await s.moderation.desk(await required(request))
    words = translator(page_language(request, s.settings))
    body["reasons"] = {code: words.gettext(text) for code, text in REASONS.items()}
    body["daily"] = await asyncio.to_thread(s.daily.address_marks)
    return answer(body)


async def report(request: Request) -> Response:
    """A player's report: 201 when it is new, 200 when it is his open report of the same target again."""
    data = await read_json(request)
    user = await required(request)
    body = shaped(data, p.Report)
    new = await services(request).moderation.report(user, body.kind, body.target, body.reason, body.text)
    return answer({"ok": True, "new": new}, 201 if new else 200)


@action(p.ModerationAct)
async def act(request: Request, body: p.ModerationAct, user: User) -> dict[str, Any]:
    entry = await services(request).moderation.act(user, body.action, body.kind, body.target, body.reason, body.hours)
    if body.kind == "message" and body.action in ("remove", "restore") and str(body.target).isdigit():
        if not await services(request).rooms.changed(int(str(body.target))):  # a room's pages read it anew, or
            await services(request).lobby.chat_changed(int(str(body.target)))  # its table sends its chat anew
    return {"ok": True, "entry": entry}


@action(p.ModerationUndo)
async def undo(request: Request, body: p.ModerationUndo, user: User) -> dict[str, Any]:
    return {"ok": True, "entry": await services(request).moderation.undo(user, body.entry, body.reason)}


async def my_notices(request: Request) -> Response:
    user = await user_of(request)
    if user is None:
        return answer({"moderator": False, "warnings": [], "muted": False, "muted_until": None})
    return answer(await services(request).moderation.notices(user))


@action(p.WarningRead)
async def read_warning(request: Request, body: p.WarningRead, user: User) -> None:
    await services(request).moderation.read_warning(user, body.warning)


ROUTES: list[BaseRoute] = [
    Route("/moderation", desk_page),
    Route("/api/reports", report, methods=["POST"]),
    Route("/api/moderation", desk_data),
    Route("/api/moderation/act", act, methods=["POST"]),
    Route("/api/moderation/undo", undo, methods=["POST"]),
    Route("/api/moderation/me", my_notices),
    Route("/api/moderation/me/read", read_warning, methods=["POST"]),
]
