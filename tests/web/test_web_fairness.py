"""Fair shares of the machine: thinking, hints and analyses are taken in turns by client address.

The scheduler is tested with fake jobs (no timing: the order in which slots are
handed out); the table's notice, the hints and the analyses through the app.
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from wsclient import ORIGIN, Player, app_client

import barbu.web.replay.service as replay
import barbu.web.routes.tables as web_tables
import barbu.web.tables.sockets as web_sockets
from barbu.web import Settings
from barbu.web.replay.service import Analyses, Job, Source
from barbu.web.tables.thinking import THINK_FLOOR, FairQueue, FairSlots, ThinkingPool

FAST = dict(bot_delay=0.0, deal_pause=0.0, burst=10_000, rate=10_000.0)


# ------------------------------------------------------------------ the scheduler, with fake jobs
def test_the_queue_takes_addresses_in_turn_then_their_tables() -> None:
    q: FairQueue[str] = FairQueue()
    for table in ("a1", "a2", "a3"):  # one address with three tables, two moves waiting at each
        for n in (1, 2):
            q.push("A", table, f"{table}.{n}")
    q.push("B", "b1", "b1.1")
    q.push("C", "c1", "c1.1")
    q.push("B", "b1", "b1.2")
    order = []
    while (nxt := q.pop()) is not None:
        order.append(nxt[1])
    assert order == ["a1.1", "b1.1", "c1.1", "a2.1", "b1.2", "a3.1", "a1.2", "a2.2", "a3.2"]
    assert len(q) == 0 and q.groups() == set()


def test_a_group_that_returns_joins_the_back_of_the_turn() -> None:
    q: FairQueue[str] = FairQueue()
    for g in "ABC":
        q.push(g, 0, g)
    assert q.pop() == ("A", "A")
    q.push("A", 0, "A again")  # A's next move arrives: it waits for B and C
    assert [q.pop()[1] for _ in range(3)] == ["B", "C", "A again"]  # type: ignore[index]


def test_the_queue_skips_groups_that_hold_their_share_and_forgets_removed_items() -> None:
    q: FairQueue[str] = FairQueue()
    q.push("A", 1, "a")
    q.push("B", 1, "b")
    assert q.pop(lambda g: g != "A") == ("B", "b")
    assert q.remove("A", 1, "a") and not q.remove("A", 1, "a")
    assert q.pop() is None


async def _grants(slots: FairSlots, jobs: list[tuple[str, str]], release_order: list[str]) -> list[str]:
    """Start every job at once; each holds its slot until the test lets it go, in ``release_order``."""
    granted: list[str] = []
    gates = {name: asyncio.Event() for _, name in jobs}

    async def job(group: str, name: str) -> None:
        async with slots.slot(group, name):
            granted.append(name)
            await gates[name].wait()

    tasks = [asyncio.create_task(job(g, n)) for g, n in jobs]
    await asyncio.sleep(0)
    for name in release_order:
        while name not in granted:  # it must be granted before it can be let go
            await asyncio.sleep(0)
        gates[name].set()
    await asyncio.gather(*tasks)
    return granted


def test_slots_go_round_robin_between_addresses() -> None:
    slots = FairSlots(1)
    jobs = [("A", f"a{i}") for i in range(4)] + [("B", "b0"), ("B", "b1"), ("C", "c0")]
    granted = asyncio.run(_grants(slots, jobs, ["a0", "b0", "c0", "a1", "b1", "a2", "a3"]))
    assert granted == ["a0", "b0", "c0", "a1", "b1", "a2", "a3"]


def test_one_hint_per_address_the_others_wait_behind_it() -> None:
    """Two slots, one per address: a flood of one address's hints never takes the second slot."""

    async def run() -> list[str]:
        slots = FairSlots(2, per_group=1)
        jobs = [("flood", f"f{i}") for i in range(5)] + [("other", "o0")]
        return await _grants(slots, jobs, ["o0", "f0", "f1", "f2", "f3", "f4"])

    granted = asyncio.run(run())
    assert granted[:2] == ["f0", "o0"]  # the other client is served while the flooder's first hint runs
    assert granted == ["f0", "o0", "f1", "f2", "f3", "f4"]


def test_a_waiter_that_gives_up_holds_no_slot() -> None:
    async def run() -> int:
        slots = FairSlots(1)
        await slots.acquire("A", 1)
        waiter = asyncio.create_task(slots.acquire("B", 1))
        await asyncio.sleep(0)
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
        slots.release("A")
        await asyncio.wait_for(slots.acquire("C", 1), 10)
        return slots.held

    assert asyncio.run(run()) == 1


