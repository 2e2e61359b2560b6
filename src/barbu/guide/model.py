"""A game's rules as plain data: sections of paragraphs, bullet lists and small tables.

The terminal, the web page and the command line each render it their own way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


Block = Union[str, tuple[str, ...], Table]  # a paragraph, a bullet list, or a table


@dataclass(frozen=True)
class Section:
    heading: str
    blocks: tuple[Block, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Guide:
    title: str
    sections: tuple[Section, ...]


def as_text(guide: Guide) -> str:
    """A plain-text rendering (the terminal's help screen and the command line)."""
    out = [guide.title, ""]
    for s in guide.sections:
        out += [s.heading, "-" * len(s.heading)]
        for b in s.blocks:
            if isinstance(b, str):
                out.append(b)
            elif isinstance(b, Table):
                out.append(" | ".join(b.header))
                out += [" | ".join(r) for r in b.rows]
            else:
                out += [f"• {item}" for item in b]
            out.append("")
    return "\n".join(out)
