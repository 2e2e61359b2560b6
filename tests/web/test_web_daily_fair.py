"""The daily deals fair to the accounts' ranking, and today's deals never leaking (issue 42).

- Today's boards open to nobody but the player who finished them (the same account or guest browser) until the day
  is over, on every path: the results, the record, the replay's link, the replay, each deal's frames, its analysis
  and double-dummy table, and an upload of the record; a logged-out visitor, a guest who has not finished, an
  account that has not played and a made-up cookie are each refused in plain words saying when it opens; the next
  day the same link opens to anyone.  For each family the daily offers (Barbu, the Scottish game, Bésigue).
- A guest is only what the server signed: a made-up or tampered ``barbu_daily`` cookie is no guest (it starts a new
  one, counted), and the new-guests-an-hour limit of an address holds exactly under a burst of made-up cookies, on
  one process and on two processes with PostgreSQL and Redis.
- New accounts are ranked apart from established ones; several finishers from one address are marked to the
  operator (`Daily.address_marks`, ``barbu daily marks``), an account that finished after a guest of that address
  noted as such, the address only as the start of its HMAC.

A real server (uvicorn on a free port: the app made here, so the test moves its day; each request's address from
its ``x-test-address`` header), spoken to over HTTP.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Any

import httpx2 as httpx
import pytest
from conftest import postgres_url, redis_url, reset_postgres
from test_web_private import addressed
from webhelpers import PHONE, AppServer
from webhelpers import shot as take_shot

from barbu.cli.main import main as barbu
from barbu.web import Settings, create_app
from barbu.web.accounts.store import USERS
from barbu.web.daily.service import COOKIE
from barbu.web.routes.daily import DAILY_GUESTS_PER_HOUR

DAYS = ["2026-11-20", "2026-11-21", "2026-11-22", "2026-11-23"]
PASSWORD = "correct horse battery"
LAPTOP = (1366, 768)
HIDDEN = "stay hidden until that day is over (midnight UTC)"


@pytest.fixture(scope="module")
def site(serve_module: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    folder = tmp_path_factory.mktemp("daily-fair")
    settings = Settings(
        db_url=f"sqlite:///{folder / 'web.db'}",
        bot_delay=0.0,
        deal_pause=0.0,
        daily_boards=1,
        signups_per_hour=0,
        analysis_samples=2,  # the finisher's replay weighs its deal: briefly
        analysis_seconds=0.01,
    )
    server = serve_module(app=addressed(create_app(settings)))
    yield server


class Browser:
    """One browser (its own cookies) at one address, speaking to the server as its page does."""

    def __init__(self, base: str, address: str) -> None:
        self.c = httpx.Client(base_url=base, headers={"origin": base, "x-test-address": address}, timeout=60)

    def get(self, path: str) -> httpx.Response:
        return self.c.get(path)

    def post(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        return self.c.post(path, json=body or {})

    def sign_up(self, name: str) -> None:
        r = self.post("/api/account/signup", {"name": name, "password": PASSWORD})
        assert r.status_code == 201, r.text

    def play(self, game: str = "classic") -> None:
        """Start the day's set and play it to its end, the first legal move each time."""
        r = self.post(f"/api/daily/{game}/start")
        assert r.status_code == 200, r.text
        body = r.json()
        while not body["finished"]:
            r = self.post(f"/api/daily/{game}/move", {"board": body["board"], "move": body["state"]["legal"][0]})
            assert r.status_code == 200, r.text
            body = r.json()


def on_day(server: AppServer, day: str) -> None:
    server.app.state.daily.today = lambda: day


def paths(game: str, rid: str) -> list[tuple[str, str]]:
    """Every path to a finished board of today's set: (method, path)."""
    return [
        ("GET", f"/api/daily/{game}/results"),
        ("GET", f"/api/daily/{game}/boards/0/record"),
        ("GET", f"/api/daily/{game}/boards/0/replay"),
        ("GET", f"/api/replays/{rid}"),
        ("GET", f"/api/replays/{rid}/deals/1"),
        ("POST", f"/api/replays/{rid}/deals/1/analysis"),
        ("POST", f"/api/replays/{rid}/deals/1/dd"),
    ]


def ask(b: Browser, method: str, path: str) -> httpx.Response:
    return b.get(path) if method == "GET" else b.post(path)


