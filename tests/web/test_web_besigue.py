"""A Bésigue table through the server's HTTP API and WebSocket, in-process (TestClient, SQLite).

Create, seat a person and a computer player, play the match to its end
through the WebSocket, then fetch the published record: its deals verify
against the table's key and it replays to the same totals.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from wsclient import Player, app_client

from barbu.core.errors import RecordError
from barbu.records.besigue import replay_lines, verify_deals
from barbu.web import Settings

FAST = dict(bot_delay=0.0, deal_pause=0.0, burst=100_000, rate=100_000.0)
SHORT = "besigue(target=250)"  # a match of a few deals


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with app_client(Settings(db_url=sqlite_url, grace=1000, **FAST)) as c:
        yield c


def besigue_table(c: TestClient, rules: str = SHORT, bot: str = "random") -> tuple[str, str]:
    """A table with Ann in seat 0 and a computer player in seat 1; (table id, Ann's credential)."""
    r = c.post("/api/tables", json={"rules": rules})
    assert r.status_code == 201, r.text
    tid, creator = r.json()["id"], r.json()["creator"]
    assert r.json()["table"]["players"] == 2 and r.json()["table"]["game"] == "besigue"
    r = c.post(f"/api/tables/{tid}/seats", json={"seat": 0, "name": "Ann"})
    assert r.status_code == 200, r.text
    token = r.json()["token"]
    r = c.post(f"/api/tables/{tid}/bots", json={"seat": 1, "strength": bot, "token": creator})
    assert r.status_code == 200, r.text
    return tid, token


def play_to_state(p: Player, pred) -> dict:
    """Read messages until the state satisfies ``pred``."""
    while not (p.state and pred(p.state)):
        p.recv()
    return p.state


def test_besigue_is_offered_and_refuses_other_player_counts(client: TestClient) -> None:
    names = [p["name"] for p in client.get("/api/options").json()["presets"]]
    assert "besigue" in names and "besigue-english" in names
    r = client.post("/api/tables", json={"rules": "besigue", "players": 4})
    assert r.status_code == 400 and "two players" in r.json()["error"]
    r = client.post("/api/tables", json={"rules": "besigue(hand=7)"})
    assert r.status_code == 400 and "hand" in r.json()["error"]
    r = client.post("/api/tables", json={"rules": "besigue-english(target=1500)"})
    assert r.status_code == 201 and r.json()["table"]["rules"] == "besigue-english(target=1500)"


def test_a_seat_sees_its_view_and_a_refusal_says_why(client: TestClient) -> None:
    tid, token = besigue_table(client)
    assert client.get(f"/t/{tid}").text.count("besigue.js") == 1  # the Bésigue page
    ann = Player(client, tid, token)
    assert ann.seat == 0
    state = play_to_state(ann, lambda s: s["to_act"] == 0 and s["phase"] == "play")
    assert state["game"] == "besigue" and len(state["hand"]) == 9 and state["opponent_hand"] in (8, 9)
    assert state["stock"] in (45, 46) and state["turn_up"] and state["legal"]
    assert all(a.startswith("play ") for a in state["legal"])
    version = state["version"]
    held = {a.split()[1] for a in state["legal"]}
    missing = next(f"{r}{s}" for s in "SHDC" for r in "AKQJT987" if f"{r}{s}" not in held)
    reply = ann.act(f"play {missing}")
    assert reply["type"] == "error" and reply["code"] == "illegal" and "do not hold" in reply["message"]
    reply = ann.act("declare marriage KS QS")
    assert reply["type"] == "error" and "time to play a card" in reply["message"]
    reply = ann.act("play")
    assert reply["type"] == "error" and reply["code"] == "parse"
    assert ann.barrier() == version  # refusals changed nothing
    reply = ann.act(state["legal"][0])
    assert reply["type"] == "ack" and reply["version"] == version + 1


def test_spectator_sees_no_hand(client: TestClient) -> None:
    tid, token = besigue_table(client)
    Player(client, tid, token)
    watcher = Player(client, tid)
    assert watcher.seat is None
    state = watcher.first["state"]
    assert state["hand"] is None and state["legal"] == [] and len(state["hand_sizes"]) == 2
    reply = watcher.act("play AS")
    assert reply["type"] == "error" and reply["code"] == "not_seated"


def test_play_a_match_against_the_computer_to_the_end(client: TestClient, tmp_path: Path) -> None:
    tid, token = besigue_table(client)
    ann = Player(client, tid, token)
    at = 0
    while True:
        state = play_to_state(ann, lambda s, at=at: s["version"] >= at and (s["phase"] == "over" or s["to_act"] == 0))
        if state["phase"] == "over":
            break
        legal = state["legal"]
        declarations = [a for a in legal if a.startswith("declare")]
        action = declarations[0] if declarations else legal[-1]
        reply = ann.act(action)
        assert reply["type"] == "ack", reply
        at = reply["version"]
    assert max(state["totals"]) >= 250
    scores = client.get(f"/api/tables/{tid}").json()["table"]
    assert scores["status"] == "over"
    r = client.get(f"/api/tables/{tid}/record")
    assert r.status_code == 200
    lines = r.text.splitlines()
    head = json.loads(lines[0])
    assert head["game"] == "besigue" and head["table"] == tid and head["chance"]["method"] == "hmac-sha256"
    assert any('"declare ' in line for line in lines)  # combinations were laid and scored
    rep = replay_lines(lines)
    assert rep.consistent and rep.game.is_over and rep.game.totals == state["totals"]
    assert verify_deals(rep) == []
    # `barbu replay` checks the record, and says its deals are the ones the published key gives.
    path = tmp_path / "match.jsonl"
    path.write_text(r.text, encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "barbu", "replay", str(path)], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert "the record is consistent" in out.stdout and "the deals are verified" in out.stdout
    # A rematch: the same seats and rules at a new table.
    ann.send({"type": "rematch"})
    new_id = ann.until(lambda m: m["type"] == "rematch")["table"]
    again = client.get(f"/api/tables/{new_id}").json()["table"]
    assert again["rules"] == SHORT and again["game"] == "besigue" and again["seats"][1]["kind"] == "bot"
    # A record whose shuffle was changed no longer verifies.
    forged = list(lines)
    i = next(k for k, line in enumerate(forged) if '"shuffle ' in line)
    action = json.loads(forged[i])
    order = action["action"].split()[1:]
    order[0], order[1] = order[1], order[0]
    forged[i] = json.dumps({**action, "action": "shuffle " + " ".join(order)})
    try:
        bad = replay_lines(forged)
    except RecordError:  # the swap made a later action impossible: the record does not even replay
        return
    assert verify_deals(bad)


def test_hint_and_take_back_at_a_besigue_table(client: TestClient) -> None:
    tid, token = besigue_table(client)
    ann = Player(client, tid, token)
    state = play_to_state(ann, lambda s: s["to_act"] == 0 and s["phase"] == "play")
    ann.send({"type": "hint"})
    hint = ann.until(lambda m: m["type"] in ("hint", "error"))
    assert hint["type"] == "hint" and hint["text"] in state["legal"]
    before = state["version"]
    hand = sorted(state["hand"])
    assert ann.act(hint["text"])["type"] == "ack"
    play_to_state(ann, lambda s: s["version"] > before + 1 or s["phase"] != "play")
    ann.send({"type": "take_back"})
    back = ann.until(lambda m: m["type"] in ("taken_back", "error"))
    assert back["type"] == "taken_back" and back["moves"] >= 1
    state = play_to_state(ann, lambda s: s["version"] == before)
    assert sorted(state["hand"]) == hand and state["to_act"] == 0
    # The event log was cut too: a restarted server rebuilds the table here.
    assert len(client.app.state.lobby.store.events(tid)) == before


def test_rules_pages_of_besigue(client: TestClient) -> None:
    index = client.get("/rules").text
    assert 'href="/rules/besigue"' in index and 'href="/rules/besigue-english"' in index
    page = client.get("/rules/besigue-english(target=1500)")
    assert page.status_code == 200
    text = page.text
    # The page shows barbu.guide's Bésigue (the one guide, in the page's language).
    assert "double bésigue" in text.lower() and "500" in text and "1500" in text and "8 cards" in text
    assert "head the trick" in text  # the English endgame duty
    assert client.get("/rules/besigue(hand=7)").status_code == 404


def test_a_restarted_server_resumes_a_besigue_table_at_its_stored_action(sqlite_url: str) -> None:
    """The event log replays through the game's parse_action/apply: the same hand, stock and turn."""
    settings = Settings(db_url=sqlite_url, grace=1000, **FAST)
    with app_client(settings) as c:
        tid, token = besigue_table(c, "besigue-english")
        ann = Player(c, tid, token)
        at = 0
        for _ in range(12):  # a few tricks, declarations and draws
            state = play_to_state(ann, lambda s, at=at: s["version"] >= at and s["to_act"] == 0)
            reply = ann.act(state["legal"][-1])
            assert reply["type"] == "ack"
            at = reply["version"]
        state = play_to_state(ann, lambda s, at=at: s["version"] >= at and s["to_act"] == 0)
        before = {
            k: state[k]
            for k in (
                "version",
                "hand",
                "stock",
                "turn_up",
                "table",
                "melds",
                "scores",
                "trick",
                "legal",
                "deal",
                "opponent_hand",
            )
        }
    with app_client(settings) as c:  # a new server on the same database
        ann = Player(c, tid, token)
        state = ann.first["state"]
        assert {k: state[k] for k in before} == before
        reply = ann.act(state["legal"][0])
        assert reply["type"] == "ack" and reply["version"] == before["version"] + 1
