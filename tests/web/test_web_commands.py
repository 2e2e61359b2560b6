"""Every command answered, on one real `barbu serve` process: acknowledged, refused with a coded reason, or found
again after a reconnection.

- A move sent again with its id after a reconnection is applied once and acknowledged again; after the process
  restarted (as after a takeover: the id is remembered by nobody) it is found in the journal and acknowledged,
  and the decision awaited goes on with the time it had left, not a full allowance.
- An idle table's connection is sent a beat every ``--heartbeat`` seconds, and the welcome says how often.
- A move whose write fails (the database refuses it as if cut off) is written again until it is stored, and
  acknowledged once; if it still cannot be stored within ``--store-retry`` it is handed back in words, nothing of it
  applied, and sent again it is taken.  One line says the database went away and one that it came back, with no
  traceback.
- The page itself (chromium): a move whose message was lost with its connection is sent again after the
  reconnection, with its id, and the table takes it once.
- The page gives a connection up when its welcome never comes (the handshake timeout) or when it goes silent
  after it (2.5 heartbeats), and connects again.
"""

from __future__ import annotations

import json
import random
import threading
import time
import uuid
from typing import Any, Callable

import pytest
from conftest import postgres_url, reset_postgres
from playwright.sync_api import Page, expect
from test_web_browser import new_page, play_one, take_seat
from webhelpers import PHONE, Server, http, new_table, shot
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from barbu.web.db.storage import Store, database_url

FAST: tuple[str, ...] = ("--bot-delay", "0", "--deal-pause", "0", "--grace", "1000", "--tables-per-hour", "0")
FAST += ("--seats-per-address", "0", "--open-tables-per-address", "0", "--connections-per-address", "0")
WAIT = 30.0  # seconds a client waits for a message it expects: long for a loaded machine, never a measure


class Client:
    """One seat's WebSocket: hello, then the messages as they come, the last state kept."""

    def __init__(self, server: Server, tid: str, token: str | None, since: int | None = None) -> None:
        self.ws: ClientConnection = connect(f"{server.ws_base}/ws/{tid}", origin=Origin(server.base), open_timeout=WAIT)
        self.ws.__enter__()  # closed by `close`
        self.state: dict[str, Any] | None = None
        self.send({"type": "hello", "token": token, "since": since})
        self.welcome = self.until(lambda m: m["type"] == "welcome")
        self.until(lambda m: m["type"] in ("sync", "catch_up", "in_sync"))

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))

    def until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = WAIT) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            msg = json.loads(self.ws.recv(timeout=max(0.01, deadline - time.monotonic())))
            if isinstance(msg.get("state"), dict):
                self.state = msg["state"]
            if pred(msg):
                return msg

    def act(self, action: str, version: int, cid: str) -> dict[str, Any]:
        self.send({"type": "act", "action": action, "version": version, "id": cid})
        return self.until(lambda m: m.get("id") == cid and m["type"] in ("ack", "error"))

    def barrier(self) -> int:
        self.send({"type": "ping"})
        return int(self.until(lambda m: m["type"] == "pong")["version"])

    def close(self) -> None:
        self.ws.close()


def seated(server: Server, rules: str = "classic", clock: str | None = None) -> tuple[str, dict[int, str]]:
    """A table of four guests (two at Bésigue), every seat taken: the match has started."""
    n = 2 if rules.startswith("besigue") else 4
    body: dict[str, Any] = {"rules": rules, **({"clock": clock} if clock else {})}
    status, data = http("POST", server.base + "/api/tables", body)
    assert status == 201, data
    tid, tokens = data["id"], {}
    for seat in range(n):
        status, got = http("POST", f"{server.base}/api/tables/{tid}/seats", {"seat": seat, "name": f"P{seat}"})
        assert status == 200, got
        tokens[seat] = got["token"]
    return tid, tokens


def to_act(clients: dict[int, Client]) -> Client:
    """The client whose seat the table waits for (every client up to date first)."""
    for c in clients.values():
        c.barrier()
    for c in clients.values():
        st = c.state
        if st is not None and st["to_act"] == st["seat"] and st["legal"]:
            return c
    raise AssertionError("no seat to act")


def events(db: str, tid: str) -> list[tuple[int, int, str]]:
    store = Store(db, run_migrations=False)
    try:
        return store.events(tid)
    finally:
        store.close()


@pytest.fixture(scope="module")
def lone(serve_module: Any) -> Server:
    return serve_module("--heartbeat", "0.5", *FAST, name="lone")


def test_a_move_sent_again_after_a_reconnection_is_applied_once_and_acknowledged(lone: Server) -> None:
    tid, tokens = seated(lone)
    clients = {s: Client(lone, tid, tok) for s, tok in tokens.items()}
    me = to_act(clients)
    assert me.state is not None
    seat, version, action = me.state["seat"], me.state["version"], me.state["legal"][0]
    ack = me.act(action, version, "once")
    assert ack["type"] == "ack" and ack["version"] == version + 1
    me.close()
    again = Client(lone, tid, tokens[seat], since=version)  # the page's reconnection, then its resend
    answer = again.act(action, version, "once")
    assert answer["type"] == "ack" and answer["duplicate"] and answer["version"] == version + 1
    assert again.barrier() == version + 1
    stored = events(lone.db, tid)
    assert [e for e in stored if e[0] == version] == [(version, seat, action)] and len(stored) == version + 1
    for c in [*clients.values(), again]:
        c.close()


