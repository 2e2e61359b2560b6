"""The table for a player without a mouse, and for one who listens (issue 43, "A table for everyone").

A whole deal played in a real browser with the keyboard alone (Tab to the first decision, then arrow keys, Enter
and Escape; never a click): the focus is on the player's next decision each time his turn comes, never lost on
the page; the deal's summary is closed by a key.  In French, the live region says a card played by its name and a
trick won, in French.  The display choices (four-colour deck, high contrast) are made from the header's menu by
keyboard, kept across pages, and drawn on the cards; with BARBU_SHOTS=/some/folder the table is photographed with
them at a laptop's and a phone's size.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from webhelpers import new_table, shot

pytestmark = pytest.mark.browser
# A pause between deals, as people play: the deal's summary stays on the felt until the next deal's first choice.
SERVE = ("--bot-delay", "0", "--deal-pause", "2", "--bot-tables-per-address", "0", "--open-tables-per-address", "0")
LAPTOP, PHONE = (1366, 768), (390, 844)

#: Where the focus may be when the player has a decision: a card he may play, or one of the choices offered.
DECISION = "#hand .card.legal, #decision button:not([disabled])"
FOCUS_ON_DECISION = f"() => !!document.activeElement && document.activeElement.matches({DECISION!r})"
FOCUS_ON_SUMMARY = "() => document.activeElement && document.activeElement.id === 'deal-end-close'"


def start_by_keyboard(page: Page, base: str, lang: str = "", preset: str = "") -> None:
    """From the lobby to a table against the computer, by the keyboard: focus the button with Tab, press Enter
    (`preset`: the game of the New table form, which the button plays)."""
    page.goto(base + "/" + (f"?lang={lang}" if lang else ""))
    page.wait_for_selector("#play-computer")
    if preset:
        page.wait_for_selector(f"#preset option[value='{preset}']", state="attached")
        page.select_option("#preset", preset)
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.id") == "play-computer":
            break
    else:
        pytest.fail("Tab never reached the Play against the computer button")
    page.keyboard.press("Enter")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#hand .card")


def tab_to_decision(page: Page) -> None:
    """Tab until the focus is on a decision (at once if the table already put it there)."""
    for _ in range(80):
        if page.evaluate(FOCUS_ON_DECISION):
            return
        page.keyboard.press("Tab")
    pytest.fail("Tab never reached the player's decision")


def wait_for_focus_on_decision(page: Page) -> None:
    """The focus on the player's decision; else fail saying where it is."""
    try:
        page.wait_for_function(FOCUS_ON_DECISION)
    except PlaywrightTimeout:
        where = page.evaluate(
            "() => { const a = document.activeElement; const m = document.querySelector('main');"
            " return [a.tagName, a.id, a.className, a.isConnected, a.outerHTML.slice(0, 120), m.dataset.phase,"
            " m.dataset.toAct, document.querySelector('#turn').textContent, document.querySelector('#deal-end').hidden]; }"
        )
        pytest.fail(f"the focus is not on the player's decision: {where}")


def listen(page: Page) -> None:
    """Keep every line the live regions are given (they hold only the last few), as a screen reader hears them."""
    page.evaluate(
        "() => { window.heard = []; for (const id of ['announce', 'announce-now']) new MutationObserver((changes) =>"
        " { for (const c of changes) for (const n of c.addedNodes) window.heard.push(n.textContent); })"
        ".observe(document.getElementById(id), { childList: true }); }"
    )


def heard(page: Page) -> list[str]:
    return list(page.evaluate("() => window.heard"))


def deals_done(page: Page) -> int:
    return page.locator("#sheet .deal-row").count()


def play_a_deal_by_keyboard(page: Page) -> int:
    """Play until the first deal is scored, with keys only; returns the decisions made."""
    decisions = 0
    tabbed = False
    for _ in range(400):
        page.wait_for_function(
            "() => document.querySelector('#turn').dataset.mine === '1' || !document.querySelector('#deal-end').hidden"
            " || document.querySelectorAll('#sheet .deal-row').length > 0"
        )
        if deals_done(page):
            return decisions
        if not page.locator("#deal-end").is_hidden():
            continue
        if not tabbed:  # the first decision: reached with Tab, as a person does on a page he has just opened
            tab_to_decision(page)
            tabbed = True
        # From then on the focus is already there: the table moved it on when the last control went.
        wait_for_focus_on_decision(page)
        version = page.locator("#table").get_attribute("data-version")
        if page.evaluate("() => document.activeElement.classList.contains('card')"):
            before = page.evaluate("() => document.activeElement.dataset.card")
            page.keyboard.press("ArrowRight")  # another playable card, when there is one
            after = page.evaluate("() => document.activeElement.dataset.card")
            legal = page.locator("#hand .card.legal").count()
            assert (after != before) == (legal > 1), (before, after, legal)
            assert page.evaluate("() => document.activeElement.classList.contains('legal')")
        page.keyboard.press("Enter")
        decisions += 1
        page.wait_for_function(
            "v => document.querySelector('#table').dataset.version !== v"
            " || document.querySelectorAll('#sheet .deal-row').length > 0",
            arg=version,
        )
    pytest.fail("the deal did not end")


