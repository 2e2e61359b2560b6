"""The comparison with the expert on the browser tables: one person plays against computer players and sees
his score beside the expert's, and at the match's end the sum and links to the worst deals' analysis; the
"Expert" box turns it off (told to the server at once and at each new connection); on Bésigue the expert's
points on the same cards appear under the scores and in the deal's summary."""

from __future__ import annotations

import json
import random
import time
from typing import Any, Callable

import pytest
from playwright.sync_api import Page
from webhelpers import LAPTOP, PHONE, Server, new_table, shot
from websockets.sync.client import connect as ws_connect

pytestmark = pytest.mark.browser
SERVE = ("--bot-delay", "0", "--deal-pause", "0", "--grace", "1000", "--compare-with", "rule")
RULES = "classic(double_obligation=1, contracts_each=2)"  # the short match: its end in 8 deals


def seated_page(person: Callable[..., Page], size: tuple[int, int], tid: str, token: str | None, seat: int = 0) -> Page:
    page = person(size)
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


def play_one(page: Page, rng: random.Random) -> None:
    """One decision as a person takes it: a legal card, or the first button (doubling: the last, to play)."""
    version = page.get_attribute("#table", "data-version") or ""
    phase = page.get_attribute("#table", "data-phase") or ""
    page.wait_for_selector("#hand .card[data-legal='1'], #decision button[data-action]:not([disabled])")
    cards = page.eval_on_selector_all("#hand .card[data-legal='1']", "cs => cs.map(c => c.dataset.card)")
    buttons = page.eval_on_selector_all(
        "#decision button[data-action]:not([disabled])", "bs => bs.map(b => b.dataset.action)"
    )
    if cards:
        page.locator(f"#hand .card[data-card='{rng.choice(cards)}']").click()
    else:
        action = buttons[-1] if phase == "doubling" else buttons[0]
        page.locator(f"#decision button[data-action='{action}']").click()
    page.wait_for_function("v => document.querySelector('#table').dataset.version !== v", arg=version)


def play_seat(ws_base: str, tid: str, token: str, deals: int | None = None, limit: float = 300) -> None:
    """The seat's second connection plays its first legal action until ``deals`` deals are over (None: until
    the match is)."""
    stop = time.monotonic() + limit
    with ws_connect(f"{ws_base}/ws/{tid}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        done = None
        while time.monotonic() < stop:
            try:
                msg = json.loads(ws.recv(timeout=0.5))
            except TimeoutError:
                continue
            if msg.get("type") in ("scores", "sync"):
                scores = msg["scores"]
                if scores.get("over") if deals is None else len(scores["deals"]) >= deals:
                    return
            st = msg.get("state")
            if not st or st.get("to_act") != st.get("seat") or not st.get("legal") or done == st["version"]:
                continue
            done = st["version"]
            time.sleep(0.08)  # within the server's rate of messages per connection
            ws.send(json.dumps({"type": "act", "action": st["legal"][0], "version": st["version"]}))
    raise AssertionError("the deals did not end")


@pytest.mark.slow
def test_the_expert_line_shows_after_a_deal_and_the_worst_deals_at_the_end(
    server: Server, person: Callable[..., Page]
) -> None:
    tid, tokens = new_table(server.base, RULES, seats={0: "Ann"}, bots={1: "rule", 2: "rule", 3: "rule"})
    page = seated_page(person, LAPTOP, tid, tokens[0])
    watcher = seated_page(person, PHONE, tid, None)
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
    play_seat(server.ws_base, tid, tokens[0])
    page.wait_for_selector("#match-end:not([hidden])")
    page.wait_for_function(
        "() => /over 8 deals/.test((document.querySelector('#shadow-end') || {}).textContent)", timeout=120_000
    )
    end = page.inner_text("#shadow-end")
    assert "You against the expert on your own cards:" in end
    links = page.eval_on_selector_all("#shadow-end a", "as => as.map(a => a.getAttribute('href'))")
    assert len(links) <= 3 and all(h.startswith(f"/t/{tid}/replay#deal=") for h in links)
    if links:  # the link opens that deal in the replay, its analysis asked for
        page.locator("#shadow-end a").first.click()
        deal = links[0].split("deal=")[1].split("&")[0]
        page.wait_for_function("d => (document.querySelector('main') || {dataset: {}}).dataset.deal === d", arg=deal)
    assert watcher.is_hidden("#shadow-end") if watcher.query_selector("#shadow-end") else True
    assert not page.errors and not watcher.errors


@pytest.mark.slow
def test_the_expert_box_turns_the_comparison_off_and_is_remembered(server: Server, person: Callable[..., Page]) -> None:
    tid, tokens = new_table(server.base, "classic", seats={0: "Ann"}, bots={1: "rule", 2: "rule", 3: "rule"})
    page = seated_page(person, LAPTOP, tid, tokens[0])
    sent = sent_frames(page)
    page.goto(f"{server.base}/t/{tid}")
    page.wait_for_selector("#compare-toggle")
    assert page.is_checked("#compare-toggle") and page.is_visible("#compare-label")
    assert not [m for m in sent if m["type"] == "compare"]  # on by default: nothing to say
    shot(page, "compare-box")
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
    play_seat(server.ws_base, tid, tokens[0], 1)
    page.wait_for_function("() => document.querySelector('#table').dataset.deal === '2'")
    shot(page, "compare-off")
    assert page.is_hidden("#shadow-line") and not page.query_selector("#deal-end .shadow-deal-end")
    # ticked again: the deal finished meanwhile is compared and shown
    page.check("#compare-toggle")
    assert {"type": "compare", "on": True} in sent
    page.wait_for_selector("#shadow-line:not([hidden])")
    assert "over 1 deal" in page.inner_text("#shadow-line")
    # a watcher, and a table of people, have no box
    watcher = seated_page(person, PHONE, tid, None)
    watcher.goto(f"{server.base}/t/{tid}")
    watcher.wait_for_selector("#table[data-status='playing']")
    assert watcher.is_hidden("#compare-label") if watcher.query_selector("#compare-label") else True
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    shot(page, "compare-box")
    assert not page.errors and not watcher.errors


@pytest.mark.slow
def test_the_besigue_table_shows_the_expert_on_the_same_cards(server: Server, person: Callable[..., Page]) -> None:
    tid, tokens = new_table(server.base, "besigue", seats={0: "Ann"}, bots={1: "rule"})
    page = seated_page(person, LAPTOP, tid, tokens[0])
    watcher = seated_page(person, PHONE, tid, None)
    page.goto(f"{server.base}/t/{tid}")
    watcher.goto(f"{server.base}/t/{tid}")
    page.wait_for_function("() => document.querySelector('#bz').dataset.seat === '0'")
    page.wait_for_selector("#compare-toggle")
    assert page.is_hidden("#shadow-line")
    play_seat(server.ws_base, tid, tokens[0], 1)
    page.wait_for_selector("#shadow-line:not([hidden])")
    line = page.inner_text("#shadow-line")
    assert "Expert in your seat, deal 1:" in line and "Against the expert:" in line and "over 1 deal" in line
    page.wait_for_selector("#deal-end .shadow-deal-end")  # in the deal's summary on the felt too
    assert "Expert in your seat:" in page.inner_text("#deal-end")
    shot(page, "compare-besigue")
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    shot(page, "compare-besigue", full_page=True)
    watcher.wait_for_selector("#bz-felt")
    assert watcher.is_hidden("#shadow-line") and not watcher.query_selector("#deal-end .shadow-deal-end")
    assert not page.errors and not watcher.errors