def test_an_idle_table_connection_hears_a_beat(lone: Server) -> None:
    tid, tokens = seated(lone, "besigue")
    watcher = Client(lone, tid, None)
    assert watcher.welcome["heartbeat"] == 0.5
    beats = [watcher.until(lambda m: True) for _ in range(2)]  # nobody plays: nothing but beats comes
    assert beats == [{"type": "beat"}, {"type": "beat"}]
    watcher.close()


def test_after_a_restart_a_move_sent_again_is_found_and_the_clock_goes_on(serve: Any) -> None:
    server = serve(*FAST)
    tid, tokens = seated(server, "besigue", clock="20+5")
    clients = {s: Client(server, tid, tok) for s, tok in tokens.items()}
    me = to_act(clients)
    assert me.state is not None
    seat, version, action = me.state["seat"], me.state["version"], me.state["legal"][0]
    assert me.act(action, version, "before-restart")["type"] == "ack"
    for c in clients.values():
        c.close()
    server.stop()  # as a takeover: the new process remembers no command id
    server.start()
    back = Client(server, tid, tokens[seat], since=version)
    answer = back.act(action, version, "before-restart")
    assert answer["type"] == "ack" and answer["duplicate"] and answer["version"] == version + 1
    other = [a for a in back.state["legal"] if a != action] if back.state else []
    stale = back.act(other[0] if other else "QH", version, "not-this-one")  # not what was played there
    assert stale["type"] == "error" and stale["code"] in ("stale", "not_your_turn")
    assert len(events(server.db, tid)) == version + 1
    turn = back.welcome["table"]["clock"]["turn"]
    assert turn is not None and turn["version"] == version + 1
    # the other seat's decision has run since the move was stored, through the restart: not a full allowance
    assert 0 < turn["move_left"] + turn["bank_left"] < 25
    back.close()
    assert "Traceback" not in server.log()


# ---------------------------------------------------------------------------- the database refusing writes
OUTAGE = """
CREATE TABLE test_outage (down boolean);
CREATE FUNCTION test_outage_check() RETURNS trigger AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM test_outage) THEN
    RAISE EXCEPTION 'the test cut the database off' USING ERRCODE = '08006';
  END IF;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER test_outage_events BEFORE INSERT ON barbu_events FOR EACH ROW EXECUTE FUNCTION test_outage_check();
"""


class Cut:
    """The database refusing every move's write (a connection failure, SQLSTATE 08006) while ``down``."""

    def __init__(self, db: str) -> None:
        from sqlalchemy import create_engine

        self.engine = create_engine(database_url(db))
        with self.engine.begin() as conn:
            conn.exec_driver_sql(OUTAGE)

    def down(self) -> None:
        with self.engine.begin() as conn:
            conn.exec_driver_sql("INSERT INTO test_outage VALUES (true)")

    def up(self) -> None:
        with self.engine.begin() as conn:
            conn.exec_driver_sql("DELETE FROM test_outage")

    def close(self) -> None:
        self.engine.dispose()


def test_a_move_whose_write_fails_is_written_again_or_handed_back(serve: Any) -> None:
    db = postgres_url()
    reset_postgres(db)
    server = serve("--store-retry", "3", *FAST, db=db)
    cut = Cut(db)
    try:
        tid, tokens = seated(server, "besigue")
        clients = {s: Client(server, tid, tok) for s, tok in tokens.items()}
        me = to_act(clients)
        assert me.state is not None
        seat, version = me.state["seat"], me.state["version"]
        # Cut for a moment: the move is written again, and acknowledged once it is stored.
        cut.down()
        threading.Timer(0.5, cut.up).start()
        action = me.state["legal"][0]
        ack = me.act(action, version, "retried")
        assert ack["type"] == "ack" and ack["version"] == version + 1
        assert [e for e in events(db, tid) if e[0] == version] == [(version, seat, action)]
        # Cut for longer than the server writes again: handed back in words, nothing applied, nobody told of it.
        me = to_act(clients)
        assert me.state is not None
        seat, version, action = me.state["seat"], me.state["version"], me.state["legal"][0]
        cut.down()
        refused = me.act(action, version, "handed-back")
        assert refused["type"] == "error" and refused["code"] == "storage"
        assert refused["message"] == "your move could not be saved yet: it will be sent again"
        assert me.barrier() == version and len(events(db, tid)) == version
        cut.up()
        taken = me.act(action, version, "handed-back")  # the page sends it again: taken now
        assert taken["type"] == "ack" and not taken.get("duplicate") and taken["version"] == version + 1
        assert [e for e in events(db, tid) if e[0] == version] == [(version, seat, action)]
        # The outage is over once writes have gone through for a while (`outages.SETTLE`): play on until it says so.
        deadline = time.monotonic() + WAIT
        while "database reachable again" not in server.log():
            assert time.monotonic() < deadline, server.log()
            me = to_act(clients)
            assert me.state is not None
            assert me.act(me.state["legal"][0], me.state["version"], uuid.uuid4().hex)["type"] == "ack"
            time.sleep(0.5)
        for c in clients.values():
            c.close()
    finally:
        cut.up()
        cut.close()
    log = server.log()  # both cuts one outage (no write went through between them): one line each way
    assert log.count("database unreachable") == 1 and log.count("database reachable again") == 1, log
    assert "Traceback" not in log, log


