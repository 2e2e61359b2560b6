"""The chat rooms of clubs and events (`barbu.web.clubs.chat`, ``/ws/room/{kind}/{address}``), over one in-process
server for the module: members only (a stranger, a logged-out visitor and a missing club get the same coded
refusal), quick phrases and free text reach the other members, the event's director alone posts notices, pinned in
the log, the length and rate limits hold exactly under a concurrent burst, a muted account is refused, links are
marked clickable only for an author with history (here and at the table), a report reaches the moderators' desk
with its context and a removal makes the room's pages read their log without it, and the retention deletes old
room messages."""

from __future__ import annotations

import json
import secrets
from datetime import timedelta
from typing import Any, Iterator

import pytest
from sqlalchemy import select
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from test_web_chat import join, table
from test_web_chat import say as table_say
from wsclient import ORIGIN, app_client

from barbu.cli.main import main as barbu
from barbu.web import Settings
from barbu.web.accounts import store as accounts
from barbu.web.db import chat as chatdb
from barbu.web.db.storage import now
from barbu.web.moderation.service import HISTORY_DAYS, HISTORY_MATCHES
from barbu.web.tables.chat import BURST, TEXT_MAX

PASSWORD = "Quiet lanterns 7 over the moor"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('rooms') / 'web.db'}"


@pytest.fixture(scope="module")
def client(db: str) -> Iterator[TestClient]:
    limits = dict(tables_per_hour=0, signups_per_hour=0, clubs_per_day=0, events_per_day=0, bot_tables_per_address=0)
    limits |= dict(open_tables_per_address=0, seats_per_address=0)
    with app_client(Settings(db_url=db, bot_delay=0, deal_pause=0, grace=600, **limits)) as c:
        yield c
        for page in list(OPEN):
            page.close()


def cookie(sid: str | None) -> dict[str, str]:
    return {**ORIGIN, "cookie": f"barbu_session={sid}"} if sid else ORIGIN


def post(c: TestClient, path: str, body: dict[str, Any], sid: str | None) -> Any:
    c.cookies.clear()
    r = c.post(path, json=body, headers=cookie(sid))
    c.cookies.clear()
    return r


def signup(c: TestClient, stem: str) -> tuple[str, str]:
    """A new account: (name, its session)."""
    name = f"{stem}{secrets.token_hex(2)}"
    r = post(c, "/api/account/signup", {"name": name, "password": PASSWORD}, None)
    assert r.status_code == 201, r.text
    return name, r.cookies["barbu_session"]


def club(c: TestClient, owner: str, *members: str) -> str:
    """A private club of ``owner`` that ``members`` joined: its slug."""
    r = post(c, "/api/clubs", {"name": f"Jeudis {secrets.token_hex(3)}", "public": False}, owner)
    assert r.status_code == 201, r.text
    slug = r.json()["club"]["slug"]
    for sid in members:
        key = post(c, f"/api/clubs/{slug}/invites", {"hours": 24}, owner).json()["key"]
        assert post(c, "/api/clubs/join", {"key": key}, sid).status_code == 200
    return str(slug)


def user_id(c: TestClient, name: str) -> int:
    with c.app.state.lobby.store.engine.connect() as conn:  # type: ignore[attr-defined]
        return int(conn.execute(select(accounts.USERS.c.id).where(accounts.USERS.c.name == name)).scalar_one())


OPEN: list["Page"] = []  # closed before the server stops


class Page:
    """A page's WebSocket to a room."""

    def __init__(self, c: TestClient, kind: str, address: str, sid: str | None) -> None:
        self.cm = c.websocket_connect(f"/ws/room/{kind}/{address}", headers=cookie(sid))
        self.ws = self.cm.__enter__()
        self.log: list[dict[str, Any]] = []
        OPEN.append(self)
        self.first = self.recv()

    def recv(self) -> dict[str, Any]:
        m = dict(json.loads(self.ws.receive_text()))
        self.log.append(m)
        return m

    def until(self, pred: Any) -> dict[str, Any]:
        while True:
            m = self.recv()
            if pred(m):
                return m

    def send(self, **what: Any) -> str:
        cid = secrets.token_hex(4)
        self.ws.send_text(json.dumps({"type": "chat", "id": cid, **what}))
        return cid

    def say(self, **what: Any) -> dict[str, Any]:
        cid = self.send(**what)
        return self.until(lambda m: m.get("id") == cid)

    def close(self) -> None:
        if self in OPEN:
            OPEN.remove(self)
            self.cm.__exit__(None, None, None)


