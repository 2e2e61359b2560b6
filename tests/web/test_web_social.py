"""Follows, blocks, presence and the live tables (`barbu.web.social`, `barbu.web.live`), on one in-process server
shared by the module (each test makes its own accounts and tables): following counts and lists, a block removes the
follows both ways and refuses a follow, keeps the two from one table (either of them sitting down, as a seat is
asked for over HTTP, and in a quick match) and keeps their chat at a table apart; presence read in one request and
pushed over the account channel (online, playing with its watch link, away, hidden); the live tables ordered."""

from __future__ import annotations

import json
import secrets
from typing import Any, Iterator

import pytest
from starlette.testclient import TestClient
from wsclient import OPEN, ORIGIN, Player, app_client

from barbu.web import Settings

PASSWORD = "Quiet lanterns 7 over the moor"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    limits = dict(tables_per_hour=0, bot_tables_per_address=0, open_tables_per_address=0, seats_per_address=0)
    db = f"sqlite:///{tmp_path_factory.mktemp('social') / 'web.db'}"
    s = Settings(db_url=db, bot_delay=0, deal_pause=0, signups_per_hour=0, grace=600, **limits)
    with app_client(s) as c:
        c.app.state.services.presence.debounce = 0.02  # type: ignore[attr-defined]  # pushes told at once
        yield c


def signup(c: TestClient, stem: str) -> tuple[str, str]:
    name = f"{stem}{secrets.token_hex(2)}"
    c.cookies.clear()
    r = c.post("/api/account/signup", json={"name": name, "password": PASSWORD}, headers=ORIGIN)
    assert r.status_code == 201, r.text
    sid = r.cookies["barbu_session"]
    c.cookies.clear()
    return name, sid


def as_(sid: str | None) -> dict[str, str]:
    return {**ORIGIN, "cookie": f"barbu_session={sid}"} if sid else ORIGIN


def post(c: TestClient, path: str, sid: str | None, body: dict[str, Any]) -> Any:
    c.cookies.clear()
    return c.post(path, json=body, headers=as_(sid))


def get(c: TestClient, path: str, sid: str | None = None) -> Any:
    c.cookies.clear()
    r = c.get(path, headers=as_(sid))
    assert r.status_code == 200, r.text
    return r.json()


def new_table(c: TestClient) -> tuple[str, str]:
    c.cookies.clear()
    r = c.post("/api/tables", json={"rules": "classic"}, headers=ORIGIN)
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["creator"]


def sit(c: TestClient, tid: str, seat: int, sid: str | None) -> Any:
    return post(c, f"/api/tables/{tid}/seats", sid, {"seat": seat, "name": f"G{secrets.token_hex(3)}"})


class Me:
    """A page's account channel (``/ws/me``)."""

    def __init__(self, c: TestClient, sid: str) -> None:
        c.cookies.clear()
        self.cm = c.websocket_connect("/ws/me", headers=as_(sid))
        self.ws = self.cm.__enter__()
        OPEN.append(self)  # type: ignore[arg-type]  # closed with the client if a test fails
        self.welcome = self.recv()

    def recv(self) -> dict[str, Any]:
        m: dict[str, Any] = json.loads(self.ws.receive_text())
        return m

    def until(self, pred: Any) -> dict[str, Any]:
        for _ in range(50):
            m = self.recv()
            if pred(m):
                return m
        raise AssertionError("never came")

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send_text(json.dumps(msg))

    def close(self) -> None:
        if self in OPEN:
            OPEN.remove(self)  # type: ignore[arg-type]
            self.cm.__exit__(None, None, None)


def test_follow_unfollow_and_counts(client: TestClient) -> None:
    a, sa = signup(client, "Ann")
    b, sb = signup(client, "Bob")
    c, sc = signup(client, "Cy")
    assert post(client, "/api/friends/follow", sa, {"name": b.upper()}).json() == {"name": b}  # as it is spelled
    assert post(client, "/api/friends/follow", sc, {"name": b}).status_code == 200
    assert post(client, "/api/friends/follow", sa, {"name": b}).status_code == 200  # twice: still one follow
    assert get(client, f"/api/players/{b}/social", sa) | {"tables": []} == {
        "followers": 2,
        "self": False,
        "following": True,
        "blocking": False,
        "tables": [],
    }
    mine = get(client, "/api/friends", sa)
    assert [f["name"] for f in mine["following"]] == [b] and mine["followers"] == 0
    assert mine["following"][0]["state"] == "offline" and mine["hidden"] is False
    assert post(client, "/api/friends/unfollow", sa, {"name": b}).status_code == 200
    assert get(client, f"/api/players/{b}/social")["followers"] == 1  # a guest reads the count too
    refused = post(client, "/api/friends/follow", sa, {"name": a})
    assert refused.status_code == 400 and refused.json()["code"] == "social-follow-self"
    nobody = post(client, "/api/friends/follow", sa, {"name": "Nobody" + secrets.token_hex(3)})
    assert nobody.status_code == 404 and nobody.json()["code"] == "social-no-such-player"
    guest = post(client, "/api/friends/follow", None, {"name": b})
    assert guest.status_code == 401
    assert post(client, "/api/friends/follow", sa, {"name": 7}).json()["code"] == "social-name-needed"
    assert post(client, "/api/presence", sa, {"hidden": "yes"}).json()["code"] == "presence-flag"


