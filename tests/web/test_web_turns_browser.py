"""Turn-based tables in the browser (issue 32), at phone and laptop sizes: two people sign up, each in a browser
of his own; the first makes a turn-based table of Salad for three from the lobby's New table form (the clock's
choices give way to the long ones), both sit down and a computer player takes the third seat; the second closes
his browser and the first plays until the table waits for him.  His clock then runs in hours although nobody
of his is connected.  When he comes back, his lobby shows the table under "Your turn" (it is listed as
turn-based among the tables too), his own profile as well, and the table shows his time in hours and days.
Playwright drives Debian's chromium against a real `barbu serve`.  BARBU_SHOTS names a folder for screenshots
of the lobby with its "Your turn" and of the turn-based table, in English, French and Italian."""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import Callable

import pytest
from helpers import shots_on
from playwright.sync_api import Page, expect
from webhelpers import LAPTOP, PHONE, Server, another_page
from webhelpers import shot as take_shot

from barbu import web
from barbu.web.tables.clock import TURN_CHOICES, TURN_DEFAULT

SERVE = ("--bot-delay", "0", "--deal-pause", "0", "--tables-per-hour", "0", "--signups-per-hour", "0")
PASSWORD = "a quiet hand of hearts"
# The time of a turn-based clock as the table shows it: "8 h", "7 h 59 min", "1 d", "2 d 5 h" (never 479:59).
LONG_TIME = re.compile(r"\d+ (d|h)\b")

# This seat's moves, played in the page itself as a player clicks them (the first legal card, else the first
# choice offered), until the table waits for seat `seat` (or the match is over).  Returns the clicks.
PLAY_UNTIL = """async ([seat]) => {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const main = document.querySelector("main[data-phase]");
  let clicks = 0;
  for (let i = 0; i < 20000; i++) {
    if (main.dataset.phase === "over" || main.dataset.toAct === String(seat)) return clicks;
    const mine = document.querySelector("#turn").dataset.mine === "1";
    const target = mine && (document.querySelector("#hand .card[data-legal='1']")
      || document.querySelector("#decision button[data-action]:not([disabled])"));
    if (!target) { await sleep(15); continue; }
    const version = main.dataset.version;
    target.click();
    clicks++;
    for (let j = 0; j < 400 && main.dataset.version === version; j++) await sleep(5);
  }
  return clicks;
}"""


# Times as the table and "Your turn" word them, from the page's own modules: a countdown rounds up, a wait down.
WORDS = """async () => {
  const { longTime, clockWords } = await import("/static/js/clock.js");
  const { turnRows } = await import("/static/js/yourturn.js");
  const ago = new Date(Date.now() - (3 * 3600 + 12 * 60 + 30) * 1000).toISOString();
  const [row] = turnRows([{ id: "x", url: "/t/x", rules: "classic", clock: "28800+86400", since: ago }]);
  return [longTime(2 * 86400 + 5 * 3600), longTime(3 * 3600 + 12 * 60), longTime(8 * 3600 - 0.5), longTime(45 * 60),
    longTime(30), longTime(86400 - 10), longTime(3 * 3600 + 12 * 60 + 30, false), clockWords("86400+259200"),
    clockWords("43200+172800"), row.textContent];
}"""
WORDED = [
    "2 d 5 h",
    "3 h 12 min",
    "8 h",
    "45 min",
    "30 s",
    "1 d",
    "3 h 12 min",
    "1 day a move, 3 days in reserve",
    "12 hours a move, 2 days in reserve",
    "Classicwaiting for 3 h 12 min4 h 48 min left for this move · 8 hours a move, 1 day in reservePlay",
]


def shot(page: Page, name: str, full: bool = True) -> None:
    take_shot(page, f"turns-{name}", full_page=full)


def sign_up(page: Page, base: str, name: str) -> None:
    page.goto(base + "/account")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-button")
    expect(page.locator("#account-name-text")).to_have_text(name)


def make_turn_based_table(page: Page, base: str) -> str:
    """From the lobby's New table form: Salad for three, turn-based, 8 hours a move; the creator sits in seat 1."""
    page.goto(base + "/")
    page.wait_for_selector("#preset option[value='salad']", state="attached")
    page.select_option("#preset", "salad")
    page.select_option("#players", "3")
    expect(page.locator("#clock")).to_be_visible()
    expect(page.locator("#turn-clock")).to_be_hidden()
    page.check("#turn-based")
    expect(page.locator("#clock")).to_be_hidden()  # the real-time clocks give way to the long ones
    expect(page.locator("#turn-clock")).to_be_visible()
    expect(page.locator("#turn-clock option:checked")).to_have_text("1 day a move, 3 days in reserve")
    expect(page.locator("#clock-description")).to_contain_text("Nobody needs to stay connected")
    expect(page.locator("#clock-description")).to_contain_text("the computer plays that move for you")
    page.select_option("#turn-clock", "hours")
    shot(page, "new-table-en")
    page.click("#create-button")
    page.wait_for_url("**/t/*")
    tid = page.url.split("/t/")[1]
    page.click("[data-seat-take='0']")
    page.wait_for_function("() => document.querySelector('#table').dataset.seat === '0'")
    expect(page.locator("#turn-mark")).to_be_visible()  # "Turn-based" in the table's header
    return tid


