"""Challenges across two server processes on one PostgreSQL database and one broker: a burst of challenges from
one account spread over both meets the limit of open challenges exactly (each counted before the work in the
transaction that writes it), and a challenge made on one process is accepted on the other, its table made there
with both players seated."""

from __future__ import annotations

import secrets
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx2 as httpx
import pytest
from conftest import postgres_url, redis_url, reset_postgres
from test_web_cluster import processes, running

from barbu.web.challenges.service import OPEN_MAX

pytestmark = pytest.mark.slow
PASSWORD = "Quiet lanterns 7 over the moor"


def signup(base: str, stem: str) -> tuple[str, str]:
    name = f"{stem}{secrets.token_hex(2)}"
    r = httpx.post(f"{base}/api/account/signup", json={"name": name, "password": PASSWORD}, timeout=60)
    assert r.status_code == 201, r.text
    return name, r.cookies["barbu_session"]


def post(base: str, path: str, sid: str, body: dict[str, Any] | None = None) -> Any:
    headers = {"origin": base, "cookie": f"barbu_session={sid}"}
    return httpx.post(f"{base}{path}", json=body or {}, headers=headers, timeout=60)


def test_the_open_limit_holds_over_two_processes_and_one_accepts_on_the_other(serve: Any) -> None:
    db, broker = postgres_url(), redis_url()
    reset_postgres(db)
    with running(processes(serve, db, broker, 2, "--signups-per-hour", "0")) as (one, two):
        a, sa = signup(one.base, "Ann")
        b, sb = signup(two.base, "Bob")
        bases = [one.base, two.base] * 8

        def send(base: str) -> Any:
            return post(base, "/api/challenges", sa, {"players": [b], "rules": "besigue"})

        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(send, bases))
        codes = [r.json().get("code", "made") for r in answers]
        assert codes.count("made") == OPEN_MAX and codes.count("challenge-too-many-open") == 16 - OPEN_MAX, codes
        cid = next(r.json()["id"] for r in answers if r.status_code == 201)
        accepted = post(two.base, f"/api/challenges/{cid}/accept", sb).json()
        assert accepted["state"] == "accepted" and accepted["table"], accepted
        tid = accepted["table"].removeprefix("/t/")
        seats = httpx.get(f"{one.base}/api/tables/{tid}", timeout=60).json()["table"]["seats"]
        assert [s["name"] for s in seats] == [a, b]
        seen = httpx.get(f"{one.base}/api/challenges/{cid}", headers={"cookie": f"barbu_session={sa}"}, timeout=60)
        assert seen.json()["state"] == "accepted" and seen.json()["table"] == accepted["table"]
