"""A score sheet as a PDF a club would print (fpdf2): the grid, the running totals, the chart of totals.

The fonts are DejaVu Sans, shipped in ``fonts/`` (subset; its licence beside it): the PDF Base-14 fonts have
no ♠♥♦♣, and a system font may be missing.  Pages are A4 or Letter, landscape when the columns need it; a
page break repeats the column headings.
"""

from __future__ import annotations

from importlib.resources import files
from typing import Sequence

from fontTools.ttLib import TTFont
from fpdf import FPDF

from ..i18n import translator
from .sheet import COLORS, Block, Cell, Row, Sheet, chart_scale

PAPERS = {"a4": "A4", "letter": "Letter"}
INK = (25, 25, 25)
GREY = (110, 110, 110)
RED = (190, 20, 30)
SHADE = (232, 236, 240)
BAND = (40, 60, 85)
MARGIN = 12.0
FONT = "DejaVu"


class _Pdf(FPDF):
    """The page furniture: the sheet's name and the page number at the foot of every page."""

    footer_text = ""
    page_text = "page {page} of {pages}"

    def footer(self) -> None:
        self.set_y(-9)
        self.set_font(FONT, "", 7)
        self.set_text_color(*GREY)
        page = self.page_text.format(page=self.page_no(), pages="{nb}")
        self.cell(0, 4, printable(f"{self.footer_text}   ·   {page}"), align="C")


def _font_path(name: str) -> str:
    return str(files("barbu.scorekeeper").joinpath("fonts", name))


_COVERED: set[int] = set()


def printable(text: str) -> str:
    """The text with any character the shipped fonts lack (a Chinese name, say) shown as ``?`` rather than
    silently left out."""
    if not _COVERED:
        _COVERED.update(TTFont(_font_path("DejaVuSansCondensed.ttf")).getBestCmap())
    text = text.replace("\u202f", "\u00a0")  # French thousands: the fonts have the no-break space, not the narrow one
    return "".join(ch if ord(ch) in _COVERED else "?" for ch in text)


