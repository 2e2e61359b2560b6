"""Duplicate events on the server (issue 33): creating one, registering, the refusals, seating by the schedule,
the same cards at every table of a round, the standings and travellers after a round, a player who leaves,
and nothing of a board shown before every table has played it.

Through the real app (Starlette's TestClient), one browser's session at a time in its cookie jar.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any, Iterator

import pytest
from test_web_clubs import People, invite, join, new_club
from test_web_private import client, post
from wsclient import ORIGIN, Player

from barbu.core.chance import verify_board_chance
from barbu.games import open_game
from barbu.web import Settings
from barbu.web.accounts.service import COOKIE
from barbu.web.events import store as eventstore
from barbu.web.events.service import round_secret

FAST = dict(bot_delay=0.0, deal_pause=0.0, burst=10_000, rate=10_000.0)
ADDRESSES = [f"192.0.2.{i}" for i in range(10, 40)]


def people(c: Any, *names: str) -> People:
    p = People(c)
    for i, n in enumerate(names):
        p.add(n, ADDRESSES[i])
    return p


def make_event(c: Any, **fields: Any) -> Any:
    body = {
        "name": "Thursday duplicate",
        "rules": "classic",
        "format": "one-match",
        "deals": 1,
        "clock": "normal",
        "strength": "random",
    } | fields
    return post(c, "/api/events", body)


def register_all(who: People, event_id: int, *names: str) -> None:
    for n in names:
        r = post(who.as_(n), f"/api/events/{event_id}/register", {})
        assert r.status_code == 200, r.text


def tables_of(c: Any, event_id: int) -> list[tuple[int, int, str]]:
    with c.app.state.lobby.store.engine.connect() as conn:
        return eventstore.tables(conn, event_id)


def wait_for(pred: Any, seconds: float = 60.0) -> None:
    stop = time.monotonic() + seconds
    while not pred():
        assert time.monotonic() < stop, "it never happened"
        time.sleep(0.05)


def tick(c: Any) -> None:
    """One round of the watcher, then whatever a table's end set going (a round moved on at once) is done."""
    c.portal.call(c.app.state.events.tick)
    events = c.app.state.events
    wait_for(lambda: not events._advancing and not events._background)


def all_leave(c: Any, who: People, event_id: int, names: list[str]) -> None:
    for n in names:
        r = post(who.as_(n), f"/api/events/{event_id}/leave", {})
        assert r.status_code == 200 and r.json()["done"] == "left", r.text


