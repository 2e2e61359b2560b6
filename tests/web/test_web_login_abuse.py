"""Log-in abuse (issue 42), sent to real servers: bursts of wrong passwords get exactly the limits, a stranger
cannot lock the owner out, common passwords are refused, and the hashing pool refuses beyond its queue while
other routes answer.  One process on SQLite; two processes on PostgreSQL and Redis.

Every request names its client address in X-Forwarded-For, which the servers believe from 127.0.0.1 alone.
Each burst's requests wait at a barrier and are sent at once, each on its own connection.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from http.cookies import SimpleCookie
from typing import Any

import pytest
from conftest import postgres_url, redis_url, reset_postgres

from barbu.web.accounts import devices, throttle

PASSWORD = "the owner's own long passphrase"
OWNER_ADDRESS = "198.51.100.1"
FORWARDED = ("--forwarded-allow-ips", "127.0.0.1")
# a hashing queue longer than any burst here: the log-in limits alone decide (the queue is tested on its own)
SERVE = (*FORWARDED, "--signups-per-hour", "3", "--hashing-queue", "200")


class Answer:
    def __init__(self, status: int, body: Any, cookies: dict[str, str]) -> None:
        self.status, self.body, self.cookies = status, body, cookies

    @property
    def code(self) -> str | None:
        return self.body.get("code") if isinstance(self.body, dict) else None


def call(base: str, path: str, body: Any, address: str, cookie: str | None = None) -> Answer:
    """One POST from ``address`` (a known-browser cookie sent when given), or a GET when ``body`` is None."""
    headers = {"x-forwarded-for": address}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["content-type"] = "application/json"
    if cookie is not None:
        headers["cookie"] = f"{devices.COOKIE}={cookie}"
    req = urllib.request.Request(base + path, data=data, headers=headers, method="GET" if body is None else "POST")
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            status, raw, head = r.status, r.read(), r.headers
    except urllib.error.HTTPError as e:
        status, raw, head = e.code, e.read(), e.headers
    jar = SimpleCookie()
    for line in head.get_all("set-cookie") or []:
        jar.load(line)
    return Answer(status, json.loads(raw or b"null"), {k: m.value for k, m in jar.items()})


def log_in(base: str, name: str, password: str, address: str, cookie: str | None = None) -> Answer:
    return call(base, "/api/account/login", {"name": name, "password": password}, address, cookie)


def sign_up(base: str, name: str, address: str, password: str = PASSWORD) -> Answer:
    return call(base, "/api/account/signup", {"name": name, "password": password}, address)


def burst(requests: list[tuple[Any, ...]]) -> list[Answer]:
    """``call(*r)`` for each r, all released at once from a barrier; the answers in the same order."""
    gate = threading.Barrier(len(requests))

    def one(r: tuple[Any, ...]) -> Answer:
        gate.wait()
        return call(*r)

    with ThreadPoolExecutor(len(requests)) as pool:
        return list(pool.map(one, requests))


def wrong(base: str, name: str, address: str, i: int) -> tuple[Any, ...]:
    return (base, "/api/account/login", {"name": name, "password": f"a wrong guess number {i}"}, address)


def counted(answers: list[Answer]) -> tuple[int, int]:
    """(passwords checked and found wrong, attempts told to wait); nothing else may come back."""
    checked = sum(a.status == 401 and a.code == "wrong-log-in" for a in answers)
    waiting = sum(a.status == 429 and a.code == "too-many-failed-log-ins-seconds" for a in answers)
    assert checked + waiting == len(answers), [(a.status, a.body) for a in answers if a.status not in (401, 429)]
    return checked, waiting


def owner(base: str, name: str, address: str = OWNER_ADDRESS) -> str:
    """A new account; its browser's known-browser cookie."""
    r = sign_up(base, name, address)
    assert r.status == 201, r.body
    return r.cookies[devices.COOKIE]


