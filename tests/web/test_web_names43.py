"""Issue 43's rough edges on the web, in a real browser: the replay's own player at the bottom, the double-dummy
panel inside the screen, computer players named by place and strength ("West, good player") and never by their
engine, "Rated" a choice made knowing what it turns off, and a player on the leaderboard from his first rated
result, marked provisional.

Playwright drives Debian's chromium against the app served in this process (the double-dummy budget per cell
made tiny, so the table is solved at once).  With BARBU_SHOTS=/some/folder the pages are kept as ``names43-*``.
"""

from __future__ import annotations

import json
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, cast

import pytest
from playwright.sync_api import Page
from test_web_accounts import FAST, SHORT, sign_up, stored_over
from test_web_daily import DAY, NEXT, play_set
from test_web_daily import settings as daily_settings
from test_web_private import client, post
from test_web_protocol import play_out
from webhelpers import shot
from wsclient import Player

from barbu.play.labels import computer_name, table_place
from barbu.web import Settings
from barbu.web.accounts.service import COOKIE
from barbu.web.app import create_app
from barbu.web.replay.service import record_people

pytestmark = pytest.mark.browser
GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "classic-seed7.jsonl"
SIZES = ((1366, 768), (390, 844))
#: The names an old daily deal's record gave its computer players: the engine's.
OLD_DAILY = ["rule (computer)", "rule (computer)", "Alice", "rule (computer)"]
ENGINES = ("(computer)", "rule", "random", "search", "Computer, seat")


@dataclass
class Rated:
    """Alice's account and the rated match she finished against good players (seat 0, its credential)."""

    db_url: str
    cookie: str
    table: str
    token: str


@pytest.fixture(scope="module")
def rated(tmp_path_factory: pytest.TempPathFactory) -> Rated:
    """Alice signs up and plays one rated match against computer players to its end (through the real app)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('names43-db') / 'web.db'}"
    with client(Settings(db_url=url, **FAST)) as c:
        assert sign_up(c, "Alice").status_code == 201
        r = post(c, "/api/play", {"rules": SHORT, "strength": "rule", "rated": True})
        assert r.status_code == 201, r.text
        tid, token = r.json()["id"], r.json()["token"]
        assert r.json()["seat"] == 0
        table = cast(Any, c.app).state.lobby.tables[tid]
        p = Player(c, tid, token)
        play_out(p, table)
        p.close()
        stored_over(table)
        cookie = c.cookies[COOKIE]
    return Rated(url, cookie, tid, token)


@pytest.fixture(scope="module")
def base(serve_module: Any, rated: Rated) -> str:
    app = create_app(Settings(db_url=rated.db_url, analysis_samples=2, analysis_seconds=0.02))
    app.state.analyses.dd_seconds = 0.005
    return serve_module(app=app).base


def alice(person: Callable[..., Page], base: str, rated: Rated, size: tuple[int, int], lang: str) -> Page:
    """Alice's browser: her session, and the seat's credential of the table she played."""
    page = person(size, lang)
    host = base.split("//", 1)[1].split(":")[0]
    page.context.add_cookies([{"name": COOKIE, "value": rated.cookie, "domain": host, "path": "/"}])
    seat = json.dumps({"token": rated.token, "seat": 0, "name": "Alice"})
    page.context.add_init_script(f"localStorage.setItem('barbu:seat:{rated.table}', {json.dumps(seat)});")
    return page


def record(names: list[str], **header: Any) -> str:
    lines = GOLDEN.read_text().splitlines()
    head = json.loads(lines[0])
    head["players_names"] = names
    head.update(header)
    return "\n".join([json.dumps(head), *lines[1:]]) + "\n"


def upload(base: str, text: str) -> str:
    req = urllib.request.Request(
        base + "/api/replays",
        data=json.dumps({"record": text}).encode(),
        headers={"content-type": "application/json", "origin": base},
    )
    return str(json.loads(urllib.request.urlopen(req, timeout=30).read())["id"])


def test_the_replay_reads_which_seats_are_computers_and_whose_replay_it_is() -> None:
    """Records' names of computer players, old and new, and the replay's own seat."""
    assert record_people(OLD_DAILY, {}) == (("rule", "rule", None, "rule"), 2)
    names = ["Bea", "Computer, seat 2", "West, good player", "North, strong"]
    assert record_people(names, {}) == ((None, "", "rule", "search"), 0)
    assert record_people(names, {"daily": {"seat": 3, "strength": "rule"}}) == (("rule", "rule", "rule", None), 3)
    assert record_people(["Ann", "Bob", "rule (computer)"], {}) == ((None, None, "rule"), None)


def test_a_daily_record_names_its_computers_by_place_and_its_replay_puts_the_player_at_the_bottom(
    tmp_path: Path,
) -> None:
    """The record of one's daily deal (and its replay once the day is over): "West, good player", never the
    engine's name; the player's seat is the replay's own."""
    with client(daily_settings(f"sqlite:///{tmp_path / 'web.db'}")) as c:
        daily = cast(Any, c.app).state.daily
        daily.today = lambda: DAY
        answers = play_set(c)
        seat, players = answers[0]["seat"], answers[0]["players"]
        daily.today = lambda: NEXT
        r = c.get(f"/api/daily/classic/boards/0/record?day={DAY}")
        assert r.status_code == 200, r.text
        names = json.loads(r.text.splitlines()[0])["players_names"]
        words = [computer_name(table_place(s, seat, players), "rule", english=True) for s in range(players)]
        assert names == [names[seat] if s == seat else words[s] for s in range(players)]
        assert all(", good player" in n for s, n in enumerate(names) if s != seat)
        assert not [n for n in names if "(computer)" in n or "rule" in n]
        made = post(c, "/api/replays", {"record": r.text})
        assert made.status_code == 201, made.text
        o = c.get(f"/api/replays/{made.json()['id']}").json()
        assert o["me"] == seat and o["computers"] == ["rule" if s != seat else None for s in range(players)]


