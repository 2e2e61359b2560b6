"""The daily deals over HTTP (`barbu.web.daily.service`): one attempt per browser or account and game, nothing of the day's
boards before one has finished (no other seat's card, no other result, no key), the results and the ranking in
two lists (accounts, guests), the day's key published once it is over and the records it verifies, and plain
refusals that change nothing.  Through the real app (Starlette's TestClient), "today" moved by the test.
SQLite, and PostgreSQL where the ``db_url`` fixture gives it.
"""

from __future__ import annotations

import json
import random
import re
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from leak_oracle import LeakOracle
from test_web_accounts import sign_up
from test_web_private import client, post

from barbu.cli.main import main as barbu
from barbu.core.daily_keys import day_key
from barbu.duplicate.daily import BoardPlay, daily_set
from barbu.records.barbu import read_record, verify_deals
from barbu.web import Settings
from barbu.web.daily.service import COOKIE, Scored

DAY, NEXT = "2026-11-27", "2026-11-28"
CARD = re.compile(r"\b([2-9TJQKA][SHDC])\b")
ORACLE = LeakOracle()


def settings(url: str) -> Settings:
    return Settings(db_url=url, bot_delay=0.0, deal_pause=0.0, daily_boards=2, signups_per_hour=0)


def no_leak(c: Any, body: dict[str, Any], game: str, moves: dict[int, list[str]]) -> None:
    """The leak oracle on one answer: no card the person's seat may not see, no key."""
    daily = c.app.state.daily
    text = json.dumps(body)
    secret = daily.secret()
    ORACLE.check_secrets(text, secret, day_key(secret, daily.today()))
    dset = daily_set(secret, daily.today(), game, "rule", 2)
    last = body.get("last_board")
    if last is not None:  # the board just finished (its summary and last position): against its own match
        done = BoardPlay(dset, last["board"], moves.get(last["board"], []))
        ORACLE.check(done.match, done.seat, json.dumps(last))
        text = json.dumps({k: v for k, v in body.items() if k != "last_board"})
    if body.get("finished"):
        return
    board = body["board"]
    true = BoardPlay(dset, board, moves.get(board, []))
    ORACLE.check(true.match, true.seat, text)
    assert body["seat"] == true.seat and body["state"]["hand"]


def play_set(c: Any, game: str = "classic", pick: int = 0) -> list[dict[str, Any]]:
    """Start and play the set to its end, checking every answer for leaks; the answers."""
    r = post(c, f"/api/daily/{game}/start", {})
    assert r.status_code == 200, r.text
    body = r.json()
    moves: dict[int, list[str]] = {}
    seen = [body]
    while not body["finished"]:
        no_leak(c, body, game, moves)
        legal = body["state"]["legal"]
        move = legal[pick % len(legal)]
        r = post(c, f"/api/daily/{game}/move", {"board": body["board"], "move": move})
        assert r.status_code == 200, r.text
        moves.setdefault(body["board"], []).append(move)
        body = r.json()
        seen.append(body)
    no_leak(c, body, game, moves)  # the last answer too: the last board's end
    return seen


@pytest.fixture
def app(db_url: str) -> Any:
    with client(settings(db_url)) as c:
        yield c


def test_a_guest_plays_once_and_sees_nothing_before_finishing(app: Any) -> None:
    c = app
    c.app.state.daily.today = lambda: DAY
    over = c.get("/api/daily").json()
    assert over["day"] == DAY and over["key"] is None
    assert [g["status"] for g in over["games"]] == ["none"] * len(over["games"])
    # before starting, nothing: no results, no record, no state
    assert c.get("/api/daily/classic/results").status_code == 403
    assert c.get("/api/daily/classic/state").status_code == 404
    assert c.get("/api/daily/classic/boards/0/record").status_code == 404
    first = post(c, "/api/daily/classic/start", {})
    assert first.status_code == 200 and c.cookies.get(COOKIE)
    assert c.get("/api/daily/classic/results").status_code == 403  # started, not finished
    assert c.get("/api/daily/classic/boards/0/record").status_code == 403
    answers = play_set(c)
    assert answers[-1]["finished"]
    assert post(c, "/api/daily/classic/start", {}).status_code == 409  # no second attempt
    res = c.get("/api/daily/classic/results").json()
    assert res["players"] == 1 and res["rank"] == "1" and res["percent"] is None and res["key"] is None
    assert res["share"].startswith(f"Barbu daily {DAY} classic") and not CARD.search(res["share"])
    assert c.get("/api/daily").json()["games"][0]["status"] == "finished"


