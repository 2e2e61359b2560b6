"""Turn-based tables (issue 32): long clocks, nobody needs to be connected, "your turn" lists and e-mails.

A table created turn-based waits for each player's decision however long he is away (no grace, no
stand-in) until his clock runs out; the clock counts on the wall clock, so a restarted server resumes it;
when it runs out, the stand-in plays that move and the player is told (by e-mail when he asked, through a
local SMTP sink: aiosmtpd, never a real mail service).
"""

from __future__ import annotations

import re
import socket
import time
from datetime import datetime, timedelta, timezone
from email import message_from_bytes, policy
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import update
from test_web_accounts import PASSWORD, sign_up, use_session
from test_web_private import CREATOR, FRIEND, client, post
from wsclient import Player

from barbu.web import Settings
from barbu.web.db.storage import TABLES
from barbu.web.tables.clock import parse_turn_based

SHORT = "salad(players=3)"
FAST = dict(bot_delay=0.0, deal_pause=0.0, burst=10_000, rate=10_000.0, grace=0.05)


class Sink:
    """A local SMTP server that keeps what it is sent."""

    def __init__(self) -> None:
        self.messages: list[Any] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(envelope)
        return "250 OK"


@pytest.fixture
def smtp() -> Any:
    sink = Sink()
    with socket.socket() as probe:  # a free port (aiosmtpd checks that it came up by connecting to it)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield sink, controller.port
    finally:
        controller.stop()


def wait_for(check: Any, limit: float = 30) -> Any:
    stop = time.monotonic() + limit
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < stop, "it did not happen"
        time.sleep(0.05)


def test_turn_based_clocks_are_read_in_hours_and_days() -> None:
    assert str(parse_turn_based("1d+3d")) == "86400+259200"
    assert str(parse_turn_based("12h+2d")) == "43200+172800"
    assert str(parse_turn_based(None)) == str(parse_turn_based("day"))
    for bad in ("10m+1d", "30d+1d", "1d+40d", "forever", 3):
        with pytest.raises(Exception):
            parse_turn_based(bad)


def confirm(c: Any, sink: Sink, address: str, origin: str) -> None:
    """Open the link the server sent to confirm ``address`` (nothing else is sent to it before)."""
    link = wait_for(lambda: [m for m in sink.messages if m.rcpt_tos == [address]])[-1]
    text = mail_text(link)
    key = re.search(r"/account/confirm#key=([A-Za-z0-9_-]+)", text)
    assert key, text
    assert post(c, "/api/mail/confirm", {"key": key.group(1)}, origin).status_code == 200


def mail_text(envelope: Any) -> str:
    part = message_from_bytes(envelope.content, policy=policy.default).get_body(("plain",))
    assert part is not None
    return str(part.get_content())  # type: ignore[attr-defined]


def set_up(c: Any, mail_to: str | None = None, sink: Sink | None = None) -> dict[str, Any]:
    """Alice (seat 0) and Bob (seat 1, e-mails asked for, his address confirmed) at a turn-based table with a
    computer player."""
    assert sign_up(c, "Alice").status_code == 201
    alice = c.cookies.get("barbu_session")
    made = post(c, "/api/tables", {"rules": SHORT, "turn_based": True, "clock": "1h+0h"})
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    assert made.json()["table"]["turn_based"] and made.json()["table"]["clock"]["per_move"] == 3600
    a = post(c, f"/api/tables/{tid}/seats", {"seat": 0}).json()
    use_session(c, None)
    assert sign_up(c, "Bob", address=FRIEND).status_code == 201
    bob = c.cookies.get("barbu_session")
    if mail_to:
        r = post(c, "/api/account/notify", {"email": mail_to, "notify": True}, FRIEND)
        assert r.status_code == 200, r.text
        assert sink is not None
        confirm(c, sink, mail_to, FRIEND)
    assert post(c, f"/api/tables/{tid}/seats", {"seat": 1}, FRIEND).status_code == 200
    use_session(c, alice)
    assert (
        post(
            c, f"/api/tables/{tid}/bots", {"seat": 2, "strength": "random", "token": made.json()["creator"]}
        ).status_code
        == 200
    )
    return {"id": tid, "alice": alice, "bob": bob, "token": a["token"]}


def play_until_bob(c: Any, t: Any, p: Player) -> None:
    """Alice plays (the computer too) until the table waits for Bob, who is not connected."""
    stop = time.monotonic() + 60
    while t.match.to_act() != 1:
        assert time.monotonic() < stop
        st = p.state
        if st and st["to_act"] == 0 and st["legal"] and st["version"] == t.version:
            p.act(st["legal"][0])
        else:
            time.sleep(0.02)
            p.send({"type": "sync"})
            p.recv()


