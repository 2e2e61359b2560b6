"""The score page and the Bésigue table in French and Italian, in a real browser against `barbu serve`:
a deal kept in Italian (the browser's language) with its contract names, questions, preview and a refusal
in Italian, totals written the Italian way; the switcher turning the page French and remembering it; a
Bésigue table in French.  BARBU_SHOTS=dir keeps screenshots."""

from __future__ import annotations

import json
import urllib.request
from typing import Callable

import pytest
from playwright.sync_api import Page
from webhelpers import PHONE, Server
from webhelpers import shot as take_shot

from barbu.i18n import translator
from barbu.scorekeeper import new_keeper
from barbu.scorekeeper.questions import TRICKS_LABEL
from barbu.web.scorebooks.store import CHANGED_ELSEWHERE

pytestmark = [pytest.mark.slow, pytest.mark.browser]
SERVE = ("--bot-delay", "0.05", "--deal-pause", "0", "--tables-per-hour", "0", "--bot-tables-per-address", "0")
NAMES = ["Anna", "Bruno", "Carla", "Dario"]
IT, FR = translator("it"), translator("fr")


def browser_page(person: Callable[..., Page], locale: str, size: tuple[int, int] = PHONE) -> tuple[Page, list[str]]:
    page = person(size, locale, timeout=60_000)
    return page, page.errors  # type: ignore[attr-defined]


def shot(page: Page, name: str, full: bool = False) -> None:
    take_shot(page, name, full_page=full)


def post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"content-type": "application/json"})
    return json.loads(urllib.request.urlopen(req).read())


def imported(server: Server, keeper) -> dict:
    return post(f"{server.base}/api/score/import", {"text": json.dumps(keeper.to_dict()), "format": "json"})


def big_besigue():
    """Ten deals of a Bésigue game played to 10 000: totals of five digits, grouped as each language does."""
    k = new_keeper("besigue(target=10000)", ["Anna", "Bruno"], 0)
    for i in range(10):
        k.add(
            {
                "outcome": {
                    "melds": [{"double-bezique": 2}, {"four-aces": 1}],
                    "sevens": [1, 0],
                    "brisques": [5, 3],
                    "last": [i % 2],
                }
            }
        )
    return k


