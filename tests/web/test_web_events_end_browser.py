"""An event from start to end in the browser (issue 43): three registered players, in English, French and
Italian, told on the event page when the start is and then that their table is ready (pushed, never reloaded);
the table counts the event's two deals, and ends with a box that links back to the event and, once it is over,
gives the player's place.

Playwright drives Debian's chromium against a real `barbu serve`.  With BARBU_SHOTS=/some/folder, screenshots of
the event page and of the table's end at laptop and phone sizes in the three languages go there.
"""

from __future__ import annotations

import random
import re
import time
from typing import Callable

import pytest
from playwright.sync_api import Page, expect
from test_web_clubs_browser import play_one, sign_up
from webhelpers import PHONE, Server
from webhelpers import shot as take_shot

pytestmark = pytest.mark.browser
LAPTOP = (1366, 768)
SERVE = ("--bot-delay", "0", "--deal-pause", "0", "--grace", "0.5", "--signups-per-hour", "0")

#: What each language says: the note before the start, when the table is ready, the end box's title at the event's end.
WORDS = {
    "en-GB": ("keep this page open", "Your table is ready", "The event is over", "of 2"),
    "fr-FR": ("gardez cette page ouverte", "Votre table est prête", "Le tournoi est terminé", "sur 2"),
    "it-IT": ("tieni aperta questa pagina", "Il tuo tavolo è pronto", "Il torneo è finito", "di 2"),
}


def shots(page: Page, name: str) -> None:
    """The page at laptop and phone sizes (back to its own size after)."""
    own = page.viewport_size
    for size in (LAPTOP, PHONE):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        take_shot(page, name, full_page=True)
    if own is not None:
        page.set_viewport_size(own)


@pytest.mark.slow
def test_registered_players_are_called_to_their_table_which_ends_with_the_way_back(
    server: Server, person: Callable[..., Page]
) -> None:
    director = person(LAPTOP)
    players = {lang: person(size, lang) for lang, size in (("en-GB", LAPTOP), ("fr-FR", PHONE), ("it-IT", LAPTOP))}
    sign_up(director, server, "Dora")
    for (lang, page), name in zip(players.items(), ("Ann", "Béa", "Ciro")):
        sign_up(page, server, name)
    director.goto(server.base + "/events")
    made = director.evaluate(
        """async () => (await (await fetch('/api/events', {method: 'POST', headers: {'content-type': 'application/json'},
        body: JSON.stringify({name: 'Two deals', rules: 'classic', format: 'one-match', deals: 2, clock: '1+3',
        strength: 'random'})})).json())"""
    )
    url = server.base + made["event"]["url"]

    # Registered: the page says who starts the event and that the table's link comes by itself
    for lang, page in players.items():
        page.goto(url)
        page.click("#register")
        expect(page.locator("#event-status")).to_contain_text(WORDS[lang][0])
    shots(players["fr-FR"], "event-end-registered-fr")
    director.goto(url)
    director.wait_for_function("() => document.querySelectorAll('#players li').length === 3")
    director.click("#start")

    # Told, never reloaded: the table is ready, with its link
    for lang, page in players.items():
        expect(page.locator("#event-status")).to_contain_text(WORDS[lang][1])
        expect(page.locator("#go-table")).to_be_visible()
    shots(players["it-IT"], "event-end-ready-it")
    # the director's controls after the start: a missing player replaced by a computer (offered, not used here)
    expect(director.locator(".replace-player")).to_have_count(3)
    shots(director, "event-end-directing-en")

    # Ann plays at her table; the others' seats are played for them.  The counter says the event's two deals.
    ann = players["en-GB"]
    ann.click("#go-table")
    ann.wait_for_url("**/t/*")
    ann.wait_for_selector("#table[data-seat]:not([data-seat=''])")
    # (on a loaded machine her seat may have been played for her before she arrives: then the round is over)
    expect(ann.locator("#deal-counter")).to_contain_text(re.compile(r"of 2|round over"))
    assert "of 28" not in (ann.text_content("#deal-counter") or "")
    rng = random.Random(43)
    stop = time.monotonic() + 240
    while ann.get_attribute("#table", "data-phase") != "over":
        assert time.monotonic() < stop, "the event's table never finished"
        assert "of 28" not in (ann.text_content("#deal-counter") or "")
        if not play_one(ann, rng):
            ann.wait_for_timeout(100)
    # The end: the box says so and links back to the event; once the event is over, her place
    expect(ann.locator("#event-end")).to_be_visible()
    expect(ann.locator("#match-end-title")).to_have_text("The event is over", timeout=30_000)
    expect(ann.locator("#event-end-text")).to_contain_text("Your place in the final ranking")
    assert ann.get_attribute("#event-end-link", "href") == made["event"]["url"]
    assert ann.is_hidden("#rematch")
    assert "Shuffling" not in (ann.text_content("#turn") or "")
    shots(ann, "event-end-table-en")

    # Each player's table, opened after the end, ends alike in his language; the link goes to the standings
    table_url = ann.url
    for lang, page in players.items():
        if page is not ann:
            page.goto(table_url)
        expect(page.locator("#match-end-title")).to_have_text(WORDS[lang][2], timeout=30_000)
        expect(page.locator("#deal-counter")).not_to_contain_text("28")
        if page is not ann:
            shots(page, f"event-end-table-{lang[:2]}")
    bea = players["fr-FR"]
    bea.click("#event-end-link")
    bea.wait_for_url("**/e/*")
    bea.wait_for_selector("#event[data-status='over']")
    expect(bea.locator("#standings")).to_contain_text("Béa")
    shots(bea, "event-end-final-fr")
    for page in (director, *players.values()):
        assert not page.errors, page.errors  # type: ignore[attr-defined]
