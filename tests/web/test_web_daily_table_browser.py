"""The daily table is the table (issue 43): the daily deals of the Barbu family are drawn by the very table people
play at everywhere else, and Learn to play on the same base.  At a laptop's and a phone's size, a normal table
against the computer, a daily board and a lesson are measured in the browser: the same felt, the seats by their
places around it (you at the bottom, West on the left, North at the top, East on the right), the trick in the
middle, the turn line and the decision bar under the felt, the hand at the bottom.  The daily board is checked in
English, French and Italian, with a screenshot of each (BARBU_SHOTS=/some/folder).

Playwright drives Debian's chromium against a real `barbu serve`.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest
from playwright.sync_api import Page
from webhelpers import PHONE, shot

pytestmark = pytest.mark.browser
SERVE = ("--daily-boards", "2")
LAPTOP = (1366, 768)
SIZES = {"laptop": LAPTOP, "phone": PHONE}
#: The three other places at four, in each language: left, top, right of the felt.
PLACES = {"en": ("West", "North", "East"), "fr": ("Ouest", "Nord", "Est"), "it": ("Ovest", "Nord", "Est")}

#: What a table page is made of, measured: the elements of the table's base, the felt's look, where each seat's
#: box sits on the felt (its centre as a fraction of the felt's width and height) and the order of the parts.
PROBE = """() => {
  const box = (e) => e && e.getBoundingClientRect();
  const felt = document.querySelector('#felt');
  const f = box(felt);
  const seats = [...document.querySelectorAll('#felt #seat-boxes .seat-box')].map((s) => {
    const r = box(s);
    return { name: s.querySelector('.seat-name').textContent.trim(), me: s.classList.contains('me'),
      x: (r.left + r.width / 2 - f.left) / f.width, y: (r.top + r.height / 2 - f.top) / f.height };
  });
  const ids = ['felt', 'seat-boxes', 'center', 'deal-end', 'turn-bar', 'turn', 'decision', 'hand', 'side', 'contract-info',
    'last-trick', 'log', 'announce', 'error', 'match-end'].filter((id) => document.getElementById(id));
  const style = getComputedStyle(felt);
  const hand = box(document.querySelector('#hand'));
  const turn = box(document.querySelector('#turn-bar'));
  const center = box(document.querySelector('#center'));
  return { main: document.querySelector('main').id, ids, seats,
    felt: style.backgroundImage + ' ' + style.backgroundColor + ' ' + style.borderRadius,
    cards: document.querySelectorAll('#hand .card').length,
    centerInFelt: center.left >= f.left - 1 && center.right <= f.right + 1 && center.top >= f.top - 1 && center.bottom <= f.bottom + 1,
    turnUnderFelt: turn.top >= f.bottom - 1, handUnderTurn: hand.top >= turn.bottom - 1,
    fitsWidth: document.documentElement.scrollWidth <= innerWidth };
}"""


def probe(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(PROBE)
    return found


def check_places(found: dict[str, Any], lang: str) -> None:
    """You at the bottom, the others by their places: West on the left, North at the top, East on the right."""
    by_name = {s["name"]: s for s in found["seats"] if not s["me"]}
    me = [s for s in found["seats"] if s["me"]]
    assert len(found["seats"]) == 4 and len(me) == 1, found["seats"]
    assert me[0]["y"] > 0.7 and abs(me[0]["x"] - 0.5) < 0.1, me  # the bottom, in the middle
    west, north, east = (by_name[p] for p in PLACES[lang])
    assert west["x"] < 0.35 and abs(west["y"] - 0.5) < 0.2, west
    assert north["y"] < 0.3 and abs(north["x"] - 0.5) < 0.1, north
    assert east["x"] > 0.65 and abs(east["y"] - 0.5) < 0.2, east


def same_base(table: dict[str, Any], other: dict[str, Any]) -> None:
    """``other`` is drawn on the base of the normal ``table``: its elements, felt and layout."""
    assert other["main"] == table["main"] == "table"
    assert other["ids"] == table["ids"], (other["ids"], table["ids"])
    assert other["felt"] == table["felt"]
    for part in ("centerInFelt", "turnUnderFelt", "handUnderTurn", "fitsWidth"):
        assert other[part] and table[part], (part, other, table)
    assert other["cards"] > 0 and table["cards"] > 0
    # each seat at the same spot of the felt as at the normal table (yours with yours)
    for s in other["seats"]:
        near = min(table["seats"], key=lambda t: (t["x"] - s["x"]) ** 2 + (t["y"] - s["y"]) ** 2)
        assert abs(near["x"] - s["x"]) < 0.05 and abs(near["y"] - s["y"]) < 0.1 and near["me"] == s["me"], (s, near)


def normal_table(person: Callable[..., Page], base: str, size: tuple[int, int]) -> dict[str, Any]:
    """A match against the computer, begun from the lobby as anyone begins one."""
    page = person(size)
    page.goto(base + "/?lang=en")
    page.wait_for_function("() => document.querySelector('#play-strength').options.length > 0")
    page.click("#play-computer")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#hand .card")
    page.wait_for_selector("#seat-boxes .seat-box.me")
    found = probe(page)
    check_places(found, "en")
    assert not page.errors, page.errors  # type: ignore[attr-defined]
    page.context.close()
    return found


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
def test_the_daily_board_and_the_lesson_are_drawn_on_the_tables_base(
    size: str, person: Callable[..., Page], server: Any
) -> None:
    table = normal_table(person, server.base, SIZES[size])
    for lang in ("en", "fr", "it"):
        page = person(SIZES[size])
        page.goto(f"{server.base}/daily/classic?lang={lang}")
        page.wait_for_selector("#start-panel:not([hidden])")
        page.click("#start")
        page.wait_for_url("**/daily/classic/play")
        page.wait_for_selector("#hand .card")
        page.wait_for_selector("#seat-boxes .seat-box.me")
        page.wait_for_selector("#daily-board:not(:empty)")
        daily = probe(page)
        check_places(daily, lang)
        same_base(table, daily)
        # a daily board keeps its own words: which deal of the set, no hint, no invitation, no seats to take
        assert page.locator("#daily-board").is_visible() and page.locator("#daily-role").inner_text()
        assert page.locator("#invite").is_hidden() and page.locator("#hint-button").is_hidden()
        assert page.locator("#seats-panel").is_hidden()
        shot(page, f"daily-table-{size}-{lang}")
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        page.context.close()
    page = person(SIZES[size])
    page.goto(f"{server.base}/learn?lang=en")
    page.wait_for_selector("#hand .card")
    page.wait_for_selector("#seat-boxes .seat-box.me")
    lesson = probe(page)
    check_places(lesson, "en")
    same_base(table, lesson)
    # the lesson keeps its own panel, beside the felt on a laptop, under it on a phone; none of a table's tools
    text = page.locator("#lesson-text")
    assert text.is_visible() and text.inner_text() and page.locator("#lesson-again").is_visible()
    felt, panel = page.locator("#felt").bounding_box(), page.locator("#lesson").bounding_box()
    assert felt and panel
    if size == "laptop":
        assert panel["x"] >= felt["x"] + felt["width"] and panel["y"] < felt["y"] + felt["height"] / 2, (felt, panel)
    else:
        assert panel["y"] >= felt["y"] + felt["height"] - 1, (felt, panel)
    assert page.locator("#invite").is_hidden() and page.locator("#hint-button").is_hidden()
    assert page.locator("#seats-panel").is_hidden()
    shot(page, f"daily-table-learn-{size}")
    assert not page.errors, page.errors  # type: ignore[attr-defined]
