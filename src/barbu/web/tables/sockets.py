"""A table's WebSocket as the table sees it: the connection's queued writer, its rate limit, and the loop
that reads its messages (`serve_connection`).

The same loop serves a browser connected to this process and one connected to another process of a
many-process server, whose frames travel over the broker (`barbu.web.cluster.node.RemoteSocket`): what a
seat is sent does not depend on where its browser is connected.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from starlette.requests import Request
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ...agents import AGENT_KINDS
from ...agents.hint import hint, hint_label
from ...classic.ruleset import Ruleset
from ...core import safejson
from ...core.cards import CARDS
from ...core.errors import BarbuError
from ...core.words import N_
from ...i18n import translator
from ..common import metrics
from ..common.errors import WebError
from ..common.i18n import chosen
from ..common.mailbox import Mailbox
from ..common.settings import Settings
from ..common.wording import error_json, hint_reason, say, word
from .actor import Table, dumps
from .refusals import HINT_ON_ITS_WAY, HINT_STALE

log = logging.getLogger("barbu.web")
HINT_STRENGTH = AGENT_KINDS[-1]  # a hint is what the strongest computer player would do
OUTBOX_LIMIT = 500  # messages waiting for a slow client before it is cut off (it can resync)
BEAT = '{"type":"beat"}'  # sent on a table's connection that had nothing else for `Settings.heartbeat` seconds


class WsConn:
    """A WebSocket as a table sees it: sends are queued and written by one task, so a slow client
    never holds a table up; one that falls too far behind is cut off and resyncs when it returns."""

    def __init__(self, ws: WebSocket, lang: str = "en", user_id: int | None = None) -> None:
        self.ws = ws
        self.lang = lang  # what this connection reads: its page's language, or the one its hello names
        self.user_id = user_id  # the account logged in on the browser (its session cookie), None: a guest
        self.seat: int | None = None
        self.outbox: Mailbox[str | None] = Mailbox()  # None: close after what is queued before it
        self.closing: tuple[int, str] | None = None
        self.writer = asyncio.get_running_loop().create_task(self._write())
        self.sent = 0  # messages queued so far: the heartbeat sends a beat only when none went for a while
        self._beat: asyncio.TimerHandle | None = None

    def send(self, text: str) -> None:
        if self.closing:
            return
        if len(self.outbox) >= OUTBOX_LIMIT:
            self.close(1008, "too far behind")
            return
        self.sent += 1
        self.outbox.put(text)

    def close(self, code: int = 1000, reason: str = "") -> None:
        if not self.closing:
            self.closing = (code, reason)
            self.outbox.put(None)
            if self._beat is not None:
                self._beat.cancel()

    def heartbeat(self, every: float) -> None:
        """Send a beat whenever ``every`` seconds pass with nothing else sent, so the page can tell an idle table
        from a dead connection (a relay gone, a process hung): it reconnects after hearing nothing for a while.
        Only the table's own end beats (here, or the owner of a relayed connection): a relay never makes one up."""
        if every <= 0 or self.closing:
            return
        seen = self.sent

        def tick() -> None:
            if self.closing:
                return
            if self.sent == seen:
                self.send(BEAT)
            self.heartbeat(every)

        self._beat = asyncio.get_running_loop().call_later(every, tick)

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


# Hints search for up to 1.5 s on a core: `Settings.hints_at_once` at a time, through the lobby's
# `ThinkingPool.hints`, one per client address (its other hints wait behind it) and the slots taken in turns by
# address, so one client with many connections cannot keep another's hints waiting.


async def send_hint(conn: WsConn, table: Table, busy: set[WsConn]) -> None:
    """The strongest player's choice for this seat, from its own view only, computed off the table's actor."""
    if conn in busy:
        raise WebError(HINT_ON_ITS_WAY)
    view = await table.call(table.hint_view, conn)
    version = table.version
    busy.add(conn)
    slot = (
        table.thinking.hints.slot(client_address(conn.ws), id(conn))
        if table.thinking is not None
        else contextlib.nullcontext()
    )
    try:
        async with slot:
            if table.version != version:  # it waited behind other hints and the play moved on: spare the search
                raise WebError(HINT_STALE)
            if table.web.name != "barbu":  # another game: its strongest computer player's choice, without words
                action = await asyncio.to_thread(table.web.agent(HINT_STRENGTH, version).act, view)
                conn.send(
                    dumps(
                        {
                            "type": "hint",
                            "version": version,
                            "action": str(action),
                            "text": str(action),
                            "reason": say(conn.lang, N_("what the strongest computer player would do here")),
                        }
                    )
                )
                return
            rules = table.match.rules
            assert isinstance(rules, Ruleset)  # the Barbu family's
            highest_wins = rules.family_spec.highest_wins
            h = await asyncio.to_thread(hint, view, hint_label, None, 60, 1.5, highest_wins)
    finally:
        busy.discard(conn)
    tr = translator(conn.lang)
    label = tr.card if isinstance(h.action, int) and not isinstance(h.action, bool) else str
    conn.send(
        dumps(
            {
                "type": "hint",
                "version": version,
                "action": label(h.action),
                "text": action_text(h.action),
                "reason": hint_reason(h, conn.lang, len(view.legal) == 1, highest_wins),
            }
        )
    )


