"""The server's log: plain lines for a person at a terminal, or one JSON object a line for a log collector.

``barbu serve --log-format json`` writes every record (the server's, uvicorn's, the database's) as one
JSON object on a line, made by python-json-logger: ``time`` (ISO 8601, UTC), ``level``, ``logger`` and
``message``, then the context that exists: ``node`` (this process's name among the server's, with
``--broker``), ``table`` (the table whose actor logged it), a traceback as ``exc_info``, and for each HTTP
request and WebSocket handshake (logger ``barbu.access``) its ``method``, ``route`` (the route's pattern,
``/api/tables/{table_id}``, never the path a client sent: a path may hold a user name or a link's secret),
``status`` and ``ms``.  No client address is written: uvicorn's own access lines (which carry the address
and the raw path) are replaced by `AccessLog` in this format.
"""

from __future__ import annotations

import contextvars
import logging
import sys
import time
from typing import Any

#: The table whose actor is running (set for each table's task, `barbu.web.tables.core`): logged as ``table``.
TABLE: contextvars.ContextVar[str | None] = contextvars.ContextVar("barbu_table", default=None)

FORMATS = ("text", "json")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

_node: str | None = None


def set_node(node: str | None) -> None:
    """This process's name among the server's processes, written on each JSON line."""
    global _node
    _node = node


def table_context(table_id: str) -> contextvars.Context:
    """A context for a table's task, in which its log lines carry its id."""
    ctx = contextvars.copy_context()
    ctx.run(TABLE.set, table_id)
    return ctx


class Context(logging.Filter):
    """Adds the context that exists to each record: the process's node, the table being played."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.__dict__.pop("color_message", None)  # uvicorn's copy of the message for a terminal
        if _node is not None and not hasattr(record, "node"):
            record.node = _node
        table = TABLE.get()
        if table is not None and not hasattr(record, "table"):
            record.table = table
        return True


class NoClientLines(logging.Filter):
    """uvicorn's lines that begin with the client's address (a WebSocket accepted or refused): `AccessLog`
    writes them instead, without the address."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (isinstance(record.msg, str) and record.msg.startswith('%s - "'))


def json_handler(stream: Any = None) -> logging.Handler:
    from pythonjsonlogger.json import JsonFormatter

    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(
        JsonFormatter(
            "{levelname}{name}{message}",
            style="{",
            rename_fields={"levelname": "level", "name": "logger"},
            timestamp="time",
            json_ensure_ascii=False,
        )
    )
    handler.addFilter(Context())
    handler.addFilter(NoClientLines())
    return handler


def configure(log_level: str = "info", fmt: str = "text") -> None:
    """The root logger's one handler, in ``fmt`` ("text" or "json"), at ``log_level``."""
    level = getattr(logging, log_level.upper(), logging.INFO)
    root = logging.getLogger()
    if fmt == "json":
        for h in list(root.handlers):
            if isinstance(h, logging.StreamHandler):
                root.removeHandler(h)
        root.addHandler(json_handler())
        root.setLevel(level)
    else:
        logging.basicConfig(level=level, format=TEXT_FORMAT)
    logging.getLogger("alembic").setLevel(logging.WARNING)


def uvicorn_log_config(fmt: str) -> dict[str, Any] | None:
    """uvicorn's own logging setup: its usual one for text, none for JSON (its loggers then reach the root's
    JSON handler; its access lines are `AccessLog`'s)."""
    if fmt != "json":
        from uvicorn.config import LOGGING_CONFIG

        return LOGGING_CONFIG
    return None


access_log = logging.getLogger("barbu.access")


class AccessLog:
    """One line per HTTP request and WebSocket handshake, by route pattern (in the JSON format)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    @property
    def state(self) -> Any:
        """The application's state, as the server reads it (``state.draining``)."""
        return self.app.state

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        said: list[int] = []  # the status, once said (a WebSocket's at its handshake, not when it closes)

        def say(code: int) -> None:
            said.append(code)
            route = getattr(scope.get("route"), "path", None) or "unmatched"
            method = scope.get("method", "GET") if scope["type"] == "http" else "WEBSOCKET"
            ms = round((time.perf_counter() - start) * 1000, 1)
            extra = {"method": method, "route": route, "status": code, "ms": ms}
            access_log.info("%s %s %d", method, route, code, extra=extra)

        async def watch(message: Any) -> None:
            kind = message["type"]
            if not said:
                if kind == "http.response.start" or kind == "websocket.http.response.start":
                    say(int(message["status"]))
                elif kind == "websocket.accept":
                    say(101)
                elif kind == "websocket.close":
                    say(403)
            await send(message)

        try:
            await self.app(scope, receive, watch)
        finally:
            if not said:  # nothing was sent: the connection went away, or an error uvicorn answers with a 500
                say(500 if scope["type"] == "http" else 1006)
