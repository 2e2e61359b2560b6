"""The director pauses and resumes a running event (issue 43): paused, no table of the event takes a move (a coded
refusal that says why), the computers and the stand-in wait, the clock stands still, the event's page and its
tables are told at once; resumed, the table goes on from where it stood.  The pause is kept with the event: a
server restarted while it is paused brings its tables back paused.

Through the real app (Starlette's TestClient) and its WebSockets; the restart with two apps, one after the other,
on one SQLite file (the many-process case, PostgreSQL and Redis, is in test_web_event_pause_cluster.py).
"""

from __future__ import annotations

from typing import Any

from test_web_event_end import seated
from test_web_events import FAST, make_event, people, register_all, tables_of, tick, wait_for, watching
from test_web_private import client, post

from barbu.web import Settings


def _pause(who: Any, eid: int, by: str = "Dora", **body: Any) -> Any:
    return post(who.as_(by), f"/api/events/{eid}/pause", body)


def _resume(who: Any, eid: int, by: str = "Dora") -> Any:
    return post(who.as_(by), f"/api/events/{eid}/resume", {})


def _my_turn(p: Any) -> dict[str, Any]:
    """Ann's view once the computers have played up to her decision."""
    if not (p.state and p.state.get("to_act") == p.seat and p.state.get("legal")):
        p.until(lambda m: bool(m.get("state") and m["state"].get("to_act") == p.seat and m["state"].get("legal")))
    assert p.state is not None
    return p.state


def test_paused_no_move_is_taken_the_clock_stands_still_and_resumed_the_table_goes_on(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, grace=1000, **FAST)) as c:
        who = people(c, "Dora", "Ann")
        eid = make_event(who.as_("Dora"), deals=2, clock="normal").json()["event"]["id"]
        register_all(who, eid, "Ann")
        r = _pause(who, eid)
        assert (r.status_code, r.json()["code"]) == (409, "event-pause-while-running"), r.text
        assert post(who.as_("Dora"), f"/api/events/{eid}/start", {}).status_code == 200
        for by, body, status, code in (
            ("Ann", {}, 403, "event-director-only"),
            ("Dora", {"reason": "x" * 201}, 400, "event-pause-reason"),
            ("Dora", {"reason": 7}, 400, "event-pause-reason"),
        ):
            r = _pause(who, eid, by, **body)
            assert (r.status_code, r.json()["code"]) == (status, code), r.text
        r = _resume(who, eid)
        assert (r.status_code, r.json()["code"]) == (409, "event-not-paused"), r.text
        ((_, _, tid),) = tables_of(c, eid)
        table = c.app.state.lobby.tables[tid]
        p = seated(c, who, "Ann", tid)
        state = _my_turn(p)
        assert table.timing.turn is not None and table.timing.turn.running()  # her clock runs

        # Paused: the page is told, the table says so, her move is refused with a code, her clock stands still
        with watching(c, eid) as ws:
            r = _pause(who, eid, reason="  a phone   call ")
            assert r.status_code == 200 and r.json()["paused"]["reason"] == "a phone call", r.text
            assert ws.receive_json() == {"type": "changed"}
        told = p.until(lambda m: m["type"] == "table" and m["table"].get("paused") is not None)
        assert told["table"]["paused"]["reason"] == "a phone call" and told["table"]["paused"]["at"]
        page = who.as_("Ann").get(f"/api/events/{eid}").json()
        assert page["paused"] == told["table"]["paused"] and page["status"] == "running"
        turn = table.timing.turn
        assert turn is not None and not turn.running()
        spent = turn.spent
        refused = p.act(state["legal"][0])
        assert refused["type"] == "error" and refused["code"] == "event_paused", refused
        assert "paused by its director" in refused["message"] and "a phone call" in refused["message"]
        r = _pause(who, eid)
        assert (r.status_code, r.json()["code"]) == (409, "event-paused-already"), r.text
        version = table.version
        tick(c)
        assert table.version == version and table.timing.turn is turn and turn.spent == spent

        # Resumed: told, the same decision's clock runs on from what it had spent, her move is taken
        assert _resume(who, eid).status_code == 200
        p.until(lambda m: m["type"] == "table" and m["table"].get("paused") is None)
        assert who.as_("Ann").get(f"/api/events/{eid}").json()["paused"] is None
        assert table.timing.turn is turn and turn.running() and turn.spent == spent
        assert p.act(state["legal"][0])["type"] == "ack"

        # Paused with every seat a computer's (Ann replaced): nothing is played until it is resumed
        assert _pause(who, eid).status_code == 200
        assert post(who.as_("Dora"), f"/api/events/{eid}/replace", {"name": "Ann"}).status_code == 200
        p.close()
        version = table.version
        tick(c)
        tick(c)
        assert table.version == version and all(table.controller(s.index) == "wait" for s in table.seats)
        assert _resume(who, eid).status_code == 200
        wait_for(lambda: table.stored_status == "over")
        tick(c)
        assert who.as_("Dora").get(f"/api/events/{eid}").json()["status"] == "over"
        r = _pause(who, eid)
        assert (r.status_code, r.json()["code"]) == (409, "event-over"), r.text


def test_a_server_restarted_while_the_event_is_paused_brings_its_table_back_paused(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, grace=1000, **FAST)) as c:
        who = people(c, "Dora", "Ann")
        eid = make_event(who.as_("Dora"), deals=2, clock="normal").json()["event"]["id"]
        register_all(who, eid, "Ann")
        assert post(who.as_("Dora"), f"/api/events/{eid}/start", {}).status_code == 200
        ((_, _, tid),) = tables_of(c, eid)
        p = seated(c, who, "Ann", tid)
        state = _my_turn(p)
        assert _pause(who, eid, reason="dinner").status_code == 200
        p.close()
        sessions = dict(who.sessions)
    with client(Settings(db_url=sqlite_url, grace=1000, **FAST)) as c:
        who = people(c)
        who.sessions.update(sessions)
        table = c.app.state.lobby.tables[tid]
        wait_for(lambda: table.paused is not None)  # read from the event before anything is played
        assert table.paused["reason"] == "dinner" and c.get(f"/api/tables/{tid}").json()["table"]["paused"]
        p = seated(c, who, "Ann", tid)
        assert p.state is not None and p.state["version"] == state["version"]
        refused = p.act(state["legal"][0])
        assert refused["type"] == "error" and refused["code"] == "event_paused", refused
        assert _resume(who, eid).status_code == 200
        p.until(lambda m: m["type"] == "table" and m["table"].get("paused") is None)
        assert p.act(state["legal"][0])["type"] == "ack"
        p.close()
