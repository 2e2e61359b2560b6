"""A duplicate event in the browser: a director and three players, each in a browser context of his own, run a
short event to its end.  The director creates it from the events page and starts it; the players register from
its page and go to their table; one leaves midway (the stand-in plays his seat, his results marked), one sits at
the table and never moves (the clock plays for him), one plays every decision himself.  At the end every page
shows the final ranking, the board's traveller and the published key.

Playwright drives Debian's chromium against a real `barbu serve`.  With BARBU_SHOTS=/some/folder, screenshots at
laptop and phone sizes go there.
"""

from __future__ import annotations

import random
import time
from typing import Callable

import pytest
from playwright.sync_api import Page, expect
from test_web_clubs_browser import play_one, sign_up
from webhelpers import LAPTOP, PHONE, Server
from webhelpers import shot as take_shot

pytestmark = pytest.mark.browser
SERVE = ("--bot-delay", "0", "--deal-pause", "0", "--grace", "1000", "--signups-per-hour", "0")


def shot(page: Page, name: str) -> None:
    take_shot(page, name, full_page=True)


@pytest.mark.slow
def test_a_director_and_three_players_run_an_event_to_its_end(server: Server, person: Callable[..., Page]) -> None:
    director = person(LAPTOP)
    ann = person(LAPTOP)
    bob = person(PHONE)
    cy = person(PHONE)
    for page, name in ((director, "Dora"), (ann, "Ann"), (bob, "Bob"), (cy, "Cy")):
        sign_up(page, server, name)

    # The director fills the form; the pace is a short clock ("1+3": a second a move, three in the bank).
    director.goto(server.base + "/events")
    director.wait_for_selector("#event-form:not([hidden])")
    director.wait_for_selector("#event-strength option", state="attached")
    director.fill("#event-name", "Evening duplicate")
    director.fill("#event-deals", "2")  # two deals: Bob has at least two decisions, each in its own deal
    director.eval_on_selector("#event-clock", "s => { s.append(new Option('1+3', '1+3')); s.value = '1+3'; }")
    director.select_option("#event-strength", "random")
    director.click("#event-create")
    director.wait_for_url("**/e/*")
    url = director.url
    director.wait_for_selector("#start:not([hidden])")

    for page in (ann, bob, cy):
        page.goto(url)
        page.click("#register")
        page.wait_for_selector("#withdraw:not([hidden])")
    shot(bob, "event-registered")
    director.reload()
    director.wait_for_function("() => document.querySelectorAll('#players li').length === 3")
    director.click("#start")
    director.wait_for_function("() => document.querySelector('#event').dataset.status === 'running'")

    for page in (ann, bob, cy):
        page.reload()
        page.wait_for_selector("#go-table:not([hidden])")
    shot(bob, "event-running")
    # Cy leaves midway: the stand-in plays his seat to the end of the round.
    cy.click("#leave")
    cy.wait_for_selector("#leave", state="hidden")
    assert "left this event" in cy.inner_text("#event-status")

    # Bob sits at his table and never moves: the clock plays for him.  Ann plays every decision herself.
    bob.click("#go-table")
    bob.wait_for_url("**/t/*")
    ann.click("#go-table")
    ann.wait_for_url("**/t/*")
    assert ann.url == bob.url  # three players, four seats: one table
    ann.wait_for_selector("#table[data-seat]:not([data-seat=''])")
    rng = random.Random(5)
    stop = time.monotonic() + 240
    while ann.get_attribute("#table", "data-status") != "over":
        assert time.monotonic() < stop, "the event's table never finished"
        if not play_one(ann, rng):
            ann.wait_for_timeout(100)
    # Bob never chose a card, and the table finished: his clock ran out and the computer played for him.  (He is
    # "away" unless his page played a forced card by itself at the end, which counts as acting again: under load
    # that order varies, so his spent bank is the sure sign.)
    bob_seat = int(bob.get_attribute("#table", "data-seat") or -1)
    tid = bob.url.rstrip("/").split("/")[-1]
    info = bob.request.get(f"{server.base}/api/tables/{tid}").json()["table"]
    assert bob_seat in info["clock"]["away"] or info["clock"]["banks"][bob_seat] == 0, info["clock"]
    shot(ann, "event-table-over")

    # The event is over (the watcher moves it on within a few seconds): the final ranking, the traveller, the key.
    for page in (director, ann, bob, cy):
        page.goto(url)
        page.wait_for_function("() => document.querySelector('#event').dataset.status === 'over'", timeout=30_000)
        page.wait_for_selector("#key-panel:not([hidden])")
        names = page.inner_text("#standings")
        assert "Ann" in names and "Bob" in names and "Cy" in names
        assert page.locator(".traveller").count() == 2
        assert not page.errors, page.errors
    marked = cy.inner_text("#standings")
    assert "stand-in" in marked  # Cy's board was played by the stand-in, and says so
    shot(director, "event-final")
    shot(cy, "event-final")


