"""A challenge in chromium, two people: Ann challenges Bob from his profile (the form, Bésigue for two), Bob (a
phone, in French) opens it from his notifications and accepts, and both land at the table, seated.  Screenshots
(BARBU_SHOTS=folder) of the form and the challenge's page at 1366x768 and 390x844, in English and French."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from test_web_moderation import Person, unique
from webhelpers import PHONE, shot

pytestmark = pytest.mark.browser
SERVE = ("--signups-per-hour", "0", "--bot-delay", "0", "--tables-per-hour", "0", "--seats-per-address", "0")
LAPTOP = (1366, 768)
AT_TABLE = re.compile(r"/t/[\w-]+$")


def logged_in(page: Page, server: Any, who: Person) -> Page:
    page.context.add_cookies(
        [{"name": "barbu_session", "value": who.c.cookies.get("barbu_session"), "url": server.base}]
    )
    return page


def test_ann_challenges_bob_from_his_profile_and_he_accepts_from_his_notification(server: Any, person: Any) -> None:
    ann, bob = Person(server.base, unique("Ann")), Person(server.base, unique("Bob"))
    a = logged_in(person(LAPTOP, "en-GB"), server, ann)
    b = logged_in(person(PHONE, "fr-FR", touch=True), server, bob)
    a.goto(f"{server.base}/u/{bob.name}")
    expect(a.locator("#challenge-link")).to_be_visible()
    shot(a, "challenge-profile-en")
    a.locator("#challenge-link").click()
    expect(a.locator("#challenge-main")).to_have_attribute("data-loaded", "form")
    expect(a.locator("#challenge-to-0")).to_have_value(bob.name)
    a.locator("#challenge-preset").select_option("besigue")
    a.locator("#challenge-clock").select_option("relaxed")
    shot(a, "challenge-form-en")
    if os.environ.get("BARBU_SHOTS"):
        a.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
        shot(a, "challenge-form-en", full_page=True)
        a.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})
    a.locator("#challenge-send").click()
    expect(a.locator("#challenge-main")).to_have_attribute("data-loaded", "open")
    expect(a.locator('#challenge-who li[data-answer="waiting"] a')).to_have_text(bob.name)
    expect(a.locator("#challenge-cancel")).to_be_visible()
    shot(a, "challenge-open-en")

    b.goto(f"{server.base}/notifications")
    notice = b.locator('#notices-list li[data-kind="challenge"] a')
    expect(notice).to_contain_text(f"{ann.name} vous défie à une table")
    notice.click()
    expect(b.locator("#challenge-main")).to_have_attribute("data-loaded", "open")
    expect(b.locator("#challenge-title")).to_have_text(f"Défi de {ann.name}")
    expect(b.locator("#challenge-settings")).to_contain_text("Bésigue")
    shot(b, "challenge-open-fr")
    if os.environ.get("BARBU_SHOTS"):  # the other sizes, for people only
        b.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})
        shot(b, "challenge-open-fr")
        b.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    b.locator("#challenge-accept").click()
    expect(b).to_have_url(AT_TABLE)
    expect(a).to_have_url(AT_TABLE)  # told live (or by the page's next look)
    assert a.url == b.url
    tid = a.url.rsplit("/", 1)[-1]
    seats = ann.get(f"/api/tables/{tid}").json()["table"]["seats"]
    assert [s["name"] for s in seats] == [ann.name, bob.name]
