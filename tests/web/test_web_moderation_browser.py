"""The moderators' desk in the browser: a player reports another from his profile; the moderator finds the link to
his desk in the top bar, reads the report and warns; the warned player sees the warning on his next page, in his
language, until he says he read it; the moderator undoes it from the log; a guest finds no desk.  Then the desk
seen at laptop and phone sizes in English, French and Italian.

Playwright drives Debian's chromium against a real `barbu serve`.  With BARBU_SHOTS=/some/folder, screenshots of
the desk, the report control and the warning go there.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from test_web_moderation import EVENT, Person, play_daily, unique, users
from webhelpers import PHONE
from webhelpers import shot as take_shot

pytestmark = pytest.mark.browser
SERVE = (
    "--signups-per-hour",
    "0",
    "--clubs-per-day",
    "0",
    "--events-per-day",
    "0",
    "--bot-delay",
    "0",
    "--daily-boards",
    "1",
)
LAPTOP = (1366, 768)


def as_person(page: Page, server: Any, who: Person) -> Page:
    """The page's browser logged in as ``who`` (his session cookie)."""
    token = who.c.cookies.get("barbu_session")
    page.context.add_cookies([{"name": "barbu_session", "value": token, "url": server.base}])
    return page


def shot(page: Page, name: str) -> None:
    take_shot(page, name, full_page=True)


@pytest.fixture(scope="module")
def two_finishers(server: Any) -> None:
    """Two accounts from one address (the tests' 127.0.0.1) finish today's deals: the desk marks them."""
    for stem in ("Dora", "Dino"):
        play_daily(Person(server.base, unique(stem)))


def test_a_report_a_warning_read_and_undone_in_the_browser(server: Any, person: Any) -> None:
    mona, rita, vic = (Person(server.base, unique(n)) for n in ("Mona", "Rita", "Vic"))
    assert users(server, "role", mona.name or "", "moderator") == 0

    # Rita reports Vic from his profile; her own profile has no such control
    page = as_person(person(LAPTOP), server, rita)
    page.goto(f"{server.base}/u/{rita.name}")
    expect(page.locator("#player-name")).to_have_text(rita.name or "")
    expect(page.locator("#report")).to_be_hidden()
    page.goto(f"{server.base}/u/nobody-by-that-name")  # nothing to report
    expect(page.locator("#profile")).to_have_attribute("data-loaded", "missing")
    expect(page.locator("#report")).to_be_hidden()
    page.goto(f"{server.base}/u/{vic.name}")
    expect(page.locator("#report")).to_be_visible()
    page.click("#report summary")
    page.select_option("#report-reason", "abuse")
    page.fill("#report-text", "insults at table 4")
    shot(page, "moderation-report-en")
    page.click("#report-send")
    expect(page.locator("#report-done")).to_contain_text("the moderators will look at it")
    expect(page.locator("#desk-link")).to_have_count(0)  # no desk for a player
    # and an event from its page (a club's page has the same control)
    ev = vic.post("/api/events", EVENT | {"name": unique("Cup ")}).json()["event"]
    page.goto(f"{server.base}/e/{ev['id']}")
    expect(page.locator("#event")).to_have_attribute("data-loaded", "1")
    page.click("#report summary")
    page.select_option("#report-reason", "spam")
    page.click("#report-send")
    expect(page.locator("#report-done")).to_be_visible()

    # the moderator: the link in the top bar, the report on the desk, a warning with its reason
    desk = as_person(person(LAPTOP), server, mona)
    desk.goto(server.base + "/")
    desk.click("#desk-link")
    expect(desk.locator("#desk")).to_have_attribute("data-loaded", "1")
    expect(desk.locator(f".desk-group[data-kind='event'][data-target='{ev['id']}']")).to_contain_text(
        "Spam or advertising"
    )
    card = desk.locator(f".desk-group[data-kind='player']:has(a.desk-target:text-is('{vic.name}'))")
    expect(card).to_contain_text("insults at table 4")
    expect(card).to_contain_text("Abusive or offensive behaviour")
    expect(card).to_contain_text(rita.name or "")
    card.locator("button[data-action='warn']").click()
    card.locator(".desk-reason").fill("insults are not welcome here")
    card.locator(".desk-confirm").click()
    expect(desk.locator("#desk-note")).to_contain_text("The log keeps it")
    entry = desk.locator(".desk-entry", has_text="insults are not welcome here")
    expect(entry).to_contain_text("warned")
    expect(entry).to_contain_text(mona.name or "")
    assert not desk.errors and not page.errors

    # the warned player, in French: the warning on his next page until he says he read it
    fr = as_person(person(PHONE, "fr-FR"), server, vic)
    fr.goto(server.base + "/clubs")
    banner = fr.locator(".mod-warning")
    expect(banner).to_contain_text("Un modérateur vous a averti")
    expect(banner).to_contain_text("insults are not welcome here")
    shot(fr, "moderation-warning-fr")
    banner.locator("button").click()
    expect(banner).to_have_count(0)
    fr.reload()
    expect(fr.locator("#account-name")).to_be_visible()
    expect(fr.locator(".mod-warning")).to_have_count(0)

    # undone from the log, with its reason
    entry.locator(".desk-undo").click()
    entry.locator(".desk-reason").fill("a misunderstanding")
    entry.locator(".desk-confirm").click()
    expect(desk.locator(".desk-entry", has_text="a misunderstanding")).to_contain_text("warning withdrawn")
    expect(desk.locator(".desk-entry.undone", has_text="insults are not welcome here")).to_have_count(1)

    # a guest finds no desk
    guest = person(LAPTOP)
    assert guest.goto(server.base + "/moderation").status == 404
    assert not fr.errors and not desk.errors


