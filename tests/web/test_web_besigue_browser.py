"""A Bésigue table in the browser: one click from the lobby, cards played, a combination declared,
and the whole table in view without scrolling on a laptop and on a phone.  Playwright drives
Debian's chromium against a real `barbu serve`."""

from __future__ import annotations

from typing import Callable

import pytest
from playwright.sync_api import Page
from webhelpers import Server, shot

pytestmark = pytest.mark.browser
SERVE = (
    "--bot-delay",
    "0.05",
    "--deal-pause",
    "0",
    "--grace",
    "1000",
    "--tables-per-hour",
    "0",
    "--bot-tables-per-address",
    "0",
)
MY_TURN = (
    "() => { const t = document.querySelector('#bz');"
    " return t.dataset.toAct === t.dataset.seat || t.dataset.phase === 'over'; }"
)


def start_match(person: Callable[..., Page], base: str, size: tuple[int, int]) -> Page:
    page = person(size, timeout=90_000)  # a loaded machine: the computer player may take a while
    errors = page.errors  # type: ignore[attr-defined]
    page.goto(base + "/")
    page.select_option("#play-game", "besigue")
    page.click("#play-computer")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#bz-hand .card")
    page.wait_for_function(MY_TURN)
    assert not errors, errors
    return page


def fits(page: Page) -> None:
    """Felt, turn line, decision and hand lie inside the window, and the page does not scroll."""
    vw, vh = page.viewport_size["width"], page.viewport_size["height"]
    for sel in ("#bz-felt", "#bz-turn", "#bz-hand", "#stock", "#player-top", "#player-bottom"):
        box = page.locator(sel).bounding_box()
        assert box is not None, sel
        assert (
            box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= vw + 1 and box["y"] + box["height"] <= vh + 1
        ), (sel, box, vw, vh)
    for card in page.locator("#bz-hand .card").all():
        box = card.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= vw + 1 and box["y"] + box["height"] <= vh + 1
    assert page.evaluate("document.scrollingElement.scrollHeight <= window.innerHeight + 1")
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth + 1")


def version(page: Page) -> str:
    return page.locator("#bz").get_attribute("data-version")


def click_and_wait(page: Page, locator) -> None:
    v = version(page)
    locator.click()
    page.wait_for_function("v => document.querySelector('#bz').dataset.version !== v", arg=v)
    page.wait_for_function(MY_TURN)


def play_until_a_declaration(page: Page, size: tuple[int, int]) -> tuple[int, int]:
    """Play the highest legal card, declare the first combination offered, until one is declared after at
    least three cards or the match ends: (cards played, combinations declared)."""
    played = declared = 0
    for _ in range(800):
        phase = page.locator("#bz").get_attribute("data-phase")
        if phase == "over":
            break
        declare = page.locator("#bz-decision button.bz-declare")
        if declare.count():
            fits(page)
            if not declared:
                shot(page, "besigue-declare")
            melds_before = page.locator("#laid-bottom .chip.meld").count()
            click_and_wait(page, declare.first)
            assert page.locator("#laid-bottom .chip.meld").count() == melds_before + 1
            declared += 1
            if played >= 3:
                break
            continue
        if page.locator("#bz-decision button").count():
            click_and_wait(page, page.locator("#bz-decision button.bz-none"))
            continue
        legal = page.locator("#bz-hand button.card.legal, #laid-bottom button.card.legal")
        assert legal.count() > 0, page.locator("#bz-turn").inner_text()
        mine = legal.last  # the highest of the last suit: winning tricks is what opens declarations
        card = mine.get_attribute("data-card")
        deal = page.locator("#bz").get_attribute("data-deal")
        click_and_wait(page, mine)
        played += 1
        if page.locator("#bz").get_attribute("data-deal") == deal:  # the card is on the felt, in this trick or the last
            shown = page.locator(f"#trick .card[data-card='{card}'], #last-trick .card[data-card='{card}']")
            assert shown.count() >= 1, card
    return played, declared


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)])
def test_play_cards_and_declare_at_a_besigue_table(
    person: Callable[..., Page], server: Server, size: tuple[int, int]
) -> None:
    # Whether a combination ever comes to hand after a won trick is the luck of the cards against a strong
    # player: a match without one is played out and another begun (the cards differ).
    for _ in range(4):
        page = start_match(person, server.base, size)
        assert page.locator("#bz-hand .card").count() == 9
        assert (
            "8 cards" in page.locator("#opp-hand").inner_text() or "9 cards" in page.locator("#opp-hand").inner_text()
        )
        assert page.locator("#stock .turn-up").count() == 1
        fits(page)
        shot(page, "besigue-play")
        played, declared = play_until_a_declaration(page, size)
        if declared:
            break
        page.close()
    assert played >= 3 and declared >= 1
    fits(page)
    page.close()


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)])
def test_end_of_deal_summary_and_scores(person: Callable[..., Page], server: Server, size: tuple[int, int]) -> None:
    """Play a whole deal: the summary of the deal shows its scores, and the score panel its totals."""
    page = start_match(person, server.base, size)
    for _ in range(200):
        if page.locator("#deal-end").is_visible():
            break
        buttons = page.locator("#bz-decision button")
        target = (
            buttons.first
            if buttons.count()
            else page.locator("#bz-hand button.card.legal, #laid-bottom button.card.legal").first
        )
        click_and_wait(page, target)
    assert page.locator("#deal-end").is_visible()
    text = page.locator("#deal-end").inner_text()
    assert "End of deal 1" in text and "Brisques" in text and "Last trick" in text
    fits(page)
    shot(page, "besigue-deal-end")
    totals = [int(t) for t in page.locator("#score-bars strong").all_inner_texts()]
    assert sum(totals) > 0  # the deal's points are in the totals
    page.locator("#deal-end button").click()
    assert page.locator("#deal-end").is_hidden()
    page.close()
