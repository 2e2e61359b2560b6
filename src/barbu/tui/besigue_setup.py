"""Bésigue on the setup screen: its presets in the game list, its options, its rules from the choices.

The setup screen asks these helpers whenever the chosen game is Bésigue, so
its own form code stays that of the Barbu family.
"""

from __future__ import annotations

from typing import Any

from ..besigue import PRESETS, BesigueRules, is_besigue
from ..besigue.ruleset import OPTIONS
from ..core.words import N_
from ..guide.ruleset_words import preset_name
from ..i18n import _, number, words

TARGETS = ("500", "1000", "1500", "2000", "3000")

#: Bésigue's options and their values as the form shows them (the engine's catalog words their meanings).
WORDS = {
    "hand": N_("hand"),
    "brisques": N_("brisques"),
    "seven": N_("seven"),
    "endgame": N_("endgame"),
    "target": N_("target"),
    "aces": N_("aces"),
    "aces_and_tens": N_("aces and tens"),
    "drawn": N_("drawn"),
    "exchange": N_("exchange"),
    "follow_or_trump": N_("follow or trump"),
    "must_win": N_("must win"),
}


def word(text: str) -> str:
    """An option or value of Bésigue's form in the current language."""
    return _(WORDS[text]) if text in WORDS else text.replace("_", " ")


def game_choices() -> list[tuple[str, str]]:
    """The Bésigue lines of the setup screen's game list."""
    return [(_("{name} (2 players)").format(name=preset_name(name, words())), name) for name in PRESETS]


def description(name: str) -> str:
    return _(PRESETS[name][1])


def option_values(rules: Any) -> dict[str, Any]:
    """The option values of a Bésigue ruleset as the setup form holds them (text), with ``players``."""
    values: dict[str, Any] = {name: str(getattr(rules, name)) for name in OPTIONS}
    values["players"] = 2
    return values


def preset_values(name: str) -> dict[str, Any]:
    return option_values(PRESETS[name][0])


def option_menus(values: dict[str, Any]) -> list[tuple[str, str, list[tuple[str, str]], str, str]]:
    """Each option as (label, id, [(shown, value)…], value, help) for a Select."""
    out = []
    for name, (allowed, meaning, meanings) in OPTIONS.items():
        value = str(values[name])
        choices = list(TARGETS) if allowed == "int" else list(allowed)
        if value not in choices:
            choices.append(value)
        shown = [
            (f"{word(v)} — {_(meanings[v])}" if v in meanings else number(int(v)) if v.isdigit() else v, v)
            for v in choices
        ]
        out.append((word(name).capitalize(), f"opt-{name}", shown, value, _(meaning)))
    return out


def rules_from(name: str, values: dict[str, Any]) -> BesigueRules:
    """The ruleset the form describes (checked by the ruleset's own parser)."""
    base = PRESETS[name][0]
    changes = [f"{k}={values[k]}" for k in OPTIONS if str(values[k]) != str(getattr(base, k))]
    return BesigueRules.parse(f"{name}({', '.join(changes)})" if changes else name)


__all__ = ["description", "game_choices", "is_besigue", "option_menus", "option_values", "preset_values", "rules_from"]
