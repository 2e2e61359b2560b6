"""A score sheet as one self-contained, print-ready HTML page: inline CSS with ``@page``, the chart as inline
SVG, no scripts.  A browser's Print gives the same sheet as the PDF; on screen it reads as a page."""

from __future__ import annotations

from html import escape

from ..i18n import translator
from .sheet import COLORS, Block, Cell, Row, Sheet, chart_scale

_CSS = """
@page { size: %(paper)s %(orientation)s; margin: 11mm 10mm 13mm; }
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { font-family: "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; color: #191919; margin: 0; background: #e9ecef; }
main { background: #fff; max-width: %(screen)s; margin: 16px auto; padding: 14mm 12mm; box-shadow: 0 1px 6px #0003; }
header { display: flex; justify-content: space-between; align-items: flex-start; gap: 1em; flex-wrap: wrap; }
h1 { font-size: 22pt; color: #283c55; margin: 0; }
.family { color: #666; margin: .15em 0; font-size: 10pt; }
.rules { font-size: 10pt; margin: .2em 0 .6em; }
.write-in { color: #666; font-size: 10pt; white-space: nowrap; }
.players { display: flex; gap: 1.4em; flex-wrap: wrap; font-weight: bold; margin: .3em 0 .8em; }
.swatch { display: inline-block; width: .8em; height: .9em; margin-right: .35em; vertical-align: -0.1em; }
table { width: 100%%; border-collapse: collapse; font-size: 9.5pt; margin-bottom: 5mm; page-break-inside: auto; }
thead { display: table-header-group; }
tr { page-break-inside: avoid; break-inside: avoid; }
caption { background: #283c55; color: #fff; font-weight: bold; text-align: left; padding: 1.6mm 2mm; caption-side: top; }
th, td { border-bottom: 0.25mm solid #999; padding: 1.2mm 1.5mm; vertical-align: top; }
thead th { background: #e8ecf0; font-size: 9pt; }
thead th.player { border-top: 1.3mm solid var(--c); }
thead th.group { color: #fff; font-size: 10pt; border-left: 0.6mm solid #fff; }
th.label, td.label { text-align: left; font-weight: normal; width: %(label)s; }
td.num { text-align: right; border-left: 0.25mm solid #999; width: %(value)s; font-variant-numeric: tabular-nums; }
td.detail { border-left: 0.25mm solid #999; font-size: 8pt; }
.no { color: #777; font-size: 7pt; margin-right: .6em; display: inline-block; min-width: 1.4em; }
.minus { color: #be141e; }
.running { display: block; color: #777; font-size: 7.5pt; }
.glyphs { display: block; color: #283c55; font-size: 7pt; text-align: left; }
.red { color: #be141e; }
.strong { font-weight: bold; }
tr.open td { height: 8.5mm; }
tr.sum td, tr.sum th { background: #ecf0e8; font-weight: bold; }
tr.heading th { background: #e8ecf0; color: #283c55; text-align: left; }
tr.deal:nth-child(even) td { background: #f4f6f8; }
.note { color: #be141e; font-size: 8pt; display: block; }
table.grid td { text-align: center; border-left: 0.25mm solid #999; height: 7mm; }
table.grid th { font-size: 8pt; }
.total td { font-size: 13pt; font-weight: bold; background: #faf4d6; border-top: 0.5mm solid #222; border-bottom: 0.5mm solid #222; }
ol.standings { font-size: 11pt; margin: 0 0 5mm; }
ol.standings li:first-child { font-weight: bold; }
figure { margin: 0 0 5mm; page-break-inside: avoid; break-inside: avoid; }
figcaption { background: #283c55; color: #fff; font-weight: bold; padding: 1.6mm 2mm; }
svg { width: 100%%; height: auto; }
.legend { color: #666; font-size: 8pt; }
.inline-detail { display: none; }
@media screen and (max-width: 600px) {  /* a phone: the detail goes under the contract, the points get the width */
  main { padding: 4mm 2mm; margin: 0; }
  td.detail, th.detail { display: none; }
  .inline-detail { display: block; font-size: 7.5pt; color: #444; }
  th.label, td.label { width: 34%%; }
}
@media print {
  body { background: #fff; }
  main { box-shadow: none; margin: 0; padding: 0; max-width: none; }
  .block { break-inside: auto; }
}
"""


def _points(cell: Cell) -> str:
    cls = " ".join(x for x, on in (("minus", cell.sign < 0), ("strong", cell.strong)) if on)
    cls = f' class="{cls}"' if cls else ""
    lines = "<br>".join(escape(x) for x in cell.text.split("\n"))
    out = f"<span{cls}>{lines}</span>" if cell.text else ""
    if cell.running:
        out += f'<span class="running">{escape(cell.running)}</span>'
    if cell.glyphs:
        out += f'<span class="glyphs">{escape(cell.glyphs)}</span>'
    return out


def _suits(text: str) -> str:
    """Escaped text with the red suits in red."""
    out = escape(text)
    for suit in "♥♦":
        out = out.replace(suit, f'<span class="red">{suit}</span>')
    return out