def test_create_register_and_the_refusals(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        who = people(c, "Dora", "Ann", "Bob", "Cy", "Eve", "Fay")
        c_dir = who.as_("Dora")
        assert make_event(c_dir, name="").status_code == 400
        assert make_event(c_dir, format="swiss").status_code == 400
        assert make_event(c_dir, format="one-match", rounds=3).status_code == 400
        assert make_event(c_dir, strength="wizard").status_code == 400
        assert make_event(c_dir, clock="none").status_code == 400  # an event's tables always have the clock
        assert make_event(c_dir, start="yesterday").status_code == 400
        assert make_event(c_dir, start="2001-01-01T00:00:00+00:00").status_code == 400
        assert make_event(who.as_(None)).status_code == 401
        r = make_event(who.as_("Dora"), tables=1)
        assert r.status_code == 201, r.text
        ev = r.json()["event"]
        assert ev["status"] == "registering" and ev["room"] == 4 and "secret" not in ev
        eid = ev["id"]
        register_all(who, eid, "Ann", "Bob", "Cy", "Eve")
        twice = post(who.as_("Ann"), f"/api/events/{eid}/register", {})
        assert twice.status_code == 409 and "already" in twice.json()["error"]
        full = post(who.as_("Fay"), f"/api/events/{eid}/register", {})
        assert full.status_code == 409 and "full" in full.json()["error"]
        not_director = post(who.as_("Ann"), f"/api/events/{eid}/start", {})
        assert not_director.status_code == 403
        page = who.as_("Ann").get(f"/api/events/{eid}").json()
        assert page["me_registered"] and page["registered"] == 4 and page["key"] is None
        assert [p["name"] for p in page["players"]] == ["Ann", "Bob", "Cy", "Eve"]
        assert who.as_(None).get("/api/events/999").status_code == 404
        assert who.as_(None).get("/api/events/x'1").status_code == 404
        # withdrawing before the start frees the place
        assert post(who.as_("Eve"), f"/api/events/{eid}/leave", {}).json()["done"] == "withdrawn"
        assert post(who.as_("Fay"), f"/api/events/{eid}/register", {}).status_code == 200
        # nobody registered: a plain answer, nothing changed
        c_dir = who.as_("Dora")
        empty = make_event(c_dir, name="Empty evening").json()["event"]["id"]
        r = post(c_dir, f"/api/events/{empty}/start", {})
        assert r.status_code == 409 and "nobody" in r.json()["error"].lower()
        assert c_dir.get(f"/api/events/{empty}").json()["status"] == "registering"
        # started: registration is closed, a second start refused
        assert post(c_dir, f"/api/events/{eid}/start", {}).status_code == 200
        late = post(who.as_("Eve"), f"/api/events/{eid}/register", {})
        assert late.status_code == 409 and "started" in late.json()["error"]
        assert post(who.as_("Dora"), f"/api/events/{eid}/start", {}).status_code == 409
        listing = who.as_(None).get("/api/events").json()
        assert [e["id"] for e in listing["running"]] == [eid] and [e["id"] for e in listing["upcoming"]] == [empty]


def test_a_club_event_is_made_by_its_owner_or_admins_only(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        who = people(c, "Owner", "Member")
        slug = new_club(who.as_("Owner"), "Mardi soir", public=True)
        key = invite(who.as_("Owner"), slug)
        assert join(who.as_("Member"), key).status_code == 200
        r = make_event(who.as_("Member"), club=slug)
        assert r.status_code == 403 and "owner" in r.json()["error"]
        r = make_event(who.as_("Owner"), club=slug)
        assert r.status_code == 201 and r.json()["event"]["id"]
        listed = who.as_(None).get(f"/api/events?club={slug}").json()["upcoming"]
        assert len(listed) == 1 and listed[0]["club"]["slug"] == slug


def test_seating_the_same_cards_at_every_table_standings_and_a_player_leaving(db_url: str) -> None:
    names = ["Ann", "Bob", "Cy", "Eve", "Fay"]
    with client(Settings(db_url=db_url, **FAST)) as c:
        who = people(c, "Dora", *names)
        eid = make_event(who.as_("Dora"), deals=2).json()["event"]["id"]
        register_all(who, eid, *names)
        assert post(who.as_("Dora"), f"/api/events/{eid}/start", {}).status_code == 200
        tables = tables_of(c, eid)
        assert len(tables) == 2 and {r for r, _, _ in tables} == {1}
        lobby = c.app.state.lobby
        seated = []
        for _, _, tid in tables:
            t = lobby.tables[tid]
            assert t.invite_hash is not None and t.clock is not None and t.boards is not None
            assert t.deal_limit == 2
            seated += [s.name for s in t.seats if s.kind == "human"]
        assert sorted(seated) == sorted(names)  # every registered player seated once
        assert not [r for r in c.get("/api/tables").json()["tables"] if r["id"] in {x for _, _, x in tables}]
        page = who.as_("Ann").get(f"/api/events/{eid}").json()
        assert page["my_table"]["url"].startswith("/t/") and page["travellers"] == [] and page["standings"] == []
        # Ann goes to her table and watches the deal; then everybody leaves: the stand-ins play on
        mine = page["my_table"]["id"]
        p = Player(c, mine, headers=ORIGIN | {"cookie": f"{COOKIE}={who.sessions['Ann']}"})
        assert p.seat is not None
        p.close()
        all_leave(c, who, eid, names)
        wait_for(lambda: all(lobby.tables[tid].status == "over" for _, _, tid in tables))
        # the same cards at every table: each deal's hands, and the key of the round
        hands = []
        for _, _, tid in tables:
            t = lobby.tables[tid]
            hands.append([r.hands for r in t.match.results])
            assert verify_board_chance(lambda: open_game(str(t.rules), t.seed), t.match.history, t.secret) == []
            assert t.secret.hex() == round_secret(eventstore_secret(c, eid), 1)
        assert hands[0] == hands[1] and len(hands[0]) == 2
        tick(c)
        page = who.as_("Bob").get(f"/api/events/{eid}").json()
        assert page["status"] == "over" and page["key"] == eventstore_secret(c, eid)
        assert sorted(s["name"] for s in page["standings"]) == sorted(names)
        assert all(s["stand_in"] == s["boards"] for s in page["standings"])  # every seat was left: marked
        assert [b["board"] for b in page["travellers"]] == ["r1-d1", "r1-d2"]
        assert all(len(b["tables"]) == 2 for b in page["travellers"])
        assert all(row["replay"] for b in page["travellers"] for row in b["tables"])
        # each table's record carries its round's key, dealt by boards: `barbu replay` checks its deals
        from barbu.records.barbu import read_record, verify_deals

        for _, _, tid in tables:
            text = c.get(f"/api/tables/{tid}/record").text
            assert '"dealing":"boards"' in text.replace(" ", "")
            assert verify_deals(read_record(text.splitlines())) == []
        leaving = post(who.as_("Ann"), f"/api/events/{eid}/leave", {})
        assert leaving.status_code == 409


def eventstore_secret(c: Any, eid: int) -> str:
    with c.app.state.lobby.store.engine.connect() as conn:
        ev = eventstore.event_by_id(conn, eid)
        assert ev is not None
        return ev.secret


def test_nothing_of_a_board_is_shown_before_every_table_played_it(sqlite_url: str) -> None:
    names = ["Ann", "Bob", "Cy", "Eve", "Fay"]
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        who = people(c, "Dora", *names)
        eid = make_event(who.as_("Dora"), deals=1).json()["event"]["id"]
        register_all(who, eid, *names)
        assert post(who.as_("Dora"), f"/api/events/{eid}/start", {}).status_code == 200
        lobby = c.app.state.lobby
        tables = tables_of(c, eid)
        first = lobby.tables[tables[0][2]]
        for s in first.seats:  # the first table's players leave; the second's stay and play nothing
            if s.kind == "human":
                all_leave(c, who, eid, [s.name])
        wait_for(lambda: first.status == "over")
        page = who.as_(None).get(f"/api/events/{eid}").json()
        assert page["travellers"] == [] and page["standings"] == [] and page["past_tables"] == []
        assert page["key"] is None
        # nor through the finished table's own record or replay, which hold every hand of the board
        done = tables[0][2]
        for r in (
            who.as_("Ann").get(f"/api/tables/{done}/record"),
            who.as_(None).get(f"/api/replays/{done}"),
            who.as_(None).get(f"/api/replays/{done}/deals/1"),
            post(who.as_(None), f"/api/replays/{done}/deals/1/dd", {}),
        ):
            assert r.status_code == 409 and "still playing" in r.json()["error"], r.text
        second = tables[1][2]
        assert second not in str(who.as_("Ann").get(f"/api/events/{eid}").json())  # another table's address


def test_a_second_round_is_made_when_the_first_is_over(sqlite_url: str) -> None:
    names = [f"P{i}" for i in range(8)]
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        who = people(c, "Dora", *names)
        r = make_event(who.as_("Dora"), format="rounds", rounds=2, deals=1)
        assert r.status_code == 201, r.text
        eid = r.json()["event"]["id"]
        register_all(who, eid, *names)
        assert post(who.as_("Dora"), f"/api/events/{eid}/start", {}).status_code == 200
        lobby = c.app.state.lobby
        all_leave(c, who, eid, names)
        wait_for(lambda: all(lobby.tables[tid].status == "over" for _, _, tid in tables_of(c, eid)))
        tick(c)
        assert {r for r, _, _ in tables_of(c, eid)} == {1, 2}
        wait_for(lambda: all(lobby.tables[tid].status == "over" for _, _, tid in tables_of(c, eid)))
        tick(c)
        page = who.as_(None).get(f"/api/events/{eid}").json()
        assert page["status"] == "over" and len(page["travellers"]) == 2


def test_a_round_left_half_made_by_a_lost_process_is_completed(sqlite_url: str, monkeypatch) -> None:
    """A process lost while making a round's tables leaves the round short: after a while another pass (on
    any process) makes the missing tables, and a table entered twice by two passes is not kept twice."""
    from sqlalchemy import delete

    from barbu.web.events import service as events

    names = [f"P{i}" for i in range(8)]
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        who = people(c, "Dora", *names)
        eid = make_event(who.as_("Dora"), format="rounds", rounds=2, deals=1).json()["event"]["id"]
        register_all(who, eid, *names)
        assert post(who.as_("Dora"), f"/api/events/{eid}/start", {}).status_code == 200
        before = tables_of(c, eid)
        assert [n for _, n, _ in before] == [1, 2]
        with c.app.state.lobby.store.engine.begin() as conn:  # as if the process had stopped before table 2
            conn.execute(delete(eventstore.EVENT_TABLES).where(eventstore.EVENT_TABLES.c.table_id == before[1][2]))
        tick(c)
        assert len(tables_of(c, eid)) == 1  # a round being made is left alone for a while
        monkeypatch.setattr(events, "ROUND_REPAIR_AFTER", 0.0)
        tick(c)
        after = tables_of(c, eid)
        assert [n for _, n, _ in after] == [1, 2] and after[1][2] != before[1][2]
        lobby = c.app.state.lobby
        made_again = lobby.tables[after[1][2]]
        assert sorted(s.name for s in made_again.seats if s.kind == "human") == sorted(
            s.name for s in lobby.tables[before[1][2]].seats if s.kind == "human"
        )
        ev = c.portal.call(c.app.state.events.find, eid)
        assert not c.portal.call(lambda: c.app.state.events._write(eventstore.add_table, eid, 1, 2, "x" * 8))
        all_leave(c, who, eid, names)
        wait_for(lambda: all(lobby.tables[tid].status == "over" for _, _, tid in tables_of(c, eid)))
        tick(c)
        assert {r for r, _, _ in tables_of(c, eid)} == {1, 2} and ev.id == eid


def test_a_player_who_never_comes_is_played_for_after_his_grace(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, grace=0.2, **FAST)) as c:
        who = people(c, "Dora", "Ann")
        eid = make_event(who.as_("Dora"), deals=1).json()["event"]["id"]
        register_all(who, eid, "Ann")
        assert post(who.as_("Dora"), f"/api/events/{eid}/start", {}).status_code == 200
        ((_, _, tid),) = tables_of(c, eid)
        table = c.app.state.lobby.tables[tid]
        wait_for(lambda: table.status == "over")  # nobody connected: the stand-in played Ann's seat
        tick(c)
        page = who.as_("Ann").get(f"/api/events/{eid}").json()
        assert page["status"] == "over" and [s["name"] for s in page["standings"]] == ["Ann"]
        assert page["standings"][0]["stand_in"] == 0  # she did not leave: nothing marked


def test_a_table_rebuilt_after_a_restart_deals_the_same_cards(sqlite_url: str) -> None:
    """The board counter is fed the log's chance events: a table rebuilt mid-round draws what it would have."""
    from barbu.web.db.storage import Store
    from barbu.web.tables.actor import Table

    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        who = people(c, "Dora", "Ann")
        eid = make_event(who.as_("Dora"), deals=3).json()["event"]["id"]
        register_all(who, eid, "Ann")
        assert post(who.as_("Dora"), f"/api/events/{eid}/start", {}).status_code == 200
        all_leave(c, who, eid, ["Ann"])
        ((_, _, tid),) = tables_of(c, eid)
        table = c.app.state.lobby.tables[tid]
        wait_for(lambda: table.status == "over")
        played = [r.hands for r in table.match.results]
        store: Store = c.app.state.lobby.store
        rec = store.load_table(tid)
        assert rec is not None and rec.boards and rec.deal_limit == 3
        rec.events = rec.events[: len(rec.events) // 2]  # as if the server stopped in the middle of the round
        again = Table(rec, c.app.state.lobby.journal, c.app.state.settings)
        m = again.match
        while len(m.results) < 3:
            m.apply(again.boards(m) if m.to_act() == -1 else m.legal_actions()[0])
        assert [r.hands for r in m.results] == played


def test_an_event_starts_at_its_time(sqlite_url: str, monkeypatch) -> None:
    from datetime import datetime, timedelta, timezone

    from barbu.web.events import service as events

    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        who = people(c, "Dora", "Ann")
        start = datetime.now(timezone.utc) + timedelta(minutes=10)
        eid = make_event(who.as_("Dora"), deals=1, start=start.isoformat(timespec="seconds")).json()["event"]["id"]
        register_all(who, eid, "Ann")
        tick(c)
        assert who.as_(None).get(f"/api/events/{eid}").json()["status"] == "registering"
        monkeypatch.setattr(events, "now", lambda: start + timedelta(seconds=1))  # the watcher's clock passes it
        tick(c)
        page = who.as_("Ann").get(f"/api/events/{eid}").json()
        assert page["status"] == "running" and page["my_table"]["url"].startswith("/t/")


def test_a_board_is_shown_only_once_every_table_of_its_round_played_it() -> None:
    from datetime import datetime, timezone

    from barbu.web.events.service import Played, results_json, shown_boards
    from barbu.web.events.store import Event

    rows = [
        Played(1, 1, "t1", 1, [5, 0, 0, -5], "Trumps", 0, 0, [False] * 4, False),
        Played(1, 1, "t1", 2, [0, 9, 0, -9], "No tricks", 1, 1, [False] * 4, False),
        Played(1, 2, "t2", 1, [1, 0, 0, -1], "Trumps", 0, 0, [False] * 4, False),
    ]
    assert shown_boards(rows, {1: 2}) == {(1, 1)}
    assert shown_boards(rows, {1: 3}) == set()  # a third table has not played deal 1 yet
    plan = [[[0, 1, 2, 3], [4, 5, 6, 7]]]
    ev = Event(
        1,
        "E",
        1,
        "Dora",
        None,
        "classic",
        "one-match",
        1,
        None,
        2,
        "rule",
        "25+180",
        None,
        "running",
        1,
        "00" * 32,
        plan,
        datetime.now(timezone.utc),
    )
    out = results_json(ev, [f"P{i}" for i in range(8)], rows, True)
    assert [b["board"] for b in out["travellers"]] == ["r1-d1"] and out["boards_shown"] == 1
    assert "No tricks" not in str(out)  # table 1's second deal: not until table 2 has played it
    first = {s["name"]: s for s in out["standings"]}
    assert first["P0"]["percent"] == 100.0 and first["P4"]["percent"] == 0.0


def test_nobody_sits_at_two_event_tables_at_once(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, grace=1000, **FAST)) as c:
        who = people(c, "Dora", "Ann", "Bob")
        first = make_event(who.as_("Dora"), name="First").json()["event"]["id"]
        second = make_event(who.as_("Dora"), name="Second").json()["event"]["id"]
        register_all(who, first, "Ann")
        register_all(who, second, "Ann", "Bob")
        assert post(who.as_("Dora"), f"/api/events/{first}/start", {}).status_code == 200
        third = make_event(who.as_("Dora"), name="Third").json()["event"]["id"]
        r = post(who.as_("Ann"), f"/api/events/{third}/register", {})
        assert r.status_code == 409 and "another event" in r.json()["error"]
        # the second starts while Ann plays the first: she is set aside there, Bob alone is seated
        assert post(who.as_("Dora"), f"/api/events/{second}/start", {}).status_code == 200
        ((_, _, tid),) = tables_of(c, second)
        seated = [s.name for s in c.app.state.lobby.tables[tid].seats if s.kind == "human"]
        assert seated == ["Bob"]
        page = who.as_("Ann").get(f"/api/events/{second}").json()
        assert page["me_left"] and page["my_table"] is None


def test_the_director_cancels_edits_and_removes_a_registration_before_the_start(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        who = people(c, "Dora", "Ann", "Bob")
        eid = make_event(who.as_("Dora"), tables=1).json()["event"]["id"]
        register_all(who, eid, "Ann", "Bob")
        # only the director: a player, a guest
        for as_, status in (("Ann", 403), (None, 401)):
            for path, body in (("cancel", {}), ("edit", {"name": "Mine now"}), ("remove", {"name": "Bob"})):
                r = post(who.as_(as_), f"/api/events/{eid}/{path}", body)
                assert r.status_code == status and r.json()["error"], (path, r.text)

        def d() -> Any:
            return who.as_("Dora")

        # an edit: the name, the start and the pace; mistakes change nothing
        later = "2099-01-01T20:00:00+00:00"
        for bad in ({"name": ""}, {"start": "tomorrow"}, {"start": later}, {"clock": "none"}, {"clock": "fast!"}, {}):
            r = post(d(), f"/api/events/{eid}/edit", bad)
            assert r.status_code == 400 and r.json()["error"], (bad, r.text)
        page = d().get(f"/api/events/{eid}").json()
        assert page["name"] == "Thursday duplicate" and page["start"] is None and page["clock"] != "5+30"
        from datetime import datetime, timedelta, timezone

        soon = (datetime.now(timezone.utc) + timedelta(hours=2)).replace(microsecond=0)
        r = post(
            d(),
            f"/api/events/{eid}/edit",
            {"name": "  Friday   duplicate ", "start": soon.isoformat(), "clock": "quick"},
        )
        assert r.status_code == 200, r.text
        page = d().get(f"/api/events/{eid}").json()
        assert page["name"] == "Friday duplicate" and page["start"] == soon.isoformat()
        assert page["clock"] == r.json()["clock"] and page["director_is_me"]
        assert post(d(), f"/api/events/{eid}/edit", {"start": None}).status_code == 200  # "when I say" again
        assert d().get(f"/api/events/{eid}").json()["start"] is None
        # removing a registration frees the place; an unknown name gets a plain answer
        r = post(d(), f"/api/events/{eid}/remove", {"name": "Zed"})
        assert r.status_code == 409 and "Zed" in r.json()["error"]
        assert post(d(), f"/api/events/{eid}/remove", {"name": 7}).status_code == 400
        assert post(d(), f"/api/events/{eid}/remove", {"name": "bob"}).status_code == 200
        page = who.as_("Bob").get(f"/api/events/{eid}").json()
        assert [p["name"] for p in page["players"]] == ["Ann"] and not page["me_registered"]
        # cancelled: it leaves the upcoming list, its players see it, nothing more may be done
        other = make_event(d(), name="Saturday").json()["event"]["id"]
        assert post(d(), f"/api/events/{eid}/cancel", {}).status_code == 200
        assert who.as_("Ann").get(f"/api/events/{eid}").json()["status"] == "cancelled"
        listing = who.as_(None).get("/api/events").json()
        assert [e["id"] for e in listing["upcoming"]] == [other]
        assert [e["status"] for e in listing["past"] if e["id"] == eid] == ["cancelled"]
        for as_, path in (("Dora", "cancel"), ("Dora", "start"), ("Bob", "register"), ("Ann", "leave")):
            r = post(who.as_(as_), f"/api/events/{eid}/{path}", {})
            assert r.status_code == 409 and "cancelled" in r.json()["error"], (path, r.text)
        r = post(d(), f"/api/events/{eid}/edit", {"name": "Back again"})
        assert r.status_code == 409 and "cancelled" in r.json()["error"]
        # after the start: refused, in the reader's language
        register_all(who, other, "Ann")
        assert post(d(), f"/api/events/{other}/start", {}).status_code == 200
        for path, body in (("cancel", {}), ("edit", {"name": "Too late"}), ("remove", {"name": "Ann"})):
            r = post(d(), f"/api/events/{other}/{path}", body)
            assert r.status_code == 409 and "started" in r.json()["error"], (path, r.text)
        r = d().post(f"/api/events/{other}/cancel", json={}, headers={"accept-language": "fr"})
        assert r.status_code == 409 and "commencé" in r.json()["error"], r.text


def test_a_club_event_is_directed_by_the_clubs_admins_too(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        who = people(c, "Owner", "Member")
        slug = new_club(who.as_("Owner"), "Mardi soir", public=True)
        assert join(who.as_("Member"), invite(who.as_("Owner"), slug)).status_code == 200
        eid = make_event(who.as_("Owner"), club=slug).json()["event"]["id"]
        assert post(who.as_("Member"), f"/api/events/{eid}/cancel", {}).status_code == 403
        assert post(who.as_("Owner"), f"/api/events/{eid}/edit", {"name": "Mardi duplicate"}).status_code == 200


def play_until_deals(p: Player, table: Any, deals: int) -> None:
    """Play the first legal action at each of the seat's turns until ``deals`` deals are finished and it is the
    seat's turn again (so that the table waits for it)."""
    for _ in range(100_000):
        st = p.state or {}
        if st.get("legal") and len(table.match.results) >= deals:
            return
        if st.get("legal") and table.match.to_act() == p.seat:
            reply = p.act(st["legal"][0])
            if reply["type"] == "error":
                p.recv()
            continue
        p.recv()
    raise AssertionError("the deals were never played")


def test_only_the_deals_after_a_player_left_are_the_stand_ins(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, grace=1000, **FAST)) as c:
        who = people(c, "Dora", "Ann")
        eid = make_event(who.as_("Dora"), deals=3, clock="relaxed").json()["event"]["id"]
        register_all(who, eid, "Ann")
        assert post(who.as_("Dora"), f"/api/events/{eid}/start", {}).status_code == 200
        ((_, _, tid),) = tables_of(c, eid)
        table = c.app.state.lobby.tables[tid]
        p = Player(c, tid, headers=ORIGIN | {"cookie": f"{COOKIE}={who.sessions['Ann']}"})
        play_until_deals(p, table, 1)  # Ann plays the first deal herself, then leaves in the second
        p.close()
        all_leave(c, who, eid, ["Ann"])
        with c.app.state.lobby.store.engine.connect() as conn:
            (ann,) = eventstore.players(conn, eid)
        assert ann.left and ann.left_round == 1 and ann.left_deal == 1
        wait_for(lambda: table.status == "over")
        tick(c)
        page = who.as_("Ann").get(f"/api/events/{eid}").json()
        (mine,) = page["standings"]
        assert page["status"] == "over" and mine["boards"] == 3 and mine["stand_in"] == 2
        marks = [row["seats"][p.seat]["stand_in"] for b in page["travellers"] for row in b["tables"]]
        assert marks == [False, True, True]


def test_stand_in_marks_from_where_each_player_left() -> None:
    from types import SimpleNamespace

    from barbu.web.events.service import deal_rows, stand_in_starts
    from barbu.web.events.store import Player as Registered

    plan = [[[0, 1, None, 2]], [[2, None, 0, 1]]]
    people_ = [Registered(1, "Ann", 0, True, 1, 2), Registered(2, "Bob", 1, False), Registered(3, "Cy", 2, True)]
    assert stand_in_starts(plan, people_, 1, 1) == {0: 2}  # Ann left after two deals of round 1
    assert stand_in_starts(plan, people_, 2, 1) == {}  # round 2: her seat is the stand-in's from its start
    assert stand_in_starts(plan, people_, 3, 1) == {} and stand_in_starts(None, people_, 1, 1) == {}
    results = [SimpleNamespace(scores=[1, 2, 3, 4]) for _ in range(4)]
    t = SimpleNamespace(
        id="t1",
        status="over",
        match=SimpleNamespace(results=results),
        seats=[SimpleNamespace(left=x) for x in (True, False, False, True)],
    )
    rows = deal_rows(t, 1, 1, {0: 2})
    assert [r.stand_in[0] for r in rows] == [False, False, True, True]
    assert all(r.stand_in[3] for r in rows)  # marked left, not known when (an older event): every deal
    assert not any(r.stand_in[1] or r.stand_in[2] for r in rows)


@pytest.mark.slow
def test_a_besigue_event_plays_rounds_dealt_alike_and_refuses_one_match(sqlite_url: str, tmp_path) -> None:
    names = ["Ann", "Bob", "Cy", "Eve"]
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        who = people(c, "Dora", *names)
        r = make_event(who.as_("Dora"), rules="besigue", format="one-match", deals=None)
        assert r.status_code == 400 and "rounds" in r.json()["error"]
        r = make_event(who.as_("Dora"), rules="besigue", format="rounds", rounds=1, deals=None)
        assert r.status_code == 201, r.text
        ev = r.json()["event"]
        assert ev["seats"] == 2 and ev["deals"] == 2
        eid = ev["id"]
        register_all(who, eid, *names)
        assert post(who.as_("Dora"), f"/api/events/{eid}/start", {}).status_code == 200
        tables = tables_of(c, eid)
        assert len(tables) == 2
        lobby = c.app.state.lobby
        all_leave(c, who, eid, names)
        wait_for(lambda: all(lobby.tables[tid].status == "over" for _, _, tid in tables))
        dealt = []
        for _, _, tid in tables:
            t = lobby.tables[tid]
            assert len(t.match.results) == 2
            actions = [t.match.parse_action(text) for _, text in t.match.history]
            assert verify_board_chance(lambda: open_game(str(t.rules), t.seed), actions, t.secret) == []
            dealt.append([text for actor, text in t.match.history if actor == -1])
        assert dealt[0] == dealt[1] and dealt[0]  # the same cards, from the same seats, at both tables
        from barbu.records.besigue import read_record, verify_deals  # `barbu replay` checks them from the record

        for i, (_, _, tid) in enumerate(tables):
            path = tmp_path / f"table{i}.jsonl"
            path.write_text(c.get(f"/api/tables/{tid}/record").text)
            assert verify_deals(read_record(path)) == []
        tick(c)
        page = who.as_(None).get(f"/api/events/{eid}").json()
        assert page["status"] == "over" and len(page["travellers"]) == 2
        assert sorted(s["name"] for s in page["standings"]) == sorted(names)


# ---------------------------------------------------------------- the push: told at once, never polled
def settled(c: Any) -> None:
    """Every notice of change handled (the checks of the pages' digests, the tasks a table's deal started)."""
    events = c.app.state.events
    wait_for(lambda: not events.push._checking and not events._background and not events.push._tasks)


@contextlib.contextmanager
def watching(c: Any, eid: int) -> Iterator[Any]:
    """The event page's WebSocket, as a browser opens it (the Origin, the session in the client's cookie jar)."""
    with c.websocket_connect(f"/ws/events/{eid}", headers=ORIGIN) as ws:
        assert ws.receive_json() == {"type": "watching"}
        yield ws


def test_the_page_is_told_as_soon_as_the_standings_change_and_never_before_a_board_is_shown(sqlite_url: str) -> None:
    """The page's socket is told "changed" when a board enters the standings (and when players register or leave);
    a deal finished at one table while the other has not played that board tells nothing.  No reading of the
    page's JSON is made between two notices: the notice alone says when to read it."""
    names = ["Ann", "Bob", "Cy", "Eve", "Fay"]
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        who = people(c, "Dora", *names)
        eid = make_event(who.as_("Dora"), deals=1).json()["event"]["id"]
        with watching(c, eid) as ws:
            told_at_once(c, who, eid, ws, names)


def told_at_once(c: Any, who: People, eid: int, ws: Any, names: list[str]) -> None:
    events = c.app.state.events
    c.portal.call(lambda: _async(events._task.cancel))  # no watcher's round: what happens is pushed
    push = events.push
    assert push.watched(eid) == 1
    register_all(who, eid, "Ann")
    assert ws.receive_json() == {"type": "changed"}  # a registration is seen at once
    received = 1
    register_all(who, eid, *names[1:])
    assert post(who.as_("Dora"), f"/api/events/{eid}/start", {}).status_code == 200
    lobby = c.app.state.lobby
    tables = tables_of(c, eid)
    first, second = (lobby.tables[tid] for _, _, tid in tables)
    for s in first.seats:  # the first table's players leave: the stand-ins finish its deal
        if s.kind == "human":
            all_leave(c, who, eid, [s.name])
    wait_for(lambda: first.status == "over")
    settled(c)
    while received < push.told:  # the registrations, the start and the leaving were told (coalesced)
        assert ws.receive_json() == {"type": "changed"}
        received += 1
    checks, told = push.checks, push.told
    page = who.as_(None).get(f"/api/events/{eid}").json()
    assert page["standings"] == [] and page["travellers"] == [] and page["status"] == "running"
    # The first table's deal was heard (a check was made) but the second table has not played the board: the
    # page was told nothing of it.
    c.portal.call(lambda: _async(events.changed, eid))
    settled(c)
    assert push.checks > checks and push.told == told
    for s in second.seats:
        if s.kind == "human":
            all_leave(c, who, eid, [s.name])
    wait_for(lambda: second.status == "over")
    # told without asking: the board is in the standings once the page reads its JSON again
    while True:
        assert ws.receive_json() == {"type": "changed"}
        page = who.as_(None).get(f"/api/events/{eid}").json()
        if page["standings"]:
            break
    assert sorted(s["name"] for s in page["standings"]) == sorted(names)
    assert [b["board"] for b in page["travellers"]] == ["r1-d1"]
    # the round is over: the event ends at once (the last table's end moves it on, with no watcher)
    while page["status"] != "over":
        assert ws.receive_json() == {"type": "changed"}
        page = who.as_(None).get(f"/api/events/{eid}").json()
    assert page["key"] is not None


def test_the_push_socket_is_checked_like_a_tables(sqlite_url: str) -> None:
    """A cross-site handshake is refused, a private club's event is not there for an outsider, an unknown event
    neither, and an address holds no more sockets than the server allows (the tables' and the events' together)."""
    from starlette.websockets import WebSocketDisconnect

    with client(Settings(db_url=sqlite_url, connections_per_address=2, **FAST)) as c:
        who = people(c, "Owner", "Stranger")
        slug = new_club(who.as_("Owner"), "Les Jeudis", public=False)
        private = make_event(who.as_("Owner"), club=slug).json()["event"]["id"]
        public = make_event(who.as_("Owner"), name="Open to all").json()["event"]["id"]
        with pytest.raises(WebSocketDisconnect):
            with c.websocket_connect(f"/ws/events/{public}", headers={"origin": "http://evil.example"}) as ws:
                ws.receive_json()
        for eid, name in ((private, "Stranger"), (private, None), ("999", None)):
            with who.as_(name).websocket_connect(f"/ws/events/{eid}", headers=ORIGIN) as ws:
                msg = ws.receive_json()
                assert msg["type"] == "error" and msg["code"] == "no_event" and "no event" in msg["error"], msg
        with watching(who.as_("Owner"), private):  # a member sees his club's event
            with watching(who.as_(None), public):
                with c.websocket_connect(f"/ws/events/{public}", headers=ORIGIN) as ws:
                    msg = ws.receive_json()
                    assert msg["code"] == "too_many_connections" and "2" in msg["message"]
            wait_for(lambda: c.app.state.lobby.connections.get("testclient", 0) < 2)
            with watching(c, public):  # one closed: one more may open
                pass


def test_a_notice_from_another_process_reaches_the_pages_here(sqlite_url: str) -> None:
    """The notices travel between processes on the broker's channel; the checks they start are this process's
    own: a notice for an event whose page shows nothing new tells nothing, one that changed it tells."""
    import asyncio

    class Channel:  # the broker's publish and subscribe, in memory: two processes share it
        def __init__(self) -> None:
            self.queues: list[asyncio.Queue] = []

        def pubsub(self, **_: Any) -> Any:
            channel = self

            class Sub:
                def __init__(self) -> None:
                    self.q: asyncio.Queue = asyncio.Queue()
                    channel.queues.append(self.q)

                async def subscribe(self, name: str) -> None:
                    self.name = name

                async def listen(self) -> Any:
                    while True:
                        yield {"type": "message", "data": await self.q.get()}

                async def aclose(self) -> None:
                    pass

            return Sub()

        async def publish(self, name: str, data: str) -> None:
            for q in self.queues:
                q.put_nowait(data)

    from barbu.web.events.push import EventPush

    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        who = people(c, "Dora", "Ann")
        eid = make_event(who.as_("Dora")).json()["event"]["id"]
        events = c.app.state.events
        channel = Channel()
        here = events.push
        there = EventPush(events.digest)  # another process's push, the same database behind it
        c.portal.call(here.start, channel, "here")
        c.portal.call(there.start, channel, "there")
        try:
            with watching(c, eid) as ws:
                c.portal.call(lambda: _async(there.changed, eid))  # nothing changed: nothing told
                wait_for(lambda: here.checks >= 2)
                settled(c)
                assert here.told == 0
                with c.app.state.lobby.store.engine.begin() as conn:  # a registration made by the other process
                    eventstore.add_player(conn, eid, c.portal.call(events.find, eid).director_id)
                c.portal.call(lambda: _async(there.changed, eid))
                assert ws.receive_json() == {"type": "changed"}
                assert here.told == 1 and there.told == 0  # the other process holds no page of it
        finally:
            c.portal.call(there.stop)


async def _async(fn: Any, *args: Any) -> None:
    fn(*args)


class Browser:
    """One person's browser against real server processes: its own cookie jar (his session)."""

    def __init__(self) -> None:
        import http.cookiejar
        import urllib.request

        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def call(self, method: str, url: str, body: Any = None) -> tuple[int, Any]:
        import json
        import urllib.error
        import urllib.request

        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(
            url, data=data, method=method, headers={"content-type": "application/json"} if data is not None else {}
        )
        try:
            with self.opener.open(req, timeout=20) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"null")


@pytest.mark.slow
def test_a_page_held_by_one_process_is_told_of_a_deal_finished_in_another(serve: Any) -> None:
    """Two `barbu serve --broker` processes: the event's table is played by A; its page's socket is held by B.
    When the table's deal is over, B's page is told at once (the notice crossed the broker) and B's JSON shows
    the standings."""
    import asyncio
    import json

    from conftest import postgres_url, redis_url, reset_postgres
    from test_web_accounts import PASSWORD
    from test_web_cluster import processes, running
    from websockets.asyncio.client import connect

    db = postgres_url()
    reset_postgres(db)
    broker = redis_url()
    a, b = servers = processes(serve, db, broker, 2, "--signups-per-hour", "0")
    with running(servers):
        dora, ann = Browser(), Browser()
        for person, name in ((dora, "Dora"), (ann, "Ann")):
            status, body = person.call("POST", a.base + "/api/account/signup", {"name": name, "password": PASSWORD})
            assert status == 201, body
        status, body = dora.call(
            "POST",
            a.base + "/api/events",
            {
                "name": "Across the processes",
                "rules": "classic",
                "format": "one-match",
                "deals": 1,
                "clock": "normal",
                "strength": "random",
            },
        )
        assert status == 201, body
        eid = body["event"]["id"]
        assert ann.call("POST", f"{a.base}/api/events/{eid}/register", {})[0] == 200
        assert dora.call("POST", f"{a.base}/api/events/{eid}/start", {})[0] == 200
        leases = [dora.call("GET", srv.base + "/api/health")[1]["process"]["leases"] for srv in (a, b)]
        assert leases == [1, 0]  # the event's table is A's

        async def watch() -> list[dict[str, Any]]:
            told: list[dict[str, Any]] = []
            async with connect(f"{b.ws_base}/ws/events/{eid}", origin=b.base) as ws:
                told.append(json.loads(await asyncio.wait_for(ws.recv(), 20)))
                assert told[0] == {"type": "watching"}
                # Ann leaves (through A): the stand-in plays her seat, and the deal ends on A
                assert await asyncio.to_thread(ann.call, "POST", f"{a.base}/api/events/{eid}/leave", {}) == (
                    200,
                    {"ok": True, "done": "left"},
                )
                while True:  # (a minute passes before B would look again by itself: the notice came from A)
                    told.append(json.loads(await asyncio.wait_for(ws.recv(), 40)))
                    status, page = await asyncio.to_thread(ann.call, "GET", f"{b.base}/api/events/{eid}")
                    assert status == 200 and told[-1] == {"type": "changed"}, (told, page)
                    if page["standings"]:
                        return told

        told = asyncio.run(watch())
        status, page = ann.call("GET", f"{b.base}/api/events/{eid}")
        assert [s["name"] for s in page["standings"]] == ["Ann"] and page["travellers"][0]["board"] == "r1-d1"
        assert len(told) >= 2
        for s in servers:
            assert "Traceback" not in s.log(), s.log()[-3000:]


# ---------------------------------------------------------------- the director changes everything before the start
def test_the_director_changes_the_game_the_format_and_the_numbers_before_the_start(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        who = people(c, "Dora", "Ann", "Bob", "Cy", "Eve", "Fay", "Gus")

        def d() -> Any:
            return who.as_("Dora")

        eid = make_event(d(), tables=2, deals=None).json()["event"]["id"]
        register_all(who, eid, "Ann", "Bob", "Cy", "Eve", "Fay")  # five registered at two tables of four
        page = d().get(f"/api/events/{eid}").json()
        assert (page["rules"], page["deals"], page["deals_default"], page["changed"]) == ("classic", 28, 28, None)
        facts = ("name", "rules", "format", "rounds", "tables", "deals", "strength", "clock", "start", "room")
        before = {k: page[k] for k in facts}
        # Each mistake gets a plain answer and changes nothing
        for body, status, words in (
            ({"tables": 1}, 409, "5 players are registered"),  # 4 places for 5 players
            ({"rules": "besigue", "format": "rounds", "rounds": 2}, 409, "4 places"),  # two a table now
            ({"rules": "besigue"}, 400, "rounds format"),  # Bésigue plays rounds only
            ({"rules": "classic", "players": 5}, 400, ""),
            ({"rules": "nonsense"}, 400, ""),
            ({"format": "swiss"}, 400, "swiss"),
            ({"format": "one-match", "rounds": 3}, 400, "3 rounds"),
            ({"format": "rounds", "rounds": 9}, 400, "1 to 8"),
            ({"tables": 51}, 400, "1 to 50"),
            ({"deals": 0}, 400, "1 to 60"),
            ({"strength": "wizard"}, 400, "wizard"),
            ({"clock": "none"}, 400, "clock"),
            ({"name": "x"}, 400, "2 to 60"),
            ({"club": "elsewhere"}, 400, "nothing to change"),
        ):
            r = post(d(), f"/api/events/{eid}/edit", body)
            assert r.status_code == status and words in r.json()["error"], (body, r.text)
        assert {k: d().get(f"/api/events/{eid}").json()[k] for k in facts} == before
        assert post(who.as_("Ann"), f"/api/events/{eid}/edit", {"rules": "salad"}).status_code == 403
        # Salad for five a table, in two rounds, quicker, stronger computer players: the deals follow the format
        r = post(
            d(),
            f"/api/events/{eid}/edit",
            {
                "rules": "salad",
                "players": 5,
                "format": "rounds",
                "rounds": 2,
                "clock": "quick",
                "strength": "rule",
                "name": before["name"],
            },
        )
        assert r.status_code == 200, r.text
        assert r.json()["changed"] == ["rules", "format", "rounds", "deals", "strength", "clock"]
        page = d().get(f"/api/events/{eid}").json()
        assert (
            page["rules"],
            page["format"],
            page["rounds"],
            page["deals"],
            page["deals_default"],
            page["room"],
            page["seats"],
            page["strength"],
        ) == ("salad(players=5)", "rounds", 2, 6, 6, 10, 5, "rule")
        assert page["changed"] is None  # the director's own page: nothing to tell him
        # a registered player is told what changed since he registered; someone registering after is not
        ann = who.as_("Ann").get(f"/api/events/{eid}").json()
        assert ann["changed"]["fields"] == ["rules", "format", "rounds", "deals", "strength", "clock"]
        register_all(who, eid, "Gus")
        assert who.as_("Gus").get(f"/api/events/{eid}").json()["changed"] is None
        assert who.as_(None).get(f"/api/events/{eid}").json()["changed"] is None
        # deals chosen stay chosen through a change of format; empty again, the format's own
        assert post(d(), f"/api/events/{eid}/edit", {"deals": 3}).json()["changed"] == ["deals"]
        r = post(d(), f"/api/events/{eid}/edit", {"format": "one-match", "rounds": 1})
        assert r.json()["deals"] == 3 and r.json()["changed"] == ["format", "rounds"]
        assert who.as_("Gus").get(f"/api/events/{eid}").json()["changed"]["fields"] == ["format", "rounds", "deals"]
        r = post(d(), f"/api/events/{eid}/edit", {"deals": None, "tables": None})
        assert r.json()["deals"] == 30 and r.json()["tables"] is None  # salad for five: 30 deals; open registration
        same = post(d(), f"/api/events/{eid}/edit", {"clock": "quick"})
        assert same.status_code == 200 and same.json()["changed"] == []
        # it starts as changed: six players at two tables of five, playing salad
        assert post(d(), f"/api/events/{eid}/start", {}).status_code == 200
        lobby = c.app.state.lobby
        made = [lobby.tables[tid] for _, _, tid in tables_of(c, eid)]
        assert len(made) == 2 and all(str(t.rules) == "salad(players=5)" and t.deal_limit == 30 for t in made)
        assert who.as_("Ann").get(f"/api/events/{eid}").json()["changed"] is None  # told before the start only
        r = post(d(), f"/api/events/{eid}/edit", {"rules": "classic"})
        assert r.status_code == 409 and "started" in r.json()["error"]


def test_a_change_is_refused_in_the_readers_language(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        who = people(c, "Dora", "Ann", "Bob", "Cy", "Eve", "Fay")
        eid = make_event(who.as_("Dora"), tables=2).json()["event"]["id"]
        register_all(who, eid, "Ann", "Bob", "Cy", "Eve", "Fay")
        for lang, words in (("fr", "inscrits"), ("it", "iscritti")):
            r = who.as_("Dora").post(
                f"/api/events/{eid}/edit",
                json={"tables": 1},
                headers={"accept-language": lang, "x-test-address": ADDRESSES[0]},
            )
            assert r.status_code == 409 and words in r.json()["error"], r.text
