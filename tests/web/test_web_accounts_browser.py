"""Accounts in the browser (issue 32), at phone and laptop sizes: sign up on /account, play a rated match of
Salad for three against computer players from the lobby's own controls, then find the rating (provisional) and
the match on the profile, with a Replay that opens; log out and in again, a wrong password refused in plain
words; a guest's finished match claimed at sign-up; a second browser logged in as the same account gets the
seat back at the table; a one-time link from `barbu users reset-password` sets a new password, once; the account
is deleted after a confirmation.  Playwright drives Debian's chromium against a real `barbu serve` (no computer
player waits, no pause between deals).  BARBU_SHOTS names a folder for screenshots of the account, profile,
leaderboard and lobby pages at 1280x800 and 390x844, in English, French and Italian.

The tests share one server and do not depend on one another's order: each signs up its own names, the per-address
limits are off (every browser comes from 127.0.0.1), and the analysis a replay's page starts is kept short and
waited for, so that it does not hold this server's next requests up (for tens of seconds on a loaded machine)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from typing import Callable

import pytest
from helpers import shots_on
from playwright.sync_api import Page, expect
from webhelpers import LAPTOP, PHONE, Server
from webhelpers import shot as take_shot

pytestmark = pytest.mark.browser
SERVE = (
    "--bot-delay",
    "0",
    "--deal-pause",
    "0",
    "--grace",
    "1000",
    "--tables-per-hour",
    "0",
    "--bot-tables-per-address",
    "0",
    "--signups-per-hour",
    "0",
    "--analysis-samples",
    "2",
)
PASSWORD = "a quiet hand of hearts"

# The whole match, played in the page itself so the test does not wait on a round trip per card: on each turn of
# this seat, the first legal card, else the first choice offered (a contract, a double, a pass), clicked as a
# player clicks it; then wait for the table to move on.  Returns the number of clicks; stops at `untilDeal`.
PLAY = """async ([untilDeal]) => {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const main = document.querySelector("main[data-phase]");
  let clicks = 0;
  for (let i = 0; i < 20000; i++) {
    if (main.dataset.phase === "over") return clicks;
    if (untilDeal && Number(main.dataset.deal) >= untilDeal) return clicks;
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


def shot(page: Page, name: str) -> None:
    take_shot(page, f"accounts-{name}", full_page=True)


def sign_up(page: Page, base: str, name: str) -> None:
    page.goto(base + "/account")
    expect(page.locator("#guest-view")).to_be_visible()
    expect(page.locator("#account-login")).to_be_visible()  # the header's "Log in", a guest's
    expect(page.locator("#signup-name-rule")).to_contain_text("2 to 24 characters")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-button")
    expect(page.locator("#member-view")).to_be_visible()
    expect(page.locator("#account-note")).to_contain_text(f"Welcome, {name}")
    expect(page.locator("#account-name")).to_be_visible()
    expect(page.locator("#account-name-text")).to_have_text(name)


def log_in(page: Page, base: str, name: str, password: str = PASSWORD) -> None:
    page.goto(base + "/account")
    page.fill("#login-name", name)
    page.fill("#login-password", password)
    page.click("#login-button")


def play_rated_salad(page: Page, base: str) -> str:
    """From the lobby: Salad for three in the New-table form, so that Play now plays it, rated (a choice the
    player ticks once logged in, never a default), short (6 deals), against random computer players; the table's
    id once seated."""
    page.goto(base + "/")
    page.wait_for_selector("#preset option[value='salad']", state="attached")
    expect(page.locator("#play-rated-box")).to_be_visible()
    expect(page.locator("#play-rated")).not_to_be_checked()
    page.check("#play-rated")
    expect(page.locator("#create-rated-box")).to_be_visible()
    page.select_option("#preset", "salad")
    page.select_option("#players", "3")
    page.select_option("#play-strength", "random")
    page.select_option("#play-length", "short")
    page.click("#play-computer")
    page.wait_for_url("**/t/*")
    page.wait_for_function("() => document.querySelector('#table').dataset.seat === '0'")
    expect(page.locator("#rated-mark")).to_be_visible()
    expect(page.locator("#rules")).to_contain_text("short match: 2 contracts each")
    expect(page.locator("#hint-button")).to_be_hidden()  # a rated match is played without hints
    return page.url.split("/t/")[1]


@pytest.mark.slow
@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_sign_up_play_a_rated_match_and_find_it_on_the_profile(
    server: Server, person: Callable[..., Page], viewport: tuple[int, int]
) -> None:
    base = server.base
    name = "Lou Laptop" if viewport is LAPTOP else "Pia Phone"
    page = person(viewport, reduced_motion="reduce")
    sign_up(page, base, name)
    tid = play_rated_salad(page, base)
    page.evaluate(PLAY, [0])
    expect(page.locator("#match-end")).to_be_visible()
    # The ratings beside the names, now that the match has rated him: his own provisional ("?").
    page.click("#close-end")
    mine = page.locator("[data-seat-box='0'] .rating")
    expect(mine).to_be_visible()
    expect(mine).to_have_text(re.compile(r"^\d[\d\s,.]*\?$"))

    # His profile, from the header's name: the rating (provisional), its chart, the match with its Replay.
    page.click("#account-name")
    page.wait_for_url("**/u/*")
    expect(page.locator("#player-name")).to_have_text(name)
    card = page.locator(".rating-card[data-game='salad']")
    expect(card).to_contain_text("Salad")
    expect(card).to_contain_text("provisional")
    expect(card).to_contain_text("1 rated match")
    expect(card.locator(".rating-figure strong")).to_have_text(re.compile(r"\?$"))
    expect(card.locator("svg.rating-chart circle")).to_have_count(1)
    row = page.locator(f"[data-match='{tid}']")
    expect(row).to_contain_text("rated")
    expect(row).to_contain_text("of 3")
    expect(row.locator(".seat-chip")).to_have_count(3)
    expect(row).to_contain_text(re.compile(r"(West|East), random"))  # computers by place and strength
    expect(row).not_to_contain_text("computer (")
    expect(page.locator("[data-stats='salad']")).to_be_visible()
    expect(page.locator("#own-links")).to_be_visible()
    assert page.locator(".profile-main").evaluate("e => e.scrollWidth <= e.clientWidth + 1")  # nothing overflows
    shot(page, "profile-en")
    replay = row.locator("[data-replay]")
    if viewport is PHONE:
        # At a phone's size: the Replay button is within the width and leads to this match's replay.  Opening it is
        # the laptop case's (the replay page asks the server for the deal's analysis: a second one here cost
        # 12 s of processor, the module's 48 s down to 36, and checked nothing new; the replay page at a phone's size is
        # test_web_a11y.py's and test_web_replay_browser.py's).
        expect(replay).to_be_visible()
        assert replay.evaluate("a => a.getBoundingClientRect().right <= innerWidth")  # within the phone's width
        assert replay.evaluate("a => new URL(a.href).pathname") == f"/t/{tid}/replay"
    else:
        replay.click()
        page.wait_for_url(f"**/t/{tid}/replay")
        expect(page.locator("#replay")).to_be_visible()
        # The replay asks the server to weigh the deal's decisions; the test waits for that work to end, so that
        # it holds up neither the next requests here nor the other tests on this server (the solver keeps the
        # server's interpreter to itself while it runs).
        expect(page.locator("#move")).to_have_attribute("data-state", "done", timeout=240_000)

    # Log out, and in again: a wrong password is refused in plain words, the right one lets him in.
    page.goto(base + "/account")
    page.click("#logout")
    expect(page.locator("#account-note")).to_have_text("You are logged out.")
    expect(page.locator("#account-login")).to_be_visible()
    log_in(page, base, name, "not the password")
    expect(page.locator("#login-error")).to_have_text("wrong user name or password")
    expect(page.locator("#login-error")).to_have_attribute("role", "alert")
    log_in(page, base, name.upper())  # names are case-insensitive
    expect(page.locator("#account-note")).to_contain_text(f"You are logged in as {name}")
    expect(page.locator("#member-name")).to_have_text(name)
    assert not page.errors  # type: ignore[attr-defined]

    if shots_on():
        for lang in ("en", "fr", "it"):
            for where, ready in (
                (f"/u/{name}", "#profile[data-loaded='1']"),
                ("/leaderboard?game=salad", "#board[data-loaded='salad']"),
                ("/", "#preset option"),
                ("/account", "#member-view:not([hidden])"),
            ):
                page.goto(f"{base}{where}{'&' if '?' in where else '?'}lang={lang}")
                page.wait_for_selector(ready, state="attached")
                page.evaluate(
                    "() => document.querySelectorAll('details.game-details').forEach((d) => { d.open = true; })"
                )
                page.wait_for_timeout(150)
                page_name = {"u": "profile", "": "lobby"}.get(where.strip("/").split("?")[0].split("/")[0], "")
                shot(page, f"{page_name or where.strip('/').split('?')[0]}-{lang}")
        guest = person(viewport, reduced_motion="reduce")
        for lang in ("en", "fr", "it"):
            guest.goto(f"{base}/account?lang={lang}")
            guest.wait_for_selector("#guest-view:not([hidden])")
            guest.click("#login-button")  # an empty form: the server's refusal, in the page's language
            guest.wait_for_selector("#login-error:not(:empty)")
            shot(guest, f"account-guest-{lang}")
            guest.goto(f"{base}/u/nobody-here?lang={lang}")
            guest.wait_for_selector("#not-found:not([hidden])")
            shot(guest, f"profile-missing-{lang}")
        guest.goto(f"{base}/t/{tid}?lang=fr")
        guest.wait_for_selector("#standings li")
        guest.click("#close-end")
        shot(guest, "table-fr")
        guest.context.close()
    page.context.close()


@pytest.mark.slow
def test_a_guests_match_is_claimed_at_sign_up_and_the_seat_follows_the_account(
    server: Server, person: Callable[..., Page]
) -> None:
    base = server.base
    page = person(LAPTOP, reduced_motion="reduce")
    # As a guest: one deal of Salad against the computer, then End from My tables (its deal is kept).
    page.goto(base + "/")
    page.wait_for_selector("#preset option[value='salad']", state="attached")
    expect(page.locator("#play-rated-box")).to_be_hidden()  # rated matches are for accounts
    expect(page.locator("#rated-guest")).to_be_visible()
    page.select_option("#preset", "salad")
    page.select_option("#players", "3")
    page.select_option("#play-strength", "random")
    page.click("#play-computer")
    page.wait_for_url("**/t/*")
    guest_table = page.url.split("/t/")[1]
    expect(page.locator("#rated-mark")).to_be_hidden()
    page.evaluate(PLAY, [2])
    page.goto(base + "/")
    row = page.locator(f"[data-mine='{guest_table}']")
    row.locator("[data-mine-end]").click()
    row.locator("[data-mine-yes]").click()
    expect(page.locator("#mine-note")).to_have_text("The match is ended: its replay is kept.")

    # Sign up: the match this browser played is added to the new account at once, and said so.
    sign_up(page, base, "Claire Claim")
    expect(page.locator("#account-note")).to_contain_text("1 finished match you played in this browser as a guest")
    page.click("#member-profile")
    expect(page.locator(f"[data-match='{guest_table}']")).to_contain_text("not rated")

    # A rated table, left after a few moves; another browser logged in as the same account has the seat back.
    tid = play_rated_salad(page, base)
    other = person(PHONE, reduced_motion="reduce")
    log_in(other, base, "Claire Claim", "wrong password!")
    expect(other.locator("#login-error")).to_have_text("wrong user name or password")
    log_in(other, base, "claire claim")
    expect(other.locator("#member-view")).to_be_visible()
    other.goto(f"{base}/t/{tid}")
    other.wait_for_function("() => document.querySelector('#table').dataset.seat === '0'")
    expect(other.locator("#hand .card").first).to_be_visible()
    expect(other.locator("#rated-mark")).to_be_visible()
    expect(other.locator("#account-initial")).to_have_text("C")  # the phone's header: a badge
    # ... and plays it: a move made there is the seat's.
    before = other.locator("#table").get_attribute("data-version")
    other.evaluate(PLAY, [2])
    assert other.locator("#table").get_attribute("data-version") != before
    # My tables in the lobby of that browser lists the table it never sat down at.
    other.goto(base + "/")
    expect(other.locator(f"[data-mine='{tid}']")).to_contain_text("(you)")
    expect(other.locator(f"[data-table='{tid}'] .rated-mark")).to_be_visible()  # the open tables mark it rated

    # A new password, asked for with the current one.
    other.goto(base + "/account")
    other.fill("#password-old", "not my password")
    other.fill("#password-new", "a changed password")
    other.click("#password-button")
    expect(other.locator("#password-error")).to_have_text("that is not your current password")
    other.fill("#password-old", PASSWORD)
    other.click("#password-button")
    expect(other.locator("#password-done")).to_contain_text("Your password is changed")

    # A forgotten password: the operator's one-time link chooses a new one and logs in; it works once.
    out = subprocess.run(
        [sys.executable, "-m", "barbu", "users", "--db", server.db, "reset-password", "Claire Claim", "--url", base],
        capture_output=True,
        text=True,
        check=True,
        env=dict(os.environ, BARBU_LANG="en"),
    )
    link = re.search(r"\S+/account/reset#key=\S+", out.stdout).group(0)
    other.goto(link)
    expect(other.locator("#reset-view")).to_be_visible()
    other.fill("#reset-password", "a brand new password")
    other.click("#reset-button")
    expect(other.locator("#account-note")).to_contain_text("Your new password is set")
    assert "#key=" not in other.url  # the used key leaves the address bar
    other.goto(link)
    other.fill("#reset-password", "yet another password")
    other.click("#reset-button")
    expect(other.locator("#reset-error")).to_contain_text("expired or was used already")

    # Deleting the account: the confirmation says what happens, asks for the password, and then the name is gone.
    other.goto(base + "/account")
    other.click("#delete-start")
    expect(other.locator("#delete-form")).to_contain_text("a deleted player")
    shot(other, "account-delete-en")
    other.fill("#delete-password", "a changed password")  # the one before the link no longer works
    other.click("#delete-yes")
    expect(other.locator("#delete-error")).to_have_text("that is not your current password")
    other.fill("#delete-password", "a brand new password")
    other.click("#delete-yes")
    expect(other.locator("#account-note")).to_contain_text("Your account is deleted")
    expect(other.locator("#guest-view")).to_be_visible()
    other.goto(base + "/u/Claire%20Claim")
    expect(other.locator("#not-found")).to_contain_text("There is no player named Claire Claim")
    assert not page.errors and not other.errors  # type: ignore[attr-defined]
    other.context.close()
    page.context.close()
