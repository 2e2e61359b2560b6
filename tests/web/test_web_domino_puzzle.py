"""A Domino puzzle on the server (`barbu.web.puzzles`): offered with its rows and every hand (open kind) but
neither the solution, the costs nor the theme; the right card solves it and the answer names its theme and
what the other cards cost; a wrong card misses another; in chromium the page draws the rows and takes the card
laid.  The puzzles are real ones, found by
`barbu.puzzles.layout_find` in a self-play classic match."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from test_web_accounts import FAST
from test_web_private import client, post

from barbu.agents.play import agent_for, play_out
from barbu.classic.match import Match
from barbu.puzzles import library
from barbu.puzzles.layout_find import find_layout
from barbu.puzzles.model import Puzzle
from barbu.web import Settings


@pytest.fixture(scope="module")
def domino(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Puzzle]]:
    m = Match("classic", 1)
    play_out(m, [agent_for(m, "rule", 1000 + s) for s in range(m.n)])
    found = find_layout(str(m.rules), [str(a) for a in m.history], "selfplay:classic/1")
    assert len(found) >= 2
    path = tmp_path_factory.mktemp("domino") / "puzzles.jsonl"
    library.write(path, found)
    return path, found


@pytest.fixture(scope="module")
def c(domino: tuple[Path, list[Puzzle]], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    db = tmp_path_factory.mktemp("domino-db") / "web.db"
    settings = Settings(db_url=f"sqlite:///{db}", signups_per_hour=0, puzzles_file=str(domino[0]), **FAST)
    with client(settings) as tc:
        yield tc


def offered(c: Any, p: Puzzle, address: str) -> dict[str, Any]:
    r = post(c, "/api/puzzles/offer", {"mode": "rated", "id": p.id}, address)
    assert r.status_code == 200, r.text
    return r.json()


def test_a_domino_puzzle_is_offered_with_its_rows_then_solved_and_missed(
    c: Any, domino: tuple[Path, list[Puzzle]]
) -> None:
    first, second = domino[1][:2]
    c.cookies.clear()
    page = c.get(f"/puzzles/{first.id}")
    assert page.status_code == 200 and first.id in page.text
    body = offered(c, first, "10.46.0.1")
    sent = body["puzzle"]
    assert sent["contract"] == "domino" and sent["hands"] and all(isinstance(h, list) for h in sent["hands"])
    assert any(sent["state"]["rows"]), sent["state"]  # the layout the page draws (puzzles.js renderRows)
    assert set(sent["state"]["legal"]) == {*first.solution, *(a for a, _ in first.costs)}
    for hidden in ("solution", "costs", "theme", first.theme):
        assert f'"{hidden}"' not in str(body).replace("'", '"')
    r = post(c, "/api/puzzles/answer", {"id": first.id, "card": first.solution[0]}, "10.46.0.1")
    assert r.status_code == 200, r.text
    result = r.json()["result"]
    assert result["solved"] and result["theme"] == first.theme in ("block", "lay")
    assert result["costs"] == [[a, x] for a, x in first.costs]
    offered(c, second, "10.46.0.1")
    wrong = second.costs[-1][0]
    r = post(c, "/api/puzzles/answer", {"id": second.id, "card": wrong}, "10.46.0.1")
    assert r.status_code == 200 and not r.json()["result"]["solved"]


def test_the_page_draws_the_rows_and_takes_the_card(
    serve_module: Any, person: Any, domino: tuple[Path, list[Puzzle]]
) -> None:
    """In chromium against a real ``barbu serve``: the four rows in the middle of the table, a card of the hand
    laid by a click, the answer with its theme (the day's puzzle is then a Domino one too)."""
    server = serve_module("--puzzles", str(domino[0]))
    puzzles = {p.id: p for p in domino[1]}
    page = person((1366, 768), "en-GB")
    page.goto(server.base + "/puzzles")
    expect(page.locator("#hand .card.legal").first).to_be_visible()
    expect(page.locator("#center .rows .row-line")).to_have_count(4)
    assert page.locator("#center .rows .card").count() > 0  # the cards laid so far
    p = puzzles[page.locator("#table").get_attribute("data-puzzle") or ""]
    page.locator(f'#hand .card[data-card="{p.solution[0]}"]').click()
    expect(page.locator("#table")).to_have_attribute("data-solved", "1")
    assert page.locator(".puzzle-result .costs li").count() == len(p.costs)
    expect(page.locator(".puzzle-result")).to_contain_text("Domino")  # the theme's line: Block or Lay
    assert page.errors == []
