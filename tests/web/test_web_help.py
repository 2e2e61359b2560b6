"""Help at the table over the WebSocket: a hint from the seat's own view, and taking a move back
against computer players only (the event log is cut too, so a restart rebuilds the same table)."""

from __future__ import annotations

from starlette.testclient import TestClient
from wsclient import Player, app_client

from barbu.web import Settings
from barbu.web.tables.actor import Table

FAST = dict(bot_delay=0.0, deal_pause=0.0, burst=10_000, rate=10_000.0)


def play_vs_computers(c: TestClient) -> tuple[str, Player]:
    r = c.post("/api/play", json={"rules": "classic(undoubled_negative=play)", "name": "Ann"})
    assert r.status_code == 201, r.text
    data = r.json()
    assert [s["kind"] for s in data["table"]["seats"]] == ["human", "bot", "bot", "bot"]
    return data["id"], Player(c, data["id"], data["token"])


def my_turn(p: Player) -> dict:
    return p.until(lambda m: m.get("state") is not None and m["state"]["to_act"] == p.seat and m["state"]["legal"])


def test_a_hint_comes_from_the_seat_and_says_why(sqlite_url: str) -> None:
    with app_client(Settings(db_url=sqlite_url, **FAST)) as c:
        tid, p = play_vs_computers(c)
        st = p.state if p.state and p.state["to_act"] == p.seat and p.state["legal"] else my_turn(p)["state"]
        p.send({"type": "hint"})
        h = p.until(lambda m: m["type"] in ("hint", "error"))
        assert h["type"] == "hint", h
        assert h["text"] in st["legal"] and h["version"] == st["version"]
        assert "average" in h["reason"] or "only thing" in h["reason"] or "rules of thumb" in h["reason"]
        spectator = Player(c, tid)
        spectator.send({"type": "hint"})
        assert "spectators get no hints" in spectator.until(lambda m: m["type"] == "error")["message"]


def test_take_back_against_computers_and_the_log_follows(sqlite_url: str) -> None:
    with app_client(Settings(db_url=sqlite_url, **FAST)) as c:
        tid, p = play_vs_computers(c)
        table: Table = c.app.state.lobby.tables[tid]
        if not (p.state and p.state["to_act"] == p.seat and p.state["legal"]):
            my_turn(p)
        st = p.state
        p.send({"type": "take_back"})  # nothing of mine in this deal yet (or only the deal)
        first = p.until(lambda m: m["type"] in ("error", "taken_back"))
        if first["type"] == "error":
            assert "no move of yours" in first["message"]
        st = p.state
        p.act(st["legal"][0])
        my_turn(p)
        assert table.version > st["version"]
        p.send({"type": "take_back"})
        assert p.until(lambda m: m["type"] in ("taken_back", "error"))["type"] == "taken_back"
        assert table.version == st["version"] and table.match.to_act() == p.seat
        assert len(c.app.state.lobby.store.events(tid)) == table.version  # the log was cut at the same place


def test_no_take_back_with_another_person_at_the_table(sqlite_url: str) -> None:
    with app_client(Settings(db_url=sqlite_url, **FAST)) as c:
        r = c.post("/api/tables", json={"rules": "classic"})
        tid, creator = r.json()["id"], r.json()["creator"]
        tokens = [c.post(f"/api/tables/{tid}/seats", json={"seat": s, "name": f"P{s}"}).json()["token"] for s in (0, 1)]
        for s in (2, 3):
            c.post(f"/api/tables/{tid}/bots", json={"seat": s, "strength": "random", "token": creator})
        p = Player(c, tid, tokens[0])
        p.send({"type": "take_back"})
        err = p.until(lambda m: m["type"] == "error")
        assert "only in a match against computer players" in err["message"]
