"""The HTTP connections uvicorn accepts, bounded: a time limit on each request's head, a cap per address,
and client mistakes logged in one line.

uvicorn bounds an idle keep-alive connection (``timeout_keep_alive``) but not one that sends a
request's head a byte at a time, nor one that connects and says nothing: 200 such connections stayed
open for minutes, each holding a file descriptor.  `guarded_protocol` makes a subclass of uvicorn's
own HTTP protocol (passed as ``Config(http=…)``) that

- closes a connection whose next request head is not complete within ``Settings.header_timeout``
  seconds of connecting, of the previous response or of the request's first byte (a half-sent head
  gets 408 first);
- refuses, with 429, a connection from an address that already holds
  ``Settings.http_connections_per_address`` open HTTP connections (a proxy the operator named with
  ``--forwarded-allow-ips`` is not capped: every client comes through it).  A connection upgraded to a
  WebSocket leaves this count; the lobby's ``connections_per_address`` caps those.

`OneLineClientErrors` is a logging filter for uvicorn's logger: what a client alone caused (a
WebSocket text frame that is not UTF-8, a client gone mid-body) is one line, never a traceback.
"""

from __future__ import annotations

import ipaddress
import logging
from collections import Counter
from typing import Any, Iterable

from starlette.requests import ClientDisconnect
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .common.settings import Settings

log = logging.getLogger("barbu.web")

#: Exceptions uvicorn logs with a traceback that only a client's bytes or departure cause, and what they mean.
CLIENT_FAULTS: tuple[tuple[type[BaseException], str], ...] = (
    (UnicodeDecodeError, "a client sent text that is not UTF-8"),
    (ClientDisconnect, "the client left before its request's body arrived"),
)


def _response(status: bytes, text: bytes) -> bytes:
    return (
        b"HTTP/1.1 "
        + status
        + b"\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: "
        + str(len(text)).encode()
        + b"\r\nconnection: close\r\n\r\n"
        + text
    )


TOO_SLOW = _response(b"408 Request Timeout", b"the request's head did not arrive in time\n")
TOO_MANY = _response(b"429 Too Many Requests", b"too many connections from your address\n")


class TrustedProxies:
    """The addresses the operator named as proxies (``--forwarded-allow-ips``): IPs, networks, or "*"."""

    def __init__(self, spec: Iterable[str]) -> None:
        items = [s.strip() for s in spec if s.strip()]
        self.everyone = "*" in items
        self.networks = [ipaddress.ip_network(s, strict=False) for s in items if s != "*"]

    def __contains__(self, host: str | None) -> bool:
        if self.everyone:
            return True
        try:
            ip = ipaddress.ip_address(host or "")
        except ValueError:
            return False
        return any(ip in net for net in self.networks)


def parse_proxies(text: str) -> tuple[str, ...]:
    """``--forwarded-allow-ips`` as a tuple: comma-separated IPs or networks, or "*"; ValueError names a bad one."""
    items = tuple(s.strip() for s in text.split(",") if s.strip())
    for s in items:
        if s != "*":
            try:
                ipaddress.ip_network(s, strict=False)
            except ValueError:
                raise ValueError(s) from None
    return items


def guarded_protocol(settings: Settings) -> type[HttpToolsProtocol]:
    """uvicorn's HTTP protocol with a request-head timeout and a per-address cap (one count per server)."""
    open_by_address: Counter[str] = Counter()
    capped: set[str] = set()  # addresses told of in the log since they reached the cap
    proxies = TrustedProxies(settings.forwarded_allow_ips)
    cap, head_limit = settings.http_connections_per_address, settings.header_timeout

    class GuardedHttp(HttpToolsProtocol):
        counted: str | None = None
        in_head = False
        head_timer: Any = None

        def connection_made(self, transport: Any) -> None:  # type: ignore[override]
            super().connection_made(transport)
            host = self.client[0] if self.client else None
            if host is not None and host not in proxies:
                if cap and open_by_address[host] >= cap:
                    if host not in capped:  # one line when an address reaches the cap, not one per connection
                        capped.add(host)
                        log.info("refusing connections from %s: %d open HTTP connections already", host, cap)
                    transport.write(TOO_MANY)
                    transport.close()
                    return
                open_by_address[host] += 1
                self.counted = host
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            self._uncount()
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self.in_head = True
            self._arm()

        def on_headers_complete(self) -> None:
            self.in_head = False
            self._disarm()
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and not self.pipeline and not self.in_head:
                self._arm()  # the next request's head, if any, has the same time

        def handle_websocket_upgrade(self) -> None:
            self._disarm()
            self._uncount()  # now a WebSocket, counted by the lobby
            super().handle_websocket_upgrade()

        def _arm(self) -> None:
            self._disarm()
            if head_limit > 0:
                self.head_timer = self.loop.call_later(head_limit, self._too_slow)

        def _disarm(self) -> None:
            if self.head_timer is not None:
                self.head_timer.cancel()
                self.head_timer = None

        def _uncount(self) -> None:
            if self.counted is not None:
                open_by_address[self.counted] -= 1
                if open_by_address[self.counted] <= 0:
                    del open_by_address[self.counted]
                    capped.discard(self.counted)
                self.counted = None

        def _too_slow(self) -> None:
            self.head_timer = None
            if self.transport.is_closing():
                return
            if self.in_head:  # a half-sent head is told why; a silent connection is just closed
                self.transport.write(TOO_SLOW)
            self.transport.close()

    GuardedHttp.open_by_address = open_by_address  # type: ignore[attr-defined]  # for the tests
    return GuardedHttp


class OneLineClientErrors(logging.Filter):
    """A record uvicorn logs with a traceback for something only the client did becomes one warning line."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        reason = next((why for kind, why in CLIENT_FAULTS if isinstance(exc, kind)), None)
        if reason is not None:
            record.msg, record.args = f"{record.getMessage().strip()} ({reason})", None
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def quiet_client_errors(loggers: Iterable[str] = ("uvicorn.error", "uvicorn")) -> None:
    """Install `OneLineClientErrors` on uvicorn's loggers (once)."""
    for name in loggers:
        logger = logging.getLogger(name)
        if not any(isinstance(f, OneLineClientErrors) for f in logger.filters):
            logger.addFilter(OneLineClientErrors())
