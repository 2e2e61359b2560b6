"""The replay's double-dummy table (``POST /api/replays/{id}/deals/{n}/dd``): solved on request off the event
loop, kept per match and deal, refused where the replay shows no hand, for Bésigue and the Scottish game.

In-process through Starlette's TestClient; tiny budgets per cell (counted in positions, so the same cells
finish on every run).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from wsclient import ORIGIN, app_client

from barbu.analysis.ddtable import dd_table, deal_start
from barbu.records.barbu import read_record
from barbu.web import Settings
from barbu.web.replay.service import Analyses, Job, Source

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "classic-seed7.jsonl"
SECONDS = 0.005  # 75,000 positions a cell: a few of the golden deal's cells finish, most do not


def settings(url: str, **extra) -> Settings:
    return Settings(db_url=url, bot_delay=0.0, deal_pause=0.0, burst=10_000, rate=10_000.0, **extra)


def upload(c) -> str:
    r = c.post("/api/replays", json={"record": GOLDEN.read_text()}, headers=ORIGIN)
    assert r.status_code == 201, r.text
    return r.json()["id"]


def solved(c, rid: str, deal: int) -> tuple[dict, set[str]]:
    """Ask for a deal's table until it is solved (the page polls the same way); the states seen on the way."""
    seen = set()
    for _ in range(1200):
        r = c.post(f"/api/replays/{rid}/deals/{deal}/dd", headers=ORIGIN)
        assert r.status_code == 200, r.text
        body = r.json()
        seen.add(body["state"])
        if body["state"] == "done":
            return body, seen
        assert body["state"] in ("queued", "running") and body["deal"] == deal
        assert 0 <= body["done"] <= body["total"] and "rows" not in body
        time.sleep(0.05)
    pytest.fail(f"the table of deal {deal} was never solved (states seen: {seen})")


def test_a_deals_table_is_the_solvers_shown_as_proved_and_kept(sqlite_url: str) -> None:
    with app_client(settings(sqlite_url)) as c:
        c.app.state.analyses.dd_seconds = SECONDS
        rid = upload(c)
        assert c.get(f"/api/replays/{rid}").json()["dd"] is True
        body, seen = solved(c, rid, 1)
        assert "queued" in seen  # the first answer: it has started, off the event loop
        record = read_record(str(GOLDEN))
        start = deal_start(str(record.rules), record.seed, [t for _n, t in record.actions], 1)
        table = dd_table(start, seconds=SECONDS, chosen=("trumps", 0))
        assert body["deal"] == 1 and body["declarer"] == 3 and body["seconds"] == SECONDS
        assert body["left_out"] == ["domino"] and body["exact"] is False
        assert [(r["contract"], r["trump"]) for r in body["rows"]] == [(r.contract, r.trump) for r in table.rows]
        assert [r["contract"] for r in body["rows"] if r["chosen"]] == ["trumps"]
        assert next(r for r in body["rows"] if r["chosen"])["trump"] == 0
        kinds = set()
        for row, want in zip(body["rows"], table.rows):
            assert len(row["cells"]) == 4 and row["bounds"] == [[c_.floor, c_.ceiling] for c_ in want.cells]
            for cell, c_ in zip(row["cells"], want.cells):
                lo, hi = c_.floor, c_.ceiling
                if c_.exact:
                    assert cell == {"least": c_.least, "most": c_.most, "exact": True}
                    kinds.add("exact")
                else:  # a bound still at the deal's static one proves nothing: null
                    assert cell["exact"] is False
                    assert cell["least"] == (c_.least if c_.least > lo else None)
                    assert cell["most"] == (c_.most if c_.most < hi else None)
                    kinds.add("range" if cell["least"] is not None or cell["most"] is not None else "nothing")
        assert {"exact", "range"} <= kinds
        analyses = c.app.state.analyses
        assert (rid, 1) in analyses.tables and not analyses.dd_jobs
        analyses.dd_seconds = 99.0  # kept: asked again, the same table at once, nothing solved again
        again = c.post(f"/api/replays/{rid}/deals/1/dd", headers=ORIGIN)
        assert again.json() == body and not analyses.dd_jobs


