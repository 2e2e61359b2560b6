"""What a public server needs: who may seat computer players, per-address limits, expiry, keyed deals.

In-process through Starlette's TestClient (whose client address is "testclient"), SQLite storage.
"""

from __future__ import annotations

import io
import json
import time

import pytest
from starlette.testclient import TestClient
from wsclient import ORIGIN, Player, app_client

from barbu import Match
from barbu.core.chance import KeyedRandom, keyed_chance, new_secret, verify_chance
from barbu.records.barbu import read_record, replay, verify_deals
from barbu.web import Settings

FAST = dict(bot_delay=0.0, deal_pause=0.0, burst=10_000, rate=10_000.0)


def create(c: TestClient, rules: str = "classic", **extra) -> tuple[str, str]:
    r = c.post("/api/tables", json={"rules": rules, **extra})
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["creator"]


def bot(c: TestClient, tid: str, seat: int, token: str | None, strength: str = "random"):
    return c.post(f"/api/tables/{tid}/bots", json={"seat": seat, "strength": strength, "token": token})


def test_only_the_creator_gives_seats_to_computer_players(sqlite_url: str) -> None:
    with app_client(Settings(db_url=sqlite_url, **FAST)) as c:
        tid, creator = create(c)
        friend = c.post(f"/api/tables/{tid}/seats", json={"seat": 1, "name": "Friend"}).json()["token"]
        for stranger in (None, "", "not-a-token", friend):
            r = bot(c, tid, 0, stranger)
            assert r.status_code == 403 and "only the player who created this table" in r.json()["error"]
        assert c.get(f"/api/tables/{tid}").json()["table"]["seats"][0]["kind"] == "open"
        assert bot(c, tid, 0, creator).status_code == 200
        # A table whose settings let seated players add computer players too.
        tid2, creator2 = create(c, bots_by="seated")
        guest = c.post(f"/api/tables/{tid2}/seats", json={"seat": 0, "name": "Guest"}).json()["token"]
        assert bot(c, tid2, 1, None).status_code == 403
        assert bot(c, tid2, 1, guest).status_code == 200
        assert bot(c, tid2, 2, creator2).status_code == 200
        r = c.post("/api/tables", json={"rules": "classic", "bots_by": "anyone"})
        assert r.status_code == 400 and "creator" in r.json()["error"]


@pytest.mark.parametrize(
    "name", ["Bot 1", "bot", "BOT 3", "Computer", "robot-2", "search", "Rule", "AI", "Ann (search)", "cpu player"]
)
def test_names_that_pose_as_computer_players_are_refused(sqlite_url: str, name: str) -> None:
    with app_client(Settings(db_url=sqlite_url, **FAST)) as c:
        tid, _ = create(c)
        r = c.post(f"/api/tables/{tid}/seats", json={"seat": 0, "name": name})
        assert r.status_code == 400 and "kept for computer players" in r.json()["error"]
        assert c.post(f"/api/tables/{tid}/seats", json={"seat": 0, "name": "Bottom"}).status_code == 200
        r = c.post(f"/api/tables/{tid}/seats", json={"seat": 1, "name": "bottom"})
        assert r.status_code == 400 and "already at this table" in r.json()["error"]


def test_tables_per_address_per_hour(sqlite_url: str) -> None:
    with app_client(Settings(db_url=sqlite_url, tables_per_hour=3, **FAST)) as c:
        for _ in range(3):
            create(c)
        r = c.post("/api/tables", json={"rules": "classic"})
        assert r.status_code == 429 and "3 tables this hour" in r.json()["error"]
        assert len(c.get("/api/tables").json()["tables"]) == 3


def test_computer_tables_per_address(sqlite_url: str) -> None:
    with app_client(Settings(db_url=sqlite_url, bot_tables_per_address=1, **FAST)) as c:
        a, ca = create(c)
        b, cb = create(c)
        assert bot(c, a, 1, ca).status_code == 200
        assert bot(c, a, 2, ca).status_code == 200  # the same table: still one
        r = bot(c, b, 1, cb)
        assert r.status_code == 429 and "1 tables with computer players" in r.json()["error"]


def test_connections_per_address(sqlite_url: str) -> None:
    with app_client(Settings(db_url=sqlite_url, connections_per_address=2, **FAST)) as c:
        tid, _ = create(c)
        first, second = Player(c, tid), Player(c, tid)
        with c.websocket_connect(f"/ws/{tid}", headers=ORIGIN) as ws:
            msg = json.loads(ws.receive_text())
            assert msg["code"] == "too_many_connections" and "the limit is 2" in msg["message"]
        first.close()
        time.sleep(0.2)
        third = Player(c, tid)  # a slot came free
        assert third.seat is None
        assert c.get("/api/health").json()["connections"] == 2
        second.close()
        third.close()


def test_request_bodies_are_refused_as_soon_as_they_pass_the_limit(sqlite_url: str) -> None:
    with app_client(Settings(db_url=sqlite_url, **FAST)) as c:
        sent = []

        def body():
            for _ in range(10_000):  # 10 MB if read whole
                sent.append(1)
                yield b" " * 1000

        r = c.post("/api/tables", content=body(), headers={"content-type": "application/json"})
        assert r.status_code == 413 and "too large" in r.json()["error"]
        # (the test client sends the body whole; test_web_hostile.py checks the stream is cut off)
        r = c.post("/api/tables", content=b"{}", headers={"content-type": "application/json", "content-length": "abc"})
        assert r.status_code in (400, 413)


