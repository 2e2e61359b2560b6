"""The score sheet rendered: PDF pages turned into images and read back, the print-ready HTML checked."""

from __future__ import annotations

from html.parser import HTMLParser

import pypdfium2 as pdfium
import pytest
from helpers import play_out as random_match

from barbu.besigue.ruleset import BesigueRules, is_besigue
from barbu.classic.ruleset import ruleset
from barbu.scorekeeper.pdf import render_pdf
from barbu.scorekeeper.printhtml import render_html
from barbu.scorekeeper.sheet import blank_sheets, points, sheet_for

A4 = (595, 842)
LETTER = (612, 792)
NAMES = ["Anna", "Bernard", "Carla", "Dario", "Eve", "Fabio"]


def pages(data: bytes) -> list[tuple[tuple[int, int], str, "object"]]:
    """Each page's size in points, its text and its image at 50 dpi."""
    doc = pdfium.PdfDocument(data)
    out = []
    for page in doc:
        w, h = page.get_size()
        text = page.get_textpage().get_text_range()
        out.append(((round(w), round(h)), text, page.render(scale=50 / 72).to_pil().convert("L")))
    return out


def ink(image) -> float:
    """The share of the page that is not white."""
    hist = image.histogram()
    return 1 - sum(hist[240:]) / sum(hist)


def test_a_finished_classic_sheet_prints_names_totals_and_standings():
    m = random_match("classic", 7)
    data = render_pdf(sheet_for(m.rules, NAMES[:4], m.results))
    assert data.startswith(b"%PDF")
    got = pages(data)
    assert 2 <= len(got) <= 6
    assert all(size == A4 for size, _, _ in got)  # four players fit A4 upright
    text = "\n".join(t for _, t, _ in got)
    for name in NAMES[:4]:
        assert name in text
    for total in m.totals:
        assert points(total) in text
    assert "Final total and standings" in text and "The totals over the game" in text
    assert all(ink(img) > 0.02 for _, _, img in got)


def test_a_page_break_repeats_the_blocks_title_and_the_players_names():
    m = random_match("french(players=6)", 5)
    got = pages(render_pdf(sheet_for(m.rules, NAMES, m.results)))
    assert got[0][0] == A4[::-1]  # six players: landscape
    second = got[1][1]
    assert "Deal by deal (points, running total under them) (continued)" in second
    assert all(name in second for name in NAMES)


def test_letter_paper_and_landscape_when_the_columns_need_it():
    m = random_match("scottish", 6)
    got = pages(render_pdf(sheet_for(m.rules, NAMES[:4], m.results), paper="letter"))
    assert got[0][0] == (LETTER[1], LETTER[0])  # the Set sheet's ten columns: landscape
    text = "\n".join(t for _, t, _ in got)
    assert "Player Round 1" in text and "Silly Round" in text and "Pat. 1" in text


def test_suits_are_drawn_with_the_shipped_font():
    m = random_match("classic", 7)
    text = "\n".join(t for _, t, _ in pages(render_pdf(sheet_for(m.rules, NAMES[:4], m.results))))
    assert any(s in text for s in "♠♥♦♣")


def test_the_chart_is_drawn_on_filled_sheets_only():
    m = random_match("salad(players=3)", 2)
    filled = "\n".join(t for _, t, _ in pages(render_pdf(sheet_for(m.rules, NAMES[:3], m.results[:4]))))
    blank = "\n".join(t for _, t, _ in pages(render_pdf(sheet_for(m.rules, NAMES[:3]))))
    assert "The totals over the game" in filled and "The totals over the game" not in blank


@pytest.mark.parametrize("preset,players", blank_sheets())
def test_every_blank_sheet_renders(preset, players):
    rules = BesigueRules.parse(preset) if is_besigue(preset) else ruleset(preset).replace(players=players)
    sheet = sheet_for(rules, None)
    got = pages(render_pdf(sheet))
    assert got and all(ink(img) > 0.01 for _, _, img in got)
    assert all(size in (A4, A4[::-1]) for size, _, _ in got)
    html = render_html(sheet)
    WellFormed().check(html)


def test_bad_paper_is_refused():
    with pytest.raises(ValueError, match="a4"):
        render_pdf(sheet_for(ruleset("classic"), None), paper="tabloid")


class WellFormed(HTMLParser):
    """Every element closed in order (void elements and self-closed SVG elements aside)."""

    VOID = {"meta", "br", "link", "img", "input", "hr"}

    def check(self, html: str) -> None:
        self.stack: list[str] = []
        self.feed(html)
        self.close()
        assert self.stack == [], f"unclosed: {self.stack}"

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack[-1:]}"
        self.stack.pop()


def test_html_is_well_formed_print_ready_and_holds_every_row():
    m = random_match("italian-six", 5)
    sheet = sheet_for(m.rules, NAMES[:4], m.results[:13], {2: ["Bernard did not double the dealer"]})
    html = render_html(sheet)
    WellFormed().check(html)
    assert "@page" in html and "@media print" in html and "<script" not in html
    assert html.count('<tr class="deal"') == 13
    assert all(f'data-deal="{k}"' in html for k in range(1, 14))
    assert html.count('<tr class="open"') == 24 - 13
    assert "<svg" in html and html.count("<polyline") == 4
    assert "Bernard did not double the dealer" in html
    assert "Letter" not in html and "size: A4 portrait" in html
    assert "size: letter portrait" in render_html(sheet, paper="letter")


def test_html_escapes_names():
    sheet = sheet_for(ruleset("classic"), ["<b>Anna</b>", "B&B", "Carla", "Dario"])
    html = render_html(sheet)
    assert "<b>Anna" not in html and "&lt;b&gt;Anna" in html and "B&amp;B" in html


def test_names_in_other_alphabets_print_and_unknown_letters_show_as_question_marks():
    sheet = sheet_for(ruleset("classic"), ["Zoë", "Łukasz", "Σοφία", "山田"])
    text = "\n".join(t for _, t, _ in pages(render_pdf(sheet)))
    assert "Zoë" in text and "Łukasz" in text and "Σοφία" in text
    assert "??" in text  # the shipped font has no Chinese: never silently dropped


@pytest.mark.parametrize(
    "text",
    [
        "classic(ravage_city=true, chinese_poker=true)",
        "classic(rotation=quick)",
        "italian",
        "salad(players=6)",
        "french(players=3)",
        "scottish(sets=2)",
    ],
)
def test_half_played_and_finished_sheets_render(text):
    m = random_match(text, 8)
    for results in (m.results[: len(m.results) // 2], m.results):
        sheet = sheet_for(m.rules, NAMES[: m.n], results)
        got = pages(render_pdf(sheet))
        joined = "\n".join(t for _, t, _ in got)
        assert all(name in joined for name in NAMES[: m.n])
        assert sheet.totals[0] in joined
        WellFormed().check(render_html(sheet))
