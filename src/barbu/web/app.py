"""The ASGI application: lobby and table pages, a small JSON API, and the tables' WebSocket.

HTTP: ``GET /`` (lobby), ``GET /t/{id}`` (table page; the id is the
invitation link), ``GET /api/options``, ``GET/POST /api/tables``,
``GET /api/tables/{id}``, ``POST /api/tables/{id}/seats`` (returns the seat's
credential, once, in the response body; a private table's invitation secret
rides in the body too, never in a URL), ``POST /api/tables/{id}/bots`` and
``POST /api/tables/{id}/remove`` (the creator frees a seat before the start).
A finished match's replay: ``GET /t/{id}/replay`` and ``/replay`` (an uploaded
record, ``POST /api/replays``), its data at ``GET /api/replays/{id}`` and
``GET /api/replays/{id}/deals/{n}``, each deal's analysis at
``POST /api/replays/{id}/deals/{n}/analysis`` (see `replay`).

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
import time
from pathlib import Path
from typing import Any, AsyncIterator

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..core import safejson
from ..agents import AGENT_KINDS
from ..agents.hint import hint_label, hint
from ..core.cards import CARDS
from ..core.errors import BarbuError
from ..core.words import N_
from ..i18n import translator
from .lobby import Lobby, invitation, options_catalogue, parse_rules
from .mailbox import Mailbox
from .replay import Analyses, Source, deal_frames, is_upload_id, table_source, upload_source
from .rules_page import page_context
from .scorekeeping import score_routes
from .i18n import TEMPLATES, chosen, page_language, render_page
from .settings import Settings
from .table import Table, TableError, dumps, requested_clock
from .clock import DEFAULT as DEFAULT_CLOCK
from .wording import error_json, hint_reason, say, word

log = logging.getLogger("barbu.web")
STATIC = Path(__file__).with_name("static")
HINT_STRENGTH = AGENT_KINDS[-1]  # a hint is what the strongest computer player would do
OUTBOX_LIMIT = 500  # messages waiting for a slow client before it is cut off (it can resync)

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


class WsConn:
    """A WebSocket as a table sees it: sends are queued and written by one task, so a slow client
    never holds a table up; one that falls too far behind is cut off and resyncs when it returns."""

    def __init__(self, ws: WebSocket, lang: str = "en") -> None:
        self.ws = ws
        self.lang = lang  # what this connection reads: its page's language, or the one its hello names
        self.seat: int | None = None
        self.outbox: Mailbox[str | None] = Mailbox()  # None: close after what is queued before it
        self.closing: tuple[int, str] | None = None
        self.writer = asyncio.get_running_loop().create_task(self._write())

    def send(self, text: str) -> None:
        if self.closing:
            return
        if len(self.outbox) >= OUTBOX_LIMIT:
            self.close(1008, "too far behind")
            return
        self.outbox.put(text)

    def close(self, code: int = 1000, reason: str = "") -> None:
        if not self.closing:
            self.closing = (code, reason)
            self.outbox.put(None)

    async def _write(self) -> None:
        send = self.ws.send
        try:
            while True:
                text = await self.outbox.get()
                if text is None:
                    code, reason = self.closing or (1000, "")
                    await self.ws.close(code, reason)
                    return
                await send({"type": "websocket.send", "text": text})
        except Exception:  # the socket went away; the reader notices and cleans up
            return

    async def finish(self) -> None:
        self.close()
        try:
            await asyncio.wait_for(self.writer, 2)
        except (asyncio.TimeoutError, Exception):
            self.writer.cancel()


class RateLimit:
    """A token bucket: ``burst`` messages at once, ``rate`` per second on average."""

    def __init__(self, burst: int, rate: float) -> None:
        self.burst, self.rate = burst, rate
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        t = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (t - self.stamp) * self.rate)
        self.stamp = t
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or Settings()
    lobby = Lobby(settings)
    analyses = Analyses(settings.analysis_samples, settings.analysis_seconds, queue=settings.analysis_queue,
                        per_address=settings.analyses_per_address)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await lobby.start()
        try:
            yield
        finally:
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
        if t is None:
            return page(request, "notfound.html", 404)
        return page(request, "besigue.html" if t.web.name == "besigue" else "table.html")

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
        if t is None:
            raise TableError(N_("there is no such table"), 404)
        return t

    async def api_tables(request: Request) -> Response:
        if request.method == "GET":
            return JSONResponse({"tables": lobby.listing()})
        data = await read_json(request)
        rules = parse_rules(data.get("rules"), data.get("players"))
        bots_by = data.get("bots_by", "creator")
        invite, invite_hash = invitation(data.get("private"))
        t, creator = await lobby.create(rules, address=client_address(request), bots_by=bots_by,
                                        invite_hash=invite_hash,
                                        clock=requested_clock(data.get("clock", DEFAULT_CLOCK)))
        # The creator's credential lets him seat computer players and remove players; a private table's
        # invitation travels after the link's "#", so it never reaches a server's log.  Both given out only once.
        out = {"id": t.id, "url": f"/t/{t.id}", "creator": creator, "table": t.info()}
        if invite is not None:
            out |= {"invite": invite, "invite_url": f"/t/{t.id}#invite={invite}"}
        return JSONResponse(out, status_code=201, headers={"cache-control": "no-store"})

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
        t, creator = await lobby.create(rules, address=address, reserved=True)  # a share of the limit is its own
        lobby.check_bots(t, address)
        token = await t.call(t.take_seat, 0, name, None, address, creator)
        for seat in range(1, t.match.n):
            await t.call(t.add_bot, seat, strength, creator, address)
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
        return JSONResponse(lobby.health(), headers={"cache-control": "no-store"})

    async def api_record(request: Request) -> Response:
        t = await find(request)
        lines = t.record_lines()
        body = "".join(dumps(line) + "\n" for line in lines)
        return Response(body, media_type="application/x-ndjson",
                        headers={"content-disposition": f'attachment; filename="barbu-{t.id}.jsonl"'})

    async def replay_page(request: Request) -> Response:
        tid = request.path_params.get("table_id")
        if tid is not None and await lobby.get(tid) is None:
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

    async def api_replay_analysis(request: Request) -> Response:
        if not origin_allowed(request, settings):
            raise TableError(N_("cross-origin requests are refused"), 403)
        src = await replay_source(request)
        deal = deal_number(request)
        known = await asyncio.to_thread(analyses.overview, src)
        if not 1 <= deal <= len(known["deals"]):
            raise TableError(N_("there is no deal {deal} in this match"), 404, deal=deal)
        return JSONResponse(analyses.request(src, deal, client_address(request)), headers={"cache-control": "no-store"})

    async def api_upload(request: Request) -> Response:
        """A record file from ``barbu play`` (its text in {"record": …}): kept here, replayed at /replay/{id}."""
        text = (await read_json(request, settings.max_import)).get("record")
        if not isinstance(text, str) or not text.strip():
            raise TableError(N_("choose a record file (.jsonl) to replay"))
        src = await asyncio.to_thread(upload_source, text)
        analyses.keep_upload(src)
        return JSONResponse({"id": src.key, "url": f"/replay/{src.key}"}, status_code=201)

    async def api_table(request: Request) -> Response:
        t = await find(request)
        return JSONResponse({"table": t.info()})

    async def api_seat(request: Request) -> Response:
        data = await read_json(request)
        t = await find(request)
        token = await t.call(t.take_seat, data.get("seat"), data.get("name"), data.get("invite"),
                             client_address(request), data.get("creator"))
        return JSONResponse({"seat": data.get("seat"), "token": token, "table": t.info()},
                            headers={"cache-control": "no-store"})

    async def api_remove(request: Request) -> Response:
        """Before the match starts, the table's creator frees a seat: {"seat": n, "token": creator}."""
        data = await read_json(request)
        t = await find(request)
        await t.call(t.remove_player, data.get("seat"), data.get("token"))
        return JSONResponse({"seat": data.get("seat"), "table": t.info()}, headers={"cache-control": "no-store"})

    async def api_bot(request: Request) -> Response:
        data = await read_json(request)
        t = await find(request)
        address = client_address(request)
        if not t.started:
            lobby.check_bots(t, address)
        await t.call(t.add_bot, data.get("seat"), data.get("strength", AGENT_KINDS[0]), data.get("token"), address)
        return JSONResponse({"seat": data.get("seat"), "table": t.info()})

    async def table_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, TableError)
        return JSONResponse(error_json(exc, page_language(request, settings)), status_code=exc.status)

    async def ws_table(websocket: WebSocket) -> None:
        if not origin_allowed(websocket, settings):
            await websocket.close(code=1008)  # before accept: the handshake is refused (HTTP 403)
            return
        address = client_address(websocket)
        lang = page_language(websocket, settings)
        if not lobby.connect(address):
            await websocket.accept()
            await websocket.send_text(dumps({
                "type": "error", "code": "too_many_connections",
                "message": say(lang, N_("too many connections from your address (the limit is {n}); "
                                        "close some tabs and reload"), n=settings.connections_per_address)}))
            await websocket.close(1008)
            return
        try:
            table = await lobby.get(websocket.path_params["table_id"])
            await websocket.accept()
            if table is None:
                await websocket.send_text(dumps({"type": "error", "code": "no_table",
                                                 "message": say(lang, N_("there is no such table"))}))
                await websocket.close(4404)
                return
            conn = WsConn(websocket, lang)
            try:
                await serve_connection(websocket, conn, table, settings)
            finally:
                table.tell(table.disconnect, conn)
                await conn.finish()
        finally:
            lobby.disconnect(address)

    routes = [
        Route("/", index),
        Route("/t/{table_id}", table_page),
        Route("/api/options", api_options),
        Route("/api/tables", api_tables, methods=["GET", "POST"]),
        Route("/api/tables/{table_id}", api_table),
        Route("/api/tables/{table_id}/seats", api_seat, methods=["POST"]),
        Route("/api/tables/{table_id}/bots", api_bot, methods=["POST"]),
        Route("/api/tables/{table_id}/remove", api_remove, methods=["POST"]),
        Route("/api/tables/{table_id}/record", api_record),
        Route("/t/{table_id}/replay", replay_page),
        Route("/replay", replay_page),
        Route("/replay/{replay_id}", replay_page),
        Route("/api/replays", api_upload, methods=["POST"]),
        Route("/api/replays/{replay_id}", api_replay),
        Route("/api/replays/{replay_id}/deals/{deal}", api_replay_deal),
        Route("/api/replays/{replay_id}/deals/{deal}/analysis", api_replay_analysis, methods=["POST"]),
        Route("/api/health", api_health),
        Route("/rules", rules_page),
        Route("/rules/{name}", rules_page),
        Route("/api/play", api_play, methods=["POST"]),
        WebSocketRoute("/ws/{table_id}", ws_table),
        *score_routes(settings, lambda: lobby.store, read_body, origin_allowed, lobby.creations),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={TableError: table_error},
                    middleware=[Middleware(SecurityHeaders)])
    app.state.lobby = lobby
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


