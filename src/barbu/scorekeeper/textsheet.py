"""A score sheet as plain text, for a terminal or a quick look (``barbu sheet`` without ``-o``)."""

from __future__ import annotations

from ..i18n import translator
from .sheet import Row, Sheet


def _cell_text(row: Row, i: int) -> str:
    c = row.cells[i] if i < len(row.cells) else None
    if c is None:
        return ""
    text = c.text.replace("\n", ", ")
    if c.running:
        text += f" ={c.running}"
    if c.glyphs:
        text += f" [{c.glyphs}]"
    return text


def _label(row: Row) -> str:
    return f"{row.number:>2}. {row.label}" if row.number is not None else row.label


def render_text(sheet: Sheet) -> str:
    """The sheet's rows as aligned columns; blank boxes are underscores to write on."""
    _ = translator(sheet.lang).gettext
    rows = [r for b in sheet.blocks for r in b.rows]
    label_w = max([len(sheet.label_heading), 12] + [len(_label(r)) for r in rows if r.kind != "heading"])
    widths = [
        max([len(h), 6] + [len(_cell_text(r, i)) for r in rows if r.kind != "heading"])
        for i, h in enumerate(sheet.columns)
    ]
    widths = [max(w, 10) if not sheet.columns[i] else w for i, w in enumerate(widths)]

    def line(label: str, cells: list[str], detail: str = "") -> str:
        out = f"{label:<{label_w}}  " + "  ".join(f"{c:>{w}}" for c, w in zip(cells, widths))
        return (out + (f"  {detail}" if detail else "")).rstrip()

    out = [sheet.title, f"{sheet.rules} · {sheet.subtitle}", ""]
    head = (
        [h or _("player {n}").format(n=i + 1) for i, h in enumerate(sheet.columns)]
        if sheet.game != "scottish"
        else list(sheet.columns)
    )
    groups = ""
    if sheet.groups:  # each player's name over his columns
        parts, col = [], 0
        for name, span in sheet.groups:
            width = sum(widths[col : col + span]) + 2 * (span - 1)
            parts.append(f"{name:^{width}}")
            col += span
        groups = " " * (label_w + 2) + "  ".join(parts)
    for b in sheet.blocks:
        out.append(f"== {b.title}")
        if groups:
            out.append(groups.rstrip())
        out.append(line(sheet.label_heading, head, sheet.detail_heading))
        for r in b.rows:
            if r.kind == "heading":
                out.append(f"-- {r.label}")
            elif r.kind == "open":
                out.append(line(_label(r) or "_" * 10, ["_" * max(w - 1, 3) for w in widths]))
            else:
                out.append(line(_label(r), [_cell_text(r, i) for i in range(len(widths))], r.detail))
            out.extend("   " + _("note: {text}").format(text=n) for n in r.notes)
        out.append("")
    if sheet.grid is not None:
        g = sheet.grid
        w = max(len(x) for x in g.rows + ("",)) + 2
        out.append(f"== {g.title}")
        out.append(" " * w + "  ".join(f"{c[:10]:>10}" for c in g.columns))
        for name, marks in zip(g.rows, g.marks):
            out.append(f"{name or '________':<{w}}" + "  ".join(f"{m:>10}" for m in marks))
        out.append("")
    if sheet.totals:
        out.append(_("Totals: {list}").format(list="  ".join(f"{n} {t}" for n, t in zip(sheet.names, sheet.totals))))
    if sheet.standings:
        out.append(
            _("Standings: {list}").format(list="  ".join(f"{s.place}. {s.name} {s.total}" for s in sheet.standings))
        )
    out.extend(_("Note: {text}").format(text=n) for n in sheet.notes)
    out.extend(sheet.legend)
    return "\n".join(out) + "\n"