def test_a_block_removes_the_follows_and_refuses_a_follow(client: TestClient) -> None:
    a, sa = signup(client, "Ada")
    b, sb = signup(client, "Ben")
    post(client, "/api/friends/follow", sa, {"name": b})
    post(client, "/api/friends/follow", sb, {"name": a})
    assert post(client, "/api/blocks/block", sa, {"name": b}).status_code == 200
    assert get(client, "/api/friends", sa)["following"] == [] and get(client, "/api/friends", sb)["following"] == []
    assert [x["name"] for x in get(client, "/api/friends", sa)["blocked"]] == [b]
    for who, sid in ((b, sa), (a, sb)):  # neither may follow the other
        r = post(client, "/api/friends/follow", sid, {"name": who})
        assert r.status_code == 403 and r.json()["code"] == "social-follow-blocked", r.text
    assert get(client, f"/api/players/{b}/social", sa)["blocking"] is True
    assert post(client, "/api/blocks/unblock", sa, {"name": b}).status_code == 200
    assert post(client, "/api/friends/follow", sb, {"name": a}).status_code == 200


def test_a_block_refuses_sitting_down_both_ways(client: TestClient) -> None:
    a, sa = signup(client, "Al")
    b, sb = signup(client, "Bea")
    _, sc = signup(client, "Cal")
    post(client, "/api/blocks/block", sa, {"name": b})
    tid, _ = new_table(client)
    assert sit(client, tid, 0, sa).status_code == 200
    refused = sit(client, tid, 1, sb)  # the blocked player, where the blocker sits
    assert refused.status_code == 409 and refused.json()["code"] == "blocked-at-table", refused.text
    assert "block" in refused.json()["error"]
    assert sit(client, tid, 1, sc).status_code == 200  # anyone else sits
    assert sit(client, tid, 2, None).status_code == 200  # and a guest
    tid2, _ = new_table(client)
    assert sit(client, tid2, 0, sb).status_code == 200
    refused = sit(client, tid2, 1, sa)  # the blocker, where the blocked player sits
    assert refused.status_code == 409 and refused.json()["code"] == "blocked-at-table"
    client.cookies.clear()
    french = client.post(
        f"/api/tables/{tid2}/seats", json={"seat": 1}, headers={**as_(sa), "accept-language": "fr"}
    ).json()
    assert french["code"] == "blocked-at-table" and french["error"] != refused.json()["error"]


def test_blocked_chat_is_not_delivered(client: TestClient) -> None:
    a, sa = signup(client, "Ava")
    b, sb = signup(client, "Bo")
    _, sc = signup(client, "Cid")
    tid, creator = new_table(client)
    tokens = {i: sit(client, tid, i, sid).json()["token"] for i, sid in enumerate((sa, sb, sc))}
    post(client, "/api/tables/{}/bots".format(tid), None, {"seat": 3, "strength": "random", "token": creator})
    post(client, "/api/blocks/block", sa, {"name": b})  # after they sat down: the chat keeps them apart
    pa, pb, pc = (Player(client, tid, tokens[i], headers=as_(sid)) for i, sid in enumerate((sa, sb, sc)))
    pb.send({"type": "chat", "id": "b1", "text": "from the blocked one"})
    assert pb.until(lambda m: m["type"] == "ack")["id"] == "b1"
    assert pc.until(lambda m: m["type"] == "chat")["text"] == "from the blocked one"
    pa.send({"type": "chat", "id": "a1", "phrase": "gg"})
    pa.until(lambda m: m["type"] == "ack")
    assert pc.until(lambda m: m["type"] == "chat")["phrase"] == "gg"
    pc.send({"type": "chat", "id": "c1", "phrase": "thanks"})
    # the blocker reads Cid's words and his own, never Bo's; Bo never reads the blocker's
    seen_a = pa.until(lambda m: m["type"] == "chat" and m.get("phrase") == "thanks")
    assert seen_a["from"] != b
    assert all(m.get("text") != "from the blocked one" for m in pa.log if m["type"] == "chat")
    pb.until(lambda m: m["type"] == "chat" and m.get("phrase") == "thanks")
    assert all(m.get("phrase") != "gg" for m in pb.log if m["type"] == "chat")
    # and after a reconnection, the chat so far is still without them
    pa.close()
    again = Player(client, tid, tokens[0], headers=as_(sa))
    log = again.until(lambda m: m["type"] == "chat_log")
    assert [m.get("phrase") or m.get("text") for m in log["messages"]] == ["gg", "thanks"]
    for p in (again, pb, pc):
        p.close()


