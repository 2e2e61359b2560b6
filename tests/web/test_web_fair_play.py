"""Events, clubs and tables under the same caps, and ratings no puppet can feed (issue 42).

Each attack the issue found, sent to a real server (`barbu serve` on SQLite; two processes on PostgreSQL and
Redis for the creation cap), and what must hold against it:

- one account makes events (and clubs) in a concurrent burst: exactly the day's limit is made, per account and per
  address, on one process or two;
- one account floods the public list of events: a real club night stays on its first page;
- an event's tables with computer players count against its director's cap (and his thinking share);
- puppet accounts from the farmer's address fill a private rated table and leave at once: the farmer gains
  nothing, while a family at one address is still rated against the computer player it played;
- strangers cannot fill a listed table's last seat and start it without its creator.

Clients come from chosen addresses through ``X-Forwarded-For`` (the servers believe 127.0.0.1 as a proxy).
"""

from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from typing import Any

import httpx2 as httpx
import pytest
from conftest import redis_url
from test_web_cluster import cluster_db, processes, running  # noqa: F401  (cluster_db: a fixture)
from websockets.asyncio.client import connect

PASSWORD = "a long pass phrase for the fair tests"
PROXY = ("--forwarded-allow-ips", "127.0.0.1")
FAST = ("--bot-delay", "0", "--deal-pause", "0", "--signups-per-hour", "0", *PROXY)
SHORT = "salad(players=3, contracts_each=1)"  # the shortest match of the house: 3 deals


