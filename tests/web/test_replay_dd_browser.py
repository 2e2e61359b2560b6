"""The replay's double-dummy table in a real browser: asked for with its button, shown once solved, on a phone too.

Playwright drives Debian's chromium against the app served in this process (uvicorn in a thread), so that the
table's budget per cell can be made tiny: the same cells finish on every run.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any, Callable

import pytest
from playwright.sync_api import Page
from webhelpers import shot

from barbu.web import Settings
from barbu.web.app import create_app

pytestmark = pytest.mark.browser
GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "classic-seed7.jsonl"


@pytest.fixture(scope="module")
def base(serve_module: Any, tmp_path_factory: pytest.TempPathFactory) -> str:
    d = tmp_path_factory.mktemp("replaydd-db")
    app = create_app(Settings(db_url=f"sqlite:///{d / 'web.db'}", analysis_samples=2, analysis_seconds=0.02))
    app.state.analyses.dd_seconds = 0.005
    return serve_module(app=app).base


def upload(base: str) -> str:
    req = urllib.request.Request(
        base + "/api/replays",
        data=json.dumps({"record": GOLDEN.read_text()}).encode(),
        headers={"content-type": "application/json", "origin": base},
    )
    return json.loads(urllib.request.urlopen(req, timeout=30).read())["id"]


def test_the_table_is_worked_out_on_request_and_fits_a_phone(base: str, person: Callable[..., Page]) -> None:
    rid = upload(base)
    for width, height in ((1366, 768), (390, 844)):
        page = person((width, height), timeout=60_000)
        errors = page.errors  # type: ignore[attr-defined]
        page.goto(f"{base}/replay/{rid}?lang=fr#deal=1&move=0")
        page.wait_for_selector("#dd-box:not([hidden])")
        assert page.inner_text("#dd-box h2") == "Table à cartes ouvertes"
        if width == 1366:  # nothing is solved before the button is pressed
            assert page.is_visible("#dd-ask") and not page.query_selector("table.dd")
        if page.is_visible("#dd-ask"):
            page.click("#dd-ask")
        page.wait_for_selector("#dd-box[data-state=done]")
        rows = page.query_selector_all("table.dd tbody tr")
        assert len(rows) == 9  # five negative contracts, trumps in each suit
        chosen = page.query_selector_all("table.dd tr.chosen")
        assert len(chosen) == 1 and chosen[0].inner_text().startswith("▶ Atout ♠")
        assert "★" in page.inner_text("table.dd thead")
        assert page.query_selector_all("table.dd td.exact") and page.query_selector_all("table.dd td.range")
        # a cell the solver did not finish says in words what it proved, never a bare "?"
        ranges = [td.inner_text() for td in page.query_selector_all("table.dd td.range, table.dd td.unknown")]
        words = ("au moins\u00a0", "au plus\u00a0")  # a number kept to its word
        assert ranges and all(x.startswith(words) or x == "non prouvé" for x in ranges), ranges
        unproved = page.query_selector("table.dd td.unknown")  # and what bounds are left, in its title
        assert unproved is not None and (unproved.get_attribute("title") or "").startswith("non prouvé\u00a0: entre ")
        assert "?" not in page.inner_text("table.dd")
        page.locator("#dd-box").scroll_into_view_if_needed()
        shot(page, "replay-dd-words")
        text = page.inner_text("#dd")
        assert (
            "Hors de la table, faute de jeu en plis\u00a0: Réussite." in text and "le solveur a manqué de temps" in text
        )
        assert not page.is_visible("#dd-ask")
        wide = page.evaluate(
            "() => { const w = document.querySelector('.dd-wrap'); return [w.scrollWidth, w.clientWidth]; }"
        )
        assert wide[0] <= wide[1] + 1, f"the table overflows its panel at {width}px: {wide}"
        assert not page.evaluate(BROKEN_WORDS), f"words broken across lines at {width}px"
        assert not errors, errors
        page.context.close()


#: The words of the table's cells that a line break cuts in two ("prouv|é"): each word's boxes on one line.
BROKEN_WORDS = """() => {
  const broken = [];
  for (const cell of document.querySelectorAll("table.dd td, table.dd th")) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/[^\\s\\u00a0]+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken;
}"""


def test_the_words_of_an_italian_table_stay_whole_at_a_laptops_width(base: str, person: Callable[..., Page]) -> None:
    """Four columns of range words in the laptop's side panel: words wrap between them, never inside one."""
    rid = upload(base)
    page = person((1366, 768), timeout=60_000)
    page.goto(f"{base}/replay/{rid}?lang=it#deal=1&move=0")
    page.click("#dd-ask")
    page.wait_for_selector("#dd-box[data-state=done]")
    assert "al massimo\u00a0" in page.inner_text("table.dd") or "almeno\u00a0" in page.inner_text("table.dd")
    page.locator("#dd-box").scroll_into_view_if_needed()
    shot(page, "replay-dd-words-it")
    wide = page.evaluate(
        "() => { const w = document.querySelector('.dd-wrap'); return [w.scrollWidth, w.clientWidth]; }"
    )
    assert wide[0] <= wide[1] + 1, f"the table overflows its panel: {wide}"
    assert not page.evaluate(BROKEN_WORDS), page.evaluate(BROKEN_WORDS)
    # the costliest decisions say when they came ("il contratto", "i contro"), never a move's number
    page.wait_for_function("() => document.querySelector('#move')?.dataset.state === 'done'")
    jumps = [b.text_content() or "" for b in page.query_selector_all("#costliest button.jump")]
    assert jumps and not [j for j in jumps if j.startswith("mossa ")], jumps
    assert any(j.startswith(("il contratto: ", "i contro: ", "presa ")) for j in jumps), jumps
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
