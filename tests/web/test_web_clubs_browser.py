"""A club in the browser: two people sign up; one creates a private club and an invitation link, the other joins
through it on a phone; the first creates a club table from the club's page, both sit and play a few moves; an
outsider finds neither the club nor its table.  Then three rated club matches, played by the engine and stored as
the server stores a finished table, give the club's page its leaderboard and past matches.

Playwright drives Debian's chromium against a real `barbu serve`.  With BARBU_SHOTS=/some/folder, screenshots of
/clubs and /c/<slug> in English, French and Italian at phone (390x844) and laptop (1280x800) sizes go there.
"""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.request
from typing import Any, Callable

import pytest
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from webhelpers import LAPTOP, PHONE, Server
from webhelpers import shot as take_shot

from barbu.core.game import CHANCE
from barbu.games import open_game
from barbu.web.accounts.service import fold
from barbu.web.accounts.store import user_by_key
from barbu.web.clubs import store as clubstore
from barbu.web.db.storage import SeatRecord, Store
from barbu.web.profiles.history import SeatResult, finished_of, record

pytestmark = pytest.mark.browser
SERVE = ("--bot-delay", "0", "--deal-pause", "0", "--grace", "1000")
PASSWORD = "correct horse battery"
SHORT = "salad(players=3)"


