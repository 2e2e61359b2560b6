"""The ASGI application: lobby and table pages, a small JSON API, and the tables' WebSocket.

HTTP: ``GET /`` (lobby), ``GET /t/{id}`` (table page; the id is the
invitation link), ``GET /api/options``, ``GET/POST /api/tables``,
``GET /api/tables/{id}``, ``POST /api/tables/{id}/seats`` (returns the seat's
credential, once, in the response body; a private table's invitation secret
rides in the body too, never in a URL), ``POST /api/tables/{id}/bots`` and
``POST /api/tables/{id}/remove`` (the creator frees a seat before the start).
The lobby's "My tables": ``POST /api/tables/mine`` (the tables a browser's credentials open),
``POST /api/tables/{id}/leave`` and ``POST /api/tables/{id}/end`` (see `mytables`).
A finished match's replay: ``GET /t/{id}/replay`` and ``/replay`` (an uploaded
record, ``POST /api/replays``), its data at ``GET /api/replays/{id}`` and
``GET /api/replays/{id}/deals/{n}``, each deal's analysis at
``POST /api/replays/{id}/deals/{n}/analysis`` and its double-dummy table at
``POST /api/replays/{id}/deals/{n}/dd`` (see `replay`).

The daily deals: ``/daily`` and ``/api/daily/…`` (see `dailyroutes`).

WebSocket ``/ws/{id}``: the first message is ``{"type": "hello", "token":
…, "since": …}`` (no token: a spectator); then ``act``, ``sync``, ``ping``,
``leave``, ``rematch`` and ``back`` (after the clock ran out, see `clock`).
Credentials never travel in URLs.  Cross-origin handshakes are refused,
messages are limited in size, a flooding client is cut off, and malformed or
unknown messages get an error reply and change nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path
from functools import partial
from typing import Any, AsyncIterator, Callable

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from ..core import safejson
from ..core.words import N_
from ..i18n import translator
from .routes.accounts import account_routes, player_routes
from .accounts.service import COOKIE as SESSION_COOKIE, Accounts
from .profiles import history
from .routes.clubs import club_hides, club_routes, visible_rows
from .clubs.store import leave_all as leave_clubs
from .routes.events import event_routes
from .daily.service import Daily
from .routes.daily import DAILY_GUESTS_PER_HOUR, daily_routes
from .routes.learn import learn_routes
from .tables.lobby import Lobby, invitation, options_catalogue, parse_rules
from .tables.outside import Outside
from .cluster.node import Cluster
from .accounts import store as accountstore
from .tables.mine import MINE_BODY
from .replay.service import Analyses, Source, deal_frames, is_upload_id, table_source, upload_source
from .routes.rules import page_context
from .scorebooks.keeping import score_routes
from .common.i18n import TEMPLATES, page_language, render_page
from .db.leases import Lease
from .common.settings import Settings
from .tables.ops import NO_STORE, operate
from .tables.sockets import WsConn, client_address, serve_connection
from .tables.actor import Table, TableError, dumps, requested_clock
from .tables.clock import DEFAULT as DEFAULT_CLOCK
from .common.wording import error_json, say

log = logging.getLogger("barbu.web")
STATIC = Path(__file__).with_name("static")

SECURITY_HEADERS = {
    "content-security-policy": ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                                "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}


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


def club_of_table(store: Any, club_id: int) -> Any:
    """The club a table belongs to, for the link in its header (None once the club is deleted)."""
    from .clubs.store import club_by_id
    with store.engine.connect() as conn:
        club = club_by_id(conn, club_id)
    return None if club is None or club.deleted else club


def match_results(t: Table) -> Callable[[Any], object]:
    """A match played to its end: the writer of its results and (rated) the ratings, run in the table's last
    write (`barbu.web.tables.outside.Outside`)."""
    seats = [history.SeatResult(s.kind, s.name, s.strength, s.user_id, s.left) for s in t.seats]
    finished = history.finished_of(t.id, t.match, seats, t.rated)
    return lambda conn: history.record(conn, finished)


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or Settings()
    lobby = Lobby(settings, Outside(results=match_results, ratings=history.seat_ratings, mail_of=accountstore.mail_of))
    if settings.broker_url:  # one of many processes: the lobby is the host of its cluster (`barbu.web.cluster.node`)
        lobby.cluster = Cluster(settings, lobby, partial(operate, lobby))
    analyses = Analyses(settings.analysis_samples, settings.analysis_seconds, queue=settings.analysis_queue,
                        per_address=settings.analyses_per_address)
    accounts = Accounts(lambda: lobby.store, lambda address: lobby.creations.address_hash(address),
                        on_delete=[leave_clubs])
    event_list, events = event_routes(settings, lobby, accounts, lambda request: read_json(request), origin_allowed)
    daily = Daily(lambda: lobby.store, settings.daily_strength, settings.daily_boards)

    def keep_costs(table_id: str, deal: int, review: dict[str, Any]) -> None:
        """A finished table's deal was weighed: its players' profiles count what their decisions cost."""
        store = lobby.store
        if store is None:
            return

        def write() -> None:
            try:
                history.record_costs(store, table_id, deal, review)
            except Exception:  # the profile misses one deal's costs; the replay has them
                log.exception("replay %s: the costs of deal %d could not be kept", table_id, deal)
        task = asyncio.get_running_loop().create_task(asyncio.to_thread(write))
        analyses._tasks.add(task)
        task.add_done_callback(analyses._tasks.discard)
    analyses.on_review = keep_costs

    async def user_of(conn: Any) -> Any:
        """The account logged in on this request's or WebSocket's browser (its session cookie), else None."""
        return await accounts.session_user(conn.cookies.get(SESSION_COOKIE))

    async def take_signup(address: str) -> int:
        return await lobby.creations.take(address, "signup", settings.signups_per_hour)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await lobby.start()
        events.start_watching()  # duplicate events: starts at their time, rounds moved on when over
        try:
            yield
        finally:
            await events.stop()
            analyses.close()
            await lobby.close()

    def page(request: Request, name: str, status_code: int = 200) -> Response:
        """A page in the request's language (a template), or a static one not yet made a template."""
        if (TEMPLATES / name).exists():
            return render_page(request, settings, name, status_code=status_code)
        return FileResponse(STATIC / name, status_code=status_code, media_type="text/html",
                            headers={"cache-control": "no-cache"})

    async def index(request: Request) -> Response:
        return page(request, "index.html")

    async def table_page(request: Request) -> Response:
        t = await lobby.get(request.path_params["table_id"])
        if t is None or await club_hides(request, t.id, t):  # a private club's, to an outsider: as if not there
            return page(request, "notfound.html", 404)
        club = await asyncio.to_thread(club_of_table, lobby.store, t.club_id) if t.club_id else None
        return render_page(request, settings, "besigue.html" if t.web.name == "besigue" else "table.html", club=club)

    async def api_options(request: Request) -> Response:
        words = translator(page_language(request, settings))
        return JSONResponse({"presets": options_catalogue(words), "strengths": settings.strengths(),
                             "default_strength": settings.stand_in},
                            headers={"vary": "cookie, accept-language"})

    async def read_json(request: Request, limit: int | None = None) -> dict[str, Any]:
        """The request's JSON object, from an allowed origin, at most ``limit`` bytes (a message's by default)."""
        if not origin_allowed(request, settings):
            raise TableError(N_("cross-origin requests are refused"), 403)
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            raise TableError(N_("send JSON (content-type application/json)"), 415)
        body = await read_body(request, limit or settings.max_message, settings.body_timeout)
        try:
            data = safejson.loads(body)
        except safejson.JsonError as e:  # worded by its code in the reader's language
            raise TableError.wrap(e) from None
        if not isinstance(data, dict):
            raise TableError(N_("the request must be a JSON object"))
        return data

    async def find(request: Request) -> Table:
        t = await lobby.get(request.path_params["table_id"])
        if t is None or await club_hides(request, t.id, t):
            raise TableError(N_("there is no such table"), 404)
        return t

    async def api_tables(request: Request) -> Response:
        if request.method == "GET":
            return JSONResponse({"tables": await visible_rows(request, lobby.listing())})
        data = await read_json(request)
        rules = parse_rules(data.get("rules"), data.get("players"))
        bots_by = data.get("bots_by", "creator")
        invite, invite_hash = invitation(data.get("private"))
        rated = await wants_rated(request, data)
        turn_based = data.get("turn_based", False)
        if not isinstance(turn_based, bool):
            raise TableError(N_("\"turn_based\" is true or false"))
        clock = (requested_clock(data.get("clock"), turn_based=True) if turn_based
                 else requested_clock(data.get("clock", DEFAULT_CLOCK)))
        t, creator = await lobby.create(rules, address=client_address(request), bots_by=bots_by,
                                        invite_hash=invite_hash, clock=clock, rated=rated, turn_based=turn_based)
        # The creator's credential lets him seat computer players and remove players; a private table's
        # invitation travels after the link's "#", so it never reaches a server's log.  Both given out only once.
        out = {"id": t.id, "url": f"/t/{t.id}", "creator": creator, "table": t.info()}
        if invite is not None:
            out |= {"invite": invite, "invite_url": f"/t/{t.id}#invite={invite}"}
        return JSONResponse(out, status_code=201, headers={"cache-control": "no-store"})

    async def wants_rated(request: Request, data: dict[str, Any]) -> bool:
        """Whether a new table is to be rated: asked for, by someone logged in."""
        rated = data.get("rated", False)
        if not isinstance(rated, bool):
            raise TableError(N_("\"rated\" is true or false"))
        if rated and await user_of(request) is None:
            raise TableError(N_("log in (or make an account) to play a rated match"), 401)
        return rated

    async def api_play(request: Request) -> Response:
        """One click: a new table, the caller in seat 0, computer players of the strength he chose in the others
        (the middling one unless he chose: the strongest crushed beginners)."""
        data = await read_json(request)
        strength = data.get("strength", settings.stand_in)
        if strength not in settings.strengths():
            raise TableError(N_("unknown computer player '{strength}'; choose from: {strengths}"),
                             strength=str(strength)[:40] if isinstance(strength, str) else "?",
                             strengths=", ".join(settings.strengths()))
        rules = parse_rules(data.get("rules") or "classic", data.get("players"))
        name = data.get("name") or "Player"
        address = client_address(request)
        rated = await wants_rated(request, data)
        user = await user_of(request)
        t, creator = await lobby.create(rules, address=address, reserved=True,  # a share of the limit is its own
                                        rated=rated)
        lobby.check_bots(t, address)
        token = await t.call(t.take_seat, 0, name, None, address, creator, (user.id, user.name) if user else None)
        for seat in range(1, t.match.n):
            await t.call(t.add_bot, seat, strength, creator, address)
        lobby.show_ratings(t)
        return JSONResponse({"id": t.id, "url": f"/t/{t.id}", "seat": 0, "token": token, "creator": creator,
                             "table": t.info()}, status_code=201, headers={"cache-control": "no-store"})

    async def rules_page(request: Request) -> Response:
        name = request.path_params.get("name")
        lang = page_language(request, settings)
        context = await asyncio.to_thread(page_context, name if name is None else name[:200], lang)  # a few ms
        if context is None:
            return page(request, "notfound.html", 404)
        return render_page(request, settings, "rules.html", **context)

    async def api_health(request: Request) -> Response:
        body = lobby.health()
        if lobby.cluster is not None:  # this process's part, and the whole server's as the database sees it
            body["process"] = lobby.cluster.health()
            body["server"] = await lobby.cluster.server_health()
        return JSONResponse(body, headers={"cache-control": "no-store"})

    async def withheld(table_id: str) -> None:
        """A duplicate event's finished table while its round is played elsewhere: its record and replay hold
        the hands of boards other tables have not finished, so they wait for the round's end."""
        if await events.replay_withheld(table_id):
            raise TableError(N_("other tables of the event are still playing these deals: the record and the "
                                "replay open when the round is over"), 409)

    async def api_record(request: Request) -> Response:
        t = await find(request)
        await withheld(t.id)
        lines = t.record_lines()
        body = "".join(dumps(line) + "\n" for line in lines)
        return Response(body, media_type="application/x-ndjson",
                        headers={"content-disposition": f'attachment; filename="barbu-{t.id}.jsonl"'})

    async def replay_page(request: Request) -> Response:
        tid = request.path_params.get("table_id")
        if tid is not None and (await lobby.get(tid) is None or await club_hides(request, tid)):
            return page(request, "notfound.html", 404)
        return page(request, "replay.html")

    async def replay_source(request: Request) -> Source:
        """The match a replay request names: an uploaded record kept here, or a finished table."""
        rid = request.path_params["replay_id"]
        if is_upload_id(rid):
            src = analyses.uploads.get(rid)
            if src is None:
                raise TableError(N_("this uploaded record is no longer kept here; upload the file again"), 404)
            return src
        if await club_hides(request, rid):
            raise TableError(N_("there is no such table"), 404)
        await withheld(rid)
        src = analyses.finished.get(rid)
        if src is not None:
            return src
        t = await lobby.get(rid)
        if t is None:
            raise TableError(N_("there is no such table"), 404)
        src = await asyncio.to_thread(table_source, t)  # refused while the match is played
        analyses.keep_table(src)
        return src

    def deal_number(request: Request) -> int:
        text = request.path_params["deal"]
        if not text.isdigit() or len(text) > 4:
            raise TableError(N_("a deal is given by its number, not '{value}'"), value=text[:20])
        return int(text)

    async def api_replay(request: Request) -> Response:
        src = await replay_source(request)
        return JSONResponse(await asyncio.to_thread(analyses.overview, src))

    async def api_replay_deal(request: Request) -> Response:
        src = await replay_source(request)
        deal = deal_number(request)
        return JSONResponse(await asyncio.to_thread(deal_frames, src, deal))

    async def replay_job(request: Request) -> tuple[Source, int]:
        """The match and deal a replay's analysis or double-dummy table is asked for (a same-origin POST)."""
        if not origin_allowed(request, settings):
            raise TableError(N_("cross-origin requests are refused"), 403)
        src = await replay_source(request)
        deal = deal_number(request)
        known = await asyncio.to_thread(analyses.overview, src)
        if not 1 <= deal <= len(known["deals"]):
            raise TableError(N_("there is no deal {deal} in this match"), 404, deal=deal)
        return src, deal

    async def api_replay_analysis(request: Request) -> Response:
        src, deal = await replay_job(request)
        return JSONResponse(analyses.request(src, deal, client_address(request)), headers={"cache-control": "no-store"})

    async def api_replay_dd(request: Request) -> Response:
        """The deal's double-dummy table, solved on request: only for a replay, which shows every hand."""
        src, deal = await replay_job(request)
        return JSONResponse(analyses.request_dd(src, deal, client_address(request)),
                            headers={"cache-control": "no-store"})

    async def api_upload(request: Request) -> Response:
        """A record file from ``barbu play`` (its text in {"record": …}): kept here, replayed at /replay/{id}."""
        text = (await read_json(request, settings.max_import)).get("record")
        if not isinstance(text, str) or not text.strip():
            raise TableError(N_("choose a record file (.jsonl) to replay"))
        src = await asyncio.to_thread(upload_source, text)
        analyses.keep_upload(src)
        return JSONResponse({"id": src.key, "url": f"/replay/{src.key}"}, status_code=201)

    async def on_table(request: Request, op: str) -> Response:
        """A request about one table, run by the process that owns it (`tableops`): here, or relayed to
        another process of a many-process server, which answers it the same way."""
        data = await read_json(request) if request.method == "POST" else {}
        data.pop("_user", None)  # only this server says who is logged in
        if request.method == "POST":
            user = await user_of(request)
            if user is not None:
                data["_user"] = [user.id, user.name]
        table_id, address = request.path_params["table_id"], client_address(request)
        lang = page_language(request, settings)
        found = await lobby.locate(table_id)
        if found is None or await club_hides(request, table_id, found):
            raise TableError(N_("there is no such table"), 404)
        if isinstance(found, Lease):
            assert lobby.cluster is not None
            answer = await lobby.cluster.request(found.owner, table_id, op, data, address, lang)
            if answer is None:
                raise TableError(N_("the table's server process did not answer; try again in a moment"), 503)
            status, body = answer
        else:
            status, body = await operate(lobby, found, op, data, address, lang)
        return JSONResponse(body, status_code=status, headers=NO_STORE if op != "info" else None)

    async def api_table(request: Request) -> Response:
        return await on_table(request, "info")

    async def api_seat(request: Request) -> Response:
        return await on_table(request, "seat")

    async def api_remove(request: Request) -> Response:
        """Before the match starts, the table's creator frees a seat: {"seat": n, "token": creator}."""
        return await on_table(request, "remove")

    async def api_mine(request: Request) -> Response:
        """"My tables": {"tables": [{"id", "token", "creator"}, …]} → each as the lobby lists it, or gone."""
        data = await read_json(request, MINE_BODY)
        user = await user_of(request)
        return JSONResponse({"tables": await lobby.mine(data, user.id if user else None)},
                            headers={"cache-control": "no-store"})

    async def api_leave(request: Request) -> Response:
        """A player leaves a table with other people for good: {"token": seat, "creator": creator}."""
        return await on_table(request, "leave")

    async def api_end(request: Request) -> Response:
        """The only person at a table of computer players ends it: {"token": seat, "creator": creator}."""
        return await on_table(request, "end")

    async def api_bot(request: Request) -> Response:
        return await on_table(request, "bot")

    async def table_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, TableError)
        return JSONResponse(error_json(exc, page_language(request, settings)), status_code=exc.status)

    async def ws_table(websocket: WebSocket) -> None:
        if not origin_allowed(websocket, settings):
            await websocket.close(code=1008)  # before accept: the handshake is refused (HTTP 403)
            return
        address = client_address(websocket)
        lang = page_language(websocket, settings)
        if not await lobby.connect(address):
            await websocket.accept()
            await websocket.send_text(dumps({
                "type": "error", "code": "too_many_connections",
                "message": say(lang, N_("too many connections from your address (the limit is {n}); "
                                        "close some tabs and reload"), n=settings.connections_per_address)}))
            await websocket.close(1008)
            return
        try:
            user = await user_of(websocket)
            user_id = user.id if user is not None else None
            table = await lobby.locate(websocket.path_params["table_id"])
            await websocket.accept()
            if table is None or await club_hides(websocket, websocket.path_params["table_id"], table):
                await websocket.send_text(dumps({"type": "error", "code": "no_table",
                                                 "message": say(lang, N_("there is no such table"))}))
                await websocket.close(4404)
                return
            if isinstance(table, Lease):  # another process plays it: carry the frames there and back
                assert lobby.cluster is not None
                await lobby.cluster.relay(websocket, table, lang, address, user_id)
                return
            conn = WsConn(websocket, lang, user_id)
            try:
                await serve_connection(websocket, conn, table, settings)
            finally:
                table.tell(table.disconnect, conn)
                await conn.finish()
        finally:
            await lobby.disconnect(address)

    routes = [
        Route("/", index),
        Route("/t/{table_id}", table_page),
        Route("/api/options", api_options),
        Route("/api/tables", api_tables, methods=["GET", "POST"]),
        Route("/api/tables/mine", api_mine, methods=["POST"]),
        Route("/api/tables/{table_id}", api_table),
        Route("/api/tables/{table_id}/seats", api_seat, methods=["POST"]),
        Route("/api/tables/{table_id}/bots", api_bot, methods=["POST"]),
        Route("/api/tables/{table_id}/remove", api_remove, methods=["POST"]),
        Route("/api/tables/{table_id}/leave", api_leave, methods=["POST"]),
        Route("/api/tables/{table_id}/end", api_end, methods=["POST"]),
        Route("/api/tables/{table_id}/record", api_record),
        Route("/t/{table_id}/replay", replay_page),
        Route("/replay", replay_page),
        Route("/replay/{replay_id}", replay_page),
        Route("/api/replays", api_upload, methods=["POST"]),
        Route("/api/replays/{replay_id}", api_replay),
        Route("/api/replays/{replay_id}/deals/{deal}", api_replay_deal),
        Route("/api/replays/{replay_id}/deals/{deal}/analysis", api_replay_analysis, methods=["POST"]),
        Route("/api/replays/{replay_id}/deals/{deal}/dd", api_replay_dd, methods=["POST"]),
        Route("/api/health", api_health),
        Route("/rules", rules_page),
        Route("/rules/{name}", rules_page),
        Route("/api/play", api_play, methods=["POST"]),
        WebSocketRoute("/ws/{table_id}", ws_table),
        *score_routes(settings, lambda: lobby.store, read_body, origin_allowed, lobby.creations),
        *learn_routes(settings, read_json),
        *account_routes(settings, accounts, read_json, take_signup),
        *player_routes(settings, lambda: lobby.store, user_of),
        *club_routes(settings, lobby, accounts, read_json),
        *event_list,
        *daily_routes(settings, daily, read_json, user_of,
                      lambda address: lobby.creations.take(address, "daily_guest", DAILY_GUESTS_PER_HOUR)),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={TableError: table_error},
                    middleware=[Middleware(SecurityHeaders)])
    app.state.lobby = lobby
    app.state.accounts = accounts
    app.state.events = events
    app.state.daily = daily
    app.state.analyses = analyses
    app.state.settings = settings
    return app


