"""Notifications (issue 45): stored and listed with an unread count, marked read; sent by Web Push, encrypted as
RFC 8291 says and signed as RFC 8292 says, to a local push service that records what it receives (no outside
service); a gone subscription removed; each kind's switches kept; e-mail only where chosen and confirmed (a
local SMTP sink); "turn" given by a real turn-based table's move; a moderator's warning notified.

One application in the test's process for the module (Starlette's TestClient), each test with accounts of its
own.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Iterator

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from sqlalchemy import select, update
from test_web_accounts import log_in, sign_up, use_session
from test_web_events import make_event
from test_web_private import FRIEND, client, post
from test_web_turns import FAST, Sink, confirm, mail_text, play_until_bob, smtp  # noqa: F401
from wsclient import ORIGIN, Player

from barbu.web import Settings
from barbu.web.accounts.store import USERS


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushService:
    """A local push service (RFC 8030's endpoint): records each push (its headers and body) and answers
    ``status`` (201; 410 for a subscription that is gone)."""

    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        self.status = 201
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                service.received.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(service.status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Device:
    """A browser's push subscription: its own key pair and auth secret, as PushManager.subscribe makes them."""

    def __init__(self, service: PushService, name: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = f"{service.url}/push/{name}"
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.json = {"endpoint": self.endpoint, "keys": {"p256dh": b64(public), "auth": b64(self.auth)}}

    def read(self, body: bytes) -> dict[str, Any]:
        """Decrypt a push sent to this device (RFC 8291, aes128gcm): only its private key can."""
        found: dict[str, Any] = json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth))
        return found


@pytest.fixture(scope="module")
def push_service() -> Iterator[PushService]:
    service = PushService()
    yield service
    service.close()


@pytest.fixture(scope="module")
def mailbox() -> Iterator[tuple[Sink, int]]:
    yield from smtp.__wrapped__()  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory, mailbox: tuple[Sink, int]) -> Iterator[Any]:
    folder = tmp_path_factory.mktemp("notices")
    settings = Settings(
        db_url=f"sqlite:///{folder / 'web.db'}",
        smtp_host="127.0.0.1",
        smtp_port=mailbox[1],
        public_url="http://cards.test",
        push_plain_http=True,  # the local push service is plain http on this machine
        reminder_wait=0,
        signups_per_hour=0,
        **FAST,
    )
    with client(settings) as found:
        yield found


def account(c: Any, name: str) -> tuple[str, int]:
    """A new account, logged in on ``c``: its session and id."""
    use_session(c, None)
    assert sign_up(c, name).status_code == 201
    with c.app.state.lobby.store.engine.connect() as conn:
        uid = conn.execute(select(USERS.c.id).where(USERS.c.name == name)).scalar_one()
    return c.cookies.get("barbu_session"), int(uid)


def notify(c: Any, uid: int, kind: str, params: dict[str, Any], link: str) -> Any:
    """``notify(services, …)`` as the domains call it, run on the application's loop (it returns once sent)."""
    from barbu.web.notices.service import notify as give

    services = c.app.state.services
    return c.portal.call(give, services, uid, kind, params, link)


def test_a_notice_is_listed_newest_first_counted_unread_and_marked_read(c: Any) -> None:
    _, uid = account(c, "Nora")
    assert c.get("/api/notices").json() == {"notices": [], "unread": 0}
    notify(c, uid, "challenge", {"name": "Bob"}, "/challenges/1")
    notify(c, uid, "club-invite", {"name": "Carla", "club": "Les Barbus"}, "/c/les-barbus")
    found = c.get("/api/notices").json()
    assert found["unread"] == 2 and c.get("/api/notices/unread").json() == {"unread": 2}
    assert [n["kind"] for n in found["notices"]] == ["club-invite", "challenge"]  # newest first
    newest = found["notices"][0]
    assert newest["params"] == {"name": "Carla", "club": "Les Barbus"} and newest["link"] == "/c/les-barbus"
    assert not newest["read"]
    r = post(c, "/api/notices/read", {"id": newest["id"]})
    assert r.status_code == 200 and r.json()["unread"] == 1
    assert post(c, "/api/notices/read", {"id": None}).json()["unread"] == 0
    assert all(n["read"] for n in c.get("/api/notices").json()["notices"])
    # nobody reads or marks another's notices
    account(c, "Olga")
    assert c.get("/api/notices").json()["notices"] == []
    r = post(c, "/api/notices/read", {"id": newest["id"]})
    assert r.status_code == 404 and r.json()["code"] == "no-such-notice"
    use_session(c, None)
    assert c.get("/api/notices").status_code == 401 and c.get("/api/notices/unread").json() == {"unread": 0}
    assert c.get("/notifications").status_code == 200


