"""The director pauses and resumes a running event in the browser (issue 43), in English, French and Italian at
laptop and phone sizes: his controls on the event's page once it runs; every player's event page and table say
"Paused by the director" and why as soon as it happens (pushed, never reloaded), the player's decision and hand
out of reach meanwhile (the server's refusal of a move is tested in test_web_event_pause.py); resumed, the notices
go and the table goes on.

Playwright drives Debian's chromium against a real `barbu serve`.  With BARBU_SHOTS=/some/folder the pages are
kept as ``event-pause-*``.
"""

from __future__ import annotations

from typing import Callable

import pytest
from playwright.sync_api import Page, expect
from test_web_clubs_browser import sign_up
from test_web_events_end_browser import shots
from webhelpers import PHONE, Server

pytestmark = pytest.mark.browser
LAPTOP = (1366, 768)
SERVE = ("--bot-delay", "0", "--deal-pause", "0", "--grace", "1000", "--signups-per-hour", "0")

#: What each language says of the pause on the event's page and at the table, and the status tag.
PAUSED = {
    "en-GB": ("Paused by the director", "The table goes on when the director resumes the event", "paused"),
    "fr-FR": ("Suspendu par l'organisateur", "La table reprend quand l'organisateur reprend le tournoi", "suspendu"),
    "it-IT": ("Sospeso dal direttore", "Il tavolo riprende quando il direttore riprende il torneo", "sospeso"),
}


@pytest.mark.slow
def test_the_director_pauses_and_resumes_and_every_page_says_so_at_once(
    server: Server, person: Callable[..., Page]
) -> None:
    director = person(LAPTOP, "fr-FR")
    players = {lang: person(size, lang) for lang, size in (("en-GB", LAPTOP), ("fr-FR", PHONE), ("it-IT", PHONE))}
    sign_up(director, server, "Dirk")
    for (lang, page), name in zip(players.items(), ("Ann", "Béa", "Ciro")):
        sign_up(page, server, name)
    director.goto(server.base + "/events")
    # the form's note beside the number of deals: a short event may end with no card played
    expect(director.locator("#event-deals-note")).to_contain_text("sans qu'une carte soit jouée")
    made = director.evaluate(
        """async () => (await (await fetch('/api/events', {method: 'POST', headers: {'content-type': 'application/json'},
        body: JSON.stringify({name: 'A pause', rules: 'classic', format: 'one-match', deals: 2, clock: 'relaxed',
        strength: 'random'})})).json())"""
    )
    url = server.base + made["event"]["url"]
    for page in players.values():
        page.goto(url)
        page.click("#register")
        expect(page.locator("#withdraw")).to_be_visible()
    director.goto(url)
    expect(director.locator("#pause-box")).to_be_hidden()  # before the start: nothing to pause
    director.wait_for_function("() => document.querySelectorAll('#players li').length === 3")
    director.click("#start")
    expect(director.locator("#pause")).to_be_visible()
    expect(director.locator("#resume")).to_be_hidden()
    shots(director, "event-pause-directing-fr")

    # The players at their tables, the event's page open beside in the others
    tables = {}
    for lang, page in players.items():
        expect(page.locator("#go-table")).to_be_visible()
        tables[lang] = page.get_attribute("#go-table", "href")
    ann = players["en-GB"]
    ann.goto(server.base + tables["en-GB"])
    ann.wait_for_selector("main[data-seat]:not([data-seat=''])")
    expect(ann.locator("#event-paused")).to_be_hidden()

    # Paused, with a word on why: pushed to the table and to the event's pages
    director.fill("#pause-reason", "a fire drill")
    director.click("#pause")
    expect(director.locator("#resume")).to_be_visible()
    expect(director.locator("#event-status")).to_contain_text(PAUSED["fr-FR"][0])
    expect(ann.locator("#event-paused")).to_contain_text(PAUSED["en-GB"][0])
    expect(ann.locator("#event-paused")).to_contain_text("a fire drill")
    expect(ann.locator("#event-paused")).to_contain_text(PAUSED["en-GB"][1])
    assert ann.evaluate("() => document.getElementById('hand').inert && document.getElementById('decision').inert")
    shots(ann, "event-pause-table-en")
    for lang in ("fr-FR", "it-IT"):
        page = players[lang]
        expect(page.locator("#event-status")).to_contain_text(PAUSED[lang][0])
        expect(page.locator("#event-status")).to_contain_text("a fire drill")
        expect(page.locator("#event-facts")).to_contain_text(PAUSED[lang][2])
    shots(players["it-IT"], "event-pause-event-it")
    bea = players["fr-FR"]
    bea.goto(server.base + tables["fr-FR"])  # a table opened while paused says so too
    expect(bea.locator("#event-paused")).to_contain_text(PAUSED["fr-FR"][1])
    shots(bea, "event-pause-table-fr")
    shots(director, "event-pause-paused-fr")

    # Resumed: the notices go, the pause button is back
    director.click("#resume")
    expect(director.locator("#pause")).to_be_visible()
    expect(ann.locator("#event-paused")).to_be_hidden()
    expect(bea.locator("#event-paused")).to_be_hidden()
    assert not ann.evaluate("() => document.getElementById('hand').inert")
    expect(players["it-IT"].locator("#event-status")).not_to_contain_text(PAUSED["it-IT"][0])
    for page in (director, *players.values()):
        assert not page.errors, page.errors  # type: ignore[attr-defined]