@pytest.mark.parametrize("game", ["classic", "scottish", "besigue"])
def test_todays_boards_open_to_the_finisher_alone_until_the_day_is_over(site: AppServer, game: str) -> None:
    day, net = DAYS[3], f"10.1.{['classic', 'scottish', 'besigue'].index(game)}"
    on_day(site, day)
    finisher = Browser(site.base, f"{net}.1")
    finisher.play(game)
    link = finisher.get(f"/api/daily/{game}/boards/0/replay")
    assert link.status_code == 200, link.text
    rid = link.json()["id"]
    assert link.json()["url"] == f"/replay/{rid}" and rid.startswith("daily.")
    record = finisher.get(f"/api/daily/{game}/boards/0/record")
    assert record.status_code == 200
    # the finisher sees his own board on every path but the analysis and table a Bésigue match has none of
    for method, path in paths(game, rid)[:5]:
        assert ask(finisher, method, path).status_code == 200, path
    frames = finisher.get(f"/api/replays/{rid}/deals/1").json()["frames"]
    assert all(all(hand for hand in f["hands"]) for f in frames[:1])  # every hand face up, to him
    # an upload of today's record would make a link for anyone: refused, to him too
    up = finisher.post("/api/replays", {"record": record.text})
    assert up.status_code == 403 and HIDDEN in up.json()["error"]

    stranger = Browser(site.base, f"{net}.2")  # logged out, no cookie
    started = Browser(site.base, f"{net}.3")  # a guest who began and has not finished
    assert started.post(f"/api/daily/{game}/start").status_code == 200
    account = Browser(site.base, f"{net}.4")  # an account that has not played
    account.sign_up(f"Notyet{game[:3]}")
    forger = Browser(site.base, f"{net}.5")  # the finisher's cookie, one character changed
    cookie = finisher.c.cookies[COOKIE]
    forger.c.cookies.set(COOKIE, ("A" if cookie[0] != "A" else "B") + cookie[1:])  # (its random part changed)
    for who in (stranger, started, account, forger):
        for method, path in paths(game, rid):
            r = ask(who, method, path)
            assert r.status_code in (403, 404), (path, r.status_code, r.text)
            if path.startswith("/api/replays/"):
                assert r.status_code == 403 and HIDDEN in r.json()["error"] and day in r.json()["error"], path
        assert who.post("/api/replays", {"record": record.text}).status_code == 403
    # a link made up, or another board's signature: no such replay
    assert stranger.get(f"/api/replays/{rid[:-1]}0").status_code in (403, 404)
    _, attempt, _, signature = rid.split(".")
    forged = f"daily.{attempt}.1.{signature}"  # the signature of board 0 on another board
    assert stranger.get(f"/api/replays/{forged}").status_code == 404
    assert stranger.get(f"/api/replays/daily.1.0.{'0' * 24}").status_code == 404
    for odd in ("daily.", "daily.².0.x", f"daily.{'9' * 40}.0.{signature}", f"daily.{attempt}.-1.{signature}"):
        assert stranger.get(f"/api/replays/{odd}").status_code == 404, odd

    # the next day, the same link opens to anyone, and the record may be uploaded
    on_day(site, "2026-11-24")
    try:
        for who in (stranger, started, account, forger):
            assert who.get(f"/api/replays/{rid}").status_code == 200
            assert who.get(f"/api/replays/{rid}/deals/1").status_code == 200
            assert who.get(f"/api/daily/{game}/results?day={day}").status_code == 200
        assert stranger.post("/api/replays", {"record": record.text}).status_code == 201
    finally:
        on_day(site, day)


def test_a_made_up_or_tampered_cookie_is_no_guest(site: AppServer) -> None:
    on_day(site, DAYS[3])
    real = Browser(site.base, "10.2.0.1")
    assert real.post("/api/daily/italian/start").status_code == 200
    signed = real.c.cookies[COOKIE]
    assert real.get("/api/daily/italian/state").status_code == 200  # the signed cookie is that guest
    token, signature = signed.split(".")
    other = "y" if signed[0] != "y" else "z"
    tampered = signature[:-3] + ("zzz" if not signature.endswith("zzz") else "yyy")
    for made_up in ("x" * 43, f"{token}.{tampered}", token, signed + "x", other + signed[1:]):
        b = Browser(site.base, "10.2.0.2")
        b.c.cookies.set(COOKIE, made_up)
        assert b.get("/api/daily/italian/state").status_code == 404  # not the guest it pretends to be
        r = b.post("/api/daily/italian/start")  # a new guest, with a cookie of the server's own
        assert r.status_code == 200 and r.json()["board"] == 0
        fresh = r.cookies.get(COOKIE)
        assert fresh and fresh != made_up and fresh != signed