@pytest.mark.slow
def test_a_directors_mistakes_are_worded_beside_the_forms_in_french(
    server: Server, person: Callable[..., Page]
) -> None:
    """Every refusal of the create and edit forms shows beside the form, in the reader's language; the director
    then changes his event and cancels it (on a phone, in French)."""
    page = person(PHONE, "fr-FR")
    sign_up(page, server, "Zoé")
    page.goto(server.base + "/events")
    page.wait_for_selector("#event-form:not([hidden])")
    page.wait_for_selector("#event-strength option", state="attached")
    page.click("#event-create")  # no name
    page.wait_for_selector("#event-error:not(:empty)")
    assert "choisissez un nom" in page.text_content("#event-error")
    page.fill("#event-name", "Soirée du jeudi")
    page.fill("#event-rounds", "3")  # one match in three rounds
    page.click("#event-create")
    expect(page.locator("#event-error")).to_contain_text("3")
    assert "tour" in page.text_content("#event-error")
    shot(page, "event-create-refused-fr")
    # Bésigue: one match is not offered, rounds are
    page.select_option("#event-game", "besigue")
    assert page.eval_on_selector("#event-format option[value='one-match']", "o => o.disabled")
    assert page.input_value("#event-format") == "rounds"
    page.select_option("#event-game", "classic")
    page.select_option("#event-format", "one-match")
    page.fill("#event-rounds", "1")
    page.fill("#event-deals", "1")
    page.click("#event-create")
    page.wait_for_url("**/e/*")
    page.wait_for_selector("#direct-panel:not([hidden])")
    expect(page.locator("#edit-name")).to_have_value("Soirée du jeudi")  # filled once the event is read
    page.fill("#edit-start", "2020-01-01T20:00")  # in the past
    page.click("#edit-save")
    page.wait_for_selector("#edit-error:not(:empty)")
    assert "passée" in page.text_content("#edit-error")
    shot(page, "event-edit-refused-fr")
    page.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})
    shot(page, "event-edit-refused-fr")
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    page.fill("#edit-start", "")
    page.fill("#edit-name", "Soirée du vendredi")
    page.click("#edit-save")
    page.wait_for_selector("#edit-done:not([hidden])")
    expect(page.locator("#event-title")).to_have_text("Soirée du vendredi")
    page.once("dialog", lambda d: d.accept())
    page.click("#cancel-event")
    page.wait_for_selector("#event[data-status='cancelled']")
    assert page.is_hidden("#direct-panel")
    assert "annulé" in page.text_content("#event-status")
    shot(page, "event-cancelled-fr")
    assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.slow
def test_a_players_page_follows_the_directors_changes_and_the_standings_without_reloading(
    server: Server, person: Callable[..., Page]
) -> None:
    """The director changes the game, the format and the pace from his form (in Italian, on a laptop); the
    registered player's page (in French, on a phone), never reloaded, shows the new game with the change marked;
    then the start puts "go to your table" on it, and the standings come in as soon as the deal is scored."""
    director = person(LAPTOP, "it-IT")
    eve = person(PHONE, "fr-FR")
    sign_up(director, server, "Dario")
    sign_up(eve, server, "Eve")
    director.goto(server.base + "/events")
    director.wait_for_selector("#event-form:not([hidden])")
    director.wait_for_selector("#event-strength option", state="attached")
    director.fill("#event-name", "Serata al circolo")
    director.fill("#event-deals", "1")
    director.select_option("#event-strength", "random")
    director.click("#event-create")
    director.wait_for_url("**/e/*")
    url = director.url
    eve.goto(url)
    eve.click("#register")
    eve.wait_for_selector("#withdraw:not([hidden])")
    expect(eve.locator("#live-tag")).to_have_text("en direct")
    assert eve.is_hidden("#event-changed")
    loads = []
    eve.on("request", lambda r: loads.append(r.url) if r.url.endswith(f"/api/events/{url.rsplit('/', 1)[1]}") else None)

    # the director's form holds the event as it is; he makes it a Salad for three, one table, quick
    director.wait_for_selector("#direct-panel:not([hidden])")
    director.wait_for_function("() => document.querySelector('#edit-game').options.length > 0")
    assert director.input_value("#edit-game") == "classic" and director.input_value("#edit-deals") == "1"
    director.fill("#edit-tables", "1")
    director.select_option("#edit-game", "salad")
    director.select_option("#edit-players", "3")
    director.select_option("#edit-clock", "quick")
    director.click("#edit-save")
    director.wait_for_selector("#edit-done:not([hidden])")
    assert director.text_content("#edit-done") == "Salvato."
    expect(director.locator("#event-details")).to_contain_text("Insalata")
    # a mistake: fewer places than players registered... here two tables of three would do; one match in 3 rounds
    director.fill("#edit-rounds", "3")
    director.click("#edit-save")
    expect(director.locator("#edit-error")).to_contain_text("3")
    director.click("#edit-reset")
    assert director.input_value("#edit-rounds") == "1" and director.text_content("#edit-error") == ""

    # Eve's page, never reloaded, shows it: the game and the pace marked as changed since she registered
    expect(eve.locator("#event-changed")).to_contain_text("le jeu")
    expect(eve.locator("#event-details dd.changed").first).to_contain_text("Salade")
    assert eve.locator("#event-details dt.changed").count() == 3  # the game, the tables, the pace
    shot(eve, "event-changed-fr")

    # the start: her table appears on her page; she leaves, the stand-in plays, and the standings come in
    director.click("#start")
    director.wait_for_selector("#event[data-status='running']")
    eve.wait_for_selector("#go-table:not([hidden])")
    eve.once("dialog", lambda d: d.accept())
    eve.click("#leave")
    eve.wait_for_selector("#standings table", timeout=60_000)
    eve.wait_for_selector("#event[data-status='over']", timeout=60_000)
    expect(eve.locator("#standings")).to_contain_text("Eve")
    assert not eve.is_visible("#live-tag")  # over: nothing more to follow
    shot(eve, "event-pushed-over-fr")
    # the page read its data again on the notices alone (its slow reading runs only while the push is down)
    assert loads and not eve.errors and not director.errors, (loads, eve.errors, director.errors)