def api(server: Server, method: str, path: str, body: Any = None, cookie: str | None = None) -> tuple[int, Any]:
    """A request as a browser would send it: JSON, the server's own Origin, the session cookie."""
    headers = {"origin": server.base}
    if body is not None:
        headers["content-type"] = "application/json"
    if cookie:
        headers["cookie"] = f"barbu_session={cookie}"
    req = urllib.request.Request(
        server.base + path, data=json.dumps(body).encode() if body is not None else None, method=method, headers=headers
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def session(page: Page) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"] == "barbu_session")


def sign_up(page: Page, server: Server, name: str) -> None:
    page.goto(server.base + "/account")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-button")
    page.wait_for_selector("#member-view:not([hidden])")


def shot(page: Page, name: str) -> None:
    take_shot(page, name, full_page=True)


def take(page: Page, seat: int, name: str) -> None:
    """Sit at ``seat``: a logged-in player sits under his account's name, with no name to type."""
    page.wait_for_selector(f"[data-seat-take='{seat}']")
    if page.locator("#name").is_visible():
        page.fill("#name", name)
    page.click(f"[data-seat-take='{seat}']")
    page.wait_for_function("s => document.querySelector('#table').dataset.seat === s", arg=str(seat))


def attr(page: Page, name: str) -> str:
    return page.get_attribute("#table", f"data-{name}") or ""


def play_one(page: Page, rng: random.Random) -> bool:
    """One decision as a person takes it: a legal card, or a button; False when it is not this page's turn."""
    if page.get_attribute("#turn", "data-mine") != "1":
        return False
    version = attr(page, "version")
    cards = page.eval_on_selector_all("#hand .card[data-legal='1']", "cs => cs.map(c => c.dataset.card)")
    buttons = page.eval_on_selector_all(
        "#decision button[data-action]:not([disabled])", "bs => bs.map(b => b.dataset.action)"
    )
    target = (
        f"#hand .card[data-card='{rng.choice(cards)}']"
        if cards
        else f"#decision button[data-action='{buttons[0]}']"
        if buttons
        else None
    )
    if target is None:
        return False
    try:
        page.locator(target).click(timeout=5_000)
    except PlaywrightTimeout:  # a short clock played for this seat meanwhile: the card or button is gone
        return False
    page.wait_for_function("v => document.querySelector('#table').dataset.version !== v", arg=version)
    return True


def played_match(server: Server, slug: str, people: list[str], seed: int) -> str:
    """A rated club match of Salad for three, the two accounts and a computer player, played by the engine (each
    seat its first legal action: a match is a thousand decisions, too many to click or to send within the
    server's message rate) and written to the server's database as the server writes a finished table: its
    seats, its journal (so its replay works) and its results, which rate its players.  The server reads it
    from there like any other finished table."""
    store = Store(server.db, run_migrations=False)
    game = open_game(SHORT, seed)
    events = []
    while not game.is_over:
        actor = game.to_act()
        action = game.sample_chance() if actor == CHANCE else game.legal_actions()[0]
        game.apply(action)
        events.append((actor, str(action)))
    tid = f"club{seed}"
    with store.engine.begin() as conn:
        ids = [user_by_key(conn, fold(name))[0].id for name in people]
        club = clubstore.club_by_slug(conn, slug)
        Store.create_table(conn, tid, SHORT, seed, rated=True, club_id=club.id)
        seats = [SeatRecord(i, name, "human", user_id=uid) for i, (name, uid) in enumerate(zip(people, ids))]
        seats.append(SeatRecord(len(seats), "Computer", "bot", "random"))
        for seat in seats:
            Store.set_seat(conn, tid, seat)
        Store.append_events(conn, [(tid, seq, actor, text, None) for seq, (actor, text) in enumerate(events)])
        Store.set_status(conn, tid, "over")
        record(
            conn,
            finished_of(tid, game, [SeatResult(s.kind, s.name, s.strength, s.user_id, False) for s in seats], True),
        )
    store.close()
    return tid


def test_a_private_club_from_invitation_to_its_table(server: Server, person: Callable[..., Page]) -> None:
    host = person(LAPTOP)
    friend = person(PHONE, touch=True)
    outsider = person(PHONE)
    sign_up(host, server, "Hostess")
    sign_up(friend, server, "Amico")
    sign_up(outsider, server, "Stranger")

    # The host creates a private club from /clubs (the lobby links there).
    host.goto(server.base + "/")
    host.click("#clubs-link")
    host.wait_for_selector("#club-form:not([hidden])")
    host.fill("#club-name", "Thursday Barbu")
    host.fill("#club-description", "Every Thursday at eight.\nNew players welcome.")
    host.check("#club-private")
    host.click("#club-create")
    host.wait_for_url("**/c/thursday-barbu")
    host.wait_for_selector("#club[data-loaded='1']")
    assert host.get_attribute("#club", "data-role") == "owner"
    host.select_option("#invite-hours", "24")
    host.click("#invite-create")
    host.wait_for_selector("#invite-new:not([hidden])")
    link = host.input_value("#invite-link")
    assert link.startswith(server.base + "/clubs/join#key=")
    host.wait_for_selector("#invites [data-invite]")

    # An outsider, logged in, finds no club at its address; the friend joins through the link on a phone.
    outsider.goto(server.base + "/c/thursday-barbu")
    outsider.wait_for_selector("#not-found")
    shot(outsider, "club-missing-en")
    friend.goto(link)
    friend.wait_for_selector("#join-button:not([hidden])")
    assert friend.text_content("#join-name") == "Thursday Barbu"
    shot(friend, "join-en")
    friend.click("#join-button")
    friend.wait_for_url("**/c/thursday-barbu")
    friend.wait_for_selector("#club[data-loaded='1']")
    assert friend.get_attribute("#club", "data-role") == "member"
    assert friend.locator("#invites-panel").is_hidden() and friend.locator("#settings-panel").is_hidden()

    # The host makes a club table; both sit; computer players take the other seats.
    host.reload()
    host.wait_for_selector("#club[data-loaded='1']")
    host.click("#new-table summary")
    host.wait_for_selector("#table-game option[value='classic']", state="attached")
    host.select_option("#table-game", "classic")
    host.check("#table-turns")  # the clocks of a turn-based table, then back to a real-time one
    assert host.eval_on_selector_all("#table-clock option", "os => os.map(o => o.value)") == ["hours", "day", "days"]
    shot(host, "club-new-table-en")
    host.uncheck("#table-turns")
    host.click("#table-create")
    host.wait_for_url("**/t/*")
    tid = host.url.split("/t/")[1].split("#")[0]
    take(host, 0, "Hostess")
    friend.wait_for_selector(f"[data-join='{tid}']")  # the club's page lists it within a few seconds
    friend.click(f"[data-join='{tid}']")
    friend.wait_for_url(f"**/t/{tid}")
    take(friend, 1, "Amico")
    for seat in (2, 3):
        host.click(f"[data-seat-bot='{seat}']")
    host.wait_for_function(
        "() => document.querySelector('#table').dataset.phase !== ''"
        " && document.querySelector('#table').dataset.version !== '0'"
    )

    # An outsider: no table at its address, none in the lobby.
    outsider.goto(f"{server.base}/t/{tid}")
    assert "There is no table at this address" in outsider.inner_text("main")
    outsider.goto(server.base + "/")
    outsider.wait_for_selector("#tables p, #tables .table-row")
    assert outsider.locator(f"[data-table='{tid}']").count() == 0
    shot(outsider, "lobby-en")

    # A few moves, each by the person whose turn it is.
    rng = random.Random(7)
    moves, deadline = 0, time.monotonic() + 40
    while moves < 6 and time.monotonic() < deadline:
        acted = False
        for page in (host, friend):
            if play_one(page, rng):
                moves += 1
                acted = True
        if not acted:
            time.sleep(0.1)
    assert moves >= 3, f"only {moves} moves were played"

    # Three rated club matches, the leaderboard and the past matches on the club's page.
    played = [played_match(server, "thursday-barbu", ["Hostess", "Amico"], seed) for seed in (11, 12, 13)]
    status, data = api(server, "GET", "/api/clubs/thursday-barbu", cookie=session(host))
    assert status == 200 and data["board"][0]["game"] == "salad" and len(data["board"][0]["players"]) == 2
    assert [m["table"] for m in data["matches"]] == played[::-1]
    status, replay = api(server, "GET", f"/api/replays/{played[0]}", cookie=session(friend))
    assert status == 200, replay  # a member replays it; an outsider does not find it
    assert api(server, "GET", f"/api/replays/{played[0]}", cookie=session(outsider))[0] == 404
    status, _ = api(server, "GET", "/api/clubs/thursday-barbu", cookie=session(outsider))
    assert status == 404

    for lang in ("en", "fr", "it"):
        for size in (LAPTOP, PHONE):
            host.set_viewport_size({"width": size[0], "height": size[1]})
            host.goto(f"{server.base}/clubs?lang={lang}")
            host.wait_for_selector("#clubs[data-loaded='1']")
            shot(host, f"clubs-{lang}")
            host.goto(f"{server.base}/c/thursday-barbu?lang={lang}")
            host.wait_for_selector("#club[data-loaded='1'] #board .board-table")
            shot(host, f"club-{lang}")
    friend.goto(f"{server.base}/c/thursday-barbu?lang=it")
    friend.wait_for_selector("#club[data-loaded='1'] #board .board-table")
    shot(friend, "club-member-it")
    for page in (host, friend, outsider):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()