# ------------------------------------------------------------------ shorter thinking under overload
class FakeSearch:
    """A searching player that notes the think it was allowed (and a rule player of its own)."""

    def __init__(self) -> None:
        self.seconds = 0.9
        self.allowed: list[float] = []
        self.policy = FakeRule()

    def act(self, view: Any) -> str:
        self.allowed.append(self.seconds)
        return "searched"


class FakeRule:
    def act(self, view: Any) -> str:
        return "rule of thumb"


async def _think_among(others: int) -> Any:
    """The fake player's decision while ``others`` other addresses want the one worker too."""
    pool = ThinkingPool(Settings(thinking_workers=1, thinking_processes=False, bot_delay=0.8))
    agent = FakeSearch()
    if not others:
        return await pool.think(agent, None, "me", "my table"), agent
    await pool.bots.acquire("other 0", 0)  # the worker is busy: everyone below queues up
    mine = asyncio.create_task(pool.think(agent, None, "me", "my table"))
    await asyncio.sleep(0)
    waiting = [asyncio.create_task(pool.bots.acquire(f"other {i}", i)) for i in range(1, others)]
    await asyncio.sleep(0)
    pool.bots.release("other 0")  # "me" queued first: it goes first, with everyone else waiting
    thought = await mine
    for w in waiting:
        w.cancel()
    await asyncio.gather(*waiting, return_exceptions=True)
    return thought, agent


def test_an_overloaded_pool_thinks_less_and_says_so() -> None:
    alone, agent = asyncio.run(_think_among(0))
    assert alone.action == "searched" and not alone.hurried and agent.allowed == [0.9]
    busy, agent = asyncio.run(_think_among(3))  # four addresses on one worker: a quarter of the think each
    assert busy.action == "searched" and busy.hurried and agent.allowed == [pytest.approx(0.9 / 4)]
    assert agent.seconds == 0.9  # the player's own setting is given back
    swamped, agent = asyncio.run(_think_among(60))  # too short to search: its rule player answers
    assert 0.9 / 61 < THINK_FLOOR
    assert swamped.action == "rule of thumb" and swamped.hurried and agent.allowed == []


def test_the_table_is_told_when_its_computer_players_hurry(sqlite_url: str) -> None:
    """Other addresses keep the one worker busy: the table's search players think less, and the page says so
    in its reader's language; when the load goes, the page is told that too."""
    settings = Settings(db_url=sqlite_url, thinking_workers=1, thinking_processes=False, **FAST)
    with app_client(settings) as c:
        pool: ThinkingPool = c.app.state.lobby.thinking
        stop = threading.Event()

        async def load(i: int) -> None:
            while not stop.is_set():
                await pool.think(FakeSearch(), None, f"load {i}", i)
                await asyncio.sleep(0.01)

        for i in range(3):
            c.portal.start_task_soon(load, i)
        try:
            r = c.post("/api/tables", json={"rules": "classic"})
            tid, creator = r.json()["id"], r.json()["creator"]
            watcher = Player(c, tid, hello=False)
            watcher.send({"type": "hello", "lang": "fr"})
            for seat in range(4):
                assert (
                    c.post(
                        f"/api/tables/{tid}/bots", json={"seat": seat, "strength": "search", "token": creator}
                    ).status_code
                    == 200
                )
            busy = watcher.until(lambda m: m["type"] == "busy")
            assert busy["busy"] is True
            assert busy["message"] == (
                "le serveur est très sollicité\u00a0: les joueurs ordinateur réfléchissent plus vite pour le moment"
            )
        finally:
            stop.set()
        calm = watcher.until(lambda m: m["type"] == "busy")
        assert calm["busy"] is False and calm["message"].startswith("le serveur est moins sollicité")


