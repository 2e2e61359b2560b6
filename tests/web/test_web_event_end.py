"""An event from start to end (issue 43): the table says the round's deal count, ends with the round, deals no
more, and says where to go next (the event's standings, the next table, the player's place); the event page is
told when a registered player's table is ready.

Through the real app (Starlette's TestClient) and its WebSockets, the tables played by their seated player.
"""

from __future__ import annotations

from typing import Any

from test_web_events import FAST, all_leave, make_event, people, register_all, tables_of, tick, wait_for, watching
from test_web_private import client, post
from wsclient import ORIGIN, Player

from barbu.core.game import CHANCE
from barbu.web import Settings
from barbu.web.accounts.service import COOKIE


def play_to_the_end(p: Player) -> None:
    """The seat's first legal action at each of its turns until its view says the table is over."""
    for _ in range(100_000):
        st = p.state or {}
        if st.get("phase") == "over":
            return
        if st.get("legal") and st.get("to_act") == p.seat:
            if p.act(st["legal"][0])["type"] == "error":  # the view was behind: the whole view again
                p.send({"type": "sync", "since": None})
                p.until(lambda m: m["type"] == "sync")
            continue
        p.recv()
    raise AssertionError("the table never ended")


def seated(c: Any, who: Any, name: str, tid: str) -> Player:
    return Player(c, tid, headers=ORIGIN | {"cookie": f"{COOKIE}={who.sessions[name]}"})


def test_a_two_deal_event_says_two_deals_ends_with_them_and_points_to_the_standings(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, grace=1000, **FAST)) as c:
        who = people(c, "Dora", "Ann")
        eid = make_event(who.as_("Dora"), deals=2, clock="relaxed").json()["event"]["id"]
        register_all(who, eid, "Ann")
        # Ann's page, before the start: no table; the start is pushed, and her table is on the page then
        who.as_("Ann")
        with watching(c, eid) as ws:
            assert c.get(f"/api/events/{eid}").json()["my_table"] is None
            assert post(who.as_("Dora"), f"/api/events/{eid}/start", {}).status_code == 200
            assert ws.receive_json() == {"type": "changed"}
            ready = who.as_("Ann").get(f"/api/events/{eid}").json()["my_table"]
        ((_, _, tid),) = tables_of(c, eid)
        assert ready["url"] == f"/t/{tid}" and ready["round"] == 1
        table = c.app.state.lobby.tables[tid]

        p = seated(c, who, "Ann", tid)
        assert p.seat is not None
        assert c.get(f"/api/tables/{tid}").json()["table"]["total_deals"] == 2  # the round's deals, never 28
        assert p.state is not None and (p.state["deal_number"], p.state["total_deals"]) == (1, 2)
        totals = {m["state"]["total_deals"] for m in p.log if "state" in m}
        play_to_the_end(p)
        totals |= {m["state"]["total_deals"] for m in p.log if "state" in m}
        assert totals == {2}
        # the end: over for everyone who reads it, with the round's count, nobody to act, the scores over
        last = p.state
        assert last is not None and last["phase"] == "over" and last["to_act"] is None
        assert (last["deal_number"], last["deal_number"]) == (2, last["total_deals"])
        scores = [m["scores"] for m in p.log if m["type"] in ("scores", "sync")][-1]
        if len(scores["deals"]) < 2:  # sent after the last move's views
            scores = p.until(lambda m: m["type"] == "scores")["scores"]
        assert scores["over"] is True and scores["total_deals"] == 2 and len(scores["deals"]) == 2
        assert sorted(scores["standings"]) == [0, 1, 2, 3]
        wait_for(lambda: table.stored_status == "over")
        version = p.barrier()
        p.close()

        # nothing more is dealt: the watcher's rounds, a new connection, the table stays where it ended
        tick(c)
        tick(c)
        assert len(table.match.results) == 2 and table.match.to_act() == CHANCE and table.version == version
        again = seated(c, who, "Ann", tid)
        assert again.state is not None and again.state["phase"] == "over" and again.state["version"] == version
        assert again.first["type"] == "sync" and again.first["scores"]["over"] is True
        assert again.barrier() == version
        again.close()

        # where to go: the event's standings, and Ann's place in the final ranking
        end = who.as_("Ann").get(f"/api/events/table/{tid}").json()
        assert end["event"]["url"] == f"/e/{eid}" and end["event"]["status"] == "over"
        assert end["event"]["deals"] == 2 and (end["round"], end["event"]["rounds"]) == (1, 1)
        assert end["round_over"] is True and end["next_table"] is None
        (ann,) = who.as_("Ann").get(f"/api/events/{eid}").json()["standings"]
        assert end["place"] == ann["rank"] and ann["name"] == "Ann"  # her place, as the final standings give it
        assert ann["rank"] == "1"  # the only player: the computers are compared with, never ranked (was "2", "4")
        # a guest reads the same, without a place
        assert who.as_(None).get(f"/api/events/table/{tid}").json()["place"] is None


