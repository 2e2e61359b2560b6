"""Bésigue's daily deals over HTTP: a whole set of four deals played through the API, every answer checked by the
leak oracle (no card of the computer's hand, none of the stock, no key), the same moves meeting the same cards and
the same answers, the person the elder hand and then the dealer, matchpoints on the deal's difference (plus is
good), wrong moves refused with nothing changed, and each deal's record verified with the day's key once it is over.
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
from barbu.records.besigue import replay_lines, verify_deals
from barbu.web import Settings

DAY, NEXT = "2026-11-27", "2026-11-28"
GAME = "besigue"
ORACLE = LeakOracle()


def first(legal: list[str]) -> str:
    return legal[0]


def declares(legal: list[str]) -> str:
    """Declares whenever it may, else plays the last card offered."""
    return next((a for a in legal if a.startswith("declare ")), legal[-1])


def no_leak(c: Any, body: dict[str, Any], moves: dict[int, list[str]]) -> None:
    daily = c.app.state.daily
    secret = daily.secret()
    text = json.dumps(body)
    ORACLE.check_secrets(text, secret, day_key(secret, daily.today()))
    if body.get("finished"):
        return
    true = BoardPlay(daily_set(secret, daily.today(), GAME), body["board"], moves.get(body["board"], []))
    ORACLE.check(true.match, true.seat, json.dumps({k: v for k, v in body.items() if k != "last_board"}))
    assert body["seat"] == true.seat and body["family"] == GAME
    assert body["role"] == ("elder" if body["board"] % 2 == 0 else "dealer")
    assert (true.match.dealer == body["seat"]) == (body["role"] == "dealer")


def play_set(c: Any, choose: Callable[[list[str]], str]) -> tuple[list[dict[str, Any]], dict[int, list[str]]]:
    r = post(c, f"/api/daily/{GAME}/start", {})
    assert r.status_code == 200, r.text
    body = r.json()
    moves: dict[int, list[str]] = {}
    seen = [body]
    while not body["finished"]:
        no_leak(c, body, moves)
        move = choose(body["state"]["legal"])
        r = post(c, f"/api/daily/{GAME}/move", {"board": body["board"], "move": move})
        assert r.status_code == 200, r.text
        moves.setdefault(body["board"], []).append(move)
        body = r.json()
        if "last_board" in body:  # a deal just ended: its summary and last position, then the next board
            end = body["last_board"]
            daily = c.app.state.daily
            done = BoardPlay(daily_set(daily.secret(), daily.today(), GAME), end["board"], moves[end["board"]])
            assert done.done and done.score == end["score"]
            ORACLE.check(done.match, done.seat, json.dumps(end))  # the finished deal's end shows nothing hidden
            assert end["summary"]["number"] == end["board"] + 1
            assert end["score"] == end["scores"][end["seat"]] - end["scores"][1 - end["seat"]]
        seen.append(body)
    return seen, moves


@pytest.fixture
def app(db_url: str) -> Any:
    with client(Settings(db_url=db_url, bot_delay=0.0, deal_pause=0.0, signups_per_hour=0)) as c:
        c.app.state.daily.today = lambda: DAY
        yield c


def test_a_whole_besigue_set_through_the_api(app: Any, tmp_path: Path, capsys: Any) -> None:
    c = app
    assert next(g for g in c.get("/api/daily").json()["games"] if g["game"] == GAME)["boards"] == 4
    assert c.get("/daily/besigue").status_code == 200 and c.get("/daily/besigue/play").status_code == 200
    a, moves_a = play_set(c, first)
    assert sorted({x["board"] for x in a if not x["finished"]}) == [0, 1, 2, 3]
    c.cookies.clear()
    b, moves_b = play_set(c, first)
    assert moves_a == moves_b  # the same moves met the same answers…
    assert [x.get("state", {}).get("hand") for x in a] == [x.get("state", {}).get("hand") for x in b]
    c.cookies.clear()
    other, _ = play_set(c, declares)

    def firsts(answers: list[dict[str, Any]]) -> dict[int, Any]:
        out: dict[int, Any] = {}
        for x in answers:
            if not x["finished"]:
                out.setdefault(x["board"], (x["state"]["hand"], x["state"]["turn_up"], x["seat"]))
        return out

    assert firsts(other) == firsts(a)  # …and different moves the same cards, seats and turn-up
    res = c.get(f"/api/daily/{GAME}/results").json()
    assert res["highest_wins"] is True and res["players"] == 3 and len(res["travellers"]) == 4
    for t in res["travellers"]:
        mine = next(r for r in t["rows"] if r["you"])
        lower = sum(1 for r in t["rows"] if r["score"] < mine["score"])
        ties = sum(1 for r in t["rows"] if r["score"] == mine["score"]) - 1
        assert mine["matchpoints"] == lower + ties / 2
        assert all("–" in r["doubles"] for r in t["rows"])  # the deal's points, the player's first
    assert post(c, f"/api/daily/{GAME}/start", {}).status_code == 409
    # once the day is over, the records carry the key and `barbu replay` verifies each deal
    c.app.state.daily.today = lambda: NEXT
    key = day_key(c.app.state.daily.secret(), DAY).hex()
    for board in range(4):
        r = c.get(f"/api/daily/{GAME}/boards/{board}/record?day={DAY}")
        assert r.status_code == 200, r.text
        rep = replay_lines(StringIO(r.text))
        assert rep.consistent and verify_deals(rep) == [] and rep.header["daily"]["board"] == board
        if board == 0:  # the results page's "Replay and analysis": the replay page takes the record
            up = post(c, "/api/replays", {"record": r.text})
            assert up.status_code in (200, 201) and up.json()["url"], up.text
            assert c.get(up.json()["url"]).status_code == 200
        path = tmp_path / f"board{board}.jsonl"
        path.write_text(r.text)
        capsys.readouterr()
        assert barbu(["--lang", "en", "replay", str(path)]) == 0
        assert "the deals are verified" in capsys.readouterr().out
        path.write_text(r.text.replace(key, day_key(c.app.state.daily.secret(), NEXT).hex()))
        assert barbu(["--lang", "en", "replay", str(path)]) == 1
        bare = [json.loads(line) for line in r.text.splitlines() if line.strip()]
        del bare[0]["chance"]  # a record kept before the day was over: --daily-key gives the key
        path.write_text("\n".join(json.dumps(x) for x in bare) + "\n")
        capsys.readouterr()
        assert barbu(["--lang", "en", "replay", str(path), "--daily-key", key]) == 0
        assert "the deals are verified" in capsys.readouterr().out


def test_besigue_refusals_change_nothing(app: Any) -> None:
    c = app
    body = post(c, f"/api/daily/{GAME}/start", {}).json()
    st = body["state"]
    version = st["version"]
    mine = set(st["hand"])
    absent = next(f"play {r}{s}" for r in "AKQJ" for s in "SHDC" if f"{r}{s}" not in mine)
    for bad in (
        {"board": body["board"], "move": absent},
        {"board": body["board"], "move": "declare bezique QS JD"},
        {"board": body["board"], "move": "nonsense"},
        {"board": body["board"] + 1, "move": st["legal"][0]},
        {"board": 99, "move": st["legal"][0]},
        {"board": body["board"], "move": ""},
    ):
        r = post(c, f"/api/daily/{GAME}/move", bad)
        assert 400 <= r.status_code < 500 and r.json()["error"], (bad, r.text)
    after = c.get(f"/api/daily/{GAME}/state").json()
    assert after["state"]["version"] == version and after["state"]["hand"] == st["hand"]
    assert c.get(f"/api/daily/{GAME}/results").status_code == 403  # nothing before the set is finished
    assert c.get(f"/api/daily/{GAME}/boards/0/record").status_code == 403
