"""The guided first deal in a real browser (Playwright, Debian's chromium, a real `barbu serve`): every lesson
played through from the lobby's button to the real match, in English and French at 1366x768 and in Italian
on a phone (390x844); a wrong card refused with its lesson, the card staying in the hand.

The test plays what the lesson asks, read from the lesson model itself (`barbu.guide.lesson.replay`), and
waits for the page's own markers (``data-step``, ``data-busy``), never for a time.  The page holds each computer
seat's move in view for a while (``learn_link.js``'s timers): the page's clock is Playwright's, run on past those
holds once the server's answer is in (the same frames drawn in the same order, without 40 s of waiting a case).
"""

from __future__ import annotations

from typing import Callable

import pytest
from playwright.sync_api import Page
from webhelpers import Server
from webhelpers import shot as take_shot

from barbu.guide.lesson import KEYS, replay

pytestmark = pytest.mark.browser
SERVE = ("--bot-delay", "0", "--deal-pause", "0", "--tables-per-hour", "0", "--bot-tables-per-address", "0")
STEP = 60_000  # ms a step may take on a loaded machine
READY = (
    "() => { const t = document.querySelector('#table');"
    " return !!t && t.dataset.busy === '0' && t.dataset.phase !== ''; }"
)
ANSWERED = "() => { const t = document.querySelector('#table'); return !!t && !!t.dataset.phase; }"
AT_STEP = (
    "() => {{ const t = document.querySelector('#table');"
    " return !!t && t.dataset.step === '{n}' && t.dataset.busy === '0'; }}"
)
STEP_ANSWERED = "() => {{ const t = document.querySelector('#table'); return !!t && t.dataset.step === '{n}'; }}"
COUNTER = {"en": "Lesson 1 of 4", "fr": "Leçon 1 sur 4", "it": "Lezione 1 di 4"}
REAL_MATCH = {
    "en": "Play a real match against the computer",
    "fr": "Jouer une vraie partie contre l'ordinateur",
    "it": "Gioca una vera partita contro il computer",
}


def open_page(
    person: Callable[..., Page], url: str, size: tuple[int, int], reduced: bool = True, ready: bool = True
) -> Page:
    page = person(size, timeout=STEP, reduced_motion="reduce" if reduced else "no-preference")
    page.clock.install()  # the page's timers on Playwright's clock, which goes on as usual until `settle` runs it
    page.goto(url)
    if ready:
        settle(page, ANSWERED, READY)
    return page


def settle(page: Page, answered: str, done: str) -> None:
    """Wait for the server's answer (``answered``), then run the page's clock on past the computer seats' moves
    it plays one by one, each held in view by a timer, until ``done`` (the page no longer busy)."""
    page.wait_for_function(answered)
    for _ in range(200):  # a step's moves are a dozen holds at most
        if page.evaluate(done):
            return
        page.clock.run_for(1000)
    page.wait_for_function(done)


def at_step(page: Page, n: int) -> None:
    settle(page, STEP_ANSWERED.format(n=n), AT_STEP.format(n=n))


def shot(page: Page, name: str) -> None:
    take_shot(page, f"learn-{name}")


def data(page: Page, key: str) -> str:
    return page.eval_on_selector("#table", f"t => t.dataset.{key}")


def act(page: Page, action: str) -> None:
    """Click what the lesson asks: a card in the hand, or a decision's button."""
    selector = f"#hand [data-card='{action}']" if len(action) == 2 else f"#decision [data-action='{action}']"
    page.click(selector)


def play_lesson(page: Page, key: str, name: str) -> None:
    """One lesson through, as it asks, to its end."""
    page.wait_for_function(f"() => document.querySelector('#table')?.dataset.lesson === '{key}'")  # page may reload
    settle(page, ANSWERED, READY)
    actions: list[str] = []
    while data(page, "finished") != "1":
        state = replay(key, actions)
        assert state.your_turn, (key, actions)
        expected = str(state.expected[0])
        act(page, expected)
        actions.append(expected)
        at_step(page, len(actions))
        assert page.is_hidden("#lesson-refusal")
        assert len(actions) <= 10
    assert page.inner_text("#turn")
    shot(page, f"{name}-{key}-end")


