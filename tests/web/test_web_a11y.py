"""Every page checked by an accessibility engine: axe-core (through axe-playwright-python) against WCAG 2.2 AA.

One module-scoped server and one browser; the pages a player, a director and a moderator reach are made once
(accounts, a club, an event, a finished match with its analysis, a daily set played through, a score book) and
then visited in a loop, at a laptop's size and a phone's, in English, and the tables in French and Italian too.
A page is checked once it has drawn what it draws (its ready selector), so the engine sees what a person sees.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Page
from test_web_moderation import EVENT, Person, play_daily, unique, users
from webhelpers import Server, http, new_table

from barbu.web import Settings
from barbu.web.app import create_app

pytestmark = pytest.mark.browser
SERVE = (
    "--bot-delay",
    "0",
    "--deal-pause",
    "0",
    "--signups-per-hour",
    "0",
    "--clubs-per-day",
    "0",
    "--events-per-day",
    "0",
    "--daily-boards",
    "1",
    "--analysis-samples",
    "8",
    "--bot-tables-per-address",
    "0",
    "--open-tables-per-address",
    "0",
)
LAPTOP, PHONE = (1366, 768), (390, 844)
GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "classic-seed7.jsonl"
#: WCAG 2.0, 2.1 and 2.2, levels A and AA: the rules axe-core tags so.
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
AXE = Axe()


def violations(page: Page) -> list[str]:
    """axe-core's WCAG 2.2 AA violations on the page as it is now, one line each (rule, where, why)."""
    found = AXE.run(page, options={"runOnly": {"type": "tag", "values": WCAG_AA}, "resultTypes": ["violations"]})
    return [
        f"{rule['id']} x{len(rule['nodes'])} at {rule['nodes'][0]['target']}:"
        f" {' '.join(rule['nodes'][0].get('failureSummary', '').split())[:240]}"
        for rule in found.response["violations"]
    ]


def finish(base: str, tid: str) -> None:
    deadline = time.monotonic() + 300
    while http("GET", f"{base}/api/tables/{tid}")[1]["table"]["status"] != "over":
        assert time.monotonic() < deadline, "the computer table did not finish"
        time.sleep(0.1)


class World:
    """What the pages show: made once over HTTP."""

    def __init__(self, server: Server) -> None:
        base = server.base
        self.player = Person(base, unique("Ada"))
        self.moderator = Person(base, unique("Mona"))
        assert users(server, "role", self.moderator.name or "", "moderator") == 0
        club = self.player.post(
            "/api/clubs", {"name": unique("Tuesday club "), "public": True, "description": "We play on Tuesdays."}
        )
        assert club.status_code in (200, 201), club.text
        self.club = club.json()["club"]["slug"]
        ev = self.player.post("/api/events", EVENT | {"name": unique("Thursday cup ")})
        assert ev.status_code in (200, 201), ev.text
        self.event = ev.json()["event"]["id"]
        play_daily(self.player)
        self.finished, _ = new_table(base, "salad(players=3)", bots={s: "random" for s in range(3)})
        finish(base, self.finished)
        status, book = http("POST", base + "/api/score", {"rules": "classic", "names": ["Ann", "Bob", "Cy", "Di"]})
        assert status in (200, 201), book
        self.book, self.book_key = book["id"], book["key"]


@pytest.fixture(scope="module")
def world(server: Server) -> World:
    return World(server)


def logged_in(page: Page, server: Server, who: Person) -> Page:
    token = who.c.cookies.get("barbu_session") or ""
    page.context.add_cookies([{"name": "barbu_session", "value": token, "url": server.base}])
    return page


def start_match(page: Page, game: str = "") -> None:
    """A match against the computer started from the lobby, as a player starts one."""
    page.select_option("#play-game", game)
    page.click("#play-computer")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#bz-hand .card" if game else "#hand .card")


def high_contrast_match(page: Page) -> None:
    """The player's display choices (kept in his browser) on, then a match: the table in those colours."""
    page.evaluate(
        "() => { localStorage.setItem('barbu:deck', 'four'); localStorage.setItem('barbu:contrast', 'high'); }"
    )
    start_match(page)
    assert page.get_attribute("html", "data-contrast") == "high"


def start_daily(page: Page) -> None:
    """Today's deals begun as a guest begins them: the first deal on the daily table."""
    page.click("#start")
    page.wait_for_url("**/daily/classic/play**")
    page.wait_for_selector("#hand .card")


def visits(world: World) -> list[tuple[str, str, str, str, Callable[[Page], None] | None]]:
    """(who, name, address, what shows once the page has drawn itself, what a person does there first)."""
    return [
        ("guest", "lobby", "/", "#play-computer", None),
        ("barbu-guest", "barbu-table", "/", "#play-computer", start_match),
        ("besigue-guest", "besigue-table", "/", "#play-computer", lambda page: start_match(page, "besigue")),
        ("contrast-guest", "table-four-colours-high-contrast", "/", "#play-computer", high_contrast_match),
        ("contrast-guest", "lobby-high-contrast", "/", "#play-computer", None),
        ("contrast-guest", "learn-high-contrast", "/learn", "#hand .card", None),
        ("guest", "account-signup", "/account", "main", None),
        ("guest", "daily-play", "/daily/classic", "main", None),
        ("daily-guest", "daily-table", "/daily/classic", "main", start_daily),
        ("guest", "learn", "/learn", "main", None),
        ("guest", "rules", "/rules", "main", None),
        ("player", "daily", "/daily", "main", None),
        ("player", "daily-result", "/daily/classic", "main", None),
        ("player", "score", "/score", "main", None),
        ("player", "leaderboard", "/leaderboard", "main", None),
        ("player", "clubs", "/clubs", "main", None),
        ("player", "club", f"/c/{world.club}", "main", None),
        ("player", "events", "/events", "main", None),
        ("player", "event", f"/e/{world.event}", "main", None),
        ("player", "account", "/account", "main", None),
        ("player", "profile", f"/u/{world.player.name}", "main", None),
        ("player", "replay", f"/t/{world.finished}/replay", "#replay:not([hidden])", None),
        ("player", "score-book", f"/score/{world.book}#key={world.book_key}", "main", None),
        ("player", "match-end", f"/t/{world.finished}", "#match-end:not([hidden])", None),
        ("moderator", "moderation", "/moderation", "#desk[data-loaded='1']", None),
    ]