def test_between_rounds_the_table_points_to_the_next_one(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, grace=1000, **FAST)) as c:
        others = [f"P{i}" for i in range(7)]  # a rounds event needs two tables; the others leave at once
        who = people(c, "Dora", "Ann", *others)
        eid = make_event(who.as_("Dora"), format="rounds", rounds=2, deals=1, clock="relaxed").json()["event"]["id"]
        register_all(who, eid, "Ann", *others)
        assert post(who.as_("Dora"), f"/api/events/{eid}/start", {}).status_code == 200
        all_leave(c, who, eid, others)
        first = who.as_("Ann").get(f"/api/events/{eid}").json()["my_table"]["id"]
        p = seated(c, who, "Ann", first)
        assert p.state is not None and p.state["total_deals"] == 1
        play_to_the_end(p)
        p.close()
        wait_for(lambda: {r for r, _, _ in tables_of(c, eid)} == {1, 2})
        wait_for(lambda: who.as_("Ann").get(f"/api/events/{eid}").json()["my_table"] is not None)
        second = who.as_("Ann").get(f"/api/events/{eid}").json()["my_table"]["id"]
        assert second != first
        end = who.as_("Ann").get(f"/api/events/table/{first}").json()
        assert end["event"]["status"] == "running" and (end["round"], end["event"]["round"]) == (1, 2)
        assert end["round_over"] is True and end["place"] is None
        assert end["next_table"]["url"] == f"/t/{second}" and end["next_table"]["round"] == 2
        # the next table is the event's too, and says so from its own end
        assert who.as_("Ann").get(f"/api/events/table/{second}").json()["next_table"] is None


def test_a_table_that_is_no_events_is_refused_with_a_code(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        r = post(c, "/api/tables", {"rules": "classic"})
        assert r.status_code in (200, 201), r.text
        tid = r.json()["table"]["id"] if "table" in r.json() else r.json()["id"]
        for asked in (tid, "no-such-table", "x" * 200):
            r = c.get(f"/api/events/table/{asked}")
            assert r.status_code == 404 and r.json()["code"] == "event-table-not-found", r.text
        info = c.get(f"/api/tables/{tid}").json()["table"]
        assert info["total_deals"] == 28 and "deal_limit" not in info  # a table of its own plays the whole match


def test_the_director_replaces_a_missing_player_by_a_computer_after_the_start(sqlite_url: str) -> None:
    """Bob registered but never comes to his table (his grace is long): the director has a computer play his seat,
    Ann plays the event to its end, and Bob's results are his, every deal marked as played for him."""
    with client(Settings(db_url=sqlite_url, grace=1000, **FAST)) as c:
        who = people(c, "Dora", "Ann", "Bob")
        eid = make_event(who.as_("Dora"), deals=2, clock="relaxed").json()["event"]["id"]
        register_all(who, eid, "Ann", "Bob")

        def replace(name: Any, by: str = "Dora") -> Any:
            return post(who.as_(by), f"/api/events/{eid}/replace", {"name": name})

        r = replace("Bob")
        assert r.status_code == 409 and r.json()["code"] == "event-replace-while-running", r.text
        assert post(who.as_("Dora"), f"/api/events/{eid}/start", {}).status_code == 200
        for name, by, status, code in (
            ("Bob", "Ann", 403, "event-director-only"),
            ("Zed", "Dora", 409, "event-player-not-registered"),
            ("", "Dora", 400, "event-whose-replacement"),
            (7, "Dora", 400, "event-whose-replacement"),
        ):
            r = replace(name, by)
            assert (r.status_code, r.json()["code"]) == (status, code), r.text
        ((_, _, tid),) = tables_of(c, eid)
        table = c.app.state.lobby.tables[tid]
        bob = next(s for s in table.seats if s.name == "Bob")
        assert table.controller(bob.index) == "wait"  # nobody plays his seat: the table would wait for him
        r = replace("bob")
        assert r.status_code == 200 and r.json()["replaced"] == "Bob", r.text
        assert bob.left and table.controller(bob.index) == "bot"
        r = replace("Bob")
        assert r.status_code == 409 and r.json()["code"] == "event-replaced-already"
        assert "Bob" in r.json()["error"]
        page = who.as_("Dora").get(f"/api/events/{eid}").json()
        assert [p["left"] for p in page["players"] if p["name"] == "Bob"] == [True]

        p = seated(c, who, "Ann", tid)
        play_to_the_end(p)
        p.close()
        wait_for(lambda: table.stored_status == "over")
        tick(c)
        page = who.as_("Dora").get(f"/api/events/{eid}").json()
        assert page["status"] == "over"
        rows = {s["name"]: s for s in page["standings"]}
        assert (rows["Bob"]["boards"], rows["Bob"]["stand_in"]) == (2, 2)  # his results, all played for him
        assert (rows["Ann"]["boards"], rows["Ann"]["stand_in"]) == (2, 0)
        r = replace("Ann")
        assert r.status_code == 409 and r.json()["code"] == "event-over"
