"""Presence and the account channel with two `barbu serve --broker` processes on one PostgreSQL and one Redis: a
follower whose page is on one process is told, live, that the player he follows opened a page on the other, sat
down at a table there (playing, with its watch link) and closed it; his friends list read on either process says
the same; a message sent to an account from the process that holds none of its pages reaches them; a block made
on one process refuses a seat at the other's table."""

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

pytestmark = pytest.mark.slow
PASSWORD = "Quiet lanterns 7 over the moor"


def signup(server: Any, stem: str) -> tuple[str, str]:
    name = f"{stem}{secrets.token_hex(2)}"
    r = httpx.post(f"{server.base}/api/account/signup", json={"name": name, "password": PASSWORD}, timeout=60)
    assert r.status_code == 201, r.text
    return name, r.cookies["barbu_session"]


def post(server: Any, path: str, sid: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(
        f"{server.base}{path}", json=body, headers={"cookie": f"barbu_session={sid}", "origin": server.base}, timeout=60
    )


def friends(server: Any, sid: str) -> list[dict[str, Any]]:
    r = httpx.get(f"{server.base}/api/friends", headers={"cookie": f"barbu_session={sid}"}, timeout=60)
    assert r.status_code == 200, r.text
    found: list[dict[str, Any]] = r.json()["following"]
    return found


async def me(server: Any, sid: str) -> ClientConnection:
    ws = await connect(
        f"{server.ws_base}/ws/me", origin=server.base, additional_headers={"cookie": f"barbu_session={sid}"}
    )
    assert json.loads(await asyncio.wait_for(ws.recv(), 60))["type"] == "welcome"
    return ws


async def until(ws: ClientConnection, pred: Any) -> dict[str, Any]:
    while True:
        m = json.loads(await asyncio.wait_for(ws.recv(), 60))
        if pred(m):
            return m


def test_presence_and_the_channel_across_two_processes(serve: Any) -> None:
    db, broker = postgres_url(), redis_url()
    reset_postgres(db)
    with running(processes(serve, db, broker, 2)) as (one, two):
        ann, sa = signup(one, "Ann")
        bob, sb = signup(two, "Bob")
        assert post(one, "/api/friends/follow", sa, {"name": bob}).status_code == 200

        async def live() -> str:
            follower = await me(one, sa)  # Ann's page on process one
            player = await me(two, sb)  # Bob's on process two
            told = await until(follower, lambda m: m["type"] == "presence")
            assert told == {"type": "presence", "name": bob, "state": "online", "watch": None}
            assert friends(one, sa)[0]["state"] == "online" and friends(two, sa)[0]["state"] == "online"
            r = httpx.post(f"{two.base}/api/tables", json={"rules": "classic"}, timeout=60)
            tid = r.json()["id"]
            assert post(two, f"/api/tables/{tid}/seats", sb, {"seat": 0}).status_code == 200
            told = await until(follower, lambda m: m["type"] == "presence")
            assert told == {"type": "presence", "name": bob, "state": "playing", "watch": f"/t/{tid}"}
            assert friends(one, sa)[0]["watch"] == f"/t/{tid}"
            await player.send(json.dumps({"type": "away"}))  # playing wins over away
            await player.close()
            told = await until(follower, lambda m: m["type"] == "presence")
            assert told["state"] == "offline"
            await follower.close()
            return tid

        tid = asyncio.run(live())
        # a block made on process one refuses Ann a seat at the table process two plays
        assert post(one, "/api/blocks/block", sb, {"name": ann}).status_code == 200
        refused = post(one, f"/api/tables/{tid}/seats", sa, {"seat": 1})
        assert refused.status_code == 409 and refused.json()["code"] == "blocked-at-table", refused.text
