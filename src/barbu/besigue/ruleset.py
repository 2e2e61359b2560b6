"""The Bésigue ruleset: options, their one-line form and the presets.

``besigue(hand=8, brisques=aces_and_tens, seven=exchange, endgame=must_win, target=1000)``
round-trips through `BesigueRules.parse` and `str`.  Only options that differ
from the named preset are written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace

from ..core.errors import RulesetError
from ..core.words import N_
from . import refusals as R

#: option -> (allowed values or "int", meaning of the option, meaning of each value)
OPTIONS: dict[str, tuple[tuple[str, ...] | str, str, dict[str, str]]] = {
    "hand": (
        ("9", "8"),
        N_("cards dealt to each player"),
        {"9": N_("nine each, by threes (French)"), "8": N_("eight each, by 3-2-3 (English)")},
    ),
    "brisques": (
        ("aces", "aces_and_tens"),
        N_("cards that score 10 when won in tricks"),
        {"aces": N_("each ace won (French)"), "aces_and_tens": N_("each ace and each ten won (English)")},
    ),
    "seven": (
        ("drawn", "exchange"),
        N_("how the 7 of trumps scores 10"),
        {
            "drawn": N_("shown when drawn from the stock (French)"),
            "exchange": N_(
                "after winning a trick its holder exchanges it for the turn-up, "
                "or shows the other 7 of trumps (English)"
            ),
        },
    ),
    "endgame": (
        ("follow_or_trump", "must_win"),
        N_("duty in the last tricks, once the stock is empty"),
        {
            "follow_or_trump": N_("follow suit if able, else trump if able (French)"),
            "must_win": N_("follow and head the trick if able, else trump if able (English)"),
        },
    ),
    "target": ("int", N_("points that end the game at the end of a deal (higher total wins)"), {}),
}


@dataclass(frozen=True)
class BesigueRules:
    """A frozen Bésigue ruleset.  ``preset`` is the name the one-line form starts from."""

    preset: str = "besigue"
    hand: int = 9
    brisques: str = "aces"
    seven: str = "drawn"
    endgame: str = "follow_or_trump"
    target: int = 1000

    family = "besigue"
    players = 2

    @property
    def stock_size(self) -> int:
        """Cards left after the deal, the turn-up included (46 for hands of 9, 48 for 8)."""
        return 64 - 2 * self.hand

    @property
    def stock_tricks(self) -> int:
        """Tricks played while the stock lasts: each takes two cards from it."""
        return self.stock_size // 2

    def replace(self, **changes: object) -> "BesigueRules":
        return replace(self, **changes)  # type: ignore[arg-type]

    def __str__(self) -> str:
        base = PRESETS[self.preset][0]
        parts = [
            f"{f.name}={getattr(self, f.name)}"
            for f in fields(self)
            if f.name != "preset" and getattr(self, f.name) != getattr(base, f.name)
        ]
        return f"{self.preset}({', '.join(parts)})" if parts else self.preset

    @classmethod
    def parse(cls, text: str) -> "BesigueRules":
        """A preset name, optionally followed by ``(option=value, ...)``."""
        m = re.match(r"^\s*([a-z][a-z0-9-]*)\s*(?:\((.*)\))?\s*$", text.strip().lower())
        if not m:
            raise RulesetError.of(R.NOT_A_BESIGUE_RULESET, text=text)
        name, body = m.group(1), m.group(2)
        if name not in PRESETS:
            raise RulesetError.of(R.UNKNOWN_BESIGUE_PRESET, name=name, presets=list(PRESETS))
        rules = PRESETS[name][0]
        changes: dict[str, object] = {}
        for part in (body or "").split(","):
            if not part.strip():
                continue
            key, eq, value = (x.strip() for x in part.partition("="))
            if not eq or key not in OPTIONS:
                raise RulesetError.of(R.UNKNOWN_BESIGUE_OPTION, text=part.strip(), options=list(OPTIONS))
            allowed = OPTIONS[key][0]
            if allowed == "int":
                if not value.isdigit() or int(value) <= 0:
                    raise RulesetError.of(R.BESIGUE_POSITIVE, name=key, value=value)
                changes[key] = int(value)
            elif value not in allowed:
                raise RulesetError.of(R.BESIGUE_CHOICES, name=key, value=value, choices=list(allowed))
            else:
                changes[key] = int(value) if key == "hand" else value
        return replace(rules, **changes)  # type: ignore[arg-type]


#: preset name -> (rules, description)
PRESETS: dict[str, tuple[BesigueRules, str]] = {
    "besigue": (
        BesigueRules(),
        N_(
            "Bésigue for two, as the French rules of reference state it: 9 cards, aces score, drawn 7 of trumps shown, "
            "1000 points"
        ),
    ),
    "besigue-english": (
        BesigueRules(preset="besigue-english", hand=8, brisques="aces_and_tens", seven="exchange", endgame="must_win"),
        N_(
            "the common English rules: 8 cards, aces and tens score, the 7 of trumps "
            "exchanged for the turn-up, must win the last tricks, 1000 points"
        ),
    ),
}


def is_besigue(text: str) -> bool:
    """Whether a rules text names a Bésigue preset (so the CLI opens this game)."""
    return re.split(r"[\s(]", text.strip().lower(), maxsplit=1)[0] in PRESETS


#: The short game's target: about half the deals of a game to 1000, some twenty minutes.
SHORT_TARGET = 500


def short_form(rules: BesigueRules) -> BesigueRules:
    """The short game of these rules: played to `SHORT_TARGET` points (a lower target already set is kept)."""
    return rules.replace(target=min(rules.target, SHORT_TARGET))
