"""The server's HTTP API and WebSocket protocol, in-process (Starlette's TestClient, SQLite storage).

Refusals are checked to change nothing: the table's version and event log stay where they were.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from wsclient import ORIGIN, Player, app_client

from barbu.agents import AGENT_KINDS
from barbu.classic.ruleset import presets
from barbu.web import Settings
from barbu.web.db.storage import Store

FAST = dict(bot_delay=0.0, deal_pause=0.0, burst=10_000, rate=10_000.0)


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with app_client(Settings(db_url=sqlite_url, grace=1000, **FAST)) as c:
        yield c


CREATORS: dict[str, str] = {}  # table id -> its creator's credential


def make_table(
    c: TestClient, rules: str = "classic", humans: tuple[int, ...] = (0, 1, 2, 3), bots: tuple[int, ...] = ()
) -> tuple[str, dict[int, str]]:
    r = c.post("/api/tables", json={"rules": rules})
    assert r.status_code == 201, r.text
    tid, creator = r.json()["id"], r.json()["creator"]
    CREATORS[tid] = creator
    tokens = {}
    for s in humans:
        r = c.post(f"/api/tables/{tid}/seats", json={"seat": s, "name": f"Player {s}"})
        assert r.status_code == 200, r.text
        tokens[s] = r.json()["token"]
    for s in bots:
        r = c.post(f"/api/tables/{tid}/bots", json={"seat": s, "strength": AGENT_KINDS[0], "token": creator})
        assert r.status_code == 200, r.text
    return tid, tokens


def events(c: TestClient, tid: str) -> list:
    store: Store = c.app.state.lobby.store
    return store.events(tid)


def table_of(c: TestClient, tid: str):
    return c.app.state.lobby.tables[tid]


# ---------------------------------------------------------------- HTTP
def test_options_list_every_preset_and_strength(client: TestClient) -> None:
    data = client.get("/api/options").json()
    assert [p["name"] for p in data["presets"]] == [p.name for p in presets()] + ["besigue", "besigue-english"]
    besigue = data["presets"][-2]
    assert besigue["players"] == [2] and besigue["game"] == "besigue"
    assert {o["name"]: o["default"] for o in besigue["options"]} == {
        "hand": 9,
        "brisques": "aces",
        "seven": "drawn",
        "endgame": "follow_or_trump",
        "target": 1000,
    }
    assert data["strengths"] == list(AGENT_KINDS)
    classic = data["presets"][0]
    assert {o["name"] for o in classic["options"]} >= {"rotation", "doubling", "chinese_poker"}


def test_create_list_and_show_tables(client: TestClient) -> None:
    r = client.post("/api/tables", json={"rules": "salad", "players": 5})
    assert r.status_code == 201
    info = r.json()["table"]
    assert info["players"] == 5 and info["status"] == "open" and len(info["seats"]) == 5
    listed = client.get("/api/tables").json()["tables"]
    assert [t["id"] for t in listed] == [info["id"]]
    shown = client.get(f"/api/tables/{info['id']}").json()["table"]
    text = json.dumps(shown)
    assert "seed" not in text and "token" not in text
    assert client.get("/api/tables/nope").status_code == 404


@pytest.mark.parametrize(
    "body, status, words",
    [
        ({"rules": "bridge"}, 400, "unknown preset"),
        ({"rules": "classic(rotation=sideways)"}, 400, "rotation"),
        ({"rules": "classic", "players": 5}, 400, "4 players"),
        ({"rules": ""}, 400, "choose the rules"),
        ({"rules": 7}, 400, "choose the rules"),
    ],
)
def test_bad_tables_are_refused_in_words(client: TestClient, body: dict, status: int, words: str) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code == status and words in r.json()["error"]
    assert client.get("/api/tables").json()["tables"] == []


def test_requests_must_be_small_same_origin_json(client: TestClient) -> None:
    assert (
        client.post(
            "/api/tables", content=b"rules=classic", headers={"content-type": "application/x-www-form-urlencoded"}
        ).status_code
        == 415
    )
    not_json = client.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
    assert not_json.status_code == 400
    big = {"rules": "classic", "pad": "x" * 10_000}
    assert client.post("/api/tables", json=big).status_code == 413
    r = client.post("/api/tables", json={"rules": "classic"}, headers={"origin": "http://evil.example"})
    assert r.status_code == 403
    assert client.get("/api/tables").json()["tables"] == []


def test_seats_and_computer_players(client: TestClient) -> None:
    tid, tokens = make_table(client, humans=(0,))
    assert len(tokens[0]) >= 30

    def seat(s, name):
        return client.post(f"/api/tables/{tid}/seats", json={"seat": s, "name": name})

    assert seat(0, "Again").status_code == 409
    assert seat(7, "Nobody").status_code == 400
    assert seat(1, "   ").status_code == 400
    assert seat(1, "x" * 40).status_code == 400
    r = client.post(f"/api/tables/{tid}/bots", json={"seat": 1, "strength": "grandmaster", "token": CREATORS[tid]})
    assert r.status_code == 400 and "choose from" in r.json()["error"]
    for s in (1, 2, 3):
        assert (
            client.post(
                f"/api/tables/{tid}/bots", json={"seat": s, "strength": AGENT_KINDS[-1], "token": CREATORS[tid]}
            ).status_code
            == 200
        )
    info = client.get(f"/api/tables/{tid}").json()["table"]
    assert info["status"] == "playing"
    assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot", "bot"]
    assert seat(2, "Late").status_code == 409


def test_pages_and_security_headers(client: TestClient) -> None:
    tid, _ = make_table(client, humans=(0,))
    for path, status in (("/", 200), (f"/t/{tid}", 200), ("/t/abc", 404), ("/rules/classic", 200)):
        r = client.get(path)
        assert r.status_code == status and "<html" in r.text
        assert "default-src 'self'" in r.headers["content-security-policy"]
        assert r.headers["x-content-type-options"] == "nosniff"
    assert client.get("/static/js/table.js").status_code == 200


# ---------------------------------------------------------------- WebSocket
def test_cross_origin_handshake_is_refused(client: TestClient) -> None:
    tid, _ = make_table(client, humans=(0,))
    with pytest.raises(WebSocketDisconnect) as e:
        with client.websocket_connect(f"/ws/{tid}", headers={"origin": "http://evil.example"}) as ws:
            ws.receive_text()
    assert e.value.code == 1008
    Player(client, tid, headers=ORIGIN).close()  # the page's own origin is fine
    Player(client, tid, headers={}).close()  # so is a client that sends no Origin (not a browser)


def test_an_origin_allowed_by_the_operator_may_connect(sqlite_url: str) -> None:
    settings = Settings(db_url=sqlite_url, allowed_origins=("https://cards.example.org",), **FAST)
    with app_client(settings) as c:
        tid, _ = make_table(c, humans=(0,))
        Player(c, tid, headers={"origin": "https://cards.example.org"}).close()
        with pytest.raises(WebSocketDisconnect):
            with c.websocket_connect(f"/ws/{tid}", headers={"origin": "https://other.example.org"}) as ws:
                ws.receive_text()


def error(p: "Player") -> dict:
    """The next error the player is sent (the table's own news, a computer player's move, may come first)."""
    return p.until(lambda m: m["type"] == "error")


def test_bad_messages_get_an_error_and_change_nothing(client: TestClient) -> None:
    tid, tokens = make_table(client)
    p = Player(client, tid, hello=False)
    p.send({"type": "act", "action": "QH", "version": 0})
    assert error(p)["code"] == "no_hello"
    p.send({"type": "hello", "token": tokens[0]})
    p.until(lambda m: m["type"] == "sync")
    before = (table_of(client, tid).version, len(events(client, tid)))
    p.ws.send_text("{this is not json")
    assert error(p)["code"] == "bad_json"
    p.ws.send_text("[1, 2, 3]")
    assert error(p)["code"] == "bad_message"
    p.send({"type": "teleport"})
    assert error(p)["code"] == "unknown_type"
    p.send({"type": "act", "action": "x" * 5000, "version": 0})
    assert error(p)["code"] == "too_large"
    p.ws.send_bytes(b"\x00\x01")
    assert error(p)["code"] == "bad_message"
    p.send({"type": "hello"})
    assert error(p)["code"] == "bad_message"
    p.send({"type": "act", "action": 5, "version": p.state["version"]})
    assert p.until(lambda m: m["type"] == "error")["code"] in ("bad_message", "not_your_turn")
    assert (table_of(client, tid).version, len(events(client, tid))) == before
    p.barrier()  # still connected and answering
    p.close()


def test_a_flooding_client_is_cut_off(sqlite_url: str) -> None:
    with app_client(Settings(db_url=sqlite_url, burst=5, rate=1.0)) as c:
        tid, _ = make_table(c, humans=(0,))
        p = Player(c, tid)
        with pytest.raises(WebSocketDisconnect) as e:
            for _ in range(50):
                p.send({"type": "ping"})
            while True:
                p.recv()
        assert e.value.code == 1008
        assert any(m.get("code") == "flood" for m in p.log)


def seated(c: TestClient, tid: str, tokens: dict[int, str]) -> dict[int, Player]:
    players = {s: Player(c, tid, tok) for s, tok in tokens.items()}
    for s, p in players.items():
        assert p.seat == s
        p.barrier()
    return players


def test_commands_out_of_turn_foreign_stale_duplicate_and_spectator(client: TestClient) -> None:
    tid, tokens = make_table(client)
    players = seated(client, tid, tokens)
    table = table_of(client, tid)
    for p in players.values():
        p.barrier()
    actor = players[0].state["to_act"]
    me, other = players[actor], players[(actor + 1) % 4]
    legal = me.state["legal"]
    start = (table.version, len(events(client, tid)))

    def unchanged() -> None:
        assert (table.version, len(events(client, tid))) == start

    assert other.act(legal[0], cid="a")["code"] == "not_your_turn"
    unchanged()
    assert other.act(legal[0], seat=actor, cid="b")["code"] == "foreign_seat"
    unchanged()
    assert me.act(legal[0], version=start[0] - 1, cid="c")["code"] == "stale"
    unchanged()
    me.until(lambda m: m["type"] == "state")  # the resync that follows a stale command
    watcher = Player(client, tid)
    assert watcher.seat is None and watcher.first["state"]["hand"] is None
    assert watcher.act(legal[0], version=start[0], cid="d")["code"] == "not_seated"
    unchanged()
    assert me.act("no such thing", cid="e")["code"] == "parse"
    unchanged()
    ack = me.act(legal[0], cid="once")
    assert ack["type"] == "ack" and ack["version"] == start[0] + 1
    again = me.act(legal[0], version=start[0], cid="once")
    assert again["type"] == "ack" and again["duplicate"] and again["version"] == start[0] + 1
    assert table.version == start[0] + 1
    assert [e[2] for e in events(client, tid)[start[0] :]] == [legal[0]]
    for p in [*players.values(), watcher]:
        p.close()


def test_reconnect_gets_what_it_missed_or_a_full_resync(client: TestClient) -> None:
    tid, tokens = make_table(client)
    players = seated(client, tid, tokens)
    table = table_of(client, tid)

    def step(n: int) -> None:
        for _ in range(n):
            for p in players.values():
                p.barrier()
            actor = table.match.to_act()
            if actor not in players:
                return
            p = players[actor]
            assert p.act(p.state["legal"][0])["type"] == "ack"

    step(1)
    old = players[0].state["version"]
    players.pop(0).close()
    step(3)
    same_deal = table.match.deal_start < old
    back = Player(client, tid, tokens[0], since=old)
    assert back.first["type"] == ("catch_up" if same_deal else "sync")
    if same_deal:  # only what was missed, each action as this seat may see it
        assert [e["seq"] for e in back.first["missed"]] == list(range(old, table.version))
        assert [e["action"] for e in back.first["missed"]] == [str(a) for a in table.match.history[old:]]
    assert back.state["version"] == table.version and back.state["hand"] is not None
    fresh = Player(client, tid, tokens[1], since=None)
    assert fresh.first["type"] == "sync" and fresh.first["scores"]["deals"] == []
    same = Player(client, tid, tokens[2], since=table.version)
    assert same.first["type"] == "in_sync"
    ghost = Player(client, tid, "forged-credential")
    assert ghost.seat is None and any(m.get("code") == "bad_token" for m in ghost.log)
    assert ghost.first["state"]["hand"] is None


def test_a_stand_in_plays_a_dropped_seat_after_the_grace_period(sqlite_url: str) -> None:
    with app_client(Settings(db_url=sqlite_url, grace=0.3, **FAST)) as c:
        tid, tokens = make_table(c, humans=(0, 1), bots=(2, 3))
        a, b = Player(c, tid, tokens[0]), Player(c, tid, tokens[1])
        table = table_of(c, tid)
        a.close()
        # Seat 1 plays whenever it is his turn; seat 0's turns are taken by a stand-in once the grace is over.
        deadline = time.monotonic() + 30
        while table.match.deal_no < 1 and time.monotonic() < deadline:
            b.barrier()
            if table.match.to_act() == 1 and b.state["to_act"] == 1 and b.state["version"] == table.version:
                b.act(b.state["legal"][0])
            else:
                time.sleep(0.02)
        assert table.match.deal_no >= 1, "the match did not go on without seat 0"
        assert table.info()["seats"][0]["away"]
        stand_in_moves = [e for e in events(c, tid) if e[1] == 0]
        assert stand_in_moves
        a = Player(c, tid, tokens[0])  # back: the seat is his again
        assert not table.info()["seats"][0]["away"]
        assert table.controller(0) == "human"
        a.close()
        b.close()


def play_out(p: Player, table) -> None:
    """One seat plays its first legal action at each turn until the match is over (within two minutes)."""
    assert p.seat is not None, "this connection holds no seat"
    stop = time.monotonic() + 120
    while not table.match.is_over:
        assert time.monotonic() < stop, "the match did not reach its end"
        st = p.state
        if st["to_act"] == p.seat and st["legal"] and st["version"] == table.version:
            p.act(st["legal"][0])
        else:
            p.recv()


def test_a_whole_match_then_a_rematch_with_the_same_seats(client: TestClient) -> None:
    tid, tokens = make_table(client, humans=(0,), bots=(1, 2, 3))
    table = table_of(client, tid)
    p = Player(client, tid, tokens[0])
    play_out(p, table)
    p.until(lambda m: m["type"] == "scores" and m["scores"]["over"])
    sheet = [m for m in p.log if m["type"] == "scores"][-1]["scores"]
    assert len(sheet["deals"]) == table.match.total_deals
    assert sheet["totals"] == table.match.totals and sorted(sheet["standings"]) == [0, 1, 2, 3]
    p.send({"type": "rematch"})
    new_id = p.until(lambda m: m["type"] == "rematch")["table"]
    assert new_id != tid
    info = client.get(f"/api/tables/{new_id}").json()["table"]
    assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot", "bot"]
    assert info["rematch_of"] == tid and info["status"] == "playing"
    again = Player(client, new_id, tokens[0])  # the same credential holds the same seat there
    assert again.seat == 0
    assert client.get(f"/api/tables/{tid}").json()["table"]["rematch_id"] == new_id


def test_a_restarted_server_resumes_every_table_where_it_was(sqlite_url: str) -> None:
    settings = Settings(db_url=sqlite_url, grace=1000, **FAST)
    with app_client(settings) as c:
        tid, tokens = make_table(c)
        players = seated(c, tid, tokens)
        table = table_of(c, tid)
        for _ in range(25):
            for p in players.values():
                p.barrier()
            p = players[table.match.to_act()]
            assert p.act(p.state["legal"][0])["type"] == "ack"
        history = [str(a) for a in table.match.history]
        hands = list(table.match.hands)
        tid2, _ = make_table(c, humans=(0,))
    with app_client(settings) as c:
        again = table_of(c, tid)
        assert [str(a) for a in again.match.history] == history and list(again.match.hands) == hands
        assert table_of(c, tid2).status == "open"
        p = Player(c, tid, tokens[0])
        assert p.seat == 0 and p.state["version"] == len(history)


def test_finished_tables_leave_memory_and_come_back_when_asked_for(sqlite_url: str) -> None:
    settings = Settings(db_url=sqlite_url, grace=1000, unload_after=0.2, **FAST)
    with app_client(settings) as c:
        lobby = c.app.state.lobby
        tid, _ = make_table(c, humans=(), bots=(0, 1, 2, 3))  # computer players play it out alone
        busy, _ = make_table(c, humans=(0,))  # waits for players: never unloaded
        table = table_of(c, tid)
        deadline = time.monotonic() + 60
        while tid in lobby.tables and time.monotonic() < deadline:
            time.sleep(0.05)
        assert tid not in lobby.tables, "a finished, idle table stays in memory"
        assert table.match.is_over and table.closed and busy in lobby.tables
        info = c.get(f"/api/tables/{tid}").json()["table"]  # loaded back from the database
        assert info["status"] == "over" and info["version"] == len(table.match.history)
        assert tid in lobby.tables
        watcher = Player(c, tid)  # a spectator keeps it in memory while he watches
        assert watcher.state["version"] == len(table.match.history)
        time.sleep(0.6)
        assert tid in lobby.tables
        watcher.close()
