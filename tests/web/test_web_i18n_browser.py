"""The browser table in French and Italian, end to end (Playwright, Debian's chromium, a real `barbu serve`).

A deal played in Italian with the screen's words checked (contract names, a refusal, the
scoresheet's numbers); a table mixing a French and an Italian player, each reading their
own words and refusals; the browser's language by default, and the switcher's choice
remembered across reloads and visits.
"""

from __future__ import annotations

import json
import random
import time
from typing import Callable

import pytest
from babel.numbers import format_decimal
from playwright.sync_api import Page
from test_web_browser import attr, hand, my_turn, play_one, take_seat
from webhelpers import PHONE, Server, http, new_table
from websockets.sync.client import connect as ws_connect

from barbu.classic.refusals import FOLLOW_SUIT
from barbu.core.words import SUITS
from barbu.i18n import translator

pytestmark = pytest.mark.browser
SERVE = ("--bot-delay", "0", "--deal-pause", "0", "--grace", "1000")


def page_in(person: Callable[..., Page], locale: str, phone: bool = False) -> Page:
    """A page of a browser set to ``locale`` (its Accept-Language and Intl), in its own context."""
    return person(PHONE if phone else (1366, 768), locale)


def try_a_wrong_suit(page: Page, lang: str) -> bool:
    """When following a trick holding its suit, click another suit's card: the server's refusal, in ``lang``."""
    if attr(page, "phase") != "play" or not my_turn(page):
        return False
    trick = (page.get_attribute("#center .trick", "data-trick") or "").split()
    if not trick or page.query_selector("#center .trick.faded"):
        return False
    led = trick[0][1]
    cards = hand(page)
    off = [c for c in cards if c[1] != led]
    if not off or not any(c[1] == led for c in cards):
        return False
    version = attr(page, "version")
    page.click(f"#hand .card[data-card='{off[0]}']")
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error") == translator(lang).render(FOLLOW_SUIT, {"suit": SUITS.index(led)})
    assert attr(page, "version") == version  # refused: nothing moved
    return True


def public_scores(server: Server, tid: str) -> dict:
    """The scoresheet a spectator is sent (the server's numbers, before any page formats them)."""
    with ws_connect(f"{server.ws_base}/ws/{tid}") as ws:
        ws.send(json.dumps({"type": "hello"}))
        while True:
            msg = json.loads(ws.recv(timeout=10))
            if msg["type"] == "sync":
                return msg["scores"]


def test_a_deal_played_in_italian(server: Server, person: Callable[..., Page]) -> None:
    it = translator("it")
    tid, _ = new_table(server.base, "classic", bots={1: "random", 2: "random", 3: "random"})
    page = page_in(person, "it-IT")
    page.goto(f"{server.base}/t/{tid}")
    assert page.get_attribute("html", "lang") == "it"
    assert (
        page.inner_text("#seats-panel h2") == "Posti"
        and page.inner_text("[data-seat-take='0']") == "Prendi questo posto"
    )
    take_seat(page, server.base, tid, 0, "Giulia")
    contracts = {c["key"]: c["name"] for c in http("GET", f"{server.base}/api/tables/{tid}")[1]["table"]["contracts"]}
    rng = random.Random(7)
    refused = named = False
    deadline = time.monotonic() + 240
    while not (refused and attr(page, "deal") not in ("", "1")) and time.monotonic() < deadline:
        if not my_turn(page):
            time.sleep(0.05)
            continue
        assert page.inner_text("#turn").startswith("Tocca a te: ")
        if attr(page, "phase") == "declare" and not named:
            shown = {
                b.get_attribute("data-action")[9:]: b.inner_text()
                for b in page.query_selector_all("#decision button[data-action^='contract ']")
            }
            # When this seat declares: the contracts it may choose, by their Italian names.
            assert shown and shown == {k: it.contract(contracts[k]) for k in shown}
            assert "Niente donne" in shown.values() or "Niente prese" in shown.values()
            named = True
        if not refused and try_a_wrong_suit(page, "it"):
            refused = True
            label = page.inner_text("#seat-boxes .center-label")  # the contract played, in Italian
            assert any(label.startswith(it.contract(n)) for n in contracts.values()), label
            continue
        play_one(page, rng)
    assert refused, "no deal gave a chance to follow suit"
    page.wait_for_function("() => document.querySelectorAll('#sheet tbody tr.deal-row').length >= 1")
    row = page.query_selector("#sheet tr.deal-row")
    assert it.contract(contracts[row.get_attribute("data-contract")]) in row.inner_text()
    assert page.inner_text("#sheet thead th.what") == "Mazziere · contratto"
    assert page.inner_text("#deal-counter").startswith("smazzata ")
    scores = public_scores(server, tid)
    totals = [c.inner_text() for c in page.query_selector_all("#sheet tfoot th.num")]
    assert totals == [format_decimal(int(x), locale="it") for x in scores["totals"]]
    assert page.evaluate("import('/static/js/i18n.js').then(m => [m.num(-1250), m.num(1234567)])") == [
        "-1.250",
        "1.234.567",
    ]
    assert not page.errors