def test_hostile_json_over_http_and_websocket_changes_nothing(sqlite_url: str) -> None:
    with app_client(Settings(db_url=sqlite_url, **FAST)) as c:
        deep = '{"rules": ' + "[" * 1500 + "]" * 1500 + "}"
        r = c.post("/api/tables", content=deep.encode(), headers={"content-type": "application/json"})
        assert r.status_code == 400 and "nested more than" in r.json()["error"]
        tid, _ = create(c)
        p = Player(c, tid)
        p.ws.send_text('{"type": "act", "action": ' + "[" * 3000)
        err = p.until(lambda m: m["type"] == "error")
        assert err["code"] == "bad_json" and "nested more than" in err["message"]
        p.ws.send_text('{"type": "sync", "since": ' + "9" * 4000 + "}")  # a huge number: a full resync
        assert p.until(lambda m: m["type"] in ("sync", "error"))["type"] == "sync"
        p.ws.send_text('{"type": "sync", "since": 1e999}')
        assert p.until(lambda m: m["type"] in ("sync", "error"))["type"] == "sync"
        p.send({"type": "ping"})
        assert p.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"  # the connection lives on
        p.close()


def test_open_tables_nobody_joins_expire_also_across_restarts(sqlite_url: str) -> None:
    with app_client(Settings(db_url=sqlite_url, open_table_expiry=3600, **FAST)) as c:
        kept, _ = create(c)
        gone, _ = create(c)
        lobby = c.app.state.lobby
        assert c.portal.call(lobby.expire_open, time.time() + 60) == []
        lobby.tables[gone].touched -= 7200
        assert c.portal.call(lobby.expire_open, time.time()) == [gone]
        assert c.get(f"/api/tables/{gone}").status_code == 404
        assert [t["id"] for t in c.get("/api/tables").json()["tables"]] == [kept]
    with app_client(Settings(db_url=sqlite_url, open_table_expiry=1, **FAST)) as c:  # restarted
        lobby = c.app.state.lobby
        assert kept in lobby.tables and gone not in lobby.tables
        assert c.portal.call(lobby.expire_open, time.time() + 5) == [kept]
        assert c.get("/api/tables").json()["tables"] == []
        assert c.get(f"/api/tables/{kept}").status_code == 404


def test_health_says_what_the_server_holds(sqlite_url: str) -> None:
    with app_client(Settings(db_url=sqlite_url, **FAST)) as c:
        create(c)
        h = c.get("/api/health").json()
        assert h["status"] == "ok" and h["tables"]["open"] == 1 and h["tables"]["playing"] == 0
        assert "id" not in json.dumps(h)


def test_keyed_generator_is_a_function_of_key_and_node() -> None:
    key = new_secret()
    assert len(key) == 32
    a, b = KeyedRandom(key, 5), KeyedRandom(key, 5)
    assert [a.random() for _ in range(50)] == [b.random() for _ in range(50)]
    assert KeyedRandom(key, 5).getrandbits(256) != KeyedRandom(key, 6).getrandbits(256)
    assert KeyedRandom(key, 5).getrandbits(256) != KeyedRandom(new_secret(), 5).getrandbits(256)
    r = KeyedRandom(key, 1)
    counts = [0] * 4
    for _ in range(4000):
        counts[r.randrange(4)] += 1
    assert all(800 < n < 1200 for n in counts)
    with pytest.raises(ValueError):
        KeyedRandom(b"short", 0)


def test_keyed_deals_replay_and_verify_and_a_changed_deal_is_found() -> None:
    key = new_secret()
    m = Match("scottish", seed=11)  # draws, shuffles and cuts are all chance events
    while len(m.results) < 3:
        if m.to_act() == -1:
            m.apply(keyed_chance(m, key))
        else:
            m.apply(m.legal_actions()[0])
    assert verify_chance(lambda: Match("scottish", seed=11), m.history, key) == []
    other = verify_chance(lambda: Match("scottish", seed=11), m.history, new_secret())
    assert other and other[0] == 0


def test_a_finished_tables_record_publishes_its_key_and_verifies(sqlite_url: str, tmp_path) -> None:
    with app_client(Settings(db_url=sqlite_url, **FAST)) as c:
        tid, creator = create(c, rules="salad(players=3)")
        r = c.get(f"/api/tables/{tid}/record")
        assert r.status_code == 409 and "when the match is over" in r.json()["error"]
        for s in range(3):
            assert bot(c, tid, s, creator).status_code == 200
        for _ in range(600):
            if c.get(f"/api/tables/{tid}").json()["table"]["status"] == "over":
                break
            time.sleep(0.05)
        else:
            pytest.fail("the computer table did not finish")
        text = c.get(f"/api/tables/{tid}/record").text
    record = read_record(io.StringIO(text))
    assert record.header["chance"]["method"] == "hmac-sha256"
    assert replay(record).consistent
    assert verify_deals(record) == []
    lines = text.splitlines()
    i = next(i for i, line in enumerate(lines) if json.loads(line).get("actor") == "chance" and i > 5)
    deal = json.loads(lines[i])
    swapped = deal["action"].split()
    # swap the first two cards of two hands: still a valid deal, but not the one the key gave
    lines[i] = json.dumps({**deal, "action": " ".join(swapped[::-1])})
    path = tmp_path / "tampered.jsonl"
    path.write_text("\n".join(lines) + "\n")
    try:
        assert verify_deals(read_record(path)) == [i + 1]
    except Exception as e:  # the reversed text may not parse as a deal: then the record is refused outright
        assert "cannot be replayed" in str(e)
