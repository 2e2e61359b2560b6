"""The browser table a newcomer meets: one click to play, the hand and the decision always in view,
a refused card says why, an unknown address says so.  Playwright drives Debian's chromium."""

from __future__ import annotations

import urllib.error
import urllib.request
from typing import Callable

import pytest
from playwright.sync_api import Page
from webhelpers import Server, shot

pytestmark = pytest.mark.browser
SERVE = (
    "--bot-delay",
    "0.2",
    "--deal-pause",
    "0",
    "--grace",
    "1000",
    "--tables-per-hour",
    "0",
    "--bot-tables-per-address",
    "0",
)
# the shortest laptop, the usual one and a phone: a taller screen only adds room
VIEWPORTS = [(1280, 720), (1366, 768), (390, 844)]


def inside(page: Page, selector: str) -> None:
    """The element's box lies wholly inside the viewport, with no scrolling."""
    box = page.locator(selector).bounding_box()
    vw, vh = page.viewport_size["width"], page.viewport_size["height"]
    assert box is not None, selector
    assert box["y"] >= 0 and box["x"] >= 0, (selector, box)
    assert box["y"] + box["height"] <= vh + 1 and box["x"] + box["width"] <= vw + 1, (selector, box, vw, vh)
    assert page.evaluate("window.scrollY") == 0


def overlaps(page: Page) -> list:
    """The (trick card, seat box) pairs whose boxes cover each other by more than a few pixels: a card played
    must not hide a player's name or counts."""
    return page.evaluate("""() => {
      const cut = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 4
                         && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 4;
      const out = [];
      for (const c of document.querySelectorAll('#center .trick-card'))
        for (const s of document.querySelectorAll('.seat-box'))
          if (cut(c.getBoundingClientRect(), s.getBoundingClientRect())) out.push([c.dataset.by, s.dataset.seatBox]);
      return out;
    }""")


def tap(page: Page, target) -> None:
    """A click where the element is on screen, as a finger or a mouse would: Playwright's own click first
    scrolls an element it finds clipped (a lifted card pokes out of the hand's box) to the middle of the
    window, which is the test moving the page, not the page moving."""
    box = target.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def act(page: Page) -> None:
    """Play the first legal card, or press the first choice, and wait until the table has moved on."""
    version = page.locator("#table").get_attribute("data-version")
    legal = page.locator("#hand .card[data-legal='1']")
    tap(page, legal.first if legal.count() else page.locator("#decision button").first)
    page.wait_for_function("v => document.querySelector('#table').dataset.version !== v", arg=version)


def play_against_the_computer(page: Page, base: str) -> None:
    page.goto(base + "/")
    page.click("#play-computer")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#hand .card")


@pytest.mark.slow
@pytest.mark.parametrize("size", VIEWPORTS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_one_click_starts_a_match_and_the_hand_and_decision_stay_in_view(
    server: Server, person: Callable[..., Page], size: tuple[int, int]
) -> None:
    page = person(size)
    play_against_the_computer(page, server.base)
    assert page.locator("#table").get_attribute("data-seat") == "0"
    seen = set()
    for _ in range(400):  # through the contract, the doubling and some card play, checking at each turn
        page.wait_for_function("() => document.querySelector('#turn').dataset.mine === '1'", timeout=30_000)
        phase = page.locator("#table").get_attribute("data-phase")
        if phase == "declare" and page.locator("#decision .info").count():
            # A contract's description, opened under the list by a click on its ⓘ.
            tap(page, page.locator("#decision .info").last)
            assert page.locator("#contract-desc").get_attribute("data-contract")
            inside(page, "#contract-desc")
        inside(page, "#hand")
        inside(page, "#decision") if page.locator("#decision").inner_text().strip() else None
        if page.locator("#center .trick-card").count():  # the trick and its players' names lie on the felt
            inside(page, "#center .trick-card >> nth=-1")
            assert not overlaps(page), overlaps(page)
        if phase not in seen:
            shot(page, f"web-{phase}")
        seen.add(phase)
        if phase == "play" and len(seen) >= 3:
            break
        act(page)
    assert "play" in seen and ("declare" in seen or "doubling" in seen)


@pytest.mark.parametrize("size, lang", [((1366, 768), "en-GB"), ((390, 844), "fr-FR")], ids=["laptop", "phone-fr"])
def test_a_players_top_bar_leaves_his_table_in_view(
    server: Server, person: Callable[..., Page], size: tuple[int, int], lang: str
) -> None:
    """Logged in, the table's top bar holds his account's links too: at 1366×768 it wraps to two lines and the
    table, sized against a one-line bar, cut his hand at the bottom; on a French phone the tools ("donne 1 sur
    8", "Inviter", "connecté") ran off the right edge and the page scrolled sideways (issue 43's screenshots)."""
    page = person(size, lang)
    r = page.request.post(
        server.base + "/api/account/signup", data={"name": f"Tallbar{size[0]}", "password": "a-long-password-43"}
    )
    assert r.ok, r.text()
    page.goto(server.base + "/")
    page.select_option("#play-length", "short")  # the longer title: "Classic · short match: 2 contracts each"
    page.click("#play-computer")
    page.wait_for_url("**/t/*")
    page.wait_for_function("() => document.querySelector('#turn').dataset.mine === '1'", timeout=30_000)
    page.wait_for_selector("#conn[data-status='connected']")
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    if size[0] > 1000:
        assert page.locator(".topbar").bounding_box()["height"] > 60  # two lines: the case this test is for
        inside(page, "#hand")
        return
    # a tall end-of-match box (many lines) stays in the window and leaves the floating Chat button its corner
    page.evaluate("""() => {
      for (let i = 0; i < 30; i++) document.getElementById('standings').append(Object.assign(
        document.createElement('li'), {textContent: 'Ouest, bon joueur — 100'}));
      document.getElementById('match-end').hidden = false;
    }""")
    box = page.locator("#match-end .overlay-box").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= size[1] + 1, box
    on_top = page.evaluate("""() => { const r = document.getElementById('chat-toggle').getBoundingClientRect();
      return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2).closest('#chat-toggle') !== null; }""")
    assert not on_top  # the button was drawn over the box's lines


@pytest.mark.slow
def test_a_refused_card_says_why_in_the_engines_words(server: Server, person: Callable[..., Page]) -> None:
    page = person((1366, 768))
    play_against_the_computer(page, server.base)
    for _ in range(600):
        page.wait_for_function("() => document.querySelector('#turn').dataset.mine === '1'", timeout=30_000)
        phase = page.locator("#table").get_attribute("data-phase")
        illegal = page.locator("#hand .card[data-legal='0']")
        if phase == "play" and illegal.count():
            illegal.first.click()
            page.wait_for_selector("#error:not([hidden])")
            text = page.locator("#error").inner_text()
            assert text and ("must" in text or "may not" in text or "cannot" in text), text
            return
        act(page)
    pytest.fail("never met a card the rules refuse")


def test_an_unknown_table_address_is_a_real_not_found_page(server: Server, person: Callable[..., Page]) -> None:
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(server.base + "/t/no-such-table")
    assert e.value.code == 404
    page = person((390, 844))
    page.goto(server.base + "/t/no-such-table")
    assert "There is no table at this address" in page.inner_text("body")
    page.click("text=Go to the lobby")
    page.wait_for_selector("#play-computer")