def test_a_table_mixing_a_french_and_an_italian_player(server: Server, person: Callable[..., Page]) -> None:
    tid, _ = new_table(server.base, "classic", bots={2: "random", 3: "random"})
    pages = {"fr": page_in(person, "fr-FR"), "it": page_in(person, "it-IT", phone=True)}
    take_seat(pages["fr"], server.base, tid, 0, "Amélie")
    take_seat(pages["it"], server.base, tid, 1, "Bruno")
    for lang, page in pages.items():
        page.wait_for_selector("#hand .card")  # dealt (a computer dealer may have declared already)
        assert page.get_attribute("html", "lang") == lang
        scorer = page.inner_text("#scoresheet h2")
        assert scorer == {"fr": "Feuille de marque", "it": "Segnapunti"}[lang]
    assert "Amélie (vous)" in pages["fr"].inner_text("#seat-boxes")
    assert "Bruno (tu)" in pages["it"].inner_text("#seat-boxes")
    rng = random.Random(3)
    refused: set[str] = set()
    deadline = time.monotonic() + 240
    while len(refused) < 2 and time.monotonic() < deadline:
        acted = False
        for lang, page in pages.items():
            if my_turn(page):
                if lang not in refused and try_a_wrong_suit(page, lang):
                    refused.add(lang)
                play_one(page, rng)
                acted = True
        if not acted:
            time.sleep(0.05)
    assert refused == {"fr", "it"}, refused
    for page in pages.values():
        assert not page.errors


def test_the_switcher_is_remembered_across_reloads_and_visits(server: Server, person: Callable[..., Page]) -> None:
    page = page_in(person, "en-US")
    page.goto(server.base + "/")
    assert (
        page.get_attribute("html", "lang") == "en" and page.inner_text("#play-computer") == "Play against the computer"
    )
    with page.expect_navigation():
        page.select_option("#lang-select", "it")
    assert (
        page.get_attribute("html", "lang") == "it" and page.inner_text("#play-computer") == "Gioca contro il computer"
    )
    cookie = next(c for c in page.context.cookies() if c["name"] == "barbu_lang")
    assert cookie["value"] == "it" and cookie["expires"] > time.time() + 360 * 24 * 3600
    page.reload()
    assert page.get_attribute("html", "lang") == "it"
    page.goto(server.base + "/rules")  # another page of the site, the same choice
    assert page.get_attribute("html", "lang") == "it" and page.is_visible("#lang-select")
    # The cookie lost, the language kept in the browser's storage is set again.
    page.context.clear_cookies()
    with page.expect_navigation():
        page.goto(server.base + "/")
    page.wait_for_function("() => document.documentElement.lang === 'it'")
    assert page.inner_text("#play-computer") == "Gioca contro il computer"
    # The switcher keeps the table and the hand in sight on a phone: one line of the header, no more.
    phone = page_in(person, "fr-FR", phone=True)
    tid, _ = new_table(server.base, "classic", bots={1: "random", 2: "random", 3: "random"})
    take_seat(phone, server.base, tid, 0, "Chloé")
    phone.wait_for_selector("#hand .card")
    box = phone.eval_on_selector("#lang-select", "e => e.getBoundingClientRect().toJSON()")
    assert (
        0 <= box["left"]
        and box["right"] <= 390
        and box["bottom"] <= phone.eval_on_selector(".topbar", "e => e.getBoundingClientRect().bottom")
    )
    assert not page.errors and not phone.errors
