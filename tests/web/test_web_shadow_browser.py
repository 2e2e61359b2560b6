"""The comparison with the expert on the browser table: one person plays a deal against computer players and
sees his score beside the expert's; at the match's end, the sum and links to the worst deals' analysis."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Iterator

import pytest
from playwright.sync_api import Browser, Page
from websockets.sync.client import connect as ws_connect

from webhelpers import Server, new_table, watched_page

STEP = 30_000  # ms
LAPTOP, PHONE = (1280, 800), (390, 844)
RULES = "classic"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    d = tmp_path_factory.mktemp("shadow")
    with Server(f"sqlite:///{d / 'web.db'}", d / "server.log", "--bot-delay", "0", "--deal-pause", "0",
                "--grace", "1000", "--compare-with", "rule") as s:
        yield s


def seated_page(browser: Browser, size: tuple[int, int], tid: str, token: str | None, seat: int = 0) -> Page:
    page = watched_page(browser, size, STEP)
    if token is not None:
        seat_json = json.dumps(json.dumps({"token": token, "seat": seat}))
        page.context.add_init_script(f"localStorage.setItem('barbu:seat:{tid}', {seat_json});")
    return page


def play_one(page: Page, rng: random.Random) -> None:
    """One decision as a person takes it: a legal card, or the first button (doubling: the last, to play)."""
    version = page.get_attribute("#table", "data-version") or ""
    phase = page.get_attribute("#table", "data-phase") or ""
    page.wait_for_selector("#hand .card[data-legal='1'], #decision button[data-action]:not([disabled])")
    cards = page.eval_on_selector_all("#hand .card[data-legal='1']", "cs => cs.map(c => c.dataset.card)")
    buttons = page.eval_on_selector_all("#decision button[data-action]:not([disabled])",
                                        "bs => bs.map(b => b.dataset.action)")
    if cards:
        page.locator(f"#hand .card[data-card='{rng.choice(cards)}']").click()
    else:
        action = buttons[-1] if phase == "doubling" else buttons[0]
        page.locator(f"#decision button[data-action='{action}']").click()
    page.wait_for_function("v => document.querySelector('#table').dataset.version !== v", arg=version)


def play_rest(ws_base: str, tid: str, token: str, limit: float = 300) -> None:
    """The same seat's second connection plays its first legal action to the end of the match."""
    stop = time.monotonic() + limit
    with ws_connect(f"{ws_base}/ws/{tid}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        done = None
        while time.monotonic() < stop:
            try:
                msg = json.loads(ws.recv(timeout=0.5))
            except TimeoutError:
                continue
            if msg.get("type") == "scores" and msg["scores"].get("over"):
                return
            st = msg.get("state")
            if not st or st["to_act"] != st["seat"] or not st["legal"] or done == st["version"]:
                continue
            done = st["version"]
            time.sleep(0.08)  # within the server's rate of messages per connection
            ws.send(json.dumps({"type": "act", "action": st["legal"][0], "version": st["version"]}))
    raise AssertionError("the match did not end")


@pytest.mark.slow
def test_the_expert_line_shows_after_a_deal_and_the_worst_deals_at_the_end(server: Server, browser: Browser) -> None:
    tid, tokens = new_table(server.base, RULES, seats={0: "Ann"}, bots={1: "rule", 2: "rule", 3: "rule"})
    page = seated_page(browser, LAPTOP, tid, tokens[0])
    watcher = seated_page(browser, PHONE, tid, None)
    page.goto(f"{server.base}/t/{tid}")
    watcher.goto(f"{server.base}/t/{tid}")
    page.wait_for_function("() => document.querySelector('#table').dataset.seat === '0'")
    assert page.is_hidden("#shadow-line")
    rng = random.Random(3)
    while page.is_hidden("#shadow-line"):
        assert page.get_attribute("#table", "data-phase") != "over"
        if page.get_attribute("#turn", "data-mine") == "1":
            play_one(page, rng)
        else:
            page.wait_for_timeout(100)
    line = page.inner_text("#shadow-line")
    assert "Expert in your seat, deal 1:" in line and "Against the expert:" in line and "over 1 deal" in line
    assert watcher.is_hidden("#shadow-line")  # watchers are told nothing
    play_rest(server.ws_base, tid, tokens[0])
    page.wait_for_selector("#match-end:not([hidden])")
    page.wait_for_function("() => /over 28 deals/.test((document.querySelector('#shadow-end') || {}).textContent)",
                           timeout=120_000)
    end = page.inner_text("#shadow-end")
    assert "You against the expert on your own cards:" in end
    links = page.eval_on_selector_all("#shadow-end a", "as => as.map(a => a.getAttribute('href'))")
    assert len(links) <= 3 and all(h.startswith(f"/t/{tid}/replay#deal=") for h in links)
    if links:  # the link opens that deal in the replay, its analysis asked for
        page.locator("#shadow-end a").first.click()
        deal = links[0].split("deal=")[1].split("&")[0]
        page.wait_for_function("d => document.querySelector('main').dataset.deal === d", arg=deal)
    assert watcher.is_hidden("#shadow-end") if watcher.query_selector("#shadow-end") else True
    assert not page.errors and not watcher.errors
