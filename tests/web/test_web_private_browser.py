"""A private table in the browser: created from the lobby, its invitation link (the secret after "#") shown
to its creator, a stranger without it kept from the seats, a friend seated with it, and the creator's
"Remove" button sending that friend back to watching.  Playwright drives Debian's chromium against a real
`barbu serve`; BARBU_SHOTS names a folder for screenshots at 1366x768 and 390x844."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest
from playwright.sync_api import Browser, Page

from webhelpers import Server

SHOTS = Path(os.environ["BARBU_SHOTS"]) if os.environ.get("BARBU_SHOTS") else None
LAPTOP, PHONE = {"width": 1366, "height": 768}, {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    d = tmp_path_factory.mktemp("private")
    with Server(f"sqlite:///{d / 'web.db'}", d / "server.log", "--bot-delay", "0", "--grace", "1000") as s:
        yield s


def person(browser: Browser, viewport: dict[str, int], lang: str = "en-GB") -> Page:
    """A page in a context of its own: its own storage, like another person's browser."""
    page = browser.new_context(viewport=viewport, locale=lang).new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def shot(page: Page, name: str) -> None:
    if SHOTS is not None:
        size = page.viewport_size or {}
        page.screenshot(path=str(SHOTS / f"private-{name}-{size.get('width')}x{size.get('height')}.png"))


def take(page: Page, seat: int, name: str) -> None:
    page.fill("#name", name)
    page.click(f"[data-seat-take='{seat}']")
    page.wait_for_function("s => document.querySelector('#table').dataset.seat === s", arg=str(seat))


def test_a_private_table_from_invitation_to_removal(server: Server, browser: Browser) -> None:
    host = person(browser, LAPTOP)
    host.goto(server.base + "/")
    host.wait_for_selector("#preset option", state="attached")
    host.check("#private")
    host.click("#create-button")
    host.wait_for_url("**/t/*#invite=*")
    tid = host.url.split("/t/")[1].split("#")[0]
    secret = host.url.split("#invite=")[1]
    assert len(secret) >= 20
    take(host, 0, "Host")
    host.click("#invite")
    link = host.input_value("#invite-link")
    assert link == f"{server.base}/t/{tid}#invite={secret}"  # the creator sees the link with its fragment
    shot(host, "invitation")

    # The lobby lists it nowhere; its form offers the choice.
    for size in (LAPTOP, PHONE):
        lobby = person(browser, size)
        lobby.goto(server.base + "/")
        lobby.wait_for_selector("#tables p, #tables .table-row")
        assert lobby.locator(f"[data-table='{tid}']").count() == 0
        lobby.check("#private")
        lobby.locator("#private").scroll_into_view_if_needed()
        shot(lobby, "lobby")

    # A stranger who has only the table's address sees its seats but may take none.
    stranger = person(browser, PHONE)
    stranger.goto(f"{server.base}/t/{tid}")
    stranger.wait_for_selector("[data-seat-private='1']")
    assert stranger.locator("[data-seat-take]").count() == 0
    shot(stranger, "stranger")

    # A friend opens the invitation link on a phone and sits.
    friend = person(browser, PHONE, "fr-FR")
    friend.goto(link)
    friend.wait_for_selector("[data-seat-take='1']")
    take(friend, 1, "Amie")

    # The creator sees "Remove" on her seat (not on his own), and uses it.
    host.wait_for_selector("[data-seat-remove='1']")
    assert host.locator("[data-seat-remove='0']").count() == 0
    assert friend.locator("[data-seat-remove]").count() == 0  # only the creator has the button
    shot(host, "remove")
    host.click("[data-seat-remove='1']")
    friend.wait_for_function("() => document.querySelector('#table').dataset.seat === ''")
    friend.wait_for_selector("#error:not([hidden])")
    told = friend.text_content("#error") or ""
    assert "retiré" in told, told  # in her language
    shot(friend, "removed")
    host.wait_for_selector("[data-seat-row='1'] [data-seat-bot='1']")  # the seat is free again
    for page in (host, lobby, stranger, friend):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()