def box_of(page: Page, selector: str) -> Any:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_the_replay_puts_its_player_at_the_bottom_and_names_the_computers_by_place(
    base: str, person: Callable[..., Page], lang: str
) -> None:
    rid = upload(base, record(OLD_DAILY))
    west = {"en": "West, good player", "fr": "Ouest, bon joueur", "it": "Ovest, buon giocatore"}[lang]
    for width, height in SIZES:
        page = person((width, height))
        page.goto(f"{base}/replay/{rid}?lang={lang}#deal=1&move=12")
        page.wait_for_selector("#replay:not([hidden])")
        assert page.get_attribute("#replay", "data-me") == "2"
        # Alice's seat is the lowest on the felt and in its middle; the seat after hers (her left) is West.
        felt = box_of(page, "#felt")
        boxes = {s: box_of(page, f"[data-seat-box='{s}']") for s in range(4)}
        alice = boxes[2]
        assert all(alice["y"] > b["y"] for s, b in boxes.items() if s != 2), boxes
        middle = alice["x"] + alice["width"] / 2
        assert abs(middle - (felt["x"] + felt["width"] / 2)) < felt["width"] * 0.1, (middle, felt)
        assert boxes[3]["x"] < boxes[1]["x"]  # West on the left, East on the right
        assert page.inner_text("[data-seat-box='2'] .seat-name") == "Alice"
        assert page.inner_text("[data-seat-box='3'] .seat-name") == west
        shot(page, f"names43-felt-{lang}")
        # The double-dummy panel: every column inside the screen, headed by places, the full names as titles.
        page.wait_for_selector("#dd-box:not([hidden])")
        if page.is_visible("#dd-ask"):
            page.click("#dd-ask")
        page.wait_for_selector("#dd-box[data-state=done]")
        page.locator("table.dd").scroll_into_view_if_needed()
        heads = page.locator("table.dd thead th[data-seat]")
        assert heads.count() == 4
        panel = box_of(page, ".dd-wrap")  # a column is cut where it passes the panel's edge, not only the screen's
        edge = min(width, panel["x"] + panel["width"])
        for i in range(4):
            h = heads.nth(i)
            box = h.bounding_box()
            assert box is not None and box["x"] >= panel["x"] and box["x"] + box["width"] <= edge, (i, box, panel)
            assert h.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), f"column {i} cut at {width}px"
        assert heads.nth(3).get_attribute("title") == west
        assert heads.nth(2).get_attribute("title") == "Alice"
        cells = page.locator("table.dd tbody tr:first-child td")
        last = cells.nth(3).bounding_box()
        assert last is not None and last["x"] + last["width"] <= edge
        wrap = page.evaluate(
            "() => { const w = document.querySelector('.dd-wrap'); return [w.scrollWidth, w.clientWidth]; }"
        )
        assert wrap[0] <= wrap[1] + 1, wrap
        text = page.inner_text("#replay")
        assert not [w for w in ENGINES if w in text], text
        assert (
            page.inner_text("#rules") == {"en": "Classic", "fr": "Classique", "it": "Classico"}[lang]
        )  # not "classic"
        shot(page, f"names43-replay-{lang}")
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        page.context.close()


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_rated_is_a_choice_that_says_what_it_turns_off(
    base: str, rated: Rated, person: Callable[..., Page], lang: str
) -> None:
    hints = {"en": ("hints", "take-back", "rating"), "fr": ("conseils", "coups repris", "cote")}
    hints["it"] = ("suggerimenti", "mosse riprese", "rating")
    for size in SIZES:
        page = alice(person, base, rated, size, lang)
        page.goto(f"{base}/?lang={lang}")
        page.wait_for_selector("#play-rated-box:not([hidden])")
        assert not page.is_checked("#play-rated")  # a choice, never a default
        help_text = page.inner_text("#play-rated-help")
        assert all(w in help_text for w in hints[lang]), help_text
        assert page.get_attribute("#play-rated", "aria-describedby") == "play-rated-help"
        assert page.is_visible("#play-rated-help")
        text = page.inner_text("body")
        assert not [w for w in ("(computer)", "computer (") if w in text], text
        # "My tables" names the computers as the table does, by their places from her chair.
        west = {"en": "West, good player", "fr": "Ouest, bon joueur", "it": "Ovest, buon giocatore"}[lang]
        page.wait_for_selector(f"[data-mine='{rated.table}']")
        assert west in page.inner_text(f"[data-mine='{rated.table}']")
        shot(page, f"names43-lobby-{lang}")
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        page.context.close()


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_a_player_is_on_the_leaderboard_from_his_first_rated_match_marked_provisional(
    base: str, rated: Rated, person: Callable[..., Page], lang: str
) -> None:
    word = {"en": "provisional", "fr": "provisoire", "it": "provvisorio"}[lang]
    for size in SIZES:
        page = alice(person, base, rated, size, lang)
        page.goto(f"{base}/leaderboard?game=salad&lang={lang}")
        page.wait_for_selector("#board[data-loaded='salad']")
        row = page.locator("tr[data-player='Alice']")
        assert row.count() == 1
        tag = row.locator(".tag.provisional")
        assert tag.is_visible() and tag.inner_text() == word
        assert "5" in page.inner_text("#board-help")  # how many matches make a rating established
        box = row.bounding_box()
        assert box is not None and box["x"] + box["width"] <= size[0] + 1
        shot(page, f"names43-leaderboard-{lang}")
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        page.context.close()


