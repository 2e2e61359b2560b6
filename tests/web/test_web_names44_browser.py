"""One name for each computer player on every page of the web (issue 43): its place from the reader's chair and
its strength in the reader's language ("East, random", "Est, hasard"), never "seat N", "computer (random)" or
an engine's name; a match stored with the older name of a web table's computer ("Computer, seat 3") reads the
same.  Pages: a player's profile, a club's past matches, a finished table seen by a spectator, its replay, an
event's travellers, a Bésigue table's opponent.

Playwright drives Debian's chromium against a real `barbu serve`.  With BARBU_SHOTS=/some/folder the pages are
kept as ``names44-*``.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from typing import Callable

import pytest
from playwright.sync_api import Page
from test_web_clubs_browser import api
from webhelpers import LAPTOP, PHONE, Server, shot

from barbu.core.game import CHANCE
from barbu.games import open_game
from barbu.i18n import translator
from barbu.web.accounts.service import fold
from barbu.web.accounts.store import user_by_key
from barbu.web.clubs import store as clubstore
from barbu.web.db.storage import SeatRecord, Store
from barbu.web.profiles.history import SeatResult, finished_of, record

pytestmark = pytest.mark.browser
# a replay's analysis weighs its deal briefly: it holds the shared server's interpreter while it runs, and the
# next test's requests wait for it (a 10 s request timed out behind the default 60 samples a decision)
SERVE = (
    "--bot-delay",
    "0",
    "--deal-pause",
    "0",
    "--grace",
    "0.5",
    "--signups-per-hour",
    "0",
    "--analysis-samples",
    "4",
)
PASSWORD = "correct horse battery"
SHORT = "salad(players=3)"
LANGS = ("en", "fr", "it")
#: What no page may show a person: a seat's number, a strength in brackets, an engine's name or the old stored name.
FORBIDDEN = re.compile(
    r"\b(?:seat|si[eè]ge|place|posto)\s+\d|\((?:random|rule|search|computer|hasard|casuale)\)|\brule\b|\bsearch\b"
    r"|computer \(|ordinateur \(|Computer, seat",
    re.IGNORECASE,
)


def words(lang: str, place: str, strength: str) -> str:
    """A computer player's name as the page should say it: "East, random" in the reader's language."""
    w = translator(lang, "web")
    return w.gettext("{place}, {strength}").format(place=w.gettext(place), strength=w.gettext(strength))


def clean(text: str) -> None:
    found = FORBIDDEN.findall(text)
    assert not found, (found, text)


def signed_up(server: Server, name: str) -> str:
    """A new account's session cookie."""
    req = urllib.request.Request(
        server.base + "/api/account/signup",
        data=json.dumps({"name": name, "password": PASSWORD}).encode(),
        method="POST",
        headers={"origin": server.base, "content-type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        cookie = r.headers.get_all("set-cookie")
    return next(c.split(";")[0].split("=", 1)[1] for c in cookie if c.startswith("barbu_session="))


def stored_match(server: Server, slug: str, people: list[str], seed: int) -> str:
    """A finished club match of Salad for three (two accounts and a computer player stored under the web tables'
    older name, "Computer, seat 3"), written as the server writes a finished table."""
    store = Store(server.db, run_migrations=False)
    game = open_game(SHORT, seed)
    events = []
    while not game.is_over:
        actor = game.to_act()
        action = game.sample_chance() if actor == CHANCE else game.legal_actions()[0]
        game.apply(action)
        events.append((actor, str(action)))
    tid = f"names{seed}"
    with store.engine.begin() as conn:
        ids = [user_by_key(conn, fold(name))[0].id for name in people]
        club = clubstore.club_by_slug(conn, slug)
        Store.create_table(conn, tid, SHORT, seed, rated=False, club_id=club.id)
        seats = [SeatRecord(i, name, "human", user_id=uid) for i, (name, uid) in enumerate(zip(people, ids))]
        seats.append(SeatRecord(2, "Computer, seat 3", "bot", "random"))
        for seat in seats:
            Store.set_seat(conn, tid, seat)
        Store.append_events(conn, [(tid, seq, actor, text, None) for seq, (actor, text) in enumerate(events)])
        Store.set_status(conn, tid, "over")
        record(
            conn,
            finished_of(tid, game, [SeatResult(s.kind, s.name, s.strength, s.user_id, False) for s in seats], False),
        )
    store.close()
    return tid


def logged_in(person: Callable[..., Page], server: Server, cookie: str, size: tuple[int, int]) -> Page:
    page = person(size)
    host = server.base.split("//", 1)[1].split(":")[0]
    page.context.add_cookies([{"name": "barbu_session", "value": cookie, "domain": host, "path": "/"}])
    return page


def test_profile_club_table_and_replay_name_the_computer_by_place_and_strength(
    server: Server, person: Callable[..., Page]
) -> None:
    hostess, amico = signed_up(server, "Hostess"), signed_up(server, "Amico")
    status, made = api(server, "POST", "/api/clubs", {"name": "Names Club", "public": True}, cookie=hostess)
    assert status == 201, made
    slug = made["club"]["slug"]
    tid = stored_match(server, slug, ["Hostess", "Amico"], 21)
    for lang, size in zip(LANGS, (LAPTOP, PHONE, LAPTOP)):
        east = words(lang, "East", "random")  # seat 2 of three, seen from Hostess's chair (seat 0)
        page = logged_in(person, server, hostess, size)
        page.goto(f"{server.base}/u/Hostess?lang={lang}")
        row = page.locator(f"[data-match='{tid}']")
        row.wait_for()
        assert east in row.inner_text(), row.inner_text()
        clean(page.inner_text("body"))
        shot(page, f"names44-profile-{lang}")
        page.goto(f"{server.base}/c/{slug}?lang={lang}")
        page.wait_for_selector("#club[data-loaded='1']")
        page.wait_for_selector(".seat-chip")
        chips = page.locator(".seat-chip").all_inner_texts()
        assert any(east in c for c in chips), chips
        clean(page.inner_text("body"))
        shot(page, f"names44-club-{lang}")
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        page.context.close()
    # Amico's profile sees the same computer from his own chair (seat 1): it sits on his left, West
    page = logged_in(person, server, amico, LAPTOP)
    page.goto(f"{server.base}/u/Amico?lang=fr")
    page.locator(f"[data-match='{tid}']").wait_for()
    assert words("fr", "West", "random") in page.locator(f"[data-match='{tid}']").inner_text()
    clean(page.inner_text("body"))
    # at the finished table, his account's seat: the computer on his left
    page.goto(f"{server.base}/t/{tid}?lang=fr")
    page.wait_for_function("(w) => document.body.innerText.includes(w)", arg=words("fr", "West", "random"))
    clean(page.inner_text("body"))
    page.context.close()
    # A spectator (no account) at the finished table and its replay: the table from the first seat's chair
    page = person(LAPTOP)
    for lang in ("en", "it"):
        page.goto(f"{server.base}/t/{tid}?lang={lang}")
        page.wait_for_selector(".seat-name")
        page.wait_for_function("() => document.body.innerText.includes('Hostess')")
        text = page.inner_text("body")
        assert words(lang, "East", "random") in text, text
        clean(text)
        shot(page, f"names44-table-{lang}")
        page.goto(f"{server.base}/t/{tid}/replay?lang={lang}")
        page.wait_for_selector("#replay:not([hidden])")
        clean(page.inner_text("#replay"))
    assert not page.errors, page.errors  # type: ignore[attr-defined]


def test_a_besigue_tables_opponent_is_north_and_its_strength(server: Server, person: Callable[..., Page]) -> None:
    status, made = api(server, "POST", "/api/play", {"rules": "besigue", "strength": "rule"})
    assert status == 201, made
    for lang in ("en", "fr"):
        page = person(LAPTOP)
        seat = json.dumps({"token": made["token"], "seat": made["seat"], "name": "Bea"})
        page.context.add_init_script(f"localStorage.setItem('barbu:seat:{made['id']}', {json.dumps(seat)});")
        page.goto(f"{server.base}/t/{made['id']}?lang={lang}")
        north = words(lang, "North", "good player")
        page.wait_for_function("(w) => document.body.innerText.includes(w)", arg=north)
        clean(page.inner_text("body"))
        shot(page, f"names44-besigue-{lang}")
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        page.context.close()


@pytest.mark.slow
def test_an_events_travellers_head_the_seats_by_place_and_name_the_computers(
    server: Server, person: Callable[..., Page]
) -> None:
    director, player = signed_up(server, "Direttore"), signed_up(server, "Giocatrice")
    status, made = api(
        server,
        "POST",
        "/api/events",
        {"name": "Names", "rules": "classic", "format": "one-match", "deals": 1, "clock": "1+3", "strength": "random"},
        cookie=director,
    )
    assert status == 201, made
    eid = made["event"]["id"]
    assert api(server, "POST", f"/api/events/{eid}/register", {}, cookie=player)[0] == 200
    assert api(server, "POST", f"/api/events/{eid}/start", {}, cookie=director)[0] == 200
    deadline = time.monotonic() + 120  # nobody comes to the table: the stand-in plays its one deal
    while api(server, "GET", f"/api/events/{eid}")[1]["status"] != "over":
        assert time.monotonic() < deadline, "the event never ended"
        time.sleep(0.5)
    for lang, size in zip(LANGS, (LAPTOP, PHONE, LAPTOP)):
        page = logged_in(person, server, player, size)
        page.goto(f"{server.base}{made['event']['url']}?lang={lang}")
        page.wait_for_selector("#travellers .traveller")
        w = translator(lang, "web")
        heads = page.locator("#travellers thead th.num").all_inner_texts()
        assert heads == [w.gettext(p) for p in ("South", "West", "North", "East")], heads
        cells = page.locator("#travellers tbody .seat-name").all_inner_texts()
        places = ("South", "West", "North", "East")
        assert cells.count("Giocatrice") == 1, cells
        assert all(c == words(lang, places[i], "random") for i, c in enumerate(cells) if c != "Giocatrice"), cells
        clean(page.inner_text("body"))
        shot(page, f"names44-event-{lang}")
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        page.context.close()