def action_text(action: Any) -> str:
    return str(CARDS[action]) if isinstance(action, int) and not isinstance(action, bool) else str(action)


async def serve_connection(ws: WebSocket, conn: WsConn, table: Table, settings: Settings) -> None:
    """Read one connection's messages until it closes or is cut off."""
    limit = RateLimit(settings.burst, settings.rate)
    hints: set[WsConn] = set()
    joined = False
    conn.heartbeat(settings.heartbeat)
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
        msg = _message(conn, message.get("text"), settings)
        if msg is None:
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
            else:
                await _command(conn, table, kind, msg, hints)
        except BarbuError as e:  # the web's refusals included: worded in the connection's language
            reply = refused(e, conn.lang)
            metrics.refused(str(reply.get("reason") or reply["code"]))
            conn.send(dumps(reply))
        except Exception:  # a bug: say so, keep the connection and the table
            log.exception("table %s: a %r message failed", table.id, kind[:40])
            _reply_error(conn, "internal", N_("the server could not handle that message"))


def _message(conn: WsConn, text: str | None, settings: Settings) -> dict[str, Any] | None:
    """A frame's text as a message (a JSON object with a "type"); None when it is not one, the sender told why."""
    if text is None:
        _reply_error(conn, "bad_message", N_("send JSON text, not binary frames"))
        return None
    size = len(text.encode("utf-8"))
    if size > settings.max_message:
        _reply_error(
            conn,
            "too_large",
            N_("the message is {size} bytes; the limit is {limit}"),
            size=size,
            limit=settings.max_message,
        )
        return None
    try:
        msg = safejson.loads(text)
    except safejson.JsonError as e:  # a lone surrogate included: refused here, before anything echoes it
        metrics.refused("bad_json")
        conn.send(dumps({"type": "error", "code": "bad_json", "message": word(e, conn.lang)}))
        return None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        _reply_error(conn, "bad_message", N_('a message is a JSON object with a "type"'))
        return None
    return msg


async def _command(conn: WsConn, table: Table, kind: str, msg: dict[str, Any], hints: set[WsConn]) -> None:
    """A message of a connection that said hello, run by the table (a hint beside it)."""
    if kind == "act":
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
    elif kind == "chat":  # a quick phrase or words for the connection's room (`barbu.web.tables.chat`)
        await table.call(table.chat.say, conn, msg)
    elif kind == "compare":  # the person's "Compare with the expert" box (web/tables/shadow.py)
        await table.call(table.shadow.switch, conn, msg.get("on"))
    else:
        shown = kind[:40] if kind.isascii() and kind.isprintable() else "…"  # never echo odd text back
        _reply_error(conn, "unknown_type", N_("unknown message type '{kind}'"), kind=shown)


def refused(e: BarbuError, lang: str) -> dict[str, Any]:
    """A refused message's reply: its words in ``lang``, and a coded refusal's code as ``reason`` (as an engine
    refusal in play has it), the message's own ``code`` staying "refused"."""
    if isinstance(e, WebError) and e.cause is None and e.code is not None:
        out: dict[str, Any] = {"type": "error", "code": "refused", "message": word(e, lang), "reason": e.code}
        return {**out, "params": e.fields} if e.fields else out
    return {"type": "error", "code": "refused", **error_json(e, lang, "message")}


def client_address(conn: Request | WebSocket) -> str:
    """The client's address, for the per-address limits: the peer's own, or the X-Forwarded-For client of a
    proxy the operator named with ``--forwarded-allow-ips`` (uvicorn believes no other)."""
    return conn.client.host if conn.client else "unknown"


def _reply_error(conn: WsConn, code: str, template: str, **fields: Any) -> None:
    """The server's own message ``template`` (marked N_) in the connection's language."""
    metrics.refused(code)
    conn.send(dumps({"type": "error", "code": code, "message": say(conn.lang, template, **fields)}))
