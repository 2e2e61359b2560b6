"""The person's "Expert" box on the browser tables, and the comparison on the Bésigue table: unticked, the page
tells the server at once and at each new connection, and shows no comparison; on Bésigue the expert's points
on the same cards appear under the scores and in the deal's summary."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from playwright.sync_api import Browser, Page
from websockets.sync.client import connect as ws_connect

from webhelpers import Server, new_table, watched_page

STEP = 30_000  # ms
LAPTOP, PHONE = (1280, 800), (390, 844)
SHOTS = Path("/tmp/shots")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    d = tmp_path_factory.mktemp("compare")
    with Server(f"sqlite:///{d / 'web.db'}", d / "server.log", "--bot-delay", "0", "--deal-pause", "0",
                "--grace", "1000", "--compare-with", "rule") as s:
        yield s


def seated_page(browser: Browser, size: tuple[int, int], tid: str, token: str | None, seat: int = 0) -> Page:
    page = watched_page(browser, size, STEP)
    if token is not None:
        seat_json = json.dumps(json.dumps({"token": token, "seat": seat}))
        page.context.add_init_script(f"localStorage.setItem('barbu:seat:{tid}', {seat_json});")
    return page


def sent_frames(page: Page) -> list[dict[str, Any]]:
    """Every message the page sends over its table sockets, as it sends them."""
    sent: list[dict[str, Any]] = []

    def watch(ws: Any) -> None:
        ws.on("framesent", lambda payload: sent.append(json.loads(payload)) if isinstance(payload, str) else None)
    page.on("websocket", watch)
    return sent


def play_deals(ws_base: str, tid: str, token: str, deals: int, limit: float = 300) -> None:
    """The seat's second connection plays its first legal action until ``deals`` deals are over."""
    stop = time.monotonic() + limit
    with ws_connect(f"{ws_base}/ws/{tid}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        done = None
        while time.monotonic() < stop:
            try:
                msg = json.loads(ws.recv(timeout=0.5))
            except TimeoutError:
                continue
            if msg.get("type") in ("scores", "sync") and len(msg["scores"]["deals"]) >= deals:
                return
            st = msg.get("state")
            if not st or st.get("to_act") != st.get("seat") or not st.get("legal") or done == st["version"]:
                continue
            done = st["version"]
            time.sleep(0.05)  # within the server's rate of messages per connection
            ws.send(json.dumps({"type": "act", "action": st["legal"][0], "version": st["version"]}))
    raise AssertionError("the deals did not end")


@pytest.mark.slow
def test_the_expert_box_turns_the_comparison_off_and_is_remembered(server: Server, browser: Browser) -> None:
    tid, tokens = new_table(server.base, "classic", seats={0: "Ann"}, bots={1: "rule", 2: "rule", 3: "rule"})
    page = seated_page(browser, LAPTOP, tid, tokens[0])
    sent = sent_frames(page)
    page.goto(f"{server.base}/t/{tid}")
    page.wait_for_selector("#compare-toggle")
    assert page.is_checked("#compare-toggle") and page.is_visible("#compare-label")
    assert not [m for m in sent if m["type"] == "compare"]  # on by default: nothing to say
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "r3_compare_box_laptop.png"))
    page.uncheck("#compare-toggle")
    page.wait_for_function("() => localStorage.getItem('barbu:compare') === 'off'")
    assert {"type": "compare", "on": False} in sent
    # a reload: the box stays unticked, and the new connection tells the server again
    sent.clear()
    page.reload()
    page.wait_for_selector("#compare-toggle")
    assert not page.is_checked("#compare-toggle")
    page.wait_for_function("() => document.querySelector('#table').dataset.seat === '0'")
    for _ in range(100):
        if {"type": "compare", "on": False} in sent:
            break
        page.wait_for_timeout(50)
    assert {"type": "compare", "on": False} in sent
    play_deals(server.ws_base, tid, tokens[0], 1)
    page.wait_for_function("() => document.querySelector('#table').dataset.deal === '2'")
    page.screenshot(path=str(SHOTS / "r3_compare_off_laptop.png"))
    assert page.is_hidden("#shadow-line") and not page.query_selector("#deal-end .shadow-deal-end")
    # ticked again: the deal finished meanwhile is compared and shown
    page.check("#compare-toggle")
    assert {"type": "compare", "on": True} in sent
    page.wait_for_selector("#shadow-line:not([hidden])")
    assert "over 1 deal" in page.inner_text("#shadow-line")
    # a watcher, and a table of people, have no box
    watcher = seated_page(browser, PHONE, tid, None)
    watcher.goto(f"{server.base}/t/{tid}")
    watcher.wait_for_selector("#table[data-status='playing']")
    assert watcher.is_hidden("#compare-label") if watcher.query_selector("#compare-label") else True
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    page.screenshot(path=str(SHOTS / "r3_compare_box_phone.png"))
    assert not page.errors and not watcher.errors


@pytest.mark.slow
def test_the_besigue_table_shows_the_expert_on_the_same_cards(server: Server, browser: Browser) -> None:
    tid, tokens = new_table(server.base, "besigue", seats={0: "Ann"}, bots={1: "rule"})
    page = seated_page(browser, LAPTOP, tid, tokens[0])
    watcher = seated_page(browser, PHONE, tid, None)
    page.goto(f"{server.base}/t/{tid}")
    watcher.goto(f"{server.base}/t/{tid}")
    page.wait_for_function("() => document.querySelector('#bz').dataset.seat === '0'")
    page.wait_for_selector("#compare-toggle")
    assert page.is_hidden("#shadow-line")
    play_deals(server.ws_base, tid, tokens[0], 1)
    page.wait_for_selector("#shadow-line:not([hidden])")
    line = page.inner_text("#shadow-line")
    assert "Expert in your seat, deal 1:" in line and "Against the expert:" in line and "over 1 deal" in line
    page.wait_for_selector("#deal-end .shadow-deal-end")  # in the deal's summary on the felt too
    assert "Expert in your seat:" in page.inner_text("#deal-end")
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "r3_besigue_laptop.png"))
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    page.screenshot(path=str(SHOTS / "r3_besigue_phone.png"), full_page=True)
    watcher.wait_for_selector("#bz-felt")
    assert watcher.is_hidden("#shadow-line") and not watcher.query_selector("#deal-end .shadow-deal-end")
    assert not page.errors and not watcher.errors
