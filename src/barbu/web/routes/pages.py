"""The house's own pages: the lobby (``GET /``), the rules of every game (``/rules``, ``/rules/{name}``),
the server's health (``GET /api/health``, liveness ``/health/live`` and readiness ``/health/ready``) and the
static files (``/static``)."""

from __future__ import annotations

import asyncio

from sqlalchemy import text
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from ..common import outages
from ..common.i18n import page_language
from ..common.outages import Probe, is_unreachable
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
    """What the process holds, for its operator; "status" is "ok" only when it is ready (`health_ready`)."""
    ready, reasons = await readiness(request)
    body = services(request).lobby.health()
    body["status"] = "ok" if ready else "unavailable"
    if reasons:
        body["reasons"] = reasons
    cluster = services(request).cluster
    if cluster is not None:  # this process's part, and the whole server's as the database sees it
        body["process"] = cluster.health()
        try:
            body["server"] = await asyncio.wait_for(cluster.server_health(), 5)
        except Exception as exc:  # the database or the broker is away: said in "reasons", never a traceback
            if not (isinstance(exc, asyncio.TimeoutError) or is_unreachable(exc)):
                raise
    return JSONResponse(body, headers={"cache-control": "no-store"})


async def health_live(request: Request) -> Response:
    """Liveness: this process's event loop answers (a supervisor restarts a process that does not)."""
    return JSONResponse({"status": "live"}, headers={"cache-control": "no-store"})


async def health_ready(request: Request) -> Response:
    """Readiness: 200 when this process can serve players, else 503 with the reasons (starting, draining,
    the database or the broker unreachable), for nginx's operator, a supervisor or a rolling restart."""
    ready, reasons = await readiness(request)
    body: dict[str, object] = {"status": "ready" if ready else "unavailable"}
    if reasons:
        body["reasons"] = reasons
    return JSONResponse(body, status_code=200 if ready else 503, headers={"cache-control": "no-store"})


async def readiness(request: Request) -> tuple[bool, list[str]]:
    """Whether the process is ready, and why not: each dependency checked at most once a second."""
    s = services(request)
    state = request.app.state
    if getattr(state, "draining", False) or (s.cluster is not None and s.cluster.draining):
        return False, ["draining"]
    store = s.lobby.store
    if store is None:
        return False, ["starting"]
    probes: list[Probe] | None = getattr(state, "probes", None)
    if probes is None:

        def select_one() -> None:
            with store.engine.connect() as conn:
                conn.execute(text("SELECT 1"))

        probes = [Probe(outages.database, lambda: asyncio.to_thread(select_one))]
        cluster = s.cluster
        if cluster is not None:
            probes.append(Probe(outages.broker, cluster.broker.redis.ping))
        state.probes = probes
    results = await asyncio.gather(*(p.up() for p in probes))
    reasons = [f"{p.outage.name} unreachable: {p.outage.reason}" for p, up in zip(probes, results) if not up]
    return not reasons, reasons


ROUTES: list[BaseRoute] = [
    Route("/", index),
    Route("/api/health", api_health),
    Route("/health/live", health_live),
    Route("/health/ready", health_ready),
    Route("/rules", rules_page),
    Route("/rules/{name}", rules_page),
]

#: Last of all the routes: the static files.
STATIC_ROUTES: list[BaseRoute] = [Mount("/static", app=StaticFiles(directory=STATIC), name="static")]
