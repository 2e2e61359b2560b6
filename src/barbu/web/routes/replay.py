"""A finished match's replay: the pages ``GET /t/{id}/replay``, ``/replay`` (an uploaded record, ``POST
/api/replays``) and ``/replay/{id}``; its data at ``GET /api/replays/{id}`` and ``GET
/api/replays/{id}/deals/{n}``; each deal's analysis at ``POST /api/replays/{id}/deals/{n}/analysis`` and its
double-dummy table at ``POST /api/replays/{id}/deals/{n}/dd`` (the work is `barbu.web.replay.service`'s).  A daily
deal's replay (``daily.…`` ids) opens on every one of these paths only to the player who finished it, until the day
is over (`Daily.replay_record`), and a daily deal's record is not taken as an upload while its day lasts."""

from __future__ import annotations

import asyncio
import dataclasses

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..common.errors import WebError
from ..daily.service import REPLAY_PREFIX
from ..replay.service import Source, daily_day_of, deal_frames, is_upload_id, table_source, upload_source
from ..tables.sockets import client_address
from . import payloads as p
from . import refusals as R
from .bodies import check_origin, decode
from .clubs import club_hides
from .daily import person
from .helpers import not_found, page
from .services import services
from .tables import withheld


async def replay_page(request: Request) -> Response:
    tid = request.path_params.get("table_id")
    if tid is not None and (await services(request).lobby.get(tid) is None or await club_hides(request, tid)):
        return not_found(request)
    return page(request, "replay.html")


async def replay_source(request: Request) -> Source:
    """The match a replay request names: an uploaded record kept here, or a finished table."""
    analyses, lobby = services(request).analyses, services(request).lobby
    rid = request.path_params["replay_id"]
    if rid.startswith(REPLAY_PREFIX):
        return await daily_source(request, rid)
    if is_upload_id(rid):
        src = analyses.uploads.get(rid)
        if src is None:
            raise WebError(R.UPLOAD_GONE)
        return src
    if await club_hides(request, rid):
        raise WebError(R.NO_TABLE)
    await withheld(request, rid)
    kept = analyses.finished.get(rid)
    if kept is not None:
        return kept
    t = await lobby.get(rid)
    if t is None:
        raise WebError(R.NO_TABLE)
    made: Source = await asyncio.to_thread(table_source, t)  # refused while the match is played
    analyses.keep_table(made)
    return made


async def daily_source(request: Request, rid: str) -> Source:
    """A daily deal's replay, asked again on every request: the finisher's alone until its day is over."""
    someone, _ = await person(request)
    text = await asyncio.to_thread(services(request).daily.replay_record, someone, rid)
    src = await asyncio.to_thread(upload_source, text)
    return dataclasses.replace(src, key=rid)


def deal_number(request: Request) -> int:
    text = request.path_params["deal"]
    if not text.isdigit() or len(text) > 4:
        raise WebError(R.BAD_DEAL_NUMBER, value=text[:20])
    return int(text)


async def api_replay(request: Request) -> Response:
    src = await replay_source(request)
    return JSONResponse(await asyncio.to_thread(services(request).analyses.overview, src))


async def api_replay_deal(request: Request) -> Response:
    src = await replay_source(request)
    deal = deal_number(request)
    return JSONResponse(await asyncio.to_thread(deal_frames, src, deal))


async def replay_job(request: Request) -> tuple[Source, int]:
    """The match and deal a replay's analysis or double-dummy table is asked for (a same-origin POST)."""
    check_origin(request)
    src = await replay_source(request)
    deal = deal_number(request)
    known = await asyncio.to_thread(services(request).analyses.overview, src)
    if not 1 <= deal <= len(known["deals"]):
        raise WebError(R.NO_SUCH_DEAL, deal=deal)
    return src, deal


async def api_replay_analysis(request: Request) -> Response:
    src, deal = await replay_job(request)
    return JSONResponse(
        services(request).analyses.request(src, deal, client_address(request)), headers={"cache-control": "no-store"}
    )


async def api_replay_dd(request: Request) -> Response:
    """The deal's double-dummy table, solved on request: only for a replay, which shows every hand.  A daily
    board's or an event board's table solved in the background is sent at once."""
    src, deal = await replay_job(request)
    analyses = services(request).analyses
    done = await asyncio.to_thread(analyses.stored_dd, src, deal)
    if done is None:
        done = analyses.request_dd(src, deal, client_address(request))
    return JSONResponse(done, headers={"cache-control": "no-store"})


async def api_upload(request: Request) -> Response:
    """A record file from ``barbu play`` (its text in {"record": …}): kept here, replayed at /replay/{id}."""
    analyses = services(request).analyses
    body = await decode(request, p.Upload, services(request).settings.max_import)
    if not body.record.strip():
        raise WebError(R.NO_RECORD_FILE)
    await asyncio.to_thread(services(request).daily.check_upload, daily_day_of(body.record))
    src = await asyncio.to_thread(upload_source, body.record)
    analyses.keep_upload(src)
    return JSONResponse({"id": src.key, "url": f"/replay/{src.key}"}, status_code=201)


ROUTES: list[BaseRoute] = [
    Route("/t/{table_id}/replay", replay_page),
    Route("/replay", replay_page),
    Route("/replay/{replay_id}", replay_page),
    Route("/api/replays", api_upload, methods=["POST"]),
    Route("/api/replays/{replay_id}", api_replay),
    Route("/api/replays/{replay_id}/deals/{deal}", api_replay_deal),
    Route("/api/replays/{replay_id}/deals/{deal}/analysis", api_replay_analysis, methods=["POST"]),
    Route("/api/replays/{replay_id}/deals/{deal}/dd", api_replay_dd, methods=["POST"]),
]
