"""The print-ready HTML in a real browser (Debian's chromium): its @page prints the paper asked for, and a
phone shows the sheet without sideways scrolling."""

from __future__ import annotations

import os

import pypdfium2 as pdfium
import pytest
from helpers import play_out as random_match
from playwright.sync_api import sync_playwright

from barbu.classic.ruleset import ruleset
from barbu.scorekeeper.printhtml import render_html
from barbu.scorekeeper.sheet import sheet_for

CHROMIUM = "/usr/bin/chromium"
NAMES = ["Anna", "Bernard", "Carla", "Dario"]


@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)", pytrace=False)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


def printed(browser, html: str) -> list[tuple[int, int]]:
    page = browser.new_page()
    page.set_content(html)
    data = page.pdf(prefer_css_page_size=True, print_background=True)
    page.close()
    return [tuple(round(x) for x in p.get_size()) for p in pdfium.PdfDocument(data)]


def test_print_uses_the_sheets_paper_and_orientation(browser):
    m = random_match("classic", 7)
    sizes = printed(browser, render_html(sheet_for(m.rules, NAMES, m.results)))
    assert len(sizes) >= 2 and set(sizes) == {(595, 842)}  # A4 upright, over several pages
    sizes = printed(browser, render_html(sheet_for(ruleset("scottish"), None), paper="letter"))
    assert set(sizes) == {(792, 612)}  # the Set sheet: Letter, landscape


def test_a_phone_shows_the_sheet_without_scrolling_sideways(browser):
    m = random_match("classic", 7)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.set_content(render_html(sheet_for(m.rules, NAMES, m.results[:17])))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator("tr.deal").count() == 17
    # the doubles move under the contract's name; the detail column is not shown
    assert page.locator("td.detail").first.is_hidden()
    assert page.locator(".inline-detail").first.is_visible()
    page.close()