# ---------------------------------------------------------------------------- the page
@pytest.mark.browser
def test_the_page_sends_a_move_lost_with_its_connection_again(lone: Server, person: Callable[..., Page]) -> None:
    tid, _ = new_table(lone.base, "classic", bots={1: "random", 2: "random", 3: "random"})
    page = new_page(person)
    sent: list[dict[str, Any]] = []

    def route(ws: Any) -> None:  # between the page and the server: the first move's message is lost
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg.get("type") == "act":
                sent.append(msg)
                if len(sent) == 1:  # lost with its connection, as on a failover
                    ws.close(code=1012, reason="the table moved")
                    return
            server.send(message)

        ws.on_message(from_page)
        server.on_message(lambda message: ws.send(message))

    page.route_web_socket("**/ws/**", route)
    take_seat(page, lone.base, tid, 0, "Ann")
    page.wait_for_function("() => document.querySelector('#turn').dataset.mine === '1'", timeout=60_000)
    play_one(page, random.Random(3))  # waits until the table moved on: after the reconnection and the resend
    assert len(sent) >= 2 and sent[1]["id"] == sent[0]["id"] and sent[1]["action"] == sent[0]["action"]
    version = sent[0]["version"]
    assert [e for e in events(lone.db, tid) if e[0] == version] == [(version, 0, sent[0]["action"])]
    status, data = http("GET", f"{lone.base}/api/tables/{tid}")
    assert status == 200 and data["table"]["version"] > version


@pytest.mark.browser
@pytest.mark.parametrize(
    ("lang", "words"), [("en-GB", "reconnecting…"), ("fr-FR", "reconnexion…"), ("it-IT", "riconnessione…")]
)
def test_the_page_says_it_is_reconnecting(lone: Server, person: Callable[..., Page], lang: str, words: str) -> None:
    tid, _ = seated(lone, "besigue" if lang != "en-GB" else "classic")
    page = person(PHONE if lang != "en-GB" else (1366, 768), lang)
    opened: list[Any] = []

    def route(ws: Any) -> None:  # the first connection goes through; the server is then out of reach
        opened.append(ws)
        if len(opened) == 1:
            ws.connect_to_server()
        else:
            ws.close(code=1012, reason="the table moved")

    page.route_web_socket("**/ws/**", route)
    page.goto(f"{lone.base}/t/{tid}")
    expect(page.locator("#conn")).to_have_attribute("data-status", "connected")
    opened[0].close(code=1012, reason="the table moved")
    expect(page.locator("#conn")).to_have_attribute("data-status", "reconnecting")
    expect(page.locator("#conn")).to_have_text(words)
    shot(page, f"reconnecting-{lang}")


@pytest.mark.browser
def test_the_page_gives_up_a_silent_connection_and_reconnects(lone: Server, person: Callable[..., Page]) -> None:
    """static/js/net.js watches its own connection: one whose welcome never comes (a hung process whose kernel
    accepts) is given up after the handshake timeout, one that goes silent after its welcome (no beat for 2.5
    heartbeats; the server beats every 0.5 s here) is given up too, and each time the page connects again."""
    tid, _ = seated(lone, "besigue")
    page = person((1366, 768), "en-GB")
    opened: list[Any] = []

    def route(ws: Any) -> None:
        opened.append(ws)
        if len(opened) == 1:
            return  # accepted, never answered: no welcome comes
        server = ws.connect_to_server()
        if len(opened) == 2:  # the welcome, then nothing more reaches the page

            def once(message: str | bytes) -> None:
                if json.loads(message).get("type") in ("welcome", "sync", "catch_up", "in_sync"):
                    ws.send(message)

            server.on_message(once)

    page.route_web_socket("**/ws/**", route)
    page.goto(f"{lone.base}/t/{tid}")
    deadline = time.monotonic() + WAIT
    while len(opened) < 3:  # the first given up (6 s), the second given up after its silence
        assert time.monotonic() < deadline, f"{len(opened)} connections"
        page.wait_for_timeout(100)
    expect(page.locator("#conn")).to_have_attribute("data-status", "connected", timeout=WAIT * 1000)
    assert page.locator("#conn").get_attribute("data-status") == "connected" and len(opened) == 3
