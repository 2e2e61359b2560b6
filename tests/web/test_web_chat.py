"""Chat at the table (`barbu.web.tables.chat`), over the table's WebSocket of one in-process server: quick phrases
and free text reach their room only, the spectators' room stays hidden from the players until the match ends,
guests send quick phrases only, the rate and length limits and a moderator's mute refuse in words, markup comes
back as the text it was, the chat is kept across a reconnection and a restart, the replay shows it to those who
were there and to nobody else, the retention deletes old messages, and a report reaches the moderators' desk
where the message is read with its context and removed."""

from __future__ import annotations

import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any, Iterator

import pytest
from starlette.testclient import TestClient
from wsclient import ORIGIN, Player, app_client

from barbu.cli.main import main as barbu
from barbu.web import Settings
from barbu.web.db import chat as chatdb
from barbu.web.db.storage import now
from barbu.web.tables.chat import BURST, TEXT_MAX

PASSWORD = "Quiet lanterns 7 over the moor"


def settings(db: str) -> Settings:
    limits = dict(tables_per_hour=0, bot_tables_per_address=0, open_tables_per_address=0, seats_per_address=0)
    return Settings(db_url=db, bot_delay=0, deal_pause=0, signups_per_hour=0, grace=600, **limits)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('chat') / 'web.db'}"


@pytest.fixture(scope="module")
def client(db: str) -> Iterator[TestClient]:
    with app_client(settings(db)) as c:
        yield c


def signup(c: TestClient, stem: str) -> tuple[str, str]:
    """A new account: (name, its session cookie)."""
    name = f"{stem}{secrets.token_hex(2)}"
    c.cookies.clear()
    r = c.post("/api/account/signup", json={"name": name, "password": PASSWORD}, headers=ORIGIN)
    assert r.status_code == 201, r.text
    sid = r.cookies["barbu_session"]
    c.cookies.clear()
    return name, sid


def cookie(sid: str | None) -> dict[str, str]:
    return {**ORIGIN, "cookie": f"barbu_session={sid}"} if sid else ORIGIN


def table(c: TestClient, seats: dict[int, str | None], rules: str = "classic") -> tuple[str, dict[int, str], str]:
    """A table, its seats taken by accounts (a session) or guests (None), the others by computer players."""
    r = c.post("/api/tables", json={"rules": rules}, headers=ORIGIN)
    assert r.status_code == 201, r.text
    tid, creator, n = r.json()["id"], r.json()["creator"], r.json()["table"]["players"]
    tokens = {}
    for seat, sid in seats.items():
        c.cookies.clear()
        body = {"seat": seat, "name": f"Guest{seat}{secrets.token_hex(2)}"}
        r = c.post(f"/api/tables/{tid}/seats", json=body, headers=cookie(sid))
        assert r.status_code == 200, r.text
        tokens[seat] = r.json()["token"]
    c.cookies.clear()
    for seat in range(n):
        if seat not in seats:
            r = c.post(f"/api/tables/{tid}/bots", json={"seat": seat, "strength": "random", "token": creator})
            assert r.status_code == 200, r.text
    return tid, tokens, creator


def join(c: TestClient, tid: str, token: str | None = None, sid: str | None = None) -> Player:
    return Player(c, tid, token, headers=cookie(sid))


def say(p: Player, **what: Any) -> dict[str, Any]:
    """Send a chat message and read its answer (an ack or a refusal, with its id)."""
    cid = secrets.token_hex(4)
    p.send({"type": "chat", "id": cid, **what})
    return p.until(lambda m: m.get("id") == cid and m["type"] in ("ack", "error"))


def heard(p: Player, seq: int) -> dict[str, Any]:
    return p.until(lambda m: m["type"] == "chat" and m["seq"] == seq)


def chats_until_synced(p: Player) -> list[dict[str, Any]]:
    """The chat messages this connection is sent before the answer to a sync asked now (the table's actor answers
    in order: whatever it sent before is read first)."""
    p.send({"type": "sync", "since": p.state["version"] if p.state else None})
    seen = []
    while True:
        m = p.recv()
        if m["type"] == "chat":
            seen.append(m)
        if m["type"] in ("in_sync", "sync", "catch_up"):
            return seen


def refused(answer: dict[str, Any], reason: str) -> None:
    assert answer["type"] == "error" and answer["reason"] == reason, answer
    assert answer["message"] and "{" not in answer["message"]  # in plain words, its fields filled


@pytest.fixture(scope="module")
def accounts(client: TestClient) -> dict[str, tuple[str, str]]:
    return {k: signup(client, k) for k in ("Anna", "Bruno", "Carla", "Dario")}


