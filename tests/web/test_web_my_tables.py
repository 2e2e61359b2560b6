"""The lobby's "My tables" (issue 30): a browser's tables asked about by their credentials, left, or ended.

Leaving a table with people hands the seat to the stand-in once the match is under way (before, the seat
is free again); ending a table of computer players closes it, frees the per-address limits, and keeps its
record when a deal was finished, across a restart.  Clients come from chosen addresses, SQLite storage.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest
from test_web_private import CREATOR, FRIEND, client, post, seat
from wsclient import ORIGIN, Player

from barbu.web import Settings

FAST = dict(bot_delay=0.0, deal_pause=0.0, burst=10_000, rate=10_000.0)


def play(c: Any, address: str = CREATOR, **extra: Any) -> Any:
    return post(c, "/api/play", {"rules": "classic", "name": "Ann", "strength": "random", **extra}, address)


def mine(c: Any, *entries: dict[str, Any], address: str = CREATOR) -> list[dict[str, Any]]:
    r = post(c, "/api/tables/mine", {"tables": list(entries)}, address)
    assert r.status_code == 200, r.text
    return r.json()["tables"]


def computer_table(c: Any) -> dict[str, Any]:
    """A table of four computer players, set up by its creator (who holds no seat)."""
    made = post(c, "/api/tables", {"rules": "classic"}).json()
    for n in range(4):
        assert (
            post(
                c, f"/api/tables/{made['id']}/bots", {"seat": n, "strength": "random", "token": made["creator"]}
            ).status_code
            == 200
        )
    return made


def wait_for(check: Any, limit: float = 120) -> None:
    """Wait until ``check()`` holds (the computer players play in the app's own thread)."""
    stop = time.monotonic() + limit
    while not check():
        assert time.monotonic() < stop, "the table did not get there"
        time.sleep(0.05)


def test_my_tables_shows_what_the_credentials_open_and_nothing_more(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        game = play(c).json()
        lobby_table = post(c, "/api/tables", {"rules": "italian", "private": True}).json()
        other = post(c, "/api/tables", {"rules": "classic"}, FRIEND).json()
        found = mine(
            c,
            {"id": game["id"], "token": game["token"], "creator": game["creator"]},
            {"id": lobby_table["id"], "creator": lobby_table["creator"]},
            {"id": other["id"], "token": game["token"], "creator": game["creator"]},  # not its credentials
            {"id": "nosuchtable"},
        )
        by_id = {t["id"]: t for t in found}
        assert by_id[game["id"]]["seat"] == 0 and by_id[game["id"]]["creator"] is True
        assert by_id[game["id"]]["people"] is False and by_id[game["id"]]["status"] == "playing"
        assert by_id[game["id"]]["total_deals"] == 28 and by_id[game["id"]]["deals_done"] == 0
        assert by_id[lobby_table["id"]]["seat"] is None and by_id[lobby_table["id"]]["status"] == "open"
        assert by_id[lobby_table["id"]]["rules"] == "italian" and by_id[lobby_table["id"]]["private"] is True
        assert by_id[other["id"]] == {"id": other["id"], "gone": True}
        assert by_id["nosuchtable"] == {"id": "nosuchtable", "gone": True}
        text = str(found)
        for secret in (game["token"], game["creator"], lobby_table["creator"], "hand", "seed", "secret", "token"):
            assert secret not in text


def test_ending_a_table_against_the_computer_frees_the_limit(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, bot_tables_per_address=2, **FAST)) as c:
        first, second = play(c).json(), play(c).json()
        r = play(c)
        assert r.status_code == 429 and r.json()["code"] == "my_tables"
        assert "2 tables with computer players" in r.json()["error"]
        tid = first["id"]
        for wrong in ({}, {"token": second["token"]}, {"creator": second["creator"]}, {"token": "x" * 32}):
            r = post(c, f"/api/tables/{tid}/end", wrong)
            assert r.status_code == 403 and "hold no seat at this table" in r.json()["error"], r.text
        assert c.get(f"/api/tables/{tid}").json()["table"]["status"] == "playing"
        r = post(c, f"/api/tables/{tid}/end", {"token": first["token"]})
        assert r.status_code == 200 and r.json() == {"kept": False, "replay": None}
        # No deal was finished: nothing is kept, the table is gone, and the limit has room again.
        assert c.get(f"/api/tables/{tid}").status_code == 404
        assert mine(c, {"id": tid, "token": first["token"], "creator": first["creator"]}) == [{"id": tid, "gone": True}]
        assert play(c).status_code == 201
        r = post(c, f"/api/tables/{second['id']}/leave", {"token": second["token"]})
        assert r.status_code == 409 and "end it instead" in r.json()["error"]


def test_the_unfinished_tables_limit_points_to_my_tables_and_ending_one_frees_it(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, open_tables_per_address=1, **FAST)) as c:
        made = post(c, "/api/tables", {"rules": "classic"}).json()
        r = post(c, "/api/tables", {"rules": "classic"})
        assert r.status_code == 429 and r.json()["code"] == "my_tables"
        # Its creator, with no seat and nobody seated, may end (close) it.
        assert post(c, f"/api/tables/{made['id']}/end", {"creator": made["creator"]}).json()["kept"] is False
        assert post(c, "/api/tables", {"rules": "classic"}).status_code == 201


