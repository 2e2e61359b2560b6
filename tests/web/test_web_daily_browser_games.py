"""The Scottish game's and Bésigue's daily deals in the browser, played to the end by clicking: the Scottish Patience
rows on the daily page, Bésigue's boards on the Bésigue table's own drawing (besigue.js fed over HTTP), then the
results.  Playwright drives Debian's chromium against a real `barbu serve`; screenshots (laptop 1366x768, phone
390x844) go to BARBU_SHOTS_DAILY (default /tmp/shots/daily/), outside the repository.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator

import pytest

import barbu
from playwright.sync_api import Browser

from webhelpers import Server, watched_page

SHOTS = Path(os.environ.get("BARBU_SHOTS_DAILY", "/tmp/shots/daily"))
LAPTOP, PHONE = (1366, 768), (390, 844)
STEP = 20_000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    d = tmp_path_factory.mktemp("daily-games")
    src = str(Path(barbu.__file__).resolve().parents[1])
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = src + (os.pathsep + old if old else "")
    with Server(f"sqlite:///{d / 'web.db'}", d / "server.log", "--daily-boards", "2") as s:
        yield s
    if old is None:
        os.environ.pop("PYTHONPATH", None)
    else:
        os.environ["PYTHONPATH"] = old


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.mark.slow
def test_the_scottish_daily_deals_in_the_browser(browser: Browser, server: Server) -> None:
    page = watched_page(browser, PHONE, STEP, locale="it-IT", extra_http_headers={"accept-language": "it"})
    page.goto(server.base + "/daily/scottish")
    page.wait_for_selector("#start-panel:not([hidden])")
    page.click("#start")
    page.wait_for_selector("#daily-play[data-state='board']")
    assert "Assi" in page.locator("#board-contract").text_content()  # deal 1: Aces, in Italian
    shot(page, "scottish-board-phone-it")
    for _ in range(200):
        if page.locator("#daily-play").get_attribute("data-state") == "results":
            break
        version = page.locator("#daily-play").get_attribute("data-version")
        page.locator("#hand .card.legal, #actions button").first.click()
        page.wait_for_function(
            "(v) => { const p = document.querySelector('#daily-play'); return p.dataset.state === 'results' "
            "|| p.dataset.version !== v || document.querySelector('#play-error').textContent; }", arg=version,
            timeout=STEP)
        assert not page.locator("#play-error").text_content(), page.locator("#play-error").text_content()
    page.wait_for_selector("#share:not(:empty)")
    assert page.locator(".traveller").count() == 2
    assert page.locator(".traveller").first.locator("thead th").count() == 3  # player, score, matchpoints: the game has no doubles
    shot(page, "scottish-results-phone-it")
    assert not page.errors, page.errors


@pytest.mark.slow
def test_the_besigue_daily_deals_on_the_besigue_table(browser: Browser, server: Server) -> None:
    page = watched_page(browser, LAPTOP, STEP, locale="fr-FR", extra_http_headers={"accept-language": "fr"})
    page.goto(server.base + "/daily/besigue")
    page.wait_for_selector("#start-panel:not([hidden])")
    assert "Bésigue" in page.locator("#start-what").text_content() or "bésigue" in page.locator("#start-what").text_content()
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
        move = page.locator("#bz-decision button.bz-declare, #bz-hand .card.legal, #laid-bottom .card.legal, "
                            "#bz-decision button")
        if not move.count():
            page.wait_for_timeout(50)
            continue
        version = page.locator("main").get_attribute("data-version")
        move.first.click()
        page.wait_for_function("(v) => document.querySelector('main').dataset.version !== v "
                               "|| !document.querySelector('#daily-next').hidden || !location.pathname.endsWith('/play')",
                               arg=version, timeout=STEP)
    page.wait_for_url("**/daily/besigue")
    page.wait_for_selector("#share:not(:empty)")
    assert ends == 2 and page.locator(".traveller").count() == 2
    assert "–" in page.locator(".traveller tbody td").nth(1).text_content()  # the deal's points, the player's first
    shot(page, "besigue-results-laptop-fr")
    assert not page.errors, page.errors
