"""Neuberg's formula on the event's page (issue 43), in a real browser against `barbu serve`: nine players at three
tables, all but Ann leave at once (the stand-in plays their seats), Ann plays her first deal and ends her table
from the lobby's API; the two other tables play both deals.  The standings say, in English, French and Italian,
that a board was not played at every table and that its matchpoints are raised to a full board's by Neuberg's
formula, and its traveller is marked.  With BARBU_SHOTS=/some/folder the page is kept as ``event-neuberg-*``.
"""

from __future__ import annotations

import random
import time
from typing import Callable

import pytest
from playwright.sync_api import Page, expect
from test_web_clubs_browser import api, play_one
from test_web_events_end_browser import shots
from test_web_names44_browser import logged_in, signed_up
from webhelpers import PHONE, Server

pytestmark = pytest.mark.browser
LAPTOP = (1366, 768)
SERVE = ("--bot-delay", "0", "--deal-pause", "0", "--grace", "1000", "--signups-per-hour", "0")
#: The standings' note and the traveller's mark in each language.
WORDS = {
    "en": ("1 board was not played at every table", "Neuberg's formula", "not played at every table", "After 1 board"),
    "fr": (
        "1 donne n'a pas été jouée à toutes les tables",
        "formule de Neuberg",
        "pas jouée à toutes les tables",
        "Après 1 donne",
    ),
    "it": (
        "1 smazzata non è stata giocata a tutti i tavoli",
        "formula di Neuberg",
        "non giocata a tutti i tavoli",
        "Dopo 1 smazzata",
    ),
}


@pytest.mark.slow
def test_the_standings_say_where_neubergs_formula_was_applied(server: Server, person: Callable[..., Page]) -> None:
    dora, ann = signed_up(server, "Dora"), signed_up(server, "Ann")
    others = {f"P{i}": signed_up(server, f"P{i}") for i in range(8)}
    status, made = api(
        server,
        "POST",
        "/api/events",
        {"name": "Short board", "rules": "classic", "format": "one-match", "deals": 2, "clock": "relaxed"},
        cookie=dora,
    )
    assert status == 201, made
    eid = made["event"]["id"]
    for cookie in (ann, *others.values()):
        assert api(server, "POST", f"/api/events/{eid}/register", {}, cookie=cookie)[0] == 200
    assert api(server, "POST", f"/api/events/{eid}/start", {}, cookie=dora)[0] == 200
    for cookie in others.values():
        assert api(server, "POST", f"/api/events/{eid}/leave", {}, cookie=cookie)[1]["done"] == "left"
    tid = api(server, "GET", f"/api/events/{eid}", cookie=ann)[1]["my_table"]["id"]

    page = logged_in(person, server, ann, LAPTOP)
    page.goto(f"{server.base}/t/{tid}")
    page.wait_for_selector("main[data-seat]:not([data-seat=''])")
    rng = random.Random(44)
    stop = time.monotonic() + 240
    while page.get_attribute("main", "data-deal") == "1":  # her first deal, then she ends her table
        assert time.monotonic() < stop, "her first deal never ended"
        if not play_one(page, rng):
            page.wait_for_timeout(100)
    status, body = api(server, "POST", f"/api/tables/{tid}/end", {}, cookie=ann)
    assert status == 200 and body["kept"] is True, body
    stop = time.monotonic() + 120
    while api(server, "GET", f"/api/events/{eid}")[1]["status"] != "over":
        assert time.monotonic() < stop, "the event never ended"
        time.sleep(0.3)
    assert api(server, "GET", f"/api/events/{eid}")[1]["adjusted"] == ["r1-d2"]
    page.context.close()

    for lang, size in (("en", LAPTOP), ("fr", PHONE), ("it", LAPTOP)):
        page = logged_in(person, server, ann, size)
        page.goto(f"{server.base}/e/{eid}?lang={lang}")
        page.wait_for_selector("#event[data-status='over']")
        note = page.locator("#standings-note")
        expect(note).to_contain_text(WORDS[lang][0])
        expect(note).to_contain_text(WORDS[lang][1])
        expect(note).to_contain_text(WORDS[lang][3])  # the other board, played at every table, counted alone
        expect(page.locator("[data-board='r1-d2'] summary")).to_contain_text(WORDS[lang][2])
        expect(page.locator("[data-board='r1-d1'] summary")).not_to_contain_text(WORDS[lang][2])
        shots(page, f"event-neuberg-{lang}")
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        page.context.close()
