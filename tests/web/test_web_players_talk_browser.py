"""Issue 45's journey in chromium across two `barbu serve --broker` processes on one PostgreSQL and one Redis, each
person's page on a process of its own choosing: Ann (process one, English) and Bob (process two, Italian) follow
each other and see each other online; Ann challenges Bob from her friends list to a table with computer players in
the seats left; Bob accepts from the bell's list and both land at the table; Ann says "Well played" and Bob reads
"Ben giocato", Bob says "Thanks" and Ann reads it in English; Cat (logged in, French) watches on process one and
chats in the spectators' room, which Ann and Bob do not read during the match; Bob writes something rude, Ann
reports it and mutes him for herself (his next message hidden from her alone); Mona, a moderator, opens the desk
on process two, reads the reported message with what was said around it, and mutes Bob for everyone; Bob's next
message is refused in words, in Italian.  One run of the journey, no whole match, no sleeps."""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import postgres_url, redis_url, reset_postgres
from playwright.sync_api import Locator, Page, expect
from test_web_cluster import processes, running
from test_web_moderation import Person, unique
from webhelpers import shot

from barbu.cli.main import main as barbu

pytestmark = [pytest.mark.browser, pytest.mark.slow]
LAPTOP = (1366, 768)
AT_TABLE = re.compile(r"/t/[\w-]+$")
SERVE = (
    "--signups-per-hour",
    "0",
    "--bot-delay",
    "0",
    "--tables-per-hour",
    "0",
    "--seats-per-address",
    "0",
    "--bot-tables-per-address",
    "0",
    "--open-tables-per-address",
    "0",
)


def logged_in(page: Page, base: str, who: Person) -> Page:
    sid = who.c.cookies.get("barbu_session") or ""
    page.context.add_cookies([{"name": "barbu_session", "value": sid, "url": base}])
    return page


def lines_of(page: Page, name: str) -> Locator:
    """The chat lines this page shows from ``name``."""
    return page.locator("#chat-list .chat-line").filter(has=page.locator(".chat-name", has_text=name))