@pytest.mark.parametrize(
    "size,lang,name",
    [
        (LAPTOP, "en-GB", "en"),
        (PHONE, "en-GB", "en"),
        (PHONE, "fr-FR", "fr"),
        (LAPTOP, "fr-FR", "fr"),
        (PHONE, "it-IT", "it"),
        (LAPTOP, "it-IT", "it"),
    ],
)
def test_the_desk_at_laptop_and_phone_sizes(
    server: Any, person: Any, two_finishers: None, size: tuple[int, int], lang: str, name: str
) -> None:
    mona, rita, vic = (Person(server.base, unique(n)) for n in ("Mona", "Rita", "Vic"))
    assert users(server, "role", mona.name or "", "moderator") == 0
    made = vic.post(
        "/api/clubs", {"name": unique("Gold club "), "public": True, "description": "cheap gold, visit example.com"}
    )
    slug = made.json()["club"]["slug"]
    ev = vic.post("/api/events", EVENT | {"name": unique("Fake cup ")}).json()["event"]
    for kind, target, reason, text in (
        (
            "player",
            vic.name,
            "abuse",
            "He wrote insults in his club's description and kept at it after being asked to stop.",
        ),
        ("club", slug, "spam", ""),
        ("event", str(ev["id"]), "other", "Not a real event: nobody directs it."),
    ):
        assert (
            rita.post("/api/reports", {"kind": kind, "target": target, "reason": reason, "text": text}).status_code
            == 201
        )
    page = as_person(person(size, lang), server, mona)
    page.goto(server.base + "/moderation")
    expect(page.locator("#desk")).to_have_attribute("data-loaded", "1")
    expect(page.locator("#daily-panel .desk-daily-mark")).to_have_count(1)
    card = page.locator(f".desk-group[data-kind='player']:has(a.desk-target:text-is('{vic.name}'))")
    card.locator("button[data-action='mute']").click()
    expect(card.locator(".desk-hours")).to_be_visible()
    shot(page, f"moderation-desk-{name}")
    card.locator(".desk-reason").fill("insults in a description")
    card.locator(".desk-confirm").click()
    expect(page.locator("#desk-note")).to_be_visible()
    box = page.locator("#groups").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size[0]  # nothing runs off the screen
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    shot(page, f"moderation-desk-acted-{name}")
    assert not page.errors
