"""A club's chat room with two `barbu serve --broker` processes on one PostgreSQL and one Redis: two members, each
on his own process, read each other's messages at once (published on the broker), in order; a burst from one
account over both processes says exactly the rate limit's number (counted in the database, the account's row held);
a moderator's removal made on one process makes the other's pages read the room's log without it."""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import Any, Iterator

import httpx2 as httpx
import pytest
from conftest import postgres_url, redis_url, reset_postgres
from test_web_cluster import processes, running
from websockets.asyncio.client import ClientConnection, connect

from barbu.cli.main import main as barbu
from barbu.web.tables.chat import BURST

pytestmark = pytest.mark.slow
PASSWORD = "Quiet lanterns 7 over the moor"


@pytest.fixture(scope="module")
def pair(serve_module: Any) -> Iterator[tuple[Any, Any]]:
    db, broker = postgres_url(), redis_url()
    reset_postgres(db)
    with running(processes(serve_module, db, broker, 2, "--signups-per-hour", "0", "--clubs-per-day", "0")) as both:
        yield both[0], both[1]


def signup(server: Any, stem: str) -> tuple[str, str]:
    name = f"{stem}{secrets.token_hex(2)}"
    r = httpx.post(f"{server.base}/api/account/signup", json={"name": name, "password": PASSWORD}, timeout=60)
    assert r.status_code == 201, r.text
    return name, r.cookies["barbu_session"]


def post(server: Any, path: str, body: dict[str, Any], sid: str) -> Any:
    return httpx.post(f"{server.base}{path}", json=body, cookies={"barbu_session": sid}, timeout=60)


async def room(server: Any, slug: str, sid: str) -> ClientConnection:
    headers = {"cookie": f"barbu_session={sid}"}
    ws = await connect(f"{server.ws_base}/ws/room/club/{slug}", origin=server.base, additional_headers=headers)
    assert (await until(ws, lambda m: True))["type"] == "room_log"
    return ws


async def until(ws: ClientConnection, pred: Any) -> dict[str, Any]:
    while True:
        m = json.loads(await asyncio.wait_for(ws.recv(), 60))
        if pred(m):
            return dict(m)


async def say(ws: ClientConnection, **what: Any) -> str:
    cid = secrets.token_hex(4)
    await ws.send(json.dumps({"type": "chat", "id": cid, **what}))
    return cid


def test_members_on_two_processes_read_each_other_and_a_burst_over_both_holds_the_limit(pair: Any) -> None:
    one, two = pair
    (_, owner), (bea, b_sid), (mona, m_sid) = signup(one, "Olga"), signup(two, "Bea"), signup(one, "Mona")
    assert barbu(["users", "--db", one.db, "role", mona, "moderator"]) == 0
    slug = post(one, "/api/clubs", {"name": f"Jeudis {secrets.token_hex(3)}", "public": False}, owner).json()
    slug = slug["club"]["slug"]
    _, c_sid = signup(two, "Cleo")
    for sid in (b_sid, c_sid):
        key = post(one, f"/api/clubs/{slug}/invites", {"hours": 24}, owner).json()["key"]
        assert post(two, "/api/clubs/join", {"key": key}, sid).status_code == 200

    async def talk() -> None:
        o, b = await room(one, slug, owner), await room(two, slug, b_sid)
        cid = await say(b, phrase="gg")
        ack = await until(b, lambda m: m.get("id") == cid)
        heard = await until(o, lambda m: m["type"] == "chat")  # on the other process, through the broker
        assert (heard["seq"], heard["from"], heard["phrase"]) == (ack["seq"], bea, "gg")
        seqs = []
        for words in ("one", "two", "three"):
            cid = await say(o, text=words)
            seqs.append((await until(o, lambda m, c=cid: m.get("id") == c))["seq"])
        got = [(await until(b, lambda m: m["type"] == "chat" and m["seq"] != ack["seq"]))["seq"] for _ in seqs]
        assert got == seqs  # in order

        c1, c2 = await room(one, slug, c_sid), await room(two, slug, c_sid)  # one account on both: eight at once
        ids = [await say(ws, phrase="oops") for ws in (c1, c2) for _ in range(4)]
        answers = [await until(ws, lambda m, i=i: m.get("id") == i) for ws, i in zip([c1] * 4 + [c2] * 4, ids)]
        assert sorted(a["type"] for a in answers) == ["ack"] * BURST + ["error"] * (8 - BURST)
        assert {a["reason"] for a in answers if a["type"] == "error"} == {"chat-too-fast"}

        act = {"action": "remove", "kind": "message", "target": str(ack["seq"]), "reason": "a test"}
        async with httpx.AsyncClient(base_url=two.base, timeout=60, cookies={"barbu_session": m_sid}) as c:
            r = await c.post("/api/moderation/act", json=act)
            assert r.status_code == 200, r.text
        log = await until(o, lambda m: m["type"] == "room_log")  # told on the other process
        assert ack["seq"] not in [m["seq"] for m in log["messages"]] and seqs[0] in [m["seq"] for m in log["messages"]]
        for ws in (o, b, c1, c2):
            await ws.close()

    asyncio.run(talk())
