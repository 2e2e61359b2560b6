"""E-mail only to addresses that asked for it (issue 42): a real `barbu serve` and a real local SMTP sink.

- Nothing but its confirmation link goes to an address before it is confirmed; the link works once, lapses,
  and a changed address is unconfirmed again.
- The day's budgets hold against concurrent requests: per account and per recipient, on one process
  (SQLite) and on two processes sharing PostgreSQL and Redis.
- Turn reminders are batched: three turn-based tables against computer players, played by an account
  that leaves after each move, give one mail listing the three tables, not one a turn.
- Every mail has an unsubscribe link and the RFC 8058 headers; the one-click POST works with no log-in.
- "Forgot your password" answers alike for names and addresses that exist or not, writes only to confirmed
  addresses, and its link works once.
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import secrets
import socket
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any, Callable

import pytest
from aiosmtpd.controller import Controller
from conftest import postgres_url, redis_url, reset_postgres
from playwright.sync_api import expect
from sqlalchemy import update
from test_web_turns import Sink
from webhelpers import PHONE, Server, shot
from websockets.sync.client import connect as ws_connect
from websockets.typing import Origin

from barbu.web.accounts.email import CONFIRMATIONS
from barbu.web.db.mailbudget import REMINDERS
from barbu.web.db.storage import Store

PASSWORD = "violet hedgehog canal"
SHORT = "salad(players=3)"
QUIET = (
    *("--bot-delay", "0", "--deal-pause", "0", "--signups-per-hour", "0", "--tables-per-hour", "0"),
    *("--bot-tables-per-address", "0", "--open-tables-per-address", "0"),
)


def wait_for(check: Callable[[], Any], limit: float = 60) -> Any:
    stop = time.monotonic() + limit
    while not (found := check()):
        assert time.monotonic() < stop, "it did not happen"
        time.sleep(0.05)
    return found


def mails(sink: Sink, to: str | None = None, kind: str | None = None) -> list[EmailMessage]:
    """What the sink was sent (to ``to``, of ``kind``: confirm, reset, turns), parsed."""
    found = []
    for envelope in list(sink.messages):
        msg = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        if to is not None and envelope.rcpt_tos != [to]:
            continue
        if kind is not None and KINDS[kind] not in body(msg):
            continue
        found.append(msg)
    return found


KINDS = {"confirm": "/account/confirm#key=", "reset": "/account/reset#key=", "turns": "/t/"}  # in any language


def body(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    assert part is not None
    return str(part.get_content())  # type: ignore[attr-defined]


def key_in(msg: EmailMessage, page: str) -> str:
    found = re.search(rf"/account/{page}#key=([A-Za-z0-9_-]+)", body(msg))
    assert found, body(msg)
    return found.group(1)


@pytest.fixture
def smtp() -> Any:
    """A local SMTP server that keeps what it is sent (aiosmtpd, never a real mail service): (sink, port)."""
    sink = Sink()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield sink, controller.port
    finally:
        controller.stop()


class Answer:
    def __init__(self, status: int, text: str) -> None:
        self.status_code, self.text = status, text

    def json(self) -> Any:
        return json.loads(self.text)


def send(opener: Any, method: str, url: str, data: bytes | None, headers: dict[str, str]) -> Answer:
    req = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:  # a generous limit: a busy machine may take long, and the tests never assert on timing
        with opener.open(req, timeout=60) as r:
            return Answer(r.status, r.read().decode())
    except urllib.error.HTTPError as e:
        return Answer(e.code, e.read().decode())


class Visitor:
    """A browser of its own (its cookies) on a server."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def post(self, path: str, data: dict[str, Any] | None = None) -> Answer:
        headers = {"origin": self.base, "content-type": "application/json"}
        return send(self.opener, "POST", self.base + path, json.dumps(data or {}).encode(), headers)

    def get(self, path: str) -> Answer:
        return send(self.opener, "GET", self.base + path, None, {})

    def me(self) -> dict[str, Any]:
        user: dict[str, Any] = self.get("/api/account").json()["user"]
        return user