def test_a_deal_kept_in_italian(server: Server, person: Callable[..., Page]) -> None:
    page, errors = browser_page(person, "it-IT")
    page.goto(server.base + "/score")
    page.wait_for_selector("#new-names input")
    assert page.get_attribute("html", "lang") == "it"
    assert page.locator("#new-panel h2").inner_text() == "Nuova partita"
    for i, n in enumerate(NAMES):
        page.locator("#new-names input").nth(i).fill(n)
    page.click("#new-start")
    page.wait_for_url("**/score/*")
    page.wait_for_selector("[data-contract]")
    assert page.locator("#entry h2").inner_text() == "Smazzata 1"
    assert page.locator("[data-contract='no-queens']").inner_text() == IT.contract("No queens")
    assert (
        page.locator("[data-contract='no-king']").inner_text()
        == IT.contract("No King of hearts")
        == "Niente Re di cuori"
    )

    # Trumps in spades, Bruno doubles Anna: the doubles' grid and summary in Italian.
    page.click("[data-contract='trumps']")
    page.wait_for_selector("[data-trump='S']")
    assert page.locator("[data-trump='S']").inner_text() == "♠ Picche"
    page.click("[data-trump='S']")
    page.click(".dbl[data-doubler='1'][data-doubled='0']")
    assert "Bruno contra Anna." in page.locator("#entry .step").inner_text()
    page.click("#doubles-done")
    tricks = ".question[data-key='tricks']"
    page.wait_for_selector(tricks)
    assert page.locator(f"{tricks} .q-label").inner_text() == IT.gettext(TRICKS_LABEL) == "Prese di ogni giocatore"
    for _ in range(5):
        page.click(f"{tricks} [data-step='up'][data-seat='0']")
    assert page.locator(f"{tricks} .left").inner_text() == "ne restano 8 su 13"
    page.click(f"{tricks} [data-step='rest'][data-seat='3']")
    page.wait_for_selector("#preview")
    assert "Questa smazzata vale" in page.locator("#preview").inner_text()
    assert page.locator("#save-deal").inner_text() == "Salva la smazzata 1"
    shot(page, "score-it-preview", full=True)

    # Another device saves first: the refusal comes back in Italian, the entry kept.
    book = page.url.rsplit("/", 1)[1]
    key = page.evaluate(f"localStorage.getItem('barbu:score:key:{book}')")
    post(
        f"{server.base}/api/score/{book}/change",
        {
            "key": key,
            "version": 1,
            "op": "add",
            "entry": {"contract": "no-queens", "doubles": [[1, 0]], "outcome": {"QS": 0, "QH": 1, "QD": 2, "QC": 3}},
        },
    )
    page.click("#save-deal")
    refusal = IT.render(CHANGED_ELSEWHERE, {})
    page.wait_for_function("t => document.querySelector('#entry-error').textContent.includes(t)", arg=refusal)
    assert page.locator("#entry-error").inner_text().startswith("Non salvato: ")
    page.click("#game-notice button")  # Ricarica
    page.wait_for_function("() => document.querySelectorAll('#score-sheet tr.deal').length === 1")
    sheet = page.locator("#score-sheet").inner_text()
    assert IT.contract("No queens") in sheet and "Totale" in sheet and "Bruno ✕ Anna" in sheet
    assert "Stampa (PDF)" in page.locator("#tools").inner_text()
    assert page.get_attribute("#tools a[href$='sheet.pdf?lang=it']", "href")
    shot(page, "score-it-sheet", full=True)

    # Totals written the Italian way.
    made = imported(server, big_besigue())
    page.goto(f"{server.base}/score/{made['id']}#key={made['key']}")
    page.wait_for_selector("#score-sheet tfoot td")
    assert page.locator("#score-sheet tfoot td").first.inner_text() == "10.650"
    page.wait_for_selector("#entry .winner")  # the form follows the sheet: it waits for the server's draft
    assert page.locator("#entry .winner").inner_text() == "Anna vince con 10.650."
    shot(page, "score-it-besigue", full=True)
    assert not errors, errors


def test_the_switcher_turns_the_page_french_and_remembers(server: Server, person: Callable[..., Page]) -> None:
    page, errors = browser_page(person, "en-GB", (1366, 768))
    made = imported(server, big_besigue())
    page.goto(f"{server.base}/score/{made['id']}#key={made['key']}")
    page.wait_for_selector("#score-sheet tfoot td")
    assert page.locator("#score-sheet tfoot td").first.inner_text() == "10,650"
    page.select_option("#lang-select", "fr")
    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    page.wait_for_selector("#score-sheet tfoot td")
    assert page.locator("#sheet-panel h2").inner_text() == "La feuille de marque"
    assert page.locator("#score-sheet tfoot td").all_inner_texts() == ["10\u202f650", "1\u202f350"]
    assert "brisques 5" in page.locator("#score-sheet").inner_text()

    # A new game in French, remembered on the next visit (the cookie), whatever the browser says.
    page.goto(server.base + "/score")
    page.wait_for_selector("#new-names input")
    assert page.locator("#new-panel h2").inner_text() == "Nouvelle partie"
    for i, n in enumerate(NAMES):
        page.locator("#new-names input").nth(i).fill(n)
    page.click("#new-start")
    page.wait_for_url("**/score/*")
    page.wait_for_selector("[data-contract]")
    assert page.locator("[data-contract='no-hearts']").inner_text() == FR.contract("No hearts")
    page.click("[data-contract='no-hearts']")
    page.click("#doubles-done")
    page.wait_for_selector("#preview")
    assert "Non jouée : les points sont partagés" in page.locator("#preview").inner_text()
    page.click("#save-deal")
    page.wait_for_function("() => document.querySelectorAll('#score-sheet tr.deal').length === 1")
    assert "non jouée : partagée" in page.locator("#score-sheet").inner_text()
    assert page.locator("#undo").get_attribute("aria-label") == "Annuler : retirer la donne 1"
    shot(page, "score-fr-laptop", full=True)
    assert not errors, errors