def refused(c: TestClient, kind: str, address: str, sid: str | None, code: str, close: int) -> None:
    p = Page(c, kind, address, sid)
    assert p.first["type"] == "error" and p.first["code"] == code, p.first
    assert p.first["message"] and "{" not in p.first["message"]
    with pytest.raises(WebSocketDisconnect) as closed:
        p.recv()
    assert closed.value.code == close
    p.close()


def said(p: Page, seq: int) -> dict[str, Any]:
    return p.until(lambda m: m["type"] == "chat" and m["seq"] == seq)


def test_a_clubs_room_is_its_members_and_theirs_alone(client: TestClient) -> None:
    (_, owner), (bea, b_sid), (_, stranger) = signup(client, "Olga"), signup(client, "Bea"), signup(client, "Nosy")
    slug = club(client, owner, b_sid)
    refused(client, "club", slug, None, "room-log-in", 4401)
    refused(client, "club", slug, stranger, "room-members-only", 4403)
    refused(client, "club", "no-such-club", owner, "room-members-only", 4403)  # the same words: nothing told
    refused(client, "hall", slug, owner, "room-members-only", 4403)
    o, b = Page(client, "club", slug, owner), Page(client, "club", slug, b_sid)
    assert o.first["type"] == "room_log" and o.first["messages"] == [] and o.first["may_notice"] is False
    gg = b.say(phrase="gg")
    assert gg["type"] == "ack"
    heard = said(o, gg["seq"])
    assert (heard["from"], heard["phrase"], heard["room"]) == (bea, "gg", "club") and "text" not in heard
    words = o.say(text="  <b>ce soir</b>\n21h ")
    assert said(b, words["seq"])["text"] == "<b>ce soir</b> 21h"  # kept as the text it was, one line
    again = Page(client, "club", slug, b_sid)  # a page (re)connecting is given the room so far, in order
    assert [m["seq"] for m in again.first["messages"]] == [gg["seq"], words["seq"]]
    for p in (o, b, again):
        p.close()


def test_an_events_room_and_its_directors_notices(client: TestClient) -> None:
    (dan, director), (_, ann), (_, bob), (_, out) = (signup(client, k) for k in ("Dan", "Ann", "Bob", "Out"))
    body = {"name": "Jeudi", "rules": "classic", "format": "one-match", "deals": 1, "clock": "normal"}
    r = post(client, "/api/events", {**body, "strength": "random"}, director)
    assert r.status_code == 201, r.text
    eid = str(r.json()["event"]["id"])
    for sid in (ann, bob):
        assert post(client, f"/api/events/{eid}/register", {}, sid).status_code == 200
    refused(client, "event", eid, out, "room-members-only", 4403)
    d, a = Page(client, "event", eid, director), Page(client, "event", eid, ann)
    assert d.first["may_notice"] is True and a.first["may_notice"] is False
    no = a.say(text="we start late", notice=True)
    assert no["type"] == "error" and no["reason"] == "room-notice-director", no
    assert d.say(phrase="hello", notice=True)["reason"] == "room-notice-text"
    notice = d.say(text="Table 2 starts at 21h", notice=True)
    heard = said(a, notice["seq"])
    assert heard["notice"] is True and heard["from"] == dan
    hi = a.say(phrase="thanks")
    said(d, hi["seq"])
    b = Page(client, "event", eid, bob)  # the notice is pinned apart from the messages
    assert [m["seq"] for m in b.first["notices"]] == [notice["seq"]]
    assert [m["seq"] for m in b.first["messages"]] == [hi["seq"]]
    assert post(client, f"/api/events/{eid}/leave", {}, bob).status_code == 200  # withdrawn: out of the room
    refused(client, "event", eid, bob, "room-members-only", 4403)
    for p in (d, a, b):
        p.close()


