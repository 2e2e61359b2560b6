"""Three server processes behind nginx (the repository's deploy/nginx-barbu.conf), four browsers.

Two browsers share a table with two computer players, two play against the computer each, and three tables of
computer players alone play six deals each; every page and request goes through nginx, round robin, so each browser's WebSocket and requests land on any process.
Mid-deal one process is killed with SIGKILL: every browser reconnects through nginx and plays on, every
table goes on past the kill (the computers' tables to their end), and the journal holds each table's moves in order, no table ever advanced by
two processes (the lease epoch never goes down along a log).
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any, Callable

import pytest
from conftest import postgres_url, redis_url, reset_postgres
from playwright.sync_api import Page
from test_web_browser import attr, new_page, play_one
from webhelpers import Nginx, http

from barbu.web.db.storage import Store

pytestmark = pytest.mark.browser

FAST = (
    "--bot-delay",
    "0.03",
    "--deal-pause",
    "0",
    "--grace",
    "1000",
    "--lease",
    "2",
    "--forwarded-allow-ips",
    "127.0.0.1",
    "--tables-per-hour",
    "0",
    "--seats-per-address",
    "0",
    "--open-tables-per-address",
    "0",
    "--bot-tables-per-address",
    "0",
    "--connections-per-address",
    "0",
)


def table_of(page: Page) -> str:
    return page.url.rsplit("/", 1)[1].split("#")[0]


def play(pages: list[Page], moves: int, rng: random.Random) -> None:
    """Each page takes at least ``moves`` decisions at its turns, the pages in turn.  A page that has taken its
    own goes on playing at its turns while another has not: at a shared table the other waits for it (left
    alone, it waited minutes for a computer to stand in)."""
    done = {id(p): 0 for p in pages}
    deadline = time.monotonic() + 240
    while any(n < moves for n in done.values()):
        assert time.monotonic() < deadline, f"play stalled: {done}"
        progressed = False
        for p in pages:
            if p.get_attribute("#turn", "data-mine") == "1" and p.query_selector(
                "#hand .card[data-legal='1'], #decision button[data-action]:not([disabled])"
            ):
                play_one(p, rng)
                done[id(p)] += 1
                progressed = True
        if not progressed:
            time.sleep(0.1)


@pytest.mark.slow
def test_three_processes_behind_nginx_lose_one_and_four_browsers_play_on(
    person: Callable[..., Page], serve: Any, tmp_path: Path
) -> None:
    db = postgres_url()
    reset_postgres(db)
    broker = redis_url()
    servers = [serve("--broker", broker, *FAST, db=db) for _ in range(3)]
    lb = Nginx(servers, tmp_path).start()
    try:
        rng = random.Random(7)
        pages = [new_page(person) for _ in range(4)]
        # Two people at one table with two computer players, made and seated through the page.
        status, data = http("POST", lb.base + "/api/tables", {"rules": "classic"})
        assert status == 201, data
        shared, creator = data["id"], data["creator"]
        for seat in (2, 3):
            status, body = http(
                "POST", f"{lb.base}/api/tables/{shared}/bots", {"seat": seat, "strength": "random", "token": creator}
            )
            assert status == 200, body
        for seat, p in enumerate(pages[:2]):
            p.goto(f"{lb.base}/t/{shared}")
            p.fill("#name", f"Player {seat + 1}")
            p.click(f"[data-seat-take='{seat}']")
            p.wait_for_function("s => document.querySelector('#table').dataset.seat === s", arg=str(seat))
        for p in pages[2:]:  # and two against the computer, from the lobby
            p.goto(lb.base + "/")
            p.locator("#play-strength").wait_for()
            p.locator("#play-strength").select_option("random")
            p.click("#play-computer")
            p.wait_for_url("**/t/*")
            p.wait_for_function("() => document.querySelector('#table').dataset.seat === '0'")
        tables = {shared} | {table_of(p) for p in pages[2:]}
        assert len(tables) == 3
        robots = set()  # and tables of computer players alone, playing six deals to the end meanwhile
        for _ in range(3):
            status, data = http("POST", lb.base + "/api/tables", {"rules": "italian-six"})
            assert status == 201, data
            for seat in range(4):
                status, body = http(
                    "POST",
                    f"{lb.base}/api/tables/{data['id']}/bots",
                    {"seat": seat, "strength": "random", "token": data["creator"]},
                )
                assert status == 200, body
            robots.add(data["id"])
        play(pages, 4, rng)
        owners = {s.port: http("GET", s.base + "/api/health")[1]["process"]["leases"] for s in servers}
        victim = max(servers, key=lambda s: owners[s.port])
        assert owners[victim.port] >= 1
        before = {p.url: int(attr(p, "version")) for p in pages}
        victim.kill9()  # mid-deal
        play(pages, 4, rng)  # each browser reconnects through nginx and plays on
        for p in pages:
            assert int(attr(p, "version")) > before[p.url]
            assert not p.errors, p.errors
        deadline = time.monotonic() + 180
        for tid in robots:  # every table of computer players finishes, the lost process's ones included
            # (503: its owner was just lost and the request found nobody to answer it yet; it is asked again)
            while (got := http("GET", f"{lb.base}/api/tables/{tid}"))[1].get("table", {}).get("status") != "over":
                assert got[0] in (200, 503), got
                assert time.monotonic() < deadline, f"table {tid} did not finish"
                time.sleep(0.5)
        tables |= robots
        store = Store(db, run_migrations=False)
        try:
            moved = 0
            for tid in tables:
                events, epochs = store.events(tid), store.epochs(tid)
                assert [e[0] for e in events] == list(range(len(events)))
                assert epochs == sorted(epochs) and None not in epochs
                moved += len(set(epochs)) > 1
            assert moved >= owners[victim.port], "the lost process's tables were not taken over"
        finally:
            store.close()
        for s in servers:
            if s is not victim:
                assert "Traceback" not in s.log(), s.log()[-3000:]
    finally:
        lb.stop()