class SecurityHeaders:
    """Adds the security headers to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                own = {k.lower() for k, _ in headers}  # a response may set its own (the printed sheet: no script at all)
                headers += [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items() if k.encode() not in own]
                message = {**message, "headers": headers}
            await send(message)
        await self.app(scope, receive, send_with_headers)


async def read_body(request: Request, limit: int, timeout: float) -> bytes:
    """The request body, refused as soon as it is known to be too large or too slow.

    The announced length is checked first; a body that announces less and sends
    more is cut off while streaming, and one that stalls gets 408, so a client
    cannot make the server hold megabytes or a connection for nothing.
    """
    too_large = TableError(N_("the request is too large (the limit is {limit} bytes)"), 413, limit=limit)
    announced = request.headers.get("content-length")
    if announced is not None:
        if not announced.isdigit():
            raise TableError(N_("the request's content-length is not a number"))
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
        raise TableError(N_("the request's body did not arrive within {seconds} seconds"), 408,
                         seconds=f"{timeout:g}") from None
    except ClientDisconnect:  # nobody is left to answer: one line in the log, never a traceback
        log.info("%s %s: the client left before its body arrived", request.method, request.url.path[:100])
        raise TableError(N_("the request's body was cut off"), 400) from None
    return b"".join(chunks)
