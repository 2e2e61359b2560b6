"""Challenges (the rules are in `barbu.web.challenges`).

Pages: ``/challenges/new?to=<name>`` (the challenge form: players, game, clock, rated) and ``/challenges/<id>``
(who is challenged, who accepted, the settings in words, Accept / Decline / Cancel, and the table once made).

API, every POST checking the Origin and a logged-in account (a guest is refused):

- ``POST /api/challenges`` {players: [names], rules, seats, short, clock, turn_based, rated, bots}: 201 and the
  challenge;
- ``GET /api/challenges/<id>``: the challenge, to its players only (anyone else: 404);
- ``POST /api/challenges/<id>/accept``, ``…/decline``, ``…/cancel`` (the challenger's): the challenge as it is now.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..accounts.store import User
from ..challenges import refusals as no
from ..challenges.store import Challenge
from ..common.errors import WebError
from . import payloads as p
from .helpers import action, answer, page, required
from .services import services


def profile(name: str) -> dict[str, str]:
    return {"name": name, "profile": f"/u/{quote(name)}"}


def shown(c: Challenge, viewer: User) -> dict[str, Any]:
    """A challenge as its page reads it (its words are the page's: the state, the game, the clock)."""
    mine = next((i.answer for i in c.invited if i.user_id == viewer.id), None)
    return {
        "id": c.id,
        "from": profile(c.from_name),
        "invited": [profile(i.name) | {"answer": i.answer} for i in c.invited],
        "rules": c.rules,
        "clock": c.clock,
        "turn_based": c.turn_based,
        "rated": c.rated,
        "bots": c.bots,
        "created": c.created_at.isoformat(timespec="seconds"),
        "expires": c.expires_at.isoformat(timespec="seconds"),
        "state": c.state,
        "ended_by": c.name_of(c.ended_by) or None,
        "table": c.table_link() or None,
        "me": {"challenger": c.from_id == viewer.id, "answer": mine},
    }


def challenge_id(request: Request) -> int:
    raw = request.path_params["cid"]
    if not raw.isdigit() or len(raw) > 12:
        raise WebError(no.NO_CHALLENGE)
    return int(raw)


async def new_page(request: Request) -> Response:
    return page(request, "challenge.html", mode="new")


async def challenge_page(request: Request) -> Response:
    return page(request, "challenge.html", mode="view")


@action(p.NewChallenge, status=201)
async def create(request: Request, body: p.NewChallenge, user: User) -> dict[str, Any]:
    c = await services(request).challenges.create(
        user,
        body.players,
        body.rules,
        body.seats,
        body.short,
        body.clock,
        body.turn_based,
        body.rated,
        body.bots,
    )
    return shown(c, user)


async def one(request: Request) -> Response:
    user = await required(request, no.LOG_IN)
    return answer(shown(await services(request).challenges.view(user, challenge_id(request)), user))


@action(p.Empty)
async def accept(request: Request, body: p.Empty, user: User) -> dict[str, Any]:
    return shown(await services(request).challenges.answer(user, challenge_id(request), True), user)


@action(p.Empty)
async def decline(request: Request, body: p.Empty, user: User) -> dict[str, Any]:
    return shown(await services(request).challenges.answer(user, challenge_id(request), False), user)


@action(p.Empty)
async def cancel(request: Request, body: p.Empty, user: User) -> dict[str, Any]:
    return shown(await services(request).challenges.cancel(user, challenge_id(request)), user)


ROUTES: list[BaseRoute] = [
    Route("/challenges/new", new_page),
    Route("/challenges/{cid}", challenge_page),
    Route("/api/challenges", create, methods=["POST"]),
    Route("/api/challenges/{cid}", one),
    Route("/api/challenges/{cid}/accept", accept, methods=["POST"]),
    Route("/api/challenges/{cid}/decline", decline, methods=["POST"]),
    Route("/api/challenges/{cid}/cancel", cancel, methods=["POST"]),
]
