"""The table's chat in chromium: two players in two languages at one table, one says "Well played" and the other
reads "Ben giocato"; free text comes back as text, never markup; on a phone the panel folds behind its "Chat"
button, which counts what was not read.  Screenshots (BARBU_SHOTS=folder) at 1366x768 and 390x844 in English,
French and Italian, of the Barbu and the Bésigue tables."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from test_web_moderation import Person, unique, users
from webhelpers import PHONE, shot
from websockets.sync.client import connect

pytestmark = pytest.mark.browser
SERVE = (
    "--signups-per-hour",
    "0",
    "--bot-delay",
    "0",
    "--deal-pause",
    "0",
    "--tables-per-hour",
    "0",
    "--bot-tables-per-address",
    "0",
    "--open-tables-per-address",
    "0",
    "--seats-per-address",
    "0",
)
LAPTOP = (1366, 768)


def logged_in(page: Page, server: Any, who: Person) -> Page:
    page.context.add_cookies(
        [{"name": "barbu_session", "value": who.c.cookies.get("barbu_session"), "url": server.base}]
    )
    return page


def table(server: Any, rules: str, people: dict[int, Person]) -> str:
    """A table with these people seated by their accounts, computer players at the other seats."""
    host = Person(server.base)
    r = host.post("/api/tables", {"rules": rules})
    assert r.status_code == 201, r.text
    tid, creator, n = r.json()["id"], r.json()["creator"], r.json()["table"]["players"]
    for seat, who in people.items():
        r = who.post(f"/api/tables/{tid}/seats", {"seat": seat, "name": who.name})
        assert r.status_code == 200, r.text
    for seat in range(n):
        if seat not in people:
            r = host.post(f"/api/tables/{tid}/bots", {"seat": seat, "strength": "random", "token": creator})
            assert r.status_code == 200, r.text
    return tid


def test_two_languages_at_one_table_a_phrase_free_text_and_the_phones_folded_panel(server: Any, person: Any) -> None:
    anna, bruno, carla = (Person(server.base, unique(n)) for n in ("Anna", "Bruno", "Carla"))
    tid = table(server, "classic", {0: anna, 1: bruno})
    a = logged_in(person(LAPTOP, "en-GB"), server, anna)
    b = logged_in(person(PHONE, "it-IT", touch=True), server, bruno)
    c = logged_in(person(LAPTOP, "fr-FR"), server, carla)  # a spectator, in his own room
    for page in (a, b, c):
        page.goto(f"{server.base}/t/{tid}")
        expect(page.locator("#conn")).to_have_attribute("data-status", "connected")

    # on the phone the panel is folded behind its button
    expect(b.locator("#chat-toggle")).to_be_visible()
    expect(b.locator("#chat")).to_be_hidden()
    expect(a.locator("#chat-toggle")).to_be_hidden()
    expect(a.locator("#chat .chat-phrase[data-phrase=gg]")).to_have_text("Well played")

    a.locator("#chat .chat-phrase[data-phrase=gg]").click()
    expect(a.locator("#chat-list .chat-line")).to_have_count(1)
    expect(b.locator("#chat-unread")).to_have_text("1")  # what he has not read, counted on the button
    shot(b, "chat-phone-folded-it")
    b.locator("#chat-toggle").click()
    expect(b.locator("#chat")).to_be_visible()
    expect(b.locator("#chat-list .chat-line .chat-words")).to_have_text("Ben giocato")
    expect(b.locator("#chat-unread")).to_be_hidden()
    expect(b.locator("#announce")).to_contain_text("Ben giocato")  # said politely to a screen reader

    # free text: off until a logged-in player turns it on (remembered); always drawn as text
    expect(a.locator("#chat-form")).to_be_hidden()
    a.locator("#chat-free").check()
    b.locator("#chat-free").check()
    a.locator("#chat-text").fill("<b>bold</b> <img src=x onerror=alert(1)> https://example.com")
    a.locator("#chat-send").click()
    words = b.locator("#chat-list .chat-line .chat-words").nth(1)
    expect(words).to_have_text("<b>bold</b> <img src=x onerror=alert(1)> https://example.com")
    assert b.locator("#chat-list b, #chat-list img, #chat-list a").count() == 0  # no markup, no link
    shot(b, "chat-phone-open-it")
    a.reload()
    expect(a.locator("#chat-free")).to_be_checked()  # remembered
    expect(a.locator("#chat-list .chat-line")).to_have_count(2)  # read back after the reconnection
    shot(a, "chat-laptop-en")

    # the spectator's room is his: the players never read it during the match
    c.locator("#chat .chat-phrase[data-phrase=good_luck]").click()
    expect(c.locator("#chat-list .chat-line .chat-words")).to_have_text("Bonne chance")
    expect(c.locator("#chat-room")).to_contain_text("spectateurs")
    shot(c, "chat-laptop-spectator-fr")
    a.locator("#chat .chat-phrase[data-phrase=thanks]").click()
    expect(a.locator("#chat-list .chat-line")).to_have_count(3)
    assert "Good luck" not in a.locator("#chat-list").inner_text()

    # a player mutes another for himself: his messages are hidden, and shown again on unmuting
    b.locator("#chat-list .chat-line .chat-mute").first.click()
    expect(b.locator("#chat-list .chat-line")).to_have_count(0)
    expect(b.locator("#chat-muted")).to_be_visible()
    b.locator("#chat-muted button").click()
    expect(b.locator("#chat-list .chat-line")).to_have_count(3)
    for page in (a, b, c):
        assert page.errors == []


@pytest.mark.parametrize("size,lang", [(LAPTOP, "fr-FR"), (PHONE, "fr-FR"), (LAPTOP, "it-IT")])
def test_the_besigue_tables_chat_at_both_sizes(server: Any, person: Any, size: Any, lang: str) -> None:
    dora = Person(server.base, unique("Dora"))
    tid = table(server, "besigue", {0: dora})
    page = logged_in(person(size, lang, touch=size == PHONE), server, dora)
    page.goto(f"{server.base}/t/{tid}")
    expect(page.locator("#conn")).to_have_attribute("data-status", "connected")
    if size == PHONE:
        page.locator("#chat-toggle").click()
    page.locator("#chat .chat-phrase[data-phrase=hello]").click()
    expect(page.locator("#chat-list .chat-line .chat-words")).to_have_text("Bonjour" if lang == "fr-FR" else "Ciao")
    shot(page, f"chat-besigue-{lang[:2]}")
    if size == PHONE:  # Escape folds it again, the focus back on its button
        page.keyboard.press("Escape")
        expect(page.locator("#chat")).to_be_hidden()
        expect(page.locator("#chat-toggle")).to_be_focused()
    assert page.errors == []


def say_over_socket(server: Any, tid: str, who: Person, **what: Any) -> int:
    """One chat message from ``who``'s seat (his account's), over a WebSocket of his own: its seq."""
    cookie = f"barbu_session={who.c.cookies.get('barbu_session')}"
    with connect(f"{server.ws_base}/ws/{tid}", origin=server.base, additional_headers={"cookie": cookie}) as ws:
        ws.send(json.dumps({"type": "hello"}))
        ws.send(json.dumps({"type": "chat", "id": "c1", **what}))
        while True:
            m = json.loads(ws.recv(timeout=60))
            if m.get("id") == "c1":
                assert m["type"] == "ack", m
                return int(m["seq"])


def test_the_desk_reads_a_reported_message_in_its_context_and_removes_it(server: Any, person: Any) -> None:
    rita, ugo, mona = (Person(server.base, unique(n)) for n in ("Rita", "Ugo", "Mona"))
    assert users(server, "role", mona.name or "", "moderator") == 0
    tid = table(server, "classic", {0: rita, 1: ugo})
    say_over_socket(server, tid, rita, text="good evening all")
    rude = say_over_socket(server, tid, ugo, text="<i>you play like a fish</i>")
    say_over_socket(server, tid, rita, phrase="sorry")
    r = rita.post("/api/reports", {"kind": "message", "target": str(rude), "reason": "abuse", "text": "rude"})
    assert r.status_code == 201, r.text

    desk = logged_in(person(LAPTOP, "it-IT"), server, mona)
    desk.goto(f"{server.base}/moderation")
    card = desk.locator(f".desk-group[data-kind='message'][data-target='{rude}']")
    expect(card.locator(".desk-context-list li")).to_have_count(3)
    expect(card.locator(".desk-context-reported")).to_contain_text("<i>you play like a fish</i>")
    expect(card.locator(".desk-context-list li").nth(2)).to_contain_text("Scusa")  # the phrase, in her language
    assert card.locator(".desk-context-list i").count() == 0  # text, never markup
    shot(desk, "chat-desk-it")
    card.locator("button[data-action='remove']").click()
    card.locator(".desk-reason").fill("offensive")
    card.locator(".desk-confirm").click()
    expect(desk.locator(f".desk-group[data-kind='message'][data-target='{rude}']")).to_have_count(0)
    page = logged_in(person(LAPTOP, "en-GB"), server, rita)
    page.goto(f"{server.base}/t/{tid}")
    expect(page.locator("#chat-list .chat-line")).to_have_count(1)  # the phrase; the removed words go to nobody
    assert desk.errors == [] and page.errors == []


def finish_one_deal(server: Any, tid: str, who: Person) -> None:
    """Play ``who``'s seat (his first legal choice each time) until a deal is over, then end the match from the
    lobby: a finished match, with its replay."""
    cookie = f"barbu_session={who.c.cookies.get('barbu_session')}"
    with connect(f"{server.ws_base}/ws/{tid}", origin=server.base, additional_headers={"cookie": cookie}) as ws:
        ws.send(json.dumps({"type": "hello"}))
        ws.send(json.dumps({"type": "chat", "id": "c1", "phrase": "gg"}))
        seat, acted = None, -1
        while True:
            m = json.loads(ws.recv(timeout=60))
            if m["type"] == "welcome":
                seat = m["seat"]
            st = m.get("state")
            if not isinstance(st, dict):
                continue
            if st.get("deals_done", 0) >= 1:
                break
            if st["to_act"] == seat and st.get("legal") and st["version"] > acted:
                acted = st["version"]
                ws.send(json.dumps({"type": "act", "action": st["legal"][0], "version": st["version"]}))
    r = who.post(f"/api/tables/{tid}/end", {})
    assert r.status_code == 200 and r.json()["kept"], r.text


def test_the_replay_shows_the_chat_to_a_player_and_not_to_a_stranger(server: Any, person: Any) -> None:
    sara, stranger = Person(server.base, unique("Sara")), Person(server.base, unique("Tom"))
    tid = table(server, "classic", {0: sara})
    finish_one_deal(server, tid, sara)
    page = logged_in(person(LAPTOP, "fr-FR"), server, sara)
    page.goto(f"{server.base}/t/{tid}/replay")
    expect(page.locator("#chat-box")).to_be_visible()
    expect(page.locator("#replay-chat .chat-line")).to_contain_text("Bien joué")
    other = logged_in(person(LAPTOP, "en-GB"), server, stranger)
    other.goto(f"{server.base}/t/{tid}/replay")
    expect(other.locator("#replay")).to_be_visible()
    expect(other.locator("#chat-box")).to_be_hidden()
    assert page.errors == [] and other.errors == []