@pytest.mark.slow
@pytest.mark.parametrize(
    "lang, size, reduced",
    [
        ("en", (1366, 768), False),
        ("fr", (1366, 768), True),
        ("it", (390, 844), True),
    ],
)
def test_the_guided_deal_from_the_lobby_to_a_real_match(
    person: Callable[..., Page], server: Server, lang: str, size: tuple[int, int], reduced: bool
) -> None:
    page = open_page(person, f"{server.base}/?lang={lang}", size, reduced, ready=False)
    page.click("#learn-link")
    settle(page, ANSWERED, READY)
    assert page.inner_text("#lesson-counter") == COUNTER[lang] or size[0] < 600
    assert page.get_attribute("html", "lang") == lang
    if reduced:  # the browser asks for less motion: the cards do not fly
        assert page.eval_on_selector_all("#motion-layer", "ls => ls.length ? Number(ls[0].dataset.flights) : 0") == 0
    name = f"learn-{lang}-{size[0]}x{size[1]}"
    shot(page, f"{name}-start")
    for i, key in enumerate(KEYS):
        play_lesson(page, key, name)
        if i + 1 < len(KEYS):
            assert page.is_visible("#lesson-next") and page.is_hidden("#play-real")
            page.click("#lesson-next")
    assert page.is_hidden("#lesson-next")
    assert page.inner_text("#play-real") == REAL_MATCH[lang]
    page.click("#play-real")
    page.wait_for_url("**/t/*")
    page.wait_for_function("() => document.querySelector('#table').dataset.seat === '0'")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_a_wrong_card_is_refused_with_its_lesson(person: Callable[..., Page], server: Server) -> None:
    page = open_page(person, f"{server.base}/learn?lang=fr", (1366, 768), reduced=False)
    assert data(page, "lesson") == "no-queens" and data(page, "step") == "0"
    page.click("#hand [data-card='AD']")  # legal, but it takes the trick and every queen on it
    page.wait_for_function("() => document.querySelector('#table').dataset.refused === '1'")
    page.wait_for_function(READY)
    refusal = page.inner_text("#lesson-refusal")
    assert "Pas le meilleur choix" in refusal and "A♦" in refusal
    assert page.is_visible("#hand [data-card='AD']") and data(page, "step") == "0"
    assert page.eval_on_selector("#hand [data-card='AD']", "c => c.classList.contains('refused')")
    # the cards the lesson accepts are shown once the learner has been told
    expected = page.eval_on_selector_all("#hand .card.expected", "cs => cs.map(c => c.dataset.card).sort()")
    assert expected == ["4D", "6D", "TD"]
    shot(page, "learn-fr-refused")
    page.click("#hand [data-card='2S']")  # not even allowed: the engine's reason, and the lesson
    page.wait_for_function("() => document.querySelector('#table').dataset.refused === '2'")
    assert "Interdit (vous devez fournir" in page.inner_text("#lesson-refusal")
    assert page.is_visible("#hand [data-card='2S']")
    page.evaluate(  # every line the live regions are given (they keep only the last few), as a screen reader hears them
        "() => { window.heard = []; for (const id of ['announce', 'announce-now']) new MutationObserver((changes) =>"
        " { for (const c of changes) for (const n of c.addedNodes) window.heard.push(n.textContent); })"
        ".observe(document.getElementById(id), { childList: true }); }"
    )
    page.click("#hand [data-card='TD']")
    at_step(page, 1)
    assert page.is_hidden("#lesson-refusal") and page.query_selector("#hand [data-card='TD']") is None
    # each move of the lesson said as at a table, in the page's language: yours, the computers' by place, the trick
    heard = page.evaluate("() => window.heard")
    assert "Vous\u00a0: 10 de carreau" in heard and "Ouest, ordinateur\u00a0: 2 de carreau" in heard, heard
    assert any(line.endswith("remporte le pli.") for line in heard) and "À vous\u00a0: jouer une carte." in heard, heard
    # the cards moved as at the real table: yours from the hand, the others' from their seats
    assert int(page.eval_on_selector("#motion-layer", "l => l.dataset.flights")) >= 3
    page.reload()  # the tab keeps the lesson's actions: a reload goes on where the learner was
    at_step(page, 1)
    assert page.query_selector("#hand [data-card='TD']") is None
    page.click("#lesson-again")
    at_step(page, 0)
    assert page.is_visible("#hand [data-card='TD']")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