def test_each_board_ends_with_the_tables_own_summary_and_is_played_on_the_game_table(app: Any) -> None:
    """A finished board's answer holds what the Barbu table draws at a deal's end: the deal's line of the
    scoresheet (points, doubles, settlements, totals) numbered as the set's board, and the last position seen from
    the person's seat (checked for leaks by `play_set`); the boards' page is the game's own table."""
    c = app
    c.app.state.daily.today = lambda: DAY
    answers = play_set(c, pick=1)
    ends = [a["last_board"] for a in answers if "last_board" in a]
    assert [e["board"] for e in ends] == [0, 1]
    for end in ends:
        summary = end["summary"]
        assert summary["number"] == end["board"] + 1 and summary["contract"] == end["contract"]
        assert summary["scores"] == end["scores"] == summary["totals"]  # one deal: its scores are the totals
        assert summary["scores"][end["seat"]] == end["score"]
        assert len(summary["settlements"]) == len(summary["doubles"])
        assert end["state"]["hand"] == [] and end["state"]["last_deal"]["number"] == 1
    assert all(a["rules"] == "classic" for a in answers if not a["finished"])
    for game in ("classic", "scottish", "besigue"):
        page = c.get(f"/daily/{game}/play")
        assert page.status_code == 200
        assert ("daily_besigue.js" if game == "besigue" else "daily_table.js") in page.text
    assert c.get("/daily/nothing/play").status_code == 404


def test_two_guests_same_moves_same_boards_then_ranked_and_an_account_apart(app: Any) -> None:
    c = app
    c.app.state.daily.today = lambda: DAY
    a = play_set(c)
    c.cookies.clear()
    b = play_set(c)
    assert a[0]["state"]["hand"] == b[0]["state"]["hand"] and a[0]["seat"] == b[0]["seat"]
    assert [x.get("state", {}).get("version") for x in a] == [x.get("state", {}).get("version") for x in b]
    res = c.get("/api/daily/classic/results").json()
    assert res["players"] == 2 and res["percent"] == 50.0 and res["rank"] == "1="
    assert all(len(t["rows"]) == 2 for t in res["travellers"])
    # a third guest who plays differently sees the same cards on the first board
    c.cookies.clear()
    other = play_set(c, pick=-1)
    assert other[0]["state"]["hand"] == a[0]["state"]["hand"]
    assert c.get("/api/daily/classic/results").json()["players"] == 3
    # one who played as a guest may not play again under an account from the same browser
    assert sign_up(c, "Guestfirst").status_code == 201
    r = post(c, "/api/daily/classic/start", {})
    assert r.status_code == 409 and "guest" in r.json()["error"]
    assert post(c, "/api/daily/italian/start", {}).status_code == 200  # another game is another set
    # an account is ranked in a list of its own (a new one among the new accounts: test_web_daily_fair.py)
    c.cookies.clear()
    assert sign_up(c, "Dailyplayer").status_code == 201
    play_set(c)
    mine = c.get("/api/daily/classic/results").json()
    assert mine["pool"] == "new" and mine["players"] == 1
    assert post(c, "/api/daily/classic/start", {}).status_code == 409