def attack_and_owner(bases: list[str], tag: str) -> None:
    """The attacks of issue 42, spread over ``bases`` (one server's processes): each limit exact, and the owner
    never locked out."""
    spread = lambda i: bases[i % len(bases)]  # noqa: E731
    # 30 wrong passwords at once on one name from one address: 5 are checked, the rest told to wait (in seconds)
    name = f"Targeted {tag}"
    owner(bases[0], name, f"{tag}.0.0.1")
    answers = burst([wrong(spread(i), name, f"{tag}.1.0.1", i) for i in range(30)])
    assert counted(answers) == (throttle.PAIR.free, 30 - throttle.PAIR.free)
    waits = {a.body["error"] for a in answers if a.status == 429}
    told = {"too many failed log-ins: try again in 1 second"}
    assert waits <= told | {f"too many failed log-ins: try again in {n} seconds" for n in range(2, 31)}, waits
    r = log_in(spread(1), name, PASSWORD, f"{tag}.1.0.1")  # the right password from there waits too ...
    assert r.status == 429 and r.code == "too-many-failed-log-ins-seconds", r.body
    assert log_in(spread(0), name, PASSWORD, f"{tag}.0.0.2").status == 200  # ... but not from elsewhere

    # 4 addresses at once on another name, 30 each: 5 apiece
    name = f"Besieged {tag}"
    cookie = owner(bases[0], name, f"{tag}.0.0.3")
    assert throttle.ATTACKED >= 4 * throttle.PAIR.free
    answers = burst([wrong(spread(i), name, f"{tag}.2.0.{i % 4}", i) for i in range(120)])
    assert counted(answers) == (4 * throttle.PAIR.free, 120 - 4 * throttle.PAIR.free)
    # the name is under attack now: a fifth address has 1 free attempt on it, not 5
    assert counted(burst([wrong(spread(i), name, f"{tag}.3.0.1", i) for i in range(10)])) == (1, 9)
    # a made-up known-browser cookie is a stranger's: that attacking address still waits
    forged = cookie[:-1] + ("0" if cookie[-1] != "0" else "1")
    r = log_in(spread(1), name, PASSWORD, f"{tag}.2.0.1", forged)
    assert r.status == 429, r.body
    # the owner, from his known browser at an attacking address: straight in
    r = log_in(spread(1), name, PASSWORD, f"{tag}.2.0.1", cookie)
    assert r.status == 200 and r.body["user"]["name"] == name, r.body
    # from a new browser at an address of his own, during the attack: his first try goes through
    assert log_in(spread(0), name, PASSWORD, f"{tag}.4.0.1").status == 200


def test_a_known_browser_cookie_is_signed_for_its_name_alone() -> None:
    known = devices.Devices(lambda address: "ab" * 32)
    other = devices.Devices(lambda address: "cd" * 32)  # another server's secret
    cookie = known.remember(None, "alice")
    assert known.known(cookie, "alice") and known.known(cookie, "bob") is None
    assert other.known(cookie, "alice") is None
    both = known.remember(cookie, "bob")
    assert both.split(".")[0] == cookie.split(".")[0] and known.known(both, "alice") == known.known(both, "bob")
    assert known.known("junk", "alice") is None and known.known(None, "alice") is None


def test_the_delay_doubles_up_to_its_cap_is_forgotten_after_a_day_and_a_right_password_clears_it() -> None:
    """The counts' arithmetic, at chosen moments (the servers above show it holds under concurrency)."""
    t, limits = 1_000_000.0, throttle.Throttle()
    guess = throttle.Attempt.of("victim", "ab" * 32, None)
    assert [limits._reserve(guess, t) for _ in range(6)] == [0, 0, 0, 0, 0, 30]
    waits = []
    for _ in range(8):  # each time the wait is over, one more guess, and a wait twice as long, at most 15 minutes
        t += 30 * 2 ** len(waits) if len(waits) < 5 else 900
        assert limits._reserve(guess, t) == 0
        waits.append(limits._reserve(guess, t))
    assert waits == [60, 120, 240, 480, 900, 900, 900, 900]
    t += throttle.PAIR.forget + 1  # a day of silence: the pair starts over
    assert [limits._reserve(guess, t) for _ in range(6)] == [0, 0, 0, 0, 0, 30]
    mine = throttle.Attempt.of("victim", "cd" * 32, None)
    for _ in range(4):
        assert limits._reserve(mine, t) == 0
    asyncio.run(limits.forgive(mine))  # his right password: his pair starts over
    assert [limits._reserve(mine, t) for _ in range(6)] == [0, 0, 0, 0, 0, 30]


@pytest.fixture(scope="module")
def server(serve_module: Any) -> Any:
    return serve_module(*SERVE)


def test_bursts_on_one_name_get_the_limits_exactly_and_the_owner_gets_in(server: Any) -> None:
    attack_and_owner([server.base], "10")


def test_sign_ups_from_one_address_at_once_get_the_limit_exactly(server: Any) -> None:
    answers = burst([(server.base, "/api/account/signup", {"name": f"Newcomer {i}", "password": PASSWORD},
                      "10.9.0.1") for i in range(10)])  # fmt: skip
    assert sorted(a.status for a in answers) == [201] * 3 + [429] * 7
    assert {a.code for a in answers if a.status == 429} == {"too-many-signups"}


WEAK = [
    ("12345678", "password-common", "among the most common ones"),
    ("password", "password-common", "among the most common ones"),
    (" " * 8, "password-pattern", "a repeat, a sequence or a row of keys"),
    ("azertyuiop", "password-common", "among the most common ones"),
    ("abcdefghij", "password-pattern", "a repeat, a sequence or a row of keys"),
    ("Roberto1", "password-easy", "too easy to guess"),
    ("short", "password-too-short", "at least 8 characters"),
]


def test_common_and_easy_passwords_are_refused_with_words_that_say_why_and_count_nothing(server: Any) -> None:
    for password, code, words in WEAK:
        r = sign_up(server.base, "Weak Walter", "10.8.0.1", password)
        assert r.status == 400 and r.code == code and words in r.body["error"], (password, r.body)
    # the address's sign-ups are all still there: refused passwords counted none
    assert [sign_up(server.base, f"Strong Walter {i}", "10.8.0.1").status for i in range(4)] == [201, 201, 201, 429]