def test_the_trump_suit_in_french_is_named_in_the_singular(server: Server, person: Callable[..., Page]) -> None:
    """« atout pique »: the trump choice names a suit on its own, as the game's "named suit" words do."""
    page, errors = browser_page(person, "fr-FR")
    made = imported(server, new_keeper("classic", NAMES, 0))
    page.goto(f"{server.base}/score/{made['id']}#key={made['key']}")
    page.wait_for_selector("[data-contract='trumps']")
    page.click("[data-contract='trumps']")
    page.wait_for_selector("[data-trump='S']")
    shown = [page.locator(f"[data-trump='{s}']").inner_text() for s in "SHDC"]
    assert shown == ["♠ Pique", "♥ Cœur", "♦ Carreau", "♣ Trèfle"]
    assert [FR.named_suit(s) for s in range(4)] == ["pique", "cœur", "carreau", "trèfle"]
    assert page.locator("#game-rules").inner_text().startswith("Classique · 0 donne sur 28")  # the game in words
    shot(page, "score-fr-trump")
    assert not errors, errors


def test_a_besigue_table_in_french(server: Server, person: Callable[..., Page]) -> None:
    page, errors = browser_page(person, "en-US", (1366, 768))
    page.goto(server.base + "/?lang=fr")  # a link naming the language: remembered like the switcher's choice
    page.select_option("#play-game", "besigue")
    page.click("#play-computer")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#bz-hand .card")
    assert page.get_attribute("html", "lang") == "fr"
    page.wait_for_function("() => document.querySelector('#bz-turn').textContent.length > 0")
    reference = page.locator("#reference").inner_text()
    assert "Quinte majeure" in reference and "Double bésigue" in reference and "quatre quelconques" in reference
    assert "D♠ V♦" in reference  # the bésigue's cards as a French player names them
    assert page.locator("#target").inner_text() == "en 1\u202f000"
    assert page.locator("#bz-score h2").first.inner_text().startswith("Scores")
    assert page.locator(".bz-trump").inner_text().startswith("Atout")
    assert "talon" in page.locator("#stock").inner_text()
    assert "cette donne" in page.locator("#player-bottom").inner_text()
    assert page.locator("#conn").inner_text() == "connecté"
    assert page.locator("#rules-link").inner_text() == "Règles"
    shot(page, "besigue-fr")
    assert not errors, errors


def test_a_besigue_deal_to_its_end_in_italian_on_a_phone(server: Server, person: Callable[..., Page]) -> None:
    """A whole deal against the computer in Italian on a phone: the table still fits, declarations and the
    deal's summary in Italian."""
    from test_web_besigue_browser import MY_TURN, click_and_wait, fits

    page, errors = browser_page(person, "it-IT")
    page.goto(server.base + "/")
    page.select_option("#play-game", "besigue")
    page.click("#play-computer")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#bz-hand .card")
    page.wait_for_function(MY_TURN)
    assert page.get_attribute("html", "lang") == "it"
    fits(page)
    assert "tallone" in page.locator("#stock").inner_text()
    choice = "#bz-decision button, #bz-hand button.card.legal, #laid-bottom button.card.legal"
    for _ in range(200):
        # the deal's end, or something to choose (the turn comes a moment before its choices are drawn)
        page.wait_for_function(
            "sel => !document.querySelector('#deal-end').hidden || !!document.querySelector(sel)", arg=choice
        )
        if page.locator("#deal-end").is_visible():
            break
        if page.locator("#bz-decision button.bz-declare").count():
            assert page.locator("#bz-decision button.bz-none").inner_text() == "Non dichiarare nulla"
            fits(page)
            shot(page, "besigue-it-declare")
        buttons = page.locator("#bz-decision button")
        target = (
            buttons.first
            if buttons.count()
            else page.locator("#bz-hand button.card.legal, #laid-bottom button.card.legal").first
        )
        click_and_wait(page, target)
    text = page.locator("#deal-end").inner_text()
    assert "Fine della smazzata 1" in text and "Brisque" in text and "Ultima presa" in text and "Totale" in text
    fits(page)
    shot(page, "besigue-it-deal-end")
    assert not errors, errors