def _row(sheet: Sheet, row: Row) -> str:
    span = len(sheet.columns) + 1 + (1 if sheet.detail_heading else 0)
    notes = "".join(f'<span class="note">→ {escape(n)}</span>' for n in row.notes)
    if row.kind == "heading":
        return f'<tr class="heading"><th colspan="{span}">{escape(row.label)}{notes}</th></tr>'
    no = f'<span class="no">{row.number}</span>' if row.number is not None else ""
    cells = "".join(f'<td class="num">{_points(c)}</td>' for c in row.cells)
    if len(row.cells) < len(sheet.columns):
        cells += '<td class="num"></td>' * (len(sheet.columns) - len(row.cells))
    detail = f'<td class="detail">{_suits(row.detail)}</td>' if sheet.detail_heading else ""
    inline = f'<span class="inline-detail">{_suits(row.detail)}</span>' if row.detail else ""
    number = f' data-deal="{row.number}"' if row.number is not None and row.kind == "deal" else ""
    return (
        f'<tr class="{row.kind}"{number}><td class="label">{no}{escape(row.label)}{inline}{notes}</td>'
        f"{cells}{detail}</tr>"
    )


def _groups(sheet: Sheet) -> str:
    """The row of headings over groups of columns (Bésigue: each player's name over his six columns)."""
    if not sheet.groups:
        return ""
    cells = "".join(
        f'<th colspan="{span}" class="group" style="background: rgb{COLORS[i % len(COLORS)]}">{escape(name)}</th>'
        for i, (name, span) in enumerate(sheet.groups)
    )
    return f"<tr><th></th>{cells}</tr>"


def _head(sheet: Sheet, plain: bool = False) -> str:
    players = sheet.game not in ("scottish", "besigue")
    total = sum(sheet.weights) or 1
    width = [f' style="width: {70 * w / total:.1f}%"' for w in sheet.weights] or [""] * len(sheet.columns)
    cols = "".join(
        f'<th class="player" style="--c: rgb{COLORS[i % len(COLORS)]}">{escape(c)}</th>'
        if players
        else f"<th{width[i]}>{escape(c)}</th>"
        for i, c in enumerate(sheet.columns)
    )
    detail = (
        f'<th class="label detail">{escape(sheet.detail_heading) if not plain else ""}</th>'
        if sheet.detail_heading
        else ""
    )
    label = escape(sheet.label_heading) if not plain else ""
    return f'<thead>{_groups(sheet)}<tr><th class="label">{label}</th>{cols}{detail}</tr></thead>'


def _block(sheet: Sheet, block: Block) -> str:
    rows = "".join(_row(sheet, r) for r in block.rows)
    return f'<table class="block"><caption>{escape(block.title)}</caption>{_head(sheet)}<tbody>{rows}</tbody></table>'


def _grid(sheet: Sheet) -> str:
    g = sheet.grid
    if g is None:
        return ""
    head = "".join(f"<th>{escape(c)}</th>" for c in g.columns)
    rows = "".join(
        f'<tr><th class="label">{escape(name)}</th>' + "".join(f"<td>{escape(m)}</td>" for m in marks) + "</tr>"
        for name, marks in zip(g.rows, g.marks)
    )
    return (
        f'<table class="grid"><caption>{escape(g.title)}</caption><thead><tr><th></th>{head}</tr></thead>'
        f"<tbody>{rows}</tbody></table>"
    )


def _totals(sheet: Sheet) -> str:
    if not sheet.totals and not sheet.blank:
        return ""
    _ = translator(sheet.lang).gettext
    span = '<td class="detail"></td>' if sheet.detail_heading else ""
    where = sheet.total_columns or tuple(range(len(sheet.names)))
    at = dict(zip(where, sheet.totals))
    values = "".join(
        f'<td class="num{" minus" if at.get(i, "").startswith("-") else ""}">{escape(at.get(i, ""))}</td>'
        for i in range(len(sheet.columns))
    )
    if sheet.game == "scottish":
        values = "".join(f"<td>{escape(n)}: {escape(t)}</td>" for n, t in zip(sheet.names, sheet.totals))
        caption = escape(_("Totals"))
        table = f'<table><caption>{caption}</caption><tbody><tr class="total">{values}</tr></tbody></table>'
    else:
        caption = escape(_("Final total and standings") if sheet.standings else _("Totals"))
        total = escape(_("Total"))
        table = (
            f"<table><caption>{caption}</caption>"
            f'{_head(sheet, plain=not sheet.groups)}<tbody><tr class="total"><td class="label">{total}</td>'
            f"{values}{span}</tr></tbody></table>"
        )
    if sheet.standings:
        table += (
            '<ol class="standings">'
            + "".join(
                f"<li>{escape(s.name)} <strong>{escape(s.total)}</strong>"
                + (
                    " " + _("(tied {place})").format(place=s.place)
                    if sum(1 for t in sheet.standings if t.place == s.place) > 1
                    else ""
                )
                + "</li>"
                for s in sheet.standings
            )
            + "</ol>"
        )
    return table


