"""An event's board that a table never played (the table ended before it) is shown once its round is over,
its matchpoints raised to a full board's by Neuberg's formula, and the standings say where."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from barbu.web.events import store as db
from barbu.web.events.results import Played, results_json


def _event(status: str, round_no: int) -> db.Event:
    # one round, three tables of four: positions 0-3 at table 1, 4-7 at table 2, 8-11 at table 3
    plan = [[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]]
    return db.Event(
        1, "Evening", 1, "Dir", None, "classic", "one-match", 1, 3, 2, "medium", "normal", None, status,
        round_no, "00" * 32, plan, datetime.now(timezone.utc),
    )  # fmt: skip


NAMES = [f"P{i}" for i in range(12)]


def _played(number: int, deal: int, scores: list[float], over: bool) -> Played:
    return Played(1, number, f"t{number}", deal, scores, "No tricks", 0, 0, [False] * 4, over)


# deal 1 at every table; deal 2 at tables 1 and 2 only (table 3 was ended after its first deal)
ROWS = [
    _played(1, 1, [10, -10, 0, 0], True),
    _played(2, 1, [0, 0, 0, 0], True),
    _played(3, 1, [-10, 10, 0, 0], True),
    _played(1, 2, [5, -5, 0, 0], True),
    _played(2, 2, [-5, 5, 0, 0], True),
]


def test_while_the_round_runs_the_short_board_is_not_shown() -> None:
    out = results_json(_event("running", 1), NAMES, ROWS, True)
    assert out["boards_shown"] == 1 and out["adjusted"] == []
    assert [b["board"] for b in out["travellers"]] == ["r1-d1"]


def test_once_the_event_is_over_the_short_board_counts_as_a_full_one() -> None:
    out = results_json(_event("over", 1), NAMES, ROWS, True)
    assert out["boards_shown"] == 2
    assert out["adjusted"] == ["r1-d2"]
    short = next(b for b in out["travellers"] if b["board"] == "r1-d2")
    assert short["adjusted"] is True and len(short["tables"]) == 2
    p0 = short["tables"][0]["seats"][0]  # P0 beat P4 on two results where three make a board: (1+1)·3/2 − 1 = 2
    assert (p0["name"], p0["matchpoints"], p0["top"]) == ("P0", pytest.approx(2.0), 2)
    p4 = short["tables"][1]["seats"][0]  # his bottom is (0+1)·3/2 − 1 = ½
    assert (p4["name"], p4["matchpoints"], p4["top"]) == ("P4", pytest.approx(0.5), 2)
    full = next(b for b in out["travellers"] if b["board"] == "r1-d1")
    assert full["adjusted"] is False and full["tables"][0]["seats"][0]["top"] == 2
    by_name = {s["name"]: s for s in out["standings"]}
    # P0: a top on deal 1 (2/2) and Neuberg's 2/2 on deal 2: 100 %; without the formula it would be 3/3 too,
    # but P4's 1/2 + ½/2 = 37.5 % would have been 1/2 + 0/1 = 33.3 %
    assert by_name["P0"]["percent"] == pytest.approx(100.0) and by_name["P0"]["adjusted"] == 1
    assert by_name["P4"]["matchpoints"] == pytest.approx(1.5) and by_name["P4"]["top"] == 4
    assert by_name["P4"]["percent"] == pytest.approx(37.5)
    assert by_name["P8"]["adjusted"] == 0 and by_name["P8"]["top"] == 2  # his table never played deal 2


def test_a_table_ended_before_its_last_deal_leaves_a_board_adjusted_by_neuberg(sqlite_url: str) -> None:
    """Nine players at three tables; all but Ann leave at once (the stand-in plays their seats), so that Ann is the
    only person at her table: she ends it from the lobby after the first deal, the two other tables play both
    deals.  The event ends; its second board, played at two tables of three, is shown with Neuberg's matchpoints
    on a full board's top (2), and the page lists it as adjusted."""
    from test_web_event_end import seated
    from test_web_events import FAST, all_leave, make_event, people, register_all, tables_of, tick, wait_for
    from test_web_private import client, post

    from barbu.web import Settings

    with client(Settings(db_url=sqlite_url, grace=1000, **FAST)) as c:
        others = [f"P{i}" for i in range(8)]
        who = people(c, "Dora", "Ann", *others)
        eid = make_event(who.as_("Dora"), deals=2, clock="relaxed").json()["event"]["id"]
        register_all(who, eid, "Ann", *others)
        assert post(who.as_("Dora"), f"/api/events/{eid}/start", {}).status_code == 200
        all_leave(c, who, eid, others)
        assert len(tables_of(c, eid)) == 3
        tid = who.as_("Ann").get(f"/api/events/{eid}").json()["my_table"]["id"]
        lobby = c.app.state.lobby
        table = lobby.tables[tid]
        p = seated(c, who, "Ann", tid)
        while not table.match.results:  # her first deal, her seat's first legal action each time
            st = p.state or {}
            if st.get("legal") and st.get("to_act") == p.seat:
                if p.act(st["legal"][0])["type"] == "error":
                    p.send({"type": "sync", "since": None})
                    p.until(lambda m: m["type"] == "sync")
            else:
                p.recv()
        p.close()
        r = post(who.as_("Ann"), f"/api/tables/{tid}/end", {})
        assert r.status_code == 200 and r.json()["kept"] is True, r.text
        others_tables = [lobby.tables[t] for _, _, t in tables_of(c, eid) if t != tid]
        wait_for(lambda: all(t.stored_status == "over" for t in [table, *others_tables]))
        assert [len(t.match.results) for t in others_tables] == [2, 2] and len(table.match.results) == 1
        tick(c)
        page = who.as_("Ann").get(f"/api/events/{eid}").json()
        assert page["status"] == "over" and page["boards_shown"] == 2
        assert page["adjusted"] == ["r1-d2"]
        short = next(b for b in page["travellers"] if b["board"] == "r1-d2")
        assert short["adjusted"] and len(short["tables"]) == 2
        for row in short["tables"]:
            for seat in row["seats"]:
                # two results where three make a board: 1, ½ or 0 raw become (S + 1)·3/2 − 1 on a top of 2
                assert seat["top"] == 2 and seat["matchpoints"] in (0.5, 1.25, 2.0), seat
        full = next(b for b in page["travellers"] if b["board"] == "r1-d1")
        assert not full["adjusted"] and len(full["tables"]) == 3
        rows = {s["name"]: s for s in page["standings"]}
        assert (rows["Ann"]["boards"], rows["Ann"]["adjusted"]) == (1, 0)
        assert sum(s["adjusted"] for s in page["standings"]) > 0  # the players of the other tables