def test_the_french_words_for_a_common_password_and_a_wait(server: Any) -> None:
    req = urllib.request.Request(
        server.base + "/api/account/signup",
        data=json.dumps({"name": "Pierre", "password": "motdepasse"}).encode(),
        headers={"content-type": "application/json", "accept-language": "fr", "x-forwarded-for": "10.7.0.1"},
    )
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req, timeout=60)
    assert "l'un des plus courants" in json.loads(e.value.read())["error"]


def test_the_hashing_pool_refuses_beyond_its_queue_and_other_routes_answer(serve: Any) -> None:
    """One hashing thread and one place in its queue: of 16 sign-ups at once most are refused (429, "busy"),
    none fails otherwise, and a profile read sent at the same moment is answered before the last sign-up is."""
    with serve(*FORWARDED, "--signups-per-hour", "0", "--hashing-threads", "1", "--hashing-queue", "1") as s:
        assert sign_up(s.base, "Profile Paula", "10.6.0.1").status == 201
        done: list[str] = []
        lock = threading.Lock()

        def signing(i: int) -> Answer:
            a = call(s.base, "/api/account/signup", {"name": f"Hasty {i}", "password": PASSWORD}, f"10.6.1.{i}")
            with lock:
                done.append(f"signup {a.status}")
            return a

        def reading() -> None:
            for _ in range(3):
                a = call(s.base, "/api/players/Profile%20Paula", None, "10.6.2.1")
                assert a.status == 200, a.body
            with lock:
                done.append("profile")

        gate = threading.Barrier(17)

        def at_once(job: Any) -> Any:
            gate.wait()
            return job()

        with ThreadPoolExecutor(17) as pool:
            answers = [pool.submit(at_once, lambda i=i: signing(i)) for i in range(16)]
            profile = pool.submit(at_once, reading)
            results = [a.result() for a in answers]
            profile.result()
        statuses = sorted(a.status for a in results)
        assert set(statuses) == {201, 429}, statuses
        assert {a.code for a in results if a.status == 429} == {"log-ins-busy"}
        last_made = max(i for i, d in enumerate(done) if d == "signup 201")
        assert done.index("profile") < last_made, done
        assert "Traceback" not in s.log()


@pytest.mark.slow
def test_two_processes_on_postgresql_and_redis_hold_the_same_limits(serve: Any) -> None:
    db, broker = postgres_url(), redis_url()
    reset_postgres(db)
    servers = [serve(*SERVE, "--broker", broker, db=db, start=False) for _ in range(2)]
    for s in servers:
        s.start()
    bases = [s.base for s in servers]
    attack_and_owner(bases, "20")
    answers = burst([(bases[i % 2], "/api/account/signup", {"name": f"Cluster newcomer {i}", "password": PASSWORD},
                      "20.9.0.1") for i in range(10)])  # fmt: skip
    assert sorted(a.status for a in answers) == [201] * 3 + [429] * 7
    for s in servers:
        assert "Traceback" not in s.log()


@pytest.mark.parametrize(
    "size, lang, refused, wait",
    [
        ("laptop", "en-GB", "among the most common ones", "try again in (30|29) seconds"),
        ("phone", "fr-FR", "l'un des plus courants", "réessayez dans (30|29) secondes"),
    ],
)
def test_the_page_says_why_a_password_is_refused_and_how_long_to_wait(
    server: Any, person: Any, size: str, lang: str, refused: str, wait: str
) -> None:
    """The account page as a player sees it: a common password refused in his language, then, after five wrong
    log-ins from his own browser, the wait in seconds.  BARBU_SHOTS keeps screenshots of both."""
    from playwright.sync_api import expect
    from webhelpers import PHONE, shot

    page = person((1366, 768) if size == "laptop" else PHONE, lang, touch=size == "phone")
    name = f"Page Pat {size}"
    page.goto(server.base + "/account")
    page.fill("#signup-name", name)
    page.fill("#signup-password", "12345678")
    page.click("#signup-button")
    expect(page.locator("#signup-error")).to_contain_text(refused)
    shot(page, f"login-common-password-{lang}")
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-button")
    expect(page.locator("#member-view")).to_be_visible()
    page.click("#logout")
    expect(page.locator("#guest-view")).to_be_visible()
    for i in range(throttle.DEVICE.free + 1):
        page.fill("#login-name", name)
        page.fill("#login-password", f"not my passphrase {i}")
        page.click("#login-button")
        page.wait_for_function("() => !document.querySelector('#login-button').disabled")
        expect(page.locator("#login-error")).not_to_be_empty()
    expect(page.locator("#login-error")).to_contain_text(re.compile(wait))  # a second may pass under load
    shot(page, f"login-wait-{lang}")
    assert page.errors == []