def chart_svg(sheet: Sheet) -> str:
    """The running totals as an SVG line chart, one coloured line per player, names at the line ends."""
    if len(sheet.chart) < 2:
        return ""
    _ = translator(sheet.lang).gettext
    W, H, left, right, top, bottom = 760, 260, 46, 120, 12, 228
    lo, hi, step = chart_scale(sheet)
    span = hi - lo or 1
    length = max(sheet.chart_length, len(sheet.chart) - 1)

    def X(i: float) -> float:
        return left + (W - left - right) * i / length

    def Y(v: float) -> float:
        return bottom - (bottom - top) * (v - lo) / span

    label = escape(_("running totals over the game"))
    deals = escape(_("deals"))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" role="img" aria-label="{label}">']
    tick = lo
    while tick <= hi + 1e-9:
        color = "#444" if tick == 0 else "#d4d4d4"
        parts.append(
            f'<line x1="{left}" x2="{W - right}" y1="{Y(tick):.1f}" y2="{Y(tick):.1f}" stroke="{color}" '
            f'stroke-width="1"/><text x="{left - 6}" y="{Y(tick) + 4:.1f}" font-size="11" fill="#777" '
            f'text-anchor="end">{tick:g}</text>'
        )
        tick += step
    every = max(1, length // 14)
    for i in range(0, length + 1, every):
        parts.append(
            f'<text x="{X(i):.1f}" y="{bottom + 16}" font-size="11" fill="#777" text-anchor="middle">{i}</text>'
        )
    parts.append(
        f'<text x="{(left + W - right) / 2}" y="{H - 2}" font-size="11" fill="#777" text-anchor="middle">{deals}</text>'
    )
    ends = []
    for p in range(len(sheet.names)):
        color = "rgb(%d,%d,%d)" % COLORS[p % len(COLORS)]
        pts = " ".join(f"{X(i):.1f},{Y(point[p]):.1f}" for i, point in enumerate(sheet.chart))
        parts.append(f'<polyline points="{pts}" fill="none" stroke="{color}" stroke-width="2.5"/>')
        ends.append((Y(sheet.chart[-1][p]), p, color))
    last = -1e9
    for y, p, color in sorted(ends):
        y = max(y, last + 14)
        last = y
        v = sheet.chart[-1][p]
        parts.append(
            f'<text x="{W - right + 6}" y="{y + 4:.1f}" font-size="12" font-weight="bold" fill="{color}">'
            f"{escape(sheet.names[p])} {v:g}</text>"
        )
    parts.append("</svg>")
    caption = escape(_("The totals over the game"))
    return f"<figure><figcaption>{caption}</figcaption>" + "".join(parts) + "</figure>"


def render_html(sheet: Sheet, paper: str = "a4") -> str:
    """The whole page: a document that prints as the sheet (A4 or Letter, landscape when wide)."""
    paper_css = {"a4": "A4", "letter": "letter"}.get(paper.lower())
    if paper_css is None:
        raise ValueError(f"paper must be a4 or letter, not {paper!r}")
    css = _CSS % {
        "paper": paper_css,
        "orientation": "landscape" if sheet.wide else "portrait",
        "screen": "1080px" if sheet.wide else "820px",
        "label": "24%" if sheet.game not in ("scottish", "besigue") else "14%",
        "value": f"{52 / max(1, len(sheet.columns)):.1f}%" if sheet.detail_heading else "auto",
    }
    _ = translator(sheet.lang).gettext
    title, _dash, family = sheet.title.partition(" — ")
    rules, write_in = _("Rules:"), _("Date ____________  Place ____________")
    players = ""
    if sheet.game != "scottish":  # the names in their colours, or lines to write them on
        players = (
            '<div class="players">'
            + "".join(
                f'<span><span class="swatch" style="background: rgb{COLORS[i % len(COLORS)]}"></span>'
                f"{escape(n) if n else '______________'}</span>"
                for i, n in enumerate(sheet.names)
            )
            + "</div>"
        )
    body = [
        f"<header><div><h1>{escape(title)}</h1>",
        f'<p class="family">{escape(family)}</p>' if family else "",
        f'<p class="rules">{escape(rules)} <strong>{escape(sheet.rules)}</strong> · {escape(sheet.subtitle)}</p></div>',
        f'<p class="write-in">{escape(write_in).replace("  ", " ")}</p></header>',
        players,
        _grid(sheet),
        *(_block(sheet, b) for b in sheet.blocks),
        _totals(sheet),
        chart_svg(sheet),
        '<div class="legend">'
        + "".join('<p class="note">' + escape(_("Note — {text}").format(text=n)) + "</p>" for n in sheet.notes)
        + "".join(f"<p>{escape(x)}</p>" for x in sheet.legend)
        + "</div>",
    ]
    return (
        f'<!DOCTYPE html>\n<html lang="{sheet.lang}"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(sheet.title)}</title><style>{css}</style></head>"
        f"<body><main>{''.join(body)}</main></body></html>\n"
    )


__all__ = ["render_html", "chart_svg"]