def test_presence_online_playing_away_hidden(client: TestClient) -> None:
    a, sa = signup(client, "Pia")
    b, sb = signup(client, "Ro")
    post(client, "/api/friends/follow", sa, {"name": b})

    def state() -> dict[str, Any]:
        row: dict[str, Any] = get(client, "/api/friends", sa)["following"][0]
        return row

    assert state()["state"] == "offline"
    mine = Me(client, sa)
    assert mine.welcome["type"] == "welcome" and mine.welcome["name"] == a
    theirs = Me(client, sb)
    pushed = mine.until(lambda m: m["type"] == "presence")
    assert pushed == {"type": "presence", "name": b, "state": "online", "watch": None}
    assert state()["state"] == "online"
    theirs.send({"type": "away"})
    assert mine.until(lambda m: m["type"] == "presence")["state"] == "away"
    assert state()["state"] == "away"
    theirs.send({"type": "here"})
    assert mine.until(lambda m: m["type"] == "presence")["state"] == "online"
    tid, _ = new_table(client)
    assert sit(client, tid, 0, sb).status_code == 200
    playing = mine.until(lambda m: m["type"] == "presence")  # the tables' look found him seated
    assert playing == {"type": "presence", "name": b, "state": "playing", "watch": f"/t/{tid}"}
    assert state() | {"since": None} == {
        "name": b,
        "profile": f"/u/{b}",
        "since": None,
        "state": "playing",
        "watch": f"/t/{tid}",
    }
    assert post(client, "/api/presence", sb, {"hidden": True}).json() == {"hidden": True}
    assert mine.until(lambda m: m["type"] == "presence")["state"] == "offline"  # hidden: offline to everyone
    assert state()["state"] == "offline" and state()["watch"] is None
    assert get(client, "/api/friends", sb)["hidden"] is True
    post(client, "/api/presence", sb, {"hidden": False})
    assert mine.until(lambda m: m["type"] == "presence")["state"] == "playing"
    theirs.close()
    assert mine.until(lambda m: m["type"] == "presence")["state"] == "offline"  # his last page closed
    mine.close()


def test_the_account_channel_refuses_a_guest_and_reaches_every_page(client: TestClient) -> None:
    client.cookies.clear()
    with client.websocket_connect("/ws/me", headers=ORIGIN) as ws:
        with pytest.raises(Exception) as closed:
            ws.receive_text()
        assert getattr(closed.value, "code", None) == 4401
    a, sa = signup(client, "Eve")
    pages = [Me(client, sa), Me(client, sa)]
    live = client.app.state.services.live  # type: ignore[attr-defined]
    user_id = next(iter(p.account for ps in live.pages.values() for p in ps if live.pages))
    ids = [acc for acc, ps in live.pages.items() if len(ps) == 2]
    assert ids, live.pages
    client.portal.call(live.send, ids[0], {"type": "notice", "n": 1})  # type: ignore[union-attr]
    for p in pages:
        assert p.until(lambda m: m["type"] == "notice") == {"type": "notice", "n": 1}
    assert client.portal.call(live.connected, ids[0]) is True  # type: ignore[union-attr]
    for p in pages:
        p.close()
    assert user_id is not None


def test_the_live_tables_highest_rated_first_then_friends_and_clubs() -> None:
    from barbu.web.social.watching import live_tables

    def row(tid: str, ratings: list[int | None], names: list[str], club: int | None = None) -> dict[str, Any]:
        seats = [
            {"kind": "human", "name": n, "account": r is not None, "rating": None if r is None else {"rating": r}}
            for n, r in zip(names, ratings)
        ]
        return {"id": tid, "status": "playing", "seats": seats, "club_id": club, "private": False}

    rows = [
        row("low", [1000, 1100], ["a", "b"]),
        row("guests", [None, None], ["g", "h"]),
        row("high", [1500, 1700], ["c", "Dee"], club=7),
        row("mid", [1300], ["e"]),
        {**row("open", [2000], ["f"]), "status": "open"},  # not started: not live
    ]
    found = live_tables(rows, {"dee"}, {7})
    assert [t["id"] for t in found["top"]] == ["high", "mid", "low", "guests"]
    assert [t["rating"] for t in found["top"]] == [1600, 1300, 1050, None]
    assert [t["id"] for t in found["friends"]] == ["high"] and [t["id"] for t in found["clubs"]] == ["high"]
    assert found["top"][0]["watch"] == "/t/high"


def test_the_live_page_and_his_tables(client: TestClient) -> None:
    a, sa = signup(client, "Liv")
    tid, creator = new_table(client)
    sit(client, tid, 0, sa)
    for seat in (1, 2, 3):
        post(client, f"/api/tables/{tid}/bots", None, {"seat": seat, "strength": "random", "token": creator})
    found = get(client, "/api/live", sa)
    assert tid in [t["id"] for t in found["top"]] and found["logged_in"] is True
    his = get(client, f"/api/players/{a}/social")["tables"]
    assert [t["watch"] for t in his] == [f"/t/{tid}"]
    for path in ("/live", "/friends"):
        client.cookies.clear()
        assert client.get(path).status_code == 200