def test_a_whole_deal_is_played_with_the_keyboard_alone(server: object, person: Callable[..., Page]) -> None:
    page = person(LAPTOP)
    page.on("request", lambda r: None)
    start_by_keyboard(page, server.base)  # type: ignore[attr-defined]
    page.evaluate("() => { window.clicks = 0; addEventListener('mousedown', () => window.clicks++, true); }")
    decisions = play_a_deal_by_keyboard(page)
    assert decisions > 0  # each made by a key, the focus already on it (forced ones are made for the player)
    # The deal's summary takes the focus (Enter there never chooses the next contract); Enter closes it.
    page.wait_for_function(FOCUS_ON_SUMMARY)
    expect(page.locator("#deal-end")).to_be_visible()
    page.keyboard.press("Enter")
    expect(page.locator("#deal-end")).to_be_hidden()
    page.wait_for_function(
        f"() => document.activeElement.matches({DECISION!r}) || document.activeElement.id === 'hand'"
    )
    assert page.evaluate("() => window.clicks") == 0
    assert not page.errors  # type: ignore[attr-defined]


# "dame de cœur", as a French player names the card (the suit in the singular).
FRENCH_CARD = re.compile(r"\b(as|roi|dame|valet|10|[2-9]) de (pique|cœur|carreau|trèfle)\b(?!s)", re.IGNORECASE)


WON_TRICK = re.compile(r"(remporte le pli|Vous remportez le pli)")


def test_the_live_region_says_a_card_and_a_trick_in_french(server: object, person: Callable[..., Page]) -> None:
    page = person(LAPTOP, "fr-FR")
    # The Salad: every deal is played trick by trick (a Domino deal would have no trick to win).
    start_by_keyboard(page, server.base, preset="salad")  # type: ignore[attr-defined]
    assert page.get_attribute("html", "lang") == "fr"
    assert page.get_attribute("#announce", "aria-live") == "polite"
    assert page.get_attribute("#announce-now", "aria-live") == "assertive"
    # "À vous : …" is said at once (assertive) when the turn comes.
    listen(page)
    page.wait_for_function("() => document.querySelector('#announce-now').textContent.includes('À vous')")
    lines: list[str] = []
    for _ in range(200):
        lines = heard(page)
        if any(FRENCH_CARD.search(x) for x in lines) and any(WON_TRICK.search(x) for x in lines):
            break  # a card played and a trick won ("Pas de plis", the contract, is no trick won)
        page.wait_for_function(
            "() => document.querySelector('#turn').dataset.mine === '1' || !document.querySelector('#deal-end').hidden"
        )
        if not page.locator("#deal-end").is_hidden():
            page.keyboard.press("Escape")
            continue
        tab_to_decision(page)
        version = page.locator("#table").get_attribute("data-version")
        page.keyboard.press("Enter")
        page.wait_for_function("v => document.querySelector('#table').dataset.version !== v", arg=version)
    played = [x for x in lines if FRENCH_CARD.search(x)]
    won = [x for x in lines if WON_TRICK.search(x)]
    assert played and won, lines
    # A line says one move: never the whole table again.
    assert all(len(x) < 90 for x in lines), lines
    assert not any("♠" in x or "♥" in x or "♦" in x or "♣" in x for x in played), played


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_four_colour_deck_and_high_contrast_are_chosen_by_keyboard_and_kept(
    server: object, person: Callable[..., Page], size: tuple[int, int]
) -> None:
    base = server.base  # type: ignore[attr-defined]
    page = person(size)
    page.goto(base + "/")
    assert page.get_attribute("html", "data-deck") is None
    page.focus("#display-menu summary")
    page.keyboard.press("Enter")
    expect(page.locator("#display-deck")).to_be_visible()
    page.keyboard.press("Tab")
    page.keyboard.press("Space")  # four colours
    page.keyboard.press("Tab")
    page.keyboard.press("Space")  # high contrast
    assert page.get_attribute("html", "data-deck") == "four"
    assert page.get_attribute("html", "data-contrast") == "high"
    shot(page, "a11y-display-menu")
    page.keyboard.press("Escape")
    expect(page.locator("#display-deck")).to_be_hidden()
    # Kept in this browser: the table, another page, shows them from its first paint.
    page.click("#play-computer")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#hand .card")
    assert page.get_attribute("html", "data-deck") == "four"
    assert page.get_attribute("html", "data-contrast") == "high"
    inks = page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('#hand .face')].map((f) =>"
        " [f.dataset.suit, getComputedStyle(f.querySelector('.ink')).fill]))"
    )
    assert len(set(inks.values())) == len(inks), inks  # every suit in the hand its own colour
    if "D" in inks:
        assert inks["D"] == "rgb(20, 85, 192)"
    if "C" in inks:
        assert inks["C"] == "rgb(27, 122, 47)"
    page.keyboard.press("Tab")  # the focus ring is seen
    shot(page, "a11y-four-colours-high-contrast")
    # Both taken off again: the two-colour deck and the usual colours.
    page.focus("#display-menu summary")
    page.keyboard.press("Enter")
    page.uncheck("#display-deck")
    page.uncheck("#display-contrast")
    assert page.get_attribute("html", "data-deck") is None
    assert page.get_attribute("html", "data-contrast") is None