class Person:
    """A browser of one person: its cookies, its address (as a proxy gives it), the server's origin."""

    def __init__(self, base: str, address: str = "198.51.100.1") -> None:
        self.base, self.address = base, address
        self.c = httpx.Client(base_url=base, headers={"origin": base, "x-forwarded-for": address}, timeout=60)

    def post(self, path: str, body: Any = None) -> httpx.Response:
        return self.c.post(path, json=body if body is not None else {})

    def get(self, path: str) -> httpx.Response:
        return self.c.get(path)

    def sign_up(self, name: str) -> Person:
        r = self.post("/api/account/signup", {"name": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        return self

    def on(self, base: str) -> Person:
        """The same person (cookies, address) through another process of the server."""
        other = Person(base, self.address)
        other.c.cookies = self.c.cookies
        return other


def event_body(name: str, start: datetime | None = None, **more: Any) -> dict[str, Any]:
    body = {
        "name": name,
        "rules": "classic",
        "format": "one-match",
        "deals": 1,
        "clock": "normal",
        "strength": "random",
    }
    if start is not None:
        body["start"] = start.isoformat(timespec="seconds")
    return body | more


def burst(calls: list[Any]) -> list[httpx.Response]:
    """The calls all at once, from as many threads (at most 32)."""
    with ThreadPoolExecutor(min(32, len(calls))) as pool:
        return list(pool.map(lambda call: call(), calls))


def codes(answers: list[httpx.Response]) -> dict[Any, int]:
    out: dict[Any, int] = {}
    for r in answers:
        key = r.status_code if r.status_code < 400 else (r.status_code, r.json().get("code"))
        out[key] = out.get(key, 0) + 1
    return out


# ------------------------------------------------------------------ creation limits
def test_events_and_clubs_beyond_the_days_limit_are_refused_even_in_a_burst(serve: Any) -> None:
    server = serve(*FAST, "--events-per-day", "5", "--clubs-per-day", "4")
    ann = Person(server.base, "198.51.100.7").sign_up("Ann")
    answers = burst([lambda i=i: ann.post("/api/events", event_body(f"Ann's night {i}")) for i in range(20)])
    assert codes(answers) == {201: 5, (429, "too-many-events-today"): 15}, codes(answers)
    refused = next(r.json() for r in answers if r.status_code == 429)
    assert "you have created 5 events in the last 24 hours" in refused["error"] and "24 hours" in refused["error"]
    assert len(ann.get("/api/events").json()["upcoming"]) == 3  # and the list shows three of hers (below)

    # Another account from the same address: the address's count is full too.
    bob = Person(server.base, "198.51.100.7").sign_up("Bob")
    r = bob.post("/api/events", event_body("Bob's night"))
    assert r.status_code == 429 and r.json()["code"] == "too-many-events-from-address", r.text
    assert "from your address" in r.json()["error"]
    # Someone elsewhere is not held by them.
    cid = Person(server.base, "203.0.113.9").sign_up("Cid")
    assert cid.post("/api/events", event_body("Cid's night")).status_code == 201

    # Clubs alike: three a day per account, four per address here, in a burst too.
    answers = burst([lambda i=i: cid.post("/api/clubs", {"name": f"Cid's club {i}"}) for i in range(8)])
    assert codes(answers) == {201: 3, (429, "too-many-clubs-today"): 5}, codes(answers)
    dan = Person(server.base, "203.0.113.9").sign_up("Dan")
    assert dan.post("/api/clubs", {"name": "Dan's club"}).status_code == 201
    r = dan.post("/api/clubs", {"name": "Dan's other club"})
    assert r.status_code == 429 and r.json()["code"] == "too-many-clubs-from-address", r.text
    taken = cid.post("/api/clubs", {"name": "Dan's club"})  # a refused name counts nothing (it is checked first)
    assert taken.status_code == 409 and taken.json()["code"] == "club-name-taken", taken.text


def test_the_event_limit_holds_across_two_processes(cluster_db: str, serve: Any) -> None:  # noqa: F811
    a, b = servers = processes(serve, cluster_db, redis_url(), 2, *PROXY, "--events-per-day", "4")
    with running(servers):
        eve = Person(a.base, "198.51.100.20").sign_up("Eve")
        via = [eve, eve.on(b.base)]
        answers = burst([lambda i=i: via[i % 2].post("/api/events", event_body(f"Eve {i}")) for i in range(16)])
        assert codes(answers) == {201: 4, (429, "too-many-events-today"): 12}, codes(answers)
        fay = Person(b.base, "198.51.100.20").sign_up("Fay")
        r = fay.post("/api/events", event_body("Fay's night"))
        assert r.status_code == 429 and r.json()["code"] == "too-many-events-from-address", r.text


# ------------------------------------------------------------------ the public list
def test_one_creators_flood_never_pushes_a_real_event_out_of_the_list(serve: Any) -> None:
    server = serve(*FAST, "--events-per-day", "0")
    soon = datetime.now(timezone.utc) + timedelta(hours=1)
    club = Person(server.base, "203.0.113.40").sign_up("Gus")  # a real club night, made first
    night = club.post("/api/events", event_body("Thursday club night", soon + timedelta(days=2))).json()["event"]
    flooder = Person(server.base, "198.51.100.66").sign_up("Flood")
    answers = burst(
        [
            lambda i=i: flooder.post("/api/events", event_body(f"Flood {i}", soon + timedelta(minutes=i)))
            for i in range(210)  # more than the 200 the list once showed, the newest first
        ]
    )
    assert codes(answers) == {201: 210}

    listing = Person(server.base, "192.0.2.1").get("/api/events").json()
    names = [e["name"] for e in listing["upcoming"]]
    assert "Thursday club night" in names, names
    assert sum(1 for e in listing["upcoming"] if e["director"] == "Flood") == 3 == listing["per_director"]
    assert [e["name"] for e in listing["upcoming"]][:3] == ["Flood 0", "Flood 1", "Flood 2"]  # the soonest first
    assert listing["page"] == 0 and listing["more"] is False
    # Every one of them is still at its own address; the next page is empty; a bad page is refused in words.
    last = answers[-1].json()["event"]
    assert flooder.get(f"/api/events/{last['id']}").status_code == 200
    assert flooder.get("/api/events?page=1").json()["upcoming"] == []
    r = flooder.get("/api/events?page=-1")
    assert r.status_code == 400 and r.json()["code"] == "event-list-page", r.text
    assert night["name"] == "Thursday club night"


# ------------------------------------------------------------------ computer players of events
def test_an_events_tables_count_against_its_directors_computer_player_cap(serve: Any, tmp_path: Any) -> None:
    from barbu.web import Settings
    from barbu.web.app import create_app

    app = create_app(
        Settings(
            db_url=f"sqlite:///{tmp_path / 'web.db'}",
            bot_delay=0.0,
            deal_pause=0.0,
            bot_tables_per_address=2,
            signups_per_hour=0,
            forwarded_allow_ips=("127.0.0.1",),
        )
    )
    server = serve(app=app)
    home = "198.51.100.30"
    hal = Person(server.base, home).sign_up("Hal")
    played = []
    for _ in range(2):  # two tables against the computer: the cap of his address
        r = hal.post("/api/play", {"rules": "classic", "name": "Hal", "strength": "random"})
        assert r.status_code == 201, r.text
        played.append(r.json())
    ev = hal.post("/api/events", event_body("Hal's night")).json()["event"]
    assert hal.post(f"/api/events/{ev['id']}/register").status_code == 200
    r = hal.post(f"/api/events/{ev['id']}/start")
    assert r.status_code == 429 and r.json()["code"] == "event-computer-tables", r.text
    assert "already runs 2 of the 2 tables with computer players" in r.json()["error"]
    assert hal.get(f"/api/events/{ev['id']}").json()["status"] == "registering"  # nothing started

    first = played[0]
    r = hal.post(f"/api/tables/{first['id']}/end", {"token": first["token"], "creator": first["creator"]})
    assert r.status_code == 200, r.text
    assert hal.post(f"/api/events/{ev['id']}/start").status_code == 200
    lobby = app.state.lobby
    [event_table] = [t for t in lobby.tables.values() if t.boards is not None]
    mine = lobby.creations.address_hash(home)
    # counted against his address, and thought in one share with his own table's computer players
    assert event_table.bots_addr == mine == lobby.tables[played[1]["id"]].bots_addr
    r = hal.post("/api/play", {"rules": "classic", "name": "Hal", "strength": "random"})
    assert r.status_code == 429 and "computer" in r.json()["error"], r.text  # his event's table counts
    # Someone else's address is not held by his tables.
    ivy = Person(server.base, "203.0.113.31").sign_up("Ivy")
    assert ivy.post("/api/play", {"rules": "classic", "name": "Ivy", "strength": "random"}).status_code == 201


# ------------------------------------------------------------------ ratings
async def _play(base: str, tid: str, token: str, until: float) -> None:
    """One seat plays its first legal action at each of its turns until the match is over."""
    async with connect(f"{base.replace('http', 'ws', 1)}/ws/{tid}", origin=base) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent = None
        while time.monotonic() < until:
            msg = json.loads(await asyncio.wait_for(ws.recv(), until - time.monotonic()))
            st = msg.get("state")
            if msg.get("type") == "scores" and msg["scores"].get("over") or (st and st.get("over")):
                return
            if st and st["to_act"] == st["seat"] and st["legal"] and sent != st["version"]:
                sent = st["version"]
                await asyncio.sleep(0.07)  # under the messages a second a connection may send
                await ws.send(json.dumps({"type": "act", "action": st["legal"][0], "version": st["version"]}))
    pytest.fail("the match did not reach its end")


def played_out(who: Person, tid: str, tokens: list[str]) -> None:
    """The seats of ``tokens`` play the match to its end; then its results are stored."""

    async def all_of_them() -> None:
        until = time.monotonic() + 240
        await asyncio.gather(*(_play(who.base, tid, t, until) for t in tokens))

    asyncio.run(all_of_them())
    stop = time.monotonic() + 60
    while who.get(f"/api/tables/{tid}").json()["table"]["status"] != "over":
        assert time.monotonic() < stop
        time.sleep(0.1)


def salad_rating(who: Person, name: str, tid: str, rated: bool = False) -> dict[str, Any] | None:
    """The player's Salad rating once the match ``tid`` is on his profile (None: he has none); ``rated``: once
    the rating is there too, up to a minute (a loaded machine may show the match a moment before)."""
    stop = time.monotonic() + 60
    while True:
        profile = who.get(f"/api/players/{name}").json()
        if any(m["table"] == tid for m in profile["matches"]):
            found: dict[str, Any] | None = profile["ratings"].get("salad")
            if found is not None or not rated or time.monotonic() > stop:
                return found
        assert time.monotonic() < stop, profile
        time.sleep(0.1)


def private_rated(creator: Person, rules: str = SHORT) -> tuple[str, str, str]:
    r = creator.post("/api/tables", {"rules": rules, "rated": True, "private": True})
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["creator"], r.json()["invite"]


@pytest.mark.slow
def test_puppets_who_leave_feed_the_farmer_nothing_and_a_family_is_still_rated(serve: Any) -> None:
    server = serve(*FAST)
    farm = "198.51.100.50"
    farmer = Person(server.base, farm).sign_up("Farmer")
    tid, creator, invite = private_rated(farmer)
    tokens = [farmer.post(f"/api/tables/{tid}/seats", {"seat": 0, "creator": creator}).json()["token"]]
    puppets = []
    for seat, name in ((1, "Puppet1"), (2, "Puppet2")):
        puppet = Person(server.base, farm).sign_up(name)
        r = puppet.post(f"/api/tables/{tid}/seats", {"seat": seat, "invite": invite})
        assert r.status_code == 200, r.text
        puppets.append((puppet, r.json()["token"]))
    for puppet, token in puppets:  # the match has started: they leave at once, the stand-in plays their seats
        left = puppet.post(f"/api/tables/{tid}/leave", {"token": token})
        assert left.status_code == 200 and left.json()["outcome"] == "stand_in", left.text
    played_out(farmer, tid, tokens)
    assert salad_rating(farmer, "Farmer", tid) is None  # rated against nobody: his puppets left, from his address
    assert salad_rating(puppets[0][0], "Puppet1", tid) is None  # (a private match: on his own profile only)

    # A family at one address, with a computer player: each of them rated, against the computer player.
    home = "198.51.100.60"
    mum = Person(server.base, home).sign_up("Mum")
    tid, creator, invite = private_rated(mum)
    tokens = [mum.post(f"/api/tables/{tid}/seats", {"seat": 0, "creator": creator}).json()["token"]]
    kid = Person(server.base, home).sign_up("Kid")
    tokens.append(kid.post(f"/api/tables/{tid}/seats", {"seat": 1, "invite": invite}).json()["token"])
    r = mum.post(f"/api/tables/{tid}/bots", {"seat": 2, "strength": "random", "token": creator})
    assert r.status_code == 200, r.text
    played_out(mum, tid, tokens)
    for who, name in ((mum, "Mum"), (kid, "Kid")):
        rating = salad_rating(who, name, tid, rated=True)
        assert rating is not None and rating["matches"] == 1, (name, rating)


# ------------------------------------------------------------------ a listed table
def test_strangers_cannot_fill_a_listed_tables_last_seat_without_its_creator(serve: Any) -> None:
    server = serve(*FAST)
    host = Person(server.base, "198.51.100.80")
    made = host.post("/api/tables", {"rules": "classic"}).json()
    tid = made["id"]
    for seat in range(3):
        stranger = Person(server.base, f"203.0.113.{100 + seat}")
        r = stranger.post(f"/api/tables/{tid}/seats", {"seat": seat, "name": f"Stranger {seat}"})
        assert r.status_code == 200, r.text
    last = Person(server.base, "203.0.113.103").post(f"/api/tables/{tid}/seats", {"seat": 3, "name": "Stranger 3"})
    assert last.status_code == 409 and last.json()["code"] == "last-seat-for-creator", last.text
    assert "waits for the person who created it" in last.json()["error"]
    assert host.get(f"/api/tables/{tid}").json()["table"]["status"] == "open"  # not started without him
    # He frees a seat for a friend, and sits down himself: the match starts with them.
    assert host.post(f"/api/tables/{tid}/remove", {"seat": 2, "token": made["creator"]}).status_code == 200
    friend = Person(server.base, "192.0.2.77")
    assert friend.post(f"/api/tables/{tid}/seats", {"seat": 2, "name": "Friend"}).status_code == 200
    r = host.post(f"/api/tables/{tid}/seats", {"seat": 3, "name": "Host", "creator": made["creator"]})
    assert r.status_code == 200, r.text
    assert r.json()["table"]["status"] == "playing"


# ------------------------------------------------------------------ the events page
def test_the_events_page_lists_a_few_of_each_director_and_pages_the_rest(serve: Any, person: Any) -> None:
    from playwright.sync_api import expect
    from webhelpers import PHONE, shot

    server = serve(*FAST)
    soon = datetime.now(timezone.utc) + timedelta(hours=3)
    for d in range(18):  # 18 directors of 4 events each: 54 listed (3 each), one page of 50 and four more
        director = Person(server.base, f"198.51.100.{100 + d}").sign_up(f"Director{d}")
        for i in range(4):
            when = soon + timedelta(minutes=10 * d + i)
            assert director.post("/api/events", event_body(f"Night {d}-{i}", when)).status_code == 201
    club = Person(server.base, "203.0.113.200").sign_up("Gus")
    assert club.post("/api/events", event_body("Thursday club night", soon - timedelta(minutes=30))).status_code == 201
    for size, lang in (((1366, 768), "en-GB"), (PHONE, "en-GB"), ((1366, 768), "fr-FR"), (PHONE, "it-IT")):
        page = person(size, lang)
        page.goto(server.base + "/events")
        cards = page.locator("#upcoming .event-card")
        expect(cards).to_have_count(50)
        expect(cards.first).to_contain_text("Thursday club night")  # the soonest, whoever floods
        expect(page.locator("#per-director")).to_be_visible()
        more = page.locator("#more-upcoming")
        expect(more).to_be_visible()
        shot(page, f"events-list-{lang}")
        more.scroll_into_view_if_needed()
        shot(page, f"events-more-{lang}")
        more.click()
        expect(cards).to_have_count(55)
        expect(more).to_be_hidden()
        expect(page.locator("#upcoming")).not_to_contain_text("Night 0-3")  # a fourth of one director's: not listed
        assert page.errors == []
    expect(page.locator("#per-director")).to_contain_text("tre tornei")


def test_players_of_one_address_are_rated_against_each_other_once_established(tmp_path: Any) -> None:
    """The household rule on the server's own storage: a newcomer from the family's address (a puppet is one for
    ever) is rated against nobody there; two who each played `ESTABLISHED` rated matches with people from
    elsewhere are rated against each other."""
    from sqlalchemy import select

    from barbu.ratings import ESTABLISHED
    from barbu.web.accounts.store import RATINGS, add_user, subject_of
    from barbu.web.db.storage import Store
    from barbu.web.profiles.history import Finished, SeatResult, record

    store = Store(f"sqlite:///{tmp_path / 'web.db'}", True)
    with store.engine.begin() as conn:
        ann, ben, cat, xia = (add_user(conn, n, n.lower(), n.lower(), "-") for n in ("Ann", "Ben", "Cat", "Xia"))

    def match(table: str, *seats: tuple[int, str]) -> None:
        people = [SeatResult("human", str(uid), None, uid, False, home) for uid, home in seats]
        with store.engine.begin() as conn:
            assert record(conn, Finished(table, SHORT, "salad", [30, 20, 10][: len(people)], True, people, True))

    def matches(uid: int) -> int:
        with store.engine.connect() as conn:
            q = select(RATINGS.c.matches).where(RATINGS.c.subject == subject_of(uid), RATINGS.c.game == "salad")
            return conn.execute(q).scalar() or 0

    match("home-1", (ann, "home"), (ben, "home"), (cat, "home"))
    assert [matches(u) for u in (ann, ben, cat)] == [0, 0, 0]  # newcomers of one address: rated for nobody
    for i in range(ESTABLISHED):  # Ann and Ben each play people from elsewhere
        match(f"out-{i}", (ann, "home"), (ben, "home"), (xia, "elsewhere"))
    assert [matches(u) for u in (ann, ben, cat, xia)] == [ESTABLISHED, ESTABLISHED, 0, ESTABLISHED]
    match("home-2", (ann, "home"), (ben, "home"), (cat, "home"))
    assert [matches(u) for u in (ann, ben, cat)] == [ESTABLISHED + 1, ESTABLISHED + 1, 0]  # Cat is still new here