def test_the_table_and_its_replay_name_the_computers_by_place_and_strength(
    base: str, rated: Rated, person: Callable[..., Page]
) -> None:
    for lang, west in (("en", "West, good player"), ("fr", "Ouest, bon joueur")):
        page = alice(person, base, rated, (1366, 768), lang)
        page.goto(f"{base}/t/{rated.table}?lang={lang}")
        page.wait_for_selector("#match-end:not([hidden])")
        text = page.inner_text("body")
        assert west in text and not [w for w in ("(computer)", "computer (", "(rule)") if w in text], text
        shot(page, f"names43-table-{lang}")
        page.goto(f"{base}/t/{rated.table}/replay?lang={lang}")
        page.wait_for_selector("#replay:not([hidden])")
        assert page.get_attribute("#replay", "data-me") == "0"  # this browser's seat, at the bottom
        assert page.inner_text("[data-seat-box='1'] .seat-name") == west
        text = page.inner_text("#replay")
        assert not [w for w in ENGINES if w in text], text
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        page.context.close()


def test_the_daily_table_names_its_computers_by_place_and_strength(base: str, person: Callable[..., Page]) -> None:
    for size, lang, west in (((1366, 768), "en", "West, good player"), ((390, 844), "it", "Ovest, buon giocatore")):
        page = person(size)
        page.goto(f"{base}/daily/classic?lang={lang}")
        page.wait_for_selector("#start-panel:not([hidden])")
        page.click("#start")
        page.wait_for_url("**/daily/classic/play")  # the boards are played on the Barbu table itself
        page.wait_for_selector("#seat-boxes .seat-box")
        place, strength = west.split(", ")
        names = page.locator("#seat-boxes .seat-name")
        box = next(names.nth(i) for i in range(names.count()) if names.nth(i).inner_text() == place)
        assert box.get_attribute("title") == west  # its name in full, as at any table
        assert strength in page.text_content("#seat-boxes")  # "computer · good player" (a phone shows "computer")
        assert "(rule)" not in page.inner_text("body")
        shot(page, f"names43-daily-{lang}")
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        page.context.close()