def test_the_new_table_form_offers_the_servers_turn_based_clocks() -> None:
    """The form's turn-based choices are the server's, in the same words as their hours and days, the server's
    default chosen."""
    page = (Path(web.__file__).with_name("templates") / "index.html").read_text()
    select = page.split('id="turn-clock"')[1].split("</select>")[0]
    option = r'<option value="(\w+)"( selected)?>\{\{ _\("(\d+) (hours?|days?) a move, (\d+) (days?) in reserve"\) \}\}'
    found = re.findall(option, select)
    assert [name for name, *_ in found] == list(TURN_CHOICES)
    unit = {"hour": 3600, "hours": 3600, "day": 86400, "days": 86400}
    for name, selected, move, move_unit, bank, bank_unit in found:
        assert (int(move) * unit[move_unit], int(bank) * unit[bank_unit]) == (
            TURN_CHOICES[name].per_move,
            TURN_CHOICES[name].bank,
        )
        assert bool(selected) == (name == TURN_DEFAULT)


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_turn_based_table_waits_for_an_absent_player_and_is_listed_as_his_turn(
    server: Server, person: Callable[..., Page], viewport: tuple[int, int]
) -> None:
    base = server.base
    tag = uuid.uuid4().hex[:6]
    ann, ben = f"Ann {tag}", f"Ben {tag}"
    # two people, each in a browser of his own, in English, without the cards' flights
    first, second = person(viewport, reduced_motion="reduce"), person(viewport, reduced_motion="reduce")
    sign_up(first, base, ann)
    sign_up(second, base, ben)
    tid = make_turn_based_table(first, base)

    # The second sits down; the first gives the third seat to a computer player, and the match starts.
    second.goto(f"{base}/t/{tid}")
    second.click("[data-seat-take='1']")
    second.wait_for_function("() => document.querySelector('#table').dataset.seat === '1'")
    first.click("[data-seat-bot='2']")
    first.wait_for_function("() => document.querySelector('#table').dataset.status === 'playing'")
    second.close()  # his browser is closed: a turn-based table waits for him all the same

    # The first plays until the table waits for the second, who is not there: his clock runs, in hours.
    first.evaluate(PLAY_UNTIL, [1])
    expect(first.locator("#table")).to_have_attribute("data-to-act", "1")
    absent = first.locator("[data-seat-box='1']")
    chip = absent.locator(".chip.clock")
    expect(chip).to_have_class(re.compile(r"\brunning\b"))
    expect(chip).to_have_text(LONG_TIME)
    expect(absent).not_to_contain_text("computer plays")
    expect(first.locator("#turn-mark")).to_be_visible()
    shot(first, "table-waiting-en", full=False)

    # He comes back: his lobby lists the table under "Your turn", and among the tables as turn-based.
    back = another_page(second)
    row = back.locator(f"#turns [data-turn='{tid}']")
    for _ in range(40):  # the table stores whose turn it is as the move is made: a moment at most
        back.goto(base + "/")
        try:
            expect(row).to_be_visible(timeout=1_000)
            break
        except AssertionError:
            continue
    expect(back.locator("#turns-panel")).to_be_visible()
    expect(row).to_contain_text("Salad")
    expect(row).to_contain_text("waiting for")
    expect(row.locator("a")).to_have_attribute("href", f"/t/{tid}")
    # Longer waits and times read in days, hours and minutes (the list is redrawn every half minute).
    assert back.evaluate(WORDS) == WORDED
    listed = back.locator(f"#tables [data-table='{tid}']")
    expect(listed.locator(".turn-mark")).to_have_text("Turn-based")
    if shots_on():
        for lang in ("en", "fr", "it"):
            back.goto(f"{base}/?lang={lang}")
            expect(row).to_be_visible()
            expect(listed).to_be_visible()
            shot(back, f"lobby-{lang}")
        back.goto(f"{base}/?lang=en")

    # His own profile lists it too; another player's does not show his list.
    back.goto(f"{base}/u/{ben.replace(' ', '%20')}")
    expect(back.locator("#profile")).to_have_attribute("data-turns", "1")
    expect(back.locator(f"#turns [data-turn='{tid}']")).to_contain_text("Salad")
    back.goto(f"{base}/u/{ann.replace(' ', '%20')}")
    expect(back.locator("#profile")).to_have_attribute("data-loaded", "1")
    expect(back.locator("#turns-panel")).to_be_hidden()

    # He opens the table from "Your turn": his time in hours and days, and the line that says turn-based.
    back.goto(f"{base}/")
    row.locator("a").click()
    back.wait_for_url(f"**/t/{tid}")
    back.wait_for_function("() => document.querySelector('#table').dataset.seat === '1'")
    mine = back.locator("#my-clock")
    expect(mine).to_be_visible()
    expect(mine).to_contain_text(re.compile(r"Your time: \d+ h.*, then 1 d in the bank"))
    expect(back.locator("[data-seat-box='1'] .chip.clock")).to_have_text(LONG_TIME)
    expect(back.locator("#turn-mark")).to_have_text("Turn-based")
    expect(back.locator("#turn-mark")).to_have_attribute("title", re.compile("nobody needs to stay connected"))
    if shots_on():
        for lang in ("en", "fr", "it"):
            back.goto(f"{base}/t/{tid}?lang={lang}")
            back.wait_for_function("() => document.querySelector('#table').dataset.seat === '1'")
            expect(back.locator("#my-clock")).to_be_visible()
            shot(back, f"table-{lang}", full=False)
        back.goto(f"{base}/u/{ben.replace(' ', '%20')}?lang=fr")
        expect(back.locator("#turns-panel")).to_be_visible()
        shot(back, "profile-fr")
        back.goto(f"{base}/?lang=en")
    assert first.errors == [] and back.errors == []