def test_a_turn_based_table_waits_for_an_absent_player_and_lists_it_as_his_turn(sqlite_url: str, smtp: Any) -> None:
    sink, port = smtp
    settings = Settings(
        db_url=sqlite_url,
        smtp_host="127.0.0.1",
        smtp_port=port,
        public_url="http://cards.test",
        reminder_wait=0,
        **FAST,
    )
    with client(settings) as c:
        r = post(c, "/api/account/notify", {"email": "bob@example.org", "notify": True})
        assert r.status_code == 401  # logged in first
        s = set_up(c, mail_to="bob@example.org", sink=sink)
        t = c.app.state.lobby.tables[s["id"]]
        p = Player(c, s["id"], s["token"])
        play_until_bob(c, t, p)
        time.sleep(0.3)  # well past the grace: no stand-in plays for Bob at a turn-based table
        assert t.match.to_act() == 1 and t.controller(1) == "human"
        assert t.clock_info()["turn"]["running"]  # his clock runs although he is away
        use_session(c, s["bob"])
        waiting = wait_for(lambda: c.get("/api/account/turns").json()["tables"])
        assert [w["id"] for w in waiting] == [s["id"]] and waiting[0]["since"]
        use_session(c, s["alice"])
        assert c.get("/api/account/turns").json()["tables"] == []
        mails = wait_for(lambda: [m for m in sink.messages if b"Tables waiting" in m.content])  # one reminder
        assert mails[0].rcpt_tos == ["bob@example.org"]
        body = mail_text(mails[0])
        assert "wait for you" in body and f"http://cards.test/t/{s['id']}" in body
        p.close()


def test_a_clock_run_out_while_the_server_was_down_hands_the_move_to_the_stand_in(sqlite_url: str, smtp: Any) -> None:
    sink, port = smtp
    settings = Settings(
        db_url=sqlite_url, smtp_host="127.0.0.1", smtp_port=port, reminder_wait=0, reminder_every=0, **FAST
    )
    with client(settings) as c:
        s = set_up(c, mail_to="bob@example.org", sink=sink)
        t = c.app.state.lobby.tables[s["id"]]
        p = Player(c, s["id"], s["token"])
        play_until_bob(c, t, p)
        version = t.version
        p.close()
        wait_for(lambda: [m for m in sink.messages if b"Tables waiting" in m.content])
    store_url = sqlite_url
    from barbu.web.db.storage import Store

    store = Store(store_url)
    with store.engine.begin() as conn:  # two hours pass while the server is down
        conn.execute(
            update(TABLES)
            .where(TABLES.c.id == s["id"])
            .values(turn_since=datetime.now(timezone.utc) - timedelta(hours=2))
        )
    store.close()
    with client(settings) as c:
        t = c.app.state.lobby.tables[s["id"]]
        wait_for(lambda: t.version > version and t.actors[version] == 1)  # the stand-in played Bob's move
        assert t.seats[1].timeouts == 1
        told = wait_for(lambda: [m for m in sink.messages if "time ran out" in mail_text(m)])
        assert told[0].rcpt_tos == ["bob@example.org"]


def test_e_mail_settings_are_checked_and_private(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        assert sign_up(c, "Alice").status_code == 201
        r = post(c, "/api/account/notify", {"email": "alice@example.org", "notify": True})
        assert r.status_code == 409 and "no e-mails" in r.json()["error"]  # this server has no mail server
        for bad in ("not an address", "a@b", "x" * 300 + "@example.org", 5):
            r = post(c, "/api/account/notify", {"email": bad, "notify": False})
            assert r.status_code == 400, bad
        assert post(c, "/api/account/notify", {"email": "alice@example.org", "notify": False}).status_code == 200
        assert c.get("/api/account").json()["user"]["email"] == "alice@example.org"
        assert "alice@example.org" not in c.get("/api/players/alice").text  # others never read it
        assert c.get("/api/account/data").json()["account"]["email"] == "alice@example.org"
        r = post(c, "/api/tables", {"rules": SHORT, "turn_based": True, "clock": "5m+1d"})
        assert r.status_code == 400 and "hours" in r.json()["error"]
        r = post(c, "/api/tables", {"rules": SHORT, "turn_based": "yes"})
        assert r.status_code == 400
        _ = PASSWORD, CREATOR
