"""The rules of every game in words, built from the rulesets themselves: what every front end teaches."""

from __future__ import annotations

from typing import Any

from ..besigue.ruleset import is_besigue
from ..core.words import ENGLISH, Words
from .barbu import barbu_guide, contract_help, contract_summary, settlement_words, settlements
from .besigue import besigue_guide
from .model import Guide, Section, Table, as_text
from .ruleset_words import option_label, preset_name, value_phrase, value_word


def rules_guide(rules: Any, words: Words = ENGLISH) -> Guide:
    """The guide of any game: a rules text or a ruleset of the Barbu family or of Bésigue.

    ``words`` is the language it is written in: barbu.i18n.guide_in(rules, lang) passes translator(lang).
    """
    if isinstance(rules, str) and is_besigue(rules) or getattr(rules, "family", None) == "besigue":
        return besigue_guide(rules, words)
    return barbu_guide(rules, words)


__all__ = [
    "Guide",
    "Section",
    "Table",
    "as_text",
    "barbu_guide",
    "besigue_guide",
    "contract_help",
    "contract_summary",
    "option_label",
    "preset_name",
    "rules_guide",
    "settlement_words",
    "settlements",
    "value_phrase",
    "value_word",
]