def test_phrases_and_text_reach_their_room_and_the_spectators_room_stays_theirs_until_the_end(
    client: TestClient, accounts: dict[str, tuple[str, str]]
) -> None:
    (anna, a_sid), (bruno, b_sid), (carla, c_sid) = accounts["Anna"], accounts["Bruno"], accounts["Carla"]
    tid, tokens, _ = table(client, {0: a_sid, 1: b_sid, 2: None})
    a = join(client, tid, tokens[0], a_sid)
    b = join(client, tid, tokens[1], b_sid)
    guest = join(client, tid, tokens[2])
    watcher = join(client, tid, sid=c_sid)

    ack = say(a, phrase="gg")
    assert ack["type"] == "ack" and isinstance(ack["seq"], int)
    for p in (a, b, guest):
        m = heard(p, ack["seq"])
        assert m == {**m, "room": "players", "from": anna, "seat": 0, "phrase": "gg"} and "text" not in m
    assert chats_until_synced(watcher) == []  # the players' room is the players'

    words = say(b, text="  <b>nice</b>   <script>alert(1)</script> https://example.com  ")
    assert words["type"] == "ack"
    for p in (a, b):
        m = heard(p, words["seq"])
        assert m["text"] == "<b>nice</b> <script>alert(1)</script> https://example.com" and m["from"] == bruno
    assert chats_until_synced(guest) == []  # a guest reads quick phrases only

    said = say(watcher, phrase="hello")
    assert said["type"] == "ack"
    assert heard(watcher, said["seq"])["room"] == "spectators" and carla
    for p in (a, b, guest):
        assert chats_until_synced(p) == []  # never sent to a player during the match

    refused(say(guest, text="hi all"), "chat-text-account")
    refused(say(join(client, tid), phrase="hello"), "chat-spectator-account")  # a guest watching: no room
    refused(say(a, phrase="<img>"), "chat-unknown-phrase")
    refused(say(a, phrase="gg", text="both"), "chat-say-what")
    refused(say(a, text="   "), "chat-empty")
    refused(say(a, text="x" * (TEXT_MAX + 1)), "chat-too-long")
    assert say(a, text="x" * TEXT_MAX)["type"] == "ack"

    # reconnected, a player reads his room again (the rooms' recent messages follow the welcome)
    b.close()
    again = join(client, tid, tokens[1], b_sid)
    log = again.until(lambda m: m["type"] == "chat_log")
    seqs = [m["seq"] for m in log["messages"]]
    assert ack["seq"] in seqs and words["seq"] in seqs and said["seq"] not in seqs
    assert log["room"] == "players" and log["free_text"] is True


def play_a_deal(p: Player) -> None:
    """Play this seat's first legal choice until a deal is over (computer players play the others at once)."""
    while True:
        st = p.state
        if st is not None and st.get("deals_done", 0) >= 1:
            return
        if st is not None and st["to_act"] == p.seat and st.get("legal"):
            version = st["version"]
            assert p.act(st["legal"][0])["type"] == "ack"
            if p.state is None or p.state["version"] <= version:  # its view after the move, before the next one
                p.until(lambda m: "state" in m and m["state"]["version"] > version)
        else:
            p.recv()


def test_after_the_match_everyone_reads_both_rooms_and_the_replay_is_for_those_who_were_there(
    client: TestClient, accounts: dict[str, tuple[str, str]], db: str
) -> None:
    (_, d_sid), (carla, c_sid) = accounts["Dario"], accounts["Carla"]
    tid, tokens, creator = table(client, {0: d_sid})
    d = join(client, tid, tokens[0], d_sid)
    watcher = join(client, tid, sid=c_sid)
    said = say(watcher, text="come on, Dario")
    mine = say(d, phrase="good_luck")
    assert said["type"] == mine["type"] == "ack"
    assert heard(d, mine["seq"])["phrase"] == "good_luck"
    assert all(m.get("seq") != said["seq"] for m in d.log + chats_until_synced(d))  # not the spectators' yet

    play_a_deal(d)
    r = client.post(f"/api/tables/{tid}/end", json={"token": tokens[0], "creator": creator}, headers=cookie(d_sid))
    assert r.status_code == 200 and r.json()["kept"], r.text
    client.cookies.clear()
    log = d.until(lambda m: m["type"] == "chat_log")  # the match is over: both rooms are everyone's
    assert [m["seq"] for m in log["messages"]] == [said["seq"], mine["seq"]]
    assert log["messages"][0] == {**log["messages"][0], "room": "spectators", "from": carla}

    def replay(token: str | None = None, sid: str | None = None) -> Any:
        client.cookies.clear()
        r = client.post(f"/api/tables/{tid}/chat", json={"token": token} if token else {}, headers=cookie(sid))
        client.cookies.clear()
        return r

    for r in (replay(tokens[0]), replay(sid=d_sid), replay(sid=c_sid)):  # the player, by seat or account; the watcher
        assert r.status_code == 200, r.text
        assert [m["seq"] for m in r.json()["messages"]] == [said["seq"], mine["seq"]]
    _, stranger = signup(client, "Elio")
    for r in (replay(), replay("not-a-seat"), replay(sid=stranger)):
        assert r.status_code == 403 and r.json()["code"] == "chat-not-there", r.text


