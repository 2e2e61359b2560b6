"""The puzzles in chromium against a real ``barbu serve``: a guest solves one puzzle and misses the next, in English
and in French, his rating going up then down, the answer shown only after his card (the solution golden in his
hand, what the other cards cost, the theme); the page is a card table at a laptop's and a phone's size
(``BARBU_SHOTS`` keeps the screenshots, in Italian too)."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from playwright.sync_api import expect
from test_web_puzzles import some_puzzles
from webhelpers import PHONE, shot

from barbu.puzzles import library
from barbu.puzzles.model import Puzzle

LAPTOP = (1366, 768)


@pytest.fixture(scope="module")
def puzzled(serve_module: Any, tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, dict[str, Puzzle]]:
    found = some_puzzles()
    path = tmp_path_factory.mktemp("puzzles") / "puzzles.jsonl"
    library.write(path, found)
    return serve_module("--puzzles", str(path)), {p.id: p for p in found}


def play_one(page: Any, puzzles: dict[str, Puzzle], solve: bool, keys: bool = False) -> tuple[int, int]:
    """Find the card (or miss it) on the puzzle shown, by a click or the keyboard: (rating before, after)."""
    expect(page.locator("#hand .card.legal").first).to_be_visible()
    table = page.locator("#table")
    p = puzzles[table.get_attribute("data-puzzle") or ""]
    assert page.locator("#puzzle-result").is_hidden() and page.locator(".cost-tag").count() == 0
    card = p.solution[0] if solve else p.costs[-1][0]
    if keys:  # the page gives the hand's first playable card the focus; the arrow keys go along them, Enter plays
        expect(page.locator("#hand .card.legal").first).to_be_focused()
        for _ in range(13):
            if page.evaluate("document.activeElement.dataset.card") == card:
                break
            page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement.dataset.card") == card
        page.keyboard.press("Enter")
    else:
        page.locator(f'#hand .card[data-card="{card}"]').click()
    expect(table).to_have_attribute("data-answered", "1")
    expect(table).to_have_attribute("data-solved", "1" if solve else "0")
    for c in p.solution:
        expect(page.locator(f'#hand .card[data-card="{c}"]')).to_have_class(re.compile(r"\bexpected\b"))
    assert page.locator(".puzzle-result .costs li").count() == len(p.costs)
    change = page.locator(".rating-change")
    return int(change.get_attribute("data-before") or 0), int(change.get_attribute("data-after") or 0)


@pytest.mark.parametrize("lang", ["en-GB", "fr-FR"])
def test_a_guest_solves_one_puzzle_and_misses_the_next(
    puzzled: tuple[Any, dict[str, Puzzle]], person: Any, lang: str
) -> None:
    server, puzzles = puzzled
    page = person(LAPTOP, lang)
    page.goto(server.base + "/puzzles")
    before, after = play_one(page, puzzles, solve=True)
    assert after > before
    verdict = page.locator(".puzzle-result .verdict")
    expect(verdict).to_have_text(
        "Solved: that is the best card." if lang == "en-GB" else "Résolu : c'est la meilleure carte."
    )
    shot(page, f"puzzles-solved-{lang}")
    page.locator("#puzzle-next").click()
    expect(page.locator("#table")).to_have_attribute("data-answered", "0")
    shot(page, f"puzzles-{lang}")
    before2, after2 = play_one(page, puzzles, solve=False, keys=lang == "fr-FR")
    assert before2 == after and after2 < before2
    expect(page.locator("#player-rating")).to_have_attribute("data-rating", str(after2))
    shot(page, f"puzzles-missed-{lang}")
    assert page.errors == []
    if os.environ.get("BARBU_SHOTS"):  # for people to look at: a phone's, and the Italian page
        for size, shot_lang in ((PHONE, lang), (LAPTOP, "it-IT"), (PHONE, "it-IT")):
            other = person(size, shot_lang)
            other.goto(server.base + "/puzzles")
            play_one(other, puzzles, solve=False)
            shot(other, f"puzzles-missed-{shot_lang}", full_page=True)
            other.goto(server.base + "/puzzles/daily")
            expect(other.locator("#hand .card").first).to_be_visible()
            shot(other, f"puzzles-daily-{shot_lang}")
