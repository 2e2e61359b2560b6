"""The house's own pages: the lobby (``GET /``), the rules of every game (``/rules``, ``/rules/{name}``),
the server's health (``GET /api/health``) and the static files (``/static``)."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from ..common.i18n import page_language
from .helpers import STATIC, not_found, page
from .rules import page_context
from .services import services


async def index(request: Request) -> Response:
    return page(request, "index.html")


async def rules_page(request: Request) -> Response:
    name = request.path_params.get("name")
    lang = page_language(request, services(request).settings)
    context = await asyncio.to_thread(page_context, name if name is None else name[:200], lang)  # a few ms
    if context is None:
        return not_found(request)
    return page(request, "rules.html", **context)


async def api_health(request: Request) -> Response:
    body = services(request).lobby.health()
    cluster = services(request).cluster
    if cluster is not None:  # this process's part, and the whole server's as the database sees it
        body["process"] = cluster.health()
        body["server"] = await cluster.server_health()
    return JSONResponse(body, headers={"cache-control": "no-store"})


ROUTES: list[BaseRoute] = [
    Route("/", index),
    Route("/api/health", api_health),
    Route("/rules", rules_page),
    Route("/rules/{name}", rules_page),
]

#: Last of all the routes: the static files.
STATIC_ROUTES: list[BaseRoute] = [Mount("/static", app=StaticFiles(directory=STATIC), name="static")]
