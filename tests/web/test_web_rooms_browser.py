"""A club's chat room in chromium: two members in two languages (English on a laptop, Italian on a phone) read each
other's quick phrase in their own words; free text comes back as text, never markup, and a link in it is a link
("nofollow ugc") only from the member with history; a logged-in visitor who is not a member sees no chat at all.
Screenshots (BARBU_SHOTS=folder) at 1366x768 and 390x844."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select
from test_web_moderation import Person, unique
from webhelpers import PHONE, shot

from barbu.web.accounts import store as accounts
from barbu.web.db.storage import make_engine, now
from barbu.web.moderation.service import HISTORY_DAYS, HISTORY_MATCHES

pytestmark = pytest.mark.browser
SERVE = ("--signups-per-hour", "0", "--clubs-per-day", "0")
LAPTOP = (1366, 768)


def logged_in(page: Page, server: Any, who: Person) -> Page:
    page.context.add_cookies(
        [{"name": "barbu_session", "value": who.c.cookies.get("barbu_session"), "url": server.base}]
    )
    return page


def with_history(server: Any, name: str) -> None:
    """An account a week old with five finished matches: its links are clickable."""
    engine = make_engine(server.db)
    with engine.begin() as conn:
        uid = conn.execute(select(accounts.USERS.c.id).where(accounts.USERS.c.name == name)).scalar_one()
        old = now() - timedelta(days=HISTORY_DAYS, hours=1)
        conn.execute(accounts.USERS.update().where(accounts.USERS.c.id == uid).values(created_at=old))
        for _ in range(HISTORY_MATCHES):
            row = dict(table_id=secrets.token_hex(8), seat=0, user_id=uid, name=name, kind="human", game="barbu")
            row |= dict(rules="classic", players=4, place=1, points=0, finished_at=now(), left=False, rated=False)
            conn.execute(accounts.RESULTS.insert().values(**row))
    engine.dispose()


def test_two_members_in_two_languages_links_only_from_history_and_a_stranger_sees_nothing(
    server: Any, person: Any
) -> None:
    anna, bruno, nosy = (Person(server.base, unique(n)) for n in ("Anna", "Bruno", "Nosy"))
    r = anna.post("/api/clubs", {"name": unique("Jeudis "), "public": True})
    assert r.status_code == 201, r.text
    slug = r.json()["club"]["slug"]
    key = anna.post(f"/api/clubs/{slug}/invites", {"hours": 24}).json()["key"]
    assert bruno.post("/api/clubs/join", {"key": key}).status_code == 200
    assert anna.name is not None
    with_history(server, anna.name)

    a = logged_in(person(LAPTOP, "en-GB"), server, anna)
    b = logged_in(person(PHONE, "it-IT", touch=True), server, bruno)
    n = logged_in(person(LAPTOP, "fr-FR"), server, nosy)
    for page in (a, b, n):
        page.goto(f"{server.base}/c/{slug}")
    for page in (a, b):
        expect(page.locator("#room-chat")).to_be_visible()
    expect(n.locator("#members-panel")).to_be_visible()  # the club's public page, and no chat for a stranger
    expect(n.locator("#room-chat")).to_be_hidden()

    a.locator("#room-chat .chat-phrase[data-phrase=gg]").click()
    expect(b.locator("#room-chat-list .chat-line[data-phrase=gg] .chat-words")).to_have_text("Ben giocato")
    expect(a.locator("#room-chat-list .chat-line[data-phrase=gg] .chat-words")).to_have_text("Well played")

    for page in (a, b):
        page.locator("#room-chat-free").check()
    a.locator("#room-chat-text").fill("rules at https://example.org/rules. <b>bold</b>")
    a.locator("#room-chat-send").click()
    link = b.locator("#room-chat-list .chat-line .chat-words a")
    expect(link).to_have_attribute("href", "https://example.org/rules")
    expect(link).to_have_attribute("rel", "nofollow ugc noopener")
    expect(link).to_have_attribute("target", "_blank")
    expect(b.locator("#room-chat-list .chat-words").last).to_have_text(
        "rules at https://example.org/rules. <b>bold</b>"
    )
    expect(b.locator("#room-chat-list b")).to_have_count(0)  # markup stays words

    b.locator("#room-chat-text").fill("vedi https://example.org/spam")
    b.locator("#room-chat-send").click()
    expect(a.locator("#room-chat-list .chat-words").last).to_have_text("vedi https://example.org/spam")
    expect(a.locator("#room-chat-list .chat-words").last.locator("a")).to_have_count(0)  # no history: no link
    shot(a, "room-club-en")
    b.locator("#room-chat").scroll_into_view_if_needed()
    shot(b, "room-club-it")
