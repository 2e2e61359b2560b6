"""The Scottish game's daily deals over HTTP: a whole set of seven boards (one per single call of a Player Round,
Patience and Double Patience included) played through the API, every answer checked by the leak oracle, the same
moves meeting the same cards and computer moves, plus-is-good matchpoints, a wrong Patience lay refused with
nothing changed, and the records verified with the day's key once it is over.
"""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any, Callable

import pytest
from leak_oracle import LeakOracle
from test_web_private import client, post

from barbu.cli.main import main as barbu
from barbu.core.daily_keys import day_key
from barbu.duplicate.daily import BoardPlay, daily_set
from barbu.records.barbu import read_record, verify_deals
from barbu.web import Settings

DAY, NEXT = "2026-11-27", "2026-11-28"
GAME = "scottish"
ORACLE = LeakOracle()
CALLS = ["aces", "king", "queens", "hearts", "tricks", "patience", "double-patience"]


def first(legal: list[str]) -> str:
    return legal[0]


def lays_first(legal: list[str]) -> str:
    """Lays a run or a set whenever it may (Patience), else the last choice."""
    return next((a for a in legal if a.startswith("lay ")), legal[-1])


def no_leak(c: Any, body: dict[str, Any], moves: dict[int, list[str]]) -> None:
    daily = c.app.state.daily
    secret = daily.secret()
    text = json.dumps(body)
    ORACLE.check_secrets(text, secret, day_key(secret, daily.today()))
    dset = daily_set(secret, daily.today(), GAME)
    last = body.get("last_board")
    if last is not None:  # the board just finished (its summary and last position): against its own match
        done = BoardPlay(dset, last["board"], moves.get(last["board"], []))
        ORACLE.check(done.match, done.seat, json.dumps(last))
        text = json.dumps({k: v for k, v in body.items() if k != "last_board"})
    if body.get("finished"):
        return
    true = BoardPlay(dset, body["board"], moves.get(body["board"], []))
    ORACLE.check(true.match, true.seat, text)
    assert body["seat"] == true.seat and body["contract"] == CALLS[body["board"]] and body["family"] == GAME


def play_set(c: Any, choose: Callable[[list[str]], str]) -> tuple[list[dict[str, Any]], dict[int, list[str]]]:
    r = post(c, f"/api/daily/{GAME}/start", {})
    assert r.status_code == 200, r.text
    body = r.json()
    moves: dict[int, list[str]] = {}
    seen = [body]
    refused_lay = False
    while not body["finished"]:
        no_leak(c, body, moves)
        st = body["state"]
        if st["phase"] == "domino" and not refused_lay:  # a lay of cards not held: refused, nothing changed
            refused_lay = True
            bad = post(c, f"/api/daily/{GAME}/move", {"board": body["board"], "move": "lay 7S 8S 9S TS JS"})
            held = set(st["hand"])
            if not {"7S", "8S", "9S", "TS", "JS"} <= held:
                assert bad.status_code == 400 and bad.json()["error"], bad.text
                assert c.get(f"/api/daily/{GAME}/state").json()["state"]["version"] == st["version"]
        move = choose(st["legal"])
        r = post(c, f"/api/daily/{GAME}/move", {"board": body["board"], "move": move})
        assert r.status_code == 200, r.text
        moves.setdefault(body["board"], []).append(move)
        body = r.json()
        seen.append(body)
    no_leak(c, body, moves)  # the last answer too: the last board's end
    assert refused_lay  # the set has its Patience boards
    return seen, moves


@pytest.fixture
def app(db_url: str) -> Any:
    with client(Settings(db_url=db_url, bot_delay=0.0, deal_pause=0.0, signups_per_hour=0)) as c:
        c.app.state.daily.today = lambda: DAY
        yield c


def test_a_whole_scottish_set_through_the_api(app: Any, tmp_path: Path, capsys: Any) -> None:
    c = app
    over = c.get("/api/daily").json()
    assert next(g for g in over["games"] if g["game"] == GAME)["boards"] == 7
    a, moves_a = play_set(c, first)
    boards = [x for x in a if not x["finished"]]
    assert sorted({x["board"] for x in boards}) == list(range(7))
    assert {x["contract"] for x in boards} == set(CALLS)
    # the person is the caller on some boards and not on others
    callers = {x["board"]: x["state"]["declarer"] == x["seat"] for x in boards if x["state"]["phase"] != "declare"}
    assert set(callers.values()) == {True, False}
    # a second guest making the same moves meets the same cards and the same computer moves
    c.cookies.clear()
    b, moves_b = play_set(c, first)
    assert moves_a == moves_b
    assert [x.get("state", {}).get("hand") for x in a] == [x.get("state", {}).get("hand") for x in b]
    assert [x.get("state", {}).get("version") for x in a] == [x.get("state", {}).get("version") for x in b]
    # a third who plays otherwise holds the same cards on every board, and is ranked plus-is-good
    c.cookies.clear()
    other, _ = play_set(c, lays_first)

    def firsts(answers: list[dict[str, Any]]) -> dict[int, Any]:
        """Each board's first answer: the person's first decision, before anything of his differs."""
        out: dict[int, Any] = {}
        for x in answers:
            if not x["finished"]:
                out.setdefault(x["board"], (x["state"]["hand"], x["state"]["version"], x["seat"]))
        return out

    assert firsts(other) == firsts(a)
    res = c.get(f"/api/daily/{GAME}/results").json()
    assert res["highest_wins"] is True and res["players"] == 3
    for t in res["travellers"]:
        mine = next(r for r in t["rows"] if r["you"])
        higher = sum(1 for r in t["rows"] if r["score"] > mine["score"])
        lower = sum(1 for r in t["rows"] if r["score"] < mine["score"])
        ties = len(t["rows"]) - 1 - higher - lower
        assert mine["matchpoints"] == lower + ties / 2  # the highest score gets the most
    assert post(c, f"/api/daily/{GAME}/start", {}).status_code == 409  # once
    # once the day is over, each record carries the key and `barbu replay` verifies its deal (the caller's draw too)
    c.app.state.daily.today = lambda: NEXT
    key = day_key(c.app.state.daily.secret(), DAY).hex()
    for board in (0, 5):
        r = c.get(f"/api/daily/{GAME}/boards/{board}/record?day={DAY}")
        assert r.status_code == 200, r.text
        record = read_record(StringIO(r.text))
        assert record.header["daily"]["contract"] == CALLS[board] and verify_deals(record) == []
        up = post(c, "/api/replays", {"record": r.text})  # the results page's "Replay and analysis"
        assert up.status_code in (200, 201) and c.get(up.json()["url"]).status_code == 200, up.text
        path = tmp_path / f"board{board}.jsonl"
        path.write_text(r.text)
        capsys.readouterr()
        assert barbu(["--lang", "en", "replay", str(path)]) == 0
        assert "the deals are verified" in capsys.readouterr().out
        path.write_text(r.text.replace(key, day_key(c.app.state.daily.secret(), NEXT).hex()))
        assert barbu(["--lang", "en", "replay", str(path)]) == 1