def test_limits_hold_under_a_burst_and_a_muted_member_is_refused(client: TestClient, db: str) -> None:
    (_, owner), (cleo, c_sid), (mona, m_sid) = signup(client, "Olga"), signup(client, "Cleo"), signup(client, "Mona")
    assert barbu(["users", "--db", db, "role", mona, "moderator"]) == 0
    slug = club(client, owner, c_sid)
    one, two = Page(client, "club", slug, c_sid), Page(client, "club", slug, c_sid)  # two pages of one account
    long = one.say(text="x" * (TEXT_MAX + 1))
    assert long["reason"] == "chat-too-long" and str(TEXT_MAX) in long["message"]
    assert one.say(text=" \n ")["reason"] == "chat-empty"
    assert one.say(phrase="shout")["reason"] == "chat-unknown-phrase"
    ids = [p.send(phrase="oops") for p in (one, two) for _ in range(4)]  # eight at once over two pages
    answers = [p.until(lambda m, i=i: m.get("id") == i) for p, i in zip([one] * 4 + [two] * 4, ids)]
    assert sorted(a["type"] for a in answers) == ["ack"] * BURST + ["error"] * (8 - BURST)
    assert {a["reason"] for a in answers if a["type"] == "error"} == {"chat-too-fast"}
    one.close(), two.close()
    uid = user_id(client, cleo)
    act = {"action": "mute", "kind": "player", "target": str(uid), "reason": "a test", "hours": 1}
    assert post(client, "/api/moderation/act", act, m_sid).status_code == 200
    quiet = Page(client, "club", slug, c_sid)  # he reads on, and writes nothing
    assert quiet.first["type"] == "room_log"
    assert quiet.say(phrase="gg")["reason"] == "muted"
    quiet.close()


def test_links_are_marked_clickable_only_for_an_author_with_history(client: TestClient) -> None:
    (_, owner), (old, o_sid) = signup(client, "Olga"), signup(client, "Vet")
    slug = club(client, owner, o_sid)
    p = Page(client, "club", slug, o_sid)
    new = p.say(text="see https://example.org/x")
    assert "links" not in said(p, new["seq"])
    store = client.app.state.lobby.store  # type: ignore[attr-defined]
    uid = user_id(client, old)
    with store.engine.begin() as conn:  # an account a week old with five finished matches
        conn.execute(
            accounts.USERS.update()
            .where(accounts.USERS.c.id == uid)
            .values(created_at=now() - timedelta(days=HISTORY_DAYS, hours=1))
        )
        for i in range(HISTORY_MATCHES):
            row = dict(table_id=secrets.token_hex(8), seat=0, user_id=uid, name=old, kind="human", game="barbu")
            row |= dict(rules="classic", players=4, place=1, points=0, finished_at=now(), left=False, rated=False)
            conn.execute(accounts.RESULTS.insert().values(**row))
    trusted = p.say(text='<a href="javascript:x">https://example.org/x</a>')
    heard = said(p, trusted["seq"])
    assert heard["links"] is True and heard["text"] == '<a href="javascript:x">https://example.org/x</a>'
    assert "links" not in said(p, p.say(phrase="gg")["seq"])  # a quick phrase holds no link
    p.close()
    tid, tokens, _ = table(client, {0: o_sid, 1: None})  # at a table too: his words' links, not a guest's
    vet, guest = join(client, tid, tokens[0], o_sid), join(client, tid, tokens[1])
    assert table_say(vet, text="https://example.org/t")["type"] == "ack"
    assert vet.until(lambda m: m["type"] == "chat")["links"] is True
    (_, n_sid) = signup(client, "New")
    tid, tokens, _ = table(client, {0: n_sid})
    new = join(client, tid, tokens[0], n_sid)
    table_say(new, text="https://example.org/n")
    assert "links" not in new.until(lambda m: m["type"] == "chat")
    for player in (vet, guest, new):
        player.close()


