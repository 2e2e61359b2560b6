"""The rules pages: every preset explained, rendered from `barbu.guide` (never a second copy of the rules)."""

from __future__ import annotations

from typing import Any

from ...besigue.ruleset import PRESETS as BESIGUE_PRESETS
from ...besigue.ruleset import BesigueRules
from ...classic.ruleset import Ruleset, presets
from ...core.errors import BarbuError
from ...core.words import ENGLISH, Words
from ...games import game_kind
from ...guide import Guide, Section, Table, preset_name
from ...i18n import translator
from ...i18n.rules import guide_in


def blocks(section: Section) -> list[tuple[str, Any]]:
    """A section's blocks as the template lays them out: ("p", text), ("table", (header, rows)), ("ul", items)."""
    out: list[tuple[str, Any]] = []
    for b in section.blocks:
        if isinstance(b, str):
            out.append(("p", b))
        elif isinstance(b, Table):
            out.append(("table", (b.header, b.rows)))
        else:
            out.append(("ul", list(b)))
    return out


def games(words: Words = ENGLISH) -> list[tuple[str, str, str]]:
    """Every preset of every game: its identifier (the page's address), its name and description in ``words``'
    language."""
    return [(p.name, preset_name(p.name, words), words.gettext(p.description)) for p in presets()] + [
        (k, preset_name(k, words), words.gettext(d)) for k, (_, d) in BESIGUE_PRESETS.items()
    ]


def guide_of(text: str, lang: str = "en") -> tuple[Guide, str] | None:
    """The guide of a preset or ruleset text and the preset it names; None if it names no game.

    The guide is written in ``lang`` (`barbu.i18n.rules.guide_in`).
    """
    try:
        rules: Any = BesigueRules.parse(text) if game_kind(text).name == "besigue" else Ruleset.parse(text)
    except BarbuError:
        return None
    return guide_in(rules, lang), rules.preset


def page_context(text: str | None, lang: str = "en") -> dict[str, Any] | None:
    """What templates/rules.html shows: the index (``text`` None) or one game's guide; None for no game."""
    words = translator(lang)
    context: dict[str, Any] = {"games": games(words), "current": None, "guide": None, "sections": []}
    if text is None:
        return context
    found = guide_of(text, lang)
    if found is None:
        return None
    guide, preset = found
    context.update(
        current=preset,
        current_name=preset_name(preset, words),
        guide=guide,
        sections=[(s.heading, blocks(s)) for s in guide.sections],
    )
    return context