def test_leaving_a_table_with_people(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        made = post(c, "/api/tables", {"rules": "classic"}).json()
        tid, creator = made["id"], made["creator"]
        ann = seat(c, tid, 0, "Ann", CREATOR).json()["token"]
        bob = seat(c, tid, 1, "Bob", FRIEND).json()["token"]
        # Before the start, a seat given up is free again.
        r = post(c, f"/api/tables/{tid}/leave", {"token": bob}, FRIEND)
        assert r.status_code == 200 and r.json()["outcome"] == "freed"
        assert r.json()["table"]["seats"][1]["kind"] == "open"
        bob = seat(c, tid, 1, "Bob", FRIEND).json()["token"]
        for n in (2, 3):
            post(c, f"/api/tables/{tid}/bots", {"seat": n, "strength": "random", "token": creator})
        assert c.get(f"/api/tables/{tid}").json()["table"]["status"] == "playing"
        # With another person at the table, it is left, not ended.
        r = post(c, f"/api/tables/{tid}/end", {"token": ann, "creator": creator})
        assert r.status_code == 409 and "other people play" in r.json()["error"]
        watcher = Player(c, tid, ann, headers={**ORIGIN, "x-test-address": CREATOR})
        assert watcher.seat == 0
        r = post(c, f"/api/tables/{tid}/leave", {"token": ann, "creator": creator})
        assert r.status_code == 200 and r.json()["outcome"] == "stand_in"
        s = r.json()["table"]["seats"][0]
        assert s["kind"] == "bot" and s["name"] == "Ann" and s["strength"] == Settings().stand_in
        removed = watcher.until(lambda m: m["type"] == "removed")
        assert removed["seat"] == 0 and "you left this table" in removed["message"]
        lobby = c.app.state.lobby
        assert lobby.tables[tid].creator_address is None  # it no longer counts against Ann's address
        # Ann's credential opens nothing there any more; Bob plays on and may now end it.
        assert mine(c, {"id": tid, "token": ann}) == [{"id": tid, "gone": True}]
        assert post(c, f"/api/tables/{tid}/leave", {"token": ann}).status_code == 403
        bob_sees = mine(c, {"id": tid, "token": bob}, address=FRIEND)[0]
        assert bob_sees["seat"] == 1 and bob_sees["people"] is False
    with client(Settings(db_url=sqlite_url, **FAST)) as c:  # restarted: the stand-in still holds the seat
        assert c.get(f"/api/tables/{tid}").json()["table"]["seats"][0]["kind"] == "bot"


def test_an_ended_match_keeps_its_record_across_a_restart(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        made = computer_table(c)
        tid = made["id"]
        lobby = c.app.state.lobby
        wait_for(lambda: lobby.tables[tid].web.deals_done() >= 1)
        r = post(c, f"/api/tables/{tid}/end", {"creator": made["creator"]})
        assert r.status_code == 200 and r.json() == {"kept": True, "replay": f"/t/{tid}/replay"}
        t = lobby.tables[tid]
        ended_at, done = t.version, t.web.deals_done()
        assert t.status == "over" and not t.match.is_over
        assert post(c, f"/api/tables/{tid}/end", {"creator": made["creator"]}).status_code == 409
        replay = c.get(f"/api/replays/{tid}").json()
        assert len(replay["deals"]) == done
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        info = c.get(f"/api/tables/{tid}").json()["table"]
        assert info["status"] == "over" and info["version"] == ended_at  # nothing more was played
        found = mine(c, {"id": tid, "creator": made["creator"]})[0]
        assert found["status"] == "over" and found["ended"] is True and found["deals_done"] == done
        assert len(c.get(f"/api/replays/{tid}").json()["deals"]) == done
        assert tid not in [t["id"] for t in c.get("/api/tables").json()["tables"]]


@pytest.mark.parametrize("path", ["mine", "T/leave", "T/end"])
def test_hostile_input_gets_a_plain_refusal_in_the_pages_language(
    sqlite_url: str, path: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="barbu.web")
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        game = play(c).json()
        url = "/api/tables/" + path.replace("T", game["id"])
        bodies: list[Any] = [
            [],
            "x",
            12,
            None,
            {"tables": "x"},
            {"tables": [{"id": 3}]},
            {"tables": [{"id": "a", "token": ["x"]}]},
            {"tables": [{"id": "a"}] * 51},
            {"token": {"a": 1}},
            {"token": "é" * 300},
            {"creator": 7},
            {"token": "\u00e9"},
        ]
        for body in bodies:
            r = c.post(url, json=body, headers={"x-test-address": CREATOR, "cookie": "barbu_lang=fr"})
            assert 400 <= r.status_code < 500 and r.json()["error"], (body, r.text)
        r = c.post(url, content=b"{not json", headers={"content-type": "application/json", "cookie": "barbu_lang=fr"})
        assert r.status_code == 400 and "JSON" in r.json()["error"]
        r = c.post(url, content=b'{"tables": []}', headers={"content-type": "text/plain"})
        assert r.status_code == 415
        r = c.post(url, json={"token": game["token"]}, headers={"origin": "http://evil.example"})
        assert r.status_code == 403
        r = c.post(url, content=b" " * 9000, headers={"content-type": "application/json"})
        assert r.status_code == 413
        r = c.post(url, json={"tables": "x"}, headers={"cookie": "barbu_lang=fr"})
        assert (
            "envoyez les tables sous forme de liste\u00a0:"
            if path == "mine"
            else "ces identifiants ne donnent aucune place"
        ) in r.json()["error"]
        assert c.get(f"/api/tables/{game['id']}").json()["table"]["status"] == "playing"  # nothing was lost
    assert not [rec for rec in caplog.records if rec.exc_info], "a traceback reached the log"
