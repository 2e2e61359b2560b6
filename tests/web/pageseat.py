"""A player that behaves like the page (static/js/net.js), for the kill -9 checks through nginx
(tests/web/test_web_commands_cluster.py, benchmarks/kill9.py --nginx), and what they check in the journal.

`PageSeat` keeps each command not answered yet and sends it again, with its id, after every welcome; it gives a
connection up when no welcome comes within `HANDSHAKE` seconds or when nothing (not even a beat) came for
`SILENCE` heartbeats, and reconnects after a back-off, as the page does.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.typing import Origin

from barbu.web.db.storage import Store

HANDSHAKE = 6.0  # seconds the page waits for a welcome (net.js)
SILENCE = 2.5  # heartbeats of silence after which the page reconnects (net.js)


class PageSeat:
    """One person as the page (net.js) plays: through ``base`` (nginx), hello with the seat's credential and the
    version it has seen; at each of its turns a random legal action, with a new id; every command not answered
    yet sent again after each welcome; a connection given up after `HANDSHAKE` seconds without a welcome or 2.5
    heartbeats without a word, then another one after a back-off.  ``hold``: it does not act while set (a person
    thinking).  It records every acknowledged move, every refusal, and when it saw each new version."""

    def __init__(self, base: str, tid: str, token: str, seed: int) -> None:
        self.base, self.tid, self.token = base, tid, token
        self.rng = random.Random(seed)
        self.pending: dict[str, dict[str, Any]] = {}  # id -> the command, until answered
        self.acked: list[tuple[int, str]] = []  # (the table's version after it, action)
        self.sent: set[tuple[int, str]] = set()
        self.refused: list[dict[str, Any]] = []
        self.seen: list[tuple[float, int]] = []  # (time.monotonic(), version) at each new version seen
        self.acked_at = 0.0
        self.version: int | None = None
        self.state: dict[str, Any] | None = None
        self.acted_for: int | None = None
        self.resent = 0  # commands sent again after a welcome
        self.duplicates = 0  # ... answered as already applied (by the process that applied it, or from the journal)
        self.welcomes: list[tuple[float, dict[str, Any]]] = []
        self.hold = False
        self.connections = 0

    def report(self) -> dict[str, Any]:
        """What this seat stands at, for a failing check."""
        st = self.state or {}
        return {
            "seat": st.get("seat"),
            "to_act": st.get("to_act"),
            "version": self.version,
            "legal": len(st.get("legal") or []),
            "pending": list(self.pending.values()),
            "refused": self.refused,
            "connections": self.connections,
            "welcomes": len(self.welcomes),
        }

    def answered(self, msg: dict[str, Any]) -> None:
        cmd = self.pending.get(msg.get("id", ""))
        if cmd is None:
            return
        if msg["type"] == "ack":
            self.duplicates += bool(msg.get("duplicate"))
            del self.pending[msg["id"]]
            self.acked.append((msg["version"], cmd["action"]))
            self.acked_at = time.monotonic()
        elif msg["type"] == "error" and msg.get("code") != "storage":  # storage: kept, sent again later
            del self.pending[msg["id"]]
            self.refused.append({"answer": msg, "command": cmd, "table": self.tid})

    async def query(self) -> str:
        """What the socket's address adds (the page's route, for a seat that asks it): nothing here."""
        return ""

    def opened(self, query: str) -> None:
        """A connection was opened with ``query``."""

    def reading(self, ws: Any) -> Any:
        """The connection as this seat reads it (the socket itself here)."""
        return ws

    async def play(self, stop: asyncio.Event, settle: float = 20.0) -> None:
        """Play until ``stop``; then only wait for the answers of the commands sent (at most ``settle`` s)."""
        delay = 0.5
        ws_base = "ws" + self.base.removeprefix("http")
        until: float | None = None
        while True:
            if stop.is_set():
                until = until or time.monotonic() + settle
                if not self.pending or time.monotonic() > until:
                    return
            query = await self.query()
            try:
                async with connect(
                    f"{ws_base}/ws/{self.tid}{query}", origin=Origin(self.base), open_timeout=HANDSHAKE, close_timeout=1
                ) as ws:
                    self.connections += 1
                    self.opened(query)
                    await ws.send(json.dumps({"type": "hello", "token": self.token, "since": self.version}))
                    await self._serve(self.reading(ws), stop, delay)
                    delay = 0.5
            except (TimeoutError, ConnectionClosed, OSError, InvalidHandshake):
                pass
            await asyncio.sleep(delay)
            delay = min(delay * 2, 8.0)

    async def _serve(self, ws: Any, stop: asyncio.Event, delay: float) -> None:
        timeout, welcomed = HANDSHAKE, False
        while True:
            if stop.is_set() and not self.pending:
                return
            raw = await asyncio.wait_for(ws.recv(), timeout if not stop.is_set() else min(timeout, 1.0))
            msg = json.loads(raw)
            if msg["type"] == "welcome":
                welcomed = True
                self.welcomes.append((time.monotonic(), msg))
                timeout = SILENCE * float(msg.get("heartbeat") or 15)
                for cmd in list(self.pending.values()):  # every command not answered yet, with its id
                    await ws.send(json.dumps(cmd))
                    self.resent += 1
            if not welcomed:
                continue
            if isinstance(msg.get("state"), dict):
                self.state = msg["state"]
                if self.version is None or self.state["version"] > self.version:
                    self.seen.append((time.monotonic(), self.state["version"]))
                self.version = self.state["version"]
            self.answered(msg)
            st = self.state  # decided on at any message (a beat included): a person who stopped thinking acts
            if (
                st is not None
                and st["to_act"] == st["seat"]
                and st["legal"]
                and self.acted_for != st["version"]
                and not self.pending
                and not self.hold
                and not stop.is_set()
            ):
                self.acted_for = st["version"]  # across reconnections: a version is decided once
                await asyncio.sleep(0.08)  # under the 15 messages a second a connection may send
                cmd = {"type": "act", "action": self.rng.choice(st["legal"]), "version": st["version"]}
                cmd["id"] = uuid.uuid4().hex
                self.pending[cmd["id"]] = cmd
                self.sent.add((st["version"] + 1, cmd["action"]))
                await ws.send(json.dumps(cmd))


def check_journal(db: str, seats: dict[str, list[PageSeat]]) -> dict[str, list[int | None]]:
    """Every acknowledged move stored once at its place, every stored person's move sent by him there, and the
    lease epoch never going down along each log; the epochs by table."""
    store = Store(db, run_migrations=False)
    try:
        epochs = {}
        for tid, clients in seats.items():
            events = store.events(tid)
            assert [e[0] for e in events] == list(range(len(events))), f"table {tid}: a gap or a repeat"
            for c in clients:
                for version, action in c.acked:
                    assert version <= len(events), f"table {tid}: acknowledged move {version} was lost"
                    assert events[version - 1][2] == action, f"table {tid}: move {version} is not {action}"
            sent = {m for c in clients for m in c.sent}
            ep = store.epochs(tid)
            known = [e for e in ep if e is not None]
            assert len(known) == len(ep) and known == sorted(known), f"table {tid} advanced by an older owner: {ep}"
            epochs[tid] = ep
            assert all((seq + 1, action) in sent for seq, actor, action in events if actor in range(len(clients))), (
                f"table {tid}: a person's move stored that nobody sent there"
            )
        return epochs
    finally:
        store.close()


def events(db: str, tid: str) -> list[tuple[int, int, str]]:
    store = Store(db, run_migrations=False)
    try:
        return store.events(tid)
    finally:
        store.close()


def owner_of(db: str, tid: str) -> str:
    from sqlalchemy import text

    store = Store(db, run_migrations=False)
    try:
        with store.engine.connect() as conn:
            return str(conn.execute(text("SELECT owner FROM barbu_leases WHERE table_id = :t"), {"t": tid}).scalar())
    finally:
        store.close()
