"""The daily deals in the browser: a guest finds them from the lobby, plays a short set (one deal, ``barbu serve
--daily-boards 1``) to its end by clicking, sees his rank and the line to share; a second guest on a phone plays the
same deal and is ranked against the first; neither may play twice.  The deals are played on the Barbu table's own
drawing (/daily/{game}/play), the start and the results on /daily/{game}.

Playwright drives Debian's chromium against a real `barbu serve`.  With BARBU_SHOTS=/some/folder, screenshots
(laptop 1280x800, phone 390x844, in English, French and Italian) go there.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest
from playwright.sync_api import Page
from webhelpers import LAPTOP, PHONE, STEP, Server
from webhelpers import shot as take_shot

from barbu.duplicate.daily import GAMES

pytestmark = pytest.mark.browser
SERVE = ("--daily-boards", "1")


def shot(page: Any, name: str) -> None:
    take_shot(page, f"daily-{name}", full_page=True)


def play_to_the_end(page: Any, label: str) -> None:
    """On the game's own table (/daily/{game}/play), click the first possible move (a card or a decision's
    button), and "Next deal" between deals, until the results show on /daily/{game}."""
    page.wait_for_url("**/play")
    page.wait_for_selector("main#table[data-version]:not([data-version=''])")
    shot(page, f"{label}-board")
    reloaded = False
    for i in range(400):
        if "/play" not in page.url:
            break
        if i == 6:
            shot(page, f"{label}-playing")
        if page.locator("#daily-next:not([hidden])").count():
            assert page.locator("#deal-end").is_visible()  # the deal's summary, drawn by the Barbu table
            shot(page, f"{label}-end")
            page.click("#daily-next")
            continue
        move = page.locator("#hand .card.legal, #decision button[data-action]:not([data-action=''])")
        if not move.count():  # a forced move made for the player, or the answer still on its way
            page.wait_for_timeout(50)
            continue
        if i >= 3 and not reloaded:  # a reload carries on where the player was, with a decision waiting for him
            reloaded = True
            before = page.locator("main").get_attribute("data-version")
            page.reload()
            page.wait_for_selector(f"main[data-version='{before}']")
            continue
        version = page.locator("main").get_attribute("data-version")
        move.first.click()
        page.wait_for_function(
            "(v) => !location.pathname.endsWith('/play') || document.querySelector('main').dataset.version !== v "
            "|| !document.querySelector('#daily-next').hidden || !document.querySelector('#error').hidden",
            arg=version,
            timeout=STEP,
        )
        if "/play" in page.url:
            assert page.locator("#error").is_hidden(), page.locator("#error").text_content()
    page.wait_for_selector("#daily-play[data-state='results']")
    assert reloaded


@pytest.mark.slow
def test_a_guest_plays_the_daily_deals_and_sees_his_rank(person: Callable[..., Page], server: Server) -> None:
    page = person(LAPTOP)
    page.goto(server.base + "/")
    page.click("#daily-link")
    page.wait_for_selector("#daily[data-loaded='1']")
    assert page.locator(".daily-game").count() == len(GAMES)
    shot(page, "overview-laptop")
    page.click(".daily-game[data-game='classic'] a")
    page.wait_for_selector("#start-panel:not([hidden])")
    page.click("#start")
    play_to_the_end(page, "laptop")
    page.wait_for_selector("#share:not(:empty)")
    assert "Rank 1 of 1" in page.locator("#result-rank").text_content()
    assert page.locator("#share").text_content().startswith("Barbu daily ")
    shot(page, "results-laptop-alone")
    # his own deal's replay and analysis
    page.click(".traveller button")
    page.wait_for_url("**/replay/*")
    page.wait_for_load_state()
    # a second attempt from the same browser is refused: the page shows the results again
    page.goto(server.base + "/daily/classic")
    page.wait_for_selector("#daily-play[data-state='results']")
    page.goto(server.base + "/daily")
    page.wait_for_selector(".daily-game[data-game='classic'][data-status='finished']")
    assert not page.errors, page.errors

    # another guest on a phone, in French: the same deal, then ranked with the first
    phone = person(PHONE, "fr-FR", extra_http_headers={"accept-language": "fr"})
    phone.goto(server.base + "/daily")
    phone.wait_for_selector("#daily[data-loaded='1']")
    shot(phone, "overview-phone-fr")
    phone.click(".daily-game[data-game='classic'] a")
    phone.wait_for_selector("#start-panel:not([hidden])")
    shot(phone, "start-phone-fr")
    phone.click("#start")
    play_to_the_end(phone, "phone-fr")
    phone.wait_for_selector("#share:not(:empty)")
    assert " 2" in phone.locator("#result-rank").text_content()
    # the line to share in the reader's language, its squares as the server gave them (issue 43, finding 9)
    assert phone.locator("#share").text_content().startswith("Barbu du jour ")
    assert phone.locator(".traveller tbody tr").count() == 2
    shot(phone, "results-phone-fr")
    assert not phone.errors, phone.errors

    # an Italian laptop sees the page in Italian
    it = person(LAPTOP, "it-IT", extra_http_headers={"accept-language": "it"})
    it.goto(server.base + "/daily")
    it.wait_for_selector("#daily[data-loaded='1']")
    shot(it, "overview-laptop-it")
    it.goto(server.base + "/daily/italian")
    it.click("#start")
    it.wait_for_url("**/daily/italian/play")
    it.wait_for_selector("#hand .card")
    shot(it, "board-laptop-it")
    assert not it.errors, it.errors
