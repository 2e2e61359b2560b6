"""The Scottish game's and Bésigue's daily deals in the browser, played to the end by clicking, each on its game's own
table: the Scottish game's on the Barbu table's drawing (table.js), Bésigue's on the Bésigue table's (besigue.js),
both fed over HTTP by daily_link.js; then the results.  Playwright drives Debian's chromium against a real
`barbu serve`; with BARBU_SHOTS=/some/folder, screenshots (laptop 1366x768, phone 390x844) go there.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest
from playwright.sync_api import Page
from test_web_daily_browser import play_to_the_end
from webhelpers import PHONE, STEP, Server
from webhelpers import shot as take_shot

pytestmark = pytest.mark.browser
SERVE = ("--daily-boards", "2")
LAPTOP = (1366, 768)


def shot(page: Any, name: str) -> None:
    take_shot(page, f"daily-{name}")


@pytest.mark.slow
def test_the_scottish_daily_deals_in_the_browser(person: Callable[..., Page], server: Server) -> None:
    page = person(PHONE, "it-IT", extra_http_headers={"accept-language": "it"})
    page.goto(server.base + "/daily/scottish")
    page.wait_for_selector("#start-panel:not([hidden])")
    page.click("#start")
    page.wait_for_url("**/daily/scottish/play")
    page.wait_for_selector("#hand .card")
    assert "Assi" in page.locator("#daily-role").text_content()  # deal 1: Aces, in Italian
    assert page.locator("#felt #seat-boxes .seat-box").count() == 4  # the Barbu table's own felt
    shot(page, "scottish-board-phone-it")
    play_to_the_end(page, "scottish-phone-it")
    page.wait_for_selector("#share:not(:empty)")
    assert page.locator(".traveller").count() == 2
    assert (
        page.locator(".traveller").first.locator("thead th").count() == 3
    )  # player, score, matchpoints: the game has no doubles
    shot(page, "scottish-results-phone-it")
    assert not page.errors, page.errors


@pytest.mark.slow
def test_the_besigue_daily_deals_on_the_besigue_table(person: Callable[..., Page], server: Server) -> None:
    page = person(LAPTOP, "fr-FR", extra_http_headers={"accept-language": "fr"})
    page.goto(server.base + "/daily/besigue")
    page.wait_for_selector("#start-panel:not([hidden])")
    assert (
        "Bésigue" in page.locator("#start-what").text_content()
        or "bésigue" in page.locator("#start-what").text_content()
    )
    page.click("#start")
    page.wait_for_url("**/daily/besigue/play")
    page.wait_for_selector("#bz-hand .card")
    assert "Donne 1 sur 2" in page.locator("#daily-board").text_content()
    assert page.locator("#help-tools").is_hidden() and page.locator("#invite").is_hidden()
    shot(page, "besigue-board-laptop-fr")
    # a reload carries on where the player was
    page.reload()
    page.wait_for_selector("#bz-hand .card")
    ends = 0
    for _ in range(400):
        if "/play" not in page.url:
            break
        if page.locator("#daily-next:not([hidden])").count():
            ends += 1
            assert page.locator("#deal-end").is_visible()  # the deal's end, drawn by the Bésigue table
            shot(page, f"besigue-end{ends}-laptop-fr")
            page.click("#daily-next")
            continue
        move = page.locator(
            "#bz-decision button.bz-declare, #bz-hand .card.legal, #laid-bottom .card.legal, #bz-decision button"
        )
        if not move.count():
            page.wait_for_timeout(50)
            continue
        version = page.locator("main").get_attribute("data-version")
        move.first.click()
        page.wait_for_function(
            "(v) => document.querySelector('main').dataset.version !== v "
            "|| !document.querySelector('#daily-next').hidden || !location.pathname.endsWith('/play')",
            arg=version,
            timeout=STEP,
        )
    page.wait_for_url("**/daily/besigue")
    page.wait_for_selector("#share:not(:empty)")
    assert ends == 2 and page.locator(".traveller").count() == 2
    assert "–" in page.locator(".traveller tbody td").nth(1).text_content()  # the deal's points, the player's first
    shot(page, "besigue-results-laptop-fr")
    assert not page.errors, page.errors
