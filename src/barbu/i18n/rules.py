"""The rules' own texts in a player's language: contracts' help, the rules guide.

The engine keeps its texts as English msgids (marked ``N_``): a preset's
description, an option's help (`OptionSpec.help`, `OptionSpec.allowed(words)`),
Bésigue's option meanings, a contract's help.  A front end words most of them
with ``words.gettext(text)``; the two that are built from pieces are worded here.
"""

from __future__ import annotations

from typing import Any

from ..classic.contracts import ALL_AT_ONCE, SCOTTISH_HELP
from ..core.words import Words
from ..guide import Guide, rules_guide
from . import translator


def contract_help(contract: Any, words: Words) -> str:
    """A contract's help in ``words``' language; a Scottish group's is its calls' help one after the other."""
    parts = getattr(contract, "parts", ())
    if len(parts) > 1 and all(p in SCOTTISH_HELP for p in parts):
        rules = " ".join(words.gettext(SCOTTISH_HELP[p]) for p in parts)
        return words.gettext(ALL_AT_ONCE).format(rules=rules)
    return words.gettext(contract.help) if contract.help else ""


def guide_in(rules: Any, lang: str | None) -> Guide:
    """The rules guide of ``rules`` (a rules text or a ruleset, any family) written in ``lang``."""
    return rules_guide(rules, translator(lang))
