"""Bésigue on the setup screen: its presets in the game list, its options, its rules from the choices.

The setup screen asks these helpers whenever the chosen game is Bésigue, so
its own form code stays that of the Barbu family.
"""

from __future__ import annotations

from typing import Any

from ..besigue import PRESETS, BesigueRules, is_besigue
from ..besigue.ruleset import OPTIONS
from ..core.words import N_
from ..i18n import _, number

TARGETS = ("500", "1000", "1500", "2000", "3000")

#: Bésigue's descriptions, options and their meanings (the engine keeps them in English), as the form shows them.
WORDS = {
    "besigue": N_("Bésigue for two, as the seed (003) states it: 9 cards, aces score, drawn 7 of trumps shown, "
                  "1000 points"),
    "besigue-english": N_("the common English rules: 8 cards, aces and tens score, the 7 of trumps exchanged for "
                          "the turn-up, must win the last tricks, 1000 points"),
    "hand": N_("hand"), "brisques": N_("brisques"), "seven": N_("seven"), "endgame": N_("endgame"),
    "target": N_("target"),
    "cards dealt to each player": N_("cards dealt to each player"),
    "cards that score 10 when won in tricks": N_("cards that score 10 when won in tricks"),
    "how the 7 of trumps scores 10": N_("how the 7 of trumps scores 10"),
    "duty in the last tricks, once the stock is empty": N_("duty in the last tricks, once the stock is empty"),
    "points that end the game at the end of a deal (higher total wins)":
        N_("points that end the game at the end of a deal (higher total wins)"),
    "nine each, by threes (the seed)": N_("nine each, by threes (the seed)"),
    "eight each, by 3-2-3 (English)": N_("eight each, by 3-2-3 (English)"),
    "each ace won (the seed)": N_("each ace won (the seed)"),
    "each ace and each ten won (English)": N_("each ace and each ten won (English)"),
    "shown when drawn from the stock (the seed)": N_("shown when drawn from the stock (the seed)"),
    "after winning a trick its holder exchanges it for the turn-up, or shows the other 7 of trumps (English)":
        N_("after winning a trick its holder exchanges it for the turn-up, or shows the other 7 of trumps (English)"),
    "follow suit if able, else trump if able (the seed)": N_("follow suit if able, else trump if able (the seed)"),
    "follow and head the trick if able, else trump if able (English)":
        N_("follow and head the trick if able, else trump if able (English)"),
    "aces": N_("aces"), "aces_and_tens": N_("aces and tens"), "drawn": N_("drawn"), "exchange": N_("exchange"),
    "follow_or_trump": N_("follow or trump"), "must_win": N_("must win"),
}


def word(text: str) -> str:
    """A word of Bésigue's form in the current language (as it is when no translation is kept)."""
    return _(WORDS[text]) if text in WORDS else text.replace("_", " ")


def game_choices() -> list[tuple[str, str]]:
    """The Bésigue lines of the setup screen's game list."""
    return [(_("{name} (2 players)").format(name=name), name) for name in PRESETS]


def description(name: str) -> str:
    return word(name) if name in WORDS else PRESETS[name][1]


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
        shown = [(f"{word(v)} — {word(meanings[v])}" if v in meanings else number(int(v)) if v.isdigit() else v, v)
                 for v in choices]
        out.append((word(name).capitalize(), f"opt-{name}", shown, value, word(meaning)))
    return out


def rules_from(name: str, values: dict[str, Any]) -> BesigueRules:
    """The ruleset the form describes (checked by the ruleset's own parser)."""
    base = PRESETS[name][0]
    changes = [f"{k}={values[k]}" for k in OPTIONS if str(values[k]) != str(getattr(base, k))]
    return BesigueRules.parse(f"{name}({', '.join(changes)})" if changes else name)


__all__ = ["description", "game_choices", "is_besigue", "option_menus", "option_values", "preset_values",
           "rules_from"]