def test_refusals_change_nothing(app: Any) -> None:
    c = app
    c.app.state.daily.today = lambda: DAY
    body = post(c, "/api/daily/classic/start", {}).json()
    version = body["state"]["version"]
    hand = body["state"]["hand"]
    others = [x for x in ("AS", "KS", "QS", "AH", "KH", "QH", "AD", "AC", "2C", "3D") if x not in hand]
    for bad in (
        {"board": body["board"], "move": others[0]},
        {"board": body["board"], "move": "nonsense"},
        {"board": body["board"] + 1, "move": hand[0]},
        {"move": hand[0]},
        {"board": True, "move": "x"},
        {"board": body["board"], "move": 7},
        {"board": body["board"], "move": "x" * 500},
    ):
        r = post(c, "/api/daily/classic/move", bad)
        assert 400 <= r.status_code < 500 and r.json()["error"], (bad, r.text)
    r = c.post("/api/daily/classic/move", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400
    assert (
        c.post(
            "/api/daily/classic/move", json={"board": 0, "move": "x"}, headers={"origin": "https://evil.example"}
        ).status_code
        == 403
    )
    assert c.get("/api/daily/classic/state").json()["state"]["version"] == version
    assert post(c, "/api/daily/besigue-english/start", {}).status_code == 404
    assert post(c, "/api/daily/nothing/start", {}).status_code == 404
    assert c.get("/daily/nothing").status_code == 404 and c.get("/daily/classic").status_code == 200
    assert c.get("/daily").status_code == 200
    assert c.get("/api/daily?day=bogus").status_code == 400
    assert c.get(f"/api/daily?day={NEXT}").status_code == 404  # a day to come
    assert c.get(f"/api/daily/classic/results?day={NEXT}").status_code == 404
    assert c.get("/api/daily/classic/boards/x/record").status_code == 404


def test_the_key_is_published_when_the_day_is_over_and_verifies_the_boards(
    app: Any, tmp_path: Path, capsys: Any
) -> None:
    c = app
    daily = c.app.state.daily
    daily.today = lambda: DAY
    play_set(c)
    c.cookies.clear()
    post(c, "/api/daily/classic/start", {})  # started, never finished
    assert c.get("/api/daily/classic/results").status_code == 403
    daily.today = lambda: NEXT
    over = c.get(f"/api/daily?day={DAY}").json()
    assert over["key"] == day_key(daily.secret(), DAY).hex() and over["over"]
    assert c.get("/api/daily").json()["past"][0] == {"day": DAY, "key": over["key"]}
    # once the day is over anyone sees the results, and the unfinished attempt is not among them
    res = c.get(f"/api/daily/classic/results?day={DAY}").json()
    assert res["players"] == 1 and res["key"] == over["key"] and res["percent"] is None
    # the finished player's record carries the key, and `barbu replay` verifies its deals with it
    c.cookies.clear()
    c.app.state.daily.today = lambda: DAY
    answers = play_set(c)
    daily.today = lambda: NEXT
    for board in range(2):
        r = c.get(f"/api/daily/classic/boards/{board}/record?day={DAY}")
        assert r.status_code == 200, r.text
        record = read_record(StringIO(r.text))
        assert record.header["chance"]["day_key"] == over["key"]
        assert verify_deals(record) == []
        path = tmp_path / f"board{board}.jsonl"
        path.write_text(r.text)
        assert barbu(["--lang", "en", "replay", str(path)]) == 0
        assert "the deals are verified" in capsys.readouterr().out
        # a record with another day's key does not verify
        record.header["chance"]["day_key"] = day_key(daily.secret(), NEXT).hex()
        assert verify_deals(record)
        path.write_text(r.text.replace(over["key"], record.header["chance"]["day_key"]))
        assert barbu(["--lang", "en", "replay", str(path)]) == 1
        # a record kept before the day was over has no key: --daily-key gives it
        bare = [json.loads(line) for line in r.text.splitlines() if line.strip()]
        del bare[0]["chance"]
        path.write_text("\n".join(json.dumps(x) for x in bare) + "\n")
        capsys.readouterr()
        assert barbu(["--lang", "en", "replay", str(path), "--daily-key", over["key"]]) == 0
        assert "the deals are verified" in capsys.readouterr().out
        assert barbu(["--lang", "en", "replay", str(path), "--daily-key", record.header["chance"]["day_key"]]) == 1
    assert answers[-1]["finished"]


@pytest.mark.parametrize("highest_wins", [True, False])
def test_one_who_finished_since_is_compared_with_the_last_scoring_exactly(highest_wins: bool) -> None:
    """A large pool is scored again only now and then; one who finished since gets from `Scored.against` the same
    percentage as a whole new scoring gives him (ties included), and his rank among the others as last scored."""
    rng = random.Random(7)
    rows = [(a, f"p{a}", b, rng.choice((-20, -10, 0, 0, 10)), "") for a in range(60) for b in range(3)]
    for last in (59, 0, 31):
        others = [r for r in rows if r[0] != last]
        full = Scored.of(rows, 60, highest_wins)
        mine = next(st for st in full.ranking if st.player == str(last))
        percent, rank, fractions = Scored.of(others, 59, highest_wins).against(
            {b: score for a, _, b, score, _ in rows if a == last}, highest_wins
        )
        assert percent == pytest.approx(mine.percent)
        snapshot = [st.percent for st in Scored.of(others, 59, highest_wins).ranking]
        assert int(rank.rstrip("=")) == 1 + sum(1 for p in snapshot if p > percent + 1e-9)
        assert rank.endswith("=") == any(abs(p - percent) <= 1e-9 for p in snapshot)
        assert len(fractions) == 3 and all(0 <= f <= 1 for f in fractions)


def test_a_large_pool_compares_a_new_finisher_with_its_last_scoring(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import barbu.web.daily.service as daily_module

    monkeypatch.setattr(daily_module, "LARGE", 1)
    monkeypatch.setattr(daily_module, "REFRESH", 1000.0)
    c = app
    c.app.state.daily.today = lambda: DAY
    play_set(c)
    assert c.get("/api/daily/classic/results").json()["players"] == 1  # scored with him
    c.cookies.clear()
    play_set(c)
    res = c.get("/api/daily/classic/results").json()  # not scored again: compared with the last scoring
    # his percentage is exact; his rank is among the others as last scored (the first, alone, had no percentage)
    assert res["players"] == 2 and res["percent"] == 50.0 and res["rank"] == "1"
    assert [r["you"] for r in res["ranking"]] == [False, True]
    assert all(t["results"] == 2 and t["rows"][-1]["you"] for t in res["travellers"])


def test_migration_0008_makes_the_tables_and_the_database_refuses_a_second_attempt(db_url: str) -> None:
    from sqlalchemy import inspect

    from barbu.web.daily import store as dailystore
    from barbu.web.db.storage import Store

    store = Store(db_url)
    try:
        names = set(inspect(store.engine).get_table_names())
        assert {"barbu_daily_secret", "barbu_daily_attempts", "barbu_daily_boards"} <= names
        secret = dailystore.daily_secret(store.engine)
        assert len(secret) == 32 and dailystore.daily_secret(store.engine) == secret
        a, made = dailystore.start_attempt(store.engine, DAY, "classic", "g:x", "guest", None, "guest")
        b, again = dailystore.start_attempt(store.engine, DAY, "classic", "g:x", "guest", None, "guest")
        assert made and not again and a.id == b.id
        with pytest.raises(Exception):
            with store.engine.begin() as conn:  # the unique constraint itself, whatever the code above does
                conn.execute(
                    dailystore.ATTEMPTS.insert().values(
                        day=DAY, game="classic", who="g:x", pool="guest", name="guest", started_at=a.started_at
                    )
                )
    finally:
        store.close()


def test_one_address_may_begin_only_so_many_new_guests_an_hour(app: Any) -> None:
    from barbu.web.routes.daily import DAILY_GUESTS_PER_HOUR

    c = app
    c.app.state.daily.today = lambda: DAY
    for _ in range(DAILY_GUESTS_PER_HOUR):
        c.cookies.clear()
        assert post(c, "/api/daily/classic/start", {}).status_code == 200
    kept = c.cookies.get(COOKIE)
    c.cookies.clear()
    r = post(c, "/api/daily/classic/start", {})
    assert r.status_code == 429 and "try again" in r.json()["error"] and not r.cookies.get(COOKIE)
    c.cookies.set(COOKIE, kept)  # a guest already begun carries on
    assert post(c, "/api/daily/classic/start", {}).status_code == 200


def test_a_deleted_accounts_results_stay_without_its_name(app: Any) -> None:
    from test_web_accounts import PASSWORD

    c = app
    c.app.state.daily.today = lambda: DAY
    assert sign_up(c, "Leaving").status_code == 201
    play_set(c)
    mine = c.get("/api/account/data").json()["daily_deals"]  # "Download my data" holds them
    assert [(d["day"], d["game"]) for d in mine] == [(DAY, "classic")] and mine[0]["finished"]
    assert len(mine[0]["boards"]) == 2 and all(b["moves"] for b in mine[0]["boards"])
    assert post(c, "/api/account/delete", {"password": PASSWORD}).status_code == 200
    c.cookies.clear()
    assert sign_up(c, "Staying").status_code == 201
    play_set(c)
    res = c.get("/api/daily/classic/results").json()
    assert res["players"] == 2 and sorted(r["name"] for r in res["ranking"]) == ["", "Staying"]
    assert "Leaving" not in json.dumps(res)


def test_the_collector_is_paused_while_scoring_a_large_pool_and_turned_on_after() -> None:
    """Nested and concurrent scorings: the cyclic collector comes back on when the last one ends, and a collector
    someone else turned off stays off."""
    import gc

    from barbu.web.daily.service import collector_paused

    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
        with collector_paused(False):
            assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