def one_click(url: str) -> Answer:
    """A mail program's one-click unsubscribe (RFC 8058): a POST with no cookie and no Origin."""
    headers = {"content-type": "application/x-www-form-urlencoded"}
    return send(urllib.request.build_opener(), "POST", url, b"List-Unsubscribe=One-Click", headers)


def member(base: str, name: str | None = None) -> Visitor:
    v = Visitor(base)
    r = v.post("/api/account/signup", {"name": name or f"p{secrets.token_hex(4)}", "password": PASSWORD})
    assert r.status_code == 201, r.text
    return v


def confirmed(v: Visitor, sink: Sink, address: str, notify: bool = True) -> None:
    """Give the account ``address`` and open the link it is sent."""
    before = len(mails(sink, address, "confirm"))
    r = v.post("/api/account/notify", {"email": address, "notify": notify})
    assert r.status_code == 200 and r.json()["sent"] and not r.json()["confirmed"], r.text
    link = wait_for(lambda: mails(sink, address, "confirm")[before:])[0]
    assert Visitor(v.base).post("/api/mail/confirm", {"key": key_in(link, "confirm")}).status_code == 200
    assert v.me()["confirmed"] is True


SLOWER = ("--bot-delay", "0.3")  # the computers' moves after the player has left, most times


def smtp_options(port: int, *more: str) -> tuple[str, ...]:
    return ("--smtp", f"127.0.0.1:{port}", *QUIET, *more)