def test_two_friends_challenge_chat_mute_report_and_a_moderator_mutes_across_two_processes(
    serve: Any, person: Any
) -> None:
    db, broker = postgres_url(), redis_url()
    reset_postgres(db)
    with running(processes(serve, db, broker, 2, *SERVE)) as (one, two):
        ann, cat = Person(one.base, unique("Ann")), Person(one.base, unique("Cat"))
        bob, mona = Person(two.base, unique("Bob")), Person(two.base, unique("Mona"))
        assert barbu(["users", "--db", db, "role", mona.name or "", "moderator"]) == 0
        assert ann.post("/api/friends/follow", {"name": bob.name}, origin=one.base).status_code == 200
        assert bob.post("/api/friends/follow", {"name": ann.name}, origin=two.base).status_code == 200

        # each sees the other online, told live over the account channel through the broker
        a = logged_in(person(LAPTOP, "en-GB"), one.base, ann)
        b = logged_in(person(LAPTOP, "it-IT"), two.base, bob)
        a.goto(f"{one.base}/friends")
        b.goto(f"{two.base}/friends")
        row_a = a.locator(f'#following li[data-player="{bob.name}"]')
        expect(row_a).to_have_attribute("data-state", "online")
        expect(b.locator(f'#following li[data-player="{ann.name}"]')).to_have_attribute("data-state", "online")

        # Ann challenges Bob from her friends list; Bob accepts from the bell's list
        row_a.locator("a.challenge").click()
        expect(a.locator("#challenge-main")).to_have_attribute("data-loaded", "form")
        expect(a.locator("#challenge-to-0")).to_have_value(bob.name or "")
        a.locator("#challenge-bots").check()
        a.locator("#challenge-send").click()
        expect(a.locator("#challenge-main")).to_have_attribute("data-loaded", "open")
        expect(b.locator("#notice-count")).to_have_text("1")  # live, on the other process
        b.locator("#notice-bell").click()
        b.locator('#notice-menu .notice-item[data-kind="challenge"] a').click()
        expect(b.locator("#challenge-main")).to_have_attribute("data-loaded", "open")
        b.locator("#challenge-accept").click()
        expect(b).to_have_url(AT_TABLE)
        expect(a).to_have_url(AT_TABLE)  # told live from the other process
        expect(b.locator("#conn")).to_have_attribute("data-status", "connected")
        expect(a.locator("#conn")).to_have_attribute("data-status", "connected")
        tid = b.url.rsplit("/", 1)[-1]
        assert a.url == f"{one.base}/t/{tid}"
        seats = ann.get(f"/api/tables/{tid}").json()["table"]["seats"]
        assert [s["name"] for s in seats][:2] == [ann.name, bob.name]

        # quick phrases, each read in the reader's language, across the two processes
        a.locator("#chat .chat-phrase[data-phrase=gg]").click()
        expect(lines_of(b, ann.name or "").locator(".chat-words")).to_have_text("Ben giocato")
        b.locator("#chat .chat-phrase[data-phrase=thanks]").click()
        expect(lines_of(a, bob.name or "").locator(".chat-words")).to_have_text("Thanks")

        # a spectator's room of his own: the players do not read it during the match
        c = logged_in(person(LAPTOP, "fr-FR"), one.base, cat)
        c.goto(f"{one.base}/t/{tid}")
        expect(c.locator("#conn")).to_have_attribute("data-status", "connected")
        expect(c.locator("#chat-room")).to_contain_text("spectateurs")
        c.locator("#chat .chat-phrase[data-phrase=good_luck]").click()
        expect(lines_of(c, cat.name or "").locator(".chat-words")).to_have_text("Bonne chance")

        # Bob writes something rude; Ann reports it, then mutes him for herself
        for page in (a, b):
            page.locator("#chat-free").check()
        b.locator("#chat-text").fill("you play like a fish")
        b.locator("#chat-send").click()
        rude = lines_of(a, bob.name or "").filter(has_text="you play like a fish")
        expect(rude).to_have_count(1)
        rude.locator(".chat-report").click()
        rude.locator("select").select_option("abuse")
        rude.get_by_role("button", name="Send the report").click()
        expect(rude).to_contain_text("Reported: thank you.")
        lines_of(a, bob.name or "").first.locator(".chat-mute").click()
        expect(lines_of(a, bob.name or "")).to_have_count(0)
        b.locator("#chat .chat-phrase[data-phrase=oops]").click()
        expect(lines_of(b, bob.name or "")).to_have_count(3)
        a.locator("#chat .chat-phrase[data-phrase=sorry]").click()  # after Bob's, in the room's order
        expect(lines_of(b, ann.name or "")).to_have_count(2)
        expect(lines_of(a, ann.name or "")).to_have_count(2)
        expect(lines_of(a, bob.name or "")).to_have_count(0)  # his "Oops" came before her "Sorry": hidden from her
        assert "Good luck" not in a.locator("#chat-list").inner_text()
        assert "Buona fortuna" not in b.locator("#chat-list").inner_text()

        # the moderator reads the reported message in its context and mutes Bob for everyone
        d = logged_in(person(LAPTOP, "en-GB"), two.base, mona)
        d.goto(f"{two.base}/moderation")
        card = d.locator(".desk-group[data-kind='message']").filter(has_text="you play like a fish")
        expect(card.locator(".desk-context-reported")).to_contain_text("you play like a fish")
        expect(card.locator(".desk-context-list")).to_contain_text("Well played")  # Ann's phrase, in Mona's words
        shot(d, "journey-desk-en", full_page=True)
        card.locator("button[data-action='mute-author']").click()
        card.locator(".desk-reason").fill("insults at the table")
        card.locator(".desk-confirm").click()
        expect(d.locator("#desk-note")).to_be_visible()
        expect(d.locator("#desk-log .desk-entry").first).to_contain_text(bob.name or "")
        b.locator("#chat .chat-phrase[data-phrase=hello]").click()
        expect(b.locator("#chat-error")).to_contain_text("silenziato")
        expect(lines_of(b, bob.name or "")).to_have_count(3)  # nothing said
        for page in (a, b, c, d):
            assert page.errors == []  # type: ignore[attr-defined]  # webhelpers.person keeps them