# Hints search for up to 1.5 s on a core: `Settings.hints_at_once` at a time, through the lobby's
# `ThinkingPool.hints`, one per client address (its other hints wait behind it) and the slots taken in turns by
# address, so one client with many connections cannot keep another's hints waiting.


async def send_hint(conn: WsConn, table: Table, busy: set) -> None:
    """The strongest player's choice for this seat, from its own view only, computed off the table's actor."""
    if conn in busy:
        raise TableError(N_("a hint is already on its way"))
    view = await table.call(table.hint_view, conn)
    version = table.version
    busy.add(conn)
    slot = (table.thinking.hints.slot(client_address(conn.ws), id(conn)) if table.thinking is not None
            else contextlib.nullcontext())
    try:
        async with slot:
            if table.version != version:  # it waited behind other hints and the play moved on: spare the search
                raise TableError(N_("the play moved on while your hint waited; ask again"))
            if table.web.name != "barbu":  # another game: its strongest computer player's choice, without words
                action = await asyncio.to_thread(table.web.agent(HINT_STRENGTH, version).act, view)
                conn.send(dumps({"type": "hint", "version": version, "action": str(action), "text": str(action),
                                 "reason": say(conn.lang, N_("what the strongest computer player would do here"))}))
                return
            highest_wins = table.match.rules.family_spec.highest_wins
            h = await asyncio.to_thread(hint, view, hint_label, None, 60, 1.5, highest_wins)
    finally:
        busy.discard(conn)
    tr = translator(conn.lang)
    label = tr.card if isinstance(h.action, int) and not isinstance(h.action, bool) else str
    conn.send(dumps({"type": "hint", "version": version, "action": label(h.action), "text": action_text(h.action),
                     "reason": hint_reason(h, conn.lang, len(view.legal) == 1, highest_wins)}))