def test_the_new_guests_limit_holds_exactly_under_a_burst(site: AppServer) -> None:
    on_day(site, DAYS[3])
    passed, refused = burst([site.base], "10.3.0.1", 40)
    assert (passed, refused) == (DAILY_GUESTS_PER_HOUR, 40 - DAILY_GUESTS_PER_HOUR)
    b = Browser(site.base, "10.3.0.1")
    r = b.post("/api/daily/classic/start")
    assert r.status_code == 429 and "new guests" in r.json()["error"]
    assert Browser(site.base, "10.3.0.2").post("/api/daily/classic/start").status_code == 200  # another address


def burst(bases: list[str], address: str, n: int) -> tuple[int, int]:
    """``n`` starts at once, each with a made-up guest cookie, spread over the servers: (passed, refused 429)."""

    async def one(client: httpx.AsyncClient, base: str, k: int) -> int:
        r = await client.post(
            f"{base}/api/daily/classic/start",
            json={},
            headers={"origin": base, "x-test-address": address, "cookie": f"{COOKIE}=madeup{k:040d}"},
        )
        return r.status_code

    async def all_at_once() -> list[int]:
        async with httpx.AsyncClient(timeout=120) as client:
            return await asyncio.gather(*(one(client, bases[k % len(bases)], k) for k in range(n)))

    codes = asyncio.run(all_at_once())
    assert set(codes) <= {200, 429}, codes
    return codes.count(200), codes.count(429)


@pytest.mark.slow
def test_the_burst_on_two_processes_with_postgresql_and_redis(serve: Any) -> None:
    db = postgres_url()
    reset_postgres(db)
    broker = redis_url()
    fast = ("--bot-delay", "0", "--daily-boards", "1", "--broker", broker)
    servers = [serve(*fast, db=db, start=False) for _ in range(2)]
    for s in servers:
        s.start()
    passed, refused = burst([s.base for s in servers], "127.0.0.1", 40)  # the processes see 127.0.0.1
    assert (passed, refused) == (DAILY_GUESTS_PER_HOUR, 40 - DAILY_GUESTS_PER_HOUR)


def age(site: AppServer, name: str, since: str) -> None:
    """The account was made on ``since`` (the test cannot wait a week)."""
    with site.app.state.daily.store.engine.begin() as conn:
        made = datetime.fromisoformat(since).replace(tzinfo=timezone.utc)
        conn.execute(USERS.update().where(USERS.c.name == name).values(created_at=made))


def test_new_accounts_are_ranked_apart_from_established_ones(site: AppServer) -> None:
    old, fresh, young = Browser(site.base, "10.4.0.1"), Browser(site.base, "10.4.0.2"), Browser(site.base, "10.4.0.3")
    old.sign_up("Oldhand")
    age(site, "Oldhand", "2026-01-01")
    young.sign_up("Fewdays")  # old enough, but too few days played
    age(site, "Fewdays", "2026-01-01")
    try:
        for day in DAYS[:3]:
            on_day(site, day)
            old.play("french")
        on_day(site, DAYS[3])
        old.play("french")
        fresh.sign_up("Brandnew")
        fresh.play("french")
        young.play("french")
        mine = old.get("/api/daily/french/results").json()
        assert mine["pool"] == "account" and mine["players"] == 1  # the new accounts are not in his list
        theirs = fresh.get("/api/daily/french/results").json()
        assert theirs["pool"] == "new" and theirs["players"] == 2
        assert {r["name"] for r in theirs["ranking"]} == {"Brandnew", "Fewdays"}
    finally:
        on_day(site, DAYS[3])