# ------------------------------------------------------------------ hints, by address
def test_hints_of_one_address_wait_behind_each_other_while_another_is_served(sqlite_url: str, monkeypatch) -> None:
    started: list[str] = []
    gate = threading.Event()
    first_started = threading.Event()
    real_hint = web_sockets.hint

    def fake_hint(view, label, seed, samples, seconds, highest_wins):
        started.append(f"seat {view.seat}")
        if len(started) == 1:  # the flooder's first hint runs until the test lets it go
            first_started.set()
            assert gate.wait(60)
        return real_hint(view, label, seed, 4, 0.01, highest_wins)

    monkeypatch.setattr(web_sockets, "hint", fake_hint)
    for module in (web_tables, web_sockets):
        monkeypatch.setattr(module, "client_address", lambda conn: conn.headers.get("x-test-address", "testclient"))
    with app_client(Settings(db_url=sqlite_url, hints_at_once=2, **FAST)) as c:

        def seated(address: str) -> Player:
            r = c.post("/api/tables", json={"rules": "classic"})
            tid, creator = r.json()["id"], r.json()["creator"]
            token = c.post(f"/api/tables/{tid}/seats", json={"seat": 0, "name": "Ann"}).json()["token"]
            for seat in (1, 2, 3):
                c.post(f"/api/tables/{tid}/bots", json={"seat": seat, "strength": "random", "token": creator})
            p = Player(c, tid, token, headers={**ORIGIN, "x-test-address": address})
            if not (p.state and p.state["to_act"] == 0 and p.state["legal"]):
                p.until(lambda m: m.get("state") is not None and m["state"]["to_act"] == 0 and m["state"]["legal"])
            return p

        flood1, flood2, other = seated("10.0.0.1"), seated("10.0.0.1"), seated("10.0.0.2")
        flood1.send({"type": "hint"})
        assert first_started.wait(60)
        flood2.send({"type": "hint"})
        hints = c.app.state.lobby.thinking.hints
        while not hints.waiting("10.0.0.1"):  # its request was read and waits behind the first
            time.sleep(0.01)
        other.send({"type": "hint"})
        assert other.until(lambda m: m["type"] in ("hint", "error"))["type"] == "hint"
        assert len(started) == 2  # the flooder's second hint has not started: it waits behind its first
        gate.set()
        assert flood1.until(lambda m: m["type"] in ("hint", "error"))["type"] == "hint"
        assert flood2.until(lambda m: m["type"] in ("hint", "error"))["type"] == "hint"
        assert len(started) == 3


# ------------------------------------------------------------------ replay analyses, by address
def test_an_address_may_not_fill_the_analysis_queue() -> None:
    analyses = Analyses(4, 1.0, queue=2, per_address=2)
    for key in ("m1", "m2"):
        analyses.jobs[key] = Job(1, "10.0.0.1")
    src = Source("m3", "classic", 1, (), ("", "", "", ""))
    with pytest.raises(Exception, match="other matches"):  # the queue is full and this client has its share
        analyses.request(src, 1, "10.0.0.1")
    analyses.jobs.pop("m2")
    analyses.jobs["m2"] = Job(1, "10.0.0.1")
    analyses.queue = 10
    with pytest.raises(Exception, match="you already have 2 deals being weighed"):
        analyses.request(src, 1, "10.0.0.1")

    async def other_client() -> dict:
        analyses.queue = 2  # full again, but this client has nothing under way: it still gets in
        reply = analyses.request(src, 1, "10.0.0.2")
        assert analyses.jobs["m3"].address == "10.0.0.2"
        analyses.close()  # the job stops at once: only its admission was in question
        return reply

    assert asyncio.run(other_client())["state"] == "queued"


def test_analysis_requests_of_one_address_wait_behind_its_own(monkeypatch) -> None:
    """One worker, requests from two addresses: the second address is served before the first's next one."""
    order: list[str] = []
    gates = {key: threading.Event() for key in ("a1", "a2", "a3", "b1")}

    def review(src: Source, job: Job) -> None:  # the analysis itself, in its worker thread: held by the test
        order.append(src.key)
        assert gates[src.key].wait(60)

    monkeypatch.setattr(replay, "count_choices", lambda src, deal: 0)
    monkeypatch.setattr(replay, "review_json", lambda review, deal: {"state": "done", "deal": deal})

    async def run() -> list[str]:
        analyses = Analyses(4, 1.0, workers=1, queue=8, per_address=3)
        analyses._review = review  # type: ignore[method-assign]
        for key, address in (("a1", "A"), ("a2", "A"), ("a3", "A"), ("b1", "B")):
            assert analyses.request(Source(key, "classic", 1, (), ("",) * 4), 1, address)["state"] == "queued"
        for key in ("a1", "b1", "a2", "a3"):
            while key not in order:  # it must have started before it can end
                await asyncio.sleep(0.01)
            gates[key].set()
        await asyncio.gather(*analyses._tasks)
        return order

    assert asyncio.run(run()) == ["a1", "b1", "a2", "a3"]
