"""Notifications in the browser (chromium, a real `barbu serve`): a player reading a French page sees the bell's
count appear the moment a moderator warns her (over the account channel, no reload), opens the bell's list and
the /notifications page, each notice in her language, and marks them read.

With BARBU_SHOTS=/some/folder, the page and the bell's list at laptop and phone sizes in English, French and
Italian go there.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select
from test_web_a11y import violations
from test_web_moderation import Person, unique, users
from webhelpers import PHONE
from webhelpers import shot as take_shot

from barbu.web.accounts.store import USERS
from barbu.web.db.storage import make_engine

pytestmark = pytest.mark.browser
SERVE = ("--signups-per-hour", "0", "--bot-delay", "0")
LAPTOP = (1366, 768)
JS = Path(__file__).resolve().parents[2] / "src" / "barbu" / "web" / "static" / "js"


def as_person(page: Page, server: Any, who: Person) -> Page:
    token = who.c.cookies.get("barbu_session")
    page.context.add_cookies([{"name": "barbu_session", "value": token, "url": server.base}])
    return page


def account_id(server: Any, name: str) -> int:
    engine = make_engine(server.db)
    try:
        with engine.connect() as conn:
            return int(conn.execute(select(USERS.c.id).where(USERS.c.name == name)).scalar_one())
    finally:
        engine.dispose()


def warn(mod: Person, target: int, reason: str) -> None:
    r = mod.post("/api/moderation/act", {"action": "warn", "kind": "player", "target": str(target), "reason": reason})
    assert r.status_code == 200, r.text


def test_the_bells_count_appears_live_and_the_list_speaks_french(server: Any, person: Any) -> None:
    mona, rita = Person(server.base, unique("Mona")), Person(server.base, unique("Rita"))
    assert users(server, "role", mona.name or "", "moderator") == 0
    rid = account_id(server, rita.name or "")
    if not any("/ws/me" in f.read_text(encoding="utf-8") for f in JS.glob("*.js")):
        pytest.skip("no page opens the account channel (/ws/me) in this tree yet")
    page = as_person(person(LAPTOP, lang="fr-FR"), server, rita)
    welcomed: list[bool] = []

    def channel(ws: Any) -> None:  # the page's account channel: its welcome says it is open
        if ws.url.endswith("/ws/me"):
            ws.on("framereceived", lambda frame: welcomed.append(True) if "welcome" in str(frame) else None)

    page.on("websocket", channel)
    page.goto(f"{server.base}/")
    bell = page.locator("#notice-bell")
    expect(bell).to_be_visible()
    expect(page.locator("#notice-count")).to_be_hidden()  # nothing yet
    stop = time.monotonic() + 30
    while not welcomed:  # a wait for the channel to open, never a measure of speed
        assert time.monotonic() < stop, "the account channel did not open"
        page.wait_for_timeout(50)
    warn(mona, rid, "soyez courtoise")
    expect(page.locator("#notice-count")).to_have_text("1")  # live: no reload
    bell.click()
    menu = page.locator("#notice-menu")
    expect(menu).to_be_visible()
    expect(menu.locator(".notice-item.unread")).to_contain_text("Un mot d'un modérateur")
    take_shot(page, "notices-bell-fr")
    page.locator("#notice-menu a[href='/notifications']").click()
    expect(page.locator("#notices-list .notice-item")).to_have_count(1)
    expect(page.locator("#notices-list")).to_contain_text("Un modérateur vous a écrit")
    page.locator("#notices-all-read").click()
    expect(page.locator("#notice-count")).to_be_hidden()
    expect(page.locator("#notices-list .notice-item.unread")).to_have_count(0)
    assert rita.get("/api/notices/unread").json() == {"unread": 0}
    assert page.errors == []


def test_the_notifications_page_at_laptop_and_phone_sizes(server: Any, person: Any) -> None:
    """Screenshots only when BARBU_SHOTS is set; the page's words checked in each language always."""
    mona, ugo = Person(server.base, unique("Mona")), Person(server.base, unique("Ugo"))
    assert users(server, "role", mona.name or "", "moderator") == 0
    warn(mona, account_id(server, ugo.name or ""), "as the rules say")
    words_of = {
        "en-GB": "A word from a moderator",
        "fr-FR": "Un mot d'un modérateur",
        "it-IT": "Un messaggio da un moderatore",
    }
    every = [(lang, size) for lang in words_of for size in (LAPTOP, PHONE)]
    for lang, size in every if os.environ.get("BARBU_SHOTS") else [("it-IT", PHONE)]:  # all of them for the shots
        words = words_of[lang]
        if True:
            page = as_person(person(size, lang=lang), server, ugo)
            page.goto(f"{server.base}/notifications")
            expect(page.locator("#notices-list")).to_contain_text(words)
            take_shot(page, f"notices-page-{lang[:2]}", full_page=True)
            page.wait_for_load_state("networkidle")
            assert violations(page) == []  # axe-core: WCAG 2.2 AA
            if size == PHONE:
                page.locator("#notice-bell").click()
                expect(page.locator("#notice-menu")).to_contain_text(words)
                assert violations(page) == []  # the bell's list open
                take_shot(page, f"notices-bell-{lang[:2]}")
            if os.environ.get("BARBU_SHOTS"):  # the account page's settings, for people to look at
                page.goto(f"{server.base}/account")
                expect(page.locator("#notice-kinds-body tr")).to_have_count(5)
                page.locator("#notices-panel").scroll_into_view_if_needed()
                take_shot(page, f"notices-settings-{lang[:2]}")
            page.context.close()
