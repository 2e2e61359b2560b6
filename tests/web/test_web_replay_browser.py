"""The replay page in a real browser: from a finished table's end screen to every move, the analysis beside it.

Playwright drives Debian's chromium against a real ``barbu serve`` (computer players at full speed,
a small analysis budget so a deal is weighed in seconds).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

import pytest
from playwright.sync_api import Page
from webhelpers import Server, http, new_table

pytestmark = pytest.mark.browser
SERVE = ("--bot-delay", "0", "--deal-pause", "0", "--analysis-samples", "8")
RULES = "salad(players=3)"


@pytest.fixture(scope="module")
def finished(server: Server) -> str:
    tid, _ = new_table(server.base, RULES, bots={s: "random" for s in range(3)})
    deadline = time.monotonic() + 300
    while http("GET", f"{server.base}/api/tables/{tid}")[1]["table"]["status"] != "over":
        assert time.monotonic() < deadline, "the computer table did not finish"
        time.sleep(0.1)
    return tid


def new_page(person: Callable[..., Page], width: int = 1366, height: int = 768) -> Page:
    return person((width, height))


def where(page: Page) -> tuple[int, int]:
    box = page.locator("#replay")
    return int(box.get_attribute("data-deal") or 0), int(box.get_attribute("data-step") or -1)


def wait_at(page: Page, deal: int, step: int) -> None:
    page.wait_for_function(
        "([d, s]) => { const r = document.querySelector('#replay');"
        " return !!r && r.dataset.deal === String(d) && r.dataset.step === String(s); }",
        arg=[deal, step],
    )


def test_a_finished_match_is_stepped_through_with_the_analysis_beside_it(
    server: Server, finished: str, person: Callable[..., Page]
) -> None:
    tid = finished
    page = new_page(person)
    page.goto(f"{server.base}/t/{tid}")
    page.wait_for_selector("#match-end:not([hidden])")
    page.click("#replay-link")
    page.wait_for_url(f"**/t/{tid}/replay**")
    page.wait_for_selector("#replay:not([hidden])")
    wait_at(page, 1, 0)
    frames = http("GET", f"{server.base}/api/replays/{tid}/deals/1")[1]["frames"]
    dealt = sum(len(h) for h in frames[0]["hands"])
    assert len(page.query_selector_all(".replay-hand .card")) == dealt  # every hand face up
    for k in range(1, 6):  # card by card with the arrow key
        page.keyboard.press("ArrowRight")
        wait_at(page, 1, k)
        f = frames[k]
        shown = sum(len(page.query_selector_all(f"[data-hand='{s}'] .card")) for s in range(3))
        assert shown == sum(len(h) for h in f["hands"])
        assert page.get_attribute("[data-seat-box='%d']" % f["seat"], "class").count("moved") == 1
        if f["trick"]["cards"]:
            assert page.get_attribute("#center .trick", "data-trick") == " ".join(f["trick"]["cards"])
    page.click("#prev")
    wait_at(page, 1, 4)
    # the analysis arrives while the page waits ("weighing…" first), then is shown beside the table
    page.wait_for_function("() => document.querySelector('#move')?.dataset.state === 'done'", timeout=240_000)
    done = http("POST", f"{server.base}/api/replays/{tid}/deals/1/analysis", {})[1]
    assert done["state"] == "done"
    costly = [d for d in done["decisions"] if d["cost"]]
    jumps = page.query_selector_all("#costliest button.jump")
    assert len(jumps) == sum(len(x) for x in done["costliest"])
    # every jump says when its decision came: a trick, a turn at the layout, the contract, the doubles…
    assert not [j.text_content() for j in jumps if j.text_content().startswith("move ")]
    if costly:
        first = jumps[0]
        step = int(first.get_attribute("data-step"))
        first.click()
        wait_at(page, 1, step)
        d = next(x for x in done["decisions"] if x["step"] == step)
        # a card is named by its trick, as a player remembers it, not by a move number (issue 43, finding 6)
        if d["trick"]:
            assert first.text_content().startswith(f"trick {d['trick']}: "), first.text_content()
        assert float(page.get_attribute("#move .verdict", "data-cost")) == d["cost"]
        assert page.locator("#move table.values tr").count() == len(d["values"]) + 1
    page.click("#first")  # the costliest move may be the deal's last, where "last" is disabled
    wait_at(page, 1, 0)
    assert page.is_disabled("#first") and page.is_disabled("#prev-deal")
    page.click("#last")
    wait_at(page, 1, len(frames) - 1)
    assert page.is_disabled("#last")
    page.click("#next")  # past the deal's last move: the next deal, as dealt
    wait_at(page, 2, 0)
    page.keyboard.press("ArrowLeft")
    wait_at(page, 1, len(frames) - 1)
    page.click("#deals tr[data-deal='3']")
    wait_at(page, 3, 0)
    page.keyboard.press("PageUp")
    wait_at(page, 2, 0)
    page.reload()  # the place is in the address
    wait_at(page, 2, 0)
    # a doubling decision's choices name computer players by their places alone, "double West, North", never
    # "double West, random, North, random", whose commas hid who was doubled (issue 43's screenshots)
    dbl = next(x for x in done["decisions"] if any(len(v[0].split()) > 2 for v in x["values"] if "double" in v[0]))
    page.goto(f"{server.base}/t/{tid}/replay#deal=1&move={dbl['step']}")
    page.reload()
    wait_at(page, 1, dbl["step"])
    page.wait_for_selector("#move table.values")
    doubles = [r for r in page.locator("#move table.values td:first-child").all_inner_texts() if "double" in r]
    assert doubles and not [r for r in doubles if "random" in r], doubles
    assert not page.errors, page.errors


def test_on_a_phone_the_replay_fits_the_width(server: Server, finished: str, person: Callable[..., Page]) -> None:
    page = new_page(person, 390, 844)
    page.goto(f"{server.base}/t/{finished}/replay")
    wait_at(page, 1, 0)
    page.click("#next")
    wait_at(page, 1, 1)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    felt = page.locator("#felt").bounding_box()
    for s in range(3):
        box = page.locator(f"[data-seat-box='{s}']").bounding_box()
        assert box and felt and box["x"] >= felt["x"] - 1 and box["x"] + box["width"] <= felt["x"] + felt["width"] + 1
    assert not page.errors, page.errors


def test_a_record_file_is_opened_by_uploading_it(
    server: Server, finished: str, person: Callable[..., Page], tmp_path: Path
) -> None:
    import urllib.request

    record = urllib.request.urlopen(f"{server.base}/api/tables/{finished}/record").read()
    path = tmp_path / "mine.jsonl"
    path.write_bytes(record)
    page = new_page(person)
    page.goto(f"{server.base}/")
    page.click("#replay-link")
    page.wait_for_selector("#upload:not([hidden])")
    page.set_input_files("#record-file", str(path))
    page.wait_for_url("**/replay/u*")
    wait_at(page, 1, 0)
    assert page.locator("#deals tr[data-deal]").count() == len(
        http("GET", f"{server.base}/api/replays/{finished}")[1]["deals"]
    )
    bad = tmp_path / "bad.jsonl"
    bad.write_text("hello\n")
    page.goto(f"{server.base}/replay")
    page.set_input_files("#record-file", str(bad))
    page.wait_for_function("() => document.querySelector('#upload-error').textContent.length > 0")
    assert "record" in page.inner_text("#upload-error")
    assert not page.errors, page.errors


def test_an_unfinished_tables_replay_says_why_and_shows_no_card(server: Server, person: Callable[..., Page]) -> None:
    tid, _ = new_table(server.base, "classic", bots={1: "random"})
    page = new_page(person)
    page.goto(f"{server.base}/t/{tid}/replay")
    page.wait_for_function("() => document.querySelector('#upload-error').textContent.length > 0")
    assert "when the match is over" in page.inner_text("#upload-error")
    assert page.locator("#replay").is_hidden() and not page.query_selector_all(".card")


def test_a_besigue_match_is_replayed_both_hands_face_up(server: Server, person: Callable[..., Page]) -> None:
    tid, _ = new_table(server.base, "besigue", bots={0: "random", 1: "random"})
    deadline = time.monotonic() + 300
    while http("GET", f"{server.base}/api/tables/{tid}")[1]["table"]["status"] != "over":
        assert time.monotonic() < deadline, "the computer table did not finish"
        time.sleep(0.1)
    page = new_page(person)
    page.goto(f"{server.base}/t/{tid}")
    page.wait_for_selector("#match-end:not([hidden])")
    page.click("#replay-link")
    wait_at(page, 1, 0)
    frames = http("GET", f"{server.base}/api/replays/{tid}/deals/1")[1]["frames"]
    for k in range(1, 4):
        page.keyboard.press("ArrowRight")
        wait_at(page, 1, k)
        for s in (0, 1):
            assert len(page.query_selector_all(f"[data-hand='{s}'] .card")) == len(frames[k]["hands"][s])
    assert "Barbu games" in page.inner_text("#move") and page.locator("#costliest-box").is_hidden()
    assert page.locator("#dd-box").is_hidden()  # no double-dummy table for Bésigue
    assert page.locator(".replay-stock").count() == 1
    assert not page.errors, page.errors
