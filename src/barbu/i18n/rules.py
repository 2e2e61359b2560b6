"""The rules' own texts in a player's language: contracts' help, the rules guide.

The engine keeps its texts as English msgids (marked ``N_``): a preset's
description, an option's help (`OptionSpec.help`, `OptionSpec.allowed(words)`),
Bésigue's option meanings, a contract's help.  A front end words most of them
with ``words.gettext(text)``; those built from pieces are worded here.
"""

from __future__ import annotations

from typing import Any

from ..guide import Guide, contract_help, rules_guide
from . import translator

__all__ = ["contract_help", "guide_in"]


def guide_in(rules: Any, lang: str | None) -> Guide:
    """The rules guide of ``rules`` (a rules text or a ruleset, any family) written in ``lang``."""
    return rules_guide(rules, translator(lang))
