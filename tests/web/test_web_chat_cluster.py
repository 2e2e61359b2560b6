"""The table's chat with two `barbu serve --broker` processes on one PostgreSQL and one Redis: a player whose
connection reached the process that does not own the table (relayed over the broker) chats with the owner's
players, a spectator's words on the relaying process stay in the spectators' room, and a moderator's removal made
through the relaying process reaches the owner, which sends the chat anew without it."""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import Any

import httpx2 as httpx
import pytest
from conftest import postgres_url, redis_url, reset_postgres
from test_web_cluster import processes, running
from websockets.asyncio.client import ClientConnection, connect

from barbu.cli.main import main as barbu

pytestmark = pytest.mark.slow
PASSWORD = "Quiet lanterns 7 over the moor"


async def hello(server: Any, tid: str, token: str | None = None, cookie: str | None = None) -> ClientConnection:
    headers = {"cookie": f"barbu_session={cookie}"} if cookie else None
    ws = await connect(f"{server.ws_base}/ws/{tid}", origin=server.base, additional_headers=headers)
    await ws.send(json.dumps({"type": "hello", **({"token": token} if token else {})}))
    await until(ws, lambda m: m["type"] in ("sync", "catch_up", "in_sync"))
    return ws


async def until(ws: ClientConnection, pred: Any) -> dict[str, Any]:
    while True:
        m = json.loads(await asyncio.wait_for(ws.recv(), 60))
        if pred(m):
            return m


async def chats_until_synced(ws: ClientConnection) -> list[dict[str, Any]]:
    await ws.send(json.dumps({"type": "sync"}))
    seen = []
    while True:
        m = json.loads(await asyncio.wait_for(ws.recv(), 60))
        if m["type"] == "chat":
            seen.append(m)
        if m["type"] in ("sync", "catch_up", "in_sync"):
            return seen


def test_a_relayed_players_message_reaches_the_owners_players(serve: Any) -> None:
    db, broker = postgres_url(), redis_url()
    reset_postgres(db)
    with running(processes(serve, db, broker, 2)) as (owner, other):
        r = httpx.post(f"{owner.base}/api/tables", json={"rules": "classic"}, timeout=60)
        assert r.status_code == 201, r.text
        tid, creator = r.json()["id"], r.json()["creator"]
        tokens = {}
        for seat in (0, 1):
            r = httpx.post(f"{owner.base}/api/tables/{tid}/seats", json={"seat": seat, "name": f"P{seat}"}, timeout=60)
            tokens[seat] = r.json()["token"]
        for seat in (2, 3):
            body = {"seat": seat, "strength": "random", "token": creator}
            assert httpx.post(f"{owner.base}/api/tables/{tid}/bots", json=body, timeout=60).status_code == 200
        name = f"Vera{secrets.token_hex(2)}"
        r = httpx.post(f"{other.base}/api/account/signup", json={"name": name, "password": PASSWORD}, timeout=60)
        assert r.status_code == 201, r.text
        session = r.cookies["barbu_session"]
        mona = f"Mona{secrets.token_hex(2)}"
        r = httpx.post(f"{other.base}/api/account/signup", json={"name": mona, "password": PASSWORD}, timeout=60)
        mod = r.cookies["barbu_session"]
        assert barbu(["users", "--db", db, "role", mona, "moderator"]) == 0

        async def talk() -> None:
            here = await hello(owner, tid, tokens[0])
            relayed = await hello(other, tid, tokens[1])  # the table is the owner's: this one is relayed
            watcher = await hello(other, tid, cookie=session)
            cid = secrets.token_hex(4)
            await relayed.send(json.dumps({"type": "chat", "id": cid, "phrase": "gg"}))
            ack = await until(relayed, lambda m: m.get("id") == cid)
            assert ack["type"] == "ack", ack
            m = await until(here, lambda m: m["type"] == "chat")
            assert (m["seq"], m["room"], m["from"], m["phrase"]) == (ack["seq"], "players", "P1", "gg")
            cid = secrets.token_hex(4)
            await watcher.send(json.dumps({"type": "chat", "id": cid, "text": "<b>go</b>"}))
            said = await until(watcher, lambda m: m.get("id") == cid)
            assert said["type"] == "ack", said
            heard = await until(watcher, lambda m: m["type"] == "chat" and m["seq"] == said["seq"])
            assert heard["text"] == "<b>go</b>" and heard["from"] == name and heard["room"] == "spectators"
            for ws in (here, relayed):  # the spectators' room is never sent to a player during the match
                assert [m for m in await chats_until_synced(ws) if m["room"] != "players"] == []
            # a moderator removes it through the process that does not own the table: the owner sends the chat anew
            async with httpx.AsyncClient(base_url=other.base, timeout=60, cookies={"barbu_session": mod}) as c:
                body = {"action": "remove", "kind": "message", "target": str(said["seq"]), "reason": "a test"}
                r = await c.post("/api/moderation/act", json=body)
                assert r.status_code == 200, r.text
            log = await until(watcher, lambda m: m["type"] == "chat_log")
            assert said["seq"] not in [m["seq"] for m in log["messages"]]
            for ws in (here, relayed, watcher):
                await ws.close()

        asyncio.run(talk())
