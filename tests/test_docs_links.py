"""Every link in the README and in docs/ leads somewhere: a relative link names a file of the repository (and,
with ``#anchor``, one of that page's headings as GitHub makes its anchor), and the README, the front door, points
at nothing outside the repository but the local server it tells you to start.

The Markdown is read by markdown-it (the parser Rich and Textual already bring), so a link inside a code block is
no link, and an ``<img src=…>`` in HTML counts as one.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from urllib.parse import unquote

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
HTML_LINK = re.compile(r"""\b(?:src|href)\s*=\s*["']([^"']+)["']""")
OUTSIDE = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)  # http:, https:, mailto:… : not a file of the repository
LOCAL_SERVER = re.compile(r"^http://(127\.0\.0\.1|localhost)(:\d+)?(/|$)")


def parsed(path: Path) -> list[Token]:
    return MarkdownIt("commonmark").enable("table").parse(path.read_text(encoding="utf-8"))


def walk(tokens: list[Token]) -> list[Token]:
    out: list[Token] = []
    for t in tokens:
        out.append(t)
        if t.children:
            out.extend(walk(t.children))
    return out


def links(path: Path) -> list[str]:
    """Every link and image address of a page, in Markdown or in HTML."""
    out: list[str] = []
    for t in walk(parsed(path)):
        if t.type == "link_open":
            out.append(str(t.attrs.get("href", "")))
        elif t.type == "image":
            out.append(str(t.attrs.get("src", "")))
        elif t.type in ("html_inline", "html_block"):
            out.extend(HTML_LINK.findall(t.content))
    return out


def slug(text: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


@cache
def anchors(path: Path) -> frozenset[str]:
    """The anchors of a page's headings (a repeated one numbered -1, -2… as GitHub does)."""
    seen: dict[str, int] = {}
    out: set[str] = set()
    tokens = parsed(path)
    for i, t in enumerate(tokens):
        if t.type != "heading_open":
            continue
        words = "".join(c.content for c in tokens[i + 1].children or [] if c.type in ("text", "code_inline"))
        base = slug(words)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return frozenset(out)


def broken(page: Path, target: str, root: Path = ROOT) -> str | None:
    """Why ``target`` (a link on ``page``, in the repository at ``root``) leads nowhere, or None."""
    if OUTSIDE.match(target):
        return None
    where, _, anchor = target.partition("#")
    file = (page.parent / unquote(where)).resolve() if where else page
    if not file.is_relative_to(root):
        return f"{target}: outside the repository"
    if not file.exists():
        return f"{target}: no such file"
    if anchor and file.suffix == ".md" and unquote(anchor) not in anchors(file):
        return f"{target}: {file.name} has no heading with the anchor #{anchor}"
    return None


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_heading(page: Path) -> None:
    found = links(page)
    assert found or page.name != "README.md"
    bad = [why for why in (broken(page, t) for t in found) if why]
    assert not bad, "\n".join(bad)


def test_the_readme_points_at_nothing_outside_the_repository() -> None:
    outside = [t for t in links(ROOT / "README.md") if OUTSIDE.match(t) and not LOCAL_SERVER.match(t)]
    assert not outside, outside


def test_the_checker_sees_a_broken_file_and_a_broken_anchor(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A title, with `code`\n\n## Again\n\n## Again\n", encoding="utf-8")
    page = tmp_path / "b.md"
    page.write_text(
        "[ok](a.md#a-title-with-code) [twice](a.md#again-1) [no](a.md#nothing) [gone](c.md)\n\n"
        '<img src="d.png">\n\n```\n[not a link](e.md)\n```\n',
        encoding="utf-8",
    )
    assert links(page) == ["a.md#a-title-with-code", "a.md#again-1", "a.md#nothing", "c.md", "d.png"]
    assert [broken(page, t, tmp_path) is None for t in links(page)] == [True, True, False, False, False]
    assert broken(page, "../x.md", tmp_path) == "../x.md: outside the repository"