def test_high_contrast_follows_the_systems_preference_until_the_player_chooses(
    server: object, person: Callable[..., Page]
) -> None:
    page = person(LAPTOP)
    page.emulate_media(contrast="more")
    page.goto(server.base + "/")  # type: ignore[attr-defined]
    assert page.get_attribute("html", "data-contrast") == "high"
    assert page.is_checked("#display-contrast")
    page.focus("#display-menu summary")
    page.keyboard.press("Enter")
    page.uncheck("#display-contrast")
    page.reload()
    assert page.get_attribute("html", "data-contrast") is None


BZ_DECISION = "#bz-hand .card.legal, #laid-bottom button.card, #bz-decision button"


def test_besigue_is_played_with_the_keyboard_and_its_moves_are_said(
    server: object, person: Callable[..., Page]
) -> None:
    base = server.base  # type: ignore[attr-defined]
    page = person(LAPTOP)
    page.goto(base + "/")
    page.focus("#play-game")
    page.keyboard.press("ArrowDown")  # Bésigue
    assert page.input_value("#play-game") == "besigue"
    page.focus("#play-computer")
    page.keyboard.press("Enter")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#bz-hand .card")
    page.evaluate("() => { window.clicks = 0; addEventListener('mousedown', () => window.clicks++, true); }")
    listen(page)
    on_decision = f"() => !!document.activeElement && document.activeElement.matches({BZ_DECISION!r})"
    decisions = 0
    while decisions < 8:
        page.wait_for_function(
            "() => document.querySelector('#bz-turn').dataset.mine === '1' || !document.querySelector('#deal-end').hidden"
        )
        if page.locator("#deal-end").is_visible():
            page.keyboard.press("Escape")
            continue
        if decisions == 0:
            for _ in range(80):
                if page.evaluate(on_decision):
                    break
                page.keyboard.press("Tab")
        try:
            page.wait_for_function(on_decision)  # after the first, the table moved the focus on by itself
        except PlaywrightTimeout:
            where = page.evaluate(
                "() => { const a = document.activeElement; const m = document.querySelector('main');"
                " return [a.tagName, a.id, a.className, a.isConnected, a.outerHTML.slice(0, 150), m.dataset.phase,"
                " document.querySelector('#bz-turn').textContent, document.querySelector('#bz-decision').innerHTML.slice(0, 300),"
                " document.querySelector('#deal-end').hidden]; }"
            )
            pytest.fail(f"the focus is not on the player's decision: {where}")
        if (
            page.evaluate("() => document.activeElement.classList.contains('card')")
            and page.locator("#bz-hand .card.legal, #laid-bottom button.card").count() > 1
        ):
            # Home and End: the first and the last card one may play, the hand and the declared cards as one row.
            at = "sel => { const all = [...document.querySelectorAll(sel)]; return all.indexOf(document.activeElement); }"
            playable = "#bz-hand .card.legal, #laid-bottom button.card"
            page.keyboard.press("End")
            assert page.evaluate(at, playable) == page.locator(playable).count() - 1
            page.keyboard.press("Home")
            assert page.evaluate(at, playable) == 0
            page.keyboard.press("ArrowLeft")  # round to the last again
            assert page.evaluate(at, playable) == page.locator(playable).count() - 1
        version = page.locator("#bz").get_attribute("data-version")
        page.keyboard.press("Enter")
        decisions += 1
        page.wait_for_function("v => document.querySelector('#bz').dataset.version !== v", arg=version)
    lines = heard(page)
    said_card = re.compile(r"played (the )?(ace|king|queen|jack|10|[2-9]) of (spades|hearts|diamonds|clubs)")
    assert any(said_card.search(x) for x in lines), lines
    assert any(x.endswith("win the trick.") or x.endswith("wins the trick.") for x in lines), lines
    assert any(
        x.startswith("Your lead")
        or x.startswith("You won the trick")
        or x.startswith("Play a card")
        or x.startswith("Last tricks")
        for x in lines
    ), lines
    assert page.evaluate("() => window.clicks") == 0
    assert not page.errors  # type: ignore[attr-defined]