def test_the_rate_limit_holds_exactly_under_a_burst(client: TestClient, accounts: dict[str, tuple[str, str]]) -> None:
    tid, tokens, _ = table(client, {0: None, 1: None})
    p = join(client, tid, tokens[0])
    ids = [secrets.token_hex(4) for _ in range(BURST + 3)]
    for cid in ids:  # all sent before any is answered
        p.send({"type": "chat", "id": cid, "phrase": "oops"})
    answers = [p.until(lambda m, cid=cid: m.get("id") == cid) for cid in ids]
    assert [a["type"] for a in answers] == ["ack"] * BURST + ["error"] * 3
    refused(answers[-1], "chat-too-fast")
    other = join(client, tid, tokens[1])
    assert say(other, phrase="oops")["type"] == "ack"  # each speaker has his own


def test_a_muted_player_is_refused_in_words(client: TestClient, db: str) -> None:
    name, sid = signup(client, "Muto")
    tid, tokens, _ = table(client, {0: sid})
    p = join(client, tid, tokens[0], sid)
    assert say(p, phrase="hello")["type"] == "ack"
    assert barbu(["users", "--db", db, "mute", name, "--hours", "2", "--reason", "spam at tables"]) == 0
    refused(say(p, phrase="hello"), "muted")
    refused(say(p, text="let me talk"), "muted")


def test_kept_across_a_restart_and_swept_when_old(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'web.db'}"
    with app_client(settings(db)) as c:
        tid, tokens, _ = table(c, {0: None, 1: None})
        p = join(c, tid, tokens[0])
        first = say(p, phrase="thanks")["seq"]
    with app_client(settings(db)) as c:  # the server restarted: the table is rebuilt, its chat read back
        p = join(c, tid, tokens[1])
        log = p.until(lambda m: m["type"] == "chat_log")
        assert [m["seq"] for m in log["messages"]] == [first] and log["messages"][0]["phrase"] == "thanks"
        assert log["free_text"] is False and log["may_chat"] is True  # a guest at his seat: quick phrases
        lobby = c.app.state.lobby  # type: ignore[attr-defined]
        assert c.portal.call(lobby.sweep_chat, now() + timedelta(days=29)) == 0  # kept 30 days
        assert c.portal.call(lobby.sweep_chat, now() + timedelta(days=31)) == 1
        store = lobby.store
        with store.engine.connect() as conn:
            assert chatdb.of_table(conn, tid) == []


def test_a_report_reaches_the_desk_with_its_context_and_a_removal_is_sent_to_nobody(
    client: TestClient, db: str
) -> None:
    (rita, r_sid), (ugo, u_sid), (mona, m_sid) = (signup(client, k) for k in ("Rita", "Ugo", "Mona"))
    assert barbu(["users", "--db", db, "role", mona, "moderator"]) == 0
    tid, tokens, _ = table(client, {0: r_sid, 1: u_sid})
    r = join(client, tid, tokens[0], r_sid)
    u = join(client, tid, tokens[1], u_sid)
    before = say(r, text="good evening")["seq"]
    rude = say(u, text="<i>you play like a fish</i>")["seq"]
    after = say(r, phrase="sorry")["seq"]
    heard(u, after)

    def post(path: str, body: dict[str, Any], sid: str) -> Any:
        client.cookies.clear()
        res = client.post(path, json=body, headers=cookie(sid))
        client.cookies.clear()
        return res

    _, stranger = signup(client, "Nosy")
    res = post("/api/reports", {"kind": "message", "target": str(rude), "reason": "abuse", "text": ""}, stranger)
    assert res.status_code == 404, res.text  # he was not there: there is nothing for him to report
    res = post("/api/reports", {"kind": "message", "target": str(rude), "reason": "abuse", "text": "rude"}, r_sid)
    assert res.status_code in (200, 201) and res.json()["new"], res.text

    client.cookies.clear()
    desk = client.get("/api/moderation", headers=cookie(m_sid)).json()
    client.cookies.clear()
    group = next(g for g in desk["groups"] if g["target"]["kind"] == "message" and g["target"]["id"] == str(rude))
    target = group["target"]
    assert target["about"] == "<i>you play like a fish</i>" and target["actions"] == ["remove", "restore"]
    assert [m["seq"] for m in target["state"]["context"]] == [before, rude, after]
    assert group["reports"][0]["reporter"] == rita

    res = post(
        "/api/moderation/act", {"action": "remove", "kind": "message", "target": str(rude), "reason": "abuse"}, m_sid
    )
    assert res.status_code == 200, res.text
    log = u.until(lambda m: m["type"] == "chat_log")  # the table sends its chat anew, without it
    assert [m["seq"] for m in log["messages"]] == [before, after]
    again = join(client, tid, tokens[0], r_sid)
    assert [m["seq"] for m in again.until(lambda m: m["type"] == "chat_log")["messages"]] == [before, after]
    assert ugo
