"""Double-dummy tables solved in the background (`barbu.web.replay.solved`, migration 0024): a daily board's table
served at once and as stored to the one who finished it, never to another while the day lasts; one claim a
board however many processes try at once, and a claim left by a stopped process taken over; an event round's
boards found before they are played, each with every row any of its tables may show.

The app in process (Starlette's TestClient) on SQLite and PostgreSQL; tiny budgets (positions, so the same cells
finish on every run).
"""

from __future__ import annotations

import hashlib
import threading
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import update
from test_web_daily import play_set
from test_web_private import client, post

from barbu.analysis.ddtable import board_key, deal_start, option_key, options
from barbu.classic.match import CHANCE, Match
from barbu.core.chance import BoardChance
from barbu.records.barbu import read_record
from barbu.web import Settings
from barbu.web.db import solved_tables as db
from barbu.web.db.storage import make_engine, migrate, now
from barbu.web.replay.solved import SolvedTables, fully_stored, round_starts, start_actions

SECONDS = 0.002  # 30,000 positions a cell


def settings(url: str) -> Settings:
    return Settings(db_url=url, bot_delay=0.0, deal_pause=0.0, daily_boards=1, signups_per_hour=0)


def test_a_daily_boards_table_is_solved_beforehand_and_shown_at_once_to_its_finisher_alone(db_url: str) -> None:
    with client(settings(db_url)) as c:
        daily, solved = c.app.state.daily, c.app.state.solved
        assert solved.workers == 0 and solved._task is None  # the tests' default: no background solving
        solved.seconds, solved.workers = SECONDS, 1
        solved.daily_sets = lambda: [daily.set_of(daily.today(), "classic")]
        try:
            assert solved.pass_once() == 1  # the day's classic set (one board here) solved and stored
            assert solved.pass_once() == 0  # and not again
        finally:
            solved._pool.shutdown()  # type: ignore[union-attr]
            solved._pool = None
        store = c.app.state.lobby.store
        # a guest who started the set but has not finished it gets no replay, so no table
        assert post(c, "/api/daily/classic/start", {}).status_code == 200
        assert c.get("/api/daily/classic/boards/0/replay").status_code == 403
        c.cookies.clear()
        play_set(c)  # another guest plays the set to its end
        link = c.get("/api/daily/classic/boards/0/replay")
        assert link.status_code == 200, link.text
        rid = link.json()["url"].rsplit("/", 1)[1]
        first = post(c, f"/api/replays/{rid}/deals/1/dd", {})
        assert first.status_code == 200, first.text
        body = first.json()
        assert body["state"] == "done" and body["stored"] is True and body["seconds"] == SECONDS  # at once
        assert c.app.state.analyses._dd_pool is None and not c.app.state.analyses.dd_jobs  # nothing solved here
        # exactly the stored cells, row by row
        record = c.get("/api/daily/classic/boards/0/record").text.splitlines()
        rec = read_record(record)
        start = deal_start(str(rec.rules), rec.seed, [t for _n, t in rec.actions], 1)
        with store.engine.connect() as conn:
            cells, budget = db.cells_of(conn, board_key(start))  # type: ignore[misc]
        assert budget == SECONDS and fully_stored(start, cells, start.n)
        found, _ = options(start)
        assert [(r["contract"], r["trump"]) for r in body["rows"]] == [(o.contract, o.trump) for o in found]
        kinds = set()
        for row, opt in zip(body["rows"], found):
            for cell, (least, most, _positions, floor, ceiling) in zip(row["cells"], cells[option_key(opt)]):
                assert cell["exact"] == (least == most)
                if least == most:
                    assert cell["least"] == cell["most"] == least
                    kinds.add("exact")
                else:
                    assert cell["least"] == (least if least > floor else None)
                    assert cell["most"] == (most if most < ceiling else None)
                    kinds.add("range")
        assert kinds == {"exact", "range"}
        # another browser, which has not played today's set: the same replay and its table are refused
        c.cookies.clear()
        for method, path in (("POST", f"/api/replays/{rid}/deals/1/dd"), ("GET", f"/api/replays/{rid}")):
            r = c.request(
                method, path, json={} if method == "POST" else None, headers={"x-test-address": "203.0.113.9"}
            )
            assert r.status_code in (403, 404) and r.json()["code"], r.text
            assert "rows" not in r.text and "cells" not in r.text


