"""The server's own puzzles from finished daily deals (`barbu.web.puzzles.harvest`): a finished past day's boards
give public puzzles sourced to their board and linked to the play's replay (which then opens to anyone); today's
boards give none while the day lasts; a day harvested again, or by a second process, adds nothing.

The app in process (Starlette's TestClient) on SQLite and PostgreSQL, a fixed daily secret so the boards are the
same on every run; the finder in its own process, as on a server.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select
from test_web_daily import play_set
from test_web_private import client

from barbu.puzzles.check import verify
from barbu.puzzles.model import OPEN, Puzzle
from barbu.web import Settings
from barbu.web.puzzles import store as S
from barbu.web.puzzles.harvest import PER_BOARD, Harvest

DAY, NEXT = "2026-03-14", "2026-03-15"
BOARDS = 2


def public(c: Any) -> list[Puzzle]:
    """The public pool's puzzles that came from daily deals."""
    with c.app.state.lobby.store.engine.connect() as conn:
        rows = conn.execute(select(S.PUZZLES.c.body).where(S.PUZZLES.c.owner_id.is_(None))).scalars()
        found = [Puzzle.from_dict(json.loads(b)) for b in rows]
    return [p for p in found if p.source.startswith("daily:")]


def test_a_finished_days_daily_boards_give_public_puzzles_once_and_todays_none(db_url: str) -> None:
    settings = Settings(db_url=db_url, bot_delay=0.0, deal_pause=0.0, daily_boards=BOARDS, signups_per_hour=0)
    with client(settings) as c:
        app: Any = c.app
        daily, puzzles = app.state.daily, app.state.puzzles
        assert app.state.harvest._task is None  # the tests' default: nothing in the background
        daily._secret = bytes(range(32))  # the same boards on every run
        daily.today = lambda: DAY
        for pick in (0, 1):  # two guests play the day's classic set
            c.cookies.clear()
            play_set(c, pick=pick)
        harvest = Harvest(puzzles, daily, kinds=(OPEN,))
        other = Harvest(puzzles, daily, kinds=(OPEN,))  # a second process of the same server
        try:
            # the day lasts: its boards are never looked at, nor claimed
            assert harvest.due() == [] and harvest.harvest_day(DAY, "classic") == 0 and harvest.pass_once() == 0
            assert public(c) == []
            daily.today = lambda: NEXT  # the day is over
            assert harvest.due() == [(DAY, "classic")]  # the set someone finished
            added = harvest.pass_once()
            found = public(c)
            assert added == len(found) > 0, "the fixed boards hold puzzles"
            for p in found:
                day, game, board = p.source.removeprefix("daily:").split("/")
                assert (day, game) == (DAY, "classic") and 1 <= int(board) <= BOARDS
                assert verify(p) == []  # proved again by the pure solver
                assert '"guest' not in json.dumps(p.to_dict()).lower()  # nobody named
                # no link to the play it came from: that replay (and the name it shows) is its player's to give
                assert p.replay is None
            per_board: dict[str, int] = {}
            for p in found:
                per_board[p.source] = per_board.get(p.source, 0) + 1
            assert max(per_board.values()) <= PER_BOARD
            # again, by this process or another: nothing more, nothing twice
            assert harvest.pass_once() == 0 and other.pass_once() == 0 and other.harvest_day(DAY, "classic") == 0
            assert sorted(p.id for p in public(c)) == sorted(p.id for p in found)
        finally:
            harvest.close()
            other.close()


def test_an_events_round_gives_public_puzzles_only_once_over_and_once(sqlite_url: str) -> None:
    from test_web_events import FAST, all_leave, make_event, people, register_all, tables_of, tick, wait_for
    from test_web_private import post

    from barbu.web.events import store as eventstore

    names = ["Ann", "Bob", "Cy", "Eve", "Fay"]
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        app: Any = c.app
        harvest = app.state.harvest
        harvest.kinds = (OPEN,)
        assert harvest._task is None  # the tests' default: nothing in the background
        who = people(c, "Dora", *names)
        eid = make_event(who.as_("Dora"), deals=2, strength="rule").json()["event"]["id"]
        with app.state.lobby.store.engine.begin() as conn:  # the same deals on every run
            eventstore.set_event(conn, eid, secret="5e" * 32)
        register_all(who, eid, *names)
        assert post(who.as_("Dora"), f"/api/events/{eid}/start", {}).status_code == 200
        tables = [tid for _, _, tid in tables_of(c, eid)]
        try:
            # the round is being played: its tables are not looked at, nor claimed
            assert harvest.due_rounds() == [] and harvest.pass_once() == 0
            all_leave(c, who, eid, names)
            lobby = app.state.lobby
            wait_for(lambda: all(lobby.tables[tid].status == "over" for tid in tables))
            tick(c)  # the round, so the event, is over: its replays open to anyone
            assert [r[0] for r in harvest.due_rounds()] == [f"event:{eid}/1"]
            added = harvest.pass_once()
            with lobby.store.engine.connect() as conn:
                rows = conn.execute(select(S.PUZZLES.c.body).where(S.PUZZLES.c.owner_id.is_(None))).scalars()
                found = [p for p in (Puzzle.from_dict(json.loads(b)) for b in rows) if p.source.startswith("event:")]
            assert added == len(found) > 0, "four deals of random players hold puzzles"
            per_board: dict[str, int] = {}
            for p in found:
                assert p.source == f"event:{eid}/1/{p.source_deal}" and p.source_deal in (1, 2)
                assert p.replay is not None and p.replay.split("#")[0] in {f"/t/{t}/replay" for t in tables}
                assert p.replay.endswith(f"#deal={p.source_deal}&move=0")
                assert not any(f'"{n}' in json.dumps(p.to_dict()) for n in names)  # nobody named
                tid = p.replay.split("/")[2]
                assert c.get(f"/api/replays/{tid}").status_code == 200  # its replay opens to anyone now
                per_board[p.source] = per_board.get(p.source, 0) + 1
            assert max(per_board.values()) <= PER_BOARD
            assert harvest.pass_once() == 0  # never twice
        finally:
            harvest.close()
