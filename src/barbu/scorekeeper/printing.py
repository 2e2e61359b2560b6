"""A kept game's printable sheet, as PDF or print-ready HTML: the one call the terminal and the web make."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .printhtml import render_html
from .sheet import sheet_for

if TYPE_CHECKING:
    from . import AnyKeeper

FORMATS = {"pdf": "application/pdf", "html": "text/html; charset=utf-8"}


def printable(keeper: "AnyKeeper", fmt: str, paper: str = "a4", lang: str | None = "en") -> bytes:
    """The sheet of ``keeper`` so far (notes and flags under their deals), as ``pdf`` or ``html`` bytes, its
    words, contract names and numbers in ``lang`` (en, fr, it)."""
    if fmt not in FORMATS:
        raise ValueError(f"a printable sheet is pdf or html, not {fmt!r}")
    sheet = sheet_for(keeper.rules, keeper.names, keeper.results, keeper.flags, lang=lang)
    if fmt == "html":
        return render_html(sheet, paper).encode("utf-8")
    from .pdf import render_pdf  # fpdf2 (and numpy) take 0.4 s to import: only when a sheet is printed as PDF

    return render_pdf(sheet, paper)