def test_several_finishers_from_one_address_are_marked(
    site: AppServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "160")  # the operator's table on one line a row
    on_day(site, DAYS[3])
    Browser(site.base, "10.5.0.1").play("salad")  # a guest
    puppet = Browser(site.base, "10.5.0.1")  # another browser at the same address, under an account
    puppet.sign_up("Puppetone")
    puppet.play("salad")
    other = Browser(site.base, "10.5.0.2")  # someone else, elsewhere
    other.sign_up("Elsewhere")
    other.play("salad")
    # the same browser that played as a guest may not play under an account
    same = Browser(site.base, "10.5.0.3")
    same.play("salad")
    same.sign_up("Guestfirst")
    r = same.post("/api/daily/salad/start")
    assert r.status_code == 409 and "guest" in r.json()["error"]

    marks = [m for m in site.app.state.daily.address_marks(DAYS[3]) if m["game"] == "salad"]
    assert len(marks) == 1
    mark = marks[0]
    assert [(f["name"], f["pool"], f["after_guest"]) for f in mark["finishers"]] == [
        ("guest", "guest", False),
        ("Puppetone", "new", True),
    ]
    assert len(mark["address"]) == 12 and "10.5" not in mark["address"]
    # the operator sees the same from the shell
    db = site.db.removeprefix("sqlite:///")
    assert barbu(["daily", "--db", db, "marks", "--date", DAYS[3]]) == 0
    out = capsys.readouterr().out
    assert "Puppetone" in out and "after a guest" in out and mark["address"] in out and "Elsewhere" not in out
    assert barbu(["daily", "--db", db, "marks", "--date", DAYS[0]]) == 0
    assert "Nobody finished" in capsys.readouterr().out


@pytest.mark.browser
def test_the_replay_page_says_when_todays_deal_opens(site: AppServer, person: Any) -> None:
    on_day(site, DAYS[3])
    page = person(LAPTOP)
    page.goto(site.base + "/daily/classic")
    # the table makes no forced move itself while the script below plays the set
    page.evaluate("localStorage.setItem('barbu:confirm-forced', '1')")
    page.click("#start")
    page.wait_for_url("**/daily/classic/play")  # the boards, on the Barbu table's own drawing
    page.wait_for_selector("#hand .card")
    page.evaluate(
        """async () => {
        const post = (p, b) => fetch(p, {method: "POST", headers: {"content-type": "application/json"},
                                          body: JSON.stringify(b)}).then((r) => r.json());
        let s = await fetch("/api/daily/classic/state").then((r) => r.json());
        while (!s.finished) s = await post("/api/daily/classic/move", {board: s.board, move: s.state.legal[0]});
    }"""
    )
    page.reload()
    page.wait_for_selector("#share:not(:empty)")
    take_shot(page, "daily-fair-results-laptop", full_page=True)
    page.click(".traveller button")
    page.wait_for_url("**/replay/daily.*")
    page.wait_for_selector("#replay:not([hidden])")
    url = page.url
    take_shot(page, "daily-fair-replay-finisher-laptop")
    for size, lang in ((LAPTOP, "en-GB"), (PHONE, "fr-FR"), (LAPTOP, "it-IT")):
        other = person(size, lang, extra_http_headers={"accept-language": lang[:2]})
        other.goto(url)
        other.wait_for_selector("#upload-error:not(:empty)")
        words = other.locator("#upload-error").text_content()
        assert DAYS[3] in words and "UTC" in words, words
        assert other.locator("#replay").is_hidden()
        take_shot(other, f"daily-fair-replay-refused-{lang}-{size[0]}", full_page=True)
        assert not other.errors, other.errors
    # a new account, on a phone in French, is ranked among the new accounts
    phone = person(PHONE, "fr-FR", extra_http_headers={"accept-language": "fr"})
    phone.goto(site.base + "/daily/classic")
    phone.evaluate(
        """async (password) => {
        const post = (p, b) => fetch(p, {method: "POST", headers: {"content-type": "application/json"},
                                          body: JSON.stringify(b)}).then((r) => r.json());
        await post("/api/account/signup", {name: "Nouvelle", password});
        let s = await post("/api/daily/classic/start", {});
        while (!s.finished) s = await post("/api/daily/classic/move", {board: s.board, move: s.state.legal[0]});
    }""",
        PASSWORD,
    )
    phone.reload()
    phone.wait_for_selector("#share:not(:empty)")
    assert "parmi les nouveaux comptes" in phone.locator("#result-rank").text_content()
    take_shot(phone, "daily-fair-results-new-account-fr", full_page=True)
    assert not phone.errors, phone.errors
    # the finisher's page asked for the deal's analysis: it ends before the test does
    page.wait_for_function(
        """async () => (await fetch(location.pathname.replace("/replay/", "/api/replays/") + "/deals/1/analysis",
            {method: "POST", headers: {"content-type": "application/json"}, body: "{}"}).then((r) => r.json()))
            .state === "done" """,
        polling=500,
    )
    assert not page.errors, page.errors