class _Renderer:
    """Lays the sheet out top to bottom, starting a new page (headings repeated) when a row would not fit."""

    def __init__(self, sheet: Sheet, paper: str) -> None:
        if paper.lower() not in PAPERS:
            raise ValueError(f"paper must be one of {', '.join(PAPERS)}, not {paper!r}")
        self.sheet = sheet
        self._ = translator(sheet.lang).gettext
        self.pdf = _Pdf(orientation="L" if sheet.wide else "P", unit="mm", format=PAPERS[paper.lower()])
        pdf = self.pdf
        pdf.set_auto_page_break(False)
        pdf.add_font(FONT, "", _font_path("DejaVuSans.ttf"))
        pdf.add_font(FONT, "B", _font_path("DejaVuSans-Bold.ttf"))
        pdf.add_font(FONT + "C", "", _font_path("DejaVuSansCondensed.ttf"))
        pdf.add_font(FONT + "C", "B", _font_path("DejaVuSansCondensed-Bold.ttf"))
        pdf.set_title(sheet.title)
        pdf.set_creator("barbu")
        pdf.footer_text = f"{sheet.title} — {sheet.rules}"
        pdf.page_text = self._("page {page} of {pages}")
        self.width = pdf.w - 2 * MARGIN
        self.bottom = pdf.h - 14
        self._columns()
        self.block_title = ""

    # ------------------------------------------------------------ geometry
    def _columns(self) -> None:
        """Label, detail and value columns: the values get what they need, the detail the rest."""
        s = self.sheet
        k = len(s.columns)
        self.label_w = 30.0 if s.game == "scottish" else 44.0 if s.game != "besigue" else 34.0
        if s.detail_heading:
            self.value_w = max(17.0, min(26.0, (self.width - self.label_w - 40) / k))
            self.detail_w = self.width - self.label_w - k * self.value_w
        else:
            self.detail_w = 0.0
            self.value_w = (self.width - self.label_w) / k
        self.x0 = MARGIN
        weights = s.weights or (1.0,) * k
        total = sum(weights)
        self.widths = [k * self.value_w * w / total for w in weights]
        self.xs = [self.x0 + self.label_w + sum(self.widths[:i]) for i in range(k)]

    def _value_x(self, i: int) -> float:
        return self.xs[i]

    def _w(self, i: int) -> float:
        return self.widths[i]

    def _detail_x(self) -> float:
        return self.x0 + self.label_w + len(self.sheet.columns) * self.value_w

    # ------------------------------------------------------------ text
    def _runs(self, text: str) -> list[tuple[str, bool]]:
        """Text split into runs, red ones for the red suits."""
        out: list[tuple[str, bool]] = []
        for ch in text:
            red = ch in "♥♦"
            if out and out[-1][1] == red:
                out[-1] = (out[-1][0] + ch, red)
            else:
                out.append((ch, red))
        return out

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: float,
        bold: bool = False,
        color=INK,
        align: str = "L",
        width: float = 0.0,
        condensed: bool = False,
    ) -> None:
        """One line at baseline ``y``; ``align`` within ``width`` from ``x``; red suits in red."""
        pdf = self.pdf
        text = printable(text)
        pdf.set_font(FONT + ("C" if condensed else ""), "B" if bold else "", size)
        w = pdf.get_string_width(text)
        if align == "R":
            x = x + width - w
        elif align == "C":
            x = x + (width - w) / 2
        for run, red in self._runs(text):
            pdf.set_text_color(*(RED if red else color))
            pdf.text(x, y, run)
            x += pdf.get_string_width(run)

    def wrap(self, text: str, width: float, size: float, condensed: bool = False) -> list[str]:
        """Words to lines no wider than ``width`` (a word too long for a line stands alone)."""
        self.pdf.set_font(FONT + ("C" if condensed else ""), "", size)
        lines: list[str] = []
        for para in text.split("\n"):
            line = ""
            for word in para.split(" "):
                trial = f"{line} {word}" if line else word
                if line and self.pdf.get_string_width(trial) > width:
                    lines.append(line)
                    line = word
                else:
                    line = trial
            lines.append(line)
        return lines

    # ------------------------------------------------------------ page furniture
    def new_page(self, first: bool = False) -> None:
        pdf = self.pdf
        pdf.add_page()
        s = self.sheet
        y = MARGIN
        if first:
            self.text(MARGIN, y + 6, s.title.split(" — ")[0], 17, bold=True, color=BAND)
            if " — " in s.title:
                self.text(MARGIN, y + 11.5, s.title.split(" — ", 1)[1], 9, color=GREY)
            rules = self._("Rules:")
            self.text(MARGIN, y + 16.5, f"{rules} {s.rules}    {s.subtitle}", 9)
            right = pdf.w - MARGIN
            self.text(
                right - 70, y + 6, self._("Date ____________  Place ____________"), 9, color=GREY, align="R", width=70
            )
            y += 21
            if s.game != "scottish":
                y = self._names_band(y)
        else:
            self.text(
                MARGIN,
                y + 4,
                self._("{part} (continued)").format(part=s.title.split(" — ")[0]) + f" — {s.rules}",
                9,
                color=GREY,
            )
            y += 7
        pdf.set_y(y)

    def _names_band(self, y: float) -> float:
        """The players' names, each in its colour, as written across the top of a paper sheet."""
        pdf = self.pdf
        x = MARGIN
        label = self._("Players:")
        self.text(x, y + 4, label, 9, bold=True)
        pdf.set_font(FONT, "B", 9)
        x += max(18.0, pdf.get_string_width(label) + 3)  # "Giocatori:" is longer than "Players:"
        for i, name in enumerate(self.sheet.names):
            pdf.set_fill_color(*COLORS[i % len(COLORS)])
            pdf.rect(x, y + 1, 3, 3.4, style="F")
            if name:
                self.text(x + 4.5, y + 4, name, 10, bold=True)
                pdf.set_font(FONT, "B", 10)
                x += 4.5 + pdf.get_string_width(name) + 8
            else:  # a blank sheet: a line to write the name on, in seat order
                pdf.set_draw_color(120, 120, 120)
                pdf.set_line_width(0.2)
                pdf.line(x + 4.5, y + 4.4, x + 30, y + 4.4)
                x += 36
        return y + 8

    def room(self, h: float, repeat_head: bool = True) -> None:
        """Start a new page when ``h`` more millimetres would not fit, repeating the block's headings."""
        if self.pdf.get_y() + h <= self.bottom:
            return
        self.new_page()
        if repeat_head and self.block_title:
            self._band(self._("{part} (continued)").format(part=self.block_title))
            self._head()

    # ------------------------------------------------------------ the table
    def _band(self, title: str) -> None:
        pdf = self.pdf
        y = pdf.get_y()
        pdf.set_fill_color(*BAND)
        pdf.rect(self.x0, y, self.width, 6.5, style="F")
        self.text(self.x0 + 2, y + 4.7, title, 10, bold=True, color=(255, 255, 255))
        pdf.set_y(y + 6.5)

    def _groups(self) -> None:
        """Headings over groups of columns (Bésigue: each player's name over his columns), in his colour."""
        pdf = self.pdf
        y = pdf.get_y()
        col = 0
        for i, (name, span) in enumerate(self.sheet.groups):
            x = self._value_x(col)
            w = sum(self._w(j) for j in range(col, col + span))
            pdf.set_fill_color(*COLORS[i % len(COLORS)])
            pdf.rect(x + 0.4, y, w - 0.8, 6, style="F")
            self.text(
                x, y + 4.3, self._fit(name, w - 2, 10, True), 10, bold=True, color=(255, 255, 255), align="C", width=w
            )
            col += span
        pdf.set_y(y + 6)

    def _head(self, plain: bool = False) -> None:
        """The column headings: the players' names (in their colours) or the calls (``plain``: names only)."""
        pdf = self.pdf
        s = self.sheet
        if s.groups and not plain:
            self._groups()
        y = pdf.get_y()
        h = 7.0
        pdf.set_fill_color(*SHADE)
        pdf.rect(self.x0, y, self.width, h, style="F")
        if not plain:
            self.text(self.x0 + 1.5, y + 4.8, s.label_heading, 8, bold=True, color=GREY)
        players = s.game not in ("scottish", "besigue")
        for i, name in enumerate(s.columns):
            x, w = self._value_x(i), self._w(i)
            if players:
                pdf.set_fill_color(*COLORS[i % len(COLORS)])
                pdf.rect(x + 0.4, y, w - 0.8, 1.2, style="F")
            self.text(
                x + 1, y + 4.9, self._fit(name, w - 2, 9, True), 9, bold=True, align="C", width=w - 2, condensed=True
            )
        if s.detail_heading and not plain:
            self.text(self._detail_x() + 1.5, y + 4.8, s.detail_heading, 8, bold=True, color=GREY)
        pdf.set_draw_color(120, 120, 120)
        pdf.set_line_width(0.3)
        pdf.line(self.x0, y + h, self.x0 + self.width, y + h)
        pdf.set_y(y + h)

    def _fit(self, text: str, width: float, size: float, bold: bool = False) -> str:
        """The text, shortened with an ellipsis if it would not fit."""
        self.pdf.set_font(FONT + "C", "B" if bold else "", size)
        if self.pdf.get_string_width(text) <= width:
            return text
        while text and self.pdf.get_string_width(text + "…") > width:
            text = text[:-1]
        return text + "…"

    def _row_height(self, row: Row, detail_lines: list[str]) -> float:
        if row.kind == "heading":
            return 6.0
        if row.kind == "open" or (row.kind == "sum" and not any(c.text for c in row.cells)):
            return 8.0  # room to write
        lines: float = 1
        for c in row.cells:
            under = len(self._glyph_lines(c)) * 0.8 if c.glyphs else (1 if c.running else 0)
            if c.text.count("\n"):
                under -= 0.1 * c.text.count("\n")  # several lines are set smaller
            lines = max(lines, c.text.count("\n") + 1 + under)
        h = max(6.5, 2.4 + 3.6 * lines, 2.4 + 3.2 * len(detail_lines))
        return h + 3.4 * len(self._note_lines(row)) + (1.0 if row.notes else 0.0)

    def _note_lines(self, row: Row) -> list[str]:
        """A row's notes, in red across the whole row under its boxes, wrapped to the sheet's width."""
        return [line for note in row.notes for line in self.wrap(f"→ {note}", self.width - 8, 7.5, True)]

    def _detail_lines(self, row: Row) -> list[str]:
        return self.wrap(row.detail, self.detail_w - 3, 7.5, condensed=True) if row.detail and self.detail_w else []

    def row(self, row: Row, shade: bool) -> None:
        pdf = self.pdf
        s = self.sheet
        detail_lines = self._detail_lines(row)
        h = self._row_height(row, detail_lines)
        # a caption keeps at least the rows under it (a Scottish Round's players) on its page
        self.room(h + (7.0 * s.players if row.kind == "heading" else 0.0))
        y = pdf.get_y()
        if row.kind == "heading":
            pdf.set_fill_color(*SHADE)
            pdf.rect(self.x0, y, self.width, h, style="F")
            self.text(self.x0 + 1.5, y + 4.2, row.label, 8.5, bold=True, color=BAND)
            pdf.set_y(y + h)
            for note in row.notes:
                self.room(4)
                self.text(self.x0 + 3, pdf.get_y() + 3, f"→ {note}", 7.5, color=RED)
                pdf.set_y(pdf.get_y() + 3.8)
            return
        if shade or row.kind == "sum":
            pdf.set_fill_color(*((244, 246, 248) if shade and row.kind != "sum" else (236, 240, 232)))
            pdf.rect(self.x0, y, self.width, h, style="F")
        # the label, with the deal number before it in grey
        label_y = y + 4.4
        if row.number is not None:
            self.text(self.x0 + 0.8, label_y, str(row.number), 6.5, color=GREY, condensed=True)
        self.text(
            self.x0 + 5.5,
            label_y,
            self._fit(row.label, self.label_w - 6, 9, row.kind == "sum"),
            9,
            bold=row.kind == "sum",
            condensed=True,
        )
        for i, c in enumerate(row.cells):
            self._cell(c, self._value_x(i), self._w(i), y, row)
        for j, line in enumerate(detail_lines):
            self.text(self._detail_x() + 1.5, y + 3.9 + 3.2 * j, line, 7.5, condensed=True)
        notes = self._note_lines(row)
        boxes = h - 3.4 * len(notes) - (1.0 if notes else 0.0)  # the boxes' height, the notes under them
        for j, line in enumerate(notes):
            self.text(self.x0 + 5.5, y + boxes + 3.0 + 3.4 * j, line, 7.5, color=RED, condensed=True)
        # the grid lines
        pdf.set_draw_color(150, 150, 150)
        pdf.set_line_width(0.2 if row.kind != "sum" else 0.3)
        pdf.line(self.x0, y + h, self.x0 + self.width, y + h)
        starts = {0}
        for _, span in s.groups:  # a firmer line where a player's group of columns starts
            starts.add(max(starts) + span)
        for i in range(len(s.columns) + (1 if self.detail_w else 0)):
            x = self._value_x(i) if i < len(s.columns) else self._detail_x()
            pdf.set_line_width(0.45 if s.groups and i in starts else 0.15)
            pdf.line(x, y, x, y + boxes)
        pdf.set_y(y + h)

    def _cell(self, c: Cell, x: float, w: float, y: float, row: Row) -> None:
        lines = c.text.split("\n")
        bold = row.kind == "sum" or c.strong
        color = RED if c.sign < 0 else INK
        size = 9.5 if len(lines) == 1 else 8
        for j, line in enumerate(lines):
            self.text(
                x + 1,
                y + 4.4 + j * 3.6,
                self._fit(line, w - 2.5, size, bold),
                size,
                bold=bold,
                color=color,
                align="R",
                width=w - 2.5,
                condensed=True,
            )
        under = y + 4.4 + len(lines) * 3.6 - 0.3
        if c.running:
            self.text(x + 1, under, c.running, 7, color=GREY, align="R", width=w - 2.5, condensed=True)
        for j, line in enumerate(self._glyph_lines(c)):
            self.text(x + 1, under + 2.9 * j, line, 6.5, color=BAND, align="L", width=w - 2, condensed=True)

    def _glyph_lines(self, c: Cell) -> list[str]:
        """The glyph names under the points, as many lines as they need."""
        if not c.glyphs:
            return []
        return [self._fit(x, self.value_w - 2, 6.5) for x in self.wrap(c.glyphs, self.value_w - 2.5, 6.5, True)]

    def block(self, b: Block) -> None:
        """A block starts a page when it would fit whole on a new page but not on this one."""
        whole = 6.5 + 7 + sum(self._row_height(r, self._detail_lines(r)) for r in b.rows)
        if whole <= self.bottom - MARGIN - 10:
            self.room(whole, repeat_head=False)
        self.room(6.5 + 7 + 8 * min(3, len(b.rows)), repeat_head=False)
        self.block_title = b.title
        self._band(b.title)
        self._head()
        for i, r in enumerate(b.rows):
            self.row(r, shade=i % 2 == 1 and r.kind == "deal")
        self.block_title = ""
        self.pdf.set_y(self.pdf.get_y() + 4)

    # ------------------------------------------------------------ the cross grid (quick rotation)
    def grid(self) -> None:
        g = self.sheet.grid
        if g is None:
            return
        pdf = self.pdf
        name_w = 34.0
        col_w = min(24.0, (self.width - name_w) / len(g.columns))
        self.room(6.5 + 8 + 7 * len(g.rows), repeat_head=False)
        self._band(g.title)
        y = pdf.get_y()
        pdf.set_fill_color(*SHADE)
        pdf.rect(self.x0, y, name_w + col_w * len(g.columns), 8, style="F")
        for i, c in enumerate(g.columns):
            self.text(
                self.x0 + name_w + i * col_w,
                y + 5.2,
                self._fit(c, col_w - 1.5, 7.5, True),
                7.5,
                bold=True,
                align="C",
                width=col_w,
                condensed=True,
            )
        y += 8
        pdf.set_draw_color(150, 150, 150)
        pdf.set_line_width(0.15)
        for r, (name, marks) in enumerate(zip(g.rows, g.marks)):
            self.text(self.x0 + 1.5, y + 4.8, self._fit(name, name_w - 3, 9, True), 9, bold=True, condensed=True)
            for i, m in enumerate(marks):
                if m:
                    self.text(self.x0 + name_w + i * col_w, y + 4.9, m, 9, align="C", width=col_w, condensed=True)
            pdf.line(self.x0, y + 7, self.x0 + name_w + col_w * len(g.columns), y + 7)
            y += 7
        for i in range(len(g.columns) + 1):
            x = self.x0 + name_w + i * col_w
            pdf.line(x, y - 7 * len(g.rows) - 8, x, y)
        pdf.set_y(y + 5)

    # ------------------------------------------------------------ totals, standings, chart, notes
    def totals(self) -> None:
        s = self.sheet
        pdf = self.pdf
        if not s.totals and not s.blank:
            return
        self.room(6.5 + 7 + 10 + 6 * len(s.standings), repeat_head=False)
        self._band(self._("Final total and standings") if s.standings else self._("Totals"))
        if s.game == "besigue":
            self._groups()
        elif s.game != "scottish":
            self._head(plain=True)
        else:  # the Set sheet's columns are the calls: the totals go under the players' names
            y = pdf.get_y()
            pdf.set_fill_color(*SHADE)
            pdf.rect(self.x0, y, self.width, 7, style="F")
            for i, name in enumerate(s.names):
                pdf.set_fill_color(*COLORS[i % len(COLORS)])
                pdf.rect(self._value_x(i) + 0.4, y, self._w(i) - 0.8, 1.2, style="F")
                self.text(
                    self._value_x(i) + 1,
                    y + 4.9,
                    self._fit(name, self._w(i) - 2, 9, True),
                    9,
                    bold=True,
                    align="C",
                    width=self._w(i) - 2,
                    condensed=True,
                )
            pdf.set_y(y + 7)
        y = pdf.get_y()
        h = 10.0
        pdf.set_fill_color(250, 244, 214)
        pdf.rect(self.x0, y, self.width, h, style="F")
        self.text(self.x0 + 1.5, y + 6.6, self._("Total"), 11, bold=True)
        where = s.total_columns or tuple(range(len(s.names)))
        for i, col in enumerate(where):
            value = s.totals[i] if i < len(s.totals) else ""
            self.text(
                self._value_x(col) + 1,
                y + 6.8,
                value,
                12,
                bold=True,
                color=RED if value.startswith("-") else INK,
                align="R",
                width=self._w(col) - 2.5,
            )
        pdf.set_draw_color(40, 40, 40)
        pdf.set_line_width(0.5)
        pdf.rect(self.x0, y, self.width, h)
        pdf.set_y(y + h + 2)
        if s.standings:
            for st in s.standings:
                y = pdf.get_y()
                self.text(self.x0 + 2, y + 4.5, f"{st.place}.", 10, bold=True)
                self.text(self.x0 + 10, y + 4.5, st.name, 10, bold=st.place == 1)
                self.text(self.x0 + 60, y + 4.5, st.total, 10, bold=st.place == 1, align="R", width=20)
                pdf.set_y(y + 5.5)
        pdf.set_y(pdf.get_y() + 4)

    def chart(self) -> None:
        s = self.sheet
        if len(s.chart) < 2:
            return
        pdf = self.pdf
        h = 62.0
        self.room(6.5 + h + 14, repeat_head=False)
        self._band(self._("The totals over the game"))
        top = pdf.get_y() + 4
        left = self.x0 + 14
        right = self.x0 + self.width - 34
        bottom = top + h
        lo, hi, step = chart_scale(s)
        span = hi - lo or 1
        length = max(s.chart_length, len(s.chart) - 1)

        def X(i: float) -> float:
            return left + (right - left) * i / length

        def Y(v: float) -> float:
            return bottom - (bottom - top) * (v - lo) / span

        pdf.set_line_width(0.1)
        tick = lo
        while tick <= hi + 1e-9:
            pdf.set_draw_color(*((60, 60, 60) if tick == 0 else (210, 210, 210)))
            pdf.line(left, Y(tick), right, Y(tick))
            self.text(self.x0, Y(tick) + 1, f"{tick:g}", 6.5, color=GREY, align="R", width=12)
            tick += step
        every = max(1, length // 14)
        for i in range(0, length + 1, every):
            self.text(X(i) - 5, bottom + 3.5, str(i), 6.5, color=GREY, align="C", width=10)
        self.text(left, bottom + 7.5, self._("deals"), 7, color=GREY, align="C", width=right - left)
        ends = []
        for p in range(len(s.names)):
            pts = [(X(i), Y(point[p])) for i, point in enumerate(s.chart)]
            pdf.set_draw_color(*COLORS[p % len(COLORS)])
            pdf.set_line_width(0.6)
            pdf.polyline(pts)
            ends.append((pts[-1][1], p))
        # the names at the right end of the lines, pushed apart so they never overlap
        ends.sort()
        last = -1e9
        for y, p in ends:
            y = max(y, last + 3.4)
            last = y
            self.text(
                right + 2,
                y + 1,
                self._fit(f"{s.names[p]} {_short(s.chart[-1][p])}", 30, 7.5, True),
                7.5,
                bold=True,
                color=COLORS[p % len(COLORS)],
                condensed=True,
            )
        pdf.set_y(bottom + 12)

    def legend(self) -> None:
        s = self.sheet
        lines = [(self._("Note — {text}").format(text=n), RED) for n in s.notes] + [(x, GREY) for x in s.legend]
        for text, color in lines:
            for line in self.wrap(text, self.width, 7.5):
                self.room(4, repeat_head=False)
                y = self.pdf.get_y()
                self.text(self.x0, y + 3, line, 7.5, color=color)
                self.pdf.set_y(y + 3.6)

    def render(self) -> bytes:
        self.new_page(first=True)
        self.grid()
        for b in self.sheet.blocks:
            self.block(b)
        self.totals()
        self.chart()
        self.legend()
        return bytes(self.pdf.output())


def _short(v: float) -> str:
    return f"{v:g}" if v == int(v) else f"{v:.1f}"


def render_pdf(sheet: Sheet, paper: str = "a4") -> bytes:
    """The sheet as a PDF document (A4 or Letter)."""
    return _Renderer(sheet, paper).render()


__all__: Sequence[str] = ("render_pdf", "PAPERS")