def verify_vapid(headers: dict[str, str], server_key: str, audience: str) -> dict[str, Any]:
    """The VAPID header (RFC 8292): ``vapid t=<JWT>, k=<key>``, the key the server's, the JWT signed by it (ES256)."""
    scheme, _, rest = headers["authorization"].partition(" ")
    assert scheme == "vapid"
    parts = dict(p.strip().split("=", 1) for p in rest.split(","))
    assert parts["k"] == server_key
    head, claims, signature = parts["t"].split(".")
    assert json.loads(unb64(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(server_key))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if not the server's
    found: dict[str, Any] = json.loads(unb64(claims))
    assert found["aud"] == audience and found["exp"] > time.time() and found["sub"].startswith("mailto:")
    return found


def test_web_push_is_encrypted_for_the_device_and_signed_by_the_server(c: Any, push_service: PushService) -> None:
    _, uid = account(c, "Pia")
    key = c.get("/api/push/key").json()["key"]
    assert len(unb64(key)) == 65 and unb64(key)[0] == 4  # an uncompressed P-256 point
    phone = Device(push_service, "pia-phone")
    r = post(c, "/api/push/subscribe", phone.json)
    assert r.status_code == 201, r.text
    c.headers["user-agent"] = "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36"
    laptop = Device(push_service, "pia-laptop")
    assert post(c, "/api/push/subscribe", laptop.json).json()["device"] == "Chrome on Android"
    del c.headers["user-agent"]
    assert len(c.get("/api/notices/settings").json()["devices"]) == 2
    before = len(push_service.received)
    notify(c, uid, "challenge", {"name": "Quentin"}, "/challenges/7")
    got = {path: (headers, body) for path, headers, body in push_service.received[before:]}
    assert set(got) == {"/push/pia-phone", "/push/pia-laptop"}
    headers, body = got["/push/pia-phone"]
    assert headers["content-encoding"] == "aes128gcm" and int(headers["ttl"]) > 0
    assert b"Quentin" not in body  # encrypted
    verify_vapid(headers, key, push_service.url)
    message = phone.read(body)
    assert message["title"] == "A challenge" and message["body"] == "Quentin challenges you to a table"
    assert message["url"] == "/challenges/7"
    assert message["id"] == c.get("/api/notices").json()["notices"][0]["id"]  # a click on it marks it read (sw.js)
    with pytest.raises(Exception):
        laptop.read(body)  # another device's keys cannot read it
    assert laptop.read(got["/push/pia-laptop"][1])["body"] == message["body"]
    # the test button reaches each device, in the player's language
    with c.app.state.lobby.store.engine.begin() as conn:
        conn.execute(update(USERS).where(USERS.c.id == uid).values(lang="fr"))
    before = len(push_service.received)
    r = post(c, "/api/push/test", {})
    assert r.status_code == 200 and r.json()["sent"] == 2
    french = phone.read(push_service.received[before][2])
    assert (french["title"], french["body"]) == (
        "Une notification d'essai",
        "Les notifications arrivent sur cet appareil",
    )
    # a device turned off gets nothing more
    r = c.request(
        "DELETE", "/api/push/subscribe", json={"endpoint": laptop.endpoint}, headers={"x-test-address": "198.51.100.1"}
    )
    assert r.status_code == 200 and r.json()["removed"]
    before = len(push_service.received)
    notify(c, uid, "turn", {"table": "abc", "game": "classic"}, "/t/abc")
    assert [p for p, _, _ in push_service.received[before:]] == ["/push/pia-phone"]


def test_a_subscription_the_push_service_says_is_gone_is_removed(c: Any, push_service: PushService) -> None:
    _, uid = account(c, "Rita")
    assert post(c, "/api/push/subscribe", Device(push_service, "rita-old").json).status_code == 201
    push_service.status = 410
    try:
        notify(c, uid, "challenge", {"name": "Sam"}, "/x")
    finally:
        push_service.status = 201
    assert c.get("/api/notices/settings").json()["devices"] == []
    assert c.get("/api/notices").json()["unread"] == 1  # the notice itself is kept
    r = post(c, "/api/push/test", {})
    assert r.status_code == 409 and r.json()["code"] == "no-push-device"


def test_each_kinds_push_switch_is_kept_and_respected(c: Any, push_service: PushService) -> None:
    _, uid = account(c, "Sara")
    assert post(c, "/api/push/subscribe", Device(push_service, "sara").json).status_code == 201
    kinds = c.get("/api/notices/settings").json()["kinds"]
    assert set(kinds) == {"turn", "challenge", "event-soon", "event-table", "club-invite", "moderator-reply"}
    assert all(k == {"push": True, "mail": False} for k in kinds.values())
    r = post(c, "/api/notices/settings", {"kind": "challenge", "push": False, "mail": False})
    assert r.status_code == 200 and r.json()["kinds"]["challenge"] == {"push": False, "mail": False}
    before = len(push_service.received)
    notify(c, uid, "challenge", {"name": "Tom"}, "/x")
    notify(c, uid, "club-invite", {"name": "Tom", "club": "C"}, "/c/c")
    assert [p for p, _, _ in push_service.received[before:]] == ["/push/sara"]  # the invitation only
    assert c.get("/api/notices").json()["unread"] == 2  # both listed
    for body, code in (
        ({"kind": "nope", "push": True}, "notice-kind"),
        ({"kind": "turn", "push": "yes"}, "notice-switch-flag"),
        ({"kind": "turn", "push": True, "mail": True}, "notice-mail-no-address"),
    ):
        r = post(c, "/api/notices/settings", body)
        assert r.json()["code"] == code, (body, r.text)
    for bad in (
        {"endpoint": "http://127.0.0.1:9/x", "keys": {"p256dh": "AAAA", "auth": b64(os.urandom(16))}},
        {"endpoint": 3, "keys": {}},
        {"endpoint": "http://127.0.0.1:9/x", "keys": {"p256dh": b64(b"\x04" + os.urandom(64))}},
    ):
        r = post(c, "/api/push/subscribe", bad)
        assert r.status_code == 400 and r.json()["code"] == "bad-push-subscription", r.text


def test_e_mail_goes_only_where_chosen_and_confirmed(c: Any, mailbox: tuple[Sink, int]) -> None:
    sink = mailbox[0]
    _, uid = account(c, "Ugo")
    notify(c, uid, "event-soon", {"event": "Sunday cup", "minutes": 15}, "/e/1")
    assert not [m for m in sink.messages if m.rcpt_tos == ["ugo@example.org"]]  # no address, no choice
    r = post(c, "/api/account/notify", {"email": "ugo@example.org", "notify": False})
    assert r.status_code == 200
    r = post(c, "/api/notices/settings", {"kind": "event-soon", "push": True, "mail": True})
    assert r.status_code == 200 and r.json()["kinds"]["event-soon"]["mail"] and not r.json()["confirmed"]
    count = len(sink.messages)
    notify(c, uid, "event-soon", {"event": "Sunday cup", "minutes": 15}, "/e/1")
    assert [m for m in sink.messages[count:] if m.rcpt_tos == ["ugo@example.org"]] == []  # not confirmed yet
    confirm(c, sink, "ugo@example.org", "198.51.100.1")
    notify(c, uid, "challenge", {"name": "Vic"}, "/x")  # e-mail not chosen for challenges
    notify(c, uid, "event-soon", {"event": "Sunday cup", "minutes": 15}, "/e/1")
    mails = [m for m in sink.messages if m.rcpt_tos == ["ugo@example.org"] and b"confirm" not in m.content.lower()]
    assert len(mails) == 1
    text = mail_text(mails[0])
    assert "Sunday cup starts in 15 minutes" in text and "http://cards.test/e/1" in text
    assert "/mail/unsubscribe/" in text
    # "turn"'s e-mail switch is the account's "your turn" e-mails
    r = post(c, "/api/notices/settings", {"kind": "turn", "push": True, "mail": True})
    assert r.json()["kinds"]["turn"]["mail"]
    assert c.get("/api/account").json()["user"]["notify_turns"] is True


def test_a_turn_based_tables_move_notifies_the_absent_player(c: Any, push_service: PushService) -> None:
    """Boris (his phone subscribed) sits at Alma's turn-based table and goes away; her moves make it his turn."""
    boris, _ = account(c, "Boris")
    device = Device(push_service, "boris-phone")
    assert post(c, "/api/push/subscribe", device.json, FRIEND).status_code == 201
    before = len(push_service.received)
    alma, _ = account(c, "Alma")
    made = post(c, "/api/tables", {"rules": "salad(players=3)", "turn_based": True, "clock": "1h+0h"})
    assert made.status_code == 201, made.text
    tid, creator = made.json()["id"], made.json()["creator"]
    token = post(c, f"/api/tables/{tid}/seats", {"seat": 0}).json()["token"]
    use_session(c, boris)
    assert post(c, f"/api/tables/{tid}/seats", {"seat": 1}, FRIEND).status_code == 200
    use_session(c, alma)
    assert post(c, f"/api/tables/{tid}/bots", {"seat": 2, "strength": "random", "token": creator}).status_code == 200
    t = c.app.state.lobby.tables[tid]
    p = Player(c, tid, token)
    play_until_bob(c, t, p)  # Alma plays (the computer too) until the table waits for Boris, who is away
    use_session(c, boris)
    stop = time.monotonic() + 30
    while not (found := c.get("/api/notices").json())["notices"]:
        assert time.monotonic() < stop, "no turn notice"
        time.sleep(0.05)
    notice = found["notices"][0]
    assert notice["kind"] == "turn" and notice["link"] == f"/t/{tid}" and notice["params"]["table"] == tid
    stop = time.monotonic() + 30
    while not [b for path, _, b in push_service.received[before:] if path == "/push/boris-phone"]:
        assert time.monotonic() < stop, "no push"
        time.sleep(0.05)
    body = next(b for path, _, b in push_service.received[before:] if path == "/push/boris-phone")
    pushed = device.read(body)
    assert pushed["url"] == f"/t/{tid}" and pushed["body"] == "Salad: the table waits for your move"
    p.close()


def test_a_moderators_warning_and_an_events_start_are_notified_once(c: Any) -> None:
    _, warned = account(c, "Wanda")
    _, mod = account(c, "Mo")
    with c.app.state.lobby.store.engine.begin() as conn:
        conn.execute(update(USERS).where(USERS.c.id == mod).values(role="moderator"))
    r = post(c, "/api/moderation/act", {"action": "warn", "kind": "player", "target": str(warned), "reason": "rude"})
    assert r.status_code == 200, r.text
    # Dora's event starts in ten minutes; Wanda registered: the events' watcher tells her, once
    account(c, "Dora")
    start = (datetime.now(timezone.utc) + timedelta(minutes=10)).replace(microsecond=0)
    made = make_event(c, name="Sunday cup", start=start.isoformat())
    assert made.status_code == 201, made.text
    event_id = made.json()["event"]["id"]
    use_session(c, None)
    assert log_in(c, "Wanda").status_code == 200
    assert post(c, f"/api/events/{event_id}/register", {}).status_code == 200
    watcher = c.app.state.services.events.watcher
    c.portal.call(watcher.tell_soon)
    watcher._told_soon.clear()  # as another process would, not knowing this one told them
    c.portal.call(watcher.tell_soon)
    found = c.get("/api/notices").json()["notices"]
    assert [n["kind"] for n in found] == ["event-soon", "moderator-reply"]
    assert found[0]["params"] == {"event": "Sunday cup", "id": event_id, "minutes": 15}
    assert found[0]["link"] == f"/e/{event_id}"


def test_an_events_players_are_told_their_table_is_ready_in_their_language(c: Any) -> None:
    """Issue 43: registered players are told when their table is ready (the director starts early here), by a
    notice that links to the table, once a round."""
    account(c, "Dirce")
    made = make_event(c, name="Early cup", start=(datetime.now(timezone.utc) + timedelta(days=1)).isoformat())
    assert made.status_code == 201, made.text
    event_id = made.json()["event"]["id"]
    account(c, "Elio")
    assert post(c, f"/api/events/{event_id}/register", {}).status_code == 200
    use_session(c, None)
    assert log_in(c, "Dirce").status_code == 200
    assert post(c, f"/api/events/{event_id}/start", {}).status_code == 200
    use_session(c, None)
    assert log_in(c, "Elio").status_code == 200
    found = [n for n in c.get("/api/notices").json()["notices"] if n["kind"] == "event-table"]
    assert len(found) == 1, found
    table = found[0]["params"]["table"]
    assert found[0]["link"] == f"/t/{table}" and found[0]["params"]["event"] == "Early cup"
    assert table in c.app.state.lobby.tables  # his table of the first round, made at the start
    from barbu.web.notices.words import worded

    assert worded("event-table", found[0]["params"], "fr") == (
        "Votre table est prête",
        "Early cup\u00a0: votre table est prête, l'horloge tourne",
    )
    assert worded("event-table", found[0]["params"], "it")[0] == "Il tuo tavolo è pronto"


def test_an_open_page_hears_its_notices_live_and_only_urgent_ones_are_pushed_too(
    c: Any, push_service: PushService
) -> None:
    if getattr(c.app.state.services, "live", None) is None:
        pytest.skip("the account channel (/ws/me, barbu.web.live) is not in this tree yet")
    _, uid = account(c, "Lea")
    assert post(c, "/api/push/subscribe", Device(push_service, "lea").json).status_code == 201
    with c.websocket_connect("/ws/me", headers=ORIGIN) as page:  # a page of hers is open (the account channel)
        hello = page.receive_json()
        assert hello["type"] == "welcome", hello
        before = len(push_service.received)
        notify(c, uid, "club-invite", {"name": "Max", "club": "Le Cercle"}, "/c/le-cercle")
        heard = page.receive_json()
        assert heard["type"] == "notice" and heard["unread"] == 1
        assert heard["notice"]["kind"] == "club-invite" and heard["notice"]["params"]["club"] == "Le Cercle"
        assert push_service.received[before:] == []  # she has the page open: the bell tells her
        notify(c, uid, "challenge", {"name": "Max"}, "/x")
        assert page.receive_json()["unread"] == 2
        assert [p for p, _, _ in push_service.received[before:]] == ["/push/lea"]  # a challenge cannot wait
        assert post(c, "/api/notices/read", {"id": None}).json()["unread"] == 0
        assert page.receive_json() == {"type": "notices-read", "unread": 0}  # her other pages' bells too


def test_two_processes_share_the_key_and_a_notice_given_on_one_reaches_a_page_on_the_other(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """PostgreSQL and Redis, two processes' applications: one VAPID key for both (made once, in the database); a
    keyed notice given by both is given once; a notice given on one reaches the page open on the other."""
    from conftest import postgres_url, redis_url, reset_postgres

    db, broker = postgres_url(), redis_url()
    reset_postgres(db)
    settings = dict(db_url=db, broker_url=broker, signups_per_hour=0, **FAST)
    with client(Settings(**settings)) as one, client(Settings(**settings)) as two:  # type: ignore[arg-type]
        assert one.get("/api/push/key").json() == two.get("/api/push/key").json()
        if getattr(one.app.state.services, "live", None) is None:
            pytest.skip("the account channel (/ws/me, barbu.web.live) is not in this tree yet")
        _, uid = account(one, "Iris")
        two.cookies.set("barbu_session", one.cookies.get("barbu_session"))
        with two.websocket_connect("/ws/me", headers=ORIGIN) as page:  # her page is open on the second process
            assert page.receive_json()["type"] == "welcome"
            for app in (one, two):  # both processes see the event start soon
                app.portal.call(app.app.state.services.notices.event_soon, 7, "Cup", [uid], 15)
            heard = page.receive_json()
            assert heard["type"] == "notice" and heard["notice"]["kind"] == "event-soon" and heard["unread"] == 1
            notify(one, uid, "challenge", {"name": "Jon"}, "/x")
            assert page.receive_json()["unread"] == 2
        assert [n["kind"] for n in two.get("/api/notices").json()["notices"]] == ["challenge", "event-soon"]


def test_a_burst_of_test_notifications_stops_at_the_days_limit(c: Any, push_service: PushService) -> None:
    import asyncio

    from barbu.web.accounts.store import User
    from barbu.web.common.errors import WebError
    from barbu.web.notices.service import TESTS_PER_DAY

    _, uid = account(c, "Tess")
    assert post(c, "/api/push/subscribe", Device(push_service, "tess").json).status_code == 201
    notices = c.app.state.services.notices
    user = User(uid, "Tess", datetime.now(timezone.utc), False)

    async def burst() -> list[Any]:
        return await asyncio.gather(*(notices.test(user) for _ in range(TESTS_PER_DAY + 5)), return_exceptions=True)

    results = c.portal.call(burst)
    assert sum(1 for r in results if r == 1) == TESTS_PER_DAY
    refused = [r for r in results if isinstance(r, WebError)]
    assert len(refused) == 5 and {r.code for r in refused} == {"too-many-push-tests"}
    r = post(c, "/api/push/test", {})
    assert r.status_code == 429 and r.json()["code"] == "too-many-push-tests"
