"""A small test client over Starlette's TestClient WebSocket session."""

from __future__ import annotations

import contextlib
import json
from typing import Any, Callable, Iterator

from starlette.testclient import TestClient

from barbu.web import Settings, create_app

ORIGIN = {"origin": "http://testserver"}
OPEN: list["Player"] = []


@contextlib.contextmanager
def app_client(settings: Settings) -> Iterator[TestClient]:
    """A TestClient of the app whose WebSocket sessions are all closed before it stops."""
    with TestClient(create_app(settings)) as c:
        try:
            yield c
        finally:
            for p in list(OPEN):
                p.close()


class Player:
    """One WebSocket connection: sends messages, keeps the last state it was sent."""

    def __init__(
        self,
        client: TestClient,
        table_id: str,
        token: str | None = None,
        since: int | None = None,
        hello: bool = True,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.cm = client.websocket_connect(f"/ws/{table_id}", headers=headers or ORIGIN)
        self.ws = self.cm.__enter__()
        OPEN.append(self)
        self.state: dict[str, Any] | None = None
        self.seat: int | None = None
        self.log: list[dict[str, Any]] = []
        if hello:
            msg: dict[str, Any] = {"type": "hello", "since": since}
            if token is not None:
                msg["token"] = token
            self.send(msg)
            welcome = self.until(lambda m: m["type"] == "welcome")
            self.seat = welcome["seat"]
            self.first = self.until(lambda m: m["type"] in ("sync", "catch_up", "in_sync"))

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send_text(json.dumps(msg))

    def recv(self) -> dict[str, Any]:
        m = json.loads(self.ws.receive_text())
        self.log.append(m)
        if "state" in m:
            self.state = m["state"]
        return m

    def until(self, pred: Callable[[dict[str, Any]], bool], limit: int = 100_000) -> dict[str, Any]:
        for _ in range(limit):
            m = self.recv()
            if pred(m):
                return m
        raise AssertionError("the expected message never came")

    def barrier(self) -> int:
        """Everything sent before this has been handled; returns the table's version."""
        self.send({"type": "ping"})
        return self.until(lambda m: m["type"] == "pong")["version"]

    def act(self, action: str, version: int | None = None, cid: str | None = None, **extra: Any) -> dict[str, Any]:
        msg = {
            "type": "act",
            "action": action,
            "version": self.state["version"] if version is None else version,
            **extra,
        }
        if cid is not None:
            msg["id"] = cid
        self.send(msg)
        return self.until(lambda m: m["type"] in ("ack", "error"))

    def close(self) -> None:
        if self in OPEN:
            OPEN.remove(self)
            try:
                self.cm.__exit__(None, None, None)
            except Exception:  # already closed by the server
                pass