# ------------------------------------------------------------------ confirmation
def test_nothing_goes_to_an_unconfirmed_address_and_its_link_works_once(serve: Any, smtp: Any, tmp_path: Any) -> None:
    sink, port = smtp
    db = f"sqlite:///{tmp_path / 'web.db'}"
    server = serve(*smtp_options(port, "--public-url", "http://cards.test", "--reminder-wait", "0", *SLOWER), db=db)
    bob = member(server.base, "Bob")
    r = bob.post("/api/account/notify", {"email": "bob@example.org", "notify": True})
    assert r.status_code == 200 and r.json()["sent"] is True and r.json()["confirmed"] is False
    state = bob.me()
    assert state["email"] == "bob@example.org" and not state["confirmed"] and state["confirmation_sent"]
    link = wait_for(lambda: mails(sink, "bob@example.org"))[0]
    assert len(sink.messages) == 1  # the confirmation alone
    unsubscribe = re.fullmatch(r"<(http://cards\.test/mail/unsubscribe/[^>]+)>", str(link["List-Unsubscribe"]))
    assert unsubscribe and link["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert unsubscribe.group(1) in body(link)
    key = key_in(link, "confirm")

    # Until the link is opened, a reminder that falls due is dropped: nothing else goes to the address.
    user_id = bob_id(db, "Bob")
    store = Store(db, run_migrations=False)
    try:
        table = new_turn_based_table(server, bob)
        moves_until(server, [table], lambda: reminder_of(store, user_id) == (None, None))  # claimed and dropped
        stop = time.monotonic() + 30  # the table is his turn again once the computers after him have moved
        while waiting(bob) != {table[0]} and time.monotonic() < stop:
            time.sleep(0.1)
        assert waiting(bob) == {table[0]} and len(sink.messages) == 1

        stranger = Visitor(server.base)
        assert stranger.post("/api/mail/confirm", {"key": key[:-2] + "xx"}).json()["code"] == "confirm-link-gone"
        r = stranger.post("/api/mail/confirm", {"key": key})  # the link works with no log-in ...
        assert r.status_code == 200 and r.json() == {"name": "Bob", "email": "bob@example.org"}
        again = stranger.post("/api/mail/confirm", {"key": key})  # ... once
        assert again.status_code == 410 and again.json()["code"] == "confirm-link-gone"
        assert bob.me()["confirmed"] is True

        # A changed address is unconfirmed again, and its link lapses after CONFIRM_HOURS.
        r = bob.post("/api/account/notify", {"email": "robert@example.org", "notify": True})
        assert r.json()["confirmed"] is False and r.json()["sent"] is True
        late = wait_for(lambda: mails(sink, "robert@example.org"))[0]
        with store.engine.begin() as conn:
            conn.execute(update(CONFIRMATIONS).values(expires_at=datetime.now(timezone.utc) - timedelta(seconds=1)))
        assert bob.me()["confirmation_sent"] is None  # the page no longer says a link waits
        r = stranger.post("/api/mail/confirm", {"key": key_in(late, "confirm")})
        assert r.status_code == 410 and bob.me()["confirmed"] is False
        assert r.json()["code"] == "confirm-link-gone"
        assert bob.post("/api/mail/confirm-again").status_code == 200  # a new link, and the lapsed rows swept
        with store.engine.connect() as conn:
            rows = conn.execute(CONFIRMATIONS.select()).all()
        assert len(rows) == 1 and rows[0].expires_at.replace(tzinfo=timezone.utc) > datetime.now(timezone.utc)
    finally:
        store.close()


def bob_id(db: str, name: str) -> int:
    from barbu.web.accounts import store as accounts

    store = Store(db, run_migrations=False)
    try:
        with store.engine.connect() as conn:
            found = accounts.user_by_key(conn, name.lower())
        assert found is not None
        return found[0].id
    finally:
        store.close()


def due(store: Store, user_id: int) -> bool:
    """Whether a reminder is due for the account (noted, not yet sent)."""
    found = reminder_of(store, user_id)
    return found is not None and found[0] is not None


def reminder_of(store: Store, user_id: int) -> tuple[Any, Any] | None:
    with store.engine.connect() as conn:
        r = conn.execute(REMINDERS.select().where(REMINDERS.c.user_id == user_id)).first()
    return None if r is None else (r.due_since, r.sent_at)


# ------------------------------------------------------------------ turn-based tables
def new_turn_based_table(server: Server, v: Visitor) -> tuple[str, str]:
    """A turn-based table where ``v``'s account sits at seat 0 against two computer players: (id, his token)."""
    made = v.post("/api/tables", {"rules": SHORT, "turn_based": True, "clock": "1h+0h"})
    assert made.status_code == 201, made.text
    tid, creator = made.json()["id"], made.json()["creator"]
    seat = v.post(f"/api/tables/{tid}/seats", {"seat": 0})
    assert seat.status_code == 200, seat.text
    for n in (1, 2):
        r = v.post(f"/api/tables/{tid}/bots", {"seat": n, "strength": "random", "token": creator})
        assert r.status_code == 200, r.text
    return tid, seat.json()["token"]


def play_once_and_leave(server: Server, tid: str, token: str) -> None:
    """Connect, play one move when it is the seat's turn, see it taken, and leave: the computers then play
    and the table waits for him while he is away."""
    with ws_connect(f"{server.ws_base}/ws/{tid}", origin=Origin(server.base)) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        acted = None
        stop = time.monotonic() + 60
        while time.monotonic() < stop:
            try:
                msg = json.loads(ws.recv(timeout=1))
            except TimeoutError:
                ws.send(json.dumps({"type": "sync"}))
                continue
            st = msg.get("state")
            if not st:
                continue
            if acted is not None and st["version"] > acted:
                return
            if acted is None and st["to_act"] == st["seat"] and st["legal"]:
                acted = st["version"]
                ws.send(json.dumps({"type": "act", "action": st["legal"][0], "version": acted}))
        raise AssertionError("the table never came to this seat")


def waiting(v: Visitor) -> set[str]:
    return {t["id"] for t in v.get("/api/account/turns").json()["tables"]}


def moves_until(server: Server, tables: list[tuple[str, str]], done: Callable[[], Any], least: int = 1) -> None:
    """Play once and leave at each table in turn, ``least`` moves at least, until ``done()`` holds.  A turn finds
    the player away only if his leaving came before the computers' moves: another move gives it another chance."""
    for n in range(1, 41):
        play_once_and_leave(server, *tables[n % len(tables)])
        if n >= least:
            stop = time.monotonic() + 5  # the turn is noted off the table's actor: a moment later
            while time.monotonic() < stop:
                if done():
                    return
                time.sleep(0.05)
    raise AssertionError("it did not happen")


def test_three_turn_based_tables_give_one_reminder_not_one_a_turn(serve: Any, smtp: Any, tmp_path: Any) -> None:
    """The attack of issue 42 (90 mails in 30 s): an account plays one move at each of three turn-based tables
    against computers and leaves, again and again.  A reminder waits (--reminder-wait), then one mail lists
    the tables waiting, and the next is no sooner than --reminder-every."""
    sink, port = smtp
    db = f"sqlite:///{tmp_path / 'web.db'}"
    server = serve(*smtp_options(port, "--reminder-wait", "60", "--reminder-every", "6", *SLOWER), db=db)
    bob = member(server.base, "Bobby")
    confirmed(bob, sink, "bobby@example.org")
    user_id = bob_id(db, "Bobby")
    tables = [new_turn_based_table(server, bob) for _ in range(3)]
    store = Store(db, run_migrations=False)
    try:
        moves_until(server, tables, lambda: due(store, user_id), least=9)  # nine turns or more, him away
        wait_for(lambda: waiting(bob) == {tid for tid, _ in tables})
        assert mails(sink, kind="turns") == []  # within its wait: nothing yet
        with store.engine.begin() as conn:  # an hour passes
            conn.execute(update(REMINDERS).values(due_since=datetime.now(timezone.utc) - timedelta(hours=1)))
        moves_until(server, tables, lambda: mails(sink, kind="turns"))  # the next turn noted wakes it, now due
        reminder = mails(sink, kind="turns")[0]
        text = body(reminder)
        for tid, _ in tables:
            assert f"/t/{tid}" in text
        assert reminder["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        moves_until(server, tables, lambda: due(store, user_id), least=6)  # more turns, within --reminder-every
        assert len(mails(sink, kind="turns")) == 1
        assert len(sink.messages) == 2  # the confirmation, and one reminder for 3 tables and 15 turns or more

        # One click in the mail program: no cookie, no Origin, RFC 8058's body.
        link = re.fullmatch(r"<(.+)>", str(reminder["List-Unsubscribe"]))
        assert link is not None
        assert link.group(1).startswith(server.base + "/mail/unsubscribe/")
        r = one_click(link.group(1))
        assert r.status_code == 200 and "reminders of your turn are turned off" in r.text and "Bobby" in r.text
        assert bob.me()["notify_turns"] is False and bob.me()["confirmed"] is True
        forged = one_click(f"{server.base}/mail/unsubscribe/{user_id}.turns.{'0' * 32}")
        assert forged.status_code == 404 and "nothing was changed" in forged.text
    finally:
        store.close()


# ------------------------------------------------------------------ budgets
def test_the_days_budgets_hold_against_concurrent_requests(serve: Any, smtp: Any) -> None:
    sink, port = smtp
    server = serve(*smtp_options(port, "--mails-per-address", "2"))
    # One account asks for its confirmation link 20 times at once: 2 mails a day to one address.
    alice = member(server.base)
    assert alice.post("/api/account/notify", {"email": "alice@example.org", "notify": False}).json()["sent"]
    with ThreadPoolExecutor(20) as pool:
        answers = list(pool.map(lambda _: alice.post("/api/mail/confirm-again").status_code, range(20)))
    assert answers.count(200) == 1 and answers.count(429) == 19, answers
    assert alice.post("/api/mail/confirm-again").json()["code"] == "mail-budget-spent"
    wait_for(lambda: len(mails(sink, "alice@example.org")) == 2)

    # One account gives ten addresses at once: 3 confirmations a day per account.
    bert = member(server.base)
    with ThreadPoolExecutor(10) as pool:
        said = list(
            pool.map(
                lambda i: bert.post("/api/account/notify", {"email": f"b{i}@example.org", "notify": True}), range(10)
            )
        )
    assert all(r.status_code == 200 for r in said) and sum(r.json()["sent"] for r in said) == 3
    wait_for(lambda: len([m for m in mails(sink) if str(m["To"]).startswith("b")]) == 3)

    # Ten accounts give one stranger's address at once: 2 mails reach it in the day, never more.
    people = [member(server.base) for _ in range(10)]
    with ThreadPoolExecutor(10) as pool:
        said = list(
            pool.map(lambda v: v.post("/api/account/notify", {"email": "victim@example.org", "notify": True}), people)
        )
    assert all(r.status_code == 200 for r in said)
    assert sum(r.json()["sent"] for r in said) == 2
    wait_for(lambda: len(mails(sink, "victim@example.org")) == 2)
    refused = people[0].post("/api/mail/confirm-again")
    assert refused.status_code == 429 and "tomorrow" in refused.json()["error"]
    assert len(mails(sink, "victim@example.org")) == 2
    assert len(sink.messages) == 7
    assert "victim@example.org" not in server.log()  # the log never names an address


@pytest.mark.slow
def test_the_budget_holds_across_two_processes_on_postgresql_and_redis(serve: Any, smtp: Any) -> None:
    sink, port = smtp
    db = postgres_url()
    reset_postgres(db)
    options = smtp_options(port, "--mails-per-address", "2", "--broker", redis_url(), "--lease", "2")
    servers = [serve(*options, db=db, start=False) for _ in range(2)]
    for s in servers:
        s.start()
    people = [member(servers[i % 2].base) for i in range(12)]
    with ThreadPoolExecutor(12) as pool:
        said = list(
            pool.map(lambda v: v.post("/api/account/notify", {"email": "target@example.org", "notify": True}), people)
        )
    assert all(r.status_code == 200 for r in said), [r.text for r in said]
    assert sum(r.json()["sent"] for r in said) == 2
    wait_for(lambda: len(mails(sink, "target@example.org")) == 2)
    with ThreadPoolExecutor(12) as pool:  # and again, each asking for another link: none goes
        again = list(pool.map(lambda v: v.post("/api/mail/confirm-again").status_code, people))
    assert set(again) == {429}, again
    assert len(mails(sink, "target@example.org")) == 2


# ------------------------------------------------------------------ forgot your password
def test_forgot_password_answers_alike_and_its_link_works_once(serve: Any, smtp: Any) -> None:
    sink, port = smtp
    server = serve(*smtp_options(port))
    carol = member(server.base, "Carol")
    confirmed(carol, sink, "carol@example.org", notify=False)
    dave = member(server.base, "Dave")  # an address never confirmed: nothing goes to it
    dave.post("/api/account/notify", {"email": "dave@example.org", "notify": False})
    wait_for(lambda: mails(sink, "dave@example.org"))
    guest = Visitor(server.base)
    answers = {
        who: guest.post("/api/mail/forgot", {"who": who})
        for who in ("Carol", "nobody-here", "no@example.org", "Dave", "dave@example.org")
    }
    assert {(r.status_code, r.text) for r in answers.values()} == {(200, '{"ok":true}')}
    reset = wait_for(lambda: mails(sink, "carol@example.org", "reset"))[0]
    assert reset["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    key = key_in(reset, "reset")
    r = guest.post("/api/account/reset", {"key": key, "password": "a new password here"})
    assert r.status_code == 200 and r.json()["user"]["name"] == "Carol"
    assert guest.post("/api/account/reset", {"key": key, "password": "yet another one"}).status_code == 410
    login = Visitor(server.base).post("/api/account/login", {"name": "Carol", "password": "a new password here"})
    assert login.status_code == 200

    # By address too; 12 requests at once for one recipient: the day's 3 resets (one went already).
    with ThreadPoolExecutor(12) as pool:
        same = list(
            pool.map(lambda _: guest.post("/api/mail/forgot", {"who": "Carol@Example.org"}).status_code, range(12))
        )
    assert set(same) == {200}
    wait_for(lambda: len(mails(sink, "carol@example.org", "reset")) == 3)
    assert mails(sink, "dave@example.org", "reset") == [] and mails(sink, "no@example.org") == []
    # One address asking beyond the day's requests is refused, whatever it names.
    more = [guest.post("/api/mail/forgot", {"who": f"x{i}"}) for i in range(6)]
    assert more[-1].status_code == 429 and more[-1].json()["code"] == "too-many-password-requests"
    assert len(mails(sink, "carol@example.org", "reset")) == 3


# ------------------------------------------------------------------ in the browser
@pytest.mark.browser
@pytest.mark.parametrize("size, lang", [((1366, 768), "en-GB"), (PHONE, "it-IT")], ids=["laptop", "phone-it"])
def test_the_account_page_says_where_the_address_stands(
    serve: Any, smtp: Any, person: Callable[..., Any], size: Any, lang: str
) -> None:
    """A player gives his address and reads that it waits for its link, opens the link, and reads that it is
    confirmed; a visitor who forgot his password is told the same whatever he types; the unsubscribe page
    asks, then says what it turned off."""
    sink, port = smtp
    server = serve(*smtp_options(port))
    name = f"m{secrets.token_hex(3)}"
    address = f"{name}@example.org"
    page = person(size, lang)
    page.goto(server.base + "/account")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-button")
    expect(page.locator("#mail-panel")).to_be_visible()
    page.fill("#mail-address", address)
    page.check("#mail-notify")
    page.click("#mail-button")
    expect(page.locator("#mail-state")).to_have_class(re.compile("waiting"))
    expect(page.locator("#mail-state-text")).to_contain_text(address)
    expect(page.locator("#mail-again")).to_be_visible()
    page.locator("#mail-panel").scroll_into_view_if_needed()
    shot(page, f"mail-waiting-{lang}")
    link = wait_for(lambda: mails(sink, address, "confirm"))[0]
    page.goto(f"{server.base}/account/confirm#key={key_in(link, 'confirm')}")
    page.click("#confirm-button")
    expect(page.locator("#confirm-done")).to_contain_text(address)
    shot(page, f"mail-confirmed-{lang}")
    page.goto(server.base + "/account")
    expect(page.locator("#mail-state")).not_to_have_class(re.compile("waiting"))
    expect(page.locator("#mail-again")).to_be_hidden()
    page.locator("#mail-panel").scroll_into_view_if_needed()
    shot(page, f"mail-confirmed-account-{lang}")

    guest = person(size, lang)
    guest.goto(server.base + "/account")
    guest.click("#forgot-start")
    said = []
    for who in (name, "nobody-at-all"):
        guest.fill("#forgot-who", who)
        guest.click("#forgot-button")
        expect(guest.locator("#forgot-done")).not_to_be_empty()
        said.append(guest.locator("#forgot-done").inner_text())
        guest.evaluate("document.getElementById('forgot-done').textContent = ''")
    assert said[0] == said[1]
    guest.fill("#forgot-who", name)
    guest.click("#forgot-button")
    guest.locator("#forgot-form").scroll_into_view_if_needed()
    shot(guest, f"mail-forgot-{lang}")
    reset = wait_for(lambda: mails(sink, address, "reset"))[0]
    unsubscribe = re.fullmatch(r"<(.+)>", str(reset["List-Unsubscribe"]))
    assert unsubscribe is not None
    guest.goto(unsubscribe.group(1))
    expect(guest.locator("#unsubscribe-button")).to_be_visible()
    shot(guest, f"mail-unsubscribe-ask-{lang}")
    guest.click("#unsubscribe-button")
    expect(guest.locator("#unsubscribe-state")).to_contain_text(address)
    shot(guest, f"mail-unsubscribe-done-{lang}")
    page.goto(server.base + "/account")
    expect(page.locator("#mail-address")).to_have_value("")
    assert page.errors == [] and guest.errors == []
