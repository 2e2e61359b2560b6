"""One table frame for every game (issue 30): the Barbu table and the Bésigue table keep only what is their own.

The connection, the messages, the seats panel, the notices, the clock line and the end of the match live in
static/js/tablebase.js and templates/_table_frame.html; these tests hold the split, so that a fix made to the
frame reaches both tables and the two do not drift apart again by copy.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from barbu.web.common.i18n import environment

WEB = Path(__file__).resolve().parents[2] / "src" / "barbu" / "web"
JS = WEB / "static" / "js"
TEMPLATES = WEB / "templates"
GAME_SCRIPTS = ("table.js", "besigue.js")
GAME_PAGES = {"table.html": "table", "besigue.html": "bz"}
# What the frame owns: a game's script doing it again would be the copy this split removed.
FRAME_WORK = (
    "new TableSocket",
    "wireInvite(",
    "seatRows(",
    "startTicking(",
    "renderMyClock(",
    "setClock(",
    'case "welcome"',
    'case "notice"',
    "goToRematch",
    "forgetSeat(",
    "saveSeat(",
    "showBusy(",
)
FRAME_IDS = (
    "rules-link",
    "deal-counter",
    "invite",
    "conn",
    "invite-box",
    "seats-panel",
    "seat-rows",
    "name",
    "match-end",
    "standings",
    "rematch",
    "rematch-link",
    "replay-link",
    "close-end",
    "busy",
    "error",
)
RUN = 6  # shared lines that make a copy, as the `duplicates` tool counts them


def runs(text: str) -> set[tuple[str, ...]]:
    """Every run of RUN consecutive lines that say something (blank lines and lone brackets left out)."""
    lines = [line.strip() for line in text.splitlines()]
    lines = [line for line in lines if re.search(r"[A-Za-z]", line)]
    return {tuple(lines[i : i + RUN]) for i in range(len(lines) - RUN + 1)}


def test_runs_finds_a_copied_block() -> None:
    block = "\n".join(f"  const x{i} = f({i});" for i in range(RUN))
    assert runs("a();\n" + block + "\n}") & runs(block + "\nb();")
    assert not runs("a();\n" + block) & runs("a();\nc();")


@pytest.mark.parametrize("name", GAME_SCRIPTS)
def test_each_game_script_opens_its_table_through_the_frame(name: str) -> None:
    text = (JS / name).read_text(encoding="utf-8")
    assert re.search(r'^import \{[^}]*\bopenTable\b[^}]*\} from "\./tablebase\.js";', text, re.M), name
    assert "openTable({" in text
    assert [w for w in FRAME_WORK if w in text] == []


def test_the_frame_does_the_frame_s_work_once() -> None:
    text = (JS / "tablebase.js").read_text(encoding="utf-8")
    assert [w for w in FRAME_WORK if w not in text] == []
    assert "export function openTable(" in text


def test_the_game_scripts_share_no_run_of_lines() -> None:
    assert (
        runs((JS / "table.js").read_text(encoding="utf-8")) & runs((JS / "besigue.js").read_text(encoding="utf-8"))
        == set()
    )


@pytest.mark.parametrize("name", GAME_PAGES)
def test_each_table_page_extends_the_frame(name: str) -> None:
    text = (TEMPLATES / name).read_text(encoding="utf-8")
    assert '{% extends "_table_frame.html" %}' in text
    assert [i for i in FRAME_IDS if f'id="{i}"' in text] == []


def test_the_table_pages_share_no_run_of_lines() -> None:
    pages = [(TEMPLATES / name).read_text(encoding="utf-8") for name in GAME_PAGES]
    assert runs(pages[0]) & runs(pages[1]) == set()


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
@pytest.mark.parametrize("name", GAME_PAGES)
def test_a_table_page_holds_the_frame_once_with_its_own_table(name: str, lang: str) -> None:
    html = environment(lang).get_template(name).render()
    for i in FRAME_IDS:
        assert len(re.findall(f'id="{i}"', html)) == 1, i
    assert f'<main id="{GAME_PAGES[name]}"' in html
    assert f'src="/static/js/{name.replace(".html", ".js")}"' in html
    assert html.lstrip().startswith("<!doctype html>")
    words = {"en": "Rematch", "fr": "Revanche", "it": "Rivincita"}[lang]
    assert words in html
