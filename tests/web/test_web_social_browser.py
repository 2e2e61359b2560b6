"""Friends in chromium: two players follow each other, each sees the other online on his friends page; one sits
down at a table and the other sees him "playing" with a link to watch it, told live over the account channel.  The
live tables page and a profile's Follow and Block buttons are looked at too.  Screenshots (BARBU_SHOTS=folder) at
1366x768 and 390x844, in English and French or Italian."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from test_web_moderation import Person, unique
from webhelpers import PHONE, shot

pytestmark = pytest.mark.browser
SERVE = ("--signups-per-hour", "0", "--bot-delay", "0", "--tables-per-hour", "0", "--seats-per-address", "0")
LAPTOP = (1366, 768)


def logged_in(page: Page, server: Any, who: Person) -> Page:
    page.context.add_cookies(
        [{"name": "barbu_session", "value": who.c.cookies.get("barbu_session"), "url": server.base}]
    )
    return page


def test_two_friends_see_each_other_online_then_playing_with_a_watch_link(server: Any, person: Any) -> None:
    anna, bruno = Person(server.base, unique("Anna")), Person(server.base, unique("Bruno"))
    assert anna.post("/api/friends/follow", {"name": bruno.name}).status_code == 200
    assert bruno.post("/api/friends/follow", {"name": anna.name}).status_code == 200
    a = logged_in(person(LAPTOP, "en-GB"), server, anna)
    b = logged_in(person(PHONE, "fr-FR", touch=True), server, bruno)
    a.goto(f"{server.base}/friends")
    expect(a.locator("#account-friends")).to_be_visible()  # the header's link, for an account
    b.goto(f"{server.base}/friends")
    row_a = a.locator(f'#following li[data-player="{bruno.name}"]')
    row_b = b.locator(f'#following li[data-player="{anna.name}"]')
    expect(row_b).to_have_attribute("data-state", "online")  # read when his page loaded
    expect(row_a).to_have_attribute("data-state", "online")  # told live when Bruno's page opened
    expect(row_b.locator(".presence")).to_have_text("en ligne")
    expect(b.locator("#followers-count")).to_have_text("1 joueur vous suit")
    shot(a, "friends-online-en")
    shot(b, "friends-online-fr")

    r = bruno.post("/api/tables", {"rules": "classic"})
    tid = r.json()["id"]
    assert bruno.post(f"/api/tables/{tid}/seats", {"seat": 0, "name": bruno.name}).status_code == 200
    expect(row_a).to_have_attribute("data-state", "playing")
    expect(row_a.locator(".presence")).to_have_text("playing")
    expect(row_a.locator("a.watch")).to_have_attribute("href", f"/t/{tid}")
    expect(row_a.locator("a.watch")).to_be_visible()
    shot(a, "friends-playing-en")

    # his profile: the followers count and the buttons; the live tables page
    a.goto(f"{server.base}/u/{bruno.name}")
    expect(a.locator("#followers-count")).to_have_text("1 follower")
    expect(a.locator("#follow-button")).to_have_text("Unfollow")
    expect(a.locator("#block-button")).to_have_text("Block")
    shot(a, "profile-social-en")
    b.goto(f"{server.base}/live")
    expect(b.locator("#live")).to_have_attribute("data-loaded", "1")
    shot(b, "live-tables-fr")
