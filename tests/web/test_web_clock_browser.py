"""The clock in the browser: the countdown on the acting seat's box and on the player's own line, clear when
it runs low, the notice when the computer played, and "I'm back" — on a laptop and a phone, in English,
French and Italian.  Playwright drives Debian's chromium against a real `barbu serve`.

With ``BARBU_SHOTS=/some/folder`` the pictures are kept there (``clock-*.png``) to be looked at.
"""

from __future__ import annotations

import json
import re
from typing import Callable

import pytest
from playwright.sync_api import Page
from webhelpers import PHONE, Server, http
from webhelpers import shot as take_shot

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
LAPTOP = (1366, 768)


def table_with(base: str, rules: str, clock: str, humans: int) -> tuple[str, dict[int, str]]:
    """A table with this clock, people in the first ``humans`` seats and computer players in the others."""
    status, data = http("POST", base + "/api/tables", {"rules": rules, "clock": clock})
    assert status == 201, data
    tid, creator, n = data["id"], data["creator"], data["table"]["players"]
    tokens = {}
    for seat in range(humans):
        status, got = http("POST", f"{base}/api/tables/{tid}/seats", {"seat": seat, "name": ["Ann", "Bob"][seat]})
        assert status == 200, got
        tokens[seat] = got["token"]
    for seat in range(humans, n):
        status, got = http(
            "POST", f"{base}/api/tables/{tid}/bots", {"seat": seat, "strength": "rule", "token": creator}
        )
        assert status == 200, got
    return tid, tokens


def seated_page(
    person: Callable[..., Page], base: str, tid: str, seat: int, token: str, size: tuple[int, int], lang: str = "en"
) -> Page:
    page = person(size, lang, timeout=60_000)
    page.context.add_init_script(
        f"localStorage.setItem('barbu:seat:{tid}', {json.dumps(json.dumps({'token': token, 'seat': seat}))});"
    )
    page.goto(f"{base}/t/{tid}")
    return page


def shot(page: Page, name: str) -> None:
    take_shot(page, f"clock-{name}")


@pytest.mark.parametrize("size,lang", [(LAPTOP, "en"), (PHONE, "fr"), (LAPTOP, "it")])
def test_the_countdown_then_the_computer_plays_then_im_back(
    person: Callable[..., Page], server: Server, size: tuple[int, int], lang: str
) -> None:
    tid, tokens = table_with(server.base, "classic", "6+3", humans=1)
    page = seated_page(person, server.base, tid, 0, tokens[0], size, lang)
    # Ann's turn: her box counts down, and so does her own line above her hand.
    page.wait_for_selector("[data-seat-box='0'] .chip.clock.running")
    chip = page.inner_text("[data-seat-box='0'] .chip.clock")
    assert re.search(r"0:0\d", chip), chip
    mine = page.inner_text("#my-clock")
    words = {"en": "Your time", "fr": "Votre temps", "it": "Il tuo tempo"}[lang]
    assert words in mine, mine
    for other in (1, 2, 3):  # computer players: no clock on their boxes
        assert page.locator(f"[data-seat-box='{other}'] .chip.clock").count() == 0
    shot(page, f"ample-{lang}")
    # The move's time spent: the bank runs, then the last seconds are shown clearly.
    page.wait_for_selector("[data-seat-box='0'] .chip.clock.banking")
    page.wait_for_selector("#my-clock.low")
    shot(page, f"low-{lang}")
    # Out of time: the computer plays for her, and she is told in her language.
    ran_out = {"en": "Your time ran out", "fr": "Votre temps est écoulé", "it": "Il tuo tempo è scaduto"}[lang]
    page.wait_for_function("w => document.querySelector('#error').textContent.includes(w)", arg=ran_out)
    # A second time in a row: the computer plays for her until she is back.
    page.wait_for_selector("#clock-back")
    assert page.locator("[data-seat-box='0'] .chip.off").count() == 1
    shot(page, f"away-{lang}")
    page.click("#clock-back")
    page.wait_for_selector("#clock-back", state="detached")
    assert page.locator("[data-seat-box='0'] .chip.off").count() == 0
    assert not page.errors, page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_bésigue_shows_both_clocks(person: Callable[..., Page], server: Server) -> None:
    tid, tokens = table_with(server.base, "besigue", "normal", humans=2)
    ann = seated_page(person, server.base, tid, 0, tokens[0], LAPTOP)
    bob = seated_page(person, server.base, tid, 1, tokens[1], PHONE, "it")
    for page in (ann, bob):
        page.wait_for_selector("#player-top .chip.clock")
        page.wait_for_selector("#player-bottom .chip.clock")
        page.wait_for_selector(".chip.clock.running")
    acting = ann if ann.locator("#player-bottom .chip.clock.running").count() else bob
    assert acting.locator("#my-clock").is_visible()
    shot(ann, "besigue")
    shot(bob, "besigue")
    for page in (ann, bob):
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        page.context.close()


def test_the_lobby_offers_the_clocks(person: Callable[..., Page], server: Server) -> None:
    page = person(LAPTOP, "fr")
    page.goto(server.base + "/")
    assert page.input_value("#clock") == "normal"
    assert "25 secondes par coup" in page.inner_text("#clock-description")
    page.select_option("#clock", "quick")
    assert "10 secondes par coup" in page.inner_text("#clock-description")
    page.wait_for_selector("#preset option", state="attached")
    page.click("#create-button")
    page.wait_for_url("**/t/*")
    tid = page.url.rsplit("/", 1)[1]
    status, data = http("GET", f"{server.base}/api/tables/{tid}")
    assert status == 200 and data["table"]["clock"]["text"] == "10+60", data
    page.context.close()