def action_text(action: Any) -> str:
    return str(CARDS[action]) if isinstance(action, int) and not isinstance(action, bool) else str(action)


async def serve_connection(ws: WebSocket, conn: WsConn, table: Table, settings: Settings) -> None:
    """Read one connection's messages until it closes or is cut off."""
    limit = RateLimit(settings.burst, settings.rate)
    hints: set = set()
    joined = False
    while True:
        try:
            timeout = None if joined else settings.hello_timeout
            message = await asyncio.wait_for(ws.receive(), timeout)
        except asyncio.TimeoutError:
            _reply_error(conn, "no_hello", N_("say hello first"))
            conn.close(1008, "no hello")
            return
        except (WebSocketDisconnect, RuntimeError):
            return
        if message["type"] == "websocket.disconnect":
            return
        if conn.closing or ws.application_state == WebSocketState.DISCONNECTED:
            return
        if not limit.allow():
            _reply_error(conn, "flood", N_("too many messages: disconnected"))
            conn.close(1008, "too many messages")
            return
        text = message.get("text")
        if text is None:
            _reply_error(conn, "bad_message", N_("send JSON text, not binary frames"))
            continue
        size = len(text.encode("utf-8"))
        if size > settings.max_message:
            _reply_error(conn, "too_large", N_("the message is {size} bytes; the limit is {limit}"), size=size,
                         limit=settings.max_message)
            continue
        try:
            msg = safejson.loads(text)
        except safejson.JsonError as e:  # a lone surrogate included: refused here, before anything echoes it
            conn.send(dumps({"type": "error", "code": "bad_json", "message": word(e, conn.lang)}))
            continue
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            _reply_error(conn, "bad_message", N_("a message is a JSON object with a \"type\""))
            continue
        kind = msg["type"]
        try:
            if kind == "hello":
                if joined:
                    _reply_error(conn, "bad_message", N_("you already said hello"))
                    continue
                joined = True
                if chosen(msg.get("lang") if isinstance(msg.get("lang"), str) else None):
                    conn.lang = chosen(msg["lang"]) or conn.lang
                await table.call(table.join, conn, msg.get("token"), msg.get("since"))
            elif not joined:
                _reply_error(conn, "no_hello", N_("say hello first: {hello}"), hello='{"type": "hello"}')
            elif kind == "act":
                await table.call(table.act, conn, msg)
            elif kind == "sync":
                await table.call(table.sync, conn, msg.get("since"))
            elif kind == "ping":
                conn.send(dumps({"type": "pong", "version": table.version}))
            elif kind == "leave":
                await table.call(table.leave_seat, conn)
            elif kind == "rematch":
                await table.call(table.rematch, conn)
            elif kind == "back":  # the stand-in played for him when his time ran out: he plays again
                await table.call(table.come_back, conn)
            elif kind == "take_back":
                undone = await table.call(table.take_back, conn)
                conn.send(dumps({"type": "taken_back", "moves": undone}))
            elif kind == "hint":
                await send_hint(conn, table, hints)
            else:
                shown = kind[:40] if kind.isascii() and kind.isprintable() else "…"  # never echo odd text back
                _reply_error(conn, "unknown_type", N_("unknown message type '{kind}'"), kind=shown)
        except BarbuError as e:  # TableError included: worded in the connection's language
            conn.send(dumps({"type": "error", "code": "refused", **error_json(e, conn.lang, "message")}))
        except Exception:  # a bug: say so, keep the connection and the table
            log.exception("table %s: a %r message failed", table.id, kind[:40])
            _reply_error(conn, "internal", N_("the server could not handle that message"))


def client_address(conn: Request | WebSocket) -> str:
    """The client's address, for the per-address limits: the peer's own, or the X-Forwarded-For client of a
    proxy the operator named with ``--forwarded-allow-ips`` (uvicorn believes no other)."""
    return conn.client.host if conn.client else "unknown"


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


def _reply_error(conn: WsConn, code: str, template: str, **fields: Any) -> None:
    """The server's own message ``template`` (marked N_) in the connection's language."""
    conn.send(dumps({"type": "error", "code": code, "message": say(conn.lang, template, **fields)}))