def test_a_report_reaches_the_desk_with_its_context_and_a_removal_leaves_the_room(client: TestClient, db: str) -> None:
    (_, owner), (rita, r_sid), (_, ugo), (mona, m_sid) = (signup(client, k) for k in ("Olga", "Rita", "Ugo", "Mona"))
    assert barbu(["users", "--db", db, "role", mona, "moderator"]) == 0
    slug = club(client, owner, r_sid, ugo)
    r, u = Page(client, "club", slug, r_sid), Page(client, "club", slug, ugo)
    before = r.say(text="bonsoir")["seq"]
    rude = u.say(text="<i>you play like a fish</i>")["seq"]
    after = r.say(phrase="sorry")["seq"]
    said(u, after)
    report = {"kind": "message", "target": str(rude), "reason": "abuse", "text": ""}
    _, stranger = signup(client, "Nosy")
    assert post(client, "/api/reports", report, stranger).status_code == 404  # not his room: nothing to report
    res = post(client, "/api/reports", report, r_sid)
    assert res.status_code == 201, res.text
    client.cookies.clear()
    desk = client.get("/api/moderation", headers=cookie(m_sid)).json()
    group = next(g for g in desk["groups"] if g["target"]["kind"] == "message" and g["target"]["id"] == str(rude))
    target = group["target"]
    assert target["about"] == "<i>you play like a fish</i>" and target["url"] == f"/c/{slug}"
    assert [m["seq"] for m in target["state"]["context"]] == [before, rude, after]
    assert target["state"]["room"] == "club" and group["reports"][0]["reporter"] == rita
    act = {"action": "remove", "kind": "message", "target": str(rude), "reason": "abuse"}
    assert post(client, "/api/moderation/act", act, m_sid).status_code == 200
    log = u.until(lambda m: m["type"] == "room_log")  # the room's pages read it again, without it
    assert [m["seq"] for m in log["messages"]] == [before, after]
    r.close(), u.close()


def test_the_retention_deletes_old_room_messages(client: TestClient) -> None:
    (_, owner), (_, b_sid) = signup(client, "Olga"), signup(client, "Bea")
    slug = club(client, owner, b_sid)
    p = Page(client, "club", slug, b_sid)
    seq = p.say(phrase="hello")["seq"]
    p.close()
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    with lobby.store.engine.connect() as conn:
        assert chatdb.by_id(conn, seq) is not None
    client.portal.call(lobby.sweep_chat, now() + timedelta(days=31))  # kept 30 days
    with lobby.store.engine.connect() as conn:
        assert chatdb.by_id(conn, seq) is None
    assert Page(client, "club", slug, b_sid).first["messages"] == []


def test_a_block_keeps_two_members_out_of_each_others_messages(client: TestClient) -> None:
    (_, owner), (bea, b_sid), (_, c_sid) = signup(client, "Olga"), signup(client, "Bea"), signup(client, "Cleo")
    slug = club(client, owner, b_sid, c_sid)
    o = Page(client, "club", slug, owner)
    before = o.say(phrase="hello")["seq"]
    early = Page(client, "club", slug, b_sid).say(phrase="good_luck")["seq"]
    assert post(client, "/api/blocks/block", {"name": bea}, c_sid).status_code == 200
    c, b = Page(client, "club", slug, c_sid), Page(client, "club", slug, b_sid)
    assert [m["seq"] for m in c.first["messages"]] == [before]  # the blocked one's words are not in his log
    hidden = b.say(phrase="gg")["seq"]
    mine = c.say(phrase="oops")["seq"]
    last = o.say(phrase="thanks")["seq"]
    for reader, unseen in ((c, hidden), (b, mine)):  # neither reads the other, both read the rest
        reader.until(lambda m: m["type"] == "chat" and m["seq"] == last)
        assert unseen not in [m.get("seq") for m in reader.log if m["type"] == "chat"]
    assert early in [m["seq"] for m in Page(client, "club", slug, owner).first["messages"]]
    for p in list(OPEN):
        p.close()