def later_visits(world: World) -> list[tuple[str, str, str, str, Callable[[Page], None] | None]]:
    """The pages added since (puzzles, friends, live tables, challenges), checked at a phone's size alone: the
    narrowest layout, the same colours as a laptop's."""
    return [
        ("player", "puzzles", "/puzzles", "main", None),
        ("player", "puzzle-of-the-day", "/puzzles/daily", "main", None),
        ("player", "friends", "/friends", "main", None),
        ("guest", "live-tables", "/live", "main", None),
        ("player", "challenge-new", "/challenges/new", "main", None),
    ]


def check(
    server: Server,
    world: World,
    person: Callable[..., Page],
    size: Any,
    lang: str = "en-GB",
    only: tuple[str, ...] = (),
    listed: Callable[[World], list[tuple[str, str, str, str, Callable[[Page], None] | None]]] = visits,
) -> dict[str, list[str]]:
    """Every visit's violations, by the visit's name."""
    accounts = {"player": world.player, "moderator": world.moderator}
    people: dict[str, Page] = {}
    found: dict[str, list[str]] = {}
    for who, name, path, ready, action in listed(world):
        if only and name not in only:
            continue
        if who not in people:
            people[who] = person(size, lang)
            if who in accounts:
                logged_in(people[who], server, accounts[who])
        page = people[who]
        page.goto(server.base + path)
        page.wait_for_selector(ready, state="attached")
        if action:
            action(page)
        page.wait_for_load_state("networkidle")
        found[name] = violations(page)
        assert not page.errors, (name, page.errors)  # type: ignore[attr-defined]
    return {k: v for k, v in found.items() if v}


def report(bad: dict[str, list[str]]) -> str:
    return "\n".join(f"{k}: {line}" for k, v in bad.items() for line in v)


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_every_page_has_no_wcag_violation(server: Server, world: World, person: Callable[..., Page], size: Any) -> None:
    bad = check(server, world, person, size)
    assert not bad, report(bad)


def test_the_later_pages_have_no_wcag_violation(server: Server, world: World, person: Callable[..., Page]) -> None:
    bad = check(server, world, person, PHONE, listed=later_visits)
    assert not bad, report(bad)


@pytest.mark.parametrize("lang", ["fr-FR", "it-IT"])
def test_the_tables_in_french_and_italian_have_no_wcag_violation(
    server: Server, world: World, person: Callable[..., Page], lang: str
) -> None:
    bad = check(
        server, world, person, LAPTOP, lang, only=("barbu-table", "besigue-table", "match-end", "lobby", "replay")
    )
    assert not bad, report(bad)


@pytest.fixture(scope="module")
def quick_solver(serve_module: Any, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A server whose double-dummy solver has a few milliseconds a cell: its table is drawn in seconds."""
    folder = tmp_path_factory.mktemp("a11y-dd")
    app = create_app(Settings(db_url=f"sqlite:///{folder / 'web.db'}", analysis_samples=2, analysis_seconds=0.02))
    app.state.analyses.dd_seconds = 0.005
    return str(serve_module(app=app).base)


def test_the_replays_double_dummy_table_has_no_wcag_violation(quick_solver: str, person: Callable[..., Page]) -> None:
    base = quick_solver
    status, made = upload(base, GOLDEN.read_text())
    assert status in (200, 201), made
    bad: dict[str, list[str]] = {}
    for size in (LAPTOP, PHONE):
        page = person(size)
        page.goto(f"{base}/replay/{made['id']}#deal=1&move=0")
        page.wait_for_selector("#dd-box:not([hidden])")
        if page.is_visible("#dd-ask"):
            page.focus("#dd-ask")
            page.keyboard.press("Enter")
        page.wait_for_selector("#dd-box[data-state=done] table.dd")
        found = violations(page)
        if found:
            bad[f"replay-double-dummy {size}"] = found
    assert not bad, report(bad)


def upload(base: str, record: str) -> tuple[int, Any]:
    """A record sent as the replay page sends it (the server asks for its own origin)."""
    req = urllib.request.Request(
        base + "/api/replays",
        data=json.dumps({"record": record}).encode(),
        headers={"content-type": "application/json", "origin": base},
    )
    with urllib.request.urlopen(req, timeout=60) as answer:
        return answer.status, json.loads(answer.read())


def test_the_end_of_match_box_takes_the_focus_and_escape_closes_it(
    server: Server, world: World, person: Callable[..., Page]
) -> None:
    page = person(LAPTOP)
    page.goto(f"{server.base}/t/{world.finished}")
    page.wait_for_selector("#match-end:not([hidden])")
    assert page.get_attribute("#match-end", "role") == "dialog"
    page.wait_for_function("() => document.activeElement.id === 'match-end-title'")  # read first
    page.keyboard.press("Tab")  # on into the box's links and buttons
    assert page.evaluate("() => document.getElementById('match-end').contains(document.activeElement)")
    page.keyboard.press("Escape")
    assert page.is_hidden("#match-end")
    assert page.evaluate("() => document.activeElement !== document.body")  # the focus is not lost
