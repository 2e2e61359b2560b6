"""The rules pages: every preset explained, rendered from `barbu.guide` (never a second copy of the rules)."""

from __future__ import annotations

from typing import Any

from ..besigue.actions import MELD_NAMES, MELD_VALUES
from ..besigue.ruleset import OPTIONS as BESIGUE_OPTIONS, PRESETS as BESIGUE_PRESETS, BesigueRules
from ..core.errors import BarbuError
from ..games import game_kind
from ..guide import Guide, Section, Table, rules_guide
from ..classic.ruleset import presets
from ..classic.ruleset import Ruleset
from ..core.words import ENGLISH, Words
from ..i18n import translator


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


def games(words: Words = ENGLISH) -> list[tuple[str, str]]:
    """Every preset of every game, with its description in ``words``' language."""
    return ([(p.name, words.gettext(p.description)) for p in presets()]
            + [(k, words.gettext(d)) for k, (_, d) in BESIGUE_PRESETS.items()])


def guide_of(text: str, lang: str = "en") -> tuple[Guide, str] | None:
    """The guide of a preset or ruleset text and the preset it names; None if it names no game.

    The guide is written in ``lang`` where the guide speaks it (`barbu.i18n.rules`), else in English.
    """
    if game_kind(text).name == "besigue":
        try:
            b = BesigueRules.parse(text)
        except BarbuError:
            return None
        return besigue_guide(b), b.preset
    try:
        rules = Ruleset.parse(text)
    except BarbuError:
        return None
    return rules_guide(rules), rules.preset


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
    context.update(current=preset, guide=guide, sections=[(s.heading, blocks(s)) for s in guide.sections])
    return context


MELD_CARDS = {
    "marriage": "K and Q of a suit", "trump-marriage": "K and Q of trumps", "bezique": "Q♠ and J♦",
    "double-bezique": "both Q♠ and both J♦", "four-jacks": "any four jacks", "four-queens": "any four queens",
    "four-kings": "any four kings", "four-aces": "any four aces", "quint": "A 10 K Q J of trumps",
}


def besigue_guide(r: BesigueRules) -> Guide:
    """Bésigue's rules page, from the ruleset and the engine's tables of combinations and options."""
    last = ("follow suit and head the trick if you can, else trump if you can"
            if r.endgame == "must_win" else "follow suit if you can, else trump if you can")
    seven = ("after winning a trick, the holder of the 7 of trumps may exchange it for the turn-up, "
             "or show the other one: 10 points, in place of that trick's declaration"
             if r.seven == "exchange" else "the 7 of trumps scores 10 when it is drawn from the stock, shown at once")
    brisques = "each ace and each 10" if r.brisques == "aces_and_tens" else "each ace"
    game = Section("The game", (
        f"Two players, 64 cards (two packs of 32), ranked A 10 K Q J 9 8 7. Each is dealt {r.hand} cards; "
        f"the rest ({r.stock_size} cards) is the stock, its bottom card turned up: its suit is trumps "
        "(a 7 turned up scores 10 for the dealer).",
        f"The game ends at the end of a deal in which a player has reached {r.target} points; "
        "the higher total wins.",
    ))
    play = Section("The play", (
        "The non-dealer leads. While the stock lasts there is no duty: play any card. The higher card of the "
        "suit led wins, or a trump over another suit; of two identical cards the first played wins.",
        "The winner of a trick may declare one combination by laying its cards face up before him; they stay "
        "his and he may play them from there later. Then both draw from the stock, the winner first.",
        f"When the stock is empty the declared cards go back to the hands and the last {r.hand} tricks are "
        f"played: you must {last}.",
    ))
    combos = Section("Combinations", (
        Table(("combination", "cards", "points"),
              tuple((MELD_NAMES[k].removeprefix("a ").capitalize(), MELD_CARDS[k], str(v))
                    for k, v in sorted(MELD_VALUES.items(), key=lambda kv: -kv[1]))),
        "A declaration takes at least one card from the hand. A card already declared may serve again only in "
        "a combination of another kind.",
    ))
    other = Section("Other points", (
        (f"10 for {brisques} won in tricks (brisques), counted at the end of the deal",
         "10 for the last trick", seven),
    ))
    options = Section("Options", (
        Table(("option", "value", "meaning"),
              tuple((name, str(getattr(r, name)), meaning + (f" — {values[str(getattr(r, name))]}"
                                                             if str(getattr(r, name)) in values else ""))
                    for name, (_, meaning, values) in BESIGUE_OPTIONS.items())),
    ))
    return Guide(f"Bésigue — {r}", (game, play, combos, other, options))