def test_a_lesson_is_answered_by_keyboard_and_the_focus_stays_at_the_table(
    server: object, person: Callable[..., Page]
) -> None:
    page = person(LAPTOP)
    page.goto(server.base + "/learn")  # type: ignore[attr-defined]
    page.wait_for_function("() => document.querySelector('#turn').dataset.mine === '1'")
    listen(page)
    tab_to_decision(page)
    for _ in range(6):  # each answer by Enter; a refused one says why and the focus stays on the choices
        step = page.get_attribute("#table", "data-step")
        refused = page.get_attribute("#table", "data-refused")
        page.keyboard.press("Enter")
        page.wait_for_function(
            "([s, r]) => { const t = document.querySelector('#table');"
            " return t.dataset.busy === '0' && (t.dataset.step !== s || t.dataset.refused !== r); }",
            arg=[step, refused],
        )
        if page.get_attribute("#table", "data-finished") == "1":
            break
        page.wait_for_function("() => document.querySelector('#turn').dataset.mine === '1'")
        page.wait_for_function(FOCUS_ON_DECISION)
        expected = page.locator("#hand .card.expected, #decision button.primary")
        if expected.count():  # the lesson's choice, reached with the arrow keys
            target = expected.first.evaluate("e => e.dataset.card || e.dataset.action")
            for _ in range(20):
                if (
                    page.evaluate("() => document.activeElement.dataset.card || document.activeElement.dataset.action")
                    == target
                ):
                    break
                page.keyboard.press("ArrowRight")
    assert page.get_attribute("#table", "data-finished") == "1"
    # at its end the way on takes the focus from the table: Enter opens the next lesson
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'lesson-next'")
    # the lesson's moves said as at a table: yours, the computers' by their places, the tricks won
    lines = heard(page)
    assert any(x.startswith("You: ") for x in lines) and any(", computer: " in x for x in lines), lines
    assert any(x.endswith("wins the trick.") or x.endswith("win the trick.") for x in lines), lines
    page.keyboard.press("Enter")
    page.wait_for_url("**/learn/doubling")
    page.wait_for_function("() => document.querySelector('#table').dataset.lesson === 'doubling'")
    assert not page.errors  # type: ignore[attr-defined]


def test_the_lobbys_refreshed_list_keeps_the_focus_on_the_same_table(
    server: object, person: Callable[..., Page]
) -> None:
    base = server.base  # type: ignore[attr-defined]
    tid, _ = new_table(base, "classic")  # an open table, listed in the lobby
    page = person(LAPTOP)
    page.goto(base + "/")
    link = page.locator(f"#tables a[href='/t/{tid}']")
    link.focus()
    page.evaluate("() => { window.before = document.activeElement; }")
    # The list is drawn again every few seconds: wait for the link the focus was on to be replaced.
    page.wait_for_function("() => !window.before.isConnected", timeout=60_000)
    assert page.evaluate("() => document.activeElement.getAttribute('href')") == f"/t/{tid}"
    assert page.evaluate("() => document.activeElement !== window.before")


def test_tab_reaches_every_control_of_the_table(server: object, person: Callable[..., Page]) -> None:
    page = person(LAPTOP)
    start_by_keyboard(page, server.base)  # type: ignore[attr-defined]
    page.wait_for_function("() => document.querySelector('#turn').dataset.mine === '1'")
    # Every control a person sees on the table's page, marked so each can be told apart.
    controls = page.evaluate(
        "() => { const all = [...document.querySelectorAll('a[href], button, input, select, summary')]"
        ".filter((e) => !e.disabled && e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden'"
        " && !e.closest('details:not([open]) > :not(summary)'));"
        " all.forEach((e, i) => e.dataset.tabMark = i); window.reached = new Set();"
        " addEventListener('focusin', (ev) => ev.target.dataset && window.reached.add(ev.target.dataset.tabMark), true);"
        " return all.map((e) => e.dataset.tabMark); }"
    )
    assert len(controls) > 20  # the header, the turn bar, the choices or the cards, the side panels
    for _ in range(len(controls) + 10):
        page.keyboard.press("Tab")
    reached = set(page.evaluate("() => [...window.reached]"))
    missed = page.evaluate(
        "(marks) => marks.map((m) => document.querySelector(`[data-tab-mark='${m}']`))"
        ".filter((e) => e && e.isConnected).map((e) => e.outerHTML.slice(0, 100))",
        [m for m in controls if m not in reached],
    )
    assert not missed, missed