def test_bad_table_requests_get_words_and_start_nothing(sqlite_url: str) -> None:
    with app_client(settings(sqlite_url)) as c:
        rid = upload(c)
        deals = len(c.get(f"/api/replays/{rid}").json()["deals"])
        for path, status, words in (
            (f"/api/replays/{rid}/deals/{deals + 1}/dd", 404, f"no deal {deals + 1}"),
            (f"/api/replays/{rid}/deals/0/dd", 404, "no deal 0"),
            (f"/api/replays/{rid}/deals/two/dd", 400, "given by its number"),
            ("/api/replays/u" + "0" * 24 + "/deals/1/dd", 404, "upload the file again"),
            ("/api/replays/nosuchtable/deals/1/dd", 404, "no such table"),
        ):
            r = c.post(path, headers=ORIGIN)
            assert r.status_code == status and words in r.json()["error"], (path, r.text)
        r = c.post(f"/api/replays/{rid}/deals/1/dd", headers={"origin": "https://evil.example"})
        assert r.status_code == 403
        fr = c.post(f"/api/replays/{rid}/deals/{deals + 1}/dd", headers={**ORIGIN, "accept-language": "fr"})
        assert fr.status_code == 404 and "donne" in fr.json()["error"]
        assert not c.app.state.analyses.dd_jobs and not c.app.state.analyses.tables


def test_a_table_still_being_played_gives_no_table_and_no_hand(sqlite_url: str) -> None:
    """The replay, and so its double-dummy table, opens only once the match is over (its hands are secret)."""
    with app_client(settings(sqlite_url)) as c:
        r = c.post("/api/tables", json={"rules": "classic"})
        tid, creator = r.json()["id"], r.json()["creator"]
        c.post(f"/api/tables/{tid}/seats", json={"seat": 0, "name": "Ann"})
        for s in (1, 2, 3):
            c.post(f"/api/tables/{tid}/bots", json={"seat": s, "strength": "random", "token": creator})
        r = c.post(f"/api/replays/{tid}/deals/1/dd", headers=ORIGIN)
        assert r.status_code == 409 and "when the match is over" in r.json()["error"]
        assert "rows" not in r.text and "hands" not in r.text
        assert not c.app.state.analyses.dd_jobs


def test_besigue_and_the_scottish_game_have_no_table_in_plain_words() -> None:
    analyses = Analyses(8, 1.0)
    with pytest.raises(Exception, match="for the Barbu games: this Bésigue match has none"):
        analyses.request_dd(Source("b", "besigue", 1, (), ("", ""), game="besigue"), 1)
    with pytest.raises(Exception, match="not available for the Scottish game"):
        analyses.request_dd(Source("s", "scottish", 1, (), ("", "", "", "")), 1)
    assert not analyses.dd_jobs


def test_tables_share_the_analyses_queue_and_each_addresss_share() -> None:
    src = Source("t1", "classic", 1, (), ("",) * 4)
    other = Source("t2", "classic", 1, (), ("",) * 4)
    busy = Analyses(8, 1.0, queue=4, per_address=1)
    busy.dd_jobs["t1"] = Job(1, "a")
    assert busy.request_dd(src, 1, "a") == {"state": "queued", "deal": 1, "done": 0, "total": 0}  # its progress
    with pytest.raises(Exception, match="being solved"):
        busy.request_dd(src, 2, "a")  # one table of a match at a time
    with pytest.raises(Exception, match="you already have 1 deal"):
        busy.request_dd(other, 1, "a")  # the address's share, the same as for the analyses
    with pytest.raises(Exception, match="you already have 1 deal"):
        busy.request(other, 1, "a")  # and a table counts against its analyses too
    full = Analyses(8, 1.0, queue=1)
    full.jobs["t3"] = Job(1, "b")
    with pytest.raises(Exception, match="other matches"):
        full.request_dd(src, 1, "b")
