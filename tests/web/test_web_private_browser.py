"""A private table in the browser: created from the lobby, its invitation link (the secret after "#") shown
to its creator, a stranger without it kept from the seats, a friend seated with it, and the creator's
"Remove" button sending that friend back to watching.  Playwright drives Debian's chromium against a real
`barbu serve`; BARBU_SHOTS names a folder for screenshots at 1366x768 and 390x844."""

from __future__ import annotations

from typing import Callable

import pytest
from playwright.sync_api import Page
from webhelpers import PHONE, Server
from webhelpers import shot as take_shot

pytestmark = pytest.mark.browser
SERVE = ("--bot-delay", "0", "--grace", "1000")
LAPTOP = (1366, 768)


def shot(page: Page, name: str) -> None:
    take_shot(page, f"private-{name}")


def take(page: Page, seat: int, name: str) -> None:
    page.fill("#name", name)
    page.click(f"[data-seat-take='{seat}']")
    page.wait_for_function("s => document.querySelector('#table').dataset.seat === s", arg=str(seat))


def test_a_private_table_from_invitation_to_removal(server: Server, person: Callable[..., Page]) -> None:
    host = person(LAPTOP)
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
        lobby = person(size)
        lobby.goto(server.base + "/")
        lobby.wait_for_selector("#tables p, #tables .table-row")
        assert lobby.locator(f"[data-table='{tid}']").count() == 0
        lobby.check("#private")
        lobby.locator("#private").scroll_into_view_if_needed()
        shot(lobby, "lobby")

    # A stranger who has only the table's address sees its seats but may take none.
    stranger = person(PHONE)
    stranger.goto(f"{server.base}/t/{tid}")
    stranger.wait_for_selector("[data-seat-private='1']")
    assert stranger.locator("[data-seat-take]").count() == 0
    shot(stranger, "stranger")

    # A friend opens the invitation link on a phone and sits.
    friend = person(PHONE, "fr-FR")
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
