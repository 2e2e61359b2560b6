"""The lobby's "My tables" in the browser (issue 30): a match against the computer shows there, is resumed from
there and ended after a confirmation, which frees the per-address limit whose message points there; a table
with other people offers Leave instead.  Playwright drives Debian's chromium against a real `barbu serve`;
BARBU_SHOTS names a folder for screenshots of the lobby at 1366x768 and 390x844, in English, French and Italian."""

from __future__ import annotations

from typing import Any, Callable

import pytest
from helpers import shots_on
from playwright.sync_api import Page, expect
from webhelpers import PHONE, Server, http
from webhelpers import shot as take_shot

pytestmark = pytest.mark.browser
LAPTOP = (1366, 768)


@pytest.fixture
def server(serve: Any) -> Server:
    """A server of each test's own: the test fills its limit of tables with computer players per address."""
    return serve("--bot-delay", "0", "--grace", "1000", "--bot-tables-per-address", "3", "--tables-per-hour", "0")


def shot(page: Page, name: str) -> None:
    take_shot(page, f"mytables-{name}", full_page=True)


def table_with_a_friend(base: str) -> dict[str, Any]:
    """A listed table where Ann (this browser) and Bob play with two computer players: credentials for Ann."""
    status, made = http("POST", base + "/api/tables", {"rules": "italian"})
    assert status == 201, made
    tid = made["id"]
    _, ann = http("POST", f"{base}/api/tables/{tid}/seats", {"seat": 0, "name": "Ann"})
    http("POST", f"{base}/api/tables/{tid}/seats", {"seat": 1, "name": "Bob", "creator": made["creator"]})
    for n in (2, 3):
        http("POST", f"{base}/api/tables/{tid}/bots", {"seat": n, "strength": "rule", "token": made["creator"]})
    return {"id": tid, "token": ann["token"], "creator": made["creator"]}


def play_against_the_computer(page: Page, base: str) -> str:
    page.click("#play-computer")
    page.wait_for_url("**/t/*")
    page.wait_for_function(
        "() => document.querySelector('#table') && document.querySelector('#table').dataset.seat === '0'"
    )
    tid = page.url.split("/t/")[1]
    page.goto(base + "/")
    return tid


@pytest.mark.slow
@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_my_tables_resume_end_and_the_limit(
    server: Server, person: Callable[..., Page], viewport: tuple[int, int]
) -> None:
    base = server.base
    page = person(viewport)
    page.goto(base + "/")
    page.wait_for_selector("#preset option", state="attached")
    expect(page.locator("#mine-panel")).to_be_hidden()  # nothing of this browser's yet

    first = play_against_the_computer(page, base)
    row = page.locator(f"[data-mine='{first}']")
    expect(row).to_contain_text("Classic")
    expect(row).to_contain_text("deal 1 of 28")
    expect(row).to_contain_text("(you)")
    expect(row.locator("[data-mine-leave]")).to_have_count(0)  # nobody else plays there: End, not Leave

    # Resume: the table opens at this browser's seat.
    row.locator("[data-mine-resume]").click()
    page.wait_for_url(f"**/t/{first}")
    page.wait_for_function("() => document.querySelector('#table').dataset.seat === '0'")
    page.goto(base + "/")

    # A table with another person offers Leave; its credentials are this browser's as a seat taken there would be.
    friend = table_with_a_friend(base)
    page.evaluate(
        """f => { localStorage.setItem(`barbu:seat:${f.id}`, JSON.stringify({token: f.token, seat: 0, name: "Ann"}));
                           localStorage.setItem(`barbu:creator:${f.id}`, f.creator); }""",
        friend,
    )
    second = play_against_the_computer(page, base)
    expect(page.locator(f"[data-mine='{friend['id']}'] [data-mine-leave]")).to_be_visible()
    expect(page.locator("[data-mine]")).to_have_count(3)

    # The limit of three tables with computer players (Bob's table counts: its creator seated them): the message
    # points to My tables.
    page.click("#play-computer")
    expect(page.locator("#play-error")).to_contain_text("3 tables with computer players")
    expect(page.locator("#play-error .mine-link")).to_have_text("See My tables")
    expect(page.locator("#mine-panel")).to_have_class("panel pointed")
    shot(page, "limit-en")
    if shots_on():
        for lang in ("en", "fr", "it"):
            page.goto(f"{base}/?lang={lang}")
            page.wait_for_selector(f"[data-mine='{second}']")
            shot(page, lang)
            page.locator(f"[data-mine='{friend['id']}'] [data-mine-leave]").click()
            shot(page, f"leave-{lang}")
        page.goto(f"{base}/?lang=en")

    # End, after a confirmation that says what it does; Cancel first changes nothing.
    row = page.locator(f"[data-mine='{first}']")
    row.locator("[data-mine-end]").click()
    expect(row.locator(".mine-confirm")).to_contain_text("No deal has been finished")
    row.locator("[data-mine-cancel]").click()
    expect(row.locator("[data-mine-end]")).to_be_visible()
    row.locator("[data-mine-end]").click()
    row.locator("[data-mine-yes]").click()
    expect(page.locator(f"[data-mine='{first}']")).to_have_count(0)
    expect(page.locator("#mine-note")).to_have_text("The table is closed.")
    assert http("GET", f"{base}/api/tables/{first}")[0] == 404

    # The limit has room again.
    page.click("#play-computer")
    page.wait_for_url("**/t/*")
    assert not page.errors  # type: ignore[attr-defined]
