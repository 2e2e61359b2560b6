"""A ruleset text's identifiers as a person reads them: presets, options and their values, in one table of
words for the rules guide, `barbu rules` and the terminal.

A ruleset text names them by identifiers (``classic(heart_lead=first_trick)``): that is the notation typed on
the command line, and it stays as typed in every language.  What a person reads is words in his language:
"Classic", "leading hearts: not on the first trick".  The browser keeps its own table of the same
words (web/static/js/tablewords.js), since its words travel in the web catalog.
"""

from __future__ import annotations

from typing import Any

from ..core.words import ENGLISH, N_, Words

#: Each preset of either family by its identifier, worded as a game's name.
PRESET_NAMES = {
    "classic": N_("Classic"),
    "italian": N_("Italian Barbù"),
    "italian-six": N_("Italian Barbù, six contracts"),
    "salad": N_("Salad"),
    "french": N_("French Barbu"),
    "scottish": N_("Scottish Barbu"),
    "besigue": N_("Bésigue"),
    "besigue-english": N_("English Bésigue"),
}

#: Each option of either family by its identifier, worded as a label.
OPTION_NAMES = {
    "players": N_("players"),
    "rotation": N_("rotation"),
    "doubling": N_("doubling"),
    "double_obligation": N_("double obligation"),
    "undoubled_negative": N_("negative deal not doubled"),
    "heart_lead": N_("leading hearts"),
    "trump_rules": N_("trump rules"),
    "allow_no_trump": N_("no-trump allowed"),
    "domino_ace": N_("the ace in Domino"),
    "stop_when_decided": N_("early end of a deal"),
    "ravage_city": N_("Ravage City"),
    "ravage_value": N_("Ravage City value"),
    "chinese_poker": N_("Chinese poker"),
    "sets": N_("Sets"),
    "contracts_each": N_("contracts each"),
    # Bésigue's
    "hand": N_("cards in hand"),
    "brisques": N_("brisques"),
    "seven": N_("seven of trumps"),
    "endgame": N_("last tricks"),
    "target": N_("target score"),
}

#: A value alone, in a word or two: a menu's choices, "Leading hearts: not on the first trick."
VALUE_WORDS = {
    "true": N_("yes"),
    "false": N_("no"),
    "dealer": N_("by series"),
    "quick": N_("quick"),
    "classic": N_("classic"),
    "none": N_("none"),
    "split": N_("split"),
    "play": N_("play"),
    "never_unless_only_hearts": N_("never unless only hearts"),
    "first_trick": N_("not on the first trick"),
    "until_broken": N_("once hearts are broken"),
    "italian": N_("Italian"),
    "high": N_("high"),
    "low": N_("low"),
}

#: A value of one option, as the rules' tables say what it does ("option=value").
VALUE_PHRASES = {
    "rotation=dealer": N_("each dealer deals a series in a row and declares each time"),
    "rotation=quick": N_("the deal passes left every deal; the dealer declares"),
    "doubling=classic": N_("doubles and redoubles once round the table, the dealer last"),
    "doubling=none": N_("no doubling"),
    "undoubled_negative=split": N_("not played, its points shared by the players who did not deal"),
    "undoubled_negative=play": N_("played as usual"),
    "heart_lead=never_unless_only_hearts": N_("never, unless you hold only hearts"),
    "heart_lead=first_trick": N_("not on the first trick"),
    "heart_lead=until_broken": N_("once a heart has been discarded on another suit"),
    "heart_lead=none": N_("any time"),
    "trump_rules=classic": N_("head the trick when trumps are led; overtrump when a plain suit is trumped"),
    "trump_rules=italian": N_("Italian: trump and overtrump, no duty to head a trump lead"),
    "domino_ace=high": N_("high: after the king"),
    "domino_ace=low": N_("low: below the two"),
}

#: What an option is about, for those whose help names their values by identifier ("dealer: …; quick: …").
OPTION_ABOUT = {
    "rotation": N_("who deals and who declares the contract of each deal"),
    "doubling": N_("whether the players double one another"),
    "undoubled_negative": N_("what becomes of a negative deal nobody doubles"),
    "trump_rules": N_("what you must play at trumps"),
    "domino_ace": N_("where the ace goes in the rows"),
}


def preset_name(preset: str, w: Words = ENGLISH) -> str:
    """A preset by its name: ``italian`` reads "Italian Barbù" ("Barbù italiano")."""
    return w.gettext(PRESET_NAMES[preset]) if preset in PRESET_NAMES else preset


def game_name(rules: Any, w: Words = ENGLISH) -> str:
    """A table's game in words, from its ruleset or ruleset text: ``classic`` reads "Classic",
    ``classic(heart_lead=none)`` "Classic, 1 option changed" (the rules guide says which)."""
    text = str(rules)
    name, _paren, options = text.partition("(")
    pairs = [o.replace(" ", "") for o in options.rstrip(") ").split(",") if o.strip()]
    game = preset_name(name.strip(), w)
    if any(_is_short(o) for o in pairs):  # a short match says so, not "2 options changed" (as the web's title)
        game = w.gettext("{game}, short match").format(game=game)
        pairs = [o for o in pairs if not _is_short(o) and o != "double_obligation=1"]
    changed = len(pairs)
    if not changed:
        return game
    return w.ngettext("{game}, {n} option changed", "{game}, {n} options changed", changed).format(
        game=game, n=w.number(changed)
    )


def _is_short(option: str) -> bool:
    """Whether ``name=value`` is what makes a match short: contracts each, or Bésigue to under 1000 points."""
    key, _eq, value = option.partition("=")
    return key == "contracts_each" or (key == "target" and value.isdigit() and int(value) < 1000)


def option_label(name: str, w: Words = ENGLISH) -> str:
    """An option by its label: ``heart_lead`` reads "leading hearts" ("entame à cœur")."""
    return w.gettext(OPTION_NAMES[name]) if name in OPTION_NAMES else name.replace("_", " ")


def value_word(value: Any, w: Words = ENGLISH) -> str:
    """A value alone, short: ``first_trick`` reads "not on the first trick"; a number in the language's digits."""
    if isinstance(value, bool):
        value = "true" if value else "false"
    if isinstance(value, int):
        return w.number(value)
    text = str(value)
    return w.gettext(VALUE_WORDS[text]) if text in VALUE_WORDS else text.replace("_", " ")


def value_phrase(name: str, value: Any, w: Words = ENGLISH) -> str:
    """One option's value as the rules' tables say it: what this table plays, in a phrase."""
    key = f"{name}={'true' if value is True else 'false' if value is False else value}"
    return w.gettext(VALUE_PHRASES[key]) if key in VALUE_PHRASES else value_word(value, w)


def option_about(name: str, help_: str, w: Words = ENGLISH) -> str:
    """What an option is about, in words free of identifiers (its help, unless that names values by identifier)."""
    return w.gettext(OPTION_ABOUT.get(name, help_))
