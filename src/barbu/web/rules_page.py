"""The rules pages: every preset explained, rendered from `barbu.guide` (never a second copy of the rules)."""

from __future__ import annotations

from html import escape

from ..core.errors import BarbuError
from ..guide import Guide, Table, rules_guide
from ..classic.ruleset import presets
from ..classic.ruleset import Ruleset

HEAD = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title><link rel="stylesheet" href="/static/css/barbu.css">
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml"></head>
<body class="rules-page"><header class="topbar"><h1><a href="/" class="home">♠ barbu</a>
<span class="muted">rules</span></h1><div class="topbar-right"><a class="button" href="/">Lobby</a></div></header>
<main class="rules-main">"""
TAIL = "</main></body></html>"


def _block(b: object) -> str:
    if isinstance(b, str):
        return f"<p>{escape(b)}</p>"
    if isinstance(b, Table):
        head = "".join(f"<th>{escape(h)}</th>" for h in b.header)
        rows = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in r) + "</tr>" for r in b.rows)
        return f'<div class="rules-table"><table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>'
    return "<ul>" + "".join(f"<li>{escape(i)}</li>" for i in b) + "</ul>"  # type: ignore[union-attr]


def _nav(current: str | None) -> str:
    links = " ".join(
        f'<a class="button{" primary" if p.name == current else ""}" href="/rules/{escape(p.name)}">{escape(p.name)}</a>'
        for p in presets())
    return f'<nav class="rules-nav" aria-label="Games">{links}</nav>'


def render_guide(guide: Guide, current: str) -> str:
    body = [f"<h2>{escape(guide.title)}</h2>", _nav(current)]
    for s in guide.sections:
        body.append(f'<section class="panel"><h3>{escape(s.heading)}</h3>'
                    + "".join(_block(b) for b in s.blocks) + "</section>")
    return HEAD.format(title=f"barbu — rules of {escape(current)}") + "".join(body) + TAIL


def rules_index() -> str:
    items = "".join(f'<li><a href="/rules/{escape(p.name)}">{escape(p.name)}</a> — {escape(p.description)}</li>'
                    for p in presets())
    return (HEAD.format(title="barbu — rules") + '<section class="panel"><h2>The rules of every game</h2>'
            f"<ul>{items}</ul></section>" + TAIL)


def rules_html(text: str) -> str | None:
    """The page for a preset or ruleset text; None if it names no game."""
    try:
        rules = Ruleset.parse(text)
    except BarbuError:
        return None
    return render_guide(rules_guide(rules), rules.preset)
