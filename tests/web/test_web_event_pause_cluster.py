"""An event paused across processes (issue 43): two `barbu serve --broker` processes on PostgreSQL and Redis.
The event's table is played by A; the director pauses through B (the pause is relayed to A, which plays it), the
table takes no move, stopping A hands the table to B, which builds it paused from the event, and resumed
through B it plays to its end.  Nothing is lost, and no traceback is left in a log.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from conftest import postgres_url, redis_url, reset_postgres
from test_web_accounts import PASSWORD
from test_web_cluster import health, processes, running
from test_web_events import Browser

pytestmark = pytest.mark.slow


def _table(person: Browser, base: str, tid: str) -> dict[str, Any]:
    status, body = person.call("GET", f"{base}/api/tables/{tid}")
    assert status == 200, body
    return dict(body["table"])


def _until(what: Any, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < deadline, "it never happened"
        time.sleep(0.3)


def test_a_pause_told_through_one_process_holds_at_the_table_another_plays_and_after_it_moves(serve: Any) -> None:
    db = postgres_url()
    reset_postgres(db)
    a, b = servers = processes(serve, db, redis_url(), 2, "--signups-per-hour", "0")
    with running(servers):
        dora, ann = Browser(), Browser()
        for person, name in ((dora, "Dora"), (ann, "Ann")):
            status, body = person.call("POST", a.base + "/api/account/signup", {"name": name, "password": PASSWORD})
            assert status == 201, body
        status, body = dora.call(
            "POST",
            a.base + "/api/events",
            {"name": "Paused", "rules": "classic", "format": "one-match", "deals": 1, "clock": "normal"},
        )
        assert status == 201, body
        eid = body["event"]["id"]
        assert ann.call("POST", f"{a.base}/api/events/{eid}/register", {})[0] == 200
        assert dora.call("POST", f"{a.base}/api/events/{eid}/start", {})[0] == 200
        assert [health(s)["process"]["leases"] for s in servers] == [1, 0]  # the event's table is A's
        status, page = ann.call("GET", f"{b.base}/api/events/{eid}")
        tid = page["my_table"]["id"]

        # Paused through B: A's table is paused (read through either process), the page says so
        status, body = dora.call("POST", f"{b.base}/api/events/{eid}/pause", {"reason": "a short break"})
        assert status == 200 and body["paused"]["reason"] == "a short break", body
        for s in servers:
            assert _table(ann, s.base, tid)["paused"]["reason"] == "a short break"
            assert ann.call("GET", f"{s.base}/api/events/{eid}")[1]["paused"]["reason"] == "a short break"
        # Ann replaced by a computer while paused: every seat a computer's, and still nothing is played
        assert dora.call("POST", f"{b.base}/api/events/{eid}/replace", {"name": "Ann"})[0] == 200
        version = _table(ann, a.base, tid)["version"]

        # A stops: B takes the table over, built from the journal, paused as its event is
        a.stop()
        _until(lambda: health(b)["process"]["leases"] == 1)
        after = _table(ann, b.base, tid)
        assert after["paused"] == {"at": body["paused"]["at"], "reason": "a short break"}
        assert after["version"] == version and after["status"] == "playing"

        # Resumed through B: the table plays on to its end, and the event is over
        assert dora.call("POST", f"{b.base}/api/events/{eid}/resume", {})[0] == 200
        _until(lambda: ann.call("GET", f"{b.base}/api/events/{eid}")[1]["status"] == "over")
        assert _table(ann, b.base, tid)["paused"] is None
        status, page = ann.call("GET", f"{b.base}/api/events/{eid}")
        assert [s["name"] for s in page["standings"]] == ["Ann"] and page["standings"][0]["stand_in"] == 1
        for s in servers:
            assert "Traceback" not in s.log(), s.log()[-3000:]