def claimers(url: str, key: str, n: int = 4) -> list[bool]:
    """``n`` processes' claims of one board at the same moment (each its own engine): what each got."""
    engines = [make_engine(url) for _ in range(n)]
    gate = threading.Barrier(n)
    got: list[Any] = [None] * n

    def claim(i: int) -> None:
        gate.wait()
        got[i] = db.claim(engines[i], key, f"p{i}", 60.0)

    threads = [threading.Thread(target=claim, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for e in engines:
        e.dispose()
    return got


def test_one_claim_a_board_and_a_stopped_processs_claim_is_taken_over(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        migrate(engine)
        m = Match("classic", None)
        chance = BoardChance(b"claims" * 6)
        while m.to_act() == CHANCE:
            m.apply(chance(m))
        board = db.Board(board_key(m), "daily:2026-11-29/classic/1", "classic", start_actions(m), SECONDS)
        assert db.add(engine, board) and not db.add(engine, board)  # added once, whatever process adds it
        got = claimers(db_url, board.key)
        assert sorted(got) == [False, False, False, True], got
        winner = f"p{got.index(True)}"
        with engine.connect() as conn:
            assert db.to_solve(conn, 60.0) == []  # claimed and renewed: nobody else's
        assert db.renew(engine, board.key, winner) and not db.renew(engine, board.key, "p9")
        # its process stops: after the claim is stale a new process (a restart) takes it over, and the old
        # one can neither renew nor save
        with engine.begin() as conn:
            conn.execute(
                update(db.SOLVED).where(db.SOLVED.c.key == board.key).values(claimed_at=now() - timedelta(seconds=61))
            )
        tables = SolvedTables(lambda: None, workers=1, seconds=SECONDS, stale=60.0)
        with engine.connect() as conn:
            assert [b.key for b in db.to_solve(conn, 60.0)] == [board.key]
        assert db.claim(engine, board.key, tables.claimer, 60.0)
        assert not db.renew(engine, board.key, winner) and not db.save(engine, board.key, winner, {}, 0, 0)
        assert db.save(engine, board.key, tables.claimer, {"k": []}, 0, 0)
        with engine.connect() as conn:
            assert db.state_of(conn, board.key) == db.DONE and db.cells_of(conn, board.key) == ({"k": []}, SECONDS)
    finally:
        engine.dispose()


@pytest.mark.parametrize(
    "secret",
    [bytes(range(32)), hashlib.sha256(bytes([21])).digest()],  # the second's first draw ties and is drawn again
    ids=["plain", "tied-draw"],
)
def test_an_event_rounds_boards_are_found_before_play_with_every_row_its_tables_may_show(secret: bytes) -> None:
    starts = round_starts("classic", secret, 6)
    assert len(starts) == 6 and all(len(s.history) == 2 for s in starts[1:])  # each dealt as a fresh match's first
    for pick in (0, -1):  # two tables of the round, whose players choose differently
        m = Match("classic", None)
        chance = BoardChance(secret)
        seen = 0
        while m.to_act() is not None and len(m.results) < 6:
            if m.to_act() == CHANCE:
                m.apply(chance(m))
                continue
            if len(m.results) == seen:
                stored = starts[seen]
                assert board_key(m) == board_key(stored), seen  # the same deal, found before anyone played
                mine = {option_key(o) for o in options(m)[0]}
                assert mine <= {option_key(o) for o in options(stored)[0]}  # every row this table may show
                cells = {k: [[0, 0, 0, 0, 0]] * 4 for k in mine}
                assert fully_stored(m, cells, 4)
                seen += 1
            legal = m.legal_actions()
            m.apply(legal[pick])
        assert seen == 6


def test_an_events_boards_are_solved_when_its_round_is_made_and_shown_once_the_round_is_over(sqlite_url: str) -> None:
    from test_web_events import FAST, all_leave, make_event, people, register_all, tables_of, tick, wait_for

    names = ["Ann", "Bob", "Cy", "Eve", "Fay"]
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        solved = c.app.state.solved
        solved.seconds, solved.workers, solved.daily_sets = SECONDS, 1, lambda: []
        woken: list[bool] = []
        c.app.state.events.rounds.on_made = lambda: woken.append(True)  # as the app wires `solved.wake`
        who = people(c, "Dora", *names)
        eid = make_event(who.as_("Dora"), deals=2).json()["event"]["id"]
        register_all(who, eid, *names)
        assert post(who.as_("Dora"), f"/api/events/{eid}/start", {}).status_code == 200
        assert woken == [True]  # the round's tables made: the solver told at once
        try:
            assert solved.pass_once() == 2  # the round's two deals, found before anyone played them
        finally:
            solved._pool.shutdown()  # type: ignore[union-attr]
            solved._pool = None
        tables = [tid for _, _, tid in tables_of(c, eid)]
        assert len(tables) == 2
        # the round being played: its tables' replays, so their double-dummy tables, are refused
        r = post(c, f"/api/replays/{tables[0]}/deals/1/dd", {})
        assert r.status_code == 409 and "rows" not in r.text and "cells" not in r.text, r.text
        all_leave(c, who, eid, names)
        lobby = c.app.state.lobby
        wait_for(lambda: all(lobby.tables[tid].status == "over" for tid in tables))
        tick(c)
        for tid in tables:  # the two tables' deals, played differently, are the boards stored
            for deal in (1, 2):
                r = post(c, f"/api/replays/{tid}/deals/{deal}/dd", {})
                assert r.status_code == 200, r.text
                body = r.json()
                assert body["state"] == "done" and body["stored"] is True and body["seconds"] == SECONDS
        assert c.app.state.analyses._dd_pool is None  # nothing solved on demand


def test_an_events_boards_are_solved_before_a_days(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    try:
        migrate(engine)
        boards = []
        for i, source in enumerate(("daily:2026-11-29/classic/1", "event:7/1/1", "daily:2026-11-29/classic/2")):
            m = Match("classic", None)
            chance = BoardChance(bytes([i]) * 32)
            while m.to_act() == CHANCE:
                m.apply(chance(m))
            boards.append(db.Board(board_key(m), source, "classic", start_actions(m), SECONDS))
            assert db.add(engine, boards[-1])
        with engine.connect() as conn:
            assert [b.source for b in db.to_solve(conn, 60.0)] == [
                "event:7/1/1",  # its round is played within the hour
                "daily:2026-11-29/classic/1",
                "daily:2026-11-29/classic/2",
            ]
    finally:
        engine.dispose()
